// Systems that `plainsql eval run` can measure besides a file of predictions: a pipeline configuration (an LLM through
// the ask pipeline; the built-in translator with issue #8). A system answers one question at a time; each worker has
// its own instance (its own connections and client).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "eval/benchmark.h"
#include "eval/score.h"
#include "exec/connection.h"
#include "pipeline/config.h"
#include "pipeline/generators.h"
#include "pipeline/pipeline.h"

namespace plainsql::eval {

struct SystemAnswer {
  std::string sql;                // "" when the system gave no query
  std::string error;              // why not
  std::optional<ErrorCode> code;  // of `error`
  std::vector<StageCost> stages;  // time and tokens per stage
};

class PipelineSystem {
 public:
  /// Fails when the generator cannot be built (no model, unknown prompt style). With `builtin`, the generator is the
  /// built-in translator (one per database) and the configuration's [llm] part is not used.
  static Result<std::unique_ptr<PipelineSystem>> Create(const pipeline::PipelineConfig& config, std::string db_dir,
                                                        bool builtin = false);
  /// Runs the pipeline on the question's database (read-only; introspected once per database, with sample values).
  /// A question the pipeline cannot answer is an answer with an error; only a database that cannot be opened fails.
  Result<SystemAnswer> Answer(const Question& question);

 private:
  PipelineSystem() = default;
  struct Db {
    std::unique_ptr<exec::Connection> conn;
    std::unique_ptr<catalog::Schema> schema;  // stable address: the generators keep a reference
    pipeline::GeneratorSet generators;        // pipeline::MakeGenerators for this database
  };
  pipeline::PipelineConfig config_;
  std::string db_dir_;
  std::map<std::string, Db> dbs_;
};

/// The system string a run stores for a pipeline configuration ("pipeline:" and the configuration as JSON, without
/// the API key), and back (the key from the environment).
std::string PipelineSystemSpec(const pipeline::PipelineConfig& config);
Result<pipeline::PipelineConfig> PipelineConfigFromSpec(const std::string& spec);
/// A run's system for people: "pipeline MODEL (STYLE, k=K)" for a stored pipeline configuration, else as stored.
std::string SystemLabel(const std::string& system);

}  // namespace plainsql::eval
