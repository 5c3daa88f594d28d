// The dialect table and identifier quoting.
#include "sql/dialect.h"

#include <algorithm>
#include <array>

#include "common/strings.h"
#include "sql/keywords_data.h"

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
// DuckDB: table functions that read files or the environment.
constexpr std::string_view kDuckDbDenied[] = {"read_text",    "read_blob",      "read_csv",         "read_csv_auto",
                                              "read_json",    "read_json_auto", "read_ndjson",      "read_json_objects",
                                              "read_parquet", "parquet_scan",   "parquet_metadata", "parquet_schema",
                                              "glob",         "getenv",         "sniff_csv"};

// Other names DialectByName accepts.
constexpr std::string_view kSqliteAliases[] = {"sqlite3"};
constexpr std::string_view kPostgresAliases[] = {"postgresql", "pg"};
constexpr std::string_view kTSqlAliases[] = {"mssql", "sqlserver", "t-sql"};

// One entry per dialect; the field comments are in dialect.h.
constexpr Dialect kSqlite{
    .name = "sqlite",
    .aliases = kSqliteAliases,
    .display_name = "SQLite",
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
    .double_equals = true,
    .boolean_literals = true,  // since SQLite 3.23
    .national_strings = false,
    .ilike = false,
    .colon_casts = false,
    .try_cast = false,
    .convert_type_first = false,
    .convert_value_type = false,
    .typed_literals = TypedLiteralStyle::kValueOnly,  // SQLite keeps dates and times as text
    .substring_from = false,
    .recursive_keyword = true,
    .materialized_cte = false,  // SQLite reads AS MATERIALIZED as a hint since 3.35; plainsql has not written it there
    .fetch_with_ties = false,
    .offset_without_limit = false,
    .no_limit = "-1",  // a negative LIMIT means no limit
    .parenthesized_set_operands = false,
    .on_sees_whole_from = true,
    .unknown_quoted_is_string = true,
    .view_placement = ViewPlacement::kBesideTables,
    .create_schema = "",
    .batch_end = "",
    .keywords = internal::kSqliteKeywords,
    .shared_keywords = true,
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
    .aliases = kPostgresAliases,
    .display_name = "PostgreSQL",
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
    .double_equals = false,
    .boolean_literals = true,
    .national_strings = true,
    .ilike = true,
    .colon_casts = true,
    .try_cast = false,
    .convert_type_first = false,
    .convert_value_type = false,
    .typed_literals = TypedLiteralStyle::kTypePrefix,
    .substring_from = true,
    .recursive_keyword = true,
    .materialized_cte = true,
    .fetch_with_ties = true,
    .offset_without_limit = true,
    .no_limit = "ALL",
    .parenthesized_set_operands = true,
    .on_sees_whole_from = false,
    .unknown_quoted_is_string = false,
    .view_placement = ViewPlacement::kOwnNamespace,
    .create_schema = "CREATE SCHEMA IF NOT EXISTS {0};\n",
    .batch_end = "",
    .keywords = internal::kPostgresKeywords,
    .shared_keywords = true,
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
    .aliases = kTSqlAliases,
    .display_name = "T-SQL (SQL Server)",
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
    .double_equals = false,
    .boolean_literals = false,
    .national_strings = true,
    .ilike = false,
    .colon_casts = false,
    .try_cast = true,
    .convert_type_first = true,
    .convert_value_type = false,
    .typed_literals = TypedLiteralStyle::kCast,
    .substring_from = false,
    .recursive_keyword = false,
    .materialized_cte = false,
    .fetch_with_ties = false,  // TOP n WITH TIES or OFFSET ... FETCH NEXT n ROWS WITH TIES (limit_style kTop)
    .offset_without_limit = true,
    .no_limit = "",  // unused: OFFSET n ROWS stands alone
    .parenthesized_set_operands = true,
    .on_sees_whole_from = false,
    .unknown_quoted_is_string = false,
    .view_placement = ViewPlacement::kOwnNamespace,
    .create_schema = "IF SCHEMA_ID({1}) IS NULL EXEC('CREATE SCHEMA {0}');\n",
    .batch_end = "GO\n",  // CREATE SCHEMA and CREATE VIEW must each be the only statement of a batch
    .keywords = internal::kTSqlKeywords,
    .shared_keywords = true,
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
    .aliases = {},
    .display_name = "MySQL",
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
    .double_equals = false,
    .boolean_literals = true,
    .national_strings = true,
    .ilike = false,
    .colon_casts = false,
    .try_cast = false,
    .convert_type_first = false,
    .convert_value_type = true,
    .typed_literals = TypedLiteralStyle::kTypePrefix,
    .substring_from = true,
    .recursive_keyword = true,
    .materialized_cte = false,
    .fetch_with_ties = false,
    .offset_without_limit = false,
    .no_limit = "18446744073709551615",  // the manual's "all rows": the largest BIGINT UNSIGNED
    .parenthesized_set_operands = true,
    .on_sees_whole_from = false,
    .unknown_quoted_is_string = false,
    .view_placement = ViewPlacement::kNone,  // a schema is a database there; views are not written yet
    .create_schema = "",
    .batch_end = "",
    .keywords = internal::kMySqlKeywords,
    .shared_keywords = true,
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
constexpr Dialect kDuckDb{
    .name = "duckdb",
    .aliases = {},
    .display_name = "DuckDB",
    .quote_open = '"',
    .quote_close = '"',
    .identifier_quotes = "\"",
    .double_quote_is_string = false,
    .backslash_escapes = false,  // only in E'...' strings, as in PostgreSQL
    .hash_comments = false,
    .dollar_quotes = true,
    .spaced_comparisons = false,
    .nested_comments = true,        // its scanner is PostgreSQL's
    .cr_ends_line_comment = true,   // likewise
    .folding = CaseFolding::kNone,  // names are matched case-insensitively, quoted or not, and keep their case
    .limit_style = LimitStyle::kLimitOffset,
    .double_equals = true,
    .boolean_literals = true,
    .national_strings = true,  // N'...' reads as a string cast to NCHAR, i.e. VARCHAR
    .ilike = true,
    .colon_casts = true,
    .try_cast = true,
    .convert_type_first = false,
    .convert_value_type = false,
    .typed_literals = TypedLiteralStyle::kTypePrefix,
    .substring_from = true,
    .recursive_keyword = true,
    .materialized_cte = true,
    .fetch_with_ties = false,  // FETCH FIRST n ROWS ONLY only
    .offset_without_limit = true,
    .no_limit = "",  // unused: OFFSET stands alone
    .parenthesized_set_operands = true,
    .on_sees_whole_from = false,
    .unknown_quoted_is_string = false,
    .view_placement = ViewPlacement::kOwnNamespace,
    .create_schema = "CREATE SCHEMA IF NOT EXISTS {0};\n",
    .batch_end = "",
    .keywords = internal::kDuckDbKeywords,
    .shared_keywords = false,  // its extra words (QUALIFY, PIVOT, MAP, ...) are quoted in DuckDB output only
    .text_type = "VARCHAR",
    .integer_type = "BIGINT",
    .numeric_type = "DOUBLE",
    .datetime_type = "TIMESTAMP",
    .boolean_type = "BOOLEAN",
    .other_type = "BLOB",
    .default_namespace = "main",
    .comment_statements = true,  // COMMENT ON TABLE / VIEW / COLUMN
    .references_must_exist = true,
    .true_literal = "true",
    .false_literal = "false",
    .denied_functions = kDuckDbDenied,
};

constexpr std::array<const Dialect*, 5> kAll = {&kSqlite, &kPostgres, &kTSql, &kMySql, &kDuckDb};

}  // namespace

const Dialect& Sqlite() { return kSqlite; }
const Dialect& Postgres() { return kPostgres; }
const Dialect& TSql() { return kTSql; }
const Dialect& MySql() { return kMySql; }
const Dialect& DuckDb() { return kDuckDb; }

std::span<const Dialect* const> AllDialects() { return kAll; }

std::optional<const Dialect*> DialectByName(std::string_view name) {
  std::string n = ToLower(name);
  for (const Dialect* d : kAll) {
    if (n == d->name || std::find(d->aliases.begin(), d->aliases.end(), n) != d->aliases.end()) return d;
  }
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
  return !IsReservedIn(dialect, name);
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
