// SQLite connections: opened read-only, guarded by an authorizer, stopped by a progress handler at the deadline.
#include <sqlite3.h>
#include <sys/stat.h>

#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>
#include <span>

#include "common/strings.h"
#include "exec/connection.h"
#include "exec/guard.h"
#include "sql/classify.h"
#include "sql/dialect.h"
#include "sql/parser.h"
#include "sql/printer.h"

namespace plainsql::exec {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kProgressSteps = 1000;  // instructions between two calls of the progress handler

// PRAGMAs that only read, and that take a table or index name as their argument (pragma_table_info('t') and friends).
constexpr std::string_view kReadPragmasWithArg[] = {"table_info", "table_xinfo", "table_list",      "index_list",
                                                    "index_info", "index_xinfo", "foreign_key_list"};
// PRAGMAs that only read when called without an argument (with one, most of them change state).
constexpr std::string_view kReadPragmasNoArg[] = {
    "table_list",      "database_list", "collation_list", "function_list", "module_list",  "pragma_list",
    "compile_options", "encoding",      "foreign_keys",   "page_count",    "page_size",    "freelist_count",
    "schema_version",  "user_version",  "application_id", "data_version",  "journal_mode", "auto_vacuum"};

bool InList(std::string_view name, std::span<const std::string_view> list) {
  for (auto w : list) {
    if (EqualsIgnoreCase(name, w)) return true;
  }
  return false;
}

// SQLite's own instr() and replace() compare the pattern at every position of the string (O(n·m) inside one call),
// where no progress handler can stop them: instr() of a 2 MB string and a 100 kB pattern takes seconds, of two
// 16 MB values hours. These replacements keep SQLite's documented results but search with glibc's memmem, which is
// linear (two-way algorithm). Hand-written because no library offers SQLite functions; registered over the built-ins.
void InstrFunction(sqlite3_context* ctx, int, sqlite3_value** argv) {
  int t0 = sqlite3_value_type(argv[0]), t1 = sqlite3_value_type(argv[1]);
  if (t0 == SQLITE_NULL || t1 == SQLITE_NULL) return;
  bool bytes = t0 == SQLITE_BLOB && t1 == SQLITE_BLOB;
  const void* hay = bytes ? sqlite3_value_blob(argv[0]) : sqlite3_value_text(argv[0]);
  size_t nhay = static_cast<size_t>(sqlite3_value_bytes(argv[0]));
  const void* needle = bytes ? sqlite3_value_blob(argv[1]) : sqlite3_value_text(argv[1]);
  size_t nneedle = static_cast<size_t>(sqlite3_value_bytes(argv[1]));
  if (nneedle == 0) {
    sqlite3_result_int64(ctx, 1);
    return;
  }
  if (!hay || !needle) {
    if (sqlite3_errcode(sqlite3_context_db_handle(ctx)) == SQLITE_NOMEM)
      sqlite3_result_error_nomem(ctx);
    else
      sqlite3_result_int64(ctx, 0);
    return;
  }
  const auto* found = static_cast<const unsigned char*>(memmem(hay, nhay, needle, nneedle));
  if (!found) {
    sqlite3_result_int64(ctx, 0);
    return;
  }
  size_t offset = static_cast<size_t>(found - static_cast<const unsigned char*>(hay));
  if (bytes) {
    sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(offset) + 1);
    return;
  }
  // Characters, not bytes: count the UTF-8 lead bytes before the match.
  sqlite3_int64 chars = 1;
  const auto* h = static_cast<const unsigned char*>(hay);
  for (size_t i = 0; i < offset; ++i) chars += (h[i] & 0xC0) != 0x80;
  sqlite3_result_int64(ctx, chars);
}

