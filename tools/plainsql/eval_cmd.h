// `plainsql eval score`: every metric for a file of predictions against a benchmark.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace plainsql::cli {

class EvalCommands {
 public:
  explicit EvalCommands(CLI::App& app);
  bool Selected() const { return root_->parsed(); }
  int Run();

 private:
  int Score();

  CLI::App* root_ = nullptr;
  CLI::App* score_ = nullptr;
  std::string benchmark_ = "spider", questions_, tables_, db_dir_, predictions_;
  std::vector<std::string> databases_, difficulties_;
  int64_t from_ = -1, to_ = -1;
  bool json_ = false, keep_distinct_ = false;
  int64_t timeout_ms_ = 30'000;
};

}  // namespace plainsql::cli
