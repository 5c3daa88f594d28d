// `plainsql runs list | show | compare | export | stats | report | blindspots`: what the runs database holds.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace plainsql::cli {

class RunsCommands {
 public:
  explicit RunsCommands(CLI::App& app);
  bool Selected() const { return root_->parsed(); }
  int Run();

 private:
  int Report();
  int BlindSpots();
  int Levels();

  CLI::App* root_ = nullptr;
  CLI::App* list_ = nullptr;
  CLI::App* show_ = nullptr;
  CLI::App* compare_ = nullptr;
  CLI::App* export_ = nullptr;
  CLI::App* report_ = nullptr;
  CLI::App* stats_ = nullptr;
  CLI::App* blindspots_ = nullptr;
  CLI::App* levels_ = nullptr;
  std::vector<std::string> level_runs_;
  std::optional<size_t> k_;
  std::string runs_file_ = "plainsql-runs.db", run_a_, run_b_, export_format_ = "jsonl", report_out_;
  bool json_ = false;
};

}  // namespace plainsql::cli
