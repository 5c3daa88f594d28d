// Blind spots (issue #20): k-means on separable rows, the elbow of a known curve, Wilson intervals, and a report
// that finds the group of questions a system fails.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "features/blindspots.h"

namespace plainsql::features {
namespace {

TEST(KMeans, SeparatesSeparableGroups) {
  std::vector<std::vector<double>> rows;
  for (int i = 0; i < 30; ++i) rows.push_back({1, 1, 0, 0, i % 2 ? 1.0 : 0.0});
  for (int i = 0; i < 30; ++i) rows.push_back({0, 0, 1, 1, i % 2 ? 1.0 : 0.0});
  double sse = 0;
  auto of = KMeans(rows, 2, 1, 3, &sse);
  ASSERT_EQ(of.size(), 60u);
  for (int i = 1; i < 30; ++i) EXPECT_EQ(of[i], of[0]);
  for (int i = 31; i < 60; ++i) EXPECT_EQ(of[i], of[30]);
  EXPECT_NE(of[0], of[30]);
  EXPECT_NEAR(sse, 60 * 0.25, 1e-9);  // the noisy column splits each group in halves
}

TEST(Elbow, FindsTheBendOfACurve) {
  // Steep until k = 4, flat after.
  EXPECT_EQ(Elbow({100, 60, 30, 10, 9, 8, 7, 6}, 1), 4u);
  EXPECT_EQ(Elbow({50, 20, 18, 17, 16}, 2), 3u);
  EXPECT_EQ(Elbow({5, 4}, 2), 2u);  // too short to bend
}

TEST(WilsonInterval, KnownValues) {
  auto [lo, hi] = WilsonInterval(50, 100);
  EXPECT_NEAR(lo, 0.4038, 1e-3);
  EXPECT_NEAR(hi, 0.5962, 1e-3);
  auto [lo0, hi0] = WilsonInterval(0, 10);
  EXPECT_DOUBLE_EQ(lo0, 0);
  EXPECT_NEAR(hi0, 0.2775, 1e-3);
  EXPECT_EQ(WilsonInterval(0, 0), std::make_pair(0.0, 1.0));
}

// Questions with a negation are failed four times in five, the others answered nine times in ten: the negation
// cluster is a blind spot, named by q.negation; a second system that does the opposite shows it.
TEST(BlindSpots, FindsTheGroupASystemFails) {
  std::mt19937_64 rng(3);
  std::vector<Values> values;
  std::vector<bool> right, right_b;
  const size_t negation = *IndexOf("q.negation"), superlative = *IndexOf("q.superlative");
  const size_t join = *IndexOf("sql.join");
  for (size_t i = 0; i < 300; ++i) {
    Values v(Catalog().size(), 0);
    const bool negates = i % 3 == 0;
    v[negation] = negates ? 1 : 0;
    v[join] = negates ? 1 : 0;
    v[superlative] = !negates && i % 2 == 0 ? 1 : 0;
    values.push_back(v);
    right.push_back(negates ? rng() % 5 == 0 : rng() % 10 != 0);
    right_b.push_back(negates ? rng() % 10 != 0 : rng() % 2 == 0);
  }
  BlindSpotOptions options;
  auto r = BlindSpots(values, right, right_b, options);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_GE(r->k, 2u);
  ASSERT_FALSE(r->clusters.empty());
  const Cluster& worst = r->clusters.front();  // by accuracy, lowest first
  EXPECT_TRUE(worst.blind_spot);
  EXPECT_EQ(worst.size, 100u);
  std::set<std::string_view> names;
  for (const auto& [f, gap] : worst.distinctive) names.insert(Catalog()[f].id);
  EXPECT_TRUE(names.count("q.negation"));
  ASSERT_TRUE(worst.right_b);
  EXPECT_GT(*worst.right_b, worst.right);
  for (size_t c = 1; c < r->clusters.size(); ++c) EXPECT_FALSE(r->clusters[c].blind_spot);
  EXPECT_EQ(r->assignment.size(), 300u);
  EXPECT_NE(BlindSpotText(*r, "a", "b").find("BLIND SPOT"), std::string::npos);
  EXPECT_EQ(BlindSpotJson(*r)["clusters"][0]["blind_spot"], true);
  options.k = 3;
  auto three = BlindSpots(values, right, {}, options);
  ASSERT_TRUE(three);
  EXPECT_EQ(three->k, 3u);
  EXPECT_TRUE(three->sse.empty());
  EXPECT_FALSE(BlindSpots({values[0]}, {true}, {}, options));  // too few
}

}  // namespace
}  // namespace plainsql::features
