// `plainsql sql`: one read-only query, with a timeout and a row cap, printed as a table, CSV or JSON.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace plainsql::cli {

class SqlCommand {
 public:
  explicit SqlCommand(CLI::App& app);
  bool Selected() const { return command_->parsed(); }
  int Run();

 private:
  CLI::App* command_ = nullptr;
  std::string conn_, query_, format_ = "table";
  int64_t timeout_ms_ = 30'000, max_rows_ = 10'000;
};

}  // namespace plainsql::cli
