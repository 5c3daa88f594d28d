// Natural and partially extended views: planning and DDL (see views.h).
#include "views/views.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "catalog/name_catalog.h"
#include "common/strings.h"

namespace plainsql::views {

namespace {

using naturalness::Crosswalk;

// The part of a natural name that names what a foreign-key column points at: "student_id" -> "student",
// "OwnerID" -> "Owner". Empty when nothing is left.
std::string PathStem(const std::string& fk_column) {
  std::string lower = ToLower(fk_column);
  for (std::string_view suffix : {"_identifier", "_id", "_code", "_no", "_number", "id", "_key"}) {
    if (lower.size() > suffix.size() && lower.ends_with(suffix)) {
      std::string stem = fk_column.substr(0, fk_column.size() - suffix.size());
      while (!stem.empty() && stem.back() == '_') stem.pop_back();
      return stem;
    }
  }
  return fk_column;
}

// Whether `columns` are the primary key or a unique key of `t` (in any order), so that a join on them finds at most
// one row and a LEFT JOIN keeps the base table's rows exactly.
bool IsKeyOf(const catalog::Table& t, const std::vector<std::string>& columns) {
  auto same = [&](const std::vector<std::string>& key) {
    if (key.empty() || key.size() != columns.size()) return false;
    return std::all_of(columns.begin(), columns.end(), [&](const std::string& c) {
      return std::any_of(key.begin(), key.end(), [&](const std::string& k) { return EqualsIgnoreCase(k, c); });
    });
  };
  if (same(t.primary_key)) return true;
  return std::any_of(t.unique_keys.begin(), t.unique_keys.end(), [&](const auto& u) { return same(u.columns); });
}

// `name`, or name_2, name_3, ... : the first that is not in `taken` (compared case-insensitively). Adds it.
std::string Unique(const std::string& name, std::set<std::string>& taken) {
  std::string candidate = name;
  for (int k = 2; taken.count(ToLower(candidate)); ++k) candidate = fmt::format("{}_{}", name, k);
  taken.insert(ToLower(candidate));
  return candidate;
}

std::string NativeTable(const catalog::Schema& schema, const catalog::Table& t, Target target) {
  const sql::Dialect& d = TargetDialect(target);
  std::string name = sql::QuoteIdentifier(d, t.name);
  if (target.companion) return std::string(kCompanionAlias) + "." + name;
  bool own_namespace = d.view_placement == sql::ViewPlacement::kOwnNamespace;
  if (!t.schema.empty() && (own_namespace || schema.namespaces.size() > 1)) {
    return sql::QuoteIdentifier(d, t.schema) + "." + name;
  }
  return name;
}

}  // namespace

const Target Target::kSqlite{&sql::Sqlite(), false};
const Target Target::kSqliteCompanion{&sql::Sqlite(), true};
const Target Target::kPostgres{&sql::Postgres(), false};
const Target Target::kTSql{&sql::TSql(), false};

Result<Target> TargetFor(const sql::Dialect& dialect, bool companion) {
  if (dialect.view_placement == sql::ViewPlacement::kNone) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("plainsql writes no views for {}", dialect.display_name));
  }
  if (companion && dialect.view_placement != sql::ViewPlacement::kBesideTables) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("a companion database is for SQLite databases, not {}", dialect.display_name));
  }
  return Target{&dialect, companion};
}

const sql::Dialect& TargetDialect(Target target) { return target.dialect ? *target.dialect : sql::Sqlite(); }

std::string ViewIdentifier(Target target, std::string_view name) {
  const sql::Dialect& d = TargetDialect(target);
  // Where unquoted names fold, so does the printer when it must quote a name written bare.
  if (d.folding == sql::CaseFolding::kLower) return sql::QuoteIdentifier(d, ToLower(name));
  if (d.folding == sql::CaseFolding::kUpper) return sql::QuoteIdentifier(d, ToUpper(name));
  return sql::QuoteIdentifier(d, name);
}

