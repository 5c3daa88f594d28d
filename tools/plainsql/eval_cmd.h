// `plainsql eval score | subsets | run | haystack`: score predictions or schema subsets against a benchmark, run a
// system on it into the runs database, or build the haystack schema.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "haystack_cmd.h"

namespace plainsql::eval {
struct RunRequest;
}

namespace plainsql::cli {

class EvalCommands {
 public:
  explicit EvalCommands(CLI::App& app);
  bool Selected() const { return root_->parsed(); }
  int Run();

 private:
  int Score();
  int RunBenchmark();
  /// The run's correctness estimator from --estimator (nothing for "none", or by default for a system other than
  /// builtin).
  Status SetEstimator(eval::RunRequest& request, const std::string& system) const;
  int Subsets();

  CLI::App* root_ = nullptr;
  CLI::App* score_ = nullptr;
  CLI::App* run_ = nullptr;
  CLI::App* subsets_ = nullptr;
  std::unique_ptr<HaystackCommand> haystack_;  // eval haystack (haystack_cmd.h)
  std::string infer_keys_;  // eval run --infer-keys[=add|replace]: the built-in translator on inferred keys
  std::string system_, runs_file_ = "plainsql-runs.db", name_, resume_, config_file_, configuration_, examples_;
  std::string benchmark_ = "spider", questions_, tables_, db_dir_, predictions_, subsets_file_, subset_, html_;
  std::string crosswalk_dir_, level_, via_;
  std::string estimator_;  // eval run --estimator: a model file, "none", or "" (the shipped one for builtin)
  std::vector<std::string> databases_, difficulties_;
  int64_t from_ = -1, to_ = -1;
  bool json_ = false, keep_distinct_ = false;
  int64_t timeout_ms_ = 30'000;
  int workers_ = 1;
};

}  // namespace plainsql::cli
