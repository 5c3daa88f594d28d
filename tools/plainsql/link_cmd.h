// `plainsql link`: the schema subset a question needs (src/linking/subset.h), for one question on a connection or for
// every question of a benchmark file (one JSON line each, the file `plainsql eval subsets` scores).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "common/status.h"
#include "linking/subset_skalpel.h"

namespace plainsql::cli {

class LinkCommand {
 public:
  explicit LinkCommand(CLI::App& app);
  bool Selected() const { return cmd_->parsed(); }
  int Run();

 private:
  int RunOne();
  int RunBenchmark();
  /// The skalpel method's options: plainsql.toml, then the environment, then the flags (as `ask` reads its LLM).
  Result<linking::SkalpelOptions> Skalpel() const;

  CLI::App* cmd_ = nullptr;
  std::string conn_, question_, tables_, db_dir_, questions_, benchmark_ = "spider", method_ = "builtin";
  size_t budget_ = 0;
  std::optional<double> threshold_;
  std::optional<double> min_share_;
  std::optional<bool> associations_;
  std::optional<size_t> small_table_;
  bool json_ = false;
  bool no_evidence_ = false;
  // skalpel: the LLM and the embedding model, and the distance thresholds.
  std::string llm_url_, model_, config_file_, embedding_url_, embedding_model_;
  std::string descriptions_ = "auto";    // --descriptions: "auto", "none" or a data dictionary's path
  std::string infer_keys_ = "isolated";  // --infer-keys: "none", "add", "replace" or "isolated"
  std::optional<double> max_distance_, column_distance_;
};

}  // namespace plainsql::cli
