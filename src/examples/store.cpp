// The example store (see store.h). The same statements on SQLite and PostgreSQL, through exec::StoreSession; only the
// examples' id column differs (SQLite's rowid alias, PostgreSQL's identity column).
#include "examples/store.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <limits>
#include <set>
#include <thread>

#include "catalog/json_io.h"
#include "common/hash.h"
#include "common/strings.h"
#include "examples/mask.h"
#include "examples/schema_graph.h"
#include "exec/connection.h"

namespace plainsql::examples {

namespace {

using Row = exec::StoreRows::value_type;

// The tables, after the examples table (whose id column is the engine's own). Flags are 0 / 1; BIGINT and DOUBLE
// PRECISION give SQLite integer and real affinity and PostgreSQL its 64-bit types.
constexpr const char* kTables = R"(
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS databases (
  db_id TEXT PRIMARY KEY, schema_hash TEXT NOT NULL, dialect TEXT NOT NULL, labels TEXT NOT NULL,
  schema_json TEXT NOT NULL, added TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS examples_db_id ON examples (db_id);
CREATE TABLE IF NOT EXISTS distances (
  a TEXT NOT NULL, b TEXT NOT NULL, distance DOUBLE PRECISION NOT NULL, PRIMARY KEY (a, b));
CREATE TABLE IF NOT EXISTS inputs (
  key TEXT PRIMARY KEY, path TEXT NOT NULL, benchmark TEXT NOT NULL, total BIGINT NOT NULL, done BIGINT NOT NULL,
  added BIGINT NOT NULL, skipped BIGINT NOT NULL, finished BIGINT NOT NULL, updated TEXT NOT NULL);
)";
constexpr const char* kExamplesColumns =
    "key TEXT NOT NULL UNIQUE, db_id TEXT NOT NULL, question TEXT NOT NULL, sql TEXT NOT NULL, "
    "masked_question TEXT NOT NULL, masked_sql TEXT NOT NULL, source TEXT NOT NULL";

constexpr size_t kRowsPerStatement = 25;  // rows per INSERT (SQLite looks numbered parameters up one by one)
constexpr size_t kPageRows = 20'000;      // examples per SELECT when reading a store
constexpr size_t kDistancesPerCommit = 2000;

std::string NowUtc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

int64_t Int(const std::optional<std::string>& v) { return v && !v->empty() ? std::stoll(*v) : 0; }
double Real(const std::optional<std::string>& v) { return v && !v->empty() ? std::stod(*v) : 0.0; }
std::string Text(const std::optional<std::string>& v) { return v.value_or(""); }

Result<std::string> FromHex(std::string_view hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  if (hex.size() % 2 != 0) return MakeError(ErrorCode::kFormat, "odd number of hex digits");
  std::string out(hex.size() / 2, '\0');
  for (size_t i = 0; i < out.size(); ++i) {
    int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return MakeError(ErrorCode::kFormat, "not a hex digit");
    out[i] = static_cast<char>(hi * 16 + lo);
  }
  return out;
}

// An example's identity: its database, question and SQL, framed so that no two triples collide by concatenation.
std::string ExampleKey(const Example& e) {
  Hasher h;
  h.Update(e.db_id);
  h.Update(e.question);
  h.Update(e.sql);
  return h.HexDigest();
}

// An input's content when the caller gives no hash of it: its items, in order.
std::string ItemsHash(const std::vector<BuildItem>& items) {
  Hasher h;
  h.Update(static_cast<int64_t>(items.size()));
  for (const auto& item : items) {
    h.Update(item.db_id);
    h.Update(item.question);
    h.Update(item.sql);
  }
  return h.HexDigest();
}

}  // namespace

std::string InputKey(const std::string& benchmark, const std::string& content_hash) {
  return benchmark + ":" + content_hash;
}

catalog::Schema StructureOnly(catalog::Schema schema) {
  for (auto& t : schema.tables) {
    t.row_count.reset();
    t.row_count_estimated = false;
    for (auto& c : t.columns) c.samples.clear();
  }
  return schema;
}

struct ExampleStore::Impl {
  std::unique_ptr<exec::StoreSession> db;
  std::string where;
  bool postgres = false;

