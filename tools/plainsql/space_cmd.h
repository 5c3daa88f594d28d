// `plainsql space compare`: benchmark composition over SQLSpace features (src/features/compare.h); `plainsql space
// estimator train | eval`: the correctness estimator (src/features/estimator.h) fitted on, or measured against, a
// stored run's outcomes.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace plainsql::cli {

class SpaceCommands {
 public:
  explicit SpaceCommands(CLI::App& app);
  bool Selected() const { return root_->parsed(); }
  int Run();

 private:
  int Compare();
  int EstimatorTrain();
  int EstimatorEval();

  CLI::App* root_ = nullptr;
  CLI::App* compare_ = nullptr;
  CLI::App* estimator_ = nullptr;
  CLI::App* train_ = nullptr;
  CLI::App* eval_ = nullptr;
  std::string runs_file_ = "plainsql-runs.db", run_, out_, model_;
  double validation_ = 0.2;
  int rounds_ = 150, depth_ = 3, folds_ = 5;
  double eta_ = 0.1;
  std::vector<std::string> files_, names_, train_runs_;
  std::string html_;
  size_t top_ = 8;
  bool json_ = false;
};

}  // namespace plainsql::cli
