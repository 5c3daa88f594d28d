// A lexical look at SQL text, without parsing it: what kind of statement it starts with, and how many statements it
// holds. It skips comments, string literals, quoted identifiers and PostgreSQL dollar quotes. The SQLite executor uses
// it to check that nothing follows the statement SQLite prepared; the read-only check itself is the parser's.
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
};

Classification ClassifyStatement(std::string_view sql);

}  // namespace plainsql::sql