void ReplaceFunction(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const auto* str = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  if (!str) return;
  size_t nstr = static_cast<size_t>(sqlite3_value_bytes(argv[0]));
  const auto* pat = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  if (!pat) return;
  size_t npat = static_cast<size_t>(sqlite3_value_bytes(argv[1]));
  if (npat == 0) {
    sqlite3_result_value(ctx, argv[0]);
    return;
  }
  const auto* rep = reinterpret_cast<const char*>(sqlite3_value_text(argv[2]));
  if (!rep) return;
  size_t nrep = static_cast<size_t>(sqlite3_value_bytes(argv[2]));
  size_t max_len = static_cast<size_t>(sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1));
  std::string out;
  size_t pos = 0;
  while (pos <= nstr) {
    const void* hit = memmem(str + pos, nstr - pos, pat, npat);
    size_t next = hit ? static_cast<size_t>(static_cast<const char*>(hit) - str) : nstr;
    if (out.size() + (next - pos) + (hit ? nrep : 0) > max_len) {
      sqlite3_result_error_toobig(ctx);
      return;
    }
    out.append(str + pos, next - pos);
    if (!hit) break;
    out.append(rep, nrep);
    pos = next + npat;
  }
  sqlite3_result_text64(ctx, out.data(), out.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

void RegisterLinearStringFunctions(sqlite3* db) {
  int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  sqlite3_create_function_v2(db, "instr", 2, flags, nullptr, &InstrFunction, nullptr, nullptr, nullptr);
  sqlite3_create_function_v2(db, "replace", 3, flags, nullptr, &ReplaceFunction, nullptr, nullptr, nullptr);
}

class SqliteConnection final : public PolicyCachingConnection {
 public:
  /// `native_views`: a companion database's views read these views of the original (SetUpCompanion); lower case.
  SqliteConnection(sqlite3* db, std::string path, std::set<std::string> native_views = {})
      : db_(db), path_(std::move(path)), native_views_(std::move(native_views)) {
    sqlite3_set_authorizer(db_, &SqliteConnection::Authorize, this);
    // No ATTACH at all: the limit makes it fail even if the authorizer were bypassed.
    sqlite3_limit(db_, SQLITE_LIMIT_ATTACHED, 0);
    // The guard refuses longer query texts before SQLite parses them; this holds for plainsql's own queries too.
    sqlite3_limit(db_, SQLITE_LIMIT_SQL_LENGTH, static_cast<int>(kMaxQueryBytes));
    sqlite3_limit(db_, SQLITE_LIMIT_WORKER_THREADS, 0);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_busy_timeout(db_, 2000);
    RegisterLinearStringFunctions(db_);
    sqlite3_hard_heap_limit64(settings_.ceilings.max_memory_bytes);  // as SettingsChanged, for the default settings
  }
  ~SqliteConnection() override { sqlite3_close_v2(db_); }

  Engine engine() const override { return Engine::kSqlite; }
  const sql::Dialect& dialect() const override { return sql::Sqlite(); }
  std::string identity() const override {
    std::error_code ec;
    auto abs = std::filesystem::weakly_canonical(path_, ec);
    return "sqlite:" + (ec ? path_ : abs.string());
  }
  std::string database_name() const override { return std::filesystem::path(path_).stem().string(); }

  Result<ResultSet> Query(std::string_view sql, const Limits& limits, const std::vector<Value>& params) override;
  Result<ResultSet> QueryParsed(const sql::Query& query, const Limits& limits) override;
  Result<ResultSet> QueryInternal(std::string_view sql, const Limits& limits,
                                  const std::vector<Value>& params) override {
    if (Status s = CheckSingleQuery(sql, dialect()); !s) return s.error();
    internal_ = true;
    auto rs = Run(sql, limits, params);
    internal_ = false;
    return rs;
  }

 private:
  // The heap limit is process-wide in SQLite: the last connection opened sets it for all.
  void SettingsChanged() override { sqlite3_hard_heap_limit64(settings_.ceilings.max_memory_bytes); }
  Result<AccessPolicy> ReadPolicy() override;
  static int Authorize(void* self, int action, const char* a1, const char* a2, const char* db, const char* trigger);
  static int Progress(void* self);
  Result<ResultSet> Run(std::string_view sql, const Limits& limits, const std::vector<Value>& params);
  Error Fail(int rc, const Limits& limits);
  bool ReadAllowed(const char* db, const char* table, const char* column) const;
  bool InsideView(const char* inside) const;

  sqlite3* db_;
  std::string path_;
  bool internal_ = false;               // a catalog query of plainsql's own: the allowlists do not apply
  std::vector<std::string> ctes_;       // the CTE names of the query being run (lower case)
  std::set<std::string> native_views_;  // a companion's: the original's views its natural views read (lower case)
  std::string denied_;                  // what the authorizer refused last, for the error message
  Clock::time_point deadline_{};
  int64_t max_steps_ = 0;  // Limits::max_steps of the query being run
  int64_t steps_ = 0;      // its instructions so far, as counted by the progress handler
  bool timed_out_ = false;
  bool out_of_steps_ = false;
};

Result<AccessPolicy> SqliteConnection::ReadPolicy() {
  AccessPolicy p;
  p.dialect = &sql::Sqlite();
  p.functions = DefaultAllowedFunctions(sql::Sqlite());
  ApplyAccessOptions(p, settings_.access);
  // Every schema of the connection (main, temp, and a companion's attached original) in SQLite's search order: temp
  // first, then main, then attached databases. Only tables, views and virtual tables of main and temp (a companion's
  // views) are allowed: not SQLite's own tables (sqlite_*), nor the shadow tables that hold a virtual table's data.
  auto rels = QueryInternal("SELECT schema, name, type FROM pragma_table_list", Limits{}, {});
  if (!rels) return rels.error();
  p.search_path = {"temp", "main"};
  for (const Row& r : rels->rows) {
    std::string schema = r.at(0).ToString(), name = r.at(1).ToString(), type = r.at(2).ToString();
    if (std::find(p.search_path.begin(), p.search_path.end(), schema) == p.search_path.end()) {
      p.search_path.push_back(schema);
    }
    bool own = schema == "main" || schema == "temp";
    bool allowed = own && type != "shadow" && !ToLower(name).starts_with("sqlite_");
    p.relations.push_back({schema, name, allowed});
  }
  // pragma_table_list names sqlite_schema and sqlite_temp_schema; their old names resolve too.
  p.relations.push_back({"main", "sqlite_master", false});
  p.relations.push_back({"temp", "sqlite_temp_master", false});
  return p;
}

bool SqliteConnection::ReadAllowed(const char* db, const char* table, const char* column) const {
  if (!policy_ || !table) return false;
  // A table without a database is a recursive CTE's working table.
  if (!db) return true;
  std::string schema = db;
  std::string lower = ToLower(table);
  // An eponymous virtual table (json_each) is read as a table; opening one reads sqlite_schema's row ids only.
  if (policy_->functions.count(lower)) return true;
  if ((lower == "sqlite_master" || lower == "sqlite_schema") && column && EqualsIgnoreCase(column, "rowid"))
    return true;
  // A read of no column: count(*) over a view, flattened into its table, is reported without the view's name. It
  // reads row counts only (and the parser's wall has already checked the query's relations).
  if (column && !*column) return true;
  for (const KnownRelation& r : policy_->relations) {
    if (EqualsIgnoreCase(r.schema, schema) && EqualsIgnoreCase(r.name, table)) return policy_->RelationAllowed(r);
  }
  return false;
}

// SQLite names the view or the CTE a read comes from. Reads inside a view of the schema are the view's business; reads
// inside a CTE are the query's own and checked like any other (a CTE may carry a view's name to pass for one).
bool SqliteConnection::InsideView(const char* inside) const {
  if (!inside || !policy_) return false;
  std::string name = ToLower(inside);
  for (const std::string& c : ctes_) {
    if (c == name) return false;
  }
  // The name alone: a companion's view may carry the name of the attached original's table it shows.
  for (const KnownRelation& r : policy_->relations) {
    if (ToLower(r.name) == name && policy_->RelationAllowed(r)) return true;
  }
  // A view of the original that a companion's view shows (whole): what it reads is shown by an allowed view.
  return native_views_.count(name) > 0;
}

// The second wall: SQLite asks before every table read and function call of the prepared statement, so the allowlists
// hold even where plainsql's parser and SQLite's might read a text differently. Reads and calls inside a view of the
// schema (`inside` names the view) are the view's own business: the view itself was allowed.
int SqliteConnection::Authorize(void* p, int action, const char* a1, const char* a2, const char* db,
                                const char* inside) {
  auto* self = static_cast<SqliteConnection*>(p);
  bool checked = !self->internal_ && !self->InsideView(inside);
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_RECURSIVE: return SQLITE_OK;
    case SQLITE_READ:
      if (!checked || self->ReadAllowed(db, a1, a2)) return SQLITE_OK;
      self->denied_ = fmt::format("reading {}.{}", db ? db : "main", a1 ? a1 : "");
      return SQLITE_DENY;
    case SQLITE_FUNCTION: {
      // a2 is the function name. load_extension is also off at the connection level; this is belt and braces.
      std::string name = a2 ? ToLower(a2) : "";
      if (name == "load_extension" || (checked && !(self->policy_ && self->policy_->functions.count(name)))) {
        self->denied_ = fmt::format("the {}() function", name);
        return SQLITE_DENY;
      }
      return SQLITE_OK;
    }
    case SQLITE_PRAGMA: {
      if (checked) {
        self->denied_ = fmt::format("PRAGMA {}", a1 ? a1 : "");
        return SQLITE_DENY;
      }
      std::string_view name = a1 ? a1 : "";
      bool ok = a2 ? InList(name, kReadPragmasWithArg) : InList(name, kReadPragmasNoArg);
      if (ok) return SQLITE_OK;
      self->denied_ = a2 ? fmt::format("PRAGMA {} with an argument", name) : fmt::format("PRAGMA {}", name);
      return SQLITE_DENY;
    }
    case SQLITE_ATTACH: self->denied_ = "ATTACH"; return SQLITE_DENY;
    case SQLITE_DETACH: self->denied_ = "DETACH"; return SQLITE_DENY;
    case SQLITE_INSERT: self->denied_ = "INSERT"; return SQLITE_DENY;
    case SQLITE_UPDATE:
      // Preparing a query over an eponymous virtual table (pragma_table_xinfo('t') and the other pragma functions)
      // makes SQLite check UPDATE permission on sqlite_schema's columns. Allowing that check cannot allow a write:
      // the file is open read-only, writable_schema is a denied PRAGMA, sqlite3_stmt_readonly must hold, and the
      // lexical guard admits queries only.
      if (a1 && (EqualsIgnoreCase(a1, "sqlite_master") || EqualsIgnoreCase(a1, "sqlite_schema"))) return SQLITE_OK;
      self->denied_ = "UPDATE";
      return SQLITE_DENY;
    case SQLITE_DELETE: self->denied_ = "DELETE"; return SQLITE_DENY;
    case SQLITE_TRANSACTION: self->denied_ = "a transaction statement"; return SQLITE_DENY;
    case SQLITE_SAVEPOINT: self->denied_ = "SAVEPOINT"; return SQLITE_DENY;
    default: self->denied_ = "a statement that changes the schema or the database"; return SQLITE_DENY;
  }
}

