// The SQL parser: tokens -> statements, with queries parsed to a full syntax tree and other statements recognised
// and classified by their leading words.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/ast.h"
#include "sql/dialect.h"

namespace plainsql::sql {

/// Every statement of a script, separated by ';'. Errors carry line, column and an excerpt with a caret.
Result<std::vector<Statement>> ParseScript(std::string_view sql, const Dialect& dialect);

/// Exactly one statement, which must be a query; anything else is an error with ErrorCode::kSql (syntax) or
/// ErrorCode::kNotReadOnly (a statement that is not a read-only query, with the reason).
Result<Query> ParseQuery(std::string_view sql, const Dialect& dialect);

/// How many times ParseScript (and so ParseQuery) has run in this process: tests count the parses a path makes.
uint64_t ParseCount();

/// Nesting deeper than this (parentheses, subqueries, operators) is refused rather than risking the stack.
inline constexpr int kMaxParseDepth = 400;

}  // namespace plainsql::sql
