// Rewrite pass: normalize a query for exact-match comparison. Identifiers are compared as the engine would resolve
// them (case-folded unless they were quoted in a case-sensitive dialect) and their quoting style is dropped; keyword
// spellings and layout are already gone in the tree. Two queries whose normalized trees are equal (operator==) are
// the same query up to spelling.
#pragma once

#include "sql/ast.h"
#include "sql/dialect.h"

namespace plainsql::sql {

Query Normalize(const Query& query, const Dialect& dialect);

}  // namespace plainsql::sql
