// Parse in one dialect, print in another: the operation behind `plainsql parse`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/dialect.h"
#include "sql/printer.h"
#include "sql/resolver.h"

namespace plainsql::sql {

/// The single query in `sql` (dialect `from`), printed in dialect `to`. A trailing ';' is allowed. Fails with the
/// parser's error (line, column, excerpt) or with kNotReadOnly for a statement that is not a query.
Result<std::string> Transpile(std::string_view sql, const Dialect& from, const Dialect& to,
                              const PrintOptions& options = {});

/// What `plainsql parse` can do to a query between parsing and printing.
struct TranspileOptions {
  PrintOptions print;
  const NameCatalog* qualify_with = nullptr;  // qualify columns, resolving against this catalog (qualify.h)
  /// From a dialect that reads an unknown "name" as a string (SQLite) to one that does not: resolve against this
  /// catalog and write those names as string literals (fallbacks.h). qualify_with, when given, serves as well.
  const NameCatalog* fallbacks_with = nullptr;
  bool mask = false;                                  // print the masked query (mask.h)
  bool skeleton = false;                              // print the skeleton's tokens instead of SQL (skeleton.h)
  std::vector<UnresolvedName>* unresolved = nullptr;  // with qualify_with: receives the names that did not resolve
};

/// As above, with the rewrites of `options` applied in the order string fallbacks, qualify, then mask or skeleton.
Result<std::string> Transpile(std::string_view sql, const Dialect& from, const Dialect& to,
                              const TranspileOptions& options);

/// The first line of an error message, with its position kept ("... at line 1, column 8"), for one-line reports.
std::string OneLineMessage(const Error& error);

}  // namespace plainsql::sql
