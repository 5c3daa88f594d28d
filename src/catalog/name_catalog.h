// The names of a catalog schema in the form the SQL resolver reads (sql::NameCatalog).
#pragma once

#include "catalog/schema.h"
#include "sql/resolver.h"

namespace plainsql::catalog {

sql::NameCatalog ToNameCatalog(const Schema& schema);

}  // namespace plainsql::catalog
