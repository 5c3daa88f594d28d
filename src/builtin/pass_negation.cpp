// The negation passes (see passes.h): "drivers without a school bus", "pilots who did not win matches in Australia".
#include <fmt/format.h>

#include <map>

#include "builtin/passes.h"
#include "builtin/query_tree.h"
#include "common/strings.h"

namespace plainsql::builtin {

namespace {

// "the locations where no cinema has capacity over 800", "headquarters without a company in banking": the negation
// is followed by the subject's own table, so what is shown must hold for none of its rows (a set difference), not
// merely fail for one row.
bool NegatesEverySubjectRow(const Reading& r) {
  size_t k = *r.neg_at + 1;
  // "all home cities except (for) those having a driver older than 40": what is shown, less what those rows show.
  if (r.tokens[*r.neg_at].lower == "except") {
    if (k < r.tokens.size() && r.tokens[k].lower == "for") ++k;
    if (k < r.tokens.size() && (r.tokens[k].lower == "those" || r.tokens[k].lower == "ones")) return true;
  }
  while (k < r.tokens.size() && (r.tokens[k].lower == "a" || r.tokens[k].lower == "an" || r.tokens[k].lower == "any" ||
                                 r.tokens[k].lower == "single")) {
    ++k;
  }
  return std::any_of(r.mentions.begin(), r.mentions.end(), [&](const Mention& m) {
    const auto& el = ElementOf(r, m);
    return m.begin == k && el.column.empty() && ToLower(el.table) == ToLower(r.subject);
  });
}

// The negated part's filters leave the main query for the subquery; with no other table negated, a value of the
// subject's own table after the negation is `!=` ("players not from the USA").
void SplitNegatedFilters(Reading& r) {
  if (!r.negated_tables.empty()) {
    for (auto it = r.filters.begin(); it != r.filters.end();) {
      if (it->at != SIZE_MAX && it->at > *r.neg_at && r.negated_tables.count(ToLower(it->col.table))) {
        r.negated_filters.push_back(*it);
        it = r.filters.erase(it);
      } else {
        ++it;
      }
    }
  } else if (r.neg_at) {
    // ("cinemas that do not have capacity over 800": at most 800.)
    const bool every_row = NegatesEverySubjectRow(r);
    for (auto& f : r.filters) {
      if (f.at == SIZE_MAX || f.at <= *r.neg_at) continue;
      if (every_row) r.except_filters.push_back(f);
      if (f.op == "=") {
        f.op = "!=";
      } else if (const std::string_view denied = DeniedOp(f.op); !denied.empty()) {
        f.op = std::string(denied);
        f.denied = true;
      }
    }
  }
}

// SELECT S1.key FROM first AS S1 JOIN ... [WHERE negated filters]: the rows of the negated tables, by the key that
// `first` (the one edge from the subject) joins on.
sql::Query NotInSubquery(const Reading& r, const linking::JoinTree& tree, const linking::JoinEdge& first) {
  std::map<std::string, std::string> alias;
  size_t next = 1;
  for (const auto& t : tree.Tables()) {
    if (ToLower(t) != ToLower(r.subject)) alias[ToLower(t)] = fmt::format("S{}", next++);
  }
  const sql::Dialect& d = r.ctx.dialect;
  auto ref = [&](const std::string& table, const std::string& column) {
    return tree::Column(d, alias[ToLower(table)], column);
  };
  sql::Select s;
  s.items.push_back({ref(first.right_table, first.right_columns.front()), std::nullopt});
  sql::TableRef from = tree::Table(d, first.right_table, alias[ToLower(first.right_table)]);
  for (const auto& e : tree.edges) {
    if (&e == &first) continue;
    std::vector<sql::Expr> on;
    for (size_t i = 0; i < e.left_columns.size(); ++i) {
      on.push_back(tree::Binary("=", ref(e.left_table, e.left_columns[i]), ref(e.right_table, e.right_columns[i])));
    }
    from = tree::Join(std::move(from), tree::Table(d, e.right_table, alias[ToLower(e.right_table)]),
                      tree::AllOf(std::move(on)));
  }
  s.from = std::move(from);
  std::vector<sql::Expr> conds;
  for (const auto& f : r.negated_filters) conds.push_back(tree::Condition(d, ref(f.col.table, f.col.column), f));
  if (!conds.empty()) s.where = tree::AllOf(std::move(conds));
  return tree::QueryOf(std::move(s));
}

}  // namespace

void FindNegation(Reading& r) {
  // The first negating word that is not part of a comparison ("no more than 3") or a pattern.
  for (size_t n : r.intent.negations) {
    bool part_of_comparison = false;
    for (const auto& c : r.intent.comparisons) part_of_comparison = part_of_comparison || c.cue == n + 1;
    if (!part_of_comparison && !r.pattern_negations.count(n)) {
      r.neg_at = n;
      break;
    }
  }
  if (!r.neg_at) return;
  // The tables named after it (other than the subject) and the values found in them are negated; they are not
  // joined in the main query.
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (el.column.empty() && m.begin > *r.neg_at && ToLower(el.table) != ToLower(r.subject)) {
      r.negated_tables.insert(ToLower(el.table));
    }
  }
  for (const auto& f : r.filters) {
    if (f.at != SIZE_MAX && f.at > *r.neg_at && ToLower(f.col.table) != ToLower(r.subject)) {
      r.negated_tables.insert(ToLower(f.col.table));
    }
  }
  std::erase_if(r.mentions, [&](const Mention& m) {
    return m.begin > *r.neg_at && r.negated_tables.count(ToLower(ElementOf(r, m).table));
  });
  r.used[*r.neg_at] = true;
}

void BuildNegation(Reading& r) {
  SplitNegatedFilters(r);
  if (r.negated_tables.empty()) return;
  std::vector<std::string> wanted = {r.subject};
  for (const auto& t : r.ctx.schema.tables) {
    if (r.negated_tables.count(ToLower(t.name))) wanted.push_back(t.name);
  }
  auto sub_tree = linking::ConnectTables(r.ctx.schema, wanted);
  size_t from_subject = 0;
  const linking::JoinEdge* first = nullptr;
  if (sub_tree) {
    for (const auto& e : sub_tree->edges) {
      if (ToLower(e.left_table) == ToLower(r.subject)) {
        ++from_subject;
        first = &e;
      }
    }
  }
  if (first && from_subject == 1 && first->left_columns.size() == 1) {
    r.not_in = NotInSubquery(r, *sub_tree, *first);
    r.not_in_column = {r.subject, first->left_columns.front()};
    r.notes.push_back(fmt::format("negated: {} NOT IN rows of {}", r.subject, fmt::join(r.negated_tables, ", ")));
    return;
  }
  // No single foreign key to negate through: keep the tables joined as before.
  r.notes.push_back("negation not applied: no single foreign key from " + r.subject + " to the negated tables");
  for (auto& f : r.negated_filters) r.filters.push_back(f);
  r.negated_filters.clear();
  for (const auto& t : r.ctx.schema.tables) {
    if (r.negated_tables.count(ToLower(t.name))) r.need_tables_extra.push_back(t.name);
  }
}

}  // namespace plainsql::builtin
