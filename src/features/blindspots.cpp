// Blind spots: k-means over feature vectors, the elbow, Wilson intervals, cluster names.
//
// k-means is written here (about forty lines): the Debian libraries that have it (mlpack) bring Armadillo and a BLAS
// for what Lloyd's iterations over a few thousand short 0/1 rows need.
#include "features/blindspots.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace plainsql::features {

namespace {

double Distance2(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d += (a[i] - b[i]) * (a[i] - b[i]);
  return d;
}

// One seeded k-means run.
std::vector<size_t> KMeansOnce(const std::vector<std::vector<double>>& rows, size_t k, std::mt19937_64& rng,
                               double& sse) {
  const size_t n = rows.size();
  std::vector<std::vector<double>> centers;
  // k-means++: the first center at random, each next one drawn with probability proportional to the squared distance
  // to the nearest center so far.
  centers.push_back(rows[rng() % n]);
  std::vector<double> nearest(n, std::numeric_limits<double>::max());
  while (centers.size() < k) {
    double total = 0;
    for (size_t i = 0; i < n; ++i) {
      nearest[i] = std::min(nearest[i], Distance2(rows[i], centers.back()));
      total += nearest[i];
    }
    if (total == 0) break;  // fewer distinct rows than k
    double pick = std::uniform_real_distribution<double>(0, total)(rng);
    size_t chosen = n - 1;
    for (size_t i = 0; i < n; ++i) {
      pick -= nearest[i];
      if (pick <= 0) {
        chosen = i;
        break;
      }
    }
    centers.push_back(rows[chosen]);
  }
  std::vector<size_t> of(n, 0);
  for (int iteration = 0; iteration < 100; ++iteration) {
    bool moved = false;
    for (size_t i = 0; i < n; ++i) {
      size_t best = of[i];
      double best_d = Distance2(rows[i], centers[best]);
      for (size_t c = 0; c < centers.size(); ++c) {
        const double d = Distance2(rows[i], centers[c]);
        if (d < best_d) {
          best_d = d;
          best = c;
        }
      }
      moved |= best != of[i];
      of[i] = best;
    }
    if (!moved && iteration > 0) break;
    std::vector<std::vector<double>> sum(centers.size(), std::vector<double>(rows[0].size(), 0));
    std::vector<size_t> count(centers.size(), 0);
    for (size_t i = 0; i < n; ++i) {
      ++count[of[i]];
      for (size_t j = 0; j < rows[i].size(); ++j) sum[of[i]][j] += rows[i][j];
    }
    for (size_t c = 0; c < centers.size(); ++c) {
      if (count[c] == 0) continue;  // an emptied cluster keeps its center
      for (double& x : sum[c]) x /= static_cast<double>(count[c]);
      centers[c] = std::move(sum[c]);
    }
  }
  sse = 0;
  for (size_t i = 0; i < n; ++i) sse += Distance2(rows[i], centers[of[i]]);
  return of;
}

}  // namespace

std::vector<size_t> KMeans(const std::vector<std::vector<double>>& rows, size_t k, uint64_t seed, size_t restarts,
                           double* sse) {
  std::vector<size_t> best;
  double best_sse = std::numeric_limits<double>::max();
  if (rows.empty() || k == 0) return best;
  std::mt19937_64 rng(seed);
  for (size_t r = 0; r < std::max<size_t>(1, restarts); ++r) {
    double s = 0;
    auto of = KMeansOnce(rows, std::min(k, rows.size()), rng, s);
    if (s < best_sse) {
      best_sse = s;
      best = std::move(of);
    }
  }
  if (sse) *sse = best_sse;
  return best;
}