std::string_view ViewKeyKindName(ViewKey::Kind kind) {
  switch (kind) {
    case ViewKey::Kind::kPrimary: return "primary";
    case ViewKey::Kind::kForeign: return "foreign";
    case ViewKey::Kind::kUnique: return "unique";
    case ViewKey::Kind::kNotNull: return "not_null";
  }
  return "primary";
}

std::vector<ViewKey> ViewKeys(const ViewPlan& plan, const catalog::Schema& schema) {
  // Per native table: its view and the view's name of each of its own columns (case ignored, as SQLite does).
  std::map<size_t, std::pair<const View*, std::map<std::string, std::string>>> by_table;
  for (const View& v : plan.views) {
    auto& [view, columns] = by_table[v.table];
    view = &v;
    for (const ViewColumn& c : v.columns) {
      if (c.source == 0) columns.emplace(ToLower(c.column), c.name);
    }
  }
  // The view names of `native` columns of the table, or nothing when one has no plain column in its view.
  auto names = [](const std::map<std::string, std::string>& columns, const std::vector<std::string>& native,
                  std::vector<std::string>& out) {
    out.clear();
    for (const std::string& c : native) {
      auto it = columns.find(ToLower(c));
      if (it == columns.end()) return false;
      out.push_back(it->second);
    }
    return !out.empty();
  };
  std::vector<ViewKey> keys;
  for (const auto& [index, entry] : by_table) {
    const auto& [view, columns] = entry;
    const catalog::Table& t = schema.tables[index];
    ViewKey pk{view->name, ViewKey::Kind::kPrimary, {}, {}, {}};
    if (names(columns, t.primary_key, pk.columns)) keys.push_back(std::move(pk));
    for (const catalog::UniqueKey& uk : t.unique_keys) {
      ViewKey key{view->name, ViewKey::Kind::kUnique, {}, {}, {}};
      if (names(columns, uk.columns, key.columns)) keys.push_back(std::move(key));
    }
    for (const catalog::Column& c : t.columns) {
      ViewKey key{view->name, ViewKey::Kind::kNotNull, {}, {}, {}};
      if (!c.nullable && names(columns, {c.name}, key.columns)) keys.push_back(std::move(key));
    }
    for (const catalog::ForeignKey& fk : t.foreign_keys) {
      const catalog::Table* ref = schema.FindTable(fk.ref_table, fk.ref_schema.empty() ? t.schema : fk.ref_schema);
      if (!ref) continue;
      auto target = by_table.find(static_cast<size_t>(ref - schema.tables.data()));
      if (target == by_table.end()) continue;
      std::vector<std::string> ref_columns = fk.ref_columns;
      if (std::all_of(ref_columns.begin(), ref_columns.end(), [](const std::string& c) { return c.empty(); })) {
        ref_columns = ref->primary_key;  // REFERENCES t without columns means its primary key
      }
      ViewKey key{view->name, ViewKey::Kind::kForeign, {}, target->second.first->name, {}};
      if (ref_columns.size() != fk.columns.size() || !names(columns, fk.columns, key.columns) ||
          !names(target->second.second, ref_columns, key.ref_columns)) {
        continue;
      }
      keys.push_back(std::move(key));
    }
  }
  return keys;
}

