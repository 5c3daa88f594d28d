// `plainsql eval score`: every metric for a file of predictions against a benchmark.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace plainsql::cli {

class EvalCommands {
 public:
  explicit EvalCommands(CLI::App& app);
  bool Selected() const { return root_->parsed() || runs_->parsed(); }
  int Run();

 private:
  int Score();
  int RunBenchmark();
  int Subsets();
  int Runs();

  CLI::App* root_ = nullptr;
  CLI::App* score_ = nullptr;
  CLI::App* run_ = nullptr;
  CLI::App* subsets_ = nullptr;
  CLI::App* runs_ = nullptr;
  CLI::App* runs_list_ = nullptr;
  CLI::App* runs_show_ = nullptr;
  CLI::App* runs_compare_ = nullptr;
  CLI::App* runs_export_ = nullptr;
  CLI::App* runs_report_ = nullptr;
  CLI::App* runs_stats_ = nullptr;
  std::string report_out_;
  std::string system_, runs_file_ = "plainsql-runs.db", name_, resume_, run_a_, run_b_, export_format_ = "jsonl";
  std::string benchmark_ = "spider", questions_, tables_, db_dir_, predictions_, subsets_file_, config_file_;
  std::vector<std::string> databases_, difficulties_;
  int64_t from_ = -1, to_ = -1;
  bool json_ = false, keep_distinct_ = false;
  int64_t timeout_ms_ = 30'000;
  int workers_ = 1;
};

}  // namespace plainsql::cli
