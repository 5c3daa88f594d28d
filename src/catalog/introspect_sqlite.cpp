// SQLite introspection: four catalog queries over the pragma table-valued functions, whatever the table count,
// then one count and one sampling query per table.
#include <sys/stat.h>

#include <fmt/format.h>
#include <algorithm>
#include <map>

#include "catalog/introspect.h"
#include "common/hash.h"
#include "common/strings.h"
#include "sql/dialect.h"

namespace plainsql::catalog {

namespace {

// Tables and views, in creation order; shadow tables of virtual tables and SQLite's internal tables are skipped.
constexpr const char* kTablesSql =
    "SELECT m.name, m.type, m.sql FROM sqlite_schema m JOIN pragma_table_list tl ON tl.name = m.name AND tl.schema = "
    "'main' "
    "WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND tl.type <> 'shadow' "
    "ORDER BY m.rowid";

// hidden: 0 normal, 1 hidden column of a virtual table (skipped), 2 and 3 generated columns.
constexpr const char* kColumnsSql =
    "SELECT m.name, p.name, p.type, p.\"notnull\", p.dflt_value, p.pk, p.hidden "
    "FROM sqlite_schema m JOIN pragma_table_xinfo(m.name) p "
    "WHERE m.type IN ('table', 'view') AND p.hidden <> 1 ORDER BY m.rowid, p.cid";

constexpr const char* kForeignKeysSql =
    "SELECT m.name, f.id, f.seq, f.\"table\", f.\"from\", f.\"to\" "
    "FROM sqlite_schema m JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table' "
    "ORDER BY m.rowid, f.id DESC, f.seq";

// Unique constraints and unique indexes on plain columns (expression and partial indexes are not keys).
constexpr const char* kUniqueSql =
    "SELECT m.name, il.name, ii.seqno, ii.name, il.partial "
    "FROM sqlite_schema m JOIN pragma_index_list(m.name) il JOIN pragma_index_info(il.name) ii "
    "WHERE m.type = 'table' AND il.\"unique\" = 1 AND il.origin <> 'pk' ORDER BY m.rowid, il.seq, ii.seqno";

// A companion database's views declare no keys; the native ones (primary, foreign, unique keys and NOT NULL columns),
// under the views' names, are stored beside them (views::ViewKeys; the kinds as views::ViewKeyKindName writes them). A
// companion made before plainsql stored them has none to add.
Status AddCompanionKeys(exec::Connection& conn, const IntrospectOptions& options,
                        const std::map<std::string, size_t>& index, Schema& schema) {
  auto has = conn.QueryInternal("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'plainsql_keys'",
                                options.limits);
  if (!has) return has.error();
  if (has->rows.at(0).at(0).as_integer() == 0) return Status::Ok();
  auto rows = conn.QueryInternal(
      "SELECT key_no, view, kind, column_name, ref_view, ref_column FROM plainsql_keys ORDER BY key_no, position",
      options.limits);
  if (!rows) return rows.error();
  int64_t current = -1;
  Table* table = nullptr;
  std::string kind;
  std::vector<std::string>* columns = nullptr;  // the key being read: its columns
  std::vector<std::string>* refs = nullptr;     // a foreign key's referenced columns
  for (const auto& row : rows->rows) {
    const int64_t key_no = row[0].as_integer();
    if (key_no != current) {
      current = key_no;
      auto it = index.find(row[1].ToStringOrEmpty());
      table = it == index.end() ? nullptr : &schema.tables[it->second];
      kind = row[2].ToStringOrEmpty();
      columns = refs = nullptr;
      if (table && kind == "foreign") {
        table->foreign_keys.emplace_back();
        table->foreign_keys.back().ref_table = row[4].ToStringOrEmpty();
        columns = &table->foreign_keys.back().columns;
        refs = &table->foreign_keys.back().ref_columns;
      } else if (table && kind == "unique") {
        table->unique_keys.emplace_back();
        columns = &table->unique_keys.back().columns;
      } else if (table && kind == "primary") {
        table->primary_key.clear();
        columns = &table->primary_key;
      }
    }
    if (!table) continue;
    const std::string column = row[3].ToStringOrEmpty();
    if (kind == "not_null") {
      for (Column& c : table->columns) {
        if (c.name == column) c.nullable = false;
      }
      continue;
    }
    if (columns) columns->push_back(column);
    if (refs) refs->push_back(row[5].ToStringOrEmpty());
  }
  return Status::Ok();
}

}  // namespace

Result<Schema> IntrospectSqlite(exec::Connection& conn, const IntrospectOptions& options,
                                std::vector<std::string>* warnings) {
  Schema schema;
  schema.database = conn.database_name();
  schema.source = "sqlite";
  schema.namespaces = {"main"};
  std::map<std::string, size_t> index;  // table name -> position in schema.tables

  // A companion database (see exec::OpenSqlite) shows its natural views, which are TEMP views over the attached
  // original; its own bookkeeping tables are not part of the schema.
  auto companion = conn.QueryInternal(
      "SELECT count(*) FROM sqlite_schema s, pragma_database_list d WHERE s.type = 'table' AND "
      "s.name = 'plainsql_companion' AND d.name = 'native'",
      options.limits);
  if (!companion) return companion.error();
  bool is_companion = companion->rows.at(0).at(0).as_integer() > 0;
  auto catalog_sql = [&](const char* sql) {
    std::string out = sql;
    if (is_companion) {
      out = ReplaceAll(out, "sqlite_schema", "sqlite_temp_schema");
      out = ReplaceAll(out, "tl.schema = 'main'", "tl.schema = 'temp'");
    }
    return out;
  };

  auto tables = conn.QueryInternal(catalog_sql(kTablesSql), options.limits);
  if (!tables) return tables.error();
  for (const auto& row : tables->rows) {
    Table t;
    t.name = row[0].ToStringOrEmpty();
    t.kind = row[1].ToStringOrEmpty() == "view" ? TableKind::kView : TableKind::kTable;
    if (t.kind == TableKind::kView) t.definition = row[2].ToStringOrEmpty();
    index[t.name] = schema.tables.size();
    schema.tables.push_back(std::move(t));
  }

  auto columns = conn.QueryInternal(catalog_sql(kColumnsSql), options.limits);
  if (!columns) return columns.error();
  std::map<std::string, std::vector<std::pair<int64_t, std::string>>> pk_parts;
  for (const auto& row : columns->rows) {
    auto it = index.find(row[0].ToStringOrEmpty());
    if (it == index.end()) continue;
    Table& t = schema.tables[it->second];
    Column c;
    c.name = row[1].ToStringOrEmpty();
    c.type = row[2].ToStringOrEmpty();
    c.type_class = ClassifyType(c.type);
    c.nullable = row[3].is_null() || row[3].as_integer() == 0;
    if (!row[4].is_null()) c.default_value = row[4].ToStringOrEmpty();
    if (!row[5].is_null() && row[5].as_integer() > 0) pk_parts[t.name].emplace_back(row[5].as_integer(), c.name);
    t.columns.push_back(std::move(c));
  }
  for (auto& [name, parts] : pk_parts) {
    Table& t = schema.tables[index[name]];
    std::sort(parts.begin(), parts.end());
    for (auto& [pos, col] : parts) t.primary_key.push_back(col);
    // An INTEGER PRIMARY KEY is the rowid and can never be NULL, though the pragma reports it nullable.
    if (parts.size() == 1) {
      for (Column& c : t.columns) {
        if (c.name == t.primary_key[0] && EqualsIgnoreCase(c.type, "INTEGER")) c.nullable = false;
      }
    }
  }

  auto fks = conn.QueryInternal(catalog_sql(kForeignKeysSql), options.limits);
  if (!fks) return fks.error();
  std::map<std::pair<std::string, int64_t>, ForeignKey> by_id;
  std::vector<std::pair<std::string, int64_t>> order;
  for (const auto& row : fks->rows) {
    auto key = std::make_pair(row[0].ToStringOrEmpty(), row[1].as_integer());
    auto [it, inserted] = by_id.try_emplace(key);
    if (inserted) order.push_back(key);
    it->second.ref_table = row[3].ToStringOrEmpty();
    it->second.columns.push_back(row[4].ToStringOrEmpty());
    it->second.ref_columns.push_back(
        row[5].ToStringOrEmpty());  // "" when the key references the primary key implicitly
  }
  for (const auto& key : order) {
    ForeignKey fk = std::move(by_id[key]);
    // REFERENCES t without columns means t's primary key; resolve it so consumers always see columns.
    if (std::all_of(fk.ref_columns.begin(), fk.ref_columns.end(), [](auto& s) { return s.empty(); })) {
      if (const Table* ref = schema.FindTable(fk.ref_table); ref && ref->primary_key.size() == fk.columns.size()) {
        fk.ref_columns = ref->primary_key;
      }
    }
    schema.tables[index[key.first]].foreign_keys.push_back(std::move(fk));
  }

  auto uniques = conn.QueryInternal(catalog_sql(kUniqueSql), options.limits);
  if (!uniques) return uniques.error();
  std::map<std::pair<std::string, std::string>, std::pair<UniqueKey, bool>> ukeys;  // -> key, usable
  std::vector<std::pair<std::string, std::string>> uorder;
  for (const auto& row : uniques->rows) {
    auto key = std::make_pair(row[0].ToStringOrEmpty(), row[1].ToStringOrEmpty());
    auto [it, inserted] = ukeys.try_emplace(key, UniqueKey{key.second, {}}, true);
    if (inserted) uorder.push_back(key);
    if (row[3].is_null() || row[4].as_integer() != 0)
      it->second.second = false;  // expression or partial index
    else
      it->second.first.columns.push_back(row[3].ToStringOrEmpty());
  }
  for (const auto& key : uorder) {
    auto& [uk, usable] = ukeys[key];
    if (!usable) continue;
    // SQLite names constraint-backed indexes sqlite_autoindex_<table>_<n>; such a name means nothing to a user.
    if (uk.name.starts_with("sqlite_autoindex_")) uk.name.clear();
    schema.tables[index[key.first]].unique_keys.push_back(std::move(uk));
  }

  if (is_companion) {
    if (auto st = AddCompanionKeys(conn, options, index, schema); !st) return st.error();
  }
  CollectCountsAndSamples(conn, options, schema, warnings, /*count_views=*/is_companion);
  return schema;
}

Result<std::string> SqliteCatalogDigest(exec::Connection& conn, const IntrospectOptions& options) {
  auto rs = conn.QueryInternal(
      "SELECT (SELECT group_concat(type || char(31) || name || char(31) || coalesce(sql, ''), char(30)) "
      "FROM (SELECT * FROM sqlite_schema ORDER BY rowid)), "
      "(SELECT group_concat(type || char(31) || name || char(31) || coalesce(sql, ''), char(30)) "
      "FROM (SELECT * FROM sqlite_temp_schema ORDER BY rowid)), "
      "(SELECT group_concat(file, char(30)) FROM pragma_database_list WHERE name <> 'temp')",
      options.limits);
  if (!rs) return rs.error();
  Hasher h;
  h.Update(rs->rows.at(0).at(0).ToStringOrEmpty());
  h.Update(rs->rows.at(0).at(1).ToStringOrEmpty());  // a companion's views
  // Any write changes the file's size or modification time (or those of its write-ahead log); a companion database
  // also depends on its attached original.
  for (const std::string& file : Split(rs->rows.at(0).at(2).ToStringOrEmpty(), '\x1e')) {
    for (const std::string& f : {file, file + "-wal"}) {
      struct stat st {};
      if (!file.empty() && ::stat(f.c_str(), &st) == 0) {
        h.Update(static_cast<int64_t>(st.st_size));
        h.Update(static_cast<int64_t>(st.st_mtim.tv_sec));
        h.Update(static_cast<int64_t>(st.st_mtim.tv_nsec));
      }
    }
  }
  return h.HexDigest();
}

}  // namespace plainsql::catalog
