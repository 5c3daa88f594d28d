// Natural names without views (see translate_query.h).
#include "naturalness/translate_query.h"

#include <optional>
#include <set>

#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/rewrite/walk.h"

namespace plainsql::naturalness {

catalog::Schema NaturalSchema(const catalog::Schema& native, const Crosswalk& cw, Level level) {
  catalog::Schema out = native;
  if (level == Level::kNative) return out;
  for (auto& t : out.tables) {
    const std::string native_table = t.name;
    auto column = [&](const std::string& table, const std::string& c) { return cw.ColumnName(table, c, level); };
    // At N1, a crosswalk's other readings of a name go with it (rename writes them for N1 only).
    auto aliases = [level](const CrosswalkEntry* e) {
      return e && level == Level::kRegular ? e->alternatives : std::vector<std::string>{};
    };
    const CrosswalkEntry* te = cw.TableEntry(native_table, level);
    t.aliases = aliases(te);
    if (te) t.name = te->At(level);
    for (auto& c : t.columns) {
      const CrosswalkEntry* ce = cw.ColumnEntry(native_table, c.name, level);
      c.aliases = aliases(ce);
      if (ce) c.name = ce->At(level);
    }
    for (auto& k : t.primary_key) k = column(native_table, k);
    for (auto& u : t.unique_keys) {
      for (auto& k : u.columns) k = column(native_table, k);
    }
    for (auto& fk : t.foreign_keys) {
      for (auto& k : fk.columns) k = column(native_table, k);
      for (auto& k : fk.ref_columns) k = column(fk.ref_table, k);
      fk.ref_table = cw.TableName(fk.ref_table, level);
    }
  }
  return out;
}

QueryTranslator::QueryTranslator(const sql::NameCatalog& native, const Crosswalk& cw, Level from, Level to)
    : at_from_(from == Level::kNative ? native : NaturalCatalog(native, cw, from)) {
  for (size_t i = 0; i < native.tables.size(); ++i) {
    const auto& t = native.tables[i];
    const auto& ft = at_from_.tables[i];
    map_.tables[ft.name] = to == Level::kNative ? t.name : cw.TableName(t.name, to);
    for (size_t k = 0; k < t.columns.size(); ++k) {
      map_.columns[{ft.name, ft.columns[k]}] =
          to == Level::kNative ? t.columns[k] : cw.ColumnName(t.name, t.columns[k], to);
    }
  }
}

namespace {

// Whether every table and column name of `query` has its own source offset (a parsed query's do).
bool OffsetsDistinct(const sql::Query& query) {
  sql::Query copy = query;  // the walker visits trees it may change
  std::set<uint32_t> seen;
  bool distinct = true;
  sql::Walker w;
  w.on_expr = [&](sql::Expr& e) {
    if (e.kind == sql::ExprKind::kColumn) distinct &= seen.insert(e.offset).second;
  };
  w.on_table = [&](sql::TableRef& t) {
    if (t.kind == sql::TableRefKind::kTable && !t.name.parts.empty())
      distinct &= seen.insert(t.name.last().offset).second;
  };
  sql::Walk(copy, w);
  return distinct;
}

}  // namespace

sql::Query QueryTranslator::Apply(const sql::Query& query, const sql::Dialect& dialect,
                                  std::vector<sql::UnresolvedName>* unresolved) const {
  // The resolver binds names by their offsets in the source text. A tree built by code (the built-in translator's)
  // has none: every name at offset 0, so one binding would rename them all. Printed and parsed again, it has them.
  std::optional<sql::Query> reparsed;
  if (!OffsetsDistinct(query)) {
    if (auto again = sql::ParseQuery(sql::Print(query, dialect), dialect)) reparsed = std::move(*again);
  }
  const sql::Query& q = reparsed ? *reparsed : query;
  sql::Resolution r = sql::Resolve(q, at_from_, dialect);
  sql::Query renamed = sql::RenameIdentifiers(q, r, map_);
  if (unresolved) *unresolved = std::move(r.unresolved);
  return renamed;
}

Result<Translation> Translate(std::string_view sql_text, const sql::NameCatalog& native, const Crosswalk& cw,
                              Level from, Level to, const sql::Dialect& dialect) {
  auto parsed = sql::ParseQuery(sql_text, dialect);
  if (!parsed) return parsed.error();
  Translation out;
  out.sql = sql::Print(QueryTranslator(native, cw, from, to).Apply(*parsed, dialect, &out.unresolved), dialect);
  return out;
}

}  // namespace plainsql::naturalness
