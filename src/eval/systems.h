// Systems that `plainsql eval run` can measure besides a file of predictions: a pipeline configuration (an LLM through
// the ask pipeline; the built-in translator with issue #8), optionally in one of the NATURAL thesis's configurations
// (Baseline, Zero-Shot, Train, Ground). A system answers one question at a time; each worker has its own instance (its
// own connections and client); the example store, loaded once, is shared by all.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "eval/benchmark.h"
#include "eval/levels.h"
#include "eval/score.h"
#include "eval/subset_source.h"
#include "examples/mask.h"
#include "examples/store.h"
#include "exec/connection.h"
#include "linking/infer_keys.h"
#include "pipeline/config.h"
#include "pipeline/generators.h"
#include "pipeline/pipeline.h"

namespace plainsql::eval {

struct SystemAnswer {
  std::string sql;                   // "" when the system gave no query
  std::string error;                 // why not
  std::optional<ErrorCode> code;     // of `error`
  std::vector<StageCost> stages;     // time and tokens per stage
  std::optional<double> confidence;  // the winning candidate's, when its generator gives one
};

/// The thesis's configurations (NATURAL, section 6.1.4-6.1.5), by name:
///   baseline  — the model's answer alone (one candidate; no draft, no refinement, no vote, no examples);
///   zero-shot — every pipeline stage (draft, refinement, voting as configured) but no examples;
///   train     — as zero-shot, with examples from a store built from another split (`store`);
///   ground    — as zero-shot, with examples from a store built from the benchmark's own questions (`store`), leaving
///               out the question being asked (an upper bound: a deployment that has seen past questions).
std::vector<std::string> Configurations();
/// Applies configuration `name` ("" changes nothing) to `config`; `store` is the example store train and ground need
/// (and the others refuse).
Status ApplyConfiguration(pipeline::PipelineConfig& config, const std::string& name, const std::string& store);

class PipelineSystem {
 public:
  /// Fails when the generator cannot be built (no model, unknown prompt style). With `builtin`, the generator is the
  /// built-in translator (one per database) and the configuration's [llm] part is not used. `examples` is the store
  /// config.examples names, loaded (null: none); with the ground configuration each question's own entry is left out.
  /// With `infer_keys`, each database's schema gets inferred keys after introspection (kReplace: its declared keys are
  /// dropped first, to measure answering with inferred keys alone).
  static Result<std::unique_ptr<PipelineSystem>> Create(
      const pipeline::PipelineConfig& config, std::string db_dir, bool builtin = false,
      std::shared_ptr<const examples::ExampleLibrary> examples = nullptr,
      std::optional<linking::KeyInferenceMode> infer_keys = std::nullopt);
  /// Runs the pipeline on the question's database (read-only; introspected once per database, with sample values).
  /// A question the pipeline cannot answer is an answer with an error; only a database that cannot be opened fails.
  Result<SystemAnswer> Answer(const Question& question);
  /// From now on each question's schema is restricted to the subset `subsets` gives it (eval run --subset;
  /// catalog/restrict.h): the generators are built on the restricted schema for that question, the pipeline does not
  /// slice it further; a "subset" stage records the time the subset took, a "restrict" stage the time of restricting
  /// the schema and building the generators on it.
  void UseSubsets(std::unique_ptr<SubsetSupplier> subsets) { subsets_ = std::move(subsets); }
  /// From now on the generators see each database under `names`' crosswalk (levels.h; `<db_id>.csv` in its
  /// directory), and the pipeline translates their SQL back to the native names before anything runs. A database
  /// without a crosswalk there is an error, as one that cannot be opened (the runner checks beforehand). Through views
  /// (`names.via_views`), each database is seen through its natural views, deployed in a companion database in a
  /// temporary directory of this system's (removed with it): the pipeline introspects the views (no keys: a view
  /// declares none; the native comments are carried over), its candidates run on them, and the answer is translated
  /// back to the native names to be scored.
  void UseNames(const NamesLevel& names) { names_ = names; }
  ~PipelineSystem();
  PipelineSystem(const PipelineSystem&) = delete;
  PipelineSystem& operator=(const PipelineSystem&) = delete;

 private:
  PipelineSystem() = default;
  struct Db {
    std::unique_ptr<exec::Connection> conn;
    std::unique_ptr<catalog::Schema> schema;           // stable address: the generators keep a reference
    pipeline::GeneratorSet generators;                 // pipeline::MakeGenerators for this database
    std::unique_ptr<retrieval::ValueIndex> values;     // with examples: for masking questions
    std::unique_ptr<examples::QuestionMasker> masker;  // over schema and values
    std::optional<naturalness::Crosswalk> crosswalk;   // with a names level: the database's
    std::optional<sql::NameCatalog> native;            // through views: the native names, to translate answers back
  };
  // Through views: `path`'s natural views at the names level, deployed in a companion database; the connection to it
  // replaces d.conn and its schema (the views) d.schema.
  Status SeeThroughViews(const std::string& path, const std::string& db_id, Db& d);
  Result<Db*> Database(const std::string& db_id);
  pipeline::PipelineConfig config_;
  std::shared_ptr<const examples::ExampleLibrary> examples_;
  std::optional<linking::KeyInferenceMode> infer_keys_;
  std::string db_dir_;
  std::map<std::string, Db> dbs_;
  std::unique_ptr<SubsetSupplier> subsets_;
  std::optional<NamesLevel> names_;
  std::string views_dir_;  // through views: the companion databases, made on first use
};

/// The built-in translator's system string with key inference ("builtin", "builtin:infer-keys=add" or
/// "builtin:infer-keys=replace"), and back: nullopt when `system` is not the built-in translator; an error for an
/// unknown mode.
std::string BuiltinSystemSpec(std::optional<linking::KeyInferenceMode> infer_keys);
std::optional<Result<std::optional<linking::KeyInferenceMode>>> ParseBuiltinSystem(const std::string& system);

/// The system string a run stores for a pipeline configuration ("pipeline:" and the configuration as JSON, without
/// the API key), and back (the key from the environment).
std::string PipelineSystemSpec(const pipeline::PipelineConfig& config);
Result<pipeline::PipelineConfig> PipelineConfigFromSpec(const std::string& spec);
/// A run's system for people: "pipeline MODEL (STYLE, k=K)" for a stored pipeline configuration (with the thesis's
/// configuration or the example store when it has one), else as stored; with " [subset SPEC]" when the run fed its
/// system schema subsets (subset_source.h).
std::string SystemLabel(const std::string& system);

}  // namespace plainsql::eval
