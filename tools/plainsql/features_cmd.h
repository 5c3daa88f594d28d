// `plainsql features`: the SQLSpace features of examples (src/features/): the catalog (--list), one question on a
// database (CONN "question" [--sql SQL]) or every question of a benchmark (--questions Q, one JSON line each or a
// summary of each feature's share).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "common/status.h"

namespace plainsql::features {
class ModelJudge;
}

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
  /// With --judge, the model judge (the model from --llm / --model, else the environment); null without --judge.
  Result<std::unique_ptr<features::ModelJudge>> Judge() const;

  CLI::App* cmd_ = nullptr;
  std::string conn_, question_, sql_, tables_, db_dir_, questions_, benchmark_ = "spider";
  bool list_ = false, json_ = false, no_sql_ = false;
  bool judge_ = false;  // --judge: a model judges the Source::kModel features
  std::string llm_url_, model_, judge_cache_;
};

}  // namespace plainsql::cli