size_t Elbow(const std::vector<double>& sse, size_t first) {
  if (sse.size() < 3) return first;
  const double top = sse.front(), bottom = sse.back();
  const double span = top - bottom;
  if (span <= 0) return first;
  size_t best = 0;
  double best_gap = -1;
  for (size_t i = 0; i < sse.size(); ++i) {
    const double x = static_cast<double>(i) / static_cast<double>(sse.size() - 1);
    const double y = (sse[i] - bottom) / span;  // 1 at the first k, 0 at the last
    const double gap = (1 - x) - y;             // how far below the line from (0, 1) to (1, 0)
    if (gap > best_gap) {
      best_gap = gap;
      best = i;
    }
  }
  return first + best;
}

std::pair<double, double> WilsonInterval(size_t right, size_t n) {
  if (n == 0) return {0, 1};
  constexpr double kZ = 1.959964;  // the normal quantile of 97.5 %
  const double p = static_cast<double>(right) / static_cast<double>(n), nn = static_cast<double>(n);
  const double center = (p + kZ * kZ / (2 * nn)) / (1 + kZ * kZ / nn);
  const double half = kZ * std::sqrt(p * (1 - p) / nn + kZ * kZ / (4 * nn * nn)) / (1 + kZ * kZ / nn);
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

Result<BlindSpotReport> BlindSpots(const std::vector<Values>& values, const std::vector<bool>& right,
                                   const std::vector<bool>& right_b, const BlindSpotOptions& options) {
  if (values.size() != right.size() || (!right_b.empty() && right_b.size() != right.size())) {
    return MakeError(ErrorCode::kInvalidArgument, "blind spots: one outcome per example");
  }
  if (values.size() < 20) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("{} scored questions: too few to cluster (20 at least)", values.size()));
  }
  std::vector<std::vector<double>> rows;
  rows.reserve(values.size());
  for (const auto& v : values) {
    std::vector<double> x(v.size());
    for (size_t j = 0; j < v.size(); ++j) x[j] = v[j] == 1 ? 1.0 : 0.0;
    rows.push_back(std::move(x));
  }
  BlindSpotReport report;
  report.examples = values.size();
  report.right = static_cast<size_t>(std::count(right.begin(), right.end(), true));
  if (!right_b.empty()) report.right_b = static_cast<size_t>(std::count(right_b.begin(), right_b.end(), true));
  size_t k = options.k.value_or(0);
  if (!options.k) {
    for (size_t c = options.min_k; c <= options.max_k; ++c) {
      double sse = 0;
      KMeans(rows, c, options.seed, options.restarts, &sse);
      report.sse.push_back(sse);
    }
    k = Elbow(report.sse, options.min_k);
  }
  report.k = k;
  double sse = 0;
  const std::vector<size_t> of = KMeans(rows, k, options.seed, options.restarts, &sse);
  // Shares overall, then per cluster.
  const size_t width = rows[0].size();
  std::vector<double> overall(width, 0);
  for (const auto& r : rows) {
    for (size_t j = 0; j < width; ++j) overall[j] += r[j];
  }
  for (double& x : overall) x /= static_cast<double>(rows.size());
  std::vector<Cluster> clusters(k);
  std::vector<std::vector<double>> share(k, std::vector<double>(width, 0));
  for (size_t i = 0; i < rows.size(); ++i) {
    Cluster& c = clusters[of[i]];
    ++c.size;
    c.right += right[i] ? 1 : 0;
    if (!right_b.empty()) c.right_b = c.right_b.value_or(0) + (right_b[i] ? 1 : 0);
    for (size_t j = 0; j < width; ++j) share[of[i]][j] += rows[i][j];
  }
  const double mean = static_cast<double>(report.right) / static_cast<double>(report.examples);
  for (size_t c = 0; c < k; ++c) {
    Cluster& cl = clusters[c];
    if (cl.size == 0) continue;
    std::tie(cl.low, cl.high) = WilsonInterval(cl.right, cl.size);
    cl.blind_spot = cl.high < mean;
    std::vector<std::pair<size_t, double>> gaps;
    for (size_t j = 0; j < width; ++j) {
      share[c][j] /= static_cast<double>(cl.size);
      gaps.emplace_back(j, share[c][j] - overall[j]);
    }
    std::sort(gaps.begin(), gaps.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (size_t n = 0; n < options.names && n < gaps.size() && gaps[n].second > 0; ++n) {
      cl.distinctive.push_back(gaps[n]);
      cl.share.emplace_back(gaps[n].first, share[c][gaps[n].first]);
    }
  }
  // By accuracy, lowest first; the assignment follows.
  std::vector<size_t> order(k);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return clusters[a].Accuracy() < clusters[b].Accuracy(); });
  for (size_t r = 0; r < k; ++r) {
    if (clusters[order[r]].size > 0) report.clusters.push_back(clusters[order[r]]);
  }
  // Empty clusters were dropped: renumber by the kept order.
  std::vector<size_t> kept(k, 0);
  for (size_t r = 0, next = 0; r < k; ++r) {
    if (clusters[order[r]].size > 0) kept[order[r]] = next++;
  }
  report.assignment.reserve(of.size());
  for (size_t c : of) report.assignment.push_back(kept[c]);
  report.k = report.clusters.size();
  return report;
}

