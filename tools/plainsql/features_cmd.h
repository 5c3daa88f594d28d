// `plainsql features`: the SQLSpace features of examples (src/features/): the catalog (--list), one question on a
// database (CONN "question" [--sql SQL]) or every question of a benchmark (--questions Q, one JSON line each or a
// summary of each feature's share).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace plainsql::cli {

class FeaturesCommand {
 public:
  explicit FeaturesCommand(CLI::App& app);
  bool Selected() const { return cmd_->parsed(); }
  int Run();

 private:
  int RunList();
  int RunOne();
  int RunBenchmark();

  CLI::App* cmd_ = nullptr;
  std::string conn_, question_, sql_, tables_, db_dir_, questions_, benchmark_ = "spider";
  bool list_ = false, json_ = false, no_sql_ = false;
};

}  // namespace plainsql::cli
