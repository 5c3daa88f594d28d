// The SQL printer: syntax tree -> SQL text in any dialect. Deterministic: the same tree prints the same text.
// Keywords are upper case; names keep their spelling and are quoted when they were quoted or need to be in the target
// dialect; row limits are written the target's way (LIMIT / OFFSET, TOP, OFFSET ... FETCH).
#pragma once

#include <string>

#include "sql/ast.h"
#include "sql/dialect.h"

namespace plainsql::sql {

struct PrintOptions {
  bool pretty = false;  // clauses on their own lines, subqueries indented
};

std::string Print(const Query& query, const Dialect& dialect, const PrintOptions& options = {});
std::string PrintExpr(const Expr& expr, const Dialect& dialect);
std::string PrintIdentifier(const Identifier& id, const Dialect& dialect);

}  // namespace plainsql::sql
