// The correctness estimator (issue #20): metrics on known cases, a fit on synthetic outcomes that must find the one
// feature that decides them, the text form, and the shipped model.
#include <gtest/gtest.h>

#include <random>

#include "features/estimator.h"
#include "features/estimator_train.h"

namespace plainsql::features {
namespace {

TEST(EstimatorMetrics, RocAucAndCalibration) {
  EXPECT_DOUBLE_EQ(RocAuc({0.9, 0.8, 0.2, 0.1}, {true, true, false, false}), 1.0);
  EXPECT_DOUBLE_EQ(RocAuc({0.1, 0.2, 0.8, 0.9}, {true, true, false, false}), 0.0);
  EXPECT_DOUBLE_EQ(RocAuc({0.5, 0.5, 0.5, 0.5}, {true, false, true, false}), 0.5);  // ties count half
  EXPECT_DOUBLE_EQ(RocAuc({0.9, 0.4, 0.6, 0.1}, {true, true, false, false}), 0.75);
  EXPECT_DOUBLE_EQ(RocAuc({0.9, 0.4}, {true, true}), 0.5);  // one class only
  // Two bins: 0.25 (2 examples, 1 right: |0.25 - 0.5|) and 0.85 (2 examples, 2 right: |0.85 - 1|).
  EXPECT_NEAR(CalibrationError({0.25, 0.25, 0.85, 0.85}, {true, false, true, true}), (0.5 + 0.3) / 4, 1e-12);
}

// Synthetic outcomes: right unless the question negates (then right one time in five), whatever else holds.
std::vector<EstimatorExample> Synthetic(size_t n) {
  std::mt19937_64 rng(7);
  std::vector<EstimatorExample> out;
  const size_t negation = *IndexOf("q.negation"), superlative = *IndexOf("q.superlative");
  for (size_t i = 0; i < n; ++i) {
    Values v(Catalog().size(), 0);
    v[negation] = rng() % 3 == 0 ? 1 : 0;
    v[superlative] = rng() % 2 == 0 ? 1 : 0;  // noise: no bearing on the outcome
    const bool right = v[negation] ? rng() % 5 == 0 : rng() % 10 != 0;
    out.push_back({v, right, "db" + std::to_string(i % 40)});
  }
  return out;
}

TEST(FitEstimator, FindsTheFeatureThatDecides) {
  EstimatorOptions options;
  options.system = "synthetic";
  auto fit = FitEstimator(Synthetic(2000), options);
  ASSERT_TRUE(fit) << fit.error().message;
  EXPECT_GT(fit->held_out, 0u);
  EXPECT_GT(fit->auc, 0.75);
  // Cross-validated over folds of databases (the default five): every example scored by a model that did not see it.
  EXPECT_EQ(fit->folds, 5);
  EXPECT_GT(fit->cv_auc, 0.75);
  EXPECT_LT(fit->cv_ece, 0.1);
  ASSERT_FALSE(fit->importance.empty());
  EXPECT_EQ(Catalog()[fit->importance[0].first].id, "q.negation");
  Values with = Unknown(), without = Unknown();
  Set(with, "q.negation", true);
  Set(without, "q.negation", false);
  EXPECT_LT(fit->model.Probability(with), 0.35);
  EXPECT_GT(fit->model.Probability(without), 0.8);
  auto hurting = fit->model.Hurting(with);
  ASSERT_FALSE(hurting.empty());
  EXPECT_EQ(Catalog()[hurting[0].first].id, "q.negation");
  EXPECT_GT(hurting[0].second, 0.4);
  EXPECT_TRUE(fit->model.Hurting(without).empty());
  // The text form reads back to the same probabilities.
  auto back = Estimator::Parse(fit->model.Serialize("a test model\nsecond line"));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->system, "synthetic");
  EXPECT_NEAR(back->Probability(with), fit->model.Probability(with), 1e-6);
  // Measured on fresh outcomes of the same kind: it ranks them, and the more confident half is right more often.
  const EstimatorReport report = EvaluateEstimator(fit->model, Synthetic(600));
  EXPECT_EQ(report.examples, 600u);
  EXPECT_GT(report.auc, 0.75);
  EXPECT_LT(report.ece, 0.1);
  EXPECT_GT(report.right_more_confident, report.right_less_confident + 0.2);
  EXPECT_NEAR(report.right, 0.9 * 2 / 3 + 0.2 / 3, 0.08);
  EXPECT_FALSE(FitEstimator(Synthetic(10), options));  // too few examples
  options.folds = 0;
  auto plain = FitEstimator(Synthetic(2000), options);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->folds, 0);
  EXPECT_EQ(FitText(*plain).find("cross-validated"), std::string::npos);
  EXPECT_NE(FitText(*fit).find("cross-validated over 5 folds"), std::string::npos);
}

TEST(Estimator, ParseRefusesForeignFeatures) {
  auto bad = Estimator::Parse("system\tx\ninput\tq.no_such_feature\ntree_base\t0\ntree_leaf\t0\t0\t0.1\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("q.no_such_feature"), std::string::npos);
  EXPECT_FALSE(Estimator::Parse("# nothing\n"));
}

// The shipped estimator of the built-in translator: parsed, over live features only, longer questions with words that
// reach nothing estimated lower than a short question that names its schema.
TEST(Estimator, ShippedReadsLiveFeatures) {
  const Estimator& e = Estimator::Shipped();
  ASSERT_FALSE(e.inputs.empty());
  EXPECT_EQ(e.system, "builtin");
  for (size_t i : e.inputs) EXPECT_NE(Catalog()[i].needs, Needs::kSql) << Catalog()[i].id;
  Values easy(Catalog().size(), 0), hard(Catalog().size(), 0);
  for (const char* id : {"p.brief", "q.short", "db.table_named", "db.column_named", "q.how_many"}) Set(easy, id, true);
  for (const char* id : {"q.medium_length", "q.over_16_words", "q.long", "db.unlinked_word", "db.unlinked_words",
                         "db.unlinked_words_3", "q.contrast", "q.aggregate_word", "q.per_group"}) {
    Set(hard, id, true);
  }
  EXPECT_GT(e.Probability(easy), 0.7);
  EXPECT_LT(e.Probability(hard), 0.4);
  EXPECT_FALSE(e.Hurting(hard).empty());
}

}  // namespace
}  // namespace plainsql::features
