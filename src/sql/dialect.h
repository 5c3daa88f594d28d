// SQL dialects as data: everything that differs between SQLite, PostgreSQL, T-SQL, MySQL and DuckDB and that the
// lexer, printer, resolver, renderers and views need, in one struct per dialect. Code asks the struct; it never
// branches on the dialect's name. Adding a dialect means adding one definition in dialect.cpp, its keyword file in
// dialects/, and its cases in tests/sql/.
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

/// How a typed literal (DATE '2024-01-31', TIMESTAMP '...') is printed.
enum class TypedLiteralStyle {
  kValueOnly,   // just the string: the engine keeps dates and times as text (SQLite)
  kTypePrefix,  // DATE '2024-01-31' (the SQL standard)
  kCast,        // CAST('2024-01-31' AS DATE): no typed literals (T-SQL)
};

/// Where plainsql's natural views go (views/views.h).
enum class ViewPlacement {
  kNone,          // plainsql writes no views for this dialect
  kBesideTables,  // in the tables' own namespace, so view names must not collide with table names (SQLite)
  kOwnNamespace,  // in a schema of their own, created first (PostgreSQL, T-SQL, DuckDB)
};

struct Dialect {
  std::string_view name;                      // "sqlite", "postgres", "tsql", "mysql", "duckdb": the canonical name
  std::span<const std::string_view> aliases;  // other names DialectByName accepts (lower case)
  std::string_view display_name;              // the engine's name for people ("PostgreSQL"), e.g. in prompts
  char quote_open;                            // opening identifier quote: '"', '[' or '`'
  char quote_close;                           // closing identifier quote: '"', ']' or '`'
  std::string_view identifier_quotes;         // opening characters that quote identifiers ('"', '[', '`')
  bool double_quote_is_string;                // "..." is a string literal (MySQL), not an identifier
  bool backslash_escapes;                     // '\'' escapes inside string literals (MySQL)
  bool hash_comments;                         // # starts a comment to the end of the line (MySQL)
  bool dollar_quotes;                         // $tag$ ... $tag$ string literals (PostgreSQL)
  bool spaced_comparisons;                    // "> =" and "< =" read as ">=" and "<=" (SQL Server accepts them)
  bool nested_comments;                       // /* /* */ */ nests (PostgreSQL, SQL Server)
  bool cr_ends_line_comment;  // a -- comment ends at a carriage return as well as a newline (PostgreSQL)
  CaseFolding folding;        // how unquoted identifiers are folded
  LimitStyle limit_style;     // LIMIT/OFFSET or TOP
  // Printing: which spellings the engine reads. The parser reads every dialect's forms; the printer writes the
  // target's.
  bool double_equals;                // == is equality (SQLite, DuckDB); elsewhere it is printed =
  bool boolean_literals;             // TRUE and FALSE exist; else they are printed 1 and 0 (T-SQL)
  bool national_strings;             // N'...' is read; else the N is dropped (SQLite)
  bool ilike;                        // ILIKE exists; else printed LIKE, case-insensitive there by default
  bool colon_casts;                  // x::type casts (PostgreSQL, DuckDB); else CAST(x AS type)
  bool try_cast;                     // TRY_CAST(x AS type), NULL when the cast fails (T-SQL, DuckDB)
  bool convert_type_first;           // CONVERT(type, x[, style]) (T-SQL)
  bool convert_value_type;           // CONVERT(x, type) (MySQL)
  TypedLiteralStyle typed_literals;  // how DATE '...' is written
  bool substring_from;               // SUBSTRING(x FROM a FOR b); else SUBSTRING(x, a, b) (SQLite, T-SQL)
  bool recursive_keyword;            // WITH RECURSIVE; else a recursive CTE is a plain WITH (T-SQL)
  bool materialized_cte;             // WITH c AS [NOT] MATERIALIZED (...) (PostgreSQL, DuckDB); else dropped
  bool fetch_with_ties;              // FETCH FIRST n ROWS WITH TIES (PostgreSQL); T-SQL has TOP n WITH TIES
  bool offset_without_limit;         // OFFSET n may stand alone; else a LIMIT of no_limit is written before it
  std::string_view no_limit;         // the LIMIT that means "all rows", when OFFSET needs a LIMIT
  bool parenthesized_set_operands;   // (SELECT ...) UNION (SELECT ...); SQLite allows no parentheses there
  // Name resolution (resolver.h).
  bool on_sees_whole_from;        // a join's ON may name tables joined after it (SQLite resolves ON over all FROM)
  bool unknown_quoted_is_string;  // a "name" that names no column is read as the string 'name' (SQLite)
  // Natural views (views/views.h).
  ViewPlacement view_placement;
  std::string_view create_schema;  // the statement creating the views' schema if missing: {0} the quoted name,
                                   // {1} the name as a string literal (kOwnNamespace only)
  std::string_view batch_end;      // what ends a statement that must stand alone in its batch ("GO\n" in T-SQL)
  // Keywords (generated lists in dialects/<name>_keywords.txt, see tools/gen_keywords).
  std::span<const std::string_view> keywords;  // upper case, sorted
  bool shared_keywords;  // these keywords are quoted in every dialect's output (see IsKeyword), so SQL printed for
                         // one of the engines plainsql translates between reads the same on the others
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
const Dialect& DuckDb();

/// Every dialect, in a fixed order (SQLite first).
std::span<const Dialect* const> AllDialects();

/// Looks a dialect up by its name or an alias, case-insensitively: "sqlite", "postgres"/"postgresql"/"pg",
/// "tsql"/"mssql"/"sqlserver"/"t-sql", "mysql", "duckdb".
std::optional<const Dialect*> DialectByName(std::string_view name);

/// True if `word` is a keyword of a dialect whose keywords are shared (case-insensitive): SQLite's keywords and the
/// reserved words of PostgreSQL, T-SQL and MySQL. Used to decide quoting, so the list errs on the side of quoting.
bool IsKeyword(std::string_view word);

/// True if `word` is a keyword of `dialect` itself (case-insensitive).
bool IsKeyword(const Dialect& dialect, std::string_view word);

/// True if a name spelled `word` must be quoted in `dialect`'s output: a shared keyword or one of its own.
bool IsReservedIn(const Dialect& dialect, std::string_view word);

/// True if `name` can be written without quotes in `dialect` and still mean exactly `name`.
bool IsBareIdentifier(const Dialect& dialect, std::string_view name);

/// `name` quoted for `dialect` if it needs quoting, else unchanged. Embedded closing quotes are doubled.
std::string QuoteIdentifier(const Dialect& dialect, std::string_view name);

/// `name` always quoted for `dialect`.
std::string AlwaysQuoteIdentifier(const Dialect& dialect, std::string_view name);

/// A SQL string literal in single quotes with embedded quotes doubled.
std::string QuoteString(std::string_view s);

}  // namespace plainsql::sql
