// Restricting a schema to a subset (see subset_schema.h).
#include "catalog/restrict.h"

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "common/strings.h"

namespace plainsql::catalog {

namespace {

// Kept columns per table index, by lower-case column name.
using Kept = std::map<size_t, std::set<std::string>>;

// The subset's entries resolved against the schema; entries it does not have go to `unknown`. Only the tables are
// indexed: a subset names a few dozen columns of a schema that may have 100,000.
Kept ResolveEntries(const Schema& schema, const std::vector<std::string>& subset, std::vector<std::string>& unknown) {
  std::map<std::string, size_t> tables;
  for (size_t i = 0; i < schema.tables.size(); ++i) tables.emplace(ToLower(schema.tables[i].name), i);
  // "t.c" with t a table and c one of its columns; a table name may itself hold dots, so each split is tried.
  auto column = [&](const std::string& e) -> std::optional<std::pair<size_t, std::string>> {
    for (size_t dot = e.find('.'); dot != std::string::npos; dot = e.find('.', dot + 1)) {
      auto t = tables.find(e.substr(0, dot));
      if (t == tables.end()) continue;
      const std::string name = e.substr(dot + 1);
      for (const auto& c : schema.tables[t->second].columns) {
        if (ToLower(c.name) == name) return std::pair(t->second, name);
      }
    }
    return std::nullopt;
  };
  Kept kept;
  for (const auto& entry : subset) {
    std::string e = ToLower(Trim(entry));
    if (auto t = tables.find(e); t != tables.end()) {
      kept[t->second];
    } else if (auto c = column(e)) {
      kept[c->first].insert(c->second);
    } else if (e.ends_with(".*") && tables.count(e.substr(0, e.size() - 2))) {
      size_t i = tables[e.substr(0, e.size() - 2)];
      for (const auto& col : schema.tables[i].columns) kept[i].insert(ToLower(col.name));
    } else {
      unknown.push_back(entry);
    }
  }
  return kept;
}

// Adds the key columns joins between kept tables need; returns how many were added.
size_t AddKeyColumns(const Schema& schema, Kept& kept) {
  std::map<std::string, size_t> index;
  for (const auto& [i, cols] : kept) index.emplace(ToLower(schema.tables[i].name), i);
  size_t added = 0;
  auto add = [&](size_t table, const std::string& column) { added += kept[table].insert(ToLower(column)).second; };
  for (auto& [i, cols] : kept) {
    const Table& t = schema.tables[i];
    for (const auto& c : t.primary_key) add(i, c);
    for (const auto& fk : t.foreign_keys) {
      auto ref = index.find(ToLower(fk.ref_table));
      if (ref == index.end()) continue;
      for (const auto& c : fk.columns) add(i, c);
      for (const auto& c : fk.ref_columns) add(ref->second, c);
    }
  }
  return added;
}

}  // namespace

RestrictedSchema RestrictSchema(const Schema& schema, const std::vector<std::string>& subset) {
  RestrictedSchema out;
  Kept kept = ResolveEntries(schema, subset, out.unknown);
  out.key_columns_added = AddKeyColumns(schema, kept);
  std::set<std::string> kept_tables;
  for (const auto& [i, cols] : kept) kept_tables.insert(ToLower(schema.tables[i].name));
  out.schema.database = schema.database;  // the schema but its tables (copying those would copy every column)
  out.schema.source = schema.source;
  out.schema.namespaces = schema.namespaces;
  for (const auto& [i, kept_columns] : kept) {
    const std::set<std::string>& cols = kept_columns;  // clang before 16 cannot capture a structured binding
    Table t = schema.tables[i];
    std::erase_if(t.columns, [&](const Column& c) { return !cols.count(ToLower(c.name)); });
    if (t.columns.empty() && !schema.tables[i].columns.empty()) {
      t.columns.push_back(schema.tables[i].columns.front());
      ++out.key_columns_added;
    }
    std::erase_if(t.foreign_keys, [&](const ForeignKey& fk) { return !kept_tables.count(ToLower(fk.ref_table)); });
    std::erase_if(t.unique_keys, [&](const UniqueKey& u) {
      for (const auto& c : u.columns) {
        if (!t.FindColumn(c)) return true;
      }
      return false;
    });
    out.schema.tables.push_back(std::move(t));
  }
  return out;
}

}  // namespace plainsql::catalog