int SqliteConnection::Progress(void* p) {
  auto* self = static_cast<SqliteConnection*>(p);
  self->steps_ += kProgressSteps;
  if (self->max_steps_ > 0 && self->steps_ > self->max_steps_) {
    self->out_of_steps_ = true;
    return 1;
  }
  if (Clock::now() >= self->deadline_) {
    self->timed_out_ = true;
    return 1;  // non-zero interrupts the statement with SQLITE_INTERRUPT
  }
  return 0;
}

Value ColumnValue(sqlite3_stmt* stmt, int i) {
  switch (sqlite3_column_type(stmt, i)) {
    case SQLITE_INTEGER: return Value::Integer(sqlite3_column_int64(stmt, i));
    case SQLITE_FLOAT: return Value::Real(sqlite3_column_double(stmt, i));
    case SQLITE_TEXT: {
      const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
      return Value::Text(std::string(t, static_cast<size_t>(sqlite3_column_bytes(stmt, i))));
    }
    case SQLITE_BLOB: {
      const auto* b = static_cast<const char*>(sqlite3_column_blob(stmt, i));
      int n = sqlite3_column_bytes(stmt, i);
      return Value::MakeBlob(b ? std::string(b, static_cast<size_t>(n)) : std::string());
    }
    default: return Value::Null();
  }
}

