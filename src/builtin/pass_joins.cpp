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
  return tables;
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
    DropUnjoinable(r);
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
