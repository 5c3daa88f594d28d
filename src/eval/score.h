// Scoring predictions against a benchmark: every metric for every question, and the summary. Used by
// `plainsql eval score` for any system's predictions (one SQL per line, as the Spider evaluator takes them).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "eval/benchmark.h"
#include "eval/metrics.h"
#include "exec/connection.h"
#include "sql/resolver.h"

namespace plainsql::eval {

struct ScoreOptions {
  std::string db_dir;          // SQLite databases in the Spider layout; without one, nothing is executed
  std::string tables_file;     // Spider-style tables.json, for resolving names where there is no database
  bool keep_distinct = false;  // the official evaluator removes DISTINCT from both queries unless told to keep it
  exec::Limits limits{std::chrono::milliseconds(30'000), 1'000'000};  // per query
  std::function<void(size_t, size_t)> progress;                       // (done, total)
  /// Rewrites each prediction before it is scored, given its question and the native names of its database (not
  /// called when they are unknown: the prediction is scored as written). `eval score --crosswalk-dir` translates
  /// predictions written at a naming level back with it (levels.h).
  std::function<std::string(const Question&, const std::string&, const sql::NameCatalog&)> rewrite;
};

/// What one stage of answering or scoring a question cost: wall time, and the LLM tokens it used (0 without an LLM).
struct StageCost {
  std::string stage;
  double ms = 0;
  int64_t prompt_tokens = 0, completion_tokens = 0;
  bool operator==(const StageCost&) const = default;
};
nlohmann::ordered_json StagesToJson(const std::vector<StageCost>& stages);
std::vector<StageCost> StagesFromJson(const nlohmann::json& j);  // lenient: skips malformed entries

struct QuestionScore {
  size_t index = 0;
  std::string db_id, difficulty, question, gold_sql, predicted_sql;
  std::optional<bool> ex_strict, ex_relaxed, ex_jaccard;  // nullopt: not executed (no database, or the gold fails)
  double jaccard = 0;
  bool em = false;
  LinkingScores linking;
  bool linked = false;                        // linking was scored (the gold parses and the database's names are known)
  std::vector<std::string> gold_identifiers;  // what the gold query reads: tables and "table.column", lower-case
  std::vector<std::string> predicted_identifiers;  // the same for the prediction (when it parses)
  std::string error;                 // why the prediction failed (parse, execution, timeout); "" if it ran
  std::string gold_error;            // the gold query failed: the question cannot be scored by execution
  bool database_missing = false;     // the database folder has no file for db_id: not executed
  std::optional<double> confidence;  // the system's probability that its answer is right, when it gives one
  /// A correctness estimator's probability, from the question's features before any answer (eval run --estimator).
  std::optional<double> estimated_correctness;
  double predicted_ms = 0;  // running the prediction
  double latency_ms = 0;    // the whole question in a stored run (the system's answer and the scoring)
  /// Where the time (and tokens) went: the system's own stages (eval run), then "execute gold", "execute prediction"
  /// and "scoring" (parsing, resolving, comparing), in order.
  std::vector<StageCost> stages;
};

/// A predicted schema subset scored against what the question's gold query reads (SKALPEL's metrics, metrics.h).
/// Subset entries name tables ("t") and columns ("t.c"), case-insensitively; "t.*" keeps every column of t. Entries
/// the schema does not have are listed in `unknown` and ignored.
struct SubsetResult {
  size_t index = 0;
  std::string db_id, difficulty;
  bool scored = false;  // false when the gold query does not parse or the database's names are unknown
  std::string error;    // why it was not scored
  SubsetScores scores;
  size_t subset_size = 0, schema_size = 0;
  std::vector<std::string> missing;  // gold tables and columns the subset lacks
  std::vector<std::string> unknown;  // subset entries the schema does not have
  size_t schema_tables = 0, schema_columns = 0, subset_tables = 0, subset_columns = 0;
  SizeCategory size = SizeCategory::kS;  // of the schema, by its columns (SKALPEL Table 3)
  /// Estimated tokens (catalog/tokens.h) of the prompt's schema text: the OmniSQL-style prompt DDL (the default prompt
  /// style's rendering) without sample values, of the schema restricted to the subset with its join keys
  /// (catalog/restrict.h), and of the whole schema.
  size_t tokens = 0, schema_tokens = 0;
  std::optional<double> ms;  // the subsetting method's time for the question, from the subset file's "ms"
};

/// One line of a subsets file: the names it keeps and, when given, the time the method took ("ms").
struct SubsetLine {
  std::vector<std::string> names;
  std::optional<double> ms;
};

/// Scores predictions one question at a time, keeping each database's connection and names open between questions.
class Scorer {
 public:
  Scorer(const Benchmark& benchmark, ScoreOptions options);  // `benchmark` must outlive the scorer
  ~Scorer();
  Scorer(const Scorer&) = delete;
  Scorer& operator=(const Scorer&) = delete;
  /// Fails only when a database or schema cannot be read; a bad prediction is a wrong answer.
  Result<QuestionScore> Score(const Question& question, const std::string& prediction);
  /// Scores a predicted schema subset for the question (see SubsetResult).
  Result<SubsetResult> ScoreSubset(const Question& question, const std::vector<std::string>& subset);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// {"summary": {questions, scored, sch_recall, perf_recall (PRe: share of questions with every gold element kept),
/// sch_precision, sch_f1, relation_recall, relation_precision, attribute_recall, attribute_precision, proportion,
/// relation_f1, attribute_f1, relation_proportion, attribute_proportion, tokens, schema_tokens, ms: {timed, mean, p50,
/// p99} (nulls when no line has "ms"), by_size: {S, M, L, XL, XXL, XXL+: each {columns (its range), questions, and
/// the same metrics}}} (means over the scored questions; null when none), "questions": [{index, db_id, difficulty,
/// sch_recall, perfect, …, missing, unknown, size, schema_tables, schema_columns, subset_tables, subset_columns,
/// relation_f1, attribute_f1, relation_proportion, attribute_proportion, tokens, schema_tokens, ms}]}. Percentiles are
/// nearest-rank.
nlohmann::ordered_json SubsetJson(const std::vector<SubsetResult>& results);

/// The rate rows of SubsetJson's summary and of each size category, in the order the text and HTML tables show them:
/// (JSON key, label).
inline constexpr std::pair<const char*, const char*> kSubsetRateRows[] = {
    {"perf_recall", "PRe (perfect recall)"},
    {"sch_recall", "SchRecall"},
    {"sch_precision", "SchPrecision"},
    {"sch_f1", "SchF1"},
    {"relation_recall", "relation recall"},
    {"relation_precision", "relation precision"},
    {"relation_f1", "relation F1"},
    {"attribute_recall", "attribute recall"},
    {"attribute_precision", "attribute precision"},
    {"attribute_f1", "attribute F1"},
    {"relation_proportion", "relation proportion"},
    {"attribute_proportion", "attribute proportion"},
    {"proportion", "subset proportion"}};

/// Reads predicted subsets: JSON Lines, one per question in order, each a JSON array of names or an object with
/// "tables" and "columns" arrays (and optionally "ms", a number).
Result<std::vector<SubsetLine>> LoadSubsetLines(const std::string& path);
/// The same, names only.
Result<std::vector<std::vector<std::string>>> LoadSubsets(const std::string& path);

/// Scores `predictions[i]` against `questions[i]`. Fails only on setup errors (a count mismatch, a database or schema
/// that cannot be read); a prediction that does not parse or run is a wrong answer, recorded in QuestionScore::error.
Result<std::vector<QuestionScore>> ScorePredictions(const Benchmark& benchmark, const std::vector<Question>& questions,
                                                    const std::vector<std::string>& predictions,
                                                    const ScoreOptions& options);

/// SNAILS IdentifierRecall, per native identifier: of the linked questions whose gold query reads the identifier
/// (a table, or "table.column", within one database), the share whose prediction reads it too.
struct IdentifierRecall {
  std::string db_id, identifier;
  int64_t queries = 0, recalled = 0;
  double Recall() const { return queries ? static_cast<double>(recalled) / static_cast<double>(queries) : 0.0; }
};
std::vector<IdentifierRecall> IdentifierRecalls(const std::vector<QuestionScore>& scores);

/// {"summary": {...every metric, overall, by difficulty, by database...}, "questions": [one object per question, in
/// input order: index, db_id, difficulty, ex_strict, ex_relaxed, ex_jaccard, em, query_recall, query_precision,
/// query_f1, predicted_sql, gold_sql, error]}.
nlohmann::ordered_json ScoreJson(const std::vector<QuestionScore>& scores);

/// The summary as an aligned text table (overall and by difficulty).
std::string ScoreText(const std::vector<QuestionScore>& scores);

/// The predictions of a file: one SQL per line; a db_id after a TAB is dropped (Spider's `SQL<TAB>db_id` gold files can
/// be scored as predictions; see SplitGoldLine). Empty lines are empty predictions.
Result<std::vector<std::string>> LoadPredictions(const std::string& path);

}  // namespace plainsql::eval
