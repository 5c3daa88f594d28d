// The runs database (see runs.h).
#include "eval/runs.h"

#include <sqlite3.h>

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <map>
#include <random>

#include "common/strings.h"

namespace plainsql::eval {

namespace {

constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', created TEXT NOT NULL, status TEXT NOT NULL,
  benchmark TEXT NOT NULL, questions TEXT NOT NULL, db_dir TEXT NOT NULL, tables TEXT NOT NULL, system TEXT NOT NULL,
  keep_distinct INTEGER NOT NULL, timeout_ms INTEGER NOT NULL, total INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS run_questions (
  run_id TEXT NOT NULL REFERENCES runs(id), position INTEGER NOT NULL, idx INTEGER NOT NULL, db_id TEXT NOT NULL,
  question TEXT NOT NULL, gold_sql TEXT NOT NULL, difficulty TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0,
  predicted_sql TEXT, error TEXT, gold_error TEXT, database_missing INTEGER, ex_strict INTEGER, ex_relaxed INTEGER,
  ex_jaccard INTEGER, jaccard REAL, em INTEGER, linked INTEGER, query_recall REAL, query_precision REAL,
  query_f1 REAL, latency_ms REAL, recorded TEXT, gold_identifiers TEXT,
  PRIMARY KEY (run_id, position));
)";

std::string NowUtc(const char* format) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

struct Stmt {
  sqlite3_stmt* s = nullptr;
  ~Stmt() { sqlite3_finalize(s); }
};

}  // namespace

struct RunStore::Impl {
  sqlite3* db = nullptr;
  std::string path;
  ~Impl() { sqlite3_close_v2(db); }

  Error Fail(std::string_view what) const {
    return MakeError(ErrorCode::kIo, fmt::format("runs database {}: {}: {}", path, what, sqlite3_errmsg(db)));
  }
  Status Exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "";
      sqlite3_free(err);
      return MakeError(ErrorCode::kIo, fmt::format("runs database {}: {}", path, msg));
    }
    return Status::Ok();
  }
  Result<Stmt*> Prepare(Stmt& st, const char* sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &st.s, nullptr) != SQLITE_OK) return Fail("prepare");
    return &st;
  }
};

RunStore::RunStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RunStore::~RunStore() = default;

Result<std::unique_ptr<RunStore>> RunStore::Open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  if (sqlite3_open_v2(path.c_str(), &impl->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    return MakeError(ErrorCode::kIo, fmt::format("cannot open the runs database {}: {}", path,
                                                 impl->db ? sqlite3_errmsg(impl->db) : "out of memory"));
  }
  sqlite3_busy_timeout(impl->db, 10'000);
  // WAL: a reader (plainsql runs show) never blocks a run that is recording.
  // synchronous = NORMAL: in WAL mode a commit survives a crash of plainsql (not a power cut) without an fsync per
  // question.
  if (Status s = impl->Exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;"); !s) {
    return s.error();
  }
  if (Status s = impl->Exec(kSchema); !s) {
    return MakeError(ErrorCode::kFormat,
                     fmt::format("{} is not a plainsql runs database ({})", path, s.error().message));
  }
  return std::unique_ptr<RunStore>(new RunStore(std::move(impl)));
}

Result<std::string> RunStore::CreateRun(const RunSpec& spec, const std::vector<Question>& questions) {
  std::mt19937 rng(std::random_device{}());
  std::string id = fmt::format("run-{}-{:04x}", NowUtc("%Y%m%d-%H%M%S"), rng() & 0xffff);
  if (Status s = impl_->Exec("BEGIN IMMEDIATE"); !s) return s.error();
  auto rollback = [&](Error e) {
    (void)impl_->Exec("ROLLBACK");
    return e;
  };
  {
    Stmt st;
    if (!impl_->Prepare(st, "INSERT INTO runs VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)")) {
      return rollback(impl_->Fail("prepare"));
    }
    int k = 0;
    for (const std::string* v : {static_cast<const std::string*>(&id), &spec.name}) {
      sqlite3_bind_text(st.s, ++k, v->c_str(), -1, SQLITE_TRANSIENT);
    }
    std::string created = NowUtc("%Y-%m-%dT%H:%M:%SZ");
    sqlite3_bind_text(st.s, ++k, created.c_str(), -1, SQLITE_TRANSIENT);
    for (const std::string* v : {&spec.benchmark, &spec.questions, &spec.db_dir, &spec.tables, &spec.system}) {
      sqlite3_bind_text(st.s, ++k, v->c_str(), -1, SQLITE_TRANSIENT);
    }
    sqlite3_bind_int(st.s, ++k, spec.keep_distinct ? 1 : 0);
    sqlite3_bind_int64(st.s, ++k, spec.timeout_ms);
    sqlite3_bind_int64(st.s, ++k, static_cast<int64_t>(questions.size()));
    if (sqlite3_step(st.s) != SQLITE_DONE) return rollback(impl_->Fail("create run"));
  }
  Stmt st;
  if (!impl_->Prepare(st,
                      "INSERT INTO run_questions (run_id, position, idx, db_id, question, gold_sql, difficulty) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?)")) {
    return rollback(impl_->Fail("prepare"));
  }
  for (size_t i = 0; i < questions.size(); ++i) {
    const Question& q = questions[i];
    sqlite3_reset(st.s);
    sqlite3_bind_text(st.s, 1, id.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st.s, 2, static_cast<int64_t>(i));
    sqlite3_bind_int64(st.s, 3, static_cast<int64_t>(q.index));
    sqlite3_bind_text(st.s, 4, q.db_id.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st.s, 5, q.question.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st.s, 6, q.gold_sql.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st.s, 7, q.difficulty.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st.s) != SQLITE_DONE) return rollback(impl_->Fail("store questions"));
  }
  if (Status s = impl_->Exec("COMMIT"); !s) return rollback(s.error());
  return id;
}

