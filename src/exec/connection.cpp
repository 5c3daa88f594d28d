// Connection strings and the lexical guard shared by both engines.
#include "exec/connection.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <regex>

#include "common/strings.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/rewrite/walk.h"

namespace plainsql::exec {

Result<ConnInfo> ParseConnectionString(std::string_view conn) {
  std::string_view s = Trim(conn);
  if (s.empty()) return MakeError(ErrorCode::kInvalidArgument, "empty connection string");
  if (s.starts_with("postgresql://") || s.starts_with("postgres://")) {
    return ConnInfo{Engine::kPostgres, std::string(s)};
  }
  if (s.starts_with("sqlite://"))
    s.remove_prefix(9);
  else if (s.starts_with("sqlite:"))
    s.remove_prefix(7);
  else if (size_t p = s.find("://"); p != std::string_view::npos) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("unsupported connection scheme '{}'; use sqlite:PATH, a file path, or "
                                 "postgresql://user@host/db",
                                 s.substr(0, p)));
  }
  if (s.empty()) return MakeError(ErrorCode::kInvalidArgument, "connection string has no SQLite file path");
  return ConnInfo{Engine::kSqlite, std::string(s)};
}

std::string RedactConnectionString(std::string_view conn) {
  // postgresql://user:secret@host/db -> postgresql://user:***@host/db; also password=... in the query string.
  static const std::regex kUserinfo(R"(^(postgres(?:ql)?://[^:/@?]*):[^@/?]*@)");
  static const std::regex kParam(R"(([?&]password=)[^&]*)", std::regex::icase);
  std::string s = std::regex_replace(std::string(conn), kUserinfo, "$1:***@");
  return std::regex_replace(s, kParam, "$1***");
}

Result<std::unique_ptr<Connection>> Connect(std::string_view conn) {
  auto info = ParseConnectionString(conn);
  if (!info) return info.error();
  if (info->engine == Engine::kPostgres) return OpenPostgres(info->target);
  return OpenSqlite(info->target);
}

Result<std::unique_ptr<WriteSession>> OpenWriteSession(std::string_view conn, bool create) {
  auto info = ParseConnectionString(conn);
  if (!info) return info.error();
  if (info->engine == Engine::kPostgres) return OpenPostgresWriteSession(info->target);
  return OpenSqliteWriteSession(info->target, create);
}

Result<std::unique_ptr<StoreSession>> OpenStoreSession(std::string_view conn) {
  auto info = ParseConnectionString(conn);
  if (!info) return info.error();
  if (info->engine == Engine::kPostgres) return OpenPostgresStoreSession(info->target);
  return OpenSqliteStoreSession(info->target);
}

namespace {

ExecSettings& MutableDefaults() {
  static ExecSettings settings;
  return settings;
}

// Functions whose effects escape a rolled-back read-only transaction, by name, wherever they are called. The allowlist
// refuses them too; this names them with the reason.
Status CheckDenied(sql::Query& parsed, const sql::Dialect& dialect) {
  std::optional<Error> refused;
  sql::Walker w;
  w.on_expr = [&](sql::Expr& e) {
    if (refused || e.kind != sql::ExprKind::kFunction) return;
    std::string name = ToLower(e.name.last().name);
    for (std::string_view denied : dialect.denied_functions) {
      if (name == denied) {
        refused = MakeError(
            ErrorCode::kNotReadOnly,
            fmt::format("refused: {}() can change the server or read its files; plainsql does not run it", name));
      }
    }
  };
  sql::Walk(parsed, w);
  if (refused) return *refused;
  return Status::Ok();
}

}  // namespace

void SetDefaultExecSettings(const ExecSettings& settings) { MutableDefaults() = settings; }
const ExecSettings& DefaultExecSettings() { return MutableDefaults(); }

