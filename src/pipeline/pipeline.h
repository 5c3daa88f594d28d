// The ask pipeline: a question in, SQL and its answer out. Stages (each can be switched off, each traced with its time
// and tokens): draft (one zero-shot candidate, used to find the schema slice) -> examples (a no-op until the example
// store exists) -> generate (k candidates from every generator, over the full schema or the slice) -> refine (execute;
// on an error, an unknown name or an empty result, give the reason back to the generator; bounded rounds) -> vote
// (bucket the candidates that ran by result, keep the largest bucket) -> translate (natural names back to native
// names when a crosswalk is active) -> execute (read-only, time-limited, row-capped) -> answer.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"
#include "llm/client.h"
#include "naturalness/crosswalk.h"

namespace plainsql::pipeline {

/// What a generator is asked: a question over a schema (already at the names the generator should use), or, with
/// `previous_sql` and `problem`, to repair a query.
struct GenerationRequest {
  std::string question, evidence;
  const catalog::Schema* schema = nullptr;
  std::string dialect;  // "sqlite", "postgres", "tsql"
  int n = 1;            // candidates wanted
  double temperature = 0;
  std::string previous_sql, problem;  // refinement
};

struct Generation {
  std::vector<std::string> candidates;  // SQL texts ("" when a reply held no SQL)
  int64_t prompt_tokens = 0, completion_tokens = 0;
  double wait_ms = 0;              // time spent waiting for a model (excluded from the pipeline's own work)
  std::vector<std::string> notes;  // what the generator linked or could not (shown in the trace)
  /// The candidates are readings ranked by the generator, not samples: the first that runs (with rows or empty)
  /// stands for the generator in the vote, and the later ones are tried only when the earlier ones fail.
  bool ranked = false;
  /// Per candidate, when the generator knows it: how much of the question the candidate accounts for (0..1), and
  /// what it left out ("not linked: meaning, life"). Empty when unknown.
  std::vector<double> confidence;
  std::vector<std::string> caveats;
};

/// A source of candidate SQL: an LLM, or (issue #8) the built-in translator.
class Generator {
 public:
  virtual ~Generator() = default;
  virtual std::string Name() const = 0;
  virtual Result<Generation> Generate(const GenerationRequest& request) = 0;
  /// Whether Generate can repair a query from `previous_sql` and `problem`.
  virtual bool CanRefine() const = 0;
};

/// An OpenAI-compatible model with a prompt style (llm/prompt.h: omnisql, snails_zero_shot, dail_sql) and the refine
/// prompt. The schema is rendered for the style (DDL with sample values, SNAILS lines, plain DDL).
Result<std::unique_ptr<Generator>> MakeLlmGenerator(llm::Config config, const std::string& style = "omnisql");

/// The built-in offline translator (src/builtin) as a generator for `conn`, whose native schema is `schema`: links the
/// question to the names of the schema it is given (native or natural), matches stored values (native schema only),
/// and fails with the reason when nothing links. Loads the naturalness data (expander) and builds the value index on
/// first use. `conn` and `schema` must outlive it.
Result<std::unique_ptr<Generator>> MakeBuiltinGenerator(exec::Connection& conn, const catalog::Schema& schema);

/// The exact messages an LLM generator would send for `request` (for `plainsql prompt`).
Result<std::vector<llm::Message>> BuildPrompt(const GenerationRequest& request, const std::string& style);

struct Options {
  bool draft = false;          // a zero-shot draft first, to find the schema slice
  std::string slice = "full";  // "full" or "referenced" (the tables the draft reads, when it reads any)
  int candidates = 1;          // k per generator
  double temperature = -1;     // < 0: 0 for one candidate, 0.7 for more
  bool refine = true;
  int max_refinements = 2;                                  // rounds per candidate
  bool refine_empty = true;                                 // an empty result counts as a problem worth one refinement
  bool vote = true;                                         // off: the first candidate that runs wins
  exec::Limits limits;                                      // for every execution
  const naturalness::Crosswalk* crosswalk = nullptr;        // when set, generators see the names of `level`
  naturalness::Level level = naturalness::Level::kRegular;  // N1
  std::string evidence;                                     // extra knowledge for the prompt (BIRD's evidence)
};

/// One candidate's fate.
struct Candidate {
  std::string generator;
  std::string sql;         // as generated (natural names when a crosswalk is active), after refinement
  std::string native_sql;  // what ran
  std::string status;      // "ok", "empty", "error", "refused", "no sql", "unknown name", "not needed" (a later
                           // ranked reading whose generator's earlier reading ran)
  std::string problem;     // the last problem seen ("" when it ran)
  int refinements = 0;
  std::string fingerprint;  // of its result, when it ran
  size_t votes = 0;         // the size of its result's bucket
  double confidence = -1;   // from the generator (0..1), or -1 when it gives none
  std::string caveat;       // from the generator: what the candidate leaves out
};

struct StageTrace {
  std::string stage;
  double ms = 0;       // wall time of the stage
  double wait_ms = 0;  // of which waiting for a model or the database
  int64_t prompt_tokens = 0, completion_tokens = 0;
  nlohmann::ordered_json detail = nlohmann::ordered_json::object();
};

struct Answer {
  std::string sql;  // native names, as executed
  exec::ResultSet result;
  std::vector<Candidate> candidates;
  size_t winner = 0;  // index into candidates
  std::vector<StageTrace> trace;
  double own_ms = 0;  // the pipeline's own work: wall time minus model and database waits
};

/// Runs the pipeline. Fails (kNotFound) when no candidate yields a runnable query, with every candidate's problem.
Result<Answer> Ask(exec::Connection& conn, const catalog::Schema& schema, const std::vector<Generator*>& generators,
                   const std::string& question, const Options& options);

/// {"sql", "columns", "rows", "truncated", "trace": {"stages": [...], "candidates": [...], "own_ms"}}.
nlohmann::ordered_json AnswerToJson(const Answer& answer);
/// The trace as readable lines (for --explain).
std::string TraceText(const Answer& answer);

}  // namespace plainsql::pipeline
