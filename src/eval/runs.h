// The runs database: every run's configuration, and every question's prediction, result and metrics, so that a run
// can be resumed after a crash or Ctrl-C, listed, compared and exported. A SQLite file (created on first use);
// each question is claimed before it is worked on and recorded in its own transaction, so nothing done is lost.
#pragma once

#include <memory>
#include <optional>
#include <string>
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
  std::string status;   // running, interrupted, done
  RunSpec spec;
  int64_t total = 0, done = 0;
};

class RunStore {
 public:
  /// Opens (creating when needed) the runs database at `path`.
  static Result<std::unique_ptr<RunStore>> Open(const std::string& path);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  /// A new run with every question pending. Returns its id ("run-YYYYMMDD-HHMMSS-xxxx").
  Result<std::string> CreateRun(const RunSpec& spec, const std::vector<Question>& questions);
  /// The benchmark index of each question of the run, by position.
  Result<std::vector<size_t>> QuestionIndexes(const std::string& run_id);
  /// The positions (in the run's question list) not recorded yet, in order.
  Result<std::vector<size_t>> Pending(const std::string& run_id);
  /// Stores one question's outcome (replacing an earlier one) and its latency, in one transaction.
  Status Record(const std::string& run_id, size_t position, const QuestionScore& score, double latency_ms);
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