Result<std::vector<size_t>> RunStore::QuestionIndexes(const std::string& run_id) {
  Stmt st;
  if (!impl_->Prepare(st, "SELECT idx FROM run_questions WHERE run_id = ? ORDER BY position")) {
    return impl_->Fail("prepare");
  }
  sqlite3_bind_text(st.s, 1, run_id.c_str(), -1, SQLITE_TRANSIENT);
  std::vector<size_t> out;
  int rc;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW) out.push_back(static_cast<size_t>(sqlite3_column_int64(st.s, 0)));
  if (rc != SQLITE_DONE) return impl_->Fail("read the run's questions");
  return out;
}

Result<std::vector<size_t>> RunStore::Pending(const std::string& run_id) {
  Stmt st;
  if (!impl_->Prepare(st, "SELECT position FROM run_questions WHERE run_id = ? AND done = 0 ORDER BY position")) {
    return impl_->Fail("prepare");
  }
  sqlite3_bind_text(st.s, 1, run_id.c_str(), -1, SQLITE_TRANSIENT);
  std::vector<size_t> out;
  int rc;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW) out.push_back(static_cast<size_t>(sqlite3_column_int64(st.s, 0)));
  if (rc != SQLITE_DONE) return impl_->Fail("read pending questions");
  return out;
}

