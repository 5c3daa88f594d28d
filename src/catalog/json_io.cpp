// JSON (de)serialisation of the schema model, with clear errors for malformed input.
#include "catalog/json_io.h"

#include <fmt/format.h>

namespace plainsql::catalog {

using nlohmann::json;

namespace {

json ColumnToJson(const Column& c) {
  json j = {{"name", c.name}, {"type", c.type}, {"type_class", TypeClassName(c.type_class)}, {"nullable", c.nullable}};
  if (c.default_value) j["default"] = *c.default_value;
  if (!c.comment.empty()) j["comment"] = c.comment;
  if (!c.label.empty()) j["label"] = c.label;
  if (!c.samples.empty()) j["samples"] = c.samples;
  return j;
}

json TableToJson(const Table& t) {
  json j;
  if (!t.schema.empty()) j["schema"] = t.schema;
  j["name"] = t.name;
  j["kind"] = t.kind == TableKind::kView ? "view" : "table";
  if (!t.comment.empty()) j["comment"] = t.comment;
  if (!t.definition.empty()) j["definition"] = t.definition;
  j["columns"] = json::array();
  for (const Column& c : t.columns) j["columns"].push_back(ColumnToJson(c));
  j["primary_key"] = t.primary_key;
  if (t.primary_key_inferred) j["primary_key_inferred"] = true;
  j["foreign_keys"] = json::array();
  for (const ForeignKey& fk : t.foreign_keys) {
    json f = {{"columns", fk.columns}, {"ref_table", fk.ref_table}, {"ref_columns", fk.ref_columns}};
    if (!fk.name.empty()) f["name"] = fk.name;
    if (!fk.ref_schema.empty()) f["ref_schema"] = fk.ref_schema;
    if (fk.inferred) f["inferred"] = true;
    j["foreign_keys"].push_back(std::move(f));
  }
  j["unique_keys"] = json::array();
  for (const UniqueKey& u : t.unique_keys) {
    json k = {{"columns", u.columns}};
    if (!u.name.empty()) k["name"] = u.name;
    j["unique_keys"].push_back(std::move(k));
  }
  if (t.row_count) {
    j["row_count"] = *t.row_count;
    if (t.row_count_estimated) j["row_count_estimated"] = true;
  }
  return j;
}

// Reading helpers: each throws FormatError with a path to the bad field; FromJson turns it into an Error.
struct FormatError {
  std::string message;
};

// Where a field is ("tables[3](plant).columns[2]"), spelled out only for an error: a large schema has ~100,000
// columns, and formatting each path up front was a good part of reading a snapshot.
struct Where {
  std::string_view base;
  const char* list = nullptr;  // with `index`: the element of a list under `base`
  size_t index = 0;
  std::string Str() const {
    if (!list) return std::string(base);
    return base.empty() ? fmt::format("{}[{}]", list, index) : fmt::format("{}.{}[{}]", base, list, index);
  }
};

const json& Field(const json& j, const char* key, const Where& where) {
  if (!j.is_object() || !j.contains(key)) throw FormatError{fmt::format("{}: missing \"{}\"", where.Str(), key)};
  return j.at(key);
}

std::string Str(const json& j, const char* key, const Where& where, bool required = true) {
  auto it = j.find(key);
  if (it == j.end()) {
    if (required) throw FormatError{fmt::format("{}: missing \"{}\"", where.Str(), key)};
    return {};
  }
  if (!it->is_string()) throw FormatError{fmt::format("{}.{}: expected a string", where.Str(), key)};
  return it->get<std::string>();
}

std::vector<std::string> StrList(const json& j, const char* key, const Where& where) {
  auto it = j.find(key);
  if (it == j.end()) return {};
  const json& a = *it;
  if (!a.is_array()) throw FormatError{fmt::format("{}.{}: expected an array of strings", where.Str(), key)};
  std::vector<std::string> out;
  out.reserve(a.size());
  for (const json& e : a) {
    if (!e.is_string()) throw FormatError{fmt::format("{}.{}: expected an array of strings", where.Str(), key)};
    out.push_back(e.get<std::string>());
  }
  return out;
}

Column ColumnFromJson(const json& j, const Where& where) {
  Column c;
  c.name = Str(j, "name", where);
  c.type = Str(j, "type", where, false);
  std::string tc = Str(j, "type_class", where, false);
  if (tc.empty()) {
    c.type_class = ClassifyType(c.type);
  } else if (auto t = TypeClassFromName(tc)) {
    c.type_class = *t;
  } else {
    throw FormatError{fmt::format("{}.type_class: unknown class \"{}\"", where.Str(), tc)};
  }
  if (auto it = j.find("nullable"); it != j.end()) {
    if (!it->is_boolean()) throw FormatError{where.Str() + ".nullable: expected true or false"};
    c.nullable = it->get<bool>();
  }
  if (j.contains("default")) c.default_value = Str(j, "default", where);
  c.comment = Str(j, "comment", where, false);
  c.label = Str(j, "label", where, false);
  c.samples = StrList(j, "samples", where);
  return c;
}

Table TableFromJson(const json& j, const Where& where) {
  Table t;
  t.schema = Str(j, "schema", where, false);
  t.name = Str(j, "name", where);
  const std::string w_text = where.Str() + "(" + t.name + ")";
  const Where w{w_text};
  std::string kind = Str(j, "kind", w, false);
  if (kind == "view")
    t.kind = TableKind::kView;
  else if (kind.empty() || kind == "table")
    t.kind = TableKind::kTable;
  else
    throw FormatError{fmt::format("{}.kind: expected \"table\" or \"view\", got \"{}\"", w_text, kind)};
  t.comment = Str(j, "comment", w, false);
  t.definition = Str(j, "definition", w, false);
  const json& cols = Field(j, "columns", w);
  if (!cols.is_array()) throw FormatError{w_text + ".columns: expected an array"};
  t.columns.reserve(cols.size());
  for (size_t i = 0; i < cols.size(); ++i) t.columns.push_back(ColumnFromJson(cols[i], Where{w_text, "columns", i}));
  t.primary_key = StrList(j, "primary_key", w);
  t.primary_key_inferred = j.value("primary_key_inferred", false);
  if (j.contains("foreign_keys")) {
    const json& fks = j.at("foreign_keys");
    if (!fks.is_array()) throw FormatError{w_text + ".foreign_keys: expected an array"};
    for (size_t i = 0; i < fks.size(); ++i) {
      const Where fw{w_text, "foreign_keys", i};
      ForeignKey fk;
      fk.name = Str(fks[i], "name", fw, false);
      fk.columns = StrList(fks[i], "columns", fw);
      fk.ref_schema = Str(fks[i], "ref_schema", fw, false);
      fk.ref_table = Str(fks[i], "ref_table", fw);
      fk.ref_columns = StrList(fks[i], "ref_columns", fw);
      fk.inferred = fks[i].value("inferred", false);
      if (fk.columns.empty() || fk.columns.size() != fk.ref_columns.size()) {
        throw FormatError{fw.Str() + ": columns and ref_columns must be non-empty and of equal length"};
      }
      t.foreign_keys.push_back(std::move(fk));
    }
  }
  if (j.contains("unique_keys")) {
    const json& uks = j.at("unique_keys");
    if (!uks.is_array()) throw FormatError{w_text + ".unique_keys: expected an array"};
    for (size_t i = 0; i < uks.size(); ++i) {
      const Where uw{w_text, "unique_keys", i};
      t.unique_keys.push_back(UniqueKey{Str(uks[i], "name", uw, false), StrList(uks[i], "columns", uw)});
    }
  }
  if (j.contains("row_count")) {
    if (!j.at("row_count").is_number_integer()) throw FormatError{w_text + ".row_count: expected an integer"};
    t.row_count = j.at("row_count").get<int64_t>();
  }
  t.row_count_estimated = j.value("row_count_estimated", false);
  return t;
}

}  // namespace

json ToJson(const Schema& schema) {
  json j = {{"plainsql_schema", kSchemaJsonVersion},
            {"database", schema.database},
            {"source", schema.source},
            {"namespaces", schema.namespaces},
            {"fingerprint", StructuralFingerprint(schema)}};
  j["tables"] = json::array();
  for (const Table& t : schema.tables) j["tables"].push_back(TableToJson(t));
  return j;
}

Result<Schema> FromJson(const json& j) {
  try {
    if (!j.is_object()) throw FormatError{"schema JSON: expected an object"};
    if (!j.contains("plainsql_schema") || j.at("plainsql_schema") != kSchemaJsonVersion) {
      throw FormatError{fmt::format("schema JSON: expected \"plainsql_schema\": {} (a file written by plainsql)",
                                    kSchemaJsonVersion)};
    }
    Schema s;
    const Where top{"schema"};
    s.database = Str(j, "database", top, false);
    s.source = Str(j, "source", top, false);
    s.namespaces = StrList(j, "namespaces", top);
    const json& tables = Field(j, "tables", top);
    if (!tables.is_array()) throw FormatError{"schema.tables: expected an array"};
    s.tables.reserve(tables.size());
    for (size_t i = 0; i < tables.size(); ++i) s.tables.push_back(TableFromJson(tables[i], Where{"", "tables", i}));
    return s;
  } catch (const FormatError& e) {
    return MakeError(ErrorCode::kFormat, e.message);
  } catch (const json::exception& e) {
    return MakeError(ErrorCode::kFormat, std::string("schema JSON: ") + e.what());
  }
}

}  // namespace plainsql::catalog
