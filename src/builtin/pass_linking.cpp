// The linking pass (see passes.h): the tables and columns the question names.
#include <algorithm>

#include "builtin/passes.h"
#include "common/strings.h"

namespace plainsql::builtin {

namespace {

bool Free(const Reading& r, const linking::LinkMatch& m) {
  for (size_t i = m.begin; i < m.end; ++i) {
    if (r.used[i]) return false;
  }
  return true;
}

// A column word that several tables have ("names") belongs to a table the question names ("names of medications"),
// or whose stored value it names: those columns' links are preferred.
void PreferNamedTables(Reading& r) {
  std::set<std::string> named_tables;
  for (const auto& m : r.links) {
    const auto& el = r.ctx.index.Elements()[m.element];
    if (el.column.empty() && m.whole && Free(r, m)) named_tables.insert(ToLower(el.table));
  }
  for (const auto& v : r.values) named_tables.insert(ToLower(v.table));
  constexpr double kBoost = 0.3;  // chosen on Spider train (0.05: 0.369, 0.3: 0.374, 0.6: 0.373)
  for (auto& m : r.links) {
    const auto& el = r.ctx.index.Elements()[m.element];
    if (!el.column.empty() && named_tables.count(ToLower(el.table))) m.score += kBoost;
  }
  std::stable_sort(r.links.begin(), r.links.end(),
                   [](const linking::LinkMatch& a, const linking::LinkMatch& b) { return a.score > b.score; });
}

}  // namespace

void LinkSchema(Reading& r) {
  PreferNamedTables(r);
  for (const auto& m : r.links) {
    if (!Free(r, m)) continue;
    // A partial match only stands in for a column when nothing better names that word.
    if (!m.whole && m.score < 0.5) continue;  // (boosted partial links pass)
    r.mentions.push_back({m.element, m.begin, m.end, m.whole});
    for (size_t i = m.begin; i < m.end; ++i) r.used[i] = true;
    r.linked_tables.insert(ToLower(r.ctx.index.Elements()[m.element].table));
  }
  std::sort(r.mentions.begin(), r.mentions.end(), [](const Mention& a, const Mention& b) { return a.begin < b.begin; });
}

}  // namespace plainsql::builtin
