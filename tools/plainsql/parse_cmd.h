// `plainsql parse`: a query parsed and printed again, in the same or another dialect, masked, as a skeleton or with
// every column qualified; one query or one per standard-input line.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace plainsql::cli {

class ParseCommand {
 public:
  explicit ParseCommand(CLI::App& app);
  bool Selected() const { return command_->parsed(); }
  int Run();

 private:
  CLI::App* command_ = nullptr;
  std::string sql_, dialect_ = "sqlite", to_, conn_, tables_file_, db_id_;
  bool pretty_ = false, lines_ = false, mask_ = false, skeleton_ = false, qualify_ = false;
};

}  // namespace plainsql::cli
