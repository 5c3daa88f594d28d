// Natural names without views: the schema rendered with a crosswalk's names (for prompts), and SQL translated
// between native names and the names of any level with the SQL front end's rename pass.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "naturalness/crosswalk.h"
#include "sql/dialect.h"
#include "sql/resolver.h"

namespace plainsql::views {

/// The schema as it looks at `level`: tables, columns and keys renamed through the crosswalk; types, comments, row
/// counts and samples kept. Native names stay where the crosswalk has none.
catalog::Schema NaturalSchema(const catalog::Schema& native, const naturalness::Crosswalk& crosswalk,
                              naturalness::Level level);

struct Translation {
  std::string sql;
  std::vector<sql::UnresolvedName> unresolved;  // names that match nothing at `from`; left as written
};

/// `sql` (one query in `dialect`) written with the names of level `from` (Level::kNative for native names),
/// rewritten to the names of level `to`: parsed, resolved against the schema at `from`, renamed by binding (never
/// string literals, output aliases or table aliases), printed in `dialect`.
Result<Translation> Translate(std::string_view sql, const sql::NameCatalog& native,
                              const naturalness::Crosswalk& crosswalk, naturalness::Level from, naturalness::Level to,
                              const sql::Dialect& dialect);

}  // namespace plainsql::views
