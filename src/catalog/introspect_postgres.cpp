// PostgreSQL introspection: four bulk catalog queries (relations, columns, keys from indexes, foreign keys), so the
// cost does not grow with round trips per table; then counts (planner estimates when analyzed) and samples.
#include <fmt/format.h>

#include <map>

#include "catalog/introspect.h"
#include "common/strings.h"

namespace plainsql::catalog {

namespace {

// $1 is the schema filter ("" = all user schemas). Partitions are skipped: their parent stands for them.
constexpr const char* kRelationFilter =
    "c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition "
    "AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%' "
    "AND n.nspname NOT LIKE 'pg\\_temp\\_%' AND ($1 = '' OR n.nspname = $1) "
    // Only what the connected role may read: a relation it cannot query is no part of the schema it asks about.
    "AND pg_catalog.has_schema_privilege(n.oid, 'USAGE') AND pg_catalog.has_any_column_privilege(c.oid, 'SELECT')";

std::string RelationsSql() {
  return fmt::format(
      "SELECT c.oid::bigint, n.nspname, c.relname, c.relkind::text, obj_description(c.oid, 'pg_class'), "
      "c.reltuples::bigint, CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid) END "
      "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE {} "
      "ORDER BY n.nspname, c.relname",
      kRelationFilter);
}

std::string ColumnsSql() {
  return fmt::format(
      "SELECT c.oid::bigint, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, "
      "pg_get_expr(d.adbin, d.adrelid), col_description(c.oid, a.attnum) "
      "FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
      "LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
      "WHERE a.attnum > 0 AND NOT a.attisdropped AND {} ORDER BY c.oid, a.attnum",
      kRelationFilter);
}

// Primary keys and unique keys from unique indexes on plain columns (constraint-backed or not), key columns only.
std::string KeysSql() {
  return fmt::format(
      "SELECT c.oid::bigint, i.indisprimary, ic.relname, k.ord, a.attname, "
      "(i.indpred IS NULL AND i.indexprs IS NULL) "
      "FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
      "JOIN pg_class ic ON ic.oid = i.indexrelid "
      "CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord) "
      "LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum "
      "WHERE i.indisunique AND k.ord <= i.indnkeyatts AND {} ORDER BY c.oid, i.indisprimary DESC, ic.relname, k.ord",
      kRelationFilter);
}

std::string ForeignKeysSql() {
  return fmt::format(
      "SELECT c.oid::bigint, con.conname, k.ord, a.attname, fn.nspname, fc.relname, fa.attname, n.nspname "
      "FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
      "CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord) "
      "JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum "
      "JOIN pg_class fc ON fc.oid = con.confrelid JOIN pg_namespace fn ON fn.oid = fc.relnamespace "
      "JOIN pg_attribute fa ON fa.attrelid = con.confrelid AND fa.attnum = con.confkey[k.ord] "
      "WHERE con.contype = 'f' AND {} ORDER BY c.oid, con.conname, k.ord",
      kRelationFilter);
}

}  // namespace

Result<Schema> IntrospectPostgres(exec::Connection& conn, const IntrospectOptions& options,
                                  std::vector<std::string>* warnings) {
  const std::vector<exec::Value> params = {exec::Value::Text(options.schema_filter)};
  Schema schema;
  schema.database = conn.database_name();
  schema.source = "postgres";
  std::map<int64_t, size_t> index;      // relation oid -> position in schema.tables
  std::map<int64_t, int64_t> estimate;  // relation oid -> reltuples (-1: never analyzed)

  if (!options.schema_filter.empty()) {
    auto ns = conn.QueryInternal("SELECT 1 FROM pg_namespace WHERE nspname = $1", options.limits, params);
    if (!ns) return ns.error();
    if (ns->rows.empty()) {
      return MakeError(ErrorCode::kNotFound, fmt::format("no schema named \"{}\" in database {}", options.schema_filter,
                                                         conn.database_name()));
    }
  }

  auto rels = conn.QueryInternal(RelationsSql(), options.limits, params);
  if (!rels) return rels.error();
  for (const auto& row : rels->rows) {
    Table t;
    int64_t oid = row[0].as_integer();
    t.schema = row[1].ToStringOrEmpty();
    t.name = row[2].ToStringOrEmpty();
    std::string kind = row[3].ToStringOrEmpty();
    t.kind = (kind == "v" || kind == "m") ? TableKind::kView : TableKind::kTable;
    t.comment = row[4].ToStringOrEmpty();
    t.definition = row[6].ToStringOrEmpty();
    estimate[oid] = row[5].as_integer();
    if (schema.namespaces.empty() || schema.namespaces.back() != t.schema) schema.namespaces.push_back(t.schema);
    index[oid] = schema.tables.size();
    schema.tables.push_back(std::move(t));
  }
  if (!options.schema_filter.empty() && schema.namespaces.empty()) schema.namespaces.push_back(options.schema_filter);

  auto cols = conn.QueryInternal(ColumnsSql(), options.limits, params);
  if (!cols) return cols.error();
  for (const auto& row : cols->rows) {
    auto it = index.find(row[0].as_integer());
    if (it == index.end()) continue;
    Column c;
    c.name = row[1].ToStringOrEmpty();
    c.type = row[2].ToStringOrEmpty();
    c.type_class = ClassifyType(c.type);
    c.nullable = row[3].as_integer() == 0;
    if (!row[4].is_null()) c.default_value = row[4].ToStringOrEmpty();
    c.comment = row[5].ToStringOrEmpty();
    schema.tables[it->second].columns.push_back(std::move(c));
  }

  auto keys = conn.QueryInternal(KeysSql(), options.limits, params);
  if (!keys) return keys.error();
  {
    // Rows come grouped by (table, index); an index with an expression column (attname NULL) or a predicate is
    // not a key over columns and is dropped.
    int64_t cur_oid = -1;
    std::string cur_index;
    bool primary = false, usable = true;
    UniqueKey uk;
    auto flush = [&] {
      if (cur_oid < 0 || !usable || uk.columns.empty()) return;
      Table& t = schema.tables[index[cur_oid]];
      if (primary)
        t.primary_key = uk.columns;
      else
        t.unique_keys.push_back(uk);
    };
    for (const auto& row : keys->rows) {
      int64_t oid = row[0].as_integer();
      std::string iname = row[2].ToStringOrEmpty();
      if (oid != cur_oid || iname != cur_index) {
        flush();
        cur_oid = oid;
        cur_index = iname;
        primary = row[1].as_integer() != 0;
        usable = row[5].as_integer() != 0;
        uk = UniqueKey{iname, {}};
      }
      if (row[4].is_null())
        usable = false;
      else
        uk.columns.push_back(row[4].ToStringOrEmpty());
    }
    flush();
  }

  auto fks = conn.QueryInternal(ForeignKeysSql(), options.limits, params);
  if (!fks) return fks.error();
  {
    int64_t cur_oid = -1;
    ForeignKey fk;
    auto flush = [&] {
      if (cur_oid >= 0 && !fk.columns.empty()) schema.tables[index[cur_oid]].foreign_keys.push_back(fk);
    };
    for (const auto& row : fks->rows) {
      int64_t oid = row[0].as_integer();
      std::string name = row[1].ToStringOrEmpty();
      if (oid != cur_oid || name != fk.name) {
        flush();
        cur_oid = oid;
        fk = ForeignKey{};
        fk.name = name;
        fk.ref_table = row[5].ToStringOrEmpty();
        // The referenced table's namespace is spelled out only when it differs from the referencing table's.
        if (row[4].ToStringOrEmpty() != row[7].ToStringOrEmpty()) fk.ref_schema = row[4].ToStringOrEmpty();
      }
      fk.columns.push_back(row[3].ToStringOrEmpty());
      fk.ref_columns.push_back(row[6].ToStringOrEmpty());
    }
    flush();
  }

  // Planner estimates stand in for counts once a table has been analyzed (exact counts on big tables cost a scan).
  for (auto& [oid, pos] : index) {
    Table& t = schema.tables[pos];
    if (t.kind == TableKind::kTable && estimate[oid] >= 0) {
      t.row_count = estimate[oid];
      t.row_count_estimated = true;
    }
  }
  CollectCountsAndSamples(conn, options, schema, warnings);
  return schema;
}

Result<std::string> PostgresCatalogDigest(exec::Connection& conn, const IntrospectOptions& options) {
  // Structure: every relation, column, default, index, constraint and comment in scope, hashed server-side so a
  // cache check is one round trip. Data: the tuple counters of the statistics system.
  std::string sql = fmt::format(
      "WITH rel AS (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE {}) "
      "SELECT md5(concat_ws('|', "
      " (SELECT string_agg(concat_ws(',', n.nspname, c.relname, c.relkind, c.oid), ';' ORDER BY c.oid) "
      "  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid IN (SELECT oid FROM rel)), "
      " (SELECT string_agg(concat_ws(',', a.attrelid, a.attnum, a.attname, a.atttypid, a.atttypmod, a.attnotnull, "
      "   a.attisdropped), ';' ORDER BY a.attrelid, a.attnum) FROM pg_attribute a "
      "   WHERE a.attrelid IN (SELECT oid FROM rel) AND a.attnum > 0), "
      " (SELECT string_agg(concat_ws(',', d.adrelid, d.adnum, pg_get_expr(d.adbin, d.adrelid)), ';' "
      "   ORDER BY d.adrelid, d.adnum) FROM pg_attrdef d WHERE d.adrelid IN (SELECT oid FROM rel)), "
      " (SELECT string_agg(concat_ws(',', i.indexrelid, i.indrelid, i.indkey, i.indisunique, i.indisprimary), ';' "
      "   ORDER BY i.indexrelid) FROM pg_index i WHERE i.indrelid IN (SELECT oid FROM rel)), "
      " (SELECT string_agg(concat_ws(',', co.oid, co.conname, co.conkey, co.confrelid, co.confkey), ';' "
      "   ORDER BY co.oid) FROM pg_constraint co WHERE co.conrelid IN (SELECT oid FROM rel)), "
      " (SELECT string_agg(concat_ws(',', de.objoid, de.objsubid, de.description), ';' "
      "   ORDER BY de.objoid, de.objsubid) FROM pg_description de WHERE de.objoid IN (SELECT oid FROM rel)), "
      " (SELECT concat_ws(',', sum(s.n_tup_ins), sum(s.n_tup_upd), sum(s.n_tup_del), sum(s.n_live_tup)) "
      "   FROM pg_stat_user_tables s WHERE s.relid IN (SELECT oid FROM rel)), "
      " (SELECT string_agg(concat_ws(',', c.oid, c.reltuples), ';' ORDER BY c.oid) FROM pg_class c "
      "   WHERE c.oid IN (SELECT oid FROM rel)) "
      "))",
      kRelationFilter);
  auto rs = conn.QueryInternal(sql, options.limits, {exec::Value::Text(options.schema_filter)});
  if (!rs) return rs.error();
  return rs->rows.at(0).at(0).ToString();
}

}  // namespace plainsql::catalog
