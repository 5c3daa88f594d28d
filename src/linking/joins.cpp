// Join trees over the foreign-key graph (see joins.h).
#include "linking/joins.h"
#include "common/strings.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <set>

namespace plainsql::linking {

namespace {

// One foreign key seen from either end.
struct Arc {
  std::string to;  // lower-case table name
  std::vector<std::string> from_columns, to_columns;
};

}  // namespace

std::vector<std::string> JoinTree::Tables() const {
  std::vector<std::string> out = {root};
  for (const auto& e : edges) out.push_back(e.right_table);
  return out;
}

std::optional<JoinTree> ConnectTables(const catalog::Schema& schema, const std::vector<std::string>& wanted) {
  std::map<std::string, std::string> spelled;  // lower -> as in the schema
  for (const auto& t : schema.tables) spelled[ToLower(t.name)] = t.name;
  std::vector<std::string> need;
  for (const auto& w : wanted) {
    std::string l = ToLower(w);
    if (!spelled.count(l)) return std::nullopt;
    if (std::find(need.begin(), need.end(), l) == need.end()) need.push_back(l);
  }
  if (need.empty()) return std::nullopt;
  std::map<std::string, std::vector<Arc>> graph;
  for (const auto& t : schema.tables) {
    for (const auto& fk : t.foreign_keys) {
      std::string a = ToLower(t.name), b = ToLower(fk.ref_table);
      if (!spelled.count(b) || fk.columns.empty() || fk.columns.size() != fk.ref_columns.size()) continue;
      graph[a].push_back({b, fk.columns, fk.ref_columns});
      graph[b].push_back({a, fk.ref_columns, fk.columns});
    }
  }
  JoinTree tree;
  tree.root = spelled[need[0]];
  std::set<std::string> in_tree = {need[0]};
  for (;;) {
    std::vector<std::string> missing;
    for (const auto& n : need) {
      if (!in_tree.count(n)) missing.push_back(n);
    }
    if (missing.empty()) break;
    // Breadth-first from the whole tree at once: the first missing table reached is the nearest.
    std::map<std::string, std::pair<std::string, const Arc*>> parent;  // node -> (previous node, arc used)
    std::deque<std::string> queue(in_tree.begin(), in_tree.end());
    std::set<std::string> seen(in_tree.begin(), in_tree.end());
    std::string found;
    while (!queue.empty() && found.empty()) {
      std::string at = queue.front();
      queue.pop_front();
      for (const Arc& arc : graph[at]) {
        if (seen.count(arc.to)) continue;
        seen.insert(arc.to);
        parent[arc.to] = {at, &arc};
        if (std::find(missing.begin(), missing.end(), arc.to) != missing.end()) {
          found = arc.to;
          break;
        }
        queue.push_back(arc.to);
      }
    }
    if (found.empty()) return std::nullopt;
    // The path back to the tree, then its edges in join order.
    std::vector<std::string> path;
    for (std::string n = found; !in_tree.count(n); n = parent[n].first) path.push_back(n);
    std::reverse(path.begin(), path.end());
    for (const auto& n : path) {
      const auto& [prev, arc] = parent[n];
      tree.edges.push_back({spelled[prev], spelled[n], arc->from_columns, arc->to_columns});
      in_tree.insert(n);
    }
  }
  return tree;
}

}  // namespace plainsql::linking
