// The runs database: every run's configuration, and every question's prediction, result and metrics, so that a run
// can be resumed after a crash or Ctrl-C, listed, compared and exported. A SQLite file (created on first use) or, with
// the same tables, a PostgreSQL database, which lets workers on several machines share one run. Each question is
// claimed before it is worked on (on PostgreSQL with FOR UPDATE SKIP LOCKED, so two workers never take the same one)
// and recorded in its own transaction, so nothing done is lost. A claim lapses after a lease, so the questions of a
// worker that died are taken by the others.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "eval/benchmark.h"
#include "eval/score.h"

namespace plainsql::eval {

struct RunSpec {
  std::string name;       // a label chosen by the user ("" = none)
  std::string benchmark;  // spider, bird, snails, custom
  std::string questions;  // the questions file, as given
  std::string db_dir, tables;
  std::string system;  // "predictions:FILE", ...
  bool keep_distinct = false;
  int64_t timeout_ms = 30'000;
};

struct RunInfo {
  std::string id;
  std::string created;  // UTC, ISO 8601
  std::string status;   // running (a worker holds claims), interrupted, done
  RunSpec spec;
  int64_t total = 0, done = 0;
};

/// How long a claim holds when its worker neither records nor gives it back (a worker that died): 10 minutes.
inline constexpr double kClaimLeaseSeconds = 600;

/// This process as a worker: "HOST:PID".
std::string WorkerId();
/// False only for a worker of this machine whose process has ended (its claims can be given back at once); a worker
/// of another machine cannot be checked and counts as alive until its claims lapse.
bool WorkerAlive(const std::string& worker);

class RunStore {
 public:
  /// Opens (creating its tables when needed) the runs database: a SQLite file path, or a postgresql:// URL.
  static Result<std::unique_ptr<RunStore>> Open(const std::string& path_or_url);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  /// A new run with every question pending. Returns its id ("run-YYYYMMDD-HHMMSS-xxxx").
  Result<std::string> CreateRun(const RunSpec& spec, const std::vector<Question>& questions);
  /// The benchmark index of each question of the run, by position.
  Result<std::vector<size_t>> QuestionIndexes(const std::string& run_id);
  /// The positions (in the run's question list) not recorded yet, in order.
  Result<std::vector<size_t>> Pending(const std::string& run_id);
  /// Claims the first question of the run that is neither recorded nor claimed (a claim older than `lease_seconds`
  /// counts as free) for `worker`; nullopt when there is none.
  Result<std::optional<size_t>> Claim(const std::string& run_id, const std::string& worker, double lease_seconds);
  /// Gives back `worker`'s claims on questions it did not record.
  Status Release(const std::string& run_id, const std::string& worker);
  /// The workers holding claims younger than `lease_seconds` on questions not recorded yet, with how many each.
  Result<std::vector<std::pair<std::string, int64_t>>> Claimants(const std::string& run_id, double lease_seconds);
  /// Stores one question's outcome (replacing an earlier one), its latency and the worker that recorded it, and drops
  /// the claim, in one transaction.
  Status Record(const std::string& run_id, size_t position, const QuestionScore& score, double latency_ms,
                const std::string& worker = "");
  /// Who recorded each recorded question, by position.
  Result<std::vector<std::pair<size_t, std::string>>> RecordedBy(const std::string& run_id);
  Status SetStatus(const std::string& run_id, const std::string& status);

  Result<std::vector<RunInfo>> ListRuns();
  /// A run by id, by a unique prefix or (four characters or more) suffix of its id, or by its name.
  Result<RunInfo> GetRun(const std::string& id_or_name);
  /// The recorded scores of a run, in question order (pending questions are left out).
  Result<std::vector<QuestionScore>> Scores(const std::string& run_id);

 private:
  struct Impl;
  explicit RunStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// The comparison of two runs on the questions both recorded (matched by index): EX strict of each, how many only
/// one got right, McNemar's p-value, and the same by difficulty.
nlohmann::ordered_json CompareRuns(const std::vector<QuestionScore>& a, const std::vector<QuestionScore>& b);

}  // namespace plainsql::eval
