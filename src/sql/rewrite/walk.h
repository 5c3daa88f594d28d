// Walking a syntax tree for rewrite passes: every expression and every FROM item, in source order, mutable.
#pragma once

#include <functional>

#include "sql/ast.h"

namespace plainsql::sql {

struct Walker {
  std::function<void(Expr&)> on_expr;         // called for every expression node, parents before children
  std::function<void(TableRef&)> on_table;    // called for every FROM item (joins before their sides)
  std::function<void(Identifier&)> on_alias;  // every alias: select items, FROM items, CTE names and columns
  std::function<void(Query&)> on_query;       // every query, outer before inner
};

void Walk(Query& query, const Walker& walker);

}  // namespace plainsql::sql
