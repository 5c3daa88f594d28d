// Natural names without views: the schema with a crosswalk's names (what a model is shown), and queries translated
// between the names of two levels (native included) by the SQL front end's rename pass, on the syntax tree.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "naturalness/crosswalk.h"
#include "sql/ast.h"
#include "sql/dialect.h"
#include "sql/resolver.h"
#include "sql/rewrite/rename.h"

namespace plainsql::naturalness {

/// The schema as it looks at `level`: tables, columns and keys renamed through the crosswalk; types, comments, row
/// counts and samples kept. Native names stay where the crosswalk has none. At N1 each table and column gets its
/// entry's alternatives as aliases (catalog::Column::aliases).
catalog::Schema NaturalSchema(const catalog::Schema& native, const Crosswalk& crosswalk, Level level);

/// Translates queries from the names of level `from` to those of level `to` (Level::kNative for native names). Built
/// once (the catalog at `from` and the rename map), then applied to any number of queries.
class QueryTranslator {
 public:
  QueryTranslator(const sql::NameCatalog& native, const Crosswalk& crosswalk, Level from, Level to);

  /// `query` renamed by binding (never string literals, output aliases or table aliases). Names that match nothing
  /// at `from` are left as written and listed in `unresolved` when given.
  sql::Query Apply(const sql::Query& query, const sql::Dialect& dialect,
                   std::vector<sql::UnresolvedName>* unresolved = nullptr) const;

  /// The names at `from` (what queries given to Apply are resolved against).
  const sql::NameCatalog& FromNames() const { return at_from_; }

 private:
  sql::NameCatalog at_from_;
  sql::RenameMap map_;
};

struct Translation {
  std::string sql;
  std::vector<sql::UnresolvedName> unresolved;  // names that match nothing at `from`; left as written
};

/// The text edge of QueryTranslator: `sql` (one query in `dialect`) parsed, translated, printed in `dialect`.
Result<Translation> Translate(std::string_view sql, const sql::NameCatalog& native, const Crosswalk& crosswalk,
                              Level from, Level to, const sql::Dialect& dialect);

}  // namespace plainsql::naturalness