Status CheckSingleQuery(std::string_view sql, const sql::Dialect& dialect) {
  // The parser's read-only check: exactly one statement, and it is a query (no data-changing CTE, no SELECT INTO).
  // A syntax error is reported here, with its position, before the database sees the text.
  auto parsed = sql::ParseQuery(sql, dialect);
  if (!parsed) return parsed.error();
  return CheckDenied(*parsed, dialect);
}

Status CheckQuery(std::string_view sql, const AccessPolicy& policy, bool* unknown_relation, AccessedNames* names) {
  if (unknown_relation) *unknown_relation = false;

  auto parsed = sql::ParseQuery(sql, *policy.dialect);
  if (!parsed) return parsed.error();
  if (Status s = CheckDenied(*parsed, *policy.dialect); !s) return s;
  return CheckAccess(*parsed, policy, unknown_relation, names);
}

Status GuardQuery(std::string_view sql, const Ceilings& ceilings, const PolicyLoader& load, AccessedNames* names) {
  if (Status s = CheckQueryLength(sql, ceilings); !s) return s;
  auto policy = load(false);
  if (!policy) return policy.error();
  bool unknown = false;
  Status checked = CheckQuery(sql, **policy, &unknown, names);
  if (checked || !unknown) return checked;
  policy = load(true);
  if (!policy) return policy.error();
  return CheckQuery(sql, **policy, nullptr, names);
}

Status GuardParsedQuery(const sql::Query& query, std::string_view text, const Ceilings& ceilings,
                        const PolicyLoader& load, AccessedNames* names) {
  if (Status s = CheckQueryLength(text, ceilings); !s) return s;
  // ParseQuery refuses SELECT ... INTO; a tree built without the parser is held to the same rule.
  if (query.body.kind == sql::QueryBodyKind::kSelect && query.body.select.into) {
    return MakeError(ErrorCode::kNotReadOnly, "refused: SELECT ... INTO creates a table; it is not a read-only query");
  }
  auto policy = load(false);
  if (!policy) return policy.error();
  // CheckDenied walks a mutable tree; the copy is the price of keeping the caller's tree const (no re-parse).
  sql::Query copy = query;
  if (Status s = CheckDenied(copy, *(*policy)->dialect); !s) return s;
  bool unknown = false;
  Status checked = CheckAccess(query, **policy, &unknown, names);
  if (checked || !unknown) return checked;
  policy = load(true);
  if (!policy) return policy.error();
  return CheckAccess(query, **policy, nullptr, names);
}

Result<ResultSet> Connection::QueryParsed(const sql::Query& query, const Limits& limits) {
  // Engines that can run a checked tree override this; the default checks the printed text as Query does.
  return Query(sql::Print(query, dialect()), limits);
}

Status CheckQueryLength(std::string_view sql, const Ceilings& ceilings) {
  int64_t limit = std::min<int64_t>(ceilings.max_query_bytes, static_cast<int64_t>(kMaxQueryBytes));
  if (static_cast<int64_t>(sql.size()) <= limit) return Status::Ok();
  return MakeError(ErrorCode::kResourceLimit,
                   fmt::format("refused: the query text is {} bytes long, past the max_query_bytes ceiling ({} bytes); "
                               "to raise it, set max_query_bytes in the [exec] section of plainsql.toml (at most {})",
                               sql.size(), limit, kMaxQueryBytes));
}

std::string FormatBytes(int64_t bytes) {
  if (bytes >= (int64_t{1} << 30) && bytes % (int64_t{1} << 30) == 0) return fmt::format("{} GiB", bytes >> 30);
  if (bytes >= (int64_t{1} << 20) && bytes % (int64_t{1} << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= (int64_t{1} << 10) && bytes % (int64_t{1} << 10) == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} bytes", bytes);
}

Error CeilingError(std::string_view what, std::string_view key, int64_t limit) {
  return MakeError(ErrorCode::kResourceLimit,
                   fmt::format("query stopped: {} passed the {} ceiling ({}); to raise it, set {} in the [exec] "
                               "section of plainsql.toml",
                               what, key, FormatBytes(limit), key));
}

}  // namespace plainsql::exec
