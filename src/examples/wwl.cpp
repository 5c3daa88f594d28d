// Weisfeiler-Lehman labels and the exact Wasserstein distance between them (see wwl.h).
#include "examples/wwl.h"

#include <fmt/format.h>
#include <lemon/network_simplex.h>
#include <lemon/smart_graph.h>
#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <thread>

namespace plainsql::examples {

namespace {

constexpr int kPositions = kWlIterations + 1;  // labels per node
constexpr uint8_t kEncodingVersion = 1;        // first byte of EncodeLabels's output

void AppendLe64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

uint64_t ReadLe64(std::string_view bytes, size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{static_cast<uint8_t>(bytes[at + static_cast<size_t>(i)])} << (8 * i);
  return v;
}

// Unsigned LEB128: 7 bits a byte, low bits first, the high bit set on every byte but the last.
void AppendVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// Reads a varint at `at` and moves `at` past it; false when the bytes end first or the value passes 64 bits.
bool ReadVarint(std::string_view bytes, size_t& at, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (at >= bytes.size()) return false;
    auto b = static_cast<uint8_t>(bytes[at++]);
    if (shift == 63 && b > 1) return false;
    v |= uint64_t{b & 0x7Fu} << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

// A graph's node embeddings with repeats merged: the distinct embeddings in ascending order, how many nodes have
// each, and the node count. Many schema nodes share an embedding (every plain text column of a table with the same
// neighbourhood), so the transport problem over bins is much smaller than over nodes, and the same.
struct Bins {
  std::vector<NodeLabels> labels;
  std::vector<int64_t> counts;
  int64_t nodes = 0;
};

Bins MakeBins(std::vector<NodeLabels> nodes) {
  std::sort(nodes.begin(), nodes.end());
  Bins bins;
  bins.nodes = static_cast<int64_t>(nodes.size());
  for (const NodeLabels& n : nodes) {
    if (bins.labels.empty() || bins.labels.back() != n) {
      bins.labels.push_back(n);
      bins.counts.push_back(0);
    }
    ++bins.counts.back();
  }
  return bins;
}

// The number of positions where two embeddings differ: the ground distance times kPositions.
int64_t Differing(const NodeLabels& a, const NodeLabels& b) {
  int64_t d = 0;
  for (int i = 0; i < kPositions; ++i) d += a[static_cast<size_t>(i)] != b[static_cast<size_t>(i)];
  return d;
}

// One side's bins that still have mass to move: (bin index, mass).
using Masses = std::vector<std::pair<size_t, int64_t>>;

// Min-cost flow from the bins of `from` to those of `to`, every pair connected at its integer ground cost.
int64_t NetworkSimplexCost(const Bins& a, const Masses& from, const Bins& b, const Masses& to) {
  lemon::SmartDigraph g;
  g.reserveNode(static_cast<int>(from.size() + to.size()));
  g.reserveArc(static_cast<int>(from.size() * to.size()));
  std::vector<lemon::SmartDigraph::Node> sinks;
  sinks.reserve(to.size());
  for (size_t j = 0; j < to.size(); ++j) sinks.push_back(g.addNode());
  lemon::SmartDigraph::NodeMap<int64_t> supply(g);
  lemon::SmartDigraph::ArcMap<int64_t> cost(g);
  for (const auto& [bin, mass] : from) {
    lemon::SmartDigraph::Node source = g.addNode();
    supply.set(source, mass);
    for (size_t j = 0; j < to.size(); ++j)
      cost.set(g.addArc(source, sinks[j]), Differing(a.labels[bin], b.labels[to[j].first]));
  }
  for (size_t j = 0; j < to.size(); ++j) supply.set(sinks[j], -to[j].second);
  lemon::NetworkSimplex<lemon::SmartDigraph, int64_t, int64_t> simplex(g);
  simplex.costMap(cost).supplyMap(supply);
  [[maybe_unused]] auto outcome = simplex.run();
  assert(outcome == decltype(simplex)::OPTIMAL);  // balanced supplies, every arc uncapacitated: always feasible
  return simplex.totalCost<int64_t>();
}

// The exact earth mover's distance between two graphs' bins (see wwl.h for the definition and the empty cases).
double BinsDistance(const Bins& a, const Bins& b) {
  if (a.nodes == 0 || b.nodes == 0) return a.nodes == b.nodes ? 0.0 : 1.0;
  // Integer masses: node weights 1/|A| and 1/|B| scaled by |A||B|/gcd, so each side carries `total`.
  int64_t g = std::gcd(a.nodes, b.nodes);
  int64_t per_a = b.nodes / g, per_b = a.nodes / g, total = a.nodes * per_a;
  // Mass on an embedding both sides have stays put: with a metric ground distance some optimal plan keeps
  // min(mass in A, mass in B) there (rerouting through it never costs more, by the triangle inequality).
  Masses from, to;
  size_t i = 0, j = 0;
  while (i < a.labels.size() || j < b.labels.size()) {
    bool take_a = j == b.labels.size() || (i < a.labels.size() && a.labels[i] <= b.labels[j]);
    bool take_b = i == a.labels.size() || (j < b.labels.size() && b.labels[j] <= a.labels[i]);
    int64_t ma = take_a ? a.counts[i] * per_a : 0, mb = take_b ? b.counts[j] * per_b : 0;
    int64_t kept = take_a && take_b ? std::min(ma, mb) : 0;
    if (ma > kept) from.emplace_back(i, ma - kept);
    if (mb > kept) to.emplace_back(j, mb - kept);
    i += take_a;
    j += take_b;
  }
  int64_t cost = 0;
  if (from.size() == 1 || to.size() == 1) {  // one bin on a side: every unit moves between it and the other side
    for (const auto& [bi, mi] : from) {
      for (const auto& [bj, mj] : to) cost += (from.size() == 1 ? mj : mi) * Differing(a.labels[bi], b.labels[bj]);
    }
  } else if (!from.empty()) {
    cost = NetworkSimplexCost(a, from, b, to);
  }
  return static_cast<double>(cost) / (static_cast<double>(kPositions) * static_cast<double>(total));
}

}  // namespace

std::vector<NodeLabels> WlLabels(const SchemaGraph& graph) {
  assert(graph.labels.size() == graph.neighbours.size());
  size_t n = graph.labels.size();
  std::vector<NodeLabels> out(n);
  for (size_t v = 0; v < n; ++v) out[v][0] = static_cast<uint64_t>(graph.labels[v]);
  std::vector<uint64_t> around;
  std::string bytes;
  for (size_t h = 1; h < static_cast<size_t>(kPositions); ++h) {
    for (size_t v = 0; v < n; ++v) {
      around.clear();
      for (uint32_t u : graph.neighbours[v]) around.push_back(out[u][h - 1]);
      std::sort(around.begin(), around.end());
      bytes.clear();
      AppendLe64(bytes, out[v][h - 1]);
      for (uint64_t l : around) AppendLe64(bytes, l);
      out[v][h] = XXH3_64bits(bytes.data(), bytes.size());
    }
  }
  return out;
}

double WwlDistance(const std::vector<NodeLabels>& a, const std::vector<NodeLabels>& b) {
  return BinsDistance(MakeBins(a), MakeBins(b));
}

std::vector<std::vector<double>> WwlDistances(const std::vector<std::vector<NodeLabels>>& graphs, int threads,
                                              const std::function<void(size_t done, size_t total)>& progress) {
  size_t n = graphs.size();
  std::vector<std::vector<double>> d(n, std::vector<double>(n, 0.0));
  std::vector<Bins> bins;
  bins.reserve(n);
  for (const auto& g : graphs) bins.push_back(MakeBins(g));
  size_t total = n * (n - std::min<size_t>(n, 1)) / 2;
  size_t workers = threads > 0 ? static_cast<size_t>(threads) : std::max(1u, std::thread::hardware_concurrency());
  workers = std::max<size_t>(1, std::min(workers, n));
  // Rows are handed out in order (the first rows have the most pairs); each worker writes only its rows' cells.
  std::atomic<size_t> next_row{0};
  std::mutex mu;
  std::condition_variable changed;
  size_t done = 0, finished = 0;
  auto work = [&] {
    for (size_t i = next_row++; i < n; i = next_row++) {
      for (size_t j = i + 1; j < n; ++j) d[i][j] = d[j][i] = BinsDistance(bins[i], bins[j]);
      std::lock_guard<std::mutex> lock(mu);
      done += n - 1 - i;
      changed.notify_one();
    }
    std::lock_guard<std::mutex> lock(mu);
    ++finished;
    changed.notify_one();
  };
  std::vector<std::thread> pool;
  pool.reserve(workers);
  for (size_t w = 0; w < workers; ++w) pool.emplace_back(work);
  size_t reported = 0;
  {
    std::unique_lock<std::mutex> lock(mu);
    while (finished < workers) {
      changed.wait(lock, [&] { return done != reported || finished == workers; });
      if (done == reported) continue;
      reported = done;
      if (!progress) continue;
      lock.unlock();
      progress(reported, total);
      lock.lock();
    }
  }
  for (auto& t : pool) t.join();
  if (progress && (reported != total || total == 0)) progress(total, total);
  return d;
}

std::string EncodeLabels(const std::vector<NodeLabels>& labels) {
  std::string out;
  out.reserve(2 + 10 + labels.size() * (2 + 8 * kWlIterations));
  out.push_back(static_cast<char>(kEncodingVersion));
  out.push_back(static_cast<char>(kWlIterations));
  AppendVarint(out, labels.size());
  for (const NodeLabels& node : labels) {
    AppendVarint(out, node[0]);  // the schema graph label: small, one byte
    for (size_t h = 1; h < node.size(); ++h) AppendLe64(out, node[h]);
  }
  return out;
}

Result<std::vector<NodeLabels>> DecodeLabels(std::string_view bytes) {
  auto bad = [](const std::string& what) {
    return MakeError(ErrorCode::kFormat, fmt::format("stored WL labels are corrupt: {}", what));
  };
  if (bytes.size() < 2) return bad(fmt::format("{} bytes, shorter than the header", bytes.size()));
  if (static_cast<uint8_t>(bytes[0]) != kEncodingVersion) {
    return bad(fmt::format("encoding version {}, expected {}", static_cast<uint8_t>(bytes[0]), kEncodingVersion));
  }
  if (static_cast<uint8_t>(bytes[1]) != kWlIterations) {
    return bad(fmt::format("{} WL iterations, expected {}", static_cast<uint8_t>(bytes[1]), kWlIterations));
  }
  size_t at = 2;
  uint64_t count = 0;
  if (!ReadVarint(bytes, at, count)) return bad("the node count is cut off");
  if (count > bytes.size()) return bad(fmt::format("{} nodes in {} bytes", count, bytes.size()));
  std::vector<NodeLabels> labels(count);
  for (NodeLabels& node : labels) {
    if (!ReadVarint(bytes, at, node[0]) || bytes.size() - at < 8 * static_cast<size_t>(kWlIterations)) {
      return bad(fmt::format("{} bytes end inside the labels of {} nodes", bytes.size(), count));
    }
    for (size_t h = 1; h < node.size(); ++h, at += 8) node[h] = ReadLe64(bytes, at);
  }
  if (at != bytes.size()) return bad(fmt::format("{} bytes after the labels of {} nodes", bytes.size() - at, count));
  return labels;
}

}  // namespace plainsql::examples