Result<ViewPlan> PlanViews(const catalog::Schema& schema, const Crosswalk& crosswalk, const ViewOptions& options) {
  using naturalness::Level;
  ViewPlan plan;
  plan.options = options;
  std::vector<size_t> relations;  // the native tables and views that get a view
  for (size_t i = 0; i < schema.tables.size(); ++i) {
    const auto& t = schema.tables[i];
    if (!t.schema.empty() && EqualsIgnoreCase(t.schema, options.schema_name)) continue;
    if (t.kind == catalog::TableKind::kView && t.comment.starts_with(kMarker)) continue;
    relations.push_back(i);
  }
  if (options.level != Level::kNative) {
    catalog::Schema subset = schema;
    subset.tables.clear();
    for (size_t i : relations) subset.tables.push_back(schema.tables[i]);
    sql::NameCatalog names = catalog::ToNameCatalog(subset);
    std::vector<std::string> errors;
    std::string code(naturalness::LevelCode(options.level));
    for (const auto& issue : naturalness::ValidateCrosswalk(crosswalk, &names)) {
      if (issue.error && (issue.level.empty() || issue.level == code)) errors.push_back(issue.message);
    }
    if (!errors.empty()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("the crosswalk cannot name the {} views: {}", code, Join(errors, "; ")));
    }
  }

  std::set<std::string> view_names;
  for (size_t i : relations) {
    const auto& t = schema.tables[i];
    View v;
    v.table = i;
    v.name = crosswalk.TableName(t.name, options.level);
    view_names.insert(ToLower(v.name));
    v.comment = t.comment;
    std::set<std::string> taken;
    for (const auto& c : t.columns) {
      ViewColumn vc{crosswalk.ColumnName(t.name, c.name, options.level), 0, c.name, c.comment};
      taken.insert(ToLower(vc.name));
      v.columns.push_back(std::move(vc));
    }
    if (options.extended && t.kind == catalog::TableKind::kTable) {
      for (const auto& fk : t.foreign_keys) {
        const catalog::Table* ref = schema.FindTable(fk.ref_table, fk.ref_schema.empty() ? t.schema : fk.ref_schema);
        if (!ref) {
          plan.notes.push_back(fmt::format("{}: foreign key ({}) names a table that does not exist: {}", t.name,
                                           Join(fk.columns, ", "), fk.ref_table));
          continue;
        }
        std::vector<std::string> ref_columns = fk.ref_columns;
        if (ref_columns.empty() ||
            std::all_of(ref_columns.begin(), ref_columns.end(), [](const std::string& c) { return c.empty(); })) {
          ref_columns = ref->primary_key;  // REFERENCES t without columns means its primary key
        }
        if (ref_columns.size() != fk.columns.size() || !IsKeyOf(*ref, ref_columns)) {
          plan.notes.push_back(fmt::format(
              "{}: foreign key ({}) -> {}({}) is not followed: the referenced columns are not a key of {}, so a join "
              "could repeat rows",
              t.name, Join(fk.columns, ", "), ref->name, Join(ref_columns, ", "), ref->name));
          continue;
        }
        ViewJoin j;
        j.table = static_cast<size_t>(ref - schema.tables.data());
        for (size_t k = 0; k < fk.columns.size(); ++k) j.on.emplace_back(fk.columns[k], ref_columns[k]);
        std::string stem = fk.columns.size() == 1 ? PathStem(crosswalk.ColumnName(t.name, fk.columns[0], options.level))
                                                  : crosswalk.TableName(ref->name, options.level);
        if (stem.empty()) stem = crosswalk.TableName(ref->name, options.level);
        j.path = stem;
        size_t source = v.joins.size() + 1;
        for (const auto& rc : ref->columns) {
          bool is_key = std::any_of(ref_columns.begin(), ref_columns.end(),
                                    [&](const std::string& k) { return EqualsIgnoreCase(k, rc.name); });
          if (is_key) continue;  // equal to the foreign-key columns already in the view
          std::string name = Unique(stem + "_" + crosswalk.ColumnName(ref->name, rc.name, options.level), taken);
          v.columns.push_back({name, source, rc.name, rc.comment});
        }
        v.joins.push_back(std::move(j));
      }
    }
    plan.views.push_back(std::move(v));
  }
  return plan;
}

bool ViewIsIdentity(const View& view, const catalog::Schema& schema) {
  const auto& t = schema.tables[view.table];
  if (view.name != t.name || !view.joins.empty()) return false;
  return std::all_of(view.columns.begin(), view.columns.end(), [](const ViewColumn& c) { return c.name == c.column; });
}