Status Bind(sqlite3_stmt* stmt, const std::vector<Value>& params) {
  if (static_cast<int>(params.size()) != sqlite3_bind_parameter_count(stmt)) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("the query has {} parameters but {} values were given",
                                                              sqlite3_bind_parameter_count(stmt), params.size()));
  }
  for (size_t k = 0; k < params.size(); ++k) {
    int i = static_cast<int>(k) + 1;
    const Value& v = params[k];
    switch (v.type()) {
      case ValueType::kNull: sqlite3_bind_null(stmt, i); break;
      case ValueType::kInteger: sqlite3_bind_int64(stmt, i, v.as_integer()); break;
      case ValueType::kReal: sqlite3_bind_double(stmt, i, v.as_real()); break;
      case ValueType::kText:
        sqlite3_bind_text64(stmt, i, v.as_text().data(), v.as_text().size(), SQLITE_TRANSIENT, SQLITE_UTF8);
        break;
      case ValueType::kBlob:
        sqlite3_bind_blob64(stmt, i, v.as_blob().data(), v.as_blob().size(), SQLITE_TRANSIENT);
        break;
    }
  }
  return Status::Ok();
}

struct StmtGuard {
  sqlite3_stmt* stmt = nullptr;
  ~StmtGuard() { sqlite3_finalize(stmt); }
};

