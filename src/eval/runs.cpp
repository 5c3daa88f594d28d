// The runs database (see runs.h). The same tables and SQL on SQLite and PostgreSQL, through exec::StoreSession.
#include "eval/runs.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <map>
#include <random>

#include "common/strings.h"
#include "exec/connection.h"

namespace plainsql::eval {

namespace {

// BIGINT and DOUBLE PRECISION give SQLite integer and real affinity and PostgreSQL its 64-bit types. Flags are 0 / 1.
constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', created TEXT NOT NULL, status TEXT NOT NULL,
  benchmark TEXT NOT NULL, questions TEXT NOT NULL, db_dir TEXT NOT NULL, tables TEXT NOT NULL, system TEXT NOT NULL,
  keep_distinct BIGINT NOT NULL, timeout_ms BIGINT NOT NULL, total BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS run_questions (
  run_id TEXT NOT NULL REFERENCES runs(id), position BIGINT NOT NULL, idx BIGINT NOT NULL, db_id TEXT NOT NULL,
  question TEXT NOT NULL, gold_sql TEXT NOT NULL, difficulty TEXT NOT NULL, done BIGINT NOT NULL DEFAULT 0,
  predicted_sql TEXT, error TEXT, gold_error TEXT, database_missing BIGINT, ex_strict BIGINT, ex_relaxed BIGINT,
  ex_jaccard BIGINT, jaccard DOUBLE PRECISION, em BIGINT, linked BIGINT, query_recall DOUBLE PRECISION,
  query_precision DOUBLE PRECISION, query_f1 DOUBLE PRECISION, latency_ms DOUBLE PRECISION, recorded TEXT,
  gold_identifiers TEXT, claimed_by TEXT, claimed_at DOUBLE PRECISION, recorded_by TEXT, predicted_identifiers TEXT, stages TEXT,
  confidence DOUBLE PRECISION, estimated_correctness DOUBLE PRECISION, PRIMARY KEY (run_id, position));
)";

// Columns added after the first release of the runs database, for files created before.
constexpr std::pair<const char*, const char*> kLaterColumns[] = {{"claimed_by", "TEXT"},
                                                                 {"claimed_at", "DOUBLE PRECISION"},
                                                                 {"recorded_by", "TEXT"},
                                                                 {"predicted_identifiers", "TEXT"},
                                                                 {"stages", "TEXT"},
                                                                 {"confidence", "DOUBLE PRECISION"},
                                                                 {"estimated_correctness", "DOUBLE PRECISION"}};

std::string NowUtc(const char* format) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

int64_t Int(const std::optional<std::string>& v) { return v && !v->empty() ? std::stoll(*v) : 0; }
double Real(const std::optional<std::string>& v) { return v && !v->empty() ? std::stod(*v) : 0.0; }
std::string Text(const std::optional<std::string>& v) { return v.value_or(""); }
std::optional<bool> Flag(const std::optional<std::string>& v) {
  if (!v) return std::nullopt;
  return Int(v) != 0;
}
exec::StoreValue FlagValue(const std::optional<bool>& v) {
  if (!v) return std::monostate{};
  return int64_t{*v ? 1 : 0};
}

}  // namespace

std::string WorkerId() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "localhost");
  return fmt::format("{}:{}", host, static_cast<long>(getpid()));
}

