// Benchmark composition (SQLSpace §4): each feature's share in each set of examples, a chi-square test of whether the
// shares differ, and the features that set each set apart from the others.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "features/values.h"

namespace plainsql::features {

/// A named set of examples' feature vectors (one benchmark, one split).
struct FeatureSet {
  std::string name;
  std::vector<Values> rows;
};

/// Reads the JSON lines of `plainsql features --json` (one {"features": [...], "unknown": [...]} per example): an
/// id listed under "features" is 1, under "unknown" -1, any other 0. Ids not in the catalog are an error (a file
/// from another version).
Result<FeatureSet> ReadFeatureLines(const std::string& path, const std::string& name);

/// The upper tail of the chi-square distribution with `df` degrees of freedom at `x`: the p-value of a statistic.
double ChiSquareTail(double x, double df);

struct FeatureComparison {
  size_t feature = 0;                // index into Catalog()
  std::vector<size_t> holds, known;  // per set: examples where it holds, where it was computed
  double chi2 = 0, p = 1;            // the k x 2 test of equal shares (p = 1 when it cannot be computed)
  bool significant = false;          // p below 0.05 / (features tested) (Bonferroni)
  double Share(size_t set) const {
    return known[set] == 0 ? 0.0 : static_cast<double>(holds[set]) / static_cast<double>(known[set]);
  }
};

/// What sets one set apart: a feature whose share in it differs from the others' together, significantly (its own 2 x
/// 2 test, Bonferroni), the largest differences first.
struct Distinctive {
  size_t feature = 0;
  double share = 0, others = 0, p = 1;
};

struct Composition {
  std::vector<std::string> sets;
  std::vector<size_t> sizes;
  std::vector<FeatureComparison> features;            // every feature computed in two sets or more, in catalog order
  std::vector<std::vector<Distinctive>> distinctive;  // per set, at most `top` each way (more and less frequent)
};

/// Compares two sets or more. `top`: the distinctive features kept per set, each way.
Result<Composition> Compare(const std::vector<FeatureSet>& sets, size_t top = 8);

std::string CompositionText(const Composition& c);
nlohmann::json CompositionJson(const Composition& c);
/// A self-contained HTML page: the distinctive features of each set as bars, and the table of every feature.
std::string CompositionHtml(const Composition& c);

}  // namespace plainsql::features