Result<ResultSet> SqliteConnection::Query(std::string_view sql, const Limits& limits,
                                          const std::vector<Value>& params) {
  AccessedNames names;
  if (Status s = GuardQuery(sql, settings_.ceilings, Loader(), &names); !s) {
    return s.error();
  }
  ctes_ = std::move(names.ctes);
  auto rs = Run(sql, limits, params);
  ctes_.clear();
  return rs;
}

Result<ResultSet> SqliteConnection::QueryParsed(const sql::Query& query, const Limits& limits) {
  std::string text = sql::Print(query, dialect());
  AccessedNames names;
  if (Status s = GuardParsedQuery(query, text, settings_.ceilings, Loader(), &names); !s) {
    return s.error();
  }
  ctes_ = std::move(names.ctes);
  auto rs = Run(text, limits, {});
  ctes_.clear();
  return rs;
}

Error SqliteConnection::Fail(int rc, const Limits& limits) {
  int primary = rc & 0xff;
  if (out_of_steps_) {
    return MakeError(ErrorCode::kTimeout,
                     fmt::format("query stopped: it ran past its budget of {} instructions", limits.max_steps));
  }
  if (timed_out_ || primary == SQLITE_INTERRUPT) {
    return MakeError(ErrorCode::kTimeout,
                     fmt::format("query stopped: it ran past the {} ms timeout", limits.timeout.count()));
  }
  if (primary == SQLITE_TOOBIG) {
    return CeilingError("a value or row", "max_value_bytes", settings_.ceilings.max_value_bytes);
  }
  if (primary == SQLITE_NOMEM) {
    return CeilingError("the memory SQLite holds", "max_memory_bytes", settings_.ceilings.max_memory_bytes);
  }
  if (!denied_.empty()) {
    if (denied_.starts_with("reading ") || denied_.starts_with("the ")) {
      return MakeError(ErrorCode::kNotAllowed,
                       fmt::format("refused: {} is not allowed by plainsql's access policy; allow_functions and "
                                   "allow_relations in the [exec] section of plainsql.toml add names",
                                   denied_));
    }
    return MakeError(ErrorCode::kNotReadOnly,
                     fmt::format("refused: {} is not allowed; plainsql runs read-only queries only", denied_));
  }
  int ext = sqlite3_extended_errcode(db_);
  if ((ext & 0xff) == SQLITE_READONLY) {
    return MakeError(ErrorCode::kNotReadOnly, "refused: the statement would write to the database");
  }
  return MakeError(ErrorCode::kSql, sqlite3_errmsg(db_));
}

