// Type classes, look-ups and the structural fingerprint of a schema.
#include "catalog/schema.h"

#include "common/hash.h"
#include "common/strings.h"

namespace plainsql::catalog {

std::string_view TypeClassName(TypeClass t) {
  switch (t) {
    case TypeClass::kText: return "text";
    case TypeClass::kNumeric: return "numeric";
    case TypeClass::kDatetime: return "datetime";
    case TypeClass::kBoolean: return "boolean";
    case TypeClass::kOther: return "other";
  }
  return "other";
}

std::optional<TypeClass> TypeClassFromName(std::string_view name) {
  for (TypeClass t :
       {TypeClass::kText, TypeClass::kNumeric, TypeClass::kDatetime, TypeClass::kBoolean, TypeClass::kOther}) {
    if (TypeClassName(t) == name) return t;
  }
  return std::nullopt;
}

TypeClass ClassifyType(std::string_view declared_type) {
  std::string t = ToLower(Trim(declared_type));
  if (auto p = t.find('('); p != std::string::npos) t = std::string(Trim(t.substr(0, p)));
  auto has = [&](std::string_view w) { return t.find(w) != std::string::npos; };
  if (t.empty()) return TypeClass::kOther;
  // Exact names first: benchmark type words and names that the substring rules below would misread.
  if (t == "number" || t == "bit" || t == "money" || t == "smallmoney") return TypeClass::kNumeric;
  if (t == "time" || t == "year" || t == "interval") return TypeClass::kDatetime;
  if (t == "others" || t == "point" || t == "blob" || t == "bytea" || t == "binary" || t == "varbinary")
    return TypeClass::kOther;
  if (has("bool")) return TypeClass::kBoolean;
  if (has("date") || has("time")) return TypeClass::kDatetime;
  if (has("int") || has("real") || has("floa") || has("doub") || has("num") || has("dec") || has("serial"))
    return TypeClass::kNumeric;
  if (has("char") || has("text") || has("clob") || has("string") || has("uuid") || has("json") || has("xml") ||
      has("enum") || t == "name")
    return TypeClass::kText;
  return TypeClass::kOther;
}

const Column* Table::FindColumn(std::string_view column_name) const {
  for (const Column& c : columns) {
    if (c.name == column_name) return &c;
  }
  for (const Column& c : columns) {
    if (EqualsIgnoreCase(c.name, column_name)) return &c;
  }
  return nullptr;
}

const Table* Schema::FindTable(std::string_view table_name, std::string_view schema_name) const {
  auto matches_schema = [&](const Table& t) { return schema_name.empty() || t.schema == schema_name; };
  for (const Table& t : tables) {
    if (matches_schema(t) && t.name == table_name) return &t;
  }
  for (const Table& t : tables) {
    if (matches_schema(t) && EqualsIgnoreCase(t.name, table_name)) return &t;
  }
  return nullptr;
}

size_t Schema::ColumnCount() const {
  size_t n = 0;
  for (const Table& t : tables) n += t.columns.size();
  return n;
}

std::string StructuralFingerprint(const Schema& schema) {
  Hasher h;
  h.Update(static_cast<int64_t>(schema.tables.size()));
  for (const Table& t : schema.tables) {
    h.Update(t.schema);
    h.Update(t.name);
    h.Update(static_cast<int64_t>(t.kind));
    h.Update(t.comment);
    h.Update(static_cast<int64_t>(t.columns.size()));
    for (const Column& c : t.columns) {
      h.Update(c.name);
      h.Update(c.type);
      h.Update(int64_t{c.nullable});
      h.Update(c.default_value.value_or("\x01no default"));
      h.Update(c.comment);
      if (!c.aliases.empty()) h.Update("\x01aliases " + Join(c.aliases, "\x1f"));  // a schema without keeps its hash
    }
    if (!t.aliases.empty()) h.Update("\x01aliases " + Join(t.aliases, "\x1f"));
    if (!t.definition.empty()) h.Update(std::string("\x01") + "definition " + t.definition);
    h.Update(Join(t.primary_key, "\x1f"));
    h.Update(static_cast<int64_t>(t.foreign_keys.size()));
    for (const ForeignKey& fk : t.foreign_keys) {
      h.Update(Join(fk.columns, "\x1f"));
      h.Update(fk.ref_schema);
      h.Update(fk.ref_table);
      h.Update(Join(fk.ref_columns, "\x1f"));
    }
    h.Update(static_cast<int64_t>(t.unique_keys.size()));
    for (const UniqueKey& u : t.unique_keys) h.Update(Join(u.columns, "\x1f"));
  }
  return h.HexDigest();
}

std::string DisplayName(const Schema& schema, const Table& table) {
  if (schema.namespaces.size() > 1 && !table.schema.empty()) return table.schema + "." + table.name;
  return table.name;
}

}  // namespace plainsql::catalog
