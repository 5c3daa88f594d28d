// The built-in offline translator: a question in, ranked candidate queries out, from schema links, cell values,
// intent cues and foreign-key joins. No model. When nothing in the question links to the schema, it returns no
// candidate and says what it could not link, instead of guessing. The work is done by passes over a typed reading of
// the question (reading.h, passes.h); the last builds syntax trees, which the SQL printer writes in the dialect.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "builtin/relative_dates.h"
#include "builtin/scorer.h"
#include "builtin/shape.h"
#include "builtin/skeleton.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"
#include "linking/linker.h"
#include "retrieval/text.h"
#include "retrieval/value_index.h"
#include "sql/ast.h"
#include "sql/dialect.h"

namespace plainsql::builtin {

struct Choices;
struct QuestionRead;

using linking::LinkMatch;
using linking::SchemaIndex;
using retrieval::Stemmer;
using retrieval::Token;
using retrieval::TokenKind;
using retrieval::ValueIndex;
using retrieval::ValueMatch;

struct TranslatorCandidate {
  std::string sql;                          // `query` printed in the dialect
  std::shared_ptr<const sql::Query> query;  // the tree the SQL was printed from
  double score = 0;  // 0..1: the share of the question's content words the query accounts for, less penalties
  std::vector<std::string> notes;   // what was linked, and how
  ReadingFeatureVector features{};  // the reading scorer's inputs (scorer.h); the result's once RunCandidates ran it
  double probability = 0;           // the reading scorer's P(right), set by RankCandidates
};

struct Translation {
  std::vector<TranslatorCandidate> candidates;  // best first; empty when nothing could be linked
  std::vector<std::string> unlinked;            // content words nothing accounts for
  std::string reason;                           // why there is no candidate
  std::vector<std::string> masked_words;        // the question as the shape model reads it (shape.h)
  std::optional<ShapePrediction> shape;         // the shape model's prediction, when the translator used one
  SkeletonMaterial material;                    // what the first reading gives skeletons to fill (skeleton.h)
};

/// The candidates ranked and run per question (`ask`, `eval run`, training): skeletons are placed among them.
inline constexpr size_t kRankedCandidates = 8;
/// Filled skeletons added per question at most.
inline constexpr size_t kSkeletonCandidates = 3;
/// A skeleton is filled only when the shape model gives each of its properties at least this probability. Chosen on
/// held-out Spider train (ranked EX with 0 / 0.05 / 0.15 / 0.3: 0.4721 / 0.4676 / 0.4721 / 0.4698; 0.15 runs a
/// seventeenth of the skeleton readings 0 does).
inline constexpr double kSkeletonGate = 0.15;

class Translator {
 public:
  /// `values` may be null (no value matching). The schema, index and values must outlive the translator.
  Translator(const catalog::Schema& schema, const SchemaIndex& index, const ValueIndex* values);
  /// Readings best first: the question as linked, a same-column pair read the other way (OR / INTERSECT), and the
  /// first stored value that several columns hold read in the next ones (at most two more).
  Translation Translate(const std::string& question, const sql::Dialect& dialect, Stemmer& stemmer) const;
  /// The shape model whose prediction the candidates' "shape_fit" and "shape_worst" features compare with (default:
  /// the shipped one); null leaves them 0 (training sets them itself, from a model that has not seen the question).
  void UseShapeModel(const ShapeModel* model) { shape_model_ = model; }
  /// The skeletons filled as further readings (default: the shipped ones; null: none), proposed by the shape model
  /// `proposer` (null: the shape model above). Training gives both from questions of other databases.
  void UseSkeletons(const SkeletonLibrary* skeletons, const ShapeModel* proposer = nullptr) {
    skeletons_ = skeletons;
    proposer_ = proposer;
  }
  /// The day relative dates ("last month", "in the past 30 days") count from (default: Today(), the machine's date or
  /// PLAINSQL_TODAY; none when that variable is malformed: such phrases are then read as words).
  void UseToday(std::optional<Day> today) { today_ = today; }

 private:
  /// What every reading of the question shares, read once: its tokens, cues, schema links and stored values.
  QuestionRead Read(const std::string& question, Stemmer& stemmer) const;
  /// "the phone numbers of all customers and suppliers": the question asked of each of two tables named last, joined by
  /// "and", read as the UNION of the two answers; a candidate after the first (feature "tables_united").
  void AddTablesUnited(Translation& out, const QuestionRead& q, const std::string& question,
                       const sql::Dialect& dialect, Stemmer& stemmer) const;
  /// One reading of the question: the passes of passes.h in order, `choices` saying which column a stored value
  /// several columns hold is read in (and, on return, what the passes found about it); with `masked_words`, the
  /// question as the shape model reads it too (Translate keeps the first reading's).
  Translation Assemble(const QuestionRead& q, const sql::Dialect& dialect, Choices& choices,
                       bool masked_words = false) const;
  const catalog::Schema& schema_;
  const SchemaIndex& index_;
  const ValueIndex* values_;
  /// Adds up to kSkeletonCandidates filled skeletons, those `prediction` finds likeliest first (and at least as
  /// likely as kSkeletonGate says), among the first kRankedCandidates candidates.
  void AddSkeletons(Translation& out, const ShapePrediction& prediction, const sql::Dialect& dialect) const;
  const ShapeModel* shape_model_ = &ShapeModel::Builtin();
  const SkeletonLibrary* skeletons_ = &SkeletonLibrary::Builtin();
  const ShapeModel* proposer_ = nullptr;
  std::optional<Day> today_;
};

/// Sets the shape features of each candidate: how its query's shape agrees with `prediction`.
void SetShapeFeatures(std::vector<TranslatorCandidate>& candidates, const ShapePrediction& prediction);

/// How each reading is run for the scorer, in `ask` and in training: briefly, with few rows, and within a budget of
/// SQLite instructions that stops a long reading at the same point on every machine, so training gives the same model
/// on a loaded machine as on an idle one (a reading stopped counts as failed). 20 million instructions took 0.3 to
/// 0.8 s here; when the budget was set, 5 of Spider train's 12,683 readings passed it, all joins of six tables.
inline constexpr exec::Limits kReadingRunLimits{std::chrono::milliseconds(2'000), static_cast<int64_t>(kResultRowsSeen),
                                                20'000'000};
/// Training runs readings with kReadingRunLimits' budget and this wall-clock timeout, far beyond it, only as a guard.
inline constexpr std::chrono::milliseconds kTrainingReadingTimeout{60'000};

/// Runs the first `max` candidates on `conn` (limits as given) and sets their result features; returns what each gave
/// (nullopt: it failed). The candidates must be written against the connection's own names, or `to_native` (when
/// given) rewrites each to them before it runs.
std::vector<std::optional<exec::ResultSet>> RunCandidates(
    std::vector<TranslatorCandidate>& candidates, exec::Connection& conn, const exec::Limits& limits, size_t max,
    const std::function<sql::Query(const sql::Query&)>& to_native = nullptr);
/// Sets each candidate's probability under `scorer` and orders them by the scorer's ranking, best first (ties keep the
/// translator's order). Candidates past the first `max` keep their place after the ranked ones.
void RankCandidates(std::vector<TranslatorCandidate>& candidates, const ReadingScorer& scorer, size_t max);

}  // namespace plainsql::builtin