Result<ResultSet> SqliteConnection::Run(std::string_view sql, const Limits& limits, const std::vector<Value>& params) {
  auto start = Clock::now();
  deadline_ = start + limits.timeout;
  timed_out_ = false;
  max_steps_ = limits.max_steps;
  steps_ = 0;
  out_of_steps_ = false;
  denied_.clear();
  const Ceilings& ceil = settings_.ceilings;
  // One value (and one row) can never pass max_value_bytes: SQLite refuses to build it (SQLITE_TOOBIG).
  sqlite3_limit(db_, SQLITE_LIMIT_LENGTH,
                static_cast<int>(std::clamp<int64_t>(ceil.max_value_bytes, 1, std::numeric_limits<int>::max())));
  // Every kProgressSteps virtual-machine instructions SQLite asks whether the deadline or the budget has passed.
  sqlite3_progress_handler(db_, static_cast<int>(kProgressSteps), &SqliteConnection::Progress, this);
  struct ProgressOff {
    sqlite3* db;
    ~ProgressOff() { sqlite3_progress_handler(db, 0, nullptr, nullptr); }
  } progress_off{db_};

  StmtGuard g;
  const char* tail = nullptr;
  int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), 0, &g.stmt, &tail);
  if (rc != SQLITE_OK) return Fail(rc, limits);
  if (!g.stmt) return MakeError(ErrorCode::kInvalidArgument, "empty SQL statement");
  if (tail && sql::ClassifyStatement(std::string_view(tail, sql.data() + sql.size() - tail)).statement_count > 0) {
    return MakeError(ErrorCode::kNotReadOnly, "refused: the text holds more than one statement");
  }
  if (!sqlite3_stmt_readonly(g.stmt)) {
    return MakeError(ErrorCode::kNotReadOnly, "refused: the statement is not read-only");
  }
  if (Status s = Bind(g.stmt, params); !s) return s.error();

  ResultSet rs;
  int ncol = sqlite3_column_count(g.stmt);
  for (int i = 0; i < ncol; ++i) {
    const char* name = sqlite3_column_name(g.stmt, i);
    const char* type = sqlite3_column_decltype(g.stmt, i);
    rs.columns.emplace_back(name ? name : "");
    rs.column_types.emplace_back(type ? type : "");
  }
  int64_t bytes = 0;
  while (true) {
    rc = sqlite3_step(g.stmt);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) return Fail(rc, limits);
    if (static_cast<int64_t>(rs.rows.size()) >= limits.max_rows) {
      rs.truncated = true;
      break;
    }
    Row row;
    row.reserve(static_cast<size_t>(ncol));
    for (int i = 0; i < ncol; ++i) {
      row.push_back(ColumnValue(g.stmt, i));
      bytes += static_cast<int64_t>(sizeof(Value)) + sqlite3_column_bytes(g.stmt, i);
    }
    if (bytes > ceil.max_result_bytes) return CeilingError("the result", "max_result_bytes", ceil.max_result_bytes);
    rs.rows.push_back(std::move(row));
  }
  rs.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return rs;
}

class SqliteWriteSession final : public WriteSession {
 public:
  explicit SqliteWriteSession(sqlite3* db) : db_(db) {}
  ~SqliteWriteSession() override {
    if (!committed_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close_v2(db_);
  }
  Engine engine() const override { return Engine::kSqlite; }

  Status Execute(std::string_view sql) override {
    std::string text(sql);
    char* err = nullptr;
    if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : sqlite3_errmsg(db_);
      sqlite3_free(err);
      return MakeError(ErrorCode::kSql, msg);
    }
    return Status::Ok();
  }

  Result<std::vector<std::vector<std::string>>> Rows(std::string_view sql,
                                                     const std::vector<std::string>& params) override {
    StmtGuard g;
    if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &g.stmt, nullptr) != SQLITE_OK) {
      return MakeError(ErrorCode::kSql, sqlite3_errmsg(db_));
    }
    for (size_t k = 0; k < params.size(); ++k) {
      sqlite3_bind_text64(g.stmt, static_cast<int>(k) + 1, params[k].data(), params[k].size(), SQLITE_TRANSIENT,
                          SQLITE_UTF8);
    }
    std::vector<std::vector<std::string>> out;
    int rc;
    while ((rc = sqlite3_step(g.stmt)) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int i = 0; i < sqlite3_column_count(g.stmt); ++i) {
        const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(g.stmt, i));
        row.emplace_back(t ? t : "");
      }
      out.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) return MakeError(ErrorCode::kSql, sqlite3_errmsg(db_));
    return out;
  }

  Status Commit() override {
    if (Status s = Execute("COMMIT"); !s) return s;
    committed_ = true;
    return Status::Ok();
  }

 private:
  sqlite3* db_;
  bool committed_ = false;
};

