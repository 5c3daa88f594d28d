// Rewrite pass: SQLite's string fallbacks. SQLite reads a double-quoted name that matches no column as a string
// literal (`WHERE name = "Smith"`); every other engine reports an unknown column. The pass writes such names as
// string literals, so that the query means the same once printed for another dialect.
#pragma once

#include "sql/ast.h"
#include "sql/resolver.h"

namespace plainsql::sql {

/// A copy of `query` with each reference in `resolution.string_fallbacks` turned into a string literal.
/// `resolution` must come from resolving `query` as SQLite.
Query LiteralizeStringFallbacks(const Query& query, const Resolution& resolution);

}  // namespace plainsql::sql
