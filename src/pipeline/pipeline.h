// The ask pipeline: a question in, SQL and its answer out. Stages, in the order of ARCHITECTURE.md (each a function
// with typed inputs and outputs, each traced with its time and tokens): catalog (the snapshot given) -> naturalness
// (the names shown to generators and the translator back to native names, built once per question) -> linking (an
// optional zero-shot draft finds the schema slice) -> examples (few-shot examples from an example store, selected by
// masked question and draft similarity and schema-graph distance; a no-op without a store) -> generate
// (k candidates from every generator) -> refine (parse once, check, rewrite to native names, execute; on an error, an
// unknown name or an empty result, give the reason back to the generator; bounded rounds) -> vote (bucket the
// candidates that ran by result, keep the largest bucket) -> rewrite (what the winner became in native names) ->
// execute (read-only, time-limited, row-capped) -> answer. A candidate carries its syntax tree from the generator to
// the executor; text is printed only at the edges. When every model fails (unreachable, hung, no usable SQL), an
// offline generator (the built-in translator) answers, with a note saying so.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"
#include "generate/generator.h"
#include "linking/subset.h"
#include "llm/client.h"
#include "naturalness/crosswalk.h"
#include "pipeline/examples_stage.h"
#include "sql/ast.h"

namespace plainsql::pipeline {

// The generate stage's interface (generate/generator.h), under the names the pipeline has always used.
using generate::Generation;
using generate::GenerationRequest;
using generate::Generator;

/// The longest question Ask takes (BIRD's longest question with its evidence is under 1,000 bytes): a longer text
/// is refused at once rather than read for minutes by the linking stages.
inline constexpr size_t kMaxQuestionBytes = 20'000;

/// The column budget of a linked slice (Options::link), `link_budget` in plainsql.toml.
inline constexpr size_t kDefaultLinkBudget = 600;

struct StageTrace;

struct Options {
  bool draft = false;  // a zero-shot draft first, to find the schema slice
  /// The schema sent with the question: "full"; "referenced" (the tables a draft reads, when it reads any); "link"
  /// (the tables and columns `subsetter` keeps, with their keys); "auto": link when the schema has more than
  /// `link_above` columns, else full.
  std::string slice = "auto";
  size_t link_above = 1000;
  /// For link: the caller's subsetter over the schema shown (built once per database, its indexes reused); null: the
  /// built-in method, built for this question.
  linking::Subsetter* subsetter = nullptr;
  /// Its budget and threshold. The budget keeps a linked slice to a prompt a model reads (600 columns, about 4,000
  /// tokens): on the haystack's held-out Spider train questions, the smallest budget whose PRe is within 0.01 of no
  /// cap's (docs/BENCHMARKS.md, "Schema subsetting, sixteenth part"); 0: no cap.
  linking::SubsetOptions link{kDefaultLinkBudget, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  int candidates = 1;       // k per generator
  double temperature = -1;  // < 0: 0 for one candidate, 0.7 for more
  bool refine = true;
  int max_refinements = 2;                                  // rounds per candidate
  bool refine_empty = true;                                 // an empty result counts as a problem worth one refinement
  bool vote = true;                                         // off: the first candidate that runs wins
  exec::Limits limits;                                      // for every execution (cut to what the deadline leaves)
  const naturalness::Crosswalk* crosswalk = nullptr;        // when set, generators see the names of `level`
  naturalness::Level level = naturalness::Level::kRegular;  // N1
  std::string evidence;                                     // extra knowledge for the prompt (BIRD's evidence)
  /// The whole question ends by then: model calls (attempts, retries, backoff, refinements) stop at 90% of it, so
  /// that the fallback and the query still fit.
  std::chrono::milliseconds deadline{60'000};
  /// When every model fails, `fallback_generator` answers (with a note in Answer::notes).
  bool fallback = true;
  Generator* fallback_generator = nullptr;
  generate::WaitCallback on_wait;  // told what the pipeline waits for (a terminal shows it); may be empty
  /// Told each stage as it ends, with its trace (a server streams them); may be empty.
  std::function<void(const StageTrace&)> on_stage;
  /// Few-shot examples (the examples stage): the loaded store, k, what to leave out. No store: the stage is a no-op.
  ExamplesOptions examples;
};

/// One candidate's fate.
struct Candidate {
  std::string generator;
  std::string sql;         // as generated (natural names when a crosswalk is active), after refinement
  std::string native_sql;  // what ran, printed from `native` (the winner only; "" for the others)
  std::string status;      // "ok", "empty", "error", "refused", "no sql", "unknown name", "not needed" (a later
                           // ranked reading whose generator's earlier reading ran)
  std::string problem;     // the last problem seen ("" when it ran)
  int refinements = 0;
  std::string fingerprint;                   // of its result, when it ran
  size_t votes = 0;                          // the size of its result's bucket
  double confidence = -1;                    // from the generator (0..1), or -1 when it gives none
  std::string caveat;                        // from the generator: what the candidate leaves out
  std::string unsure;                        // from the generator: why not to present it as the answer ("": none)
  std::shared_ptr<const sql::Query> query;   // `sql` as a tree (parsed once, or built by the generator)
  std::shared_ptr<const sql::Query> native;  // `query` in native names: what ran
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
  double own_ms = 0;               // the pipeline's own work: wall time minus model and database waits
  std::vector<std::string> notes;  // for the user: e.g. that the model failed and the built-in translator answered
  bool fell_back = false;          // the fallback generator answered
};

/// Runs the pipeline. Fails (kNotFound) when no candidate yields a runnable query, with every candidate's problem;
/// with a single generator that fails and no fallback, with its error; (kInvalidArgument) at once for an empty or
/// blank question and one over kMaxQuestionBytes.
Result<Answer> Ask(exec::Connection& conn, const catalog::Schema& schema, const std::vector<Generator*>& generators,
                   const std::string& question, const Options& options);

/// {"sql", "columns", "rows", "truncated", "notes" (when any), "trace": {"stages": [...], "candidates": [...],
/// "own_ms"}}.
nlohmann::ordered_json AnswerToJson(const Answer& answer);
/// The trace as readable lines (for --explain).
std::string TraceText(const Answer& answer);

}  // namespace plainsql::pipeline