// A companion database (made by `plainsql views --apply --companion`) holds the path of the original and the SELECT
// of each natural view. SQLite views cannot reference another database, so the original is attached under the name
// `native` and the views are created as TEMP views of this connection, before the read-only guards are installed.
// Each stored SELECT must pass CheckSingleQuery: a companion file cannot make the connection run anything else.
// `native_views` gets the original's views that the natural views read (lower case).
Status SetUpCompanion(sqlite3* db, const std::string& path, std::set<std::string>& native_views) {
  auto rows = [&](const char* sql, const std::string& param = "") -> Result<std::vector<std::vector<std::string>>> {
    StmtGuard g;
    if (sqlite3_prepare_v2(db, sql, -1, &g.stmt, nullptr) != SQLITE_OK) {
      return MakeError(ErrorCode::kFormat, fmt::format("companion database {}: {}", path, sqlite3_errmsg(db)));
    }
    if (!param.empty()) sqlite3_bind_text64(g.stmt, 1, param.data(), param.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    std::vector<std::vector<std::string>> out;
    while (sqlite3_step(g.stmt) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int i = 0; i < sqlite3_column_count(g.stmt); ++i) {
        const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(g.stmt, i));
        row.emplace_back(t ? t : "");
      }
      out.push_back(std::move(row));
    }
    return out;
  };
  auto marker = rows("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'plainsql_companion'");
  if (!marker) return marker.error();
  if (marker->empty()) return Status::Ok();
  auto native = rows("SELECT value FROM plainsql_companion WHERE key = 'native_path'");
  if (!native) return native.error();
  if (native->empty() || native->front().at(0).empty()) {
    return MakeError(ErrorCode::kFormat, fmt::format("companion database {} does not name its original", path));
  }
  std::filesystem::path original = native->front().at(0);
  if (original.is_relative()) original = std::filesystem::path(path).parent_path() / original;
  struct stat st {};
  if (::stat(original.c_str(), &st) != 0) {
    return MakeError(ErrorCode::kNotFound,
                     fmt::format("companion database {}: its original {} does not exist", path, original.string()));
  }
  // The attached file inherits this connection's read-only flag.
  if (auto r = rows("ATTACH ? AS native", original.string()); !r) return r.error();
  auto views = rows("SELECT name, body FROM plainsql_views ORDER BY seq");
  if (!views) return views.error();
  for (const auto& v : *views) {
    if (Status s = CheckSingleQuery(v.at(1), sql::Sqlite()); !s) {
      return MakeError(ErrorCode::kFormat, fmt::format("companion database {}: view {} is not a single query: {}", path,
                                                       v.at(0), s.error().message));
    }
    std::string ddl = "CREATE TEMP VIEW " + sql::QuoteIdentifier(sql::Sqlite(), v.at(0)) + " AS " + v.at(1);
    char* err = nullptr;
    if (sqlite3_exec(db, ddl.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : sqlite3_errmsg(db);
      sqlite3_free(err);
      return MakeError(ErrorCode::kFormat, fmt::format("companion database {}: view {}: {}", path, v.at(0), msg));
    }
  }
  auto originals = rows("SELECT name FROM native.sqlite_schema WHERE type = 'view'");
  if (!originals) return originals.error();
  std::set<std::string> original_views;
  for (const auto& r : *originals) original_views.insert(ToLower(r.at(0)));
  for (const auto& v : *views) {
    auto q = sql::ParseQuery(v.at(1), sql::Sqlite());
    if (!q) continue;  // checked above: it parses
    for (const sql::QualifiedName& r : CollectAccessedNames(*q, sql::Sqlite()).relations) {
      if (r.parts.size() == 2 && EqualsIgnoreCase(r.parts[0].name, "native") &&
          original_views.count(ToLower(r.last().name))) {
        native_views.insert(ToLower(r.last().name));
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<WriteSession>> OpenSqliteWriteSession(const std::string& path, bool create) {
  struct stat st {};
  bool exists = ::stat(path.c_str(), &st) == 0;
  if (!exists && !create) return MakeError(ErrorCode::kNotFound, fmt::format("no such SQLite database file: {}", path));
  if (exists && S_ISDIR(st.st_mode)) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("{} is a directory, not a SQLite database file", path));
  }
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  auto fail = [&](std::string_view what) -> Error {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return MakeError(ErrorCode::kConnection, fmt::format("cannot {} SQLite database {}: {}", what, path, msg));
  };
  if (rc != SQLITE_OK) return fail("open for writing");
  sqlite3_busy_timeout(db, 5000);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) return fail("lock");
  return std::unique_ptr<WriteSession>(new SqliteWriteSession(db));
}

Result<std::unique_ptr<Connection>> OpenSqlite(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return MakeError(ErrorCode::kNotFound, fmt::format("no such SQLite database file: {}", path));
  }
  if (S_ISDIR(st.st_mode)) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("{} is a directory, not a SQLite database file", path));
  }
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return MakeError(ErrorCode::kConnection, fmt::format("cannot open SQLite database {}: {}", path, msg));
  }
  // Opening is lazy: read the schema once so that a file that is not a database fails here, clearly.
  rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = sqlite3_errmsg(db);
    sqlite3_close_v2(db);
    return MakeError(ErrorCode::kConnection, fmt::format("cannot read SQLite database {}: {}", path, msg));
  }
  std::set<std::string> native_views;
  if (Status s = SetUpCompanion(db, path, native_views); !s) {
    sqlite3_close_v2(db);
    return s.error();
  }

  return std::unique_ptr<Connection>(new SqliteConnection(db, path, std::move(native_views)));
}

}  // namespace plainsql::exec

