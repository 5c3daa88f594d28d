// A schema restricted to a subset (issue #18): what a system sees when it is given a schema subset instead of the whole
// schema (`eval run --subset`, `ask --slice link`), and what `eval subsets` counts the tokens of. The subset's tables
// are kept with only their kept columns, plus the key columns that keep joins between kept tables possible.
#pragma once

#include <string>
#include <vector>

#include "catalog/schema.h"

namespace plainsql::catalog {

struct RestrictedSchema {
  Schema schema;
  std::vector<std::string> unknown;  // subset entries the schema does not have (ignored)
  size_t key_columns_added = 0;      // columns kept only because joins need them
};

/// Restricts `schema` to `subset`: entries name tables ("t"), columns ("t.c", which keeps t too) or every column of a
/// table ("t.*"), case-insensitively. Each kept table keeps, besides its kept columns, its primary key, its foreign-key
/// columns to other kept tables and the columns other kept tables' foreign keys reference; a table left with no column
/// at all keeps its first (a table is never shown empty). Foreign keys to tables not kept, and unique keys with a
/// column not kept, are dropped. Tables and columns stay in schema order.
RestrictedSchema RestrictSchema(const Schema& schema, const std::vector<std::string>& subset);

}  // namespace plainsql::catalog
