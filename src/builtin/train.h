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
  bool correct = false;
};

struct CollectOptions {
  std::string db_dir;                                             // Spider-style folder of SQLite databases
  size_t max_candidates = 8;                                      // candidates run per question
  exec::Limits limits{std::chrono::milliseconds(5'000), 10'000};  // the gold query, and the readings' rows compared
                                                                  // with it (readings time out as in ask)
  std::function<void(size_t done, size_t total)> progress;        // may be empty
};

struct Collected {
  std::vector<ScorerRow> rows;
  std::vector<std::string> db_of;  // per question: its database ("" when it could not be used)
  size_t questions = 0;            // questions whose database opened and whose gold query ran
  size_t skipped = 0;              // questions without a usable database or gold result
};

/// A training database: its SQLite file under `db_dir` (Spider layout) opened read-only and its schema read; nullopt
/// when there is none or it cannot be read.
struct TrainingDatabase {
  std::unique_ptr<exec::Connection> conn;
  catalog::Schema schema;
};
std::optional<TrainingDatabase> OpenTrainingDatabase(const std::string& db_dir, const std::string& db_id);

/// Translates and runs every question of `bench` on its database under `options.db_dir`.
Result<Collected> CollectReadings(const eval::Benchmark& bench, const CollectOptions& options,
                                  const linking::LinkResources& resources);

/// Whether a database is in the validation part (a stable hash of its name; `share` of them, 0..1).
bool InValidation(const std::string& db_id, double share);

/// liblinear's L2-regularised logistic regression on the rows (C = `c`); the threshold is left at 0.5.
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

/// The highest threshold (in steps of 0.01) below which at most `max_accuracy` of the answers are right: the answers
/// `ask` calls unsure are then wrong at least 1 - max_accuracy of the time.
double ChooseThreshold(const std::vector<std::pair<double, bool>>& answers, double max_accuracy);

/// `keep(question)` selects the questions reported.
RankingReport EvaluateScorer(const Collected& data, const ReadingScorer& scorer,
                             const std::function<bool(size_t)>& keep);

struct TrainOptions {
  CollectOptions collect;
  double validation = 0.2;       // share of the databases held out for the report and the threshold
  double c = 1.0;                // liblinear's C
  double unsure_accuracy = 0.1;  // the threshold: the highest below which at most this share of answers were right
  std::string source;            // what the questions are called in the model's header (a file name)
};

struct Trained {
  ReadingScorer model;  // fitted on every database, with the threshold chosen on the held-out ones
  std::string text;     // the model in its text form, with a header saying how it was made
  Collected data;
  RankingReport held_out;      // the model fitted without the held-out databases, on their questions
  double unsure_share = 0;     // share of the held-out answers below the threshold
  double unsure_accuracy = 0;  // and how many of those were right
};

/// The whole of `plainsql builtin train`: collect, hold out, report, choose the threshold, fit on everything.
Result<Trained> TrainReadingScorer(const eval::Benchmark& bench, const TrainOptions& options,
                                   const linking::LinkResources& resources);

}  // namespace plainsql::builtin