std::string ViewSelect(const ViewPlan& plan, const View& view, const catalog::Schema& schema, Target target) {
  (void)plan;
  const sql::Dialect& d = TargetDialect(target);
  const auto& t = schema.tables[view.table];
  auto alias = [](size_t source) { return source == 0 ? std::string("t") : fmt::format("j{}", source); };
  std::vector<std::string> items;
  for (const auto& c : view.columns) {
    items.push_back(
        fmt::format("{}.{} AS {}", alias(c.source), sql::QuoteIdentifier(d, c.column), ViewIdentifier(target, c.name)));
  }
  std::string out = "SELECT " + Join(items, ", ") + " FROM " + NativeTable(schema, t, target) + " AS t";
  for (size_t k = 0; k < view.joins.size(); ++k) {
    const auto& j = view.joins[k];
    std::vector<std::string> on;
    for (const auto& [base, ref] : j.on) {
      on.push_back(
          fmt::format("{}.{} = t.{}", alias(k + 1), sql::QuoteIdentifier(d, ref), sql::QuoteIdentifier(d, base)));
    }
    out += fmt::format(" LEFT JOIN {} AS {} ON {}", NativeTable(schema, schema.tables[j.table], target), alias(k + 1),
                       Join(on, " AND "));
  }
  return out;
}

std::vector<std::string> CreateStatements(const ViewPlan& plan, const catalog::Schema& schema, Target target) {
  const sql::Dialect& d = TargetDialect(target);
  std::string level(naturalness::LevelCode(plan.options.level));
  if (plan.options.level == naturalness::Level::kNative) level = "native";
  std::string kind = plan.options.extended ? "extended " : "";
  std::vector<std::string> out;
  std::string ns = ViewIdentifier(target, plan.options.schema_name);
  bool own_namespace = d.view_placement == sql::ViewPlacement::kOwnNamespace;
  if (own_namespace) {
    out.push_back(fmt::format(fmt::runtime(d.create_schema), ns, sql::QuoteString(plan.options.schema_name)) +
                  std::string(d.batch_end));
    if (d.comment_statements) {
      out.push_back(fmt::format("COMMENT ON SCHEMA {} IS {};\n", ns, sql::QuoteString("plainsql natural views")));
    }
  }
  for (const auto& v : plan.views) {
    const auto& t = schema.tables[v.table];
    std::string marker = fmt::format("{} ({}{}) of {}", kMarker, kind, level, sql::QuoteIdentifier(d, t.name));
    std::string select = ViewSelect(plan, v, schema, target);
    if (!own_namespace) {  // beside the tables: the marker lives in the view's stored SQL
      out.push_back(fmt::format("CREATE {}VIEW {} /* {} */ AS {};\n", target.companion ? "TEMP " : "",
                                ViewIdentifier(target, v.name), marker, select));
      continue;
    }
    std::string qname = ns + "." + ViewIdentifier(target, v.name);
    if (!d.comment_statements) {  // no COMMENT ON: the marker is a comment line of the script
      out.push_back(fmt::format("-- {}\nCREATE VIEW {} AS {};\n{}", marker, qname, select, d.batch_end));
      continue;
    }
    out.push_back(fmt::format("CREATE VIEW {} AS {};\n{}", qname, select, d.batch_end));
    std::string comment = v.comment.empty() ? marker : marker + "\n" + v.comment;
    out.push_back(fmt::format("COMMENT ON VIEW {} IS {};\n", qname, sql::QuoteString(comment)));
    for (const auto& c : v.columns) {
      if (c.comment.empty()) continue;
      out.push_back(fmt::format("COMMENT ON COLUMN {}.{} IS {};\n", qname, ViewIdentifier(target, c.name),
                                sql::QuoteString(c.comment)));
    }
  }
  return out;
}

std::string CreateScript(const ViewPlan& plan, const catalog::Schema& schema, Target target) {
  std::string out;
  for (const auto& s : CreateStatements(plan, schema, target)) out += s;
  return out;
}

}  // namespace plainsql::views