bool WorkerAlive(const std::string& worker) {
  std::string me = WorkerId();
  size_t colon = worker.rfind(':');
  if (colon == std::string::npos || worker.substr(0, colon) != me.substr(0, me.rfind(':'))) return true;
  long pid = std::strtol(worker.c_str() + colon + 1, nullptr, 10);
  if (pid <= 0) return true;
  return kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

struct RunStore::Impl {
  using Row = exec::StoreRows::value_type;
  std::unique_ptr<exec::StoreSession> db;
  std::string where;  // the file or the redacted URL, for messages
  bool postgres = false;

  Error Wrap(const Error& e, std::string_view what) const {
    return MakeError(ErrorCode::kIo, fmt::format("runs database: {}: {}", what, e.message));
  }
  Result<exec::StoreRows> Query(std::string_view what, std::string_view sql,
                                const std::vector<exec::StoreValue>& params = {}) {
    auto rows = db->Query(sql, params);
    if (!rows) return Wrap(rows.error(), what);
    return rows;
  }
  // A statement whose rows are not needed (an UPDATE), as a Status.
  Status Update(std::string_view what, std::string_view sql, const std::vector<exec::StoreValue>& params) {
    auto rows = Query(what, sql, params);
    if (!rows) return rows.error();
    return Status::Ok();
  }
  // Every row of a query, through `each`.
  template <typename F>
  auto Map(std::string_view what, std::string_view sql, const std::vector<exec::StoreValue>& params, F each)
      -> Result<std::vector<decltype(each(std::declval<const Row&>()))>> {
    auto rows = Query(what, sql, params);
    if (!rows) return rows.error();
    std::vector<decltype(each(std::declval<const Row&>()))> out;
    out.reserve(rows->size());
    for (const auto& r : *rows) out.push_back(each(r));
    return out;
  }
  Status Execute(std::string_view what, std::string_view sql) {
    if (Status s = db->Execute(sql); !s) return Wrap(s.error(), what);
    return Status::Ok();
  }
  // The database's clock, in seconds since 1970: every worker measures claims on the same clock.
  const char* Now() const {
    return postgres ? "extract(epoch from clock_timestamp())::double precision"
                    : "((julianday('now') - 2440587.5) * 86400.0)";
  }
  const char* Begin() const { return postgres ? "BEGIN" : "BEGIN IMMEDIATE"; }
};

RunStore::RunStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RunStore::~RunStore() = default;

Result<std::unique_ptr<RunStore>> RunStore::Open(const std::string& path_or_url) {
  auto impl = std::make_unique<Impl>();
  impl->where = exec::RedactConnectionString(path_or_url);
  auto session = exec::OpenStoreSession(path_or_url);
  if (!session) {
    return MakeError(session.error().code, "runs database: " + session.error().message);
  }
  impl->db = std::move(*session);
  impl->postgres = impl->db->engine() == exec::Engine::kPostgres;
  auto not_runs = [&](const Error& e) {
    return MakeError(ErrorCode::kFormat,
                     fmt::format("{} is not a plainsql runs database ({})", impl->where, e.message));
  };
  // Workers starting together must not race to create the tables: a transaction-scoped advisory lock on PostgreSQL,
  // the write lock on SQLite.
  std::string create =
      std::string(impl->Begin()) + ";" + (impl->postgres ? "SELECT pg_advisory_xact_lock(7270601);" : "") + kSchema;
  if (Status s = impl->db->Execute(create); !s) {
    (void)impl->db->Execute("ROLLBACK");
    return not_runs(s.error());
  }
  for (const auto& [column, type] : kLaterColumns) {
    if (impl->db->Query(fmt::format("SELECT {} FROM run_questions WHERE 0 = 1", column))) continue;
    if (impl->postgres) (void)impl->db->Execute("ROLLBACK; BEGIN; SELECT pg_advisory_xact_lock(7270601)");
    if (Status s = impl->db->Execute(fmt::format("ALTER TABLE run_questions ADD COLUMN {} {}", column, type)); !s) {
      (void)impl->db->Execute("ROLLBACK");
      return not_runs(s.error());
    }
  }
  if (Status s = impl->db->Execute("COMMIT"); !s) return not_runs(s.error());
  return std::unique_ptr<RunStore>(new RunStore(std::move(impl)));
}

Result<std::string> RunStore::CreateRun(const RunSpec& spec, const std::vector<Question>& questions) {
  std::mt19937 rng(std::random_device{}());
  std::string id = fmt::format("run-{}-{:04x}", NowUtc("%Y%m%d-%H%M%S"), rng() & 0xffff);
  if (Status s = impl_->Execute("begin", impl_->Begin()); !s) return s.error();
  auto rollback = [&](const Error& e) {
    (void)impl_->db->Execute("ROLLBACK");
    return e;
  };
  auto run = impl_->Query(
      "create run", "INSERT INTO runs VALUES ($1, $2, $3, 'running', $4, $5, $6, $7, $8, $9, $10, $11)",
      {id, spec.name, NowUtc("%Y-%m-%dT%H:%M:%SZ"), spec.benchmark, spec.questions, spec.db_dir, spec.tables,
       spec.system, int64_t{spec.keep_distinct ? 1 : 0}, spec.timeout_ms, static_cast<int64_t>(questions.size())});
  if (!run) return rollback(run.error());
  // The questions, 100 to a statement.
  const size_t batch = 100;
  for (size_t from = 0; from < questions.size(); from += batch) {
    size_t to = std::min(questions.size(), from + batch);
    std::string sql =
        "INSERT INTO run_questions (run_id, position, idx, db_id, question, gold_sql, difficulty) VALUES ";
    std::vector<exec::StoreValue> params;
    params.reserve((to - from) * 7);
    for (size_t i = from; i < to; ++i) {
      size_t k = params.size();
      sql += fmt::format("{}(${}, ${}, ${}, ${}, ${}, ${}, ${})", i == from ? "" : ", ", k + 1, k + 2, k + 3, k + 4,
                         k + 5, k + 6, k + 7);
      const Question& q = questions[i];
      params.emplace_back(id);
      params.emplace_back(static_cast<int64_t>(i));
      params.emplace_back(static_cast<int64_t>(q.index));
      params.emplace_back(q.db_id);
      params.emplace_back(q.question);
      params.emplace_back(q.gold_sql);
      params.emplace_back(q.difficulty);
    }
    if (auto r = impl_->Query("store questions", sql, params); !r) return rollback(r.error());
  }
  if (Status s = impl_->Execute("commit", "COMMIT"); !s) return rollback(s.error());
  return id;
}

namespace {

size_t Position(const exec::StoreRows::value_type& r) { return static_cast<size_t>(Int(r.at(0))); }

// A row of ListRuns' query.
RunInfo RunInfoOf(const exec::StoreRows::value_type& row) {
  RunInfo r;
  r.id = Text(row.at(0));
  r.spec.name = Text(row.at(1));
  r.created = Text(row.at(2));
  r.status = Text(row.at(3));
  r.spec.benchmark = Text(row.at(4));
  r.spec.questions = Text(row.at(5));
  r.spec.db_dir = Text(row.at(6));
  r.spec.tables = Text(row.at(7));
  r.spec.system = Text(row.at(8));
  r.spec.keep_distinct = Int(row.at(9)) != 0;
  r.spec.timeout_ms = Int(row.at(10));
  r.total = Int(row.at(11));
  r.done = Int(row.at(12));
  if (r.status != "done" && Int(row.at(13)) > 0) r.status = "running";
  return r;
}

// A row of Scores' query.
QuestionScore ScoreOf(const exec::StoreRows::value_type& r) {
  QuestionScore s;
  s.index = static_cast<size_t>(Int(r.at(0)));
  s.db_id = Text(r.at(1));
  s.question = Text(r.at(2));
  s.gold_sql = Text(r.at(3));
  s.difficulty = Text(r.at(4));
  s.predicted_sql = Text(r.at(5));
  s.error = Text(r.at(6));
  s.gold_error = Text(r.at(7));
  s.database_missing = Flag(r.at(8)).value_or(false);
  s.ex_strict = Flag(r.at(9));
  s.ex_relaxed = Flag(r.at(10));
  s.ex_jaccard = Flag(r.at(11));
  s.jaccard = Real(r.at(12));
  s.em = Flag(r.at(13)).value_or(false);
  s.linked = Flag(r.at(14)).value_or(false);
  s.linking.recall = Real(r.at(15));
  s.linking.precision = Real(r.at(16));
  s.linking.f1 = Real(r.at(17));
  s.latency_ms = Real(r.at(18));
  if (std::string ids = Text(r.at(19)); !ids.empty()) s.gold_identifiers = Split(ids, '\n');
  if (std::string ids = Text(r.at(20)); !ids.empty()) s.predicted_identifiers = Split(ids, '\n');
  if (std::string stages = Text(r.at(21)); !stages.empty()) {
    s.stages = StagesFromJson(nlohmann::json::parse(stages, nullptr, /*allow_exceptions=*/false));
  }
  if (r.at(22)) s.confidence = Real(r.at(22));
  if (r.at(23)) s.estimated_correctness = Real(r.at(23));
  return s;
}

}  // namespace

Result<std::vector<size_t>> RunStore::QuestionIndexes(const std::string& run_id) {
  return impl_->Map("read the run's questions", "SELECT idx FROM run_questions WHERE run_id = $1 ORDER BY position",
                    {run_id}, Position);
}

Result<std::vector<size_t>> RunStore::Pending(const std::string& run_id) {
  return impl_->Map("read pending questions",
                    "SELECT position FROM run_questions WHERE run_id = $1 AND done = 0 ORDER BY position", {run_id},
                    Position);
}

Result<std::optional<size_t>> RunStore::Claim(const std::string& run_id, const std::string& worker,
                                              double lease_seconds) {
  // One statement: pick the first free question and mark it. PostgreSQL skips rows other workers are claiming at that
  // moment (SKIP LOCKED) instead of waiting for them; SQLite runs the statement under its single write lock.
  std::string sql = fmt::format(
      "UPDATE run_questions SET claimed_by = $2, claimed_at = {now} WHERE run_id = $1 AND position = ("
      "SELECT position FROM run_questions WHERE run_id = $1 AND done = 0 AND "
      "(claimed_by IS NULL OR claimed_at < {now} - $3) ORDER BY position LIMIT 1{lock}) RETURNING position",
      fmt::arg("now", impl_->Now()), fmt::arg("lock", impl_->postgres ? " FOR UPDATE SKIP LOCKED" : ""));
  auto claimed = impl_->Map("claim a question", sql, {run_id, worker, lease_seconds}, Position);
  if (!claimed) return claimed.error();
  if (claimed->empty()) return std::optional<size_t>();
  return std::optional<size_t>(claimed->front());
}

Status RunStore::Release(const std::string& run_id, const std::string& worker) {
  return impl_->Update("give back claims",
                       "UPDATE run_questions SET claimed_by = NULL, claimed_at = NULL "
                       "WHERE run_id = $1 AND claimed_by = $2 AND done = 0",
                       {run_id, worker});
}

Result<std::vector<std::pair<std::string, int64_t>>> RunStore::Claimants(const std::string& run_id,
                                                                         double lease_seconds) {
  return impl_->Map("read claims",
                    fmt::format("SELECT claimed_by, count(*) FROM run_questions WHERE run_id = $1 AND done = 0 "
                                "AND claimed_by IS NOT NULL AND claimed_at >= {} - $2 "
                                "GROUP BY claimed_by ORDER BY claimed_by",
                                impl_->Now()),
                    {run_id, lease_seconds}, [](const auto& r) { return std::make_pair(Text(r.at(0)), Int(r.at(1))); });
}

Status RunStore::Record(const std::string& run_id, size_t position, const QuestionScore& s, double latency_ms,
                        const std::string& worker) {
  return impl_->Update(
      "record a result",
      "UPDATE run_questions SET done = 1, difficulty = $1, predicted_sql = $2, error = $3, gold_error = $4, "
      "database_missing = $5, ex_strict = $6, ex_relaxed = $7, ex_jaccard = $8, jaccard = $9, em = $10, "
      "linked = $11, query_recall = $12, query_precision = $13, query_f1 = $14, latency_ms = $15, recorded = $16, "
      "gold_identifiers = $17, recorded_by = $18, predicted_identifiers = $19, stages = $20, confidence = $21, "
      "estimated_correctness = $22, claimed_by = NULL, claimed_at = NULL WHERE run_id = $23 AND position = $24",
      {s.difficulty,
       s.predicted_sql,
       s.error,
       s.gold_error,
       FlagValue(s.database_missing),
       FlagValue(s.ex_strict),
       FlagValue(s.ex_relaxed),
       FlagValue(s.ex_jaccard),
       s.jaccard,
       FlagValue(s.em),
       FlagValue(s.linked),
       s.linking.recall,
       s.linking.precision,
       s.linking.f1,
       latency_ms,
       NowUtc("%Y-%m-%dT%H:%M:%SZ"),
       Join(s.gold_identifiers, "\n"),
       worker,
       Join(s.predicted_identifiers, "\n"),
       StagesToJson(s.stages).dump(),
       s.confidence ? exec::StoreValue(*s.confidence) : exec::StoreValue(std::monostate{}),
       s.estimated_correctness ? exec::StoreValue(*s.estimated_correctness) : exec::StoreValue(std::monostate{}),
       run_id,
       static_cast<int64_t>(position)});
}

Result<std::vector<std::pair<size_t, std::string>>> RunStore::RecordedBy(const std::string& run_id) {
  return impl_->Map("read recorders",
                    "SELECT position, recorded_by FROM run_questions WHERE run_id = $1 AND done = 1 "
                    "ORDER BY position",
                    {run_id}, [](const auto& r) { return std::make_pair(Position(r), Text(r.at(1))); });
}

Status RunStore::SetStatus(const std::string& run_id, const std::string& status) {
  return impl_->Update("set the run status", "UPDATE runs SET status = $1 WHERE id = $2", {status, run_id});
}

Result<std::vector<RunInfo>> RunStore::ListRuns() {
  // A run with live claims is shown as running whatever its stored status: some worker is on it.
  return impl_->Map(
      "list runs",
      fmt::format("SELECT r.id, r.name, r.created, r.status, r.benchmark, r.questions, r.db_dir, r.tables, r.system, "
                  "r.keep_distinct, r.timeout_ms, r.total, "
                  "(SELECT count(*) FROM run_questions q WHERE q.run_id = r.id AND q.done = 1), "
                  "(SELECT count(*) FROM run_questions q WHERE q.run_id = r.id AND q.done = 0 AND "
                  "q.claimed_by IS NOT NULL AND q.claimed_at >= {} - $1) "
                  "FROM runs r ORDER BY r.created, r.id",
                  impl_->Now()),
      {kClaimLeaseSeconds}, RunInfoOf);
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
    return MakeError(ErrorCode::kNotFound, fmt::format("no run '{}' in {}", id_or_name, impl_->where));
  }
  return MakeError(ErrorCode::kInvalidArgument, fmt::format("'{}' names {} runs in {}; give more of the id", id_or_name,
                                                            matches.size(), impl_->where));
}

Result<std::vector<QuestionScore>> RunStore::Scores(const std::string& run_id) {
  return impl_->Map(
      "read scores",
      "SELECT idx, db_id, question, gold_sql, difficulty, predicted_sql, error, gold_error, "
      "database_missing, ex_strict, ex_relaxed, ex_jaccard, jaccard, em, linked, query_recall, "
      "query_precision, query_f1, latency_ms, gold_identifiers, predicted_identifiers, stages, confidence, "
      "estimated_correctness FROM run_questions WHERE run_id = $1 AND done = 1 ORDER BY position",
      {run_id}, ScoreOf);
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
