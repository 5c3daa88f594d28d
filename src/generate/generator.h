// The generate stage's interface: what a source of candidate SQL (an LLM, the built-in translator) is asked, and what
// it gives back. The generators themselves live with what they wrap (llm/generator.h, builtin/generator.h); the
// pipeline (src/pipeline) only sees this interface.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "sql/ast.h"
#include "sql/dialect.h"

namespace plainsql::generate {

using Clock = std::chrono::steady_clock;

/// Called while a generator waits on something slow (a model server): what it waits for and for how long so far.
/// At most about once a second; never with a secret in `what`.
using WaitCallback = std::function<void(const std::string& what, double seconds)>;

/// A solved example for a few-shot prompt (the examples stage, src/examples): a question asked of another database (or
/// of this one), its SQL, the selection's score, and the tables of its own database that its SQL reads, so that a
/// prompt can show it against its own schema (as DAIL-SQL does).
struct PromptExample {
  std::string db_id, question, sql;
  double score = 0;                               // the selection's score: the examples come best first
  std::shared_ptr<const catalog::Schema> schema;  // its own database's tables its SQL reads (null: not known)
  const sql::Dialect* dialect = &sql::Sqlite();   // of `sql`, and of the schema's rendering
};

/// The database's own names, when the schema a generator is shown names its tables and columns otherwise (a
/// crosswalk's level): what a generator that runs what it writes, or looks up stored values, needs to reach the
/// database.
struct NativeNames {
  /// A query written with the shown names, rewritten to the database's own.
  std::function<sql::Query(const sql::Query&)> to_native;
  /// The shown table and column of a native column (as the database names them); nullopt when it is not shown.
  std::function<std::optional<std::pair<std::string, std::string>>(const std::string&, const std::string&)>
      shown_column;
  std::string key;  // identifies the naming (crosswalk and level), for a generator's caches
};

/// What a generator is asked: a question over a schema (already at the names the generator should use), or, with
/// `previous_sql` and `problem`, to repair a query.
struct GenerationRequest {
  std::string question, evidence;
  const catalog::Schema* schema = nullptr;
  const sql::Dialect* dialect = &sql::Sqlite();  // the connection's dialect; candidates are written in it
  int n = 1;                                     // candidates wanted
  double temperature = 0;
  std::string previous_sql, problem;    // refinement
  std::vector<PromptExample> examples;  // few-shot examples, best first (empty: zero-shot)
  /// Every wait ends by then (a model call that would pass it fails with ErrorCode::kTimeout).
  Clock::time_point deadline = Clock::time_point::max();
  WaitCallback on_wait;                       // may be empty
  const NativeNames* native_names = nullptr;  // set when `schema` is not at the database's own names
};

struct Generation {
  std::vector<std::string> candidates;  // SQL texts ("" when a reply held no SQL)
  /// Per candidate, when the generator built or parsed it: its syntax tree in the request's dialect (null when the
  /// generator gives text only; the pipeline then parses the text, once).
  std::vector<std::shared_ptr<const sql::Query>> queries;
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
  /// Per candidate, when the generator judges it: why it should not be presented as the answer ("" when it may).
  std::vector<std::string> unsure;
};

/// A source of candidate SQL.
class Generator {
 public:
  virtual ~Generator() = default;
  virtual std::string Name() const = 0;
  virtual Result<Generation> Generate(const GenerationRequest& request) = 0;
  /// Whether Generate can repair a query from `previous_sql` and `problem`.
  virtual bool CanRefine() const = 0;
  /// Whether it needs no model server (the built-in translator): such a generator answers when a model fails.
  virtual bool Offline() const { return false; }
};

}  // namespace plainsql::generate
