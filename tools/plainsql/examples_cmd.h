// `plainsql examples build | add | stats | select | distances`: the example store that few-shot prompts draw on
// (src/examples): build it from a benchmark's solved questions (resumable, appending), add a user's own, look inside,
// try the selection, and print the WWL distances between schemas.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace plainsql::cli {

class ExamplesCommands {
 public:
  explicit ExamplesCommands(CLI::App& app);
  bool Selected() const { return root_->parsed(); }
  int Run();

 private:
  int Build();
  int Add();
  int Stats();
  int Select();
  int SelectOne();
  int SelectBenchmark();
  int Distances();

  CLI::App* root_ = nullptr;
  CLI::App* build_ = nullptr;
  CLI::App* add_ = nullptr;
  CLI::App* stats_ = nullptr;
  CLI::App* select_ = nullptr;
  CLI::App* distances_ = nullptr;
  std::string store_, benchmark_ = "spider", questions_, tables_, db_dir_, conn_, question_, sql_, db_id_, draft_;
  std::vector<std::string> databases_;
  size_t batch_ = 1000, k_ = 5;
  int threads_ = 0;
  bool json_ = false, no_draft_ = false, leave_out_same_ = false;
};

}  // namespace plainsql::cli
