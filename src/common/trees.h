// An ensemble of regression trees (gradient boosting) as the library evaluates it: nodes in flat arrays, a sum of one
// leaf per tree plus a base margin, with a text form that model files carry. Fitting is XGBoost's (boosting.h, in the
// trainers only); walking the saved trees is a few comparisons per tree, so the library evaluates them itself and
// stays free of XGBoost's runtime and its thread pool (the library also runs inside PostgreSQL backends).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace plainsql {

struct TreeNode {
  int32_t feature = -1;           // the input compared; -1: a leaf
  float threshold = 0;            // go left when the input (as a float) is below it
  int32_t left = -1, right = -1;  // node indices within the tree
  float value = 0;                // a leaf's contribution to the margin
};

struct TreeEnsemble {
  std::vector<std::vector<TreeNode>> trees;  // node 0 of each is its root
  double base_margin = 0;

  bool Empty() const { return trees.empty(); }
  /// base_margin + the leaf each tree reaches for `x` (inputs beyond x's size read as 0).
  double Margin(const std::vector<double>& x) const;
  /// Margin of each of `rows`, the same sums in the same order, walked tree by tree: one tree's nodes stay in cache
  /// across the rows, where a row at a time walks every tree's (a few hundred trees do not fit in the core's cache).
  std::vector<double> Margins(const std::vector<const std::vector<double>*>& rows) const;
  /// "<prefix>_base<TAB>margin", then per node "<prefix>_node<TAB>tree<TAB>node<TAB>input<TAB>threshold<TAB>left<TAB>
  /// right" or "<prefix>_leaf<TAB>tree<TAB>node<TAB>value", inputs by name.
  std::string Serialize(const std::string& prefix, const std::vector<std::string>& inputs) const;
  /// One line of that form (fields split on tabs, the prefix already matched and removed from fields[0], which is
  /// "base", "node" or "leaf"); nodes may come in any order. Check() when all are read.
  Status ParseLine(const std::vector<std::string>& fields, const std::vector<std::string>& inputs);
  /// Every tree's nodes given, children inside the tree, no cycle (a child's index above its parent's).
  Status Check() const;
};

}  // namespace plainsql
