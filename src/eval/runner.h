// `plainsql eval run` as a library call: checks a request, creates the run in the runs database (or finds the run to
// resume or join), sets up the system it measures (a file of predictions, the built-in translator or a pipeline
// configuration) and works on it with the worker loop of worker.h until it is complete or cancelled.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "eval/benchmark.h"
#include "eval/runs.h"
#include "eval/worker.h"

namespace plainsql::eval {

/// Estimates, before a system answers, the probability that it answers a question right (features/estimator.h
/// provides one; eval does not depend on it). One per worker thread.
class QuestionEstimator {
 public:
  virtual ~QuestionEstimator() = default;
  virtual std::optional<double> Estimate(const Question& question) = 0;
};

struct RunRequest {
  /// A new run: what to run and on which questions (not used with `resume`). `spec.system` is builtin,
  /// predictions:FILE, pipeline (configured by `config_file` / plainsql.toml / the environment) or pipeline:FILE.toml.
  RunSpec spec;
  Selection selection;
  std::string config_file;
  /// A new pipeline run's thesis configuration (systems.h: baseline, zero-shot, train, ground; "" = as configured)
  /// and its example store (train and ground; with no configuration, it replaces [pipeline] examples).
  std::string configuration, examples;
  /// A new run's schema subsets (subset_source.h): "" (the whole schema), "oracle", a subsetting method ("builtin",
  /// "draft") or a subsets file (JSON Lines, one per benchmark question). Stored with the system; not with `resume`.
  std::string subset;
  /// A new run's naming level (levels.h): a directory of crosswalks (`<db_id>.csv`) and the level whose names the
  /// system sees (native, N1, N2, N3; default N1), and how it sees them ("middleware", the default, or "views").
  /// Stored with the system; not with `resume`.
  std::string crosswalk_dir, level, via;
  /// A run to continue, or to join as another worker: its id, an id prefix or its name.
  std::string resume;
  /// The runs database: a SQLite file (created when missing) or a postgresql:// URL.
  std::string runs = "plainsql-runs.db";
  /// Threads (1 to 256), cancellation, progress and the "waiting for" notes.
  WorkerOptions workers;
  /// Makes each worker's correctness estimator for the run (its spec, new or resumed, and its questions' SQL
  /// dialect); empty: no estimates. Its estimate is stored per question as `estimated_correctness`.
  using EstimatorFactory =
      std::function<std::unique_ptr<QuestionEstimator>(const RunSpec& spec, const std::string& dialect)>;
  EstimatorFactory estimator;
};

/// Checks what a request asks for (times, thread count, that a new run names its questions, system and databases),
/// before anything is opened: a mistake creates no runs database.
Status ValidateRunRequest(const RunRequest& request);

struct RunResult {
  std::string run_id;
  WorkOutcome outcome;
  std::vector<QuestionScore> scores;  // the run's recorded scores, when it finished
};

/// Runs (or resumes, or joins) a benchmark run as `request` says. A cancelled run is a result with
/// `outcome.cancelled`; it can be resumed with its id.
Result<RunResult> RunBenchmark(const RunRequest& request);

}  // namespace plainsql::eval
