// `plainsql schema`: a database's schema as DDL, JSON, a prompt's rendering or a list, optionally with a crosswalk's
// natural names, and with keys the database does not declare inferred from names and data (--infer-keys).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "catalog/schema.h"
#include "common/status.h"

namespace plainsql::cli {

class SchemaCommand {
 public:
  explicit SchemaCommand(CLI::App& app);
  bool Selected() const { return command_->parsed(); }
  int Run();

 private:
  CLI::App* command_ = nullptr;
  std::string conn_, format_ = "ddl", dialect_, schema_filter_, tables_file_, db_id_, crosswalk_file_, level_ = "N1";
  std::string infer_keys_;             // "" (off), "add" or "replace"
  std::string descriptions_ = "auto";  // --descriptions: "auto", "none" or a data dictionary's path
  int samples_ = 3;
  bool no_cache_ = false, tokens_ = false;
};

}  // namespace plainsql::cli
