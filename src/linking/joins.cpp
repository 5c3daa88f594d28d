// Join trees over the foreign-key graph (see joins.h).
#include "linking/joins.h"
#include "common/strings.h"
#include "naturalness/wordlist.h"

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
  bool same_names = false;  // every column pair names the same thing (NamesTheSame)
};

// The consonant skeleton (naturalness::ConsonantSkeleton) of a column's letters without a final "id": "PLNT_ID" and
// "plant_id" both read "plnt".
std::string Consonants(const std::string& name) {
  std::string letters;
  for (char c : name) {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      letters += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  if (letters.size() > 2 && letters.ends_with("id")) letters.resize(letters.size() - 2);
  return naturalness::ConsonantSkeleton(letters);
}

// Whether two key columns name the same thing: equal but for case and separators, or with the same consonants
// ("PLNT_ID" and "plant_id"); not a role ("Reported By" and technician_id).
bool NamesTheSame(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (Consonants(a[i]).empty() || Consonants(a[i]) != Consonants(b[i])) return false;
  }
  return true;
}

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
      const bool same = NamesTheSame(fk.columns, fk.ref_columns);
      graph[a].push_back({b, fk.columns, fk.ref_columns, same});
      graph[b].push_back({a, fk.ref_columns, fk.columns, same});
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
    // Breadth-first from the whole tree at once, a level at a time: the first missing table reached is the nearest.
    // Among the shortest paths to a table, the one with the most keys whose two columns name the same thing
    // (NamesTheSame: TB_MO.EQ_ID = TB_EQUIP.EQ_ID) rather than a role ("Reported By" = technician_id): an order
    // belongs to the plant of its equipment more plainly than to that of whoever reported it.
    std::map<std::string, std::pair<std::string, const Arc*>> parent;  // node -> (previous node, arc used)
    std::map<std::string, int> named;                                  // node -> same-named keys on its path
    std::vector<std::string> level(in_tree.begin(), in_tree.end());
    std::set<std::string> seen(in_tree.begin(), in_tree.end());
    std::string found;
    while (!level.empty() && found.empty()) {
      std::vector<std::string> next;
      for (const std::string& at : level) {
        for (const Arc& arc : graph[at]) {
          const int n = named[at] + (arc.same_names ? 1 : 0);
          if (seen.count(arc.to)) {
            // (a table of this level reached again: the path with more same-named keys wins)
            if (std::find(next.begin(), next.end(), arc.to) != next.end() && n > named[arc.to]) {
              parent[arc.to] = {at, &arc};
              named[arc.to] = n;
            }
            continue;
          }
          seen.insert(arc.to);
          parent[arc.to] = {at, &arc};
          named[arc.to] = n;
          next.push_back(arc.to);
        }
      }
      for (const std::string& n : next) {
        if (std::find(missing.begin(), missing.end(), n) != missing.end()) {
          found = n;
          break;
        }
      }
      level = std::move(next);
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
