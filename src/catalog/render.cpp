// DDL and prompt renderings of a schema.
#include "catalog/render.h"

#include <fmt/format.h>

#include <map>
#include <queue>
#include <regex>
#include <set>

#include "catalog/json_io.h"
#include "common/strings.h"

namespace plainsql::catalog {

namespace {

std::string Q(const sql::Dialect& d, std::string_view name) { return sql::QuoteIdentifier(d, name); }

std::string QList(const sql::Dialect& d, const std::vector<std::string>& names) {
  std::vector<std::string> q;
  q.reserve(names.size());
  for (const auto& n : names) q.push_back(Q(d, n));
  return Join(q, ", ");
}

std::string QTable(const Schema& s, const sql::Dialect& d, const Table& t) {
  if (s.namespaces.size() > 1 && !t.schema.empty()) return Q(d, t.schema) + "." + Q(d, t.name);
  return Q(d, t.name);
}

// True when declared types were written for this dialect's engine and can be kept as they are: the schema was read
// from (or saved from) an engine whose dialect is `d`.
bool SameEngine(const Schema& s, const sql::Dialect& d) {
  auto source = sql::DialectByName(s.source);
  return source && (*source)->name == d.name;
}

std::string ColumnType(const Schema& s, const sql::Dialect& d, const Column& c) {
  if (SameEngine(s, d)) return c.type;
  switch (c.type_class) {
    case TypeClass::kText: return std::string(d.text_type);
    case TypeClass::kNumeric:
      return std::string(ToLower(c.type).find("int") != std::string::npos ? d.integer_type : d.numeric_type);
    case TypeClass::kDatetime: return std::string(d.datetime_type);
    case TypeClass::kBoolean: return std::string(d.boolean_type);
    case TypeClass::kOther: return std::string(d.other_type);
  }
  return {};
}

// A column default in the target dialect. Default expressions are engine-specific, so across engines only literals
// survive (numbers, strings, NULL, CURRENT_DATE/TIME/TIMESTAMP), with booleans written the target's way.
std::optional<std::string> DefaultFor(const Schema& s, const sql::Dialect& d, const Column& c) {
  if (!c.default_value) return std::nullopt;
  // A sequence default names a sequence that DDL for the tables does not create; it becomes a note instead.
  if (c.default_value->find("nextval(") != std::string::npos) return std::nullopt;
  if (SameEngine(s, d)) return c.default_value;
  std::string v(Trim(*c.default_value));
  std::string lower = ToLower(v);
  if (c.type_class == TypeClass::kBoolean) {
    if (lower == "1" || lower == "true" || lower == "'t'" || lower == "'1'") return std::string(d.true_literal);
    if (lower == "0" || lower == "false" || lower == "'f'" || lower == "'0'") return std::string(d.false_literal);
    return std::nullopt;
  }
  static const std::regex kLiteral(
      R"(^(-?[0-9]+(\.[0-9]+)?|'([^']|'')*'|null|current_date|current_time|current_timestamp)$)");
  if (std::regex_match(lower, kLiteral)) return v;
  return std::nullopt;
}

std::string OneLine(std::string_view s) { return ReplaceAll(ReplaceAll(s, "\r", " "), "\n", " "); }

// "FOREIGN KEY (...) REFERENCES ref (...)". A key into another namespace is always qualified, even when that namespace
// was not read; one into the same namespace is qualified like the table itself.
std::string ForeignKeyClause(const Schema& s, const sql::Dialect& d, const Table& t, const ForeignKey& fk,
                             bool name_fks) {
  std::string ns = fk.ref_schema.empty() && s.namespaces.size() > 1 ? t.schema : fk.ref_schema;
  std::string ref = ns.empty() ? Q(d, fk.ref_table) : Q(d, ns) + "." + Q(d, fk.ref_table);
  std::string prefix = name_fks && !fk.name.empty() ? fmt::format("CONSTRAINT {} ", Q(d, fk.name)) : "";
  return fmt::format("{}FOREIGN KEY ({}) REFERENCES {} ({})", prefix, QList(d, fk.columns), ref,
                     QList(d, fk.ref_columns));
}

// Table-level key clauses of the prompt rendering, each with whether it was inferred (not declared).
std::vector<std::pair<std::string, bool>> KeyClauses(const Schema& s, const sql::Dialect& d, const Table& t) {
  std::vector<std::pair<std::string, bool>> out;
  if (!t.primary_key.empty()) {
    out.emplace_back(fmt::format("PRIMARY KEY ({})", QList(d, t.primary_key)), t.primary_key_inferred);
  }
  for (const UniqueKey& u : t.unique_keys) out.emplace_back(fmt::format("UNIQUE ({})", QList(d, u.columns)), false);
  for (const ForeignKey& fk : t.foreign_keys) out.emplace_back(ForeignKeyClause(s, d, t, fk, false), fk.inferred);
  return out;
}

// "table(col) -> table(col)" lines of the inferred keys, for the renderings that show no keys (list, SNAILS).
std::string InferredKeyLines(const Schema& s, std::string_view prefix) {
  std::string out;
  for (const Table& t : s.tables) {
    if (!t.primary_key.empty() && t.primary_key_inferred) {
      out += fmt::format("{}inferred primary key: {}({})\n", prefix, DisplayName(s, t), Join(t.primary_key, ", "));
    }
    for (const ForeignKey& fk : t.foreign_keys) {
      if (!fk.inferred) continue;
      out += fmt::format("{}inferred foreign key: {}({}) -> {}({})\n", prefix, DisplayName(s, t),
                         Join(fk.columns, ", "), fk.ref_table, Join(fk.ref_columns, ", "));
    }
  }
  return out;
}

// Positions of the tables in an order where referenced tables come before the tables that reference them. Stable:
// among the tables free to go, the earliest in the schema goes first; a reference cycle is broken at its earliest
// table.
std::vector<size_t> DependencyOrder(const Schema& s) {
  size_t n = s.tables.size();
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (size_t i = 0; i < n; ++i) index[{s.tables[i].schema, s.tables[i].name}] = i;
  std::vector<std::vector<size_t>> dependents(n);
  std::vector<size_t> indegree(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const Table& t = s.tables[i];
    std::set<size_t> refs;
    for (const ForeignKey& fk : t.foreign_keys) {
      auto it = index.find({fk.ref_schema.empty() ? t.schema : fk.ref_schema, fk.ref_table});
      if (it != index.end() && it->second != i) refs.insert(it->second);
    }
    for (size_t r : refs) dependents[r].push_back(i);
    indegree[i] = refs.size();
  }
  std::vector<size_t> order;
  std::vector<bool> placed(n, false);
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < n; ++i) {
    if (indegree[i] == 0) ready.push(i);
  }
  size_t next_unplaced = 0;
  while (order.size() < n) {
    if (ready.empty()) {
      while (placed[next_unplaced]) ++next_unplaced;
      ready.push(next_unplaced);
    }
    size_t i = ready.top();
    ready.pop();
    if (placed[i]) continue;
    placed[i] = true;
    order.push_back(i);
    for (size_t dep : dependents[i]) {
      if (!placed[dep] && indegree[dep] > 0 && --indegree[dep] == 0) ready.push(dep);
    }
  }
  return order;
}

}  // namespace

