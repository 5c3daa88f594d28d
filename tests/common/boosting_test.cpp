// XGBoost through boosting.h: the trees it fits separate a label that no single input decides (an exclusive or),
// the library's own walk of them gives XGBoost's probabilities' order, and the same rows give the same trees.
#include "common/boosting.h"

#include <gtest/gtest.h>

#include <cmath>

namespace plainsql {
namespace {

TEST(Boosting, FitsAnInteractionAndIsRepeatable) {
  std::vector<std::vector<double>> rows;
  std::vector<double> labels;
  for (int i = 0; i < 400; ++i) {
    const double a = i % 2, b = (i / 2) % 2, noise = (i % 7) / 7.0;
    rows.push_back({a, b, noise});
    labels.push_back(a != b ? 1 : 0);
  }
  BoostingOptions options;
  options.rounds = 30;
  options.max_depth = 2;
  options.eta = 0.3;
  auto fit = FitBoostedTrees(rows, labels, options);
  ASSERT_TRUE(fit) << fit.error().message;
  EXPECT_EQ(fit->trees.size(), 30u);
  auto p = [&](double a, double b) { return 1 / (1 + std::exp(-fit->Margin({a, b, 0.5}))); };
  EXPECT_GT(p(1, 0), 0.9);
  EXPECT_GT(p(0, 1), 0.9);
  EXPECT_LT(p(0, 0), 0.1);
  EXPECT_LT(p(1, 1), 0.1);
  auto again = FitBoostedTrees(rows, labels, options);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->Serialize("m", {"a", "b", "noise"}), fit->Serialize("m", {"a", "b", "noise"}));
}

TEST(Boosting, BadInputIsAnError) {
  EXPECT_FALSE(FitBoostedTrees({}, {}, {}));
  EXPECT_FALSE(FitBoostedTrees({{1.0}, {1.0, 2.0}}, {0, 1}, {}));
  EXPECT_FALSE(FitBoostedTrees({{1.0}}, {0, 1}, {}));
}

}  // namespace
}  // namespace plainsql
