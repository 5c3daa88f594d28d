// Catalog schema -> resolver names.
#include "catalog/name_catalog.h"

namespace plainsql::catalog {

sql::NameCatalog ToNameCatalog(const Schema& schema) {
  sql::NameCatalog out;
  out.tables.reserve(schema.tables.size());
  for (const Table& t : schema.tables) {
    sql::CatalogTable ct;
    ct.schema = schema.namespaces.size() > 1 ? t.schema : "";
    ct.name = t.name;
    ct.columns.reserve(t.columns.size());
    for (const Column& c : t.columns) ct.columns.push_back(c.name);
    out.tables.push_back(std::move(ct));
  }
  return out;
}

}  // namespace plainsql::catalog
