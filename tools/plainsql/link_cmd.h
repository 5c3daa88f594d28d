// `plainsql link`: the schema subset a question needs (src/linking/subset.h), for one question on a connection or for
// every question of a benchmark file (one JSON line each, the file `plainsql eval subsets` scores).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace plainsql::cli {

class LinkCommand {
 public:
  explicit LinkCommand(CLI::App& app);
  bool Selected() const { return cmd_->parsed(); }
  int Run();

 private:
  int RunOne();
  int RunBenchmark();

  CLI::App* cmd_ = nullptr;
  std::string conn_, question_, tables_, db_dir_, questions_, benchmark_ = "spider", method_ = "builtin";
  size_t budget_ = 0;
  std::optional<double> threshold_;
  std::optional<size_t> small_table_;
  bool json_ = false;
};

}  // namespace plainsql::cli
