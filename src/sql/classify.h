// A lexical first guard on SQL text before it reaches a database: what kind of statement it is, and whether the text
// holds more than one statement. It skips comments, string literals, quoted identifiers and PostgreSQL dollar quotes.
// It is not the only guard: the execution stage also relies on the engine (SQLite authorizer and read-only open,
// PostgreSQL READ ONLY transactions), so a mistake here cannot cause a write.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace plainsql::sql {

enum class LexicalKind {
  kEmpty,  // only whitespace and comments
  kQuery,  // SELECT, WITH, VALUES, TABLE, or a parenthesised query
  kOther,  // anything else (INSERT, PRAGMA, CREATE, ...)
};

struct Classification {
  LexicalKind kind = LexicalKind::kEmpty;
  std::string first_keyword;  // upper case; empty when kind is kEmpty. After WITH ..., a data-changing main
                              // statement's keyword (INSERT, UPDATE, DELETE, REPLACE, MERGE) replaces WITH.
  int statement_count = 0;    // number of non-empty statements separated by ';'
  bool unterminated = false;  // a string, quoted identifier or block comment is not closed
  /// Lower-cased names written directly before "(" anywhere in the text (function calls, but also table names in
  /// INSERT INTO t(...)), bare or quoted, schema qualification dropped.
  std::vector<std::string> called_names;
};

Classification ClassifyStatement(std::string_view sql);

}  // namespace plainsql::sql
