// Parse in one dialect, print in another: the operation behind `plainsql parse`.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "sql/dialect.h"
#include "sql/printer.h"

namespace plainsql::sql {

/// The single query in `sql` (dialect `from`), printed in dialect `to`. A trailing ';' is allowed. Fails with the
/// parser's error (line, column, excerpt) or with kNotReadOnly for a statement that is not a query.
Result<std::string> Transpile(std::string_view sql, const Dialect& from, const Dialect& to,
                              const PrintOptions& options = {});

/// The first line of an error message, with its position kept ("... at line 1, column 8"), for one-line reports.
std::string OneLineMessage(const Error& error);

}  // namespace plainsql::sql
