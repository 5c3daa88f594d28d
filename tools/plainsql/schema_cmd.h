// `plainsql schema`: a database's schema as DDL, JSON, a prompt's rendering or a list, optionally with a crosswalk's
// natural names.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace plainsql::cli {

class SchemaCommand {
 public:
  explicit SchemaCommand(CLI::App& app);
  bool Selected() const { return command_->parsed(); }
  int Run();

 private:
  CLI::App* command_ = nullptr;
  std::string conn_, format_ = "ddl", dialect_, schema_filter_, tables_file_, db_id_, crosswalk_file_, level_ = "N1";
  int samples_ = 3;
  bool no_cache_ = false, tokens_ = false;
};

}  // namespace plainsql::cli
