// The worker loop of `plainsql eval run`: threads of this process claim a run's questions one at a time from the runs
// database, work on each (answer and score it) and record the outcome, until the run is complete, the caller cancels
// or an error stops it. Other processes (on this machine or, with a PostgreSQL runs database, on others) can work on
// the same run at the same time: a claim is exclusive, lapses after a lease, and the claims of a worker of this machine
// that has died are given back at once. A stopped run keeps everything recorded and gives back what it claimed, so it
// can be resumed.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>

#include "common/status.h"
#include "eval/runs.h"
#include "eval/score.h"

namespace plainsql::eval {

/// A request to stop, made by one party (the CLI's SIGINT handler, a test) and seen by the workers between questions.
/// Cancel() only stores to a lock-free atomic, so a signal handler may call it.
class CancelToken {
 public:
  void Cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool Cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  void Reset() { cancelled_.store(false, std::memory_order_relaxed); }

 private:
  std::atomic<bool> cancelled_{false};
  static_assert(std::atomic<bool>::is_always_lock_free, "Cancel() must be safe in a signal handler");
};

/// Works on the question at `position` of the run: its answer and its score (latency and stages included). An error
/// stops the run (a database that cannot be opened, a model that cannot be reached: every further question would fail
/// the same way); a question the system cannot answer is a score with an error, not an error.
using QuestionWork = std::function<Result<QuestionScore>(size_t position)>;
/// Makes one thread's QuestionWork (each thread has its own connections). An error stops the run.
using QuestionWorkFactory = std::function<Result<QuestionWork>()>;

/// How far this process has come, after each question it records.
struct Progress {
  size_t done = 0;   // questions recorded by this process
  size_t total = 0;  // questions pending when it started
  double elapsed_seconds = 0;
  double eta_seconds = 0;  // at this process's pace so far
};

/// "[#########          ] 30/90 ETA 1m05s": the progress line a terminal shows.
std::string ProgressBar(const Progress& p);

struct WorkerOptions {
  int threads = 1;
  std::string worker_id;  // this process in the claims; "" = WorkerId()
  double lease_seconds = kClaimLeaseSeconds;
  /// How long to wait before looking again when other workers hold every question left.
  std::chrono::milliseconds idle_wait{500};
  /// Set by the caller to stop; nullptr = never.
  const CancelToken* cancel = nullptr;
  /// Whether a worker holding claims still runs (default WorkerAlive); a dead one's claims are given back at once.
  std::function<bool(const std::string& worker)> alive;
  /// Called (one thread at a time) after each recorded question.
  std::function<void(const Progress&)> progress;
  /// Called (one thread at a time) when the workers holding the rest change: "N questions claimed by other
  /// workers: W1 (n1), W2 (n2)".
  std::function<void(const std::string&)> waiting;
};

struct WorkOutcome {
  bool finished = false;   // every question of the run is recorded (status "done")
  bool cancelled = false;  // stopped by the token (status "interrupted", claims given back)
  size_t done = 0;         // questions recorded by this process
  size_t total = 0;        // questions pending when it started
};

/// Works on run `run_id` of `store` with `options.threads` threads until it is complete or cancelled. On an error the
/// run is left interrupted with this process's claims given back, and the error is returned. `store` is used by one
/// thread at a time.
Result<WorkOutcome> WorkOnRun(RunStore& store, const std::string& run_id, const QuestionWorkFactory& make_work,
                              const WorkerOptions& options);

}  // namespace plainsql::eval