std::string BlindSpotText(const BlindSpotReport& r, const std::string& name_a, const std::string& name_b) {
  const double mean = r.examples ? static_cast<double>(r.right) / static_cast<double>(r.examples) : 0;
  std::string out = fmt::format("{} questions, {} right ({:.3f}) by {}", r.examples, r.right, mean, name_a);
  if (r.right_b) {
    out += fmt::format("; {} right ({:.3f}) by {}", *r.right_b,
                       static_cast<double>(*r.right_b) / static_cast<double>(r.examples), name_b);
  }
  out += fmt::format("\n{} clusters{}\n", r.k,
                     r.sse.empty() ? "" : " (the elbow of the within-cluster sum of squares over k)");
  for (size_t c = 0; c < r.clusters.size(); ++c) {
    const Cluster& cl = r.clusters[c];
    out += fmt::format("\nC{} {:>5} questions  right {:.3f} [{:.3f}, {:.3f}]", c + 1, cl.size, cl.Accuracy(), cl.low,
                       cl.high);
    if (cl.right_b) {
      const double b = static_cast<double>(*cl.right_b) / static_cast<double>(cl.size);
      out += fmt::format("  {} {:.3f} ({:+.3f})", name_b, b, cl.Accuracy() - b);
    }
    out += cl.blind_spot ? "  BLIND SPOT\n" : "\n";
    for (size_t n = 0; n < cl.distinctive.size(); ++n) {
      const auto& f = Catalog()[cl.distinctive[n].first];
      out += fmt::format("    {:<28} {:.2f} here, {:+.2f}  {}\n", f.id, cl.share[n].second, cl.distinctive[n].second,
                         f.text);
    }
  }
  return out;
}

nlohmann::json BlindSpotJson(const BlindSpotReport& r) {
  nlohmann::json clusters = nlohmann::json::array();
  for (const auto& cl : r.clusters) {
    nlohmann::json names = nlohmann::json::array();
    for (size_t n = 0; n < cl.distinctive.size(); ++n) {
      names.push_back({{"feature", Catalog()[cl.distinctive[n].first].id},
                       {"share", cl.share[n].second},
                       {"above_overall", cl.distinctive[n].second}});
    }
    nlohmann::json c = {{"questions", cl.size},          {"right", cl.right},           {"accuracy", cl.Accuracy()},
                        {"interval", {cl.low, cl.high}}, {"blind_spot", cl.blind_spot}, {"features", names}};
    if (cl.right_b) c["right_b"] = *cl.right_b;
    clusters.push_back(std::move(c));
  }
  nlohmann::json j = {
      {"questions", r.examples}, {"right", r.right}, {"k", r.k}, {"clusters", clusters}, {"assignment", r.assignment}};
  if (r.right_b) j["right_b"] = *r.right_b;
  if (!r.sse.empty()) j["sse"] = r.sse;
  return j;
}

}  // namespace plainsql::features
