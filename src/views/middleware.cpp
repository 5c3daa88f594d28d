// Natural names without views (see middleware.h).
#include "views/middleware.h"

#include "common/strings.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/rewrite/rename.h"

namespace plainsql::views {

using naturalness::Level;

catalog::Schema NaturalSchema(const catalog::Schema& native, const naturalness::Crosswalk& cw, Level level) {
  catalog::Schema out = native;
  if (level == Level::kNative) return out;
  for (auto& t : out.tables) {
    const std::string native_table = t.name;
    auto column = [&](const std::string& table, const std::string& c) { return cw.ColumnName(table, c, level); };
    t.name = cw.TableName(native_table, level);
    for (auto& c : t.columns) c.name = column(native_table, c.name);
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

Result<Translation> Translate(std::string_view sql_text, const sql::NameCatalog& native,
                              const naturalness::Crosswalk& cw, Level from, Level to, const sql::Dialect& dialect) {
  auto parsed = sql::ParseQuery(sql_text, dialect);
  if (!parsed) return parsed.error();
  sql::NameCatalog at_from = from == Level::kNative ? native : naturalness::NaturalCatalog(native, cw, from);
  sql::RenameMap map;
  for (size_t i = 0; i < native.tables.size(); ++i) {
    const auto& t = native.tables[i];
    const auto& ft = at_from.tables[i];
    std::string to_table = to == Level::kNative ? t.name : cw.TableName(t.name, to);
    map.tables[ft.name] = to_table;
    for (size_t k = 0; k < t.columns.size(); ++k) {
      map.columns[{ft.name, ft.columns[k]}] =
          to == Level::kNative ? t.columns[k] : cw.ColumnName(t.name, t.columns[k], to);
    }
  }
  sql::Resolution r = sql::Resolve(*parsed, at_from, dialect);
  Translation out;
  out.sql = sql::Print(sql::RenameIdentifiers(*parsed, r, map), dialect);
  out.unresolved = std::move(r.unresolved);
  return out;
}

}  // namespace plainsql::views
