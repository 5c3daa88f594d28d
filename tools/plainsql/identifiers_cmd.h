// `plainsql identifiers`: the tables and columns a query reads, and the names that do not resolve, as JSON.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace plainsql::cli {

class IdentifiersCommand {
 public:
  explicit IdentifiersCommand(CLI::App& app);
  bool Selected() const { return command_->parsed(); }
  int Run();

 private:
  CLI::App* command_ = nullptr;
  std::string conn_, sql_, dialect_, tables_file_, db_id_;
};

}  // namespace plainsql::cli
