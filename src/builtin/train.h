// Training the reading scorer (scorer.h) on solved questions (`plainsql builtin train`): every question of a
// Spider-format set is translated, each candidate run and compared with the gold query's result (EX strict), and a
// logistic regression (liblinear) fitted on the candidates' features with that label. Databases are split into a
// fitting part and a validation part by a hash of their names, so the validation figures are on unseen databases.
// Deterministic: the same questions and databases give the same model.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "builtin/scorer.h"
#include "builtin/shape.h"
#include "builtin/skeleton.h"
#include "builtin/translator.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "eval/benchmark.h"
#include "exec/connection.h"
#include "linking/subset_builtin.h"

namespace plainsql::builtin {

/// One candidate of one question, with whether its result equals the gold result.
struct ScorerRow {
  size_t question = 0;  // index into the benchmark's questions
  size_t rank = 0;      // the translator's order
  ReadingFeatureVector features{};
  Shape shape{};  // the reading's shape (shape.h)
  bool correct = false;
};

/// liblinear's C for the shape model, by default: chosen again on 2026-12-07 on the held-out databases of two 95%
/// samples of Spider train (ranked EX at 0.1: 0.6214 / 0.6139, 0.3: 0.6254 / 0.6194, 1: 0.6246 / 0.6147, 3: 0.6262 /
/// 0.6186) and how much two such fits disagree (0.3: 107 of 7,000 answers, 3: 174); docs/BENCHMARKS.md, forty-ninth
/// part.
inline constexpr double kShapeC = 0.3;

struct CollectOptions {
  std::string db_dir;                         // Spider-style folder of SQLite databases
  size_t max_candidates = kRankedCandidates;  // candidates run per question
  // The gold query (stopped by a budget of SQLite instructions, so a loaded machine skips the same questions as an idle
  // one; Spider train's slowest gold query takes 16 million), and the readings' rows compared with it (readings are
  // stopped as in ask).
  exec::Limits limits{std::chrono::milliseconds(60'000), 10'000, 500'000'000};
  std::function<void(size_t done, size_t total)> progress;  // may be empty
  /// Every this many questions, the question's database is also asked another database's question, all of whose
  /// readings count as wrong (0: none). See AddForeignQuestions in train.cpp.
  size_t foreign_every = 10;
  /// Skeletons (skeleton.h): each question's readings include skeletons taken from the questions of other databases,
  /// neither of its own fold (`skeleton_folds` folds of databases, by a hash of their names) nor held out (`held_out`,
  /// may be empty), and proposed by a shape model fitted on those questions (C = `shape_c`). 0 folds: no skeletons.
  size_t skeleton_folds = 5;
  std::function<bool(const std::string& db_id)> held_out;
  double shape_c = kShapeC;
};

/// A skeleton is kept when at least this many questions of at least this many databases have it.
inline constexpr size_t kSkeletonMinCount = 2;

struct Collected {
  std::vector<ScorerRow> rows;
  std::vector<std::string> db_of;                       // per question: its database ("" when it could not be used)
  std::vector<std::vector<std::string>> masked_words;   // per question: as the shape model reads it
  std::vector<std::optional<Shape>> gold_shapes;        // per question: the gold query's shape (nullopt: not parsed)
  std::vector<std::optional<Skeleton>> gold_skeletons;  // per question: the gold query's skeleton (nullopt: none)
  std::vector<std::string> db_asked;                    // per question: its database, whether or not its gold ran
  size_t questions = 0;                                 // questions whose database opened and whose gold query ran
  size_t real_questions = 0;    // the benchmark's questions; those after them were asked of another database
  size_t foreign_readings = 0;  // readings of those
  size_t skipped = 0;           // questions without a usable database or gold result
};

/// A training database: its SQLite file under `db_dir` (Spider layout) opened read-only and its schema read; nullopt
/// when there is none or it cannot be read.
struct TrainingDatabase {
  std::unique_ptr<exec::Connection> conn;
  catalog::Schema schema;
};
std::optional<TrainingDatabase> OpenTrainingDatabase(const std::string& db_dir, const std::string& db_id);

/// The skeletons of the questions `keep` selects (those with a form the passes do not build), counted by question and
/// database, kept as kSkeletonMinCount says.
SkeletonLibrary BuildSkeletonLibrary(const Collected& data, const std::function<bool(size_t question)>& keep);
/// The filled skeletons among the readings (feature "skeleton"): how many, how many were right, and on how many
/// questions only a skeleton was.
struct SkeletonReadings {
  size_t readings = 0, right = 0, only_skeleton_right = 0;
};
SkeletonReadings CountSkeletonReadings(const Collected& data);
/// Translates and runs every question of `bench` on its database under `options.db_dir`.
Result<Collected> CollectReadings(const eval::Benchmark& bench, const CollectOptions& options,
                                  const linking::LinkResources& resources);

/// Whether a database is in the validation part (a stable hash of its name; `share` of them, 0..1).
bool InValidation(const std::string& db_id, double share);

/// liblinear's L2-regularised logistic regressions (C = `c`): the ranking on pairs of a right and a wrong reading of
/// one question, then P(right) on the reading the ranking puts first in each question; the threshold is left at 0.5.
ReadingScorer FitReadingScorer(const std::vector<ScorerRow>& rows, double c);

/// How a scorer ranks the candidates of a set of questions (questions without a candidate count as wrong).
struct RankingReport {
  size_t questions = 0;
  size_t translator_right = 0;           // the translator's first candidate that runs is right
  size_t ranked_right = 0;               // the scorer's first is right
  size_t any_right = 0;                  // some candidate is right (the ceiling of any ranking)
  double ece = 0;                        // expected calibration error of the first's probability (10 equal-width bins)
  double top_half = 0, bottom_half = 0;  // accuracy of the more and the less confident half of the answers
};
/// The answers' probabilities (the scorer's best candidate per question; 0 without one) and whether each is right.
std::vector<std::pair<double, bool>> ScoredAnswers(const Collected& data, const ReadingScorer& scorer,
                                                   const std::function<bool(size_t)>& keep);

/// The highest threshold (in steps of 0.01) below which at most `max_accuracy` of the answers are right, within one
/// standard error (right <= p·n + sqrt(n·p·(1 - p)) for the n answers below it): the answers `ask` calls unsure are
/// then wrong about 1 - max_accuracy of the time.
double ChooseThreshold(const std::vector<std::pair<double, bool>>& answers, double max_accuracy);

/// `keep(question)` selects the questions reported.
RankingReport EvaluateScorer(const Collected& data, const ReadingScorer& scorer,
                             const std::function<bool(size_t)>& keep);

/// The shape model fitted on masked questions and their gold shapes: one L1-regularised logistic regression per
/// property (liblinear, C = `c`) over the inputs (ShapeInputs) that at least `min_questions` of the questions have.
ShapeModel FitShapeModel(const std::vector<std::vector<std::string>>& masked_words, const std::vector<Shape>& shapes,
                         double c, size_t min_questions = 2);

/// The shape model fitted on the questions of `data` that have a gold shape and that `keep` selects.
ShapeModel FitShapeModelOn(const Collected& data, const std::function<bool(size_t question)>& keep, double c);

/// Sets the shape features of every row from a shape model that has not seen the row's question: questions are put in
/// folds by `fold_of` (-1: in no fold); each fold's rows get the prediction of a model fitted on the questions of the
/// other folds, the rows of questions in no fold that of a model fitted on every fold.
void SetOutOfFoldShapeFeatures(Collected& data, const std::vector<int>& fold_of, double c);

struct TrainOptions {
  CollectOptions collect;
  double validation = 0.2;       // share of the databases held out for the report and the threshold
  double c = 1.0;                // liblinear's C
  double shape_c = kShapeC;      // liblinear's C for the shape model
  size_t shape_folds = 5;        // folds of databases for the out-of-fold shape features
  double unsure_accuracy = 0.1;  // the threshold: the highest below which at most this share of answers were right
                                 // (within one standard error; ChooseThreshold)
  std::string source;            // what the questions are called in the model's header (a file name)
};

struct Trained {
  ReadingScorer model;         // fitted on every database, with the threshold chosen on the held-out ones
  std::string text;            // the model in its text form, with a header saying how it was made
  ShapeModel shape;            // the shape model, fitted on every question
  std::string shape_text;      // in its text form
  SkeletonLibrary skeletons;   // the skeletons of every question
  std::string skeletons_text;  // in their text form
  // The shape model fitted without the held-out databases, on their questions: per property, the share predicted right
  // (P >= 0.5) and the share the more common value alone gets right.
  std::array<double, kShapePropertyCount> shape_accuracy{}, shape_majority{};
  Collected data;
  RankingReport held_out;        // the model fitted without the held-out databases, on their questions
  double unsure_share = 0;       // share of the held-out answers below the threshold or the coverage floor
  double unsure_accuracy = 0;    // and how many of those were right
  double below_floor_share = 0;  // share of the held-out answers below the coverage floor
  size_t foreign_answered = 0;   // held-out questions asked of another database that got a reading
  double foreign_unsure = 0;     // the share of those whose answer falls below the threshold or the coverage floor
};

/// The whole of `plainsql builtin train`: collect, hold out, report, choose the threshold, fit on everything.
Result<Trained> TrainReadingScorer(const eval::Benchmark& bench, const TrainOptions& options,
                                   const linking::LinkResources& resources);

}  // namespace plainsql::builtin
