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
static_assert(kPositions <= 127, "Transport keeps costs (0..kPositions) in int8_t");

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
// neighbourhood), so the transport problem over bins is much smaller than over nodes, with the same optimum.
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

// A balanced transportation problem with integer masses: sources, sinks and the cost of each (source, sink) pair.
struct Transport {
  std::vector<int64_t> from, to;
  std::vector<int8_t> cost;  // from.size() x to.size(), row by row; at most kPositions

  int64_t Cost(size_t i, size_t j) const { return cost[i * to.size() + j]; }
};

// The problem with sources and sinks exchanged: the same minimum cost.
Transport Transposed(const Transport& t) {
  Transport out{t.to, t.from, std::vector<int8_t>(t.cost.size())};
  for (size_t i = 0; i < t.from.size(); ++i) {
    for (size_t j = 0; j < t.to.size(); ++j) out.cost[j * t.from.size() + i] = t.cost[i * t.to.size() + j];
  }
  return out;
}

// Sources whose costs to every sink are equal are interchangeable, whatever the costs: one source with their summed
// mass has the same minimum cost. WL embeddings make many such rows (two columns that differ only in their last
// labels cost the same to every node of the other graph that shares neither), so this shrinks the problem a lot.
Transport WithEqualRowsMerged(const Transport& t) {
  size_t width = t.to.size();
  auto row = [&](size_t i) { return t.cost.begin() + static_cast<std::ptrdiff_t>(i * width); };
  std::vector<size_t> order(t.from.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return std::lexicographical_compare(row(x), row(x) + static_cast<std::ptrdiff_t>(width), row(y),
                                        row(y) + static_cast<std::ptrdiff_t>(width));
  });
  Transport out{{}, t.to, {}};
  for (size_t k = 0; k < order.size(); ++k) {
    if (k > 0 && std::equal(row(order[k]), row(order[k]) + static_cast<std::ptrdiff_t>(width), row(order[k - 1]))) {
      out.from.back() += t.from[order[k]];
    } else {
      out.from.push_back(t.from[order[k]]);
      out.cost.insert(out.cost.end(), row(order[k]), row(order[k]) + static_cast<std::ptrdiff_t>(width));
    }
  }
  return out;
}

// Min-cost flow by LEMON's network simplex, every source connected to every sink. One solver serves many problems:
// the graph, its maps and the simplex's arrays keep their memory.
class TransportSolver {
 public:
  TransportSolver() : supply_(graph_), cost_(graph_), simplex_(graph_) {}

  int64_t MinCost(const Transport& t) {
    graph_.clear();
    nodes_.clear();
    for (size_t k = 0; k < t.from.size() + t.to.size(); ++k) nodes_.push_back(graph_.addNode());
    for (size_t i = 0; i < t.from.size(); ++i) {
      supply_[nodes_[i]] = t.from[i];
      for (size_t j = 0; j < t.to.size(); ++j)
        cost_[graph_.addArc(nodes_[i], nodes_[t.from.size() + j])] = t.Cost(i, j);
    }
    for (size_t j = 0; j < t.to.size(); ++j) supply_[nodes_[t.from.size() + j]] = -t.to[j];
    simplex_.reset().costMap(cost_).supplyMap(supply_);
    [[maybe_unused]] auto outcome = simplex_.run();
    assert(outcome == Simplex::OPTIMAL);  // balanced supplies, every arc uncapacitated: always feasible
    return simplex_.totalCost<int64_t>();
  }

 private:
  using Graph = lemon::SmartDigraph;
  using Simplex = lemon::NetworkSimplex<Graph, int64_t, int64_t>;
  Graph graph_;
  Graph::NodeMap<int64_t> supply_;
  Graph::ArcMap<int64_t> cost_;
  Simplex simplex_;
  std::vector<Graph::Node> nodes_;
};

// The mass each embedding of `a` must send to `b`'s. Masses are integers: node weights 1/|A| and 1/|B| scaled by
// |A||B|/gcd(|A|,|B|). Mass on an embedding both sides have stays put: with a metric ground distance some optimal
// plan keeps min(mass in A, mass in B) there (rerouting through it never costs more, by the triangle inequality).
Transport MassesToMove(const Bins& a, const Bins& b) {
  int64_t g = std::gcd(a.nodes, b.nodes);
  int64_t per_a = b.nodes / g, per_b = a.nodes / g;
  Transport t;
  std::vector<size_t> from_bins, to_bins;
  size_t i = 0, j = 0;
  while (i < a.labels.size() || j < b.labels.size()) {
    bool take_a = j == b.labels.size() || (i < a.labels.size() && a.labels[i] <= b.labels[j]);
    bool take_b = i == a.labels.size() || (j < b.labels.size() && b.labels[j] <= a.labels[i]);
    int64_t ma = take_a ? a.counts[i] * per_a : 0, mb = take_b ? b.counts[j] * per_b : 0;
    int64_t kept = take_a && take_b ? std::min(ma, mb) : 0;
    if (ma > kept) {
      t.from.push_back(ma - kept);
      from_bins.push_back(i);
    }
    if (mb > kept) {
      t.to.push_back(mb - kept);
      to_bins.push_back(j);
    }
    i += take_a;
    j += take_b;
  }
  t.cost.reserve(t.from.size() * t.to.size());
  for (size_t x : from_bins) {
    for (size_t y : to_bins) t.cost.push_back(static_cast<int8_t>(Differing(a.labels[x], b.labels[y])));
  }
  return t;
}

// The exact earth mover's distance between two graphs' bins (see wwl.h for the definition and the empty cases).
double BinsDistance(const Bins& a, const Bins& b, TransportSolver& solver) {
  if (a.nodes == 0 || b.nodes == 0) return a.nodes == b.nodes ? 0.0 : 1.0;
  Transport t = MassesToMove(a, b);
  if (!t.from.empty()) t = WithEqualRowsMerged(Transposed(WithEqualRowsMerged(t)));
  int64_t cost = 0;
  if (t.from.size() == 1) {  // one source: it sends each sink its mass
    for (size_t j = 0; j < t.to.size(); ++j) cost += t.to[j] * t.Cost(0, j);
  } else if (t.to.size() == 1) {
    for (size_t i = 0; i < t.from.size(); ++i) cost += t.from[i] * t.Cost(i, 0);
  } else if (!t.from.empty()) {
    cost = solver.MinCost(t);
  }
  int64_t total = a.nodes * (b.nodes / std::gcd(a.nodes, b.nodes));
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
  TransportSolver solver;
  return BinsDistance(MakeBins(a), MakeBins(b), solver);
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
  // Row i (the pairs i, j > i) goes to the next free worker, first rows (the most pairs) first. A row's worker writes
  // cells [i][j] and [j][i] for j > i, which no other row's worker touches.
  std::atomic<size_t> next_row{0};
  std::mutex mu;
  std::condition_variable changed;
  size_t done = 0, finished = 0;
  auto work = [&] {
    TransportSolver solver;
    for (size_t i = next_row++; i < n; i = next_row++) {
      for (size_t j = i + 1; j < n; ++j) d[i][j] = d[j][i] = BinsDistance(bins[i], bins[j], solver);
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
  if (!ReadVarint(bytes, at, count)) return bad("the node count is cut off or over 64 bits");
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
