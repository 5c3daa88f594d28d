// Schema graphs and the WWL distance (issue #17 item 4): the hand-worked cases of data/wwl_cases.json, the distance's
// properties (identity, symmetry, triangle inequality, node order), an exhaustive check of the solver on small random
// graphs, the stability of the stored labels, and EncodeLabels/DecodeLabels on good and corrupt bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <set>

#include "catalog/benchmark_schema.h"
#include "examples/wwl.h"

namespace plainsql::examples {
namespace {

using nlohmann::json;

const json& Cases() {
  static const json kCases = [] {
    auto j = catalog::ReadJsonFile(std::string(PLAINSQL_SOURCE_DIR) + "/tests/examples/data/wwl_cases.json");
    EXPECT_TRUE(j.ok()) << j.error().message;
    return j.ok() ? *j : json::object();
  }();
  return kCases;
}

catalog::Schema CaseSchema(const std::string& db_id) {
  for (const auto& entry : Cases().at("schemas")) {
    if (entry.at("db_id") == db_id) {
      auto s = catalog::SchemaFromBenchmarkEntry(entry);
      EXPECT_TRUE(s.ok()) << db_id << ": " << s.error().message;
      return s.ok() ? *s : catalog::Schema{};
    }
  }
  ADD_FAILURE() << "no case schema " << db_id;
  return {};
}

std::vector<NodeLabels> CaseLabels(const std::string& db_id) { return WlLabels(BuildSchemaGraph(CaseSchema(db_id))); }

// Node names as BuildSchemaGraph numbers the nodes: "table" for tables first, then "table.column" table by table.
std::vector<std::string> NodeNames(const catalog::Schema& s) {
  std::vector<std::string> names;
  for (const auto& t : s.tables) names.push_back(t.name);
  for (const auto& t : s.tables) {
    for (const auto& c : t.columns) names.push_back(t.name + "." + c.name);
  }
  return names;
}

TEST(SchemaGraph, HandWorkedGraphs) {
  for (const auto& c : Cases().at("graphs")) {
    std::string db = c.at("schema");
    SCOPED_TRACE(db);
    catalog::Schema schema = CaseSchema(db);
    SchemaGraph g = BuildSchemaGraph(schema);
    std::vector<std::string> names = NodeNames(schema);
    ASSERT_EQ(g.labels.size(), names.size());
    ASSERT_EQ(g.neighbours.size(), names.size());
    std::map<std::string, int> labels;
    std::set<std::set<std::string>> edges;
    for (size_t v = 0; v < names.size(); ++v) {
      labels[names[v]] = g.labels[v];
      EXPECT_TRUE(std::is_sorted(g.neighbours[v].begin(), g.neighbours[v].end()));
      EXPECT_EQ(std::adjacent_find(g.neighbours[v].begin(), g.neighbours[v].end()), g.neighbours[v].end());
      for (uint32_t u : g.neighbours[v]) {
        EXPECT_NE(u, v) << "self loop at " << names[v];
        const auto& back = g.neighbours[u];
        EXPECT_TRUE(std::binary_search(back.begin(), back.end(), static_cast<uint32_t>(v))) << "one-way edge";
        edges.insert({names[v], names[u]});
      }
    }
    auto expected_labels = c.at("labels").get<std::map<std::string, int>>();
    EXPECT_EQ(labels, expected_labels);
    std::set<std::set<std::string>> expected;
    for (const auto& e : c.at("edges")) expected.insert({e.at(0).get<std::string>(), e.at(1).get<std::string>()});
    EXPECT_EQ(edges, expected);
  }
}

TEST(Wwl, HandWorkedDistances) {
  ASSERT_FALSE(Cases().at("distances").empty());
  for (const auto& c : Cases().at("distances")) {
    std::string a = c.at("a"), b = c.at("b");
    SCOPED_TRACE(a + " / " + b);
    EXPECT_NEAR(WwlDistance(CaseLabels(a), CaseLabels(b)), c.at("distance").get<double>(), 1e-12);
    EXPECT_NEAR(WwlDistance(CaseLabels(b), CaseLabels(a)), c.at("distance").get<double>(), 1e-12);
  }
}

TEST(Wwl, SameNeighbourhoodSameLabelsAcrossGraphs) {
  // text_table's nodes and the first table of text_and_number_tables have the same neighbourhoods at every depth.
  auto one = CaseLabels("text_table"), two = CaseLabels("text_and_number_tables");
  EXPECT_EQ(one[0], two[0]);  // t, t1
  EXPECT_EQ(one[1], two[2]);  // t.id, t1.id
  EXPECT_EQ(one[2], two[3]);  // t.x, t1.x
  EXPECT_NE(one[0], two[1]);  // t2 has a number column: different from iteration 1 on
  EXPECT_EQ(one[0][0], two[1][0]);
  EXPECT_NE(one[0][1], two[1][1]);
}

TEST(Wwl, StoredLabelsAreStable) {
  // Labels are stored, so they must not change between runs, versions or machines: XXH3-64 of little-endian words.
  auto labels = CaseLabels("text_table");  // nodes t, t.id, t.x
  ASSERT_EQ(labels.size(), 3u);
  EXPECT_EQ(labels[1][0], 3u);
  EXPECT_EQ(labels[1][1], 2077035150183146863u);   // XXH3-64 of words (3, 1): t.id next to its table
  EXPECT_EQ(labels[0][1], 15856824945396661504u);  // XXH3-64 of words (1, 3, 5): t with its two columns
}

std::vector<std::vector<NodeLabels>> AllCaseLabels() {
  std::vector<std::vector<NodeLabels>> all;
  for (const auto& entry : Cases().at("schemas")) all.push_back(CaseLabels(entry.at("db_id")));
  return all;
}

TEST(Wwl, MatrixIsSymmetricWithZeroDiagonalAndMatchesPairs) {
  auto graphs = AllCaseLabels();
  std::vector<std::pair<size_t, size_t>> calls;
  auto one = WwlDistances(graphs, 1);
  auto many = WwlDistances(graphs, 3, [&](size_t done, size_t total) { calls.emplace_back(done, total); });
  size_t n = graphs.size(), pairs = n * (n - 1) / 2;
  ASSERT_EQ(one.size(), n);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(one[i].size(), n);
    EXPECT_EQ(one[i][i], 0.0);
    for (size_t j = 0; j < n; ++j) {
      EXPECT_EQ(one[i][j], one[j][i]);
      EXPECT_EQ(one[i][j], many[i][j]);
      EXPECT_EQ(one[i][j], WwlDistance(graphs[i], graphs[j]));
      EXPECT_GE(one[i][j], 0.0);
      EXPECT_LE(one[i][j], 1.0);
    }
  }
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.back(), std::make_pair(pairs, pairs));
  for (size_t k = 1; k < calls.size(); ++k) EXPECT_LT(calls[k - 1].first, calls[k].first);
  EXPECT_TRUE(WwlDistances({}, 0).empty());
  EXPECT_EQ(WwlDistances({graphs[1]}, 0), std::vector<std::vector<double>>{{0.0}});
}

