// Catalog schema -> resolver names.
#include "catalog/name_catalog.h"

#include <algorithm>

#include "common/strings.h"

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

exec::AccessPolicy AccessPolicyFor(const Schema& schema, const sql::Dialect& dialect) {
  exec::AccessPolicy p;
  p.dialect = &dialect;
  p.functions = exec::DefaultAllowedFunctions(dialect);
  bool postgres = dialect.folding == sql::CaseFolding::kLower;
  std::string fallback = postgres ? "public" : "main";
  p.search_path =
      postgres ? std::vector<std::string>{"pg_catalog", "public"} : std::vector<std::string>{"temp", "main"};
  for (const Table& t : schema.tables) {
    std::string ns = t.schema.empty() ? fallback : t.schema;
    if (std::find(p.search_path.begin(), p.search_path.end(), ns) == p.search_path.end()) p.search_path.push_back(ns);
    p.relations.push_back({ns, t.name, true});
    // A benchmark's PostgreSQL copy is made from unquoted DDL, which folds names to lower case.
    if (postgres && ToLower(t.name) != t.name) p.relations.push_back({ns, ToLower(t.name), true});
  }
  return p;
}

}  // namespace plainsql::catalog
