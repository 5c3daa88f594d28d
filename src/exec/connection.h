// Connections to a database, and the one way plainsql runs SQL on them: a single read-only query with limits.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/status.h"
#include "exec/guard.h"
#include "exec/value.h"
#include "sql/dialect.h"

namespace plainsql::exec {

enum class Engine { kSqlite, kPostgres };

/// A parsed connection string.
struct ConnInfo {
  Engine engine = Engine::kSqlite;
  std::string target;  // SQLite: the file path; PostgreSQL: the libpq URL as given
};

/// Parses `sqlite:PATH`, `sqlite://PATH`, a plain path, or a `postgresql://` / `postgres://` URL.
Result<ConnInfo> ParseConnectionString(std::string_view conn);

/// Removes a password from a PostgreSQL URL, for messages and outputs. Other strings are returned unchanged.
std::string RedactConnectionString(std::string_view conn);

struct Limits {
  std::chrono::milliseconds timeout{30'000};  // the query is stopped after this long
  int64_t max_rows = 10'000;                  // at most this many rows are returned; `truncated` tells if more existed
  // SQLite: the query is also stopped after about this many virtual-machine instructions (checked every 1,000), a
  // budget that ends a query at the same point on every machine however loaded; 0: none. PostgreSQL: not used.
  int64_t max_steps = 0;
};

/// Ceilings no query may pass, whatever its text: a query that would is stopped with ErrorCode::kResourceLimit and a
/// message naming the ceiling and the plainsql.toml key (`[exec]`) that raises it.
struct Ceilings {
  int64_t max_value_bytes = int64_t{16} << 20;   // one value (string or blob); SQLite: also one row
  int64_t max_result_bytes = int64_t{64} << 20;  // all values of a result together
  int64_t max_memory_bytes = int64_t{1} << 30;   // SQLite: memory the engine may hold (process-wide heap limit)
  int64_t max_query_bytes = 100'000;             // the query text (generated queries are a few kB at most)
};

/// Settings of the guard and the ceilings, for every connection a program opens (plainsql.toml `[exec]`).
struct ExecSettings {
  AccessOptions access;
  Ceilings ceilings;
};

/// The settings connections get when they are opened (defaults: closed allowlists, the ceilings above).
void SetDefaultExecSettings(const ExecSettings& settings);
const ExecSettings& DefaultExecSettings();

/// The access policy a guard checks against: `load(false)` the one read, `load(true)` read again (GuardQuery).
using PolicyLoader = std::function<Result<const AccessPolicy*>(bool reread)>;

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Engine engine() const = 0;
  virtual const sql::Dialect& dialect() const = 0;
  /// Stable identity of the database for caches: the absolute SQLite path, or host:port/dbname for PostgreSQL.
  virtual std::string identity() const = 0;
  /// The database's name: the SQLite file's stem, or the PostgreSQL database name.
  virtual std::string database_name() const = 0;

  /// Runs one read-only query. Anything else (a write, DDL, ATTACH, a writable PRAGMA, several statements) is
  /// refused with ErrorCode::kNotReadOnly and changes nothing; a relation or function the access policy does not
  /// allow is refused with ErrorCode::kNotAllowed; a ceiling passed stops it with ErrorCode::kResourceLimit.
  /// `params` bind to `?` (SQLite) or `$1..` (PostgreSQL).
  virtual Result<ResultSet> Query(std::string_view sql, const Limits& limits,
                                  const std::vector<Value>& params = {}) = 0;

  /// Runs one read-only query given as a syntax tree the caller parsed (in this connection's dialect) or built: the
  /// same guard as Query — read-only, denied functions and the allowlists checked on the tree, the printed text
  /// against max_query_bytes — without parsing it again. What runs is the tree printed in the dialect.
  virtual Result<ResultSet> QueryParsed(const sql::Query& query, const Limits& limits);

  /// Runs one read-only query that plainsql wrote itself to read the database's catalog (sqlite_schema, pragma
  /// functions, pg_catalog): the same read-only checks, limits and ceilings, but not the relation and function
  /// allowlists. Never pass generated or user SQL here.
  virtual Result<ResultSet> QueryInternal(std::string_view sql, const Limits& limits,
                                          const std::vector<Value>& params = {}) = 0;

  /// Replaces the settings this connection was opened with; the policy is rebuilt on the next query.
  virtual void SetExecSettings(const ExecSettings& settings) = 0;
  virtual const ExecSettings& GetExecSettings() const = 0;

  /// The access policy queries are checked against, read from the database's catalog on first use.
  virtual Result<AccessPolicy> Policy() = 0;
};

/// What the engines' connections share: the execution settings, and the access policy read from the catalog on first
/// use and kept until the settings change or a query names a relation it does not know (PolicyLoader's reread).
class PolicyCachingConnection : public Connection {
 public:
  void SetExecSettings(const ExecSettings& settings) override {
    settings_ = settings;
    policy_.reset();
    SettingsChanged();
  }
  const ExecSettings& GetExecSettings() const override { return settings_; }
  Result<AccessPolicy> Policy() override {
    auto p = LoadPolicy(false);
    if (!p) return p.error();
    return **p;
  }

 protected:
  PolicyCachingConnection() : settings_(DefaultExecSettings()) {}
  /// Reads the policy from the database's catalog (with settings_ applied).
  virtual Result<AccessPolicy> ReadPolicy() = 0;
  /// Called after SetExecSettings (SQLite applies its process-wide heap limit).
  virtual void SettingsChanged() {}
  Result<const AccessPolicy*> LoadPolicy(bool reread) {
    if (reread) policy_.reset();
    if (policy_) return &*policy_;
    auto p = ReadPolicy();
    if (!p) return p.error();
    policy_ = std::move(*p);
    return &*policy_;
  }
  PolicyLoader Loader() {
    return [this](bool reread) { return LoadPolicy(reread); };
  }