TEST(Wwl, IdentityAndIndifferenceToNodeOrder) {
  std::mt19937 rng(17);
  for (const auto& entry : Cases().at("schemas")) {
    std::string db = entry.at("db_id");
    auto labels = CaseLabels(db);
    EXPECT_EQ(WwlDistance(labels, labels), 0.0) << db;
    std::shuffle(labels.begin(), labels.end(), rng);
    EXPECT_EQ(WwlDistance(labels, CaseLabels(db)), 0.0) << db;
  }
}

// A random simple graph on `n` nodes with labels 1..4 (few labels, so that embeddings repeat and partly agree).
SchemaGraph RandomGraph(std::mt19937& rng, size_t n) {
  SchemaGraph g;
  g.neighbours.resize(n);
  for (size_t v = 0; v < n; ++v) g.labels.push_back(static_cast<int>(rng() % 4) + 1);
  for (size_t v = 0; v < n; ++v) {
    for (size_t u = v + 1; u < n; ++u) {
      if (rng() % 3 == 0) {
        g.neighbours[v].push_back(static_cast<uint32_t>(u));
        g.neighbours[u].push_back(static_cast<uint32_t>(v));
      }
    }
  }
  return g;
}

int Differing(const NodeLabels& a, const NodeLabels& b) {
  int d = 0;
  for (size_t i = 0; i < a.size(); ++i) d += a[i] != b[i];
  return d;
}

