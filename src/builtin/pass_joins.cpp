// The join pass (see passes.h): the tables every part of the reading needs, joined through foreign keys.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

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
        if (f.value.kind == Literal::Kind::kAggregate) map(f.value.of);
        for (auto& w : f.value.where) map(w.col);
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

// The table dropped when the tables do not join: the last that cannot be joined to the subject, else the last.
std::string Unjoinable(const Reading& r) {
  for (size_t i = r.tables.size(); i-- > 1;) {
    if (!linking::ConnectTables(r.ctx.schema, {r.subject, r.tables[i]})) return r.tables[i];
  }
  return r.tables.back();
}

// Whether the reading uses `view` only in its conditions or its grouping ("orders created in 2023" with
// open_orders.created_on, a view column over TB_MO.CRT_DT, as the year's column; "orders per priority"): nothing of it
// is shown but the grouped column, nor counted or ordered.
bool OnlyConditionsRead(const Reading& r, const std::string& view) {
  auto of = [&](const ColumnRef& c) { return ToLower(c.table) == ToLower(view); };
  // (the grouping column is shown as grouped: "maintenance orders per priority" groups TB_MO.PRIO_CD, which the view
  // shows as priority)
  auto other = [&](const ColumnRef& c) { return of(c) && !(r.group && c == *r.group); };
  if (std::any_of(r.shown.begin(), r.shown.end(), other) || std::any_of(r.selected.begin(), r.selected.end(), other)) {
    return false;
  }
  for (const auto* outs : {&r.select, &r.aggregates}) {
    if (std::any_of(outs->begin(), outs->end(),
                    [&](const Output& o) { return other(o.col) || (of(o.col) && o.kind != Output::Kind::kColumn); })) {
      return false;
    }
  }
  if ((r.order_aggregate && of(r.order_aggregate->col)) || (r.order_column && of(*r.order_column)) ||
      (r.count_distinct && of(*r.count_distinct))) {
    return false;
  }
  return std::any_of(r.filters.begin(), r.filters.end(), [&](const Filter& f) { return of(f.col); }) ||
         (r.year_column && of(*r.year_column)) || (r.group && of(*r.group));
}

