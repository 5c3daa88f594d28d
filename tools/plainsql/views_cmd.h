// `plainsql rename` (a crosswalk for a database), `plainsql views` (natural views: DDL, --apply, --drop) and
// `plainsql translate` (SQL between native names and the names of a naturalness level, no views needed).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "naturalness/namer.h"

namespace plainsql::cli {

class ViewsCommands {
 public:
  explicit ViewsCommands(CLI::App& app);
  bool Selected() const { return views_->parsed() || translate_->parsed() || rename_->parsed(); }
  int Run();

 private:
  int Views();
  int Translate();
  int Rename();

  CLI::App* views_ = nullptr;
  CLI::App* translate_ = nullptr;
  CLI::App* rename_ = nullptr;
  std::vector<std::string> dictionaries_;
  std::string out_, data_dir_, llm_url_, llm_model_;
  std::string name_model_file_;
  double min_posterior_ = 0.25;
  double agreement_ = naturalness::NamingOptions::kDefaultAgreement;
  std::string conn_, tables_file_, db_id_, crosswalk_file_, level_ = "N1", dialect_, namespace_ = "db_nl", companion_;
  bool extended_ = false, apply_ = false, drop_ = false, strict_ = false;
  std::string from_, to_, sql_;
  std::string infer_keys_;  // views --infer-keys: "" (off), "add" or "replace"
};

}  // namespace plainsql::cli
