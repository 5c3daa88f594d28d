#include "catalog/view_sources.h"

#include <string_view>

#include "catalog/name_catalog.h"
#include "sql/parser.h"
#include "sql/resolver.h"
#include "sql/token.h"

namespace plainsql::catalog {
namespace {

// The query of a view's definition: what follows the AS of "CREATE VIEW name [(columns)] AS" (SQLite reports the whole
// statement), or the definition itself when it is a query already (PostgreSQL's pg_get_viewdef).
std::string_view QueryOf(std::string_view definition, const sql::Dialect& dialect) {
  auto tokens = sql::Tokenize(definition, dialect);
  if (!tokens || tokens->empty() || !tokens->front().IsWord("CREATE")) return definition;
  int depth = 0;
  for (size_t i = 1; i + 1 < tokens->size(); ++i) {
    const sql::Token& t = (*tokens)[i];
    if (t.IsOp("(")) ++depth;
    if (t.IsOp(")")) --depth;
    if (depth == 0 && t.IsWord("AS")) return definition.substr((*tokens)[i + 1].offset);
  }
  return {};
}

}  // namespace

ViewSourceMap ViewSources(const Schema& schema) {
  ViewSourceMap out;
  const sql::Dialect& dialect = schema.source == "postgres" ? sql::Postgres() : sql::Sqlite();
  sql::NameCatalog names;
  for (const Table& view : schema.tables) {
    if (view.kind != TableKind::kView || view.definition.empty()) continue;
    const std::string_view text = QueryOf(view.definition, dialect);
    auto query = sql::ParseQuery(text, dialect);
    if (!query || query->body.kind != sql::QueryBodyKind::kSelect) continue;
    if (names.tables.empty()) names = ToNameCatalog(schema);
    const sql::Resolution resolution = sql::Resolve(*query, names, dialect);
    const auto& items = query->body.select.items;
    // The view's columns are its select list's, in order; a star makes the positions unknowable here.
    if (items.size() != view.columns.size()) continue;
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].expr.kind != sql::ExprKind::kColumn) continue;
      auto it = resolution.column_at.find(items[i].expr.offset);
      if (it == resolution.column_at.end() || it->second.first == view.name) continue;
      out[{view.name, view.columns[i].name}] = it->second;
    }
  }
  return out;
}

}  // namespace plainsql::catalog