Status RunStore::Record(const std::string& run_id, size_t position, const QuestionScore& s, double latency_ms) {
  Stmt st;
  if (!impl_->Prepare(
          st,
          "UPDATE run_questions SET done = 1, difficulty = ?, predicted_sql = ?, error = ?, gold_error = ?, "
          "database_missing = ?, ex_strict = ?, ex_relaxed = ?, ex_jaccard = ?, jaccard = ?, em = ?, "
          "linked = ?, query_recall = ?, query_precision = ?, query_f1 = ?, latency_ms = ?, recorded = ?, "
          "gold_identifiers = ? "
          "WHERE run_id = ? AND position = ?")) {
    return impl_->Fail("prepare");
  }
  int k = 0;
  auto text = [&](const std::string& v) { sqlite3_bind_text(st.s, ++k, v.c_str(), -1, SQLITE_TRANSIENT); };
  auto flag = [&](const std::optional<bool>& v) {
    if (v) {
      sqlite3_bind_int(st.s, ++k, *v ? 1 : 0);
    } else {
      sqlite3_bind_null(st.s, ++k);
    }
  };
  text(s.difficulty);
  text(s.predicted_sql);
  text(s.error);
  text(s.gold_error);
  flag(s.database_missing);
  flag(s.ex_strict);
  flag(s.ex_relaxed);
  flag(s.ex_jaccard);
  sqlite3_bind_double(st.s, ++k, s.jaccard);
  flag(s.em);
  flag(s.linked);
  sqlite3_bind_double(st.s, ++k, s.linking.recall);
  sqlite3_bind_double(st.s, ++k, s.linking.precision);
  sqlite3_bind_double(st.s, ++k, s.linking.f1);
  sqlite3_bind_double(st.s, ++k, latency_ms);
  text(NowUtc("%Y-%m-%dT%H:%M:%SZ"));
  text(Join(s.gold_identifiers, "\n"));
  text(run_id);
  sqlite3_bind_int64(st.s, ++k, static_cast<int64_t>(position));
  if (sqlite3_step(st.s) != SQLITE_DONE) return impl_->Fail("record a result");
  return Status::Ok();
}

Status RunStore::SetStatus(const std::string& run_id, const std::string& status) {
  Stmt st;
  if (!impl_->Prepare(st, "UPDATE runs SET status = ? WHERE id = ?")) return impl_->Fail("prepare");
  sqlite3_bind_text(st.s, 1, status.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st.s, 2, run_id.c_str(), -1, SQLITE_TRANSIENT);
  if (sqlite3_step(st.s) != SQLITE_DONE) return impl_->Fail("set the run status");
  return Status::Ok();
}

namespace {

constexpr const char* kRunColumns =
    "SELECT r.id, r.name, r.created, r.status, r.benchmark, r.questions, r.db_dir, r.tables, r.system, "
    "r.keep_distinct, r.timeout_ms, r.total, (SELECT count(*) FROM run_questions q WHERE q.run_id = r.id AND q.done) "
    "FROM runs r";

RunInfo ReadRun(sqlite3_stmt* s) {
  auto text = [&](int i) {
    const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(s, i));
    return std::string(t ? t : "");
  };
  RunInfo r;
  r.id = text(0);
  r.spec.name = text(1);
  r.created = text(2);
  r.status = text(3);
  r.spec.benchmark = text(4);
  r.spec.questions = text(5);
  r.spec.db_dir = text(6);
  r.spec.tables = text(7);
  r.spec.system = text(8);
  r.spec.keep_distinct = sqlite3_column_int(s, 9) != 0;
  r.spec.timeout_ms = sqlite3_column_int64(s, 10);
  r.total = sqlite3_column_int64(s, 11);
  r.done = sqlite3_column_int64(s, 12);
  return r;
}

}  // namespace

Result<std::vector<RunInfo>> RunStore::ListRuns() {
  Stmt st;
  std::string sql = std::string(kRunColumns) + " ORDER BY r.created, r.id";
  if (!impl_->Prepare(st, sql.c_str())) return impl_->Fail("prepare");
  std::vector<RunInfo> out;
  int rc;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW) out.push_back(ReadRun(st.s));
  if (rc != SQLITE_DONE) return impl_->Fail("list runs");
  return out;
}

Result<RunInfo> RunStore::GetRun(const std::string& id_or_name) {
  auto runs = ListRuns();
  if (!runs) return runs.error();
  std::vector<const RunInfo*> matches;
  for (const auto& r : *runs) {
    if (r.id == id_or_name || (!r.spec.name.empty() && r.spec.name == id_or_name)) return r;
    if (r.id.starts_with(id_or_name) || (id_or_name.size() >= 4 && r.id.ends_with(id_or_name))) matches.push_back(&r);
  }
  if (matches.size() == 1) return *matches[0];
  if (matches.empty()) {
    return MakeError(ErrorCode::kNotFound, fmt::format("no run '{}' in {}", id_or_name, impl_->path));
  }
  return MakeError(ErrorCode::kInvalidArgument, fmt::format("'{}' names {} runs in {}; give more of the id", id_or_name,
                                                            matches.size(), impl_->path));
}