std::optional<SchemaFormat> SchemaFormatByName(std::string_view name) {
  for (SchemaFormat f : {SchemaFormat::kJson, SchemaFormat::kDdl, SchemaFormat::kPromptSnails, SchemaFormat::kPromptDdl,
                         SchemaFormat::kList}) {
    if (SchemaFormatName(f) == name) return f;
  }
  return std::nullopt;
}

std::string_view SchemaFormatName(SchemaFormat f) {
  switch (f) {
    case SchemaFormat::kJson: return "json";
    case SchemaFormat::kDdl: return "ddl";
    case SchemaFormat::kPromptSnails: return "prompt-snails";
    case SchemaFormat::kPromptDdl: return "prompt-ddl";
    case SchemaFormat::kList: return "list";
  }
  return "json";
}

std::string RenderDdl(const Schema& s, const sql::Dialect& d) {
  std::string out;
  if (s.namespaces.size() > 1 && d.comment_statements) {
    for (const std::string& ns : s.namespaces) {
      if (ns != d.default_namespace) out += fmt::format("CREATE SCHEMA IF NOT EXISTS {};\n", Q(d, ns));
    }
    out += "\n";
  }
  // Where a foreign key may only name an existing table, tables come in dependency order, and keys that still point
  // forward (reference cycles) are added with ALTER TABLE at the end.
  std::vector<size_t> order(s.tables.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (d.references_must_exist) order = DependencyOrder(s);
  std::set<std::pair<std::string, std::string>> created;
  std::string deferred;
  for (size_t pos : order) {
    const Table& t = s.tables[pos];
    if (t.kind == TableKind::kView) {
      std::vector<std::string> cols;
      for (const Column& c : t.columns) cols.push_back(Q(d, c.name));
      out += fmt::format("-- view {} ({})\n\n", QTable(s, d, t), Join(cols, ", "));
      continue;
    }
    std::vector<std::string> lines, notes;  // notes: a trailing "--" comment per column line
    for (const Column& c : t.columns) {
      std::string line = "  " + Q(d, c.name);
      std::string type = ColumnType(s, d, c);
      if (!type.empty()) line += " " + type;
      if (!c.nullable) line += " NOT NULL";
      std::vector<std::string> note;
      if (!d.comment_statements && !c.comment.empty()) note.push_back(OneLine(c.comment));
      if (auto def = DefaultFor(s, d, c)) {
        line += " DEFAULT " + *def;
      } else if (c.default_value) {
        note.push_back("default in the source database: " + OneLine(*c.default_value));
      }
      lines.push_back(std::move(line));
      notes.push_back(Join(note, "; "));
    }
    std::string inferred;  // keys the database does not declare: comments, so the DDL stays the database's
    if (!t.primary_key.empty() && t.primary_key_inferred) {
      inferred += fmt::format("-- inferred key: PRIMARY KEY ({})\n", QList(d, t.primary_key));
    } else if (!t.primary_key.empty()) {
      lines.push_back(fmt::format("  PRIMARY KEY ({})", QList(d, t.primary_key)));
    }
    for (const UniqueKey& u : t.unique_keys) lines.push_back(fmt::format("  UNIQUE ({})", QList(d, u.columns)));
    created.insert({t.schema, t.name});
    for (const ForeignKey& fk : t.foreign_keys) {
      if (fk.inferred) {
        inferred += "-- inferred key: " + ForeignKeyClause(s, d, t, fk, false) + "\n";
        continue;
      }
      std::string ns = fk.ref_schema.empty() ? t.schema : fk.ref_schema;
      bool in_schema = s.FindTable(fk.ref_table, ns) != nullptr;
      if (d.references_must_exist && in_schema && !created.count({ns, fk.ref_table})) {
        deferred += fmt::format("ALTER TABLE {} ADD {};\n", QTable(s, d, t), ForeignKeyClause(s, d, t, fk, true));
      } else {
        lines.push_back("  " + ForeignKeyClause(s, d, t, fk, true));
      }
    }
    if (!t.comment.empty() && !d.comment_statements) out += "-- " + OneLine(t.comment) + "\n";
    out += fmt::format("CREATE TABLE {} (\n", QTable(s, d, t));
    for (size_t i = 0; i < lines.size(); ++i) {
      out += lines[i];
      if (i + 1 < lines.size()) out += ",";
      if (i < notes.size() && !notes[i].empty()) out += " -- " + notes[i];
      out += "\n";
    }
    out += ");\n" + inferred;
    if (d.comment_statements) {
      if (!t.comment.empty()) {
        out += fmt::format("COMMENT ON TABLE {} IS {};\n", QTable(s, d, t), sql::QuoteString(t.comment));
      }
      for (const Column& c : t.columns) {
        if (c.comment.empty()) continue;
        out +=
            fmt::format("COMMENT ON COLUMN {}.{} IS {};\n", QTable(s, d, t), Q(d, c.name), sql::QuoteString(c.comment));
      }
    }
    out += "\n";
  }
  if (!deferred.empty()) out += deferred + "\n";
  return out;
}

std::string RenderPromptSnails(const Schema& s) {
  std::string out;
  for (const Table& t : s.tables) {
    std::vector<std::string> cols;
    for (const Column& c : t.columns) {
      std::string type = c.type.empty() ? std::string(TypeClassName(c.type_class)) : ToLower(c.type);
      cols.push_back(c.name + " " + type);
    }
    out += fmt::format("# {}({})\n", DisplayName(s, t), Join(cols, ", "));
  }
  return out + InferredKeyLines(s, "# ");
}

std::string RenderPromptDdl(const Schema& s, const sql::Dialect& d, int max_samples) {
  std::string out;
  for (const Table& t : s.tables) {
    if (!t.comment.empty()) out += "-- " + OneLine(t.comment) + "\n";
    out += fmt::format("CREATE {} {} (\n", t.kind == TableKind::kView ? "VIEW" : "TABLE", QTable(s, d, t));
    std::vector<std::pair<std::string, bool>> keys = KeyClauses(s, d, t);
    for (size_t i = 0; i < t.columns.size(); ++i) {
      const Column& c = t.columns[i];
      std::string type = c.type.empty() ? std::string(TypeClassName(c.type_class)) : c.type;
      out += fmt::format("    {} {}", Q(d, c.name), type);
      if (i + 1 < t.columns.size() || !keys.empty()) out += ",";
      std::vector<std::string> notes;
      if (!c.comment.empty()) notes.push_back(OneLine(c.comment));
      if (max_samples > 0 && !c.samples.empty()) {
        std::vector<std::string> ex;
        for (size_t k = 0; k < c.samples.size() && k < static_cast<size_t>(max_samples); ++k) {
          bool bare = c.type_class == TypeClass::kNumeric || c.type_class == TypeClass::kBoolean;
          ex.push_back(bare ? OneLine(c.samples[k]) : sql::QuoteString(OneLine(c.samples[k])));
        }
        notes.push_back(fmt::format("example: [{}]", Join(ex, ", ")));
      }
      if (!notes.empty()) out += " -- " + Join(notes, ", ");
      out += "\n";
    }
    for (size_t i = 0; i < keys.size(); ++i) {
      out += "    " + keys[i].first + (i + 1 < keys.size() ? "," : "") + (keys[i].second ? " -- inferred" : "") + "\n";
    }
    out += ");\n\n";
  }
  return out;
}

std::string RenderList(const Schema& s) {
  std::string out;
  for (const Table& t : s.tables) {
    std::vector<std::string> cols;
    for (const Column& c : t.columns) cols.push_back(c.name);
    out += fmt::format("{}: {}\n", DisplayName(s, t), Join(cols, ", "));
  }
  return out + InferredKeyLines(s, "");
}

std::string RenderSchema(const Schema& s, SchemaFormat format, const sql::Dialect& d, int max_samples) {
  switch (format) {
    case SchemaFormat::kJson: return ToJson(s).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    case SchemaFormat::kDdl: return RenderDdl(s, d);
    case SchemaFormat::kPromptSnails: return RenderPromptSnails(s);
    case SchemaFormat::kPromptDdl: return RenderPromptDdl(s, d, max_samples);
    case SchemaFormat::kList: return RenderList(s);
  }
  return {};
}

}  // namespace plainsql::catalog
