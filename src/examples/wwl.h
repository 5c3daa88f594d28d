// The Wasserstein Weisfeiler-Lehman (WWL) distance between schema graphs (issue #17 item 4; Togninalli et al.,
// NeurIPS 2019, categorical variant): how differently two databases are built, in [0, 1]. Example selection prefers
// examples from databases close to the one asked.
//
// Definition. Categorical Weisfeiler-Lehman with H = kWlIterations: a node's label at iteration 0 is its schema graph
// label; at iteration h it is its label at h-1 together with the sorted multiset of its neighbours' labels at h-1.
// A node is embedded as its H+1 labels. The ground distance between two nodes is the normalized Hamming distance of
// their embeddings (the fraction of the H+1 positions that differ). The distance between two graphs is the exact
// earth mover's distance between their node sets with uniform weights (1/|A| on each node of A, 1/|B| on each of B).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "examples/schema_graph.h"

namespace plainsql::examples {

/// WL iterations (H). 3 as in the thesis and the WWL paper's categorical experiments.
inline constexpr int kWlIterations = 3;

/// A node's WL labels at iterations 0..H. Position 0 is the schema graph label itself; later positions are 64-bit
/// hashes (XXH3-64 of the previous label and the sorted neighbour labels, as little-endian bytes), so the same
/// neighbourhood gets the same label in every graph, run and machine without a shared dictionary, and labels can be
/// stored. Two different neighbourhoods share a label only by a hash collision (probability about 2^-64 a pair).
using NodeLabels = std::array<uint64_t, kWlIterations + 1>;

/// The WL labels of every node of `graph`, in node order.
std::vector<NodeLabels> WlLabels(const SchemaGraph& graph);

/// The WWL distance between two graphs given by their nodes' labels (see the definition above), exact: solved as a
/// min-cost flow (LEMON's network simplex) over integer masses, after identical embeddings are merged, mass both
/// graphs have on one embedding stays put, and nodes that cost the same to every node of the other side are merged
/// (each step keeps the optimum). In [0, 1]; 0 for two empty graphs and 1 when exactly one is empty (no node can be
/// matched). Symmetric; 0 when `a` and `b` hold the same embeddings in the same proportions. Labels from
/// DecodeLabels or from WlLabels of any graph, in any node order.
double WwlDistance(const std::vector<NodeLabels>& a, const std::vector<NodeLabels>& b);

/// All pairwise distances: a symmetric matrix with a zero diagonal, entry [i][j] = WwlDistance(graphs[i], graphs[j]).
/// `threads` workers (0: the hardware's concurrency). `progress(done, total)` counts the pairs i < j computed; it is
/// called on the calling thread only, now and then and once at the end.
std::vector<std::vector<double>> WwlDistances(const std::vector<std::vector<NodeLabels>>& graphs, int threads = 0,
                                              const std::function<void(size_t done, size_t total)>& progress = {});

/// Compact bytes for a store's BLOB: a version byte, the iteration count, the node count and each node's labels.
std::string EncodeLabels(const std::vector<NodeLabels>& labels);

/// The labels EncodeLabels wrote. A kFormat error names what is wrong for bytes of another version, iteration count or
/// length.
Result<std::vector<NodeLabels>> DecodeLabels(std::string_view bytes);

}  // namespace plainsql::examples