  ExecSettings settings_;
  std::optional<AccessPolicy> policy_;
};

/// Opens a connection. SQLite files are opened read-only; a PostgreSQL session gets a 10 s connect timeout unless the
/// URL sets connect_timeout.
Result<std::unique_ptr<Connection>> Connect(std::string_view conn);

// Engine-specific constructors (used by Connect).
Result<std::unique_ptr<Connection>> OpenSqlite(const std::string& path);
Result<std::unique_ptr<Connection>> OpenPostgres(const std::string& url);

/// The one writable session plainsql opens, for deploying natural views (src/views): DDL on views and the schema or
/// companion file that holds them, never on tables or data. Everything runs in one transaction, begun at open;
/// Commit() makes it permanent, destruction without Commit() rolls it back.
class WriteSession {
 public:
  virtual ~WriteSession() = default;
  virtual Engine engine() const = 0;
  /// Runs one or more statements that return no rows.
  virtual Status Execute(std::string_view sql) = 0;
  /// Runs one query; `params` bind as text to `?` (SQLite) or `$1..` (PostgreSQL). Every value as text, NULL as "".
  virtual Result<std::vector<std::vector<std::string>>> Rows(std::string_view sql,
                                                             const std::vector<std::string>& params = {}) = 0;
  virtual Status Commit() = 0;
};

/// Opens a write session on CONN (SQLite: BEGIN IMMEDIATE, waiting up to 5 s for other writers; PostgreSQL: BEGIN with
/// a 60 s statement timeout). With `create`, a SQLite file that does not exist is created.
Result<std::unique_ptr<WriteSession>> OpenWriteSession(std::string_view conn, bool create = false);
Result<std::unique_ptr<WriteSession>> OpenSqliteWriteSession(const std::string& path, bool create);
Result<std::unique_ptr<WriteSession>> OpenPostgresWriteSession(const std::string& url);

/// A read-write session on plainsql's own bookkeeping database (the runs database of `plainsql eval run`), never on a
/// user's database: autocommit (group statements with BEGIN / COMMIT), parameters written $1, $2, … in both engines.
/// Values come back as text (NULL as nullopt); a floating-point value in the shortest text that reads back exactly.
using StoreValue = std::variant<std::monostate, int64_t, double, std::string>;
using StoreRows = std::vector<std::vector<std::optional<std::string>>>;
class StoreSession {
 public:
  virtual ~StoreSession() = default;
  virtual Engine engine() const = 0;
  /// Runs one or more statements without parameters; rows they return are dropped.
  virtual Status Execute(std::string_view sql) = 0;
  /// Runs one statement with parameters and returns its rows (none for a statement without RETURNING).
  virtual Result<StoreRows> Query(std::string_view sql, const std::vector<StoreValue>& params = {}) = 0;
};

/// Opens a store session: a SQLite file (created when missing; WAL journal, waits up to 10 s for other writers) or a
/// PostgreSQL URL (60 s statement timeout).
Result<std::unique_ptr<StoreSession>> OpenStoreSession(std::string_view conn);
Result<std::unique_ptr<StoreSession>> OpenSqliteStoreSession(const std::string& path);
Result<std::unique_ptr<StoreSession>> OpenPostgresStoreSession(const std::string& url);

/// Checks, with the SQL parser, that the text is a single read-only query (SELECT / WITH ... SELECT / VALUES / TABLE)
/// that calls none of the dialect's denied functions. The first guard; the engines enforce read-only as well.
Status CheckSingleQuery(std::string_view sql, const sql::Dialect& dialect);

/// The longest query text max_query_bytes may allow (the syntax tree of a text this long takes a few hundred MB and
/// seconds to build, outside any timeout).
inline constexpr size_t kMaxQueryBytes = 1'000'000;

/// Refuses a query text longer than the max_query_bytes ceiling, before it is parsed.
Status CheckQueryLength(std::string_view sql, const Ceilings& ceilings);

/// CheckSingleQuery, then CheckAccess against `policy`: what Connection::Query runs before the database sees SQL.
/// `unknown_relation` as in CheckAccess.
Status CheckQuery(std::string_view sql, const AccessPolicy& policy, bool* unknown_relation = nullptr,
                  AccessedNames* names = nullptr);

/// What Connection::Query checks before the database sees SQL: the length ceiling, then CheckQuery against the policy
/// `load(false)` returns. When the query names a relation the policy does not know (one created since it was read),
/// `load(true)` reads the catalog again, once. `names` receives what the query touches.
Status GuardQuery(std::string_view sql, const Ceilings& ceilings, const PolicyLoader& load,
                  AccessedNames* names = nullptr);

/// GuardQuery for a query already parsed: `text` is what will run (the tree printed), checked against the length
/// ceiling; the tree is checked as CheckQuery checks a parsed text.
Status GuardParsedQuery(const sql::Query& query, std::string_view text, const Ceilings& ceilings,
                        const PolicyLoader& load, AccessedNames* names = nullptr);

/// A ceiling's size for messages: "16 MiB", "1 GiB", "512 bytes".
std::string FormatBytes(int64_t bytes);

/// The message of a query stopped at a ceiling: which one, and the plainsql.toml key that raises it.
Error CeilingError(std::string_view what, std::string_view key, int64_t limit);

}  // namespace plainsql::exec