// Drops a table that cannot be joined to the subject, with what it would have contributed.
void DropUnjoinable(Reading& r) {
  const std::string dropped = Unjoinable(r);
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

// The foreign keys between two tables, each as (referencing columns, referenced columns) from `from`'s side.
std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> KeysBetween(const catalog::Schema& schema,
                                                                                       const std::string& from,
                                                                                       const std::string& to) {
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> out;
  auto add = [&](const std::string& referencing, const std::string& referenced, bool flip) {
    const catalog::Table* t = schema.FindTable(referencing);
    if (t == nullptr) return;
    for (const auto& fk : t->foreign_keys) {
      if (!EqualsIgnoreCase(fk.ref_table, referenced) || fk.columns.size() != fk.ref_columns.size()) continue;
      out.push_back(flip ? std::pair{fk.ref_columns, fk.columns} : std::pair{fk.columns, fk.ref_columns});
    }
  };
  add(from, to, false);
  if (!EqualsIgnoreCase(from, to)) add(to, from, true);
  return out;
}

// "the airport which is the source for the most routes": two tables joined by more than one foreign key (routes'
// src_apid and dst_apid to airports) are joined by the one whose column's name the question writes a word of
// (source, as the index expands src), when exactly one does; words every one of them has do not count.
void ChooseAmongParallelKeys(Reading& r) {
  for (linking::JoinEdge& e : r.tree->edges) {
    const auto keys = KeysBetween(r.ctx.schema, e.left_table, e.right_table);
    if (keys.size() < 2) continue;
    // The stems of each key's columns, on either side (the side they share, such as the referenced key, counts for
    // all of them and so for none).
    std::vector<std::set<std::string>> stems(keys.size());
    for (size_t k = 0; k < keys.size(); ++k) {
      auto in = [](const std::vector<std::string>& columns, const std::string& c) {
        return std::any_of(columns.begin(), columns.end(),
                           [&](const std::string& x) { return EqualsIgnoreCase(x, c); });
      };
      for (const auto& el : r.ctx.index.Elements()) {
        const bool of_key = (EqualsIgnoreCase(el.table, e.left_table) && in(keys[k].first, el.column)) ||
                            (EqualsIgnoreCase(el.table, e.right_table) && in(keys[k].second, el.column));
        if (!of_key || el.column.empty()) continue;
        for (const auto& phrase : el.phrases) stems[k].insert(phrase.begin(), phrase.end());
      }
    }
    // ("the person who has exactly one friend", PersonFriend's name and friend: a word of either table's own name
    // names the relation, not one side of it.)
    std::set<std::string> table_stems;
    for (const auto& el : r.ctx.index.Elements()) {
      if (!el.column.empty() ||
          !(EqualsIgnoreCase(el.table, e.left_table) || EqualsIgnoreCase(el.table, e.right_table))) {
        continue;
      }
      for (const auto& phrase : el.phrases) table_stems.insert(phrase.begin(), phrase.end());
    }
    std::vector<size_t> score(keys.size(), 0);
    std::set<std::string> seen;
    for (const auto& t : r.tokens) {
      if (t.kind != TokenKind::kWord || IsStopWord(t.lower) || !seen.insert(t.stem).second) continue;
      if (table_stems.count(t.stem)) continue;
      const size_t with = static_cast<size_t>(
          std::count_if(stems.begin(), stems.end(), [&](const auto& s) { return s.count(t.stem) > 0; }));
      if (with == 0 || with == keys.size()) continue;
      for (size_t k = 0; k < keys.size(); ++k) score[k] += stems[k].count(t.stem);
    }
    const size_t best = static_cast<size_t>(std::max_element(score.begin(), score.end()) - score.begin());
    if (score[best] == 0 || std::count(score.begin(), score.end(), score[best]) > 1) continue;
    if (keys[best].first == e.left_columns && keys[best].second == e.right_columns) continue;
    r.notes.push_back(fmt::format("joined {} and {} on {} = {} (a word of the question)", e.left_table, e.right_table,
                                  fmt::join(keys[best].first, ", "), fmt::join(keys[best].second, ", ")));
    e.left_columns = keys[best].first;
    e.right_columns = keys[best].second;
  }
}

// "List the claim id and the number of settlements": a column shown twice, once from each side of a join on it
// (Claims.Claim_ID, Settlements.Claim_ID), is shown once, where first listed.
void ShowJoinedColumnsOnce(Reading& r) {
  auto joined = [&](const ColumnRef& x, const ColumnRef& y) {
    return std::any_of(r.tree->edges.begin(), r.tree->edges.end(), [&](const linking::JoinEdge& e) {
      for (size_t i = 0; i < e.left_columns.size() && i < e.right_columns.size(); ++i) {
        const ColumnRef left{e.left_table, e.left_columns[i]}, right{e.right_table, e.right_columns[i]};
        auto same = [](const ColumnRef& a, const ColumnRef& b) {
          return EqualsIgnoreCase(a.table, b.table) && EqualsIgnoreCase(a.column, b.column);
        };
        if ((same(x, left) && same(y, right)) || (same(x, right) && same(y, left))) return true;
      }
      return false;
    });
  };
  for (size_t i = 0; i < r.select.size(); ++i) {
    if (r.select[i].kind != Output::Kind::kColumn) continue;
    for (size_t j = r.select.size(); j-- > i + 1;) {
      if (r.select[j].kind == Output::Kind::kColumn && joined(r.select[i].col, r.select[j].col)) {
        r.notes.push_back(fmt::format("{}.{} not shown: it equals {}.{} through the join", r.select[j].col.table,
                                      r.select[j].col.column, r.select[i].col.table, r.select[i].col.column));
        r.select.erase(r.select.begin() + static_cast<std::ptrdiff_t>(j));
      }
    }
  }
}

}  // namespace

void JoinTables(Reading& r) {
  r.tables = NeededTables(r);
  r.tree = linking::ConnectTables(r.ctx.schema, r.tables);
  while (!r.tree && r.tables.size() > 1) {
    // (The subject only: a view joined to a subject for one of its column names is more often a word that names a
    // table, which reading its column through would show.)
    // A view another table's words led to only for a condition is read through too: its column is a base column's.
    const catalog::Table* subject = r.ctx.schema.FindTable(r.subject);
    const std::string unjoinable = Unjoinable(r);
    const catalog::Table* other = r.ctx.schema.FindTable(unjoinable);
    const bool through = subject && subject->kind == catalog::TableKind::kView
                             ? ReadThroughView(r, r.subject)
                             : other && other->kind == catalog::TableKind::kView && OnlyConditionsRead(r, unjoinable) &&
                                   ReadThroughView(r, unjoinable);
    if (!through) DropUnjoinable(r);
    r.tree = linking::ConnectTables(r.ctx.schema, r.tables);
  }
  if (r.select.empty()) {
    auto name = ColumnNamed(r.ctx.schema, r.subject, "name");
    r.select.push_back(name ? Output{Output::Kind::kColumn, *name, ""} : Output{Output::Kind::kStar, {}, ""});
  }
  if (r.tree) {
    ChooseAmongParallelKeys(r);
    ShowJoinedColumnsOnce(r);
  }
  if (!r.tree) {
    r.reason = "the tables the question names are not connected by foreign keys: " +
               fmt::format("{}", fmt::join(r.tables, ", "));
    r.stopped = true;
  }
}

}  // namespace plainsql::builtin
