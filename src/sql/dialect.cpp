// The dialect table and identifier quoting.
#include "sql/dialect.h"

#include "common/strings.h"

namespace plainsql::sql {

namespace {
// One entry per dialect. Fields: name, quote open/close, folding, limit style, then the DDL type for each type
// class: text, integer (numeric declared as an integer), numeric, datetime, boolean, other.
constexpr Dialect kSqlite{"sqlite", '"', '"', CaseFolding::kNone, LimitStyle::kLimitOffset,
                          "TEXT", "INTEGER", "NUMERIC", "TEXT", "INTEGER", "BLOB"};  // SQLite keeps dates as ISO-8601 text
constexpr Dialect kPostgres{"postgres", '"', '"', CaseFolding::kLower, LimitStyle::kLimitOffset,
                            "text", "bigint", "numeric", "timestamp", "boolean", "bytea"};
constexpr Dialect kTSql{"tsql", '[', ']', CaseFolding::kNone, LimitStyle::kTop,
                        "NVARCHAR(MAX)", "BIGINT", "DECIMAL(38, 10)", "DATETIME2", "BIT", "VARBINARY(MAX)"};
constexpr Dialect kMySql{"mysql", '`', '`', CaseFolding::kNone, LimitStyle::kLimitOffset,
                         "TEXT", "BIGINT", "DECIMAL(38, 10)", "DATETIME", "BOOLEAN", "BLOB"};
}  // namespace

const Dialect& Sqlite() { return kSqlite; }
const Dialect& Postgres() { return kPostgres; }
const Dialect& TSql() { return kTSql; }
const Dialect& MySql() { return kMySql; }

std::optional<const Dialect*> DialectByName(std::string_view name) {
  std::string n = ToLower(name);
  if (n == "sqlite" || n == "sqlite3") return &kSqlite;
  if (n == "postgres" || n == "postgresql" || n == "pg") return &kPostgres;
  if (n == "tsql" || n == "mssql" || n == "sqlserver" || n == "t-sql") return &kTSql;
  if (n == "mysql") return &kMySql;
  return std::nullopt;
}

bool IsBareIdentifier(const Dialect& dialect, std::string_view name) {
  if (name.empty()) return false;
  auto is_alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!is_alpha(name[0])) return false;
  for (char c : name) {
    if (!is_alpha(c) && !(c >= '0' && c <= '9')) return false;
    // A folding dialect would change the name's case, so such names need quotes.
    if (dialect.folding == CaseFolding::kLower && c >= 'A' && c <= 'Z') return false;
    if (dialect.folding == CaseFolding::kUpper && c >= 'a' && c <= 'z') return false;
  }
  return !IsKeyword(name);
}

std::string AlwaysQuoteIdentifier(const Dialect& dialect, std::string_view name) {
  std::string out(1, dialect.quote_open);
  for (char c : name) {
    out.push_back(c);
    if (c == dialect.quote_close) out.push_back(c);
  }
  out.push_back(dialect.quote_close);
  return out;
}

std::string QuoteIdentifier(const Dialect& dialect, std::string_view name) {
  return IsBareIdentifier(dialect, name) ? std::string(name) : AlwaysQuoteIdentifier(dialect, name);
}

std::string QuoteString(std::string_view s) { return "'" + ReplaceAll(s, "'", "''") + "'"; }

}  // namespace plainsql::sql
