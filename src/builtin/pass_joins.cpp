// The join pass (see passes.h): the tables every part of the reading needs, joined through foreign keys.
#include <fmt/format.h>

#include <algorithm>

#include "builtin/passes.h"
#include "common/strings.h"

namespace plainsql::builtin {

namespace {

void Need(std::vector<std::string>& tables, const std::string& table) {
  if (std::find(tables.begin(), tables.end(), table) == tables.end()) tables.push_back(table);
}

// The tables the reading needs; those joined only because the question names them are counted in `choices`, and left
// out when the choice says so.
std::vector<std::string> NeededTables(Reading& r) {
  std::vector<std::string> tables = {r.subject};
  for (const auto& t : r.need_tables_extra) tables.push_back(t);
  for (const auto& c : r.shown) Need(tables, c.table);
  for (const auto& c : r.selected) Need(tables, c.table);
  for (const auto& f : r.filters) Need(tables, f.col.table);
  if (r.order_column) Need(tables, r.order_column->table);
  if (r.year_column) Need(tables, r.year_column->table);
  const size_t by_columns = tables.size();
  const auto needed = [&](const std::string& table) {
    return std::find(tables.begin(), tables.begin() + static_cast<std::ptrdiff_t>(by_columns), table) !=
           tables.begin() + static_cast<std::ptrdiff_t>(by_columns);
  };
  r.choices.named_only_as_column = 0;
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (!el.column.empty() || needed(el.table)) continue;
    Need(tables, el.table);
    const bool as_column = std::any_of(r.links.begin(), r.links.end(), [&](const linking::LinkMatch& l) {
      const auto& other = r.ctx.index.Elements()[l.element];
      return !other.column.empty() && needed(other.table) && l.begin < m.end && m.begin < l.end;
    });
    if (as_column) ++r.choices.named_only_as_column;
  }
  r.choices.named_only_tables = tables.size() - by_columns;
  if (r.choices.used_tables_only) tables.resize(by_columns);
  // The table whose rows a count per group counts, when no mention of it as a table brought it (CountPerGroup: "more
  // than 1 player" read as a column).
  if (r.having && !r.having->counted.empty() &&
      std::none_of(r.mentions.begin(), r.mentions.end(), [&](const Mention& m) {
        const auto& el = ElementOf(r, m);
        return el.column.empty() && ToLower(el.table) == ToLower(r.having->counted);
      })) {
    Need(tables, r.having->counted);
  }
  return tables;
}

// A view the reading's subject is, which no foreign key joins to the other tables, whose columns the reading uses each
// show a base column as stored (catalog::ViewSources): the reading uses those columns, and their tables, instead
// ("Which equipment is critical?" reads TB_EQUIP.EQ_DESC with its flag, not the view open_orders, which has no flag).
// False, and the reading unchanged, when a use has no base column or the base tables do not join either.
bool ReadThroughView(Reading& r, std::string view) {  // (a copy: r.tables holds the name)
  const catalog::Table* v = r.ctx.schema.FindTable(view);
  if (!v || v->kind != catalog::TableKind::kView) return false;
  // A negation read against the view ("not critical": no key from the view to the flag's table) would be lost: the
  // base tables' reading is another reading, not this one.
  if (!r.intent.negations.empty()) return false;
  const catalog::ViewSourceMap& sources = r.ctx.index.ViewSources();
  bool complete = true;
  std::vector<std::string> bases;  // the base tables read instead, in the order met
  auto base_of = [&](const ColumnRef& c) -> std::optional<ColumnRef> {
    auto it = sources.find({v->name, c.column});
    if (it == sources.end()) return std::nullopt;
    return ColumnRef{it->second.first, it->second.second};
  };
  // Every use of the view's columns, mapped to its base column when `apply`, else only checked.
  auto map_all = [&](bool apply) {
    auto map = [&](ColumnRef& c) {
      if (ToLower(c.table) != ToLower(view)) return;
      if (auto b = base_of(c)) {
        Need(bases, b->table);
        if (apply) c = *b;
      } else {
        complete = false;
      }
    };
    for (auto& c : r.shown) map(c);
    for (auto& c : r.selected) map(c);
    for (auto* fs : {&r.filters, &r.negated_filters}) {
      for (auto& f : *fs) {
        map(f.col);
        if (f.value.kind == Literal::Kind::kAverage) map(f.value.of);
      }
    }
    for (auto* outs : {&r.select, &r.aggregates}) {
      for (auto& o : *outs) map(o.col);
    }
    if (r.order_aggregate) map(r.order_aggregate->col);
    for (auto* c : {&r.order_column, &r.year_column, &r.group, &r.count_distinct}) {
      if (*c) map(**c);
    }
  };
  // The view's rows counted or joined for a mention of one of its columns: that column's table. A view the question
  // names as a table ("open orders") keeps its own rows (its conditions): not read through.
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (ToLower(el.table) != ToLower(view)) continue;
    if (el.column.empty()) return false;
    if (auto b = el.column.empty() ? std::nullopt : base_of({el.table, el.column})) Need(bases, b->table);
  }
  map_all(false);
  if (!complete || bases.empty() || (r.having && ToLower(r.having->counted) == ToLower(view))) return false;
  std::vector<std::string> tables = r.tables;
  std::erase_if(tables, [&](const std::string& t) { return ToLower(t) == ToLower(view); });
  for (const auto& b : bases) Need(tables, b);
  if (!linking::ConnectTables(r.ctx.schema, tables)) return false;
  map_all(true);
  // The subject a view was: the table its first used column comes from.
  if (ToLower(r.subject) == ToLower(view)) {
    r.subject = bases.front();
    std::erase(tables, r.subject);
    tables.insert(tables.begin(), r.subject);
  }
  r.tables = std::move(tables);
  r.notes.push_back(fmt::format("read {} through its base tables: {}", view, fmt::join(bases, ", ")));
  return true;
}