// The EMD with uniform weights by brute force: repeat each node of A |B|/g times and each of B |A|/g times (equal
// masses) and try every one-to-one matching (an optimal plan of a problem with equal masses can be a matching).
double BruteForceDistance(const std::vector<NodeLabels>& a, const std::vector<NodeLabels>& b) {
  size_t g = std::gcd(a.size(), b.size());
  std::vector<NodeLabels> x, y;
  for (const auto& n : a) x.insert(x.end(), b.size() / g, n);
  for (const auto& n : b) y.insert(y.end(), a.size() / g, n);
  std::vector<size_t> perm(y.size());
  std::iota(perm.begin(), perm.end(), 0);
  int best = INT32_MAX;
  do {
    int cost = 0;
    for (size_t i = 0; i < x.size(); ++i) cost += Differing(x[i], y[perm[i]]);
    best = std::min(best, cost);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return static_cast<double>(best) / static_cast<double>(x.size() * (kWlIterations + 1));
}

TEST(Wwl, EqualsBruteForceOnSmallRandomGraphs) {
  std::mt19937 rng(2019);
  static const std::vector<std::pair<size_t, size_t>> kSizes = {{1, 1}, {2, 2}, {3, 3}, {5, 5}, {7, 7}, {1, 7},
                                                                {2, 3}, {2, 4}, {3, 6}, {4, 2}, {4, 4}, {6, 6}};
  int solved = 0;
  for (int round = 0; round < 20; ++round) {
    for (auto [na, nb] : kSizes) {
      auto a = WlLabels(RandomGraph(rng, na)), b = WlLabels(RandomGraph(rng, nb));
      double d = WwlDistance(a, b);
      EXPECT_NEAR(d, BruteForceDistance(a, b), 1e-12) << na << " x " << nb << " round " << round;
      solved += d > 0;
    }
  }
  EXPECT_GT(solved, 180);  // most of the 240 pairs differ: the solver, not the zero shortcut, was checked
}

TEST(Wwl, TriangleInequality) {
  std::mt19937 rng(7);
  auto graphs = AllCaseLabels();
  for (int k = 0; k < 12; ++k) graphs.push_back(WlLabels(RandomGraph(rng, 3 + rng() % 9)));
  auto d = WwlDistances(graphs, 2);
  for (size_t i = 0; i < d.size(); ++i) {
    for (size_t j = 0; j < d.size(); ++j) {
      for (size_t k = 0; k < d.size(); ++k) EXPECT_LE(d[i][k], d[i][j] + d[j][k] + 1e-12) << i << " " << j << " " << k;
    }
  }
}

TEST(WwlLabelsEncoding, RoundTrip) {
  std::mt19937_64 rng(3);
  std::vector<NodeLabels> random(50);
  for (auto& node : random) {
    for (auto& l : node) l = rng();
  }
  random[0][0] = UINT64_MAX;
  random[1][0] = 0;
  for (const auto& labels : {CaseLabels("fk_pair"), CaseLabels("empty"), random}) {
    auto back = DecodeLabels(EncodeLabels(labels));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, labels);
  }
}

TEST(WwlLabelsEncoding, Layout) {
  // version 1, 3 iterations, 1 node; label 0 as a varint (300 = 0xAC 0x02); labels 1..3 as 8 little-endian bytes.
  std::string bytes = EncodeLabels({NodeLabels{300, 1, 0x0102030405060708u, UINT64_MAX}});
  std::string expected = std::string("\x01\x03\x01\xAC\x02", 5) + std::string("\x01\0\0\0\0\0\0\0", 8) +
                         "\x08\x07\x06\x05\x04\x03\x02\x01" + std::string(8, '\xFF');
  EXPECT_EQ(bytes, expected);
}

TEST(WwlLabelsEncoding, CorruptBytesAreRejected) {
  std::string good = EncodeLabels(CaseLabels("fk_pair"));
  struct Bad {
    std::string bytes, message;
  };
  const std::vector<Bad> bad_inputs = {
      {"", "shorter than the header"},
      {"\x01", "shorter than the header"},
      {"\x02" + good.substr(1), "encoding version 2, expected 1"},
      {good.substr(0, 1) + "\x04" + good.substr(2), "4 WL iterations, expected 3"},
      {good.substr(0, 2), "node count is cut off"},
      {good.substr(0, good.size() - 1), "end inside the labels"},
      {good + "x", "1 bytes after the labels"},
      {std::string("\x01\x03\x7F", 3), "127 nodes in 3 bytes"},
      {std::string("\x01\x03", 2) + std::string(10, '\x80'), "node count is cut off"},
      {std::string("\x01\x03", 2) + std::string(9, '\xFF') + "\x7F", "node count is cut off"},
  };
  for (const auto& bad : bad_inputs) {
    auto r = DecodeLabels(bad.bytes);
    ASSERT_FALSE(r.ok()) << bad.message;
    EXPECT_EQ(r.error().code, ErrorCode::kFormat);
    EXPECT_NE(r.error().message.find("stored WL labels are corrupt"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(bad.message), std::string::npos) << r.error().message;
  }
}

}  // namespace
}  // namespace plainsql::examples