namespace plainsql::exec {

namespace {

class SqliteStoreSession final : public StoreSession {
 public:
  SqliteStoreSession(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteStoreSession() override { sqlite3_close_v2(db_); }
  Engine engine() const override { return Engine::kSqlite; }

  Status Execute(std::string_view sql) override {
    std::string text(sql);
    char* err = nullptr;
    if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : sqlite3_errmsg(db_);
      sqlite3_free(err);
      return MakeError(ErrorCode::kIo, fmt::format("{}: {}", path_, msg));
    }
    return Status::Ok();
  }

  Result<StoreRows> Query(std::string_view sql, const std::vector<StoreValue>& params) override {
    // $N placeholders become SQLite's ?N.
    std::string text;
    text.reserve(sql.size());
    for (size_t i = 0; i < sql.size(); ++i) {
      bool placeholder = sql[i] == '$' && i + 1 < sql.size() && sql[i + 1] >= '0' && sql[i + 1] <= '9';
      text += placeholder ? '?' : sql[i];
    }
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, text.c_str(), -1, &st, nullptr) != SQLITE_OK) return Fail();
    struct Finalize {
      sqlite3_stmt* s;
      ~Finalize() { sqlite3_finalize(s); }
    } guard{st};
    for (size_t i = 0; i < params.size(); ++i) {
      int k = static_cast<int>(i) + 1;
      const StoreValue& v = params[i];
      if (const auto* n = std::get_if<int64_t>(&v)) {
        sqlite3_bind_int64(st, k, *n);
      } else if (const auto* d = std::get_if<double>(&v)) {
        sqlite3_bind_double(st, k, *d);
      } else if (const auto* t = std::get_if<std::string>(&v)) {
        sqlite3_bind_text(st, k, t->data(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
      } else {
        sqlite3_bind_null(st, k);
      }
    }
    StoreRows rows;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      std::vector<std::optional<std::string>> row;
      int n = sqlite3_column_count(st);
      row.reserve(static_cast<size_t>(n));
      for (int c = 0; c < n; ++c) {
        switch (sqlite3_column_type(st, c)) {
          case SQLITE_NULL: row.emplace_back(std::nullopt); break;
          case SQLITE_FLOAT: row.emplace_back(fmt::format("{}", sqlite3_column_double(st, c))); break;
          default: {
            const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
            row.emplace_back(std::string(t ? t : "", static_cast<size_t>(sqlite3_column_bytes(st, c))));
          }
        }
      }
      rows.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) return Fail();
    return rows;
  }

 private:
  Error Fail() const { return MakeError(ErrorCode::kIo, fmt::format("{}: {}", path_, sqlite3_errmsg(db_))); }
  sqlite3* db_;
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<StoreSession>> OpenSqliteStoreSession(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("{} is a directory, not a SQLite database file", path));
  }
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return MakeError(ErrorCode::kIo, fmt::format("cannot open {}: {}", path, msg));
  }
  sqlite3_busy_timeout(db, 10'000);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  std::unique_ptr<StoreSession> session(new SqliteStoreSession(db, path));
  // WAL: readers never block a writer. synchronous = NORMAL: in WAL mode a commit survives a crash of plainsql (not a
  // power cut) without an fsync per commit. The journal mode is set only when it is not WAL already: setting it takes a
  // lock another process's write may hold, and a reader opening the store while a run writes (`plainsql runs list`
  // beside `eval run`) was sometimes told "database is locked".
  auto mode = session->Query("PRAGMA journal_mode", {});
  const bool wal = mode && !mode->empty() && !mode->front().empty() && mode->front().front() == "wal";
  if (!wal) {
    if (Status s = session->Execute("PRAGMA journal_mode = WAL"); !s) return s.error();
  }
  if (Status s = session->Execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON"); !s) return s.error();
  return session;
}

}  // namespace plainsql::exec
