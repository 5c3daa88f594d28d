// SQL dialects as data: everything that differs between SQLite, PostgreSQL, T-SQL and MySQL and that the
// printer, the renderers and (later) the lexer need, in one struct per dialect. Code asks the struct; it never
// branches on the dialect's name.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace plainsql::sql {

/// How an unquoted identifier is folded before lookup.
enum class CaseFolding {
  kNone,   // case-insensitive lookup, case kept (SQLite, T-SQL, MySQL on most systems)
  kLower,  // folded to lower case (PostgreSQL)
  kUpper,  // folded to upper case (the SQL standard; Oracle)
};

/// How a query limits its rows.
enum class LimitStyle {
  kLimitOffset,  // LIMIT n OFFSET m
  kTop,          // SELECT TOP n ...
};

struct Dialect {
  std::string_view name;               // "sqlite", "postgres", "tsql", "mysql"
  char quote_open;                     // opening identifier quote: '"', '[' or '`'
  char quote_close;                    // closing identifier quote: '"', ']' or '`'
  std::string_view identifier_quotes;  // opening characters that quote identifiers ('"', '[', '`')
  bool double_quote_is_string;         // "..." is a string literal (MySQL), not an identifier
  bool backslash_escapes;              // '\'' escapes inside string literals (MySQL)
  bool hash_comments;                  // # starts a comment to the end of the line (MySQL)
  bool dollar_quotes;                  // $tag$ ... $tag$ string literals (PostgreSQL)
  bool spaced_comparisons;             // "> =" and "< =" read as ">=" and "<=" (SQL Server accepts them)
  bool nested_comments;                // /* /* */ */ nests (PostgreSQL, SQL Server)
  bool cr_ends_line_comment;           // a -- comment ends at a carriage return as well as a newline (PostgreSQL)
  CaseFolding folding;                 // how unquoted identifiers are folded
  LimitStyle limit_style;              // LIMIT/OFFSET or TOP
  // Type names used in DDL when a column's declared type comes from another engine (or from a benchmark file) and
  // only its type class is known.
  std::string_view text_type;
  std::string_view integer_type;  // numeric columns whose declared type names an integer
  std::string_view numeric_type;
  std::string_view datetime_type;
  std::string_view boolean_type;
  std::string_view other_type;
  std::string_view default_namespace;  // "" if the dialect has no namespaces of its own
  bool comment_statements;             // COMMENT ON TABLE/COLUMN exists (else comments are SQL "--" comments)
  bool references_must_exist;          // a FOREIGN KEY may only name a table created before it
  std::string_view true_literal;       // how a boolean default is written
  std::string_view false_literal;
  /// Built-in functions whose effects escape a rolled-back read-only transaction (server files, large objects,
  /// other sessions, configuration) or that read server files; a query calling one is refused.
  std::span<const std::string_view> denied_functions;
};

const Dialect& Sqlite();
const Dialect& Postgres();
const Dialect& TSql();
const Dialect& MySql();

/// Looks a dialect up by name; accepts "sqlite", "postgres"/"postgresql"/"pg", "tsql"/"mssql"/"sqlserver", "mysql".
std::optional<const Dialect*> DialectByName(std::string_view name);

/// True if `word` is a reserved word in any supported dialect (case-insensitive). Used to decide quoting, so the list
/// errs on the side of quoting.
bool IsKeyword(std::string_view word);

/// True if `name` can be written without quotes in `dialect` and still mean exactly `name`.
bool IsBareIdentifier(const Dialect& dialect, std::string_view name);

/// `name` quoted for `dialect` if it needs quoting, else unchanged. Embedded closing quotes are doubled.
std::string QuoteIdentifier(const Dialect& dialect, std::string_view name);

/// `name` always quoted for `dialect`.
std::string AlwaysQuoteIdentifier(const Dialect& dialect, std::string_view name);

/// A SQL string literal in single quotes with embedded quotes doubled.
std::string QuoteString(std::string_view s);

}  // namespace plainsql::sql