// Drops a table that cannot be joined to the subject, with what it would have contributed.
void DropUnjoinable(Reading& r) {
  std::string dropped;
  for (size_t i = r.tables.size(); i-- > 1;) {
    if (!linking::ConnectTables(r.ctx.schema, {r.subject, r.tables[i]})) {
      dropped = r.tables[i];
      break;
    }
  }
  if (dropped.empty()) dropped = r.tables.back();
  r.notes.push_back("dropped " + dropped + ": no foreign-key path to " + r.subject);
  if (r.choices.value_choice > 0 && ToLower(dropped) == ToLower(r.choices.varied_table)) r.choices.lost = true;
  std::erase(r.tables, dropped);
  // The words that named it, and the values of its conditions, are no longer accounted for (the coverage counts
  // them unlinked): "Which equipment is critical?" read through a view without the flag is not the whole question.
  const auto of_dropped = [&](const std::string& table) { return ToLower(table) == ToLower(dropped); };
  std::vector<bool> kept(r.tokens.size(), false);
  for (const auto& m : r.mentions) {
    if (of_dropped(ElementOf(r, m).table)) continue;
    for (size_t i = m.begin; i < m.end && i < kept.size(); ++i) kept[i] = true;
  }
  auto release = [&](size_t i) {
    if (i < kept.size() && !kept[i]) r.used[i] = false;
  };
  for (const auto& m : r.mentions) {
    if (!of_dropped(ElementOf(r, m).table)) continue;
    for (size_t i = m.begin; i < m.end; ++i) release(i);
  }
  for (const auto& f : r.filters) {
    if (of_dropped(f.col.table)) release(f.at);
  }
  std::erase_if(r.select, [&](const Output& o) {
    return o.kind != Output::Kind::kCount && o.kind != Output::Kind::kStar && o.col.table == dropped;
  });
  std::erase_if(r.filters, [&](const Filter& f) { return f.col.table == dropped; });
  if (r.order_column && r.order_column->table == dropped) r.order_column.reset();
  if (r.year_column && r.year_column->table == dropped) r.year_column.reset();
  if (r.group && r.group->table == dropped) r.group.reset();
}

}  // namespace

void JoinTables(Reading& r) {
  r.tables = NeededTables(r);
  r.tree = linking::ConnectTables(r.ctx.schema, r.tables);
  while (!r.tree && r.tables.size() > 1) {
    // (The subject only: a view joined to a subject for one of its column names is more often a word that names a
    // table, which reading its column through would show.)
    const catalog::Table* subject = r.ctx.schema.FindTable(r.subject);
    if (!subject || subject->kind != catalog::TableKind::kView || !ReadThroughView(r, r.subject)) DropUnjoinable(r);
    r.tree = linking::ConnectTables(r.ctx.schema, r.tables);
  }
  if (r.select.empty()) {
    auto name = ColumnNamed(r.ctx.schema, r.subject, "name");
    r.select.push_back(name ? Output{Output::Kind::kColumn, *name, ""} : Output{Output::Kind::kStar, {}, ""});
  }
  if (!r.tree) {
    r.reason = "the tables the question names are not connected by foreign keys: " +
               fmt::format("{}", fmt::join(r.tables, ", "));
    r.stopped = true;
  }
}

}  // namespace plainsql::builtin
