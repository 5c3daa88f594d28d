// Rewrite pass: rename tables and columns by a mapping, using the resolver's bindings, so that only real references
// change: never string literals, output aliases or table aliases, and a column is renamed by the table it belongs
// to (the same name may map differently in two tables). This is how SQL written against natural names is translated
// back to the native ones (SNAILS).
#pragma once

#include <map>
#include <string>
#include <utility>

#include "common/status.h"
#include "sql/ast.h"
#include "sql/resolver.h"

namespace plainsql::sql {

struct RenameMap {
  std::map<std::string, std::string> tables;  // table name (as the catalog spells it) -> new name
  /// (table, column) as the catalog spells them -> new column name
  std::map<std::pair<std::string, std::string>, std::string> columns;
};

/// A copy of `query` with every bound table and column renamed. `resolution` must come from resolving `query`.
/// Names the mapping does not mention stay as they are.
Query RenameIdentifiers(const Query& query, const Resolution& resolution, const RenameMap& map);

}  // namespace plainsql::sql
