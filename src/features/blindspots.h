// Blind spots (SQLSpace §5): a run's questions clustered by their features (k-means), accuracy per cluster with an
// interval, each cluster named by its most distinctive features, and the clusters where the system does far worse
// than on average; with a second run on the same questions, where one system beats the other.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "features/values.h"

namespace plainsql::features {

/// k-means (k-means++ seeding, Lloyd's iterations) over 0/1 rows, the best of `restarts` seeded runs by their
/// within-cluster sum of squares. Returns each row's cluster; `sse` gets the sum.
std::vector<size_t> KMeans(const std::vector<std::vector<double>>& rows, size_t k, uint64_t seed, size_t restarts,
                           double* sse);

/// The elbow of an SSE curve over k = first, first + 1, ...: the k whose point lies farthest below the straight line
/// from the first point to the last (both axes scaled to [0, 1]): Satopää et al.'s "kneedle" for a decreasing convex
/// curve.
size_t Elbow(const std::vector<double>& sse, size_t first);

/// A Wilson score interval (95 %) for `right` of `n`.
std::pair<double, double> WilsonInterval(size_t right, size_t n);

struct BlindSpotOptions {
  std::optional<size_t> k;       // clusters; default: the elbow of k = 2 .. 20
  size_t min_k = 2, max_k = 20;  // the elbow's range
  uint64_t seed = 0;
  size_t restarts = 5;
  size_t names = 3;  // distinctive features naming each cluster
};

struct Cluster {
  size_t size = 0, right = 0;
  double low = 0, high = 1;                            // the accuracy's Wilson interval
  std::optional<size_t> right_b;                       // the second run's right answers, when given
  std::vector<std::pair<size_t, double>> distinctive;  // feature, share in the cluster minus share overall
  std::vector<std::pair<size_t, double>> share;        // the same features' share in the cluster
  bool blind_spot = false;                             // the interval's upper end below the run's accuracy
  double Accuracy() const { return size ? static_cast<double>(right) / static_cast<double>(size) : 0; }
};

struct BlindSpotReport {
  size_t k = 0, examples = 0, right = 0;
  std::optional<size_t> right_b;
  std::vector<double> sse;         // per k tried (from min_k), when k was chosen by the elbow
  std::vector<Cluster> clusters;   // by accuracy, lowest first
  std::vector<size_t> assignment;  // per example, its cluster (an index into `clusters`)
};

/// Clusters `values` (one per example; -1 read as 0) and scores `right` per cluster; `right_b`, when not empty, is a
/// second system's outcomes on the same examples.
Result<BlindSpotReport> BlindSpots(const std::vector<Values>& values, const std::vector<bool>& right,
                                   const std::vector<bool>& right_b, const BlindSpotOptions& options);

std::string BlindSpotText(const BlindSpotReport& report, const std::string& name_a, const std::string& name_b);
nlohmann::json BlindSpotJson(const BlindSpotReport& report);

}  // namespace plainsql::features
