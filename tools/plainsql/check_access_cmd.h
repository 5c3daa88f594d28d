// `plainsql check-access`: what the connected role can do beyond reading the schema, and the SQL for a minimal reader
// role (PostgreSQL) or file-permission advice (SQLite). The work is exec::CheckRoleAccess.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace plainsql::cli {

class CheckAccessCommand {
 public:
  explicit CheckAccessCommand(CLI::App& app);
  bool Selected() const { return command_->parsed(); }
  int Run();

 private:
  CLI::App* command_ = nullptr;
  std::string conn_, format_ = "text", role_name_ = "plainsql_reader";
};

}  // namespace plainsql::cli