  Error Wrap(const Error& e, std::string_view what) const {
    return MakeError(e.code == ErrorCode::kFormat ? ErrorCode::kFormat : ErrorCode::kIo,
                     fmt::format("example store {}: {}: {}", where, what, e.message));
  }
  Result<exec::StoreRows> Query(std::string_view what, std::string_view sql,
                                const std::vector<exec::StoreValue>& params = {}) {
    auto rows = db->Query(sql, params);
    if (!rows) return Wrap(rows.error(), what);
    return rows;
  }
  Status Execute(std::string_view what, std::string_view sql) {
    if (Status s = db->Execute(sql); !s) return Wrap(s.error(), what);
    return Status::Ok();
  }
  const char* Begin() const { return postgres ? "BEGIN" : "BEGIN IMMEDIATE"; }
  // Best effort: the transaction's own failure is what gets reported.
  void Rollback() { (void)db->Execute("ROLLBACK"); }
  // Runs `body` in one transaction: committed when it succeeds, rolled back when it fails.
  template <typename F>
  auto InTransaction(std::string_view what, F body) -> decltype(body()) {
    if (Status s = Execute(what, Begin()); !s) return s.error();
    auto r = body();
    if (!r) {
      Rollback();
      return r;
    }
    if (Status s = Execute(what, "COMMIT"); !s) {
      Rollback();
      return s.error();
    }
    return r;
  }
};

ExampleStore::ExampleStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ExampleStore::~ExampleStore() = default;
const std::string& ExampleStore::Where() const { return impl_->where; }

Result<std::unique_ptr<ExampleStore>> ExampleStore::OpenExisting(const std::string& path_or_url) {
  bool url = path_or_url.starts_with("postgresql://") || path_or_url.starts_with("postgres://");
  std::error_code ec;
  if (!url && !std::filesystem::is_regular_file(path_or_url, ec)) {
    return MakeError(ErrorCode::kNotFound,
                     fmt::format("no example store {} (build one with plainsql examples build)", path_or_url));
  }
  return Open(path_or_url);
}

Result<std::unique_ptr<ExampleStore>> ExampleStore::Open(const std::string& path_or_url) {
  auto impl = std::make_unique<Impl>();
  impl->where = exec::RedactConnectionString(path_or_url);
  auto session = exec::OpenStoreSession(path_or_url);
  if (!session) return MakeError(session.error().code, "example store: " + session.error().message);
  impl->db = std::move(*session);
  impl->postgres = impl->db->engine() == exec::Engine::kPostgres;
  auto not_a_store = [&](const Error& e) {
    return MakeError(ErrorCode::kFormat,
                     fmt::format("{} is not a plainsql example store ({})", impl->where, e.message));
  };
  // Processes opening a new store together must not race to create it: an advisory lock on PostgreSQL, the write
  // lock on SQLite.
  std::string create =
      fmt::format("{}; {} CREATE TABLE IF NOT EXISTS examples ({}, {}); {}", impl->Begin(),
                  impl->postgres ? "SELECT pg_advisory_xact_lock(7270617);" : "",
                  impl->postgres ? "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" : "id INTEGER PRIMARY KEY",
                  kExamplesColumns, kTables);
  // A 64 MiB page cache: the examples' key index takes random inserts (SQLite's default cache is 2 MiB).
  if (!impl->postgres) (void)impl->db->Execute("PRAGMA cache_size = -65536");
  if (Status s = impl->db->Execute(create); !s) {
    impl->Rollback();
    return not_a_store(s.error());
  }
  auto version = impl->db->Query("SELECT value FROM meta WHERE key = 'version'");
  if (!version) {
    impl->Rollback();
    return not_a_store(version.error());
  }
  if (version->empty()) {
    auto set = impl->db->Query(
        "INSERT INTO meta (key, value) VALUES ('version', $1), ('created', $2), ('wl_iterations', $3) "
        "ON CONFLICT (key) DO NOTHING",
        {std::to_string(kStoreVersion), NowUtc(), std::to_string(kWlIterations)});
    if (!set) {
      impl->Rollback();
      return not_a_store(set.error());
    }
  } else if (Text(version->front().at(0)) != std::to_string(kStoreVersion)) {
    impl->Rollback();
    return MakeError(ErrorCode::kFormat,
                     fmt::format("{} is an example store of version {}; this plainsql reads version {} (build it "
                                 "again with plainsql examples build)",
                                 impl->where, Text(version->front().at(0)), kStoreVersion));
  }
  if (Status s = impl->db->Execute("COMMIT"); !s) return not_a_store(s.error());
  return std::unique_ptr<ExampleStore>(new ExampleStore(std::move(impl)));
}

Result<std::string> ExampleStore::Meta(const std::string& key) {
  auto rows = impl_->Query("read meta", "SELECT value FROM meta WHERE key = $1", {key});
  if (!rows) return rows.error();
  return rows->empty() ? std::string() : Text(rows->front().at(0));
}

Status ExampleStore::SetMeta(const std::string& key, const std::string& value) {
  auto rows = impl_->Query("write meta",
                           "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2",
                           {key, value});
  if (!rows) return rows.error();
  return Status::Ok();
}

namespace {

Result<StoredDatabase> DatabaseOf(const Row& r) {
  StoredDatabase d;
  d.db_id = Text(r.at(0));
  d.schema_hash = Text(r.at(1));
  d.dialect = Text(r.at(2));
  auto bytes = FromHex(Text(r.at(3)));
  if (!bytes)
    return MakeError(ErrorCode::kFormat, fmt::format("database {}: labels: {}", d.db_id, bytes.error().message));
  auto labels = DecodeLabels(*bytes);
  if (!labels) return MakeError(ErrorCode::kFormat, fmt::format("database {}: {}", d.db_id, labels.error().message));
  d.labels = std::move(*labels);
  auto j = nlohmann::json::parse(Text(r.at(4)), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return MakeError(ErrorCode::kFormat, fmt::format("database {}: schema is not JSON", d.db_id));
  auto schema = catalog::FromJson(j);
  if (!schema) return MakeError(ErrorCode::kFormat, fmt::format("database {}: {}", d.db_id, schema.error().message));
  d.schema = std::move(*schema);
  return d;
}

constexpr const char* kDatabaseColumns = "db_id, schema_hash, dialect, labels, schema_json";

}  // namespace

Result<std::vector<StoredDatabase>> ExampleStore::Databases() {
  auto rows = impl_->Query("read databases", fmt::format("SELECT {} FROM databases ORDER BY db_id", kDatabaseColumns));
  if (!rows) return rows.error();
  std::vector<StoredDatabase> out;
  out.reserve(rows->size());
  for (const auto& r : *rows) {
    auto d = DatabaseOf(r);
    if (!d) return impl_->Wrap(d.error(), "read databases");
    out.push_back(std::move(*d));
  }
  return out;
}

Result<std::optional<StoredDatabase>> ExampleStore::FindDatabase(const std::string& db_id) {
  auto rows = impl_->Query("read a database",
                           fmt::format("SELECT {} FROM databases WHERE db_id = $1", kDatabaseColumns), {db_id});
  if (!rows) return rows.error();
  if (rows->empty()) return std::optional<StoredDatabase>();
  auto d = DatabaseOf(rows->front());
  if (!d) return impl_->Wrap(d.error(), "read a database");
  return std::optional<StoredDatabase>(std::move(*d));
}

Result<bool> ExampleStore::AddDatabase(const std::string& db_id, const catalog::Schema& schema,
                                       const sql::Dialect& dialect) {
  catalog::Schema structure = StructureOnly(schema);
  std::string hash = catalog::StructuralFingerprint(structure);
  auto check = [&](const std::string& stored) -> Result<bool> {
    if (stored == hash) return false;
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("the example store {} already has a database '{}' with another schema; give this "
                                 "one another name (--db-id) or use another store",
                                 impl_->where, db_id));
  };
  auto existing = impl_->Query("read a database", "SELECT schema_hash FROM databases WHERE db_id = $1", {db_id});
  if (!existing) return existing.error();
  if (!existing->empty()) return check(Text(existing->front().at(0)));
  std::string labels = ToHex(EncodeLabels(WlLabels(BuildSchemaGraph(structure))));
  auto inserted =
      impl_->Query("add a database",
                   "INSERT INTO databases (db_id, schema_hash, dialect, labels, schema_json, added) "
                   "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (db_id) DO NOTHING RETURNING db_id",
                   {db_id, hash, std::string(dialect.name), labels, catalog::ToJson(structure).dump(), NowUtc()});
  if (!inserted) return inserted.error();
  if (!inserted->empty()) return true;
  // Another process added it in between: it must be the same schema.
  existing = impl_->Query("read a database", "SELECT schema_hash FROM databases WHERE db_id = $1", {db_id});
  if (!existing) return existing.error();
  return existing->empty() ? Result<bool>(false) : check(Text(existing->front().at(0)));
}

namespace {

// Inserts `examples[from, to)` in one statement; duplicates (by key) are left out. Returns the new rows' keys and ids.
Result<exec::StoreRows> InsertRows(exec::StoreSession& db, const std::vector<Example>& examples,
                                   const std::vector<std::string>& keys, const std::string& source, size_t from,
                                   size_t to) {
  std::string sql = "INSERT INTO examples (key, db_id, question, sql, masked_question, masked_sql, source) VALUES ";
  std::vector<exec::StoreValue> params;
  params.reserve((to - from) * 7);
  for (size_t i = from; i < to; ++i) {
    size_t k = params.size();
    sql += fmt::format("{}(${}, ${}, ${}, ${}, ${}, ${}, ${})", i == from ? "" : ", ", k + 1, k + 2, k + 3, k + 4,
                       k + 5, k + 6, k + 7);
    const Example& e = examples[i];
    params.emplace_back(keys[i]);
    params.emplace_back(e.db_id);
    params.emplace_back(e.question);
    params.emplace_back(e.sql);
    params.emplace_back(e.masked_question);
    params.emplace_back(e.masked_sql);
    params.emplace_back(source);
  }
  sql += " ON CONFLICT (key) DO NOTHING RETURNING key, id";
  return db.Query(sql, params);
}

std::vector<exec::StoreValue> InputParams(const InputProgress& p) {
  return {p.key, p.path, p.benchmark, p.total, p.done, p.added, p.skipped, int64_t{p.finished ? 1 : 0}, p.updated};
}

constexpr const char* kSaveInput =
    "INSERT INTO inputs (key, path, benchmark, total, done, added, skipped, finished, updated) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (key) DO UPDATE SET path = $2, total = $4, done = $5, "
    "added = $6, skipped = $7, finished = $8, updated = $9";

}  // namespace

Result<int64_t> ExampleStore::AddExamples(std::vector<Example>& examples, const std::string& source,
                                          InputProgress* progress) {
  std::vector<std::string> keys;
  keys.reserve(examples.size());
  for (const auto& e : examples) keys.push_back(ExampleKey(e));
  return impl_->InTransaction("add examples", [&]() -> Result<int64_t> {
    int64_t added = 0;
    std::map<std::string, int64_t> ids;
    for (size_t from = 0; from < examples.size(); from += kRowsPerStatement) {
      size_t to = std::min(examples.size(), from + kRowsPerStatement);
      auto rows = InsertRows(*impl_->db, examples, keys, source, from, to);
      if (!rows) return impl_->Wrap(rows.error(), "add examples");
      for (const auto& r : *rows) ids[Text(r.at(0))] = Int(r.at(1));
      added += static_cast<int64_t>(rows->size());
    }
    for (size_t i = 0; i < examples.size(); ++i) {
      if (auto it = ids.find(keys[i]); it != ids.end()) examples[i].id = it->second;
    }
    if (progress) {
      progress->added += added;
      progress->updated = NowUtc();
      if (auto r = impl_->Query("save the input's progress", kSaveInput, InputParams(*progress)); !r) {
        progress->added -= added;
        return r.error();
      }
    }
    return added;
  });
}

Result<std::vector<Example>> ExampleStore::Examples() {
  std::vector<Example> out;
  int64_t after = -1;
  for (;;) {
    auto rows = impl_->Query("read examples",
                             "SELECT id, db_id, question, sql, masked_question, masked_sql FROM examples WHERE id > $1 "
                             "ORDER BY id LIMIT $2",
                             {after, static_cast<int64_t>(kPageRows)});
    if (!rows) return rows.error();
    out.reserve(out.size() + rows->size());
    for (auto& r : *rows) {
      Example e;
      e.id = Int(r.at(0));
      e.db_id = Text(r.at(1));
      e.question = Text(r.at(2));
      e.sql = Text(r.at(3));
      e.masked_question = Text(r.at(4));
      e.masked_sql = Text(r.at(5));
      after = e.id;
      out.push_back(std::move(e));
    }
    if (rows->size() < kPageRows) break;
  }
  return out;
}

Result<int64_t> ExampleStore::CountExamples() {
  auto rows = impl_->Query("count examples", "SELECT count(*) FROM examples");
  if (!rows) return rows.error();
  return Int(rows->front().at(0));
}

namespace {

InputProgress InputOf(const Row& r) {
  InputProgress p;
  p.key = Text(r.at(0));
  p.path = Text(r.at(1));
  p.benchmark = Text(r.at(2));
  p.total = Int(r.at(3));
  p.done = Int(r.at(4));
  p.added = Int(r.at(5));
  p.skipped = Int(r.at(6));
  p.finished = Int(r.at(7)) != 0;
  p.updated = Text(r.at(8));
  return p;
}

constexpr const char* kInputColumns = "key, path, benchmark, total, done, added, skipped, finished, updated";

}  // namespace

Result<InputProgress> ExampleStore::BeginInput(const std::string& key, const std::string& path,
                                               const std::string& benchmark, int64_t total) {
  auto rows = impl_->Query("read inputs", fmt::format("SELECT {} FROM inputs WHERE key = $1", kInputColumns), {key});
  if (!rows) return rows.error();
  if (!rows->empty()) {
    InputProgress p = InputOf(rows->front());
    p.path = path;
    return p;
  }
  InputProgress p;
  p.key = key;
  p.path = path;
  p.benchmark = benchmark;
  p.total = total;
  p.updated = NowUtc();
  if (Status s = SaveInput(p); !s) return s.error();
  return p;
}

Status ExampleStore::SaveInput(const InputProgress& progress) {
  auto r = impl_->Query("save the input's progress", kSaveInput, InputParams(progress));
  if (!r) return r.error();
  return Status::Ok();
}

namespace {

// The distances of the pairs `missing` (indexes into `labels`), on `threads` threads, told to `progress` as they go.
std::vector<double> PairDistances(const std::vector<std::vector<NodeLabels>>& labels,
                                  const std::vector<std::pair<size_t, size_t>>& missing, int threads,
                                  const StoreProgress& progress, const std::atomic<bool>* cancel) {
  std::vector<double> out(missing.size(), std::numeric_limits<double>::quiet_NaN());
  size_t n = threads > 0 ? static_cast<size_t>(threads) : std::max(1u, std::thread::hardware_concurrency());
  n = std::min(n, std::max<size_t>(1, missing.size() / 16));
  std::atomic<size_t> next{0}, done{0};
  std::mutex report;
  auto work = [&]() {
    for (size_t k = next++; k < missing.size(); k = next++) {
      if (cancel && cancel->load()) return;
      out[k] = WwlDistance(labels[missing[k].first], labels[missing[k].second]);
      size_t d = ++done;
      if (progress && (d % 256 == 0 || d == missing.size())) {
        std::lock_guard<std::mutex> lock(report);
        progress("distances", d, missing.size());
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(n - 1);
  for (size_t t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return out;
}

}  // namespace

Result<int64_t> ExampleStore::UpdateDistances(int threads, const StoreProgress& progress,
                                              const std::atomic<bool>* cancel) {
  auto dbs = Databases();
  if (!dbs) return dbs.error();
  auto stored = impl_->Query("read distances", "SELECT a, b FROM distances");
  if (!stored) return stored.error();
  std::set<std::pair<std::string, std::string>> have;
  for (const auto& r : *stored) have.emplace(Text(r.at(0)), Text(r.at(1)));
  std::vector<std::pair<size_t, size_t>> missing;
  for (size_t i = 0; i < dbs->size(); ++i) {
    for (size_t j = i + 1; j < dbs->size(); ++j) {
      if (!have.count({(*dbs)[i].db_id, (*dbs)[j].db_id})) missing.emplace_back(i, j);
    }
  }
  if (missing.empty()) return int64_t{0};
  std::vector<std::vector<NodeLabels>> labels;
  labels.reserve(dbs->size());
  for (const auto& d : *dbs) labels.push_back(d.labels);
  std::vector<double> values;
  if (have.empty()) {
    // Nothing stored yet: every pair, with WWL's own all-pairs computation.
    auto matrix = WwlDistances(labels, threads, [&](size_t done, size_t total) {
      if (progress) progress("distances", done, total);
    });
    values.reserve(missing.size());
    for (const auto& [i, j] : missing) values.push_back(matrix[i][j]);
  } else {
    values = PairDistances(labels, missing, threads, progress, cancel);
  }
  int64_t stored_now = 0;
  for (size_t from = 0; from < missing.size(); from += kDistancesPerCommit) {
    if (cancel && cancel->load()) break;
    size_t to = std::min(missing.size(), from + kDistancesPerCommit);
    auto st = impl_->InTransaction("store distances", [&]() -> Result<int64_t> {
      for (size_t at = from; at < to; at += kRowsPerStatement) {
        size_t end = std::min(to, at + kRowsPerStatement);
        std::string sql = "INSERT INTO distances (a, b, distance) VALUES ";
        std::vector<exec::StoreValue> params;
        params.reserve((end - at) * 3);
        for (size_t k = at; k < end; ++k) {
          if (std::isnan(values[k])) continue;  // cancelled before it was computed
          size_t p = params.size();
          sql += fmt::format("{}(${}, ${}, ${})", p == 0 ? "" : ", ", p + 1, p + 2, p + 3);
          params.emplace_back((*dbs)[missing[k].first].db_id);
          params.emplace_back((*dbs)[missing[k].second].db_id);
          params.emplace_back(values[k]);
        }
        if (params.empty()) continue;
        sql += " ON CONFLICT (a, b) DO NOTHING";
        if (auto r = impl_->Query("store distances", sql, params); !r) return r.error();
        stored_now += static_cast<int64_t>(params.size() / 3);
      }
      return stored_now;
    });
    if (!st) return st.error();
  }
  return stored_now;
}

Result<DistanceIndex> ExampleStore::Distances() {
  auto ids = impl_->Query("read databases", "SELECT db_id FROM databases ORDER BY db_id");
  if (!ids) return ids.error();
  DistanceIndex index;
  std::map<std::string, size_t> at;
  for (const auto& r : *ids) {
    at[Text(r.at(0))] = index.dbs.size();
    index.dbs.push_back(Text(r.at(0)));
  }
  size_t n = index.dbs.size();
  index.distances.assign(n, std::vector<double>(n, std::numeric_limits<double>::quiet_NaN()));
  for (size_t i = 0; i < n; ++i) index.distances[i][i] = 0;
  auto rows = impl_->Query("read distances", "SELECT a, b, distance FROM distances");
  if (!rows) return rows.error();
  for (const auto& r : *rows) {
    auto a = at.find(Text(r.at(0))), b = at.find(Text(r.at(1)));
    if (a == at.end() || b == at.end()) continue;
    index.distances[a->second][b->second] = index.distances[b->second][a->second] = Real(r.at(2));
  }
  return index;
}

Result<StoreStats> ExampleStore::Stats() {
  StoreStats s;
  auto examples = CountExamples();
  if (!examples) return examples.error();
  s.examples = *examples;
  auto counts = impl_->Query("count", "SELECT (SELECT count(*) FROM databases), (SELECT count(*) FROM distances)");
  if (!counts) return counts.error();
  s.databases = Int(counts->front().at(0));
  s.distance_pairs = s.databases * (s.databases - 1) / 2;
  s.distances_cached = Int(counts->front().at(1));
  // Examples per value of a column, most first.
  auto counts_by = [&](const char* column) -> Result<std::vector<std::pair<std::string, int64_t>>> {
    auto rows =
        impl_->Query("count examples",
                     fmt::format("SELECT {0}, count(*) AS n FROM examples GROUP BY {0} ORDER BY n DESC, {0}", column));
    if (!rows) return rows.error();
    std::vector<std::pair<std::string, int64_t>> out;
    out.reserve(rows->size());
    for (const auto& r : *rows) out.emplace_back(Text(r.at(0)), Int(r.at(1)));
    return out;
  };
  auto by_source = counts_by("source");
  if (!by_source) return by_source.error();
  s.by_source = std::move(*by_source);
  auto by_database = counts_by("db_id");
  if (!by_database) return by_database.error();
  s.by_database = std::move(*by_database);
  auto inputs = impl_->Query("read inputs", fmt::format("SELECT {} FROM inputs ORDER BY updated, key", kInputColumns));
  if (!inputs) return inputs.error();
  for (const auto& r : *inputs) s.inputs.push_back(InputOf(r));
  auto meta = impl_->Query("read meta", "SELECT key, value FROM meta ORDER BY key");
  if (!meta) return meta.error();
  for (const auto& r : *meta) s.meta[Text(r.at(0))] = Text(r.at(1));
  return s;
}

namespace {

// A database items are built from: its schema and values, and the masker over them (which points into both).
struct BuildDb {
  BuildDatabase source;
  std::unique_ptr<QuestionMasker> masker;
};

// The databases of a build, opened on first use and registered in the store; the few used last stay open (an input
// is usually grouped by database). A database that cannot be opened is remembered with why, not retried.
class BuildDbs {
 public:
  BuildDbs(ExampleStore& store, const DatabaseSource& source) : store_(store), source_(source) {}

  Result<BuildDb*> Get(const std::string& db_id, int64_t& new_databases) {
    if (auto it = open_.find(db_id); it != open_.end()) return it->second.get();
    if (auto it = failed_.find(db_id); it != failed_.end()) return MakeError(ErrorCode::kNotFound, it->second);
    auto opened = Open(db_id, new_databases);
    if (!opened) {
      failed_[db_id] = opened.error().message;
      return opened.error();
    }
    if (order_.size() >= kKeepOpen) {
      open_.erase(order_.front());
      order_.erase(order_.begin());
    }
    order_.push_back(db_id);
    return (open_[db_id] = std::move(*opened)).get();
  }

 private:
  // An input is grouped by database at best, and a replicated one cycles through all of them: keep every database of a
  // benchmark open (a masker and value index each), so none is read twice.
  static constexpr size_t kKeepOpen = 256;

  Result<std::unique_ptr<BuildDb>> Open(const std::string& db_id, int64_t& new_databases) {
    auto source = source_(db_id);
    if (!source) return source.error();
    auto db = std::make_unique<BuildDb>();
    db->source = std::move(*source);
    auto added = store_.AddDatabase(db_id, db->source.schema, *db->source.dialect);
    if (!added) return added.error();
    if (*added) ++new_databases;
    db->masker = std::make_unique<QuestionMasker>(db->source.schema, db->source.values.get());
    return db;
  }

  ExampleStore& store_;
  const DatabaseSource& source_;
  std::map<std::string, std::unique_ptr<BuildDb>> open_;
  std::vector<std::string> order_;  // open databases, least recently opened first
  std::map<std::string, std::string> failed_;
};

constexpr size_t kSkipReasonsKept = 5;

// One item as an example, or nullopt (with the reason noted in `result`) when it cannot be one.
std::optional<Example> MakeExample(const BuildItem& item, size_t index, BuildDbs& dbs, BuildResult& result) {
  auto skip = [&](const std::string& why) -> std::optional<Example> {
    ++result.skipped;
    if (result.skip_reasons.size() < kSkipReasonsKept) {
      // The first line only: a parse error's excerpt and caret do not fit a one-line reason.
      result.skip_reasons.push_back(
          fmt::format("item {} ({}): {}", index + 1, item.db_id, why.substr(0, why.find('\n'))));
    }
    return std::nullopt;
  };
  if (Trim(item.question).empty() || Trim(item.sql).empty()) return skip("no question or no SQL");
  auto db = dbs.Get(item.db_id, result.new_databases);
  if (!db) return skip(db.error().message);
  auto masked_sql = MaskSql(item.sql, *(*db)->source.dialect);
  if (!masked_sql) return skip(masked_sql.error().message);
  Example e;
  e.db_id = item.db_id;
  e.question = item.question;
  e.sql = item.sql;
  e.masked_question = (*db)->masker->Mask(item.question);
  e.masked_sql = std::move(*masked_sql);
  return e;
}

}  // namespace

Result<BuildResult> BuildStore(ExampleStore& store, const std::vector<BuildItem>& items,
                               const DatabaseSource& databases, const BuildOptions& options) {
  BuildResult result;
  const auto total = static_cast<int64_t>(items.size());
  const std::string content = options.content_hash.empty() ? ItemsHash(items) : options.content_hash;
  auto input = store.BeginInput(InputKey(options.benchmark, content), options.path, options.benchmark, total);
  if (!input) return input.error();
  result.input = std::move(*input);
  result.input.total = total;
  result.resumed_from = std::min(result.input.done, total);
  const std::string source = options.benchmark + ":" + std::filesystem::path(options.path).filename().string();
  const size_t batch = std::max<size_t>(1, options.batch);
  BuildDbs dbs(store, databases);
  for (auto start = static_cast<size_t>(result.resumed_from); start < items.size(); start += batch) {
    if (options.cancel && options.cancel->load()) {
      result.cancelled = true;
      break;
    }
    size_t end = std::min(items.size(), start + batch);
    std::vector<Example> examples;
    examples.reserve(end - start);
    int64_t skipped_before = result.skipped;
    for (size_t i = start; i < end; ++i) {
      if (auto e = MakeExample(items[i], i, dbs, result)) examples.push_back(std::move(*e));
    }
    result.input.done = static_cast<int64_t>(end);
    result.input.skipped += result.skipped - skipped_before;
    auto added = store.AddExamples(examples, source, &result.input);
    if (!added) return added.error();
    result.added += *added;
    result.duplicates += static_cast<int64_t>(examples.size()) - *added;
    if (options.progress) options.progress("examples", end, items.size());
  }
  if (!result.cancelled && result.input.done >= total && !result.input.finished) {
    result.input.finished = true;
    if (Status s = store.SaveInput(result.input); !s) return s.error();
  }
  if (!result.cancelled) {
    auto computed = store.UpdateDistances(options.distance_threads, options.progress, options.cancel);
    if (!computed) return computed.error();
    result.distances_computed = *computed;
    result.cancelled = options.cancel && options.cancel->load();
  }
  return result;
}

Result<std::shared_ptr<const ExampleLibrary>> ExampleLibrary::Load(const std::string& path_or_url,
                                                                   const LoadOptions& options) {
  auto store = ExampleStore::OpenExisting(path_or_url);
  if (!store) return store.error();
  return Load(**store, options);
}

Result<std::shared_ptr<const ExampleLibrary>> ExampleLibrary::Load(ExampleStore& store, const LoadOptions& options) {
  std::shared_ptr<ExampleLibrary> lib(new ExampleLibrary());
  lib->where_ = store.Where();
  auto dbs = store.Databases();
  if (!dbs) return dbs.error();
  lib->databases_ = std::move(*dbs);
  for (size_t i = 0; i < lib->databases_.size(); ++i) lib->db_index_[lib->databases_[i].db_id] = i;
  auto stored = store.Distances();
  if (!stored) return stored.error();
  // In the order of databases_ (a database added since Databases() was read is left out); a pair the store lacks (a
  // build stopped before its distances) is computed here, in memory.
  const size_t n = lib->databases_.size();
  lib->index_.dbs.reserve(n);
  for (const auto& d : lib->databases_) lib->index_.dbs.push_back(d.db_id);
  lib->index_.distances.assign(n, std::vector<double>(n, 0.0));
  std::map<std::string, size_t> at;
  for (size_t i = 0; i < stored->dbs.size(); ++i) at[stored->dbs[i]] = i;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      auto a = at.find(lib->databases_[i].db_id), b = at.find(lib->databases_[j].db_id);
      double d = a != at.end() && b != at.end() ? stored->distances[a->second][b->second]
                                                : std::numeric_limits<double>::quiet_NaN();
      if (std::isnan(d)) d = WwlDistance(lib->databases_[i].labels, lib->databases_[j].labels);
      lib->index_.distances[i][j] = lib->index_.distances[j][i] = d;
    }
  }
  auto examples = store.Examples();
  if (!examples) return examples.error();
  auto selector =
      Selector::Build(std::move(*examples), options.embedder, options.weights, [&](size_t done, size_t total) {
        if (options.progress) options.progress("embedding", done, total);
      });
  if (!selector) return selector.error();
  lib->selector_ = std::make_unique<Selector>(std::move(*selector));
  return std::shared_ptr<const ExampleLibrary>(std::move(lib));
}

const StoredDatabase* ExampleLibrary::Database(const std::string& db_id) const {
  auto it = db_index_.find(db_id);
  return it == db_index_.end() ? nullptr : &databases_[it->second];
}

std::shared_ptr<const std::vector<double>> ExampleLibrary::DistancesFrom(const catalog::Schema& schema,
                                                                         const std::string& db_id) const {
  // A database of the store is the one its db_id names (a store maps a db_id to one schema): its stored row.
  std::string key = "db:" + db_id;
  catalog::Schema structure;
  if (!db_index_.count(db_id)) {
    structure = StructureOnly(schema);
    key = catalog::StructuralFingerprint(structure);
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = asked_.find(key); it != asked_.end()) return it->second;
  std::vector<double> row;
  if (auto it = db_index_.find(db_id); it != db_index_.end()) {
    row = index_.distances[it->second];
  } else {
    std::vector<NodeLabels> labels = WlLabels(BuildSchemaGraph(structure));
    row.reserve(databases_.size());
    for (const auto& d : databases_) row.push_back(WwlDistance(labels, d.labels));
  }
  auto shared = std::make_shared<const std::vector<double>>(std::move(row));
  asked_[key] = shared;
  return shared;
}

std::vector<ExampleLibrary::Pick> ExampleLibrary::Select(const Query& query) const {
  SelectRequest r;
  r.masked_question = query.masked_question;
  r.masked_sql = query.masked_sql;
  r.db_id = query.db_id;
  r.k = query.k;
  if (query.schema) {
    std::shared_ptr<const std::vector<double>> row = DistancesFrom(*query.schema, query.db_id);
    // An example whose database the store lacks is as far as can be.
    r.schema_distance = [this, row](const std::string& db_id) {
      auto it = db_index_.find(db_id);
      return it == db_index_.end() ? 1.0 : (*row)[it->second];
    };
  }
  if (query.exclude) {
    r.exclude = [this, &query](size_t index) { return query.exclude(selector_->Examples()[index]); };
  }
  std::vector<Pick> picks;
  for (const Selected& s : selector_->Select(r)) {
    const Example& e = selector_->Examples()[s.index];
    picks.push_back({&e, Database(e.db_id), s});
  }
  return picks;
}

}  // namespace plainsql::examples