Result<std::vector<QuestionScore>> RunStore::Scores(const std::string& run_id) {
  Stmt st;
  if (!impl_->Prepare(st,
                      "SELECT idx, db_id, question, gold_sql, difficulty, predicted_sql, error, gold_error, "
                      "database_missing, ex_strict, ex_relaxed, ex_jaccard, jaccard, em, linked, query_recall, "
                      "query_precision, query_f1, latency_ms, gold_identifiers FROM run_questions WHERE run_id = ? AND "
                      "done ORDER BY position")) {
    return impl_->Fail("prepare");
  }
  sqlite3_bind_text(st.s, 1, run_id.c_str(), -1, SQLITE_TRANSIENT);
  std::vector<QuestionScore> out;
  int rc;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW) {
    auto text = [&](int i) {
      const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(st.s, i));
      return std::string(t ? t : "");
    };
    auto flag = [&](int i) -> std::optional<bool> {
      if (sqlite3_column_type(st.s, i) == SQLITE_NULL) return std::nullopt;
      return sqlite3_column_int(st.s, i) != 0;
    };
    QuestionScore s;
    s.index = static_cast<size_t>(sqlite3_column_int64(st.s, 0));
    s.db_id = text(1);
    s.question = text(2);
    s.gold_sql = text(3);
    s.difficulty = text(4);
    s.predicted_sql = text(5);
    s.error = text(6);
    s.gold_error = text(7);
    s.database_missing = flag(8).value_or(false);
    s.ex_strict = flag(9);
    s.ex_relaxed = flag(10);
    s.ex_jaccard = flag(11);
    s.jaccard = sqlite3_column_double(st.s, 12);
    s.em = flag(13).value_or(false);
    s.linked = flag(14).value_or(false);
    s.linking.recall = sqlite3_column_double(st.s, 15);
    s.linking.precision = sqlite3_column_double(st.s, 16);
    s.linking.f1 = sqlite3_column_double(st.s, 17);
    s.latency_ms = sqlite3_column_double(st.s, 18);
    if (std::string ids = text(19); !ids.empty()) s.gold_identifiers = Split(ids, '\n');
    out.push_back(std::move(s));
  }
  if (rc != SQLITE_DONE) return impl_->Fail("read scores");
  return out;
}

nlohmann::ordered_json CompareRuns(const std::vector<QuestionScore>& a, const std::vector<QuestionScore>& b) {
  std::map<size_t, const QuestionScore*> by_index;
  for (const auto& s : b) by_index[s.index] = &s;
  struct Counts {
    int64_t n = 0, a_right = 0, b_right = 0, only_a = 0, only_b = 0;
  };
  Counts all;
  std::map<std::string, Counts> by_difficulty;
  for (const auto& sa : a) {
    auto it = by_index.find(sa.index);
    if (it == by_index.end() || !sa.ex_strict || !it->second->ex_strict) continue;
    bool ra = *sa.ex_strict, rb = *it->second->ex_strict;
    for (Counts* c : {&all, &by_difficulty[sa.difficulty.empty() ? "unknown" : sa.difficulty]}) {
      ++c->n;
      c->a_right += ra;
      c->b_right += rb;
      c->only_a += ra && !rb;
      c->only_b += rb && !ra;
    }
  }
  auto json_of = [](const Counts& c) {
    nlohmann::ordered_json j = {{"questions", c.n}};
    j["ex_strict_a"] = c.n ? static_cast<double>(c.a_right) / static_cast<double>(c.n) : 0.0;
    j["ex_strict_b"] = c.n ? static_cast<double>(c.b_right) / static_cast<double>(c.n) : 0.0;
    j["only_a_right"] = c.only_a;
    j["only_b_right"] = c.only_b;
    j["mcnemar_p"] = McNemarP(c.only_a, c.only_b);
    return j;
  };
  nlohmann::ordered_json out = json_of(all);
  out["by_difficulty"] = nlohmann::ordered_json::object();
  for (const auto& [k, c] : by_difficulty) out["by_difficulty"][k] = json_of(c);
  return out;
}

}  // namespace plainsql::eval
