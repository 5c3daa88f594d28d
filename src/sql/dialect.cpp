// The dialect table and identifier quoting.
#include "sql/dialect.h"

#include "common/strings.h"

namespace plainsql::sql {

namespace {

// SQLite: load_extension loads native code (also refused by the connection's authorizer and configuration).
constexpr std::string_view kSqliteDenied[] = {"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"};
// PostgreSQL 15: functions that are allowed inside a READ ONLY transaction but act outside it, or read server files.
constexpr std::string_view kPostgresDenied[] = {"lo_import",
                                                "lo_export",
                                                "lo_create",
                                                "lo_creat",
                                                "lo_unlink",
                                                "lo_from_bytea",
                                                "lo_put",
                                                "lo_truncate",
                                                "lo_truncate64",
                                                "lo_open",
                                                "lowrite",
                                                "pg_read_file",
                                                "pg_read_binary_file",
                                                "pg_ls_dir",
                                                "pg_stat_file",
                                                "pg_ls_logdir",
                                                "pg_ls_waldir",
                                                "pg_ls_tmpdir",
                                                "pg_ls_archive_statusdir",
                                                "pg_file_write",
                                                "pg_file_rename",
                                                "pg_file_unlink",
                                                "pg_terminate_backend",
                                                "pg_cancel_backend",
                                                "pg_reload_conf",
                                                "pg_rotate_logfile",
                                                "pg_promote",
                                                "pg_switch_wal",
                                                "pg_create_restore_point",
                                                "pg_backup_start",
                                                "pg_backup_stop",
                                                "pg_advisory_lock",
                                                "pg_advisory_lock_shared",
                                                "pg_try_advisory_lock",
                                                "pg_try_advisory_lock_shared",
                                                "pg_advisory_unlock",
                                                "pg_advisory_unlock_all",
                                                "pg_notify",
                                                "set_config",
                                                "dblink",
                                                "dblink_exec",
                                                "dblink_connect",
                                                "dblink_send_query",
                                                "pg_logical_emit_message",
                                                "pg_replication_origin_create",
                                                "pg_create_logical_replication_slot",
                                                "pg_create_physical_replication_slot",
                                                "pg_drop_replication_slot",
                                                "pg_import_system_collations",
                                                "pg_stat_reset",
                                                "pg_stat_reset_shared",
                                                "pg_stat_reset_single_table_counters",
                                                "pg_stat_reset_single_function_counters",
                                                "pg_stat_reset_slru",
                                                "pg_stat_reset_replication_slot"};
// T-SQL and MySQL are rendered, not executed, by plainsql; their lists name the obvious escapes for later use.
constexpr std::string_view kTSqlDenied[] = {"openrowset", "opendatasource", "openquery", "xp_cmdshell"};
constexpr std::string_view kMySqlDenied[] = {"load_file", "sleep", "benchmark", "get_lock", "release_lock"};

// One entry per dialect; the field comments are in dialect.h.
constexpr Dialect kSqlite{
    .name = "sqlite",
    .quote_open = '"',
    .quote_close = '"',
    .identifier_quotes = "\"[`",  // SQLite accepts all three for compatibility
    .double_quote_is_string = false,
    .backslash_escapes = false,
    .hash_comments = false,
    .dollar_quotes = false,
    .spaced_comparisons = false,
    .nested_comments = false,
    .cr_ends_line_comment = false,
    .folding = CaseFolding::kNone,
    .limit_style = LimitStyle::kLimitOffset,
    .text_type = "TEXT",
    .integer_type = "INTEGER",
    .numeric_type = "NUMERIC",
    .datetime_type = "TEXT",  // SQLite keeps dates as ISO-8601 text
    .boolean_type = "INTEGER",
    .other_type = "BLOB",
    .default_namespace = "main",
    .comment_statements = false,
    .references_must_exist = false,  // SQLite checks foreign keys when rows change, not when tables are created
    .true_literal = "1",
    .false_literal = "0",
    .denied_functions = kSqliteDenied,
};
constexpr Dialect kPostgres{
    .name = "postgres",
    .quote_open = '"',
    .quote_close = '"',
    .identifier_quotes = "\"",
    .double_quote_is_string = false,
    .backslash_escapes = false,  // only in E'...' strings
    .hash_comments = false,
    .dollar_quotes = true,
    .spaced_comparisons = false,
    .nested_comments = true,
    .cr_ends_line_comment = true,
    .folding = CaseFolding::kLower,
    .limit_style = LimitStyle::kLimitOffset,
    .text_type = "text",
    .integer_type = "bigint",
    .numeric_type = "numeric",
    .datetime_type = "timestamp",
    .boolean_type = "boolean",
    .other_type = "bytea",
    .default_namespace = "public",
    .comment_statements = true,
    .references_must_exist = true,
    .true_literal = "true",
    .false_literal = "false",
    .denied_functions = kPostgresDenied,
};
constexpr Dialect kTSql{
    .name = "tsql",
    .quote_open = '[',
    .quote_close = ']',
    .identifier_quotes = "[\"",
    .double_quote_is_string = false,
    .backslash_escapes = false,
    .hash_comments = false,  // # starts temporary table names
    .dollar_quotes = false,
    .spaced_comparisons = true,
    .nested_comments = true,
    .cr_ends_line_comment = false,
    .folding = CaseFolding::kNone,
    .limit_style = LimitStyle::kTop,
    .text_type = "NVARCHAR(MAX)",
    .integer_type = "BIGINT",
    .numeric_type = "DECIMAL(38, 10)",
    .datetime_type = "DATETIME2",
    .boolean_type = "BIT",
    .other_type = "VARBINARY(MAX)",
    .default_namespace = "dbo",
    .comment_statements = false,  // SQL Server keeps comments as extended properties
    .references_must_exist = true,
    .true_literal = "1",
    .false_literal = "0",
    .denied_functions = kTSqlDenied,
};
constexpr Dialect kMySql{
    .name = "mysql",
    .quote_open = '`',
    .quote_close = '`',
    .identifier_quotes = "`",
    .double_quote_is_string = true,  // unless ANSI_QUOTES is set
    .backslash_escapes = true,
    .hash_comments = true,
    .dollar_quotes = false,
    .spaced_comparisons = false,
    .nested_comments = false,
    .cr_ends_line_comment = false,
    .folding = CaseFolding::kNone,
    .limit_style = LimitStyle::kLimitOffset,
    .text_type = "TEXT",
    .integer_type = "BIGINT",
    .numeric_type = "DECIMAL(38, 10)",
    .datetime_type = "DATETIME",
    .boolean_type = "BOOLEAN",
    .other_type = "BLOB",
    .default_namespace = "",
    .comment_statements = false,
    .references_must_exist = true,
    .true_literal = "TRUE",
    .false_literal = "FALSE",
    .denied_functions = kMySqlDenied,
};

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
