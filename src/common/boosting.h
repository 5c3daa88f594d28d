// Gradient-boosted trees fitted by XGBoost (Debian's libxgboost-dev, its C API) for a yes/no label: the learner of
// models whose inputs leave the range they were fitted on (a tree's leaf holds beyond its last split, where a linear
// model with pairwise products extrapolates without bound). Only trainers link this; the library evaluates the
// result itself (trees.h).
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "common/trees.h"

namespace plainsql {

struct BoostingOptions {
  int rounds = 300;        // trees
  int max_depth = 4;       // levels per tree
  double eta = 0.1;        // learning rate
  double subsample = 0.8;  // share of the rows each tree sees
  double colsample = 0.8;  // share of the inputs each tree sees
  uint64_t seed = 0;       // the sampling's seed: the same rows and options give the same trees
  int threads = 2;
};

/// Fits trees on dense `rows` (all of one width) against `labels` (1 or 0) with logistic loss; the margin's sigmoid is
/// the probability of label 1.
Result<TreeEnsemble> FitBoostedTrees(const std::vector<std::vector<double>>& rows, const std::vector<double>& labels,
                                     const BoostingOptions& options);

}  // namespace plainsql
