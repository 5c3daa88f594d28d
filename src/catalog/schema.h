// The schema model: what plainsql knows about a database's structure, exactly as the database names it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plainsql::catalog {

/// Coarse class of a column's declared type, the same across engines.
enum class TypeClass { kText, kNumeric, kDatetime, kBoolean, kOther };

std::string_view TypeClassName(TypeClass t);
std::optional<TypeClass> TypeClassFromName(std::string_view name);
/// Classifies a declared type ("VARCHAR(20)", "int8", "timestamp with time zone", "number" from Spider, ...).
TypeClass ClassifyType(std::string_view declared_type);

struct Column {
  std::string name;  // exact name, case and spaces kept
  std::string type;  // declared type as the database reports it ("" if none)
  TypeClass type_class = TypeClass::kOther;
  bool nullable = true;
  std::optional<std::string> default_value;  // the default expression's text
  std::string comment;                       // COMMENT ON COLUMN, or a description from a benchmark schema file
  std::string label;                         // a readable name from a benchmark's schema file (Spider "column_names")
  std::vector<std::string> samples;          // distinct non-null values seen, as text, at most the requested number
  /// Other readings of a cryptic name a crosswalk carries (CrosswalkEntry::alternatives) when the schema is shown
  /// under its names: the linker matches questions against them too. Never the database's, never stored.
  std::vector<std::string> aliases;
  bool operator==(const Column&) const = default;
};

struct ForeignKey {
  std::string name;                  // constraint name, "" if unnamed
  std::vector<std::string> columns;  // referencing columns, in key order
  std::string ref_schema;            // "" for the same namespace as the referencing table
  std::string ref_table;
  std::vector<std::string> ref_columns;  // referenced columns, same length as `columns`
  bool inferred = false;                 // not declared: inferred from names and data (linking/infer_keys.h)
  bool operator==(const ForeignKey&) const = default;
};

struct UniqueKey {
  std::string name;
  std::vector<std::string> columns;
  bool operator==(const UniqueKey&) const = default;
};

enum class TableKind { kTable, kView };

struct Table {
  std::string schema;  // namespace ("" for SQLite and benchmark schemas)
  std::string name;
  TableKind kind = TableKind::kTable;
  std::string comment;
  std::vector<Column> columns;
  std::vector<std::string> primary_key;  // column names in key order; empty if none
  bool primary_key_inferred = false;     // not declared: inferred from names and data (linking/infer_keys.h)
  std::vector<ForeignKey> foreign_keys;
  std::vector<UniqueKey> unique_keys;
  std::optional<int64_t> row_count;  // exact on SQLite; on PostgreSQL the planner's estimate once analyzed
  bool row_count_estimated = false;
  std::vector<std::string> aliases;  // as Column::aliases
  /// A view's query as the database reports it (SQLite: its CREATE VIEW statement; PostgreSQL: pg_get_viewdef); ""
  /// for a table. What its columns read: ViewSources (catalog/view_sources.h).
  std::string definition;

  const Column* FindColumn(std::string_view column_name) const;  // exact match first, then case-insensitive
  bool operator==(const Table&) const = default;
};

struct Schema {
  std::string database;                 // database name (file stem, PostgreSQL database, benchmark db_id)
  std::string source;                   // "sqlite", "postgres", "spider" (tables.json), "json"
  std::vector<std::string> namespaces;  // schemas that were read ("main" for SQLite)
  std::vector<Table> tables;            // ordered by (schema, name) as introspected

  const Table* FindTable(std::string_view table_name, std::string_view schema_name = {}) const;
  size_t ColumnCount() const;
  bool operator==(const Schema&) const = default;
};

/// Hash of the structure only (names, types, nullability, defaults, keys, comments, aliases), not of row counts or
/// samples: two databases with the same fingerprint have the same schema. 32 hex digits.
std::string StructuralFingerprint(const Schema& schema);

/// "schema.table" when the schema has more than one namespace, else "table".
std::string DisplayName(const Schema& schema, const Table& table);

}  // namespace plainsql::catalog
