// The reading scorer (issue #19): its text form, the shipped model, fitting, thresholds and ranking. Features read
// from real readings are tested with the translator's fixture in builtin_test.cpp.
#include <gtest/gtest.h>

#include "builtin/scorer.h"
#include "builtin/train.h"
#include "builtin/translator.h"

namespace plainsql::builtin {
namespace {

TEST(ReadingScorer, TextRoundTripAndErrors) {
  ReadingScorer s;
  s.weights.assign(kReadingFeatureCount, 0.0);
  s.weights[ReadingFeatureIndex("coverage")] = 2.5;
  s.weights[ReadingFeatureIndex("empty")] = -1.25;
  s.bias = -0.5;
  s.threshold = 0.2;
  s.min_coverage = 0.45;
  auto back = ReadingScorer::Parse(s.Serialize("a header\nof two lines"));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->weights, s.weights);
  EXPECT_DOUBLE_EQ(back->bias, -0.5);
  EXPECT_DOUBLE_EQ(back->threshold, 0.2);
  EXPECT_DOUBLE_EQ(back->min_coverage, 0.45);
  // Missing features weigh 0; unknown ones, lines without a tab and non-numbers are errors naming the line.
  auto partial = ReadingScorer::Parse("# c\nbias\t1\nrows\t0.5\n");
  ASSERT_TRUE(partial.ok());
  EXPECT_DOUBLE_EQ(partial->weights[ReadingFeatureIndex("rows")], 0.5);
  EXPECT_DOUBLE_EQ(partial->weights[ReadingFeatureIndex("coverage")], 0.0);
  auto unknown = ReadingScorer::Parse("bias\t1\nnonsense\t2\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("line 2"), std::string::npos);
  EXPECT_NE(unknown.error().message.find("nonsense"), std::string::npos);
  EXPECT_FALSE(ReadingScorer::Parse("bias 1\n").ok());
  EXPECT_FALSE(ReadingScorer::Parse("rows\t1\t2\t3\n").ok());
  // A second number is the ranking weight; a model with ranking weights ranks by them, and round-trips them.
  s.rank_weights.assign(kReadingFeatureCount, 0.0);
  s.rank_weights[ReadingFeatureIndex("empty")] = -3;
  auto ranked = ReadingScorer::Parse(s.Serialize(""));
  ASSERT_TRUE(ranked.ok());
  EXPECT_EQ(ranked->rank_weights, s.rank_weights);
  ReadingFeatureVector empty{};
  empty[ReadingFeatureIndex("empty")] = 1;
  EXPECT_DOUBLE_EQ(ranked->RankScore(empty), -3);
  EXPECT_FALSE(ReadingScorer::Parse("bias\tone\n").ok());
}

TEST(ReadingScorer, TheShippedModelIsTrained) {
  // data/reading_scorer.tsv is compiled in: trained weights (not all zero), a failing candidate and an empty result
  // rank a reading lower, covering the question counts for it, and the unsure threshold is a probability.
  const ReadingScorer& s = ReadingScorer::Builtin();
  ASSERT_EQ(s.weights.size(), kReadingFeatureCount);
  EXPECT_GT(s.weights[ReadingFeatureIndex("coverage")], 0);
  ASSERT_EQ(s.rank_weights.size(), kReadingFeatureCount);
  EXPECT_LT(s.rank_weights[ReadingFeatureIndex("empty")], 0);
  EXPECT_LT(s.rank_weights[ReadingFeatureIndex("fails")], 0);
  EXPECT_GT(s.threshold, 0);
  EXPECT_LT(s.threshold, 1);
  ReadingFeatureVector good{}, bad{};
  good[ReadingFeatureIndex("coverage")] = 1;
  bad[ReadingFeatureIndex("coverage")] = 0.2;
  EXPECT_GT(s.Probability(good), s.Probability(bad));
}

TEST(ReadingScorer, ResultFeatures) {
  ReadingFeatureVector f{};
  SetResultFeatures(f, nullptr);
  EXPECT_EQ(f[ReadingFeatureIndex("fails")], 1);
  exec::ResultSet rs;
  rs.columns = {"a", "b"};
  rs.rows.push_back({exec::Value::Null(), exec::Value::Integer(1)});
  SetResultFeatures(f, &rs);
  EXPECT_EQ(f[ReadingFeatureIndex("fails")], 0);
  EXPECT_EQ(f[ReadingFeatureIndex("one_row")], 1);
  EXPECT_EQ(f[ReadingFeatureIndex("empty")], 0);
  EXPECT_EQ(f[ReadingFeatureIndex("null_first")], 1);
  EXPECT_EQ(f[ReadingFeatureIndex("columns")], 2);
  EXPECT_EQ(f[ReadingFeatureIndex("counts_one")], 0);  // one group
}

// A count per group that is 1 in every group is marked; one group of 2 among them, or no grouping, is not.
TEST(ReadingScorer, CountsOfOneInEveryGroupAreMarked) {
  ReadingFeatureVector f{};
  f[ReadingFeatureIndex("grouped")] = 1;
  f[ReadingFeatureIndex("counting")] = 1;
  exec::ResultSet rs;
  rs.columns = {"plant_name", "count(*)"};
  rs.rows.push_back({exec::Value::Text("North"), exec::Value::Integer(1)});
  rs.rows.push_back({exec::Value::Text("South"), exec::Value::Integer(1)});
  SetResultFeatures(f, &rs);
  EXPECT_EQ(f[ReadingFeatureIndex("counts_one")], 1);
  rs.rows.push_back({exec::Value::Text("West"), exec::Value::Integer(2)});
  SetResultFeatures(f, &rs);
  EXPECT_EQ(f[ReadingFeatureIndex("counts_one")], 0);
  rs.rows.pop_back();
  f[ReadingFeatureIndex("grouped")] = 0;
  SetResultFeatures(f, &rs);
  EXPECT_EQ(f[ReadingFeatureIndex("counts_one")], 0);
}

TEST(ReadingScorer, FitLearnsWhatSeparatesRightFromWrong) {
  // Right candidates cover the question, wrong ones return nothing: the fitted weights say so.
  std::vector<ScorerRow> rows;
  for (int i = 0; i < 200; ++i) {
    ScorerRow r;
    r.question = static_cast<size_t>(i);
    r.correct = i % 2 == 0;
    r.features[ReadingFeatureIndex("coverage")] = r.correct ? 0.9 : 0.4;
    r.features[ReadingFeatureIndex("empty")] = r.correct ? 0 : 1;
    r.features[ReadingFeatureIndex("rows")] = (i % 7) / 7.0;  // noise
    rows.push_back(r);
  }
  ReadingScorer s = FitReadingScorer(rows, 1.0);
  EXPECT_GT(s.weights[ReadingFeatureIndex("coverage")], 0);
  EXPECT_LT(s.weights[ReadingFeatureIndex("empty")], 0);
  EXPECT_GT(s.Probability(rows[0].features), 0.8);
  EXPECT_LT(s.Probability(rows[1].features), 0.2);
  // Ranking weights come from pairs of readings of one question: here each question has one reading, so none.
  for (double w : s.rank_weights) EXPECT_EQ(w, 0);
  std::vector<ScorerRow> pairs = rows;
  for (auto& r : pairs) r.question /= 2;  // a right and a wrong reading per question
  ReadingScorer ranked = FitReadingScorer(pairs, 1.0);
  EXPECT_LT(ranked.rank_weights[ReadingFeatureIndex("empty")], 0);
  EXPECT_GT(ranked.RankScore(rows[0].features), ranked.RankScore(rows[1].features));
  // P(right) is the answer's: fitted on the reading the ranking puts first in each question. Here that reading is
  // always the right one, the wrong ones are never answers, so nothing is learnt from them.
  for (double w : ranked.weights) EXPECT_EQ(w, 0);
  // The same rows give the same model; one class alone gives all-zero weights.
  EXPECT_EQ(FitReadingScorer(rows, 1.0).weights, s.weights);
  std::vector<ScorerRow> one(rows.begin(), rows.begin() + 1);
  for (double w : FitReadingScorer(one, 1.0).weights) EXPECT_EQ(w, 0);
}

TEST(ReadingScorer, ThresholdKeepsUnsureAnswersMostlyWrong) {
  // Ten answers at 0.05 (one right), ten at 0.3 (five right), ten at 0.8 (nine right).
  std::vector<std::pair<double, bool>> answers;
  for (int i = 0; i < 10; ++i) answers.emplace_back(0.05, i < 1);
  for (int i = 0; i < 10; ++i) answers.emplace_back(0.3, i < 5);
  for (int i = 0; i < 10; ++i) answers.emplace_back(0.8, i < 9);
  const double t = ChooseThreshold(answers, 0.1);
  EXPECT_GT(t, 0.05);
  EXPECT_LE(t, 0.3);  // taking the 0.3 answers in would make 6 of 20 unsure answers right
  EXPECT_DOUBLE_EQ(ChooseThreshold(answers, 0.0), 0.0);
}

TEST(ReadingScorer, UnsureBelowTheThresholdOrTheCoverageFloor) {
  ReadingScorer s;
  s.threshold = 0.11;
  s.min_coverage = 0.5;
  ReadingFeatureVector f{};
  f[ReadingFeatureIndex("coverage")] = 0.8;
  EXPECT_EQ(s.Unsure(f, 0.6), "");
  EXPECT_EQ(s.Unsure(f, 0.05), "the most probable reading is right with probability 0.05 (below 0.11)");
  // Printed equal to the threshold with two decimals: three, rounded down.
  EXPECT_EQ(s.Unsure(f, 0.1099), "the most probable reading is right with probability 0.109 (below 0.11)");
  f[ReadingFeatureIndex("coverage")] = 0.17;
  EXPECT_EQ(s.Unsure(f, 0.6),
            "the most probable reading accounts for too little of the question (coverage 0.17, below 0.50)");
  EXPECT_EQ(s.Unsure(f, 0.05),  // the coverage said first
            "the most probable reading accounts for too little of the question (coverage 0.17, below 0.50)");
  // The shipped model carries a floor the trainer chose (a share of the question; 0 would mean none was read).
  EXPECT_GT(ReadingScorer::Builtin().min_coverage, 0);
  EXPECT_LT(ReadingScorer::Builtin().min_coverage, 1);
}

TEST(ReadingScorer, RankingOrdersByProbabilityAndKeepsTies) {
  ReadingScorer s;
  s.weights.assign(kReadingFeatureCount, 0.0);
  s.weights[ReadingFeatureIndex("coverage")] = 4;
  std::vector<TranslatorCandidate> c(4);
  const double coverage[] = {0.5, 0.9, 0.5, 1.0};
  for (size_t i = 0; i < c.size(); ++i) {
    c[i].sql = std::to_string(i);
    c[i].features[ReadingFeatureIndex("coverage")] = coverage[i];
  }
  RankCandidates(c, s, 3);  // the fourth is past the ranked ones: it stays last
  EXPECT_EQ(c[0].sql, "1");
  EXPECT_EQ(c[1].sql, "0");
  EXPECT_EQ(c[2].sql, "2");
  EXPECT_EQ(c[3].sql, "3");
  EXPECT_GT(c[0].probability, c[1].probability);
  EXPECT_DOUBLE_EQ(c[1].probability, c[2].probability);
}

TEST(ReadingScorer, SkeletonReadingsAreCounted) {
  Collected data;
  auto row = [&](size_t question, bool skeleton, bool correct) {
    ScorerRow r;
    r.question = question;
    r.features[ReadingFeatureIndex("skeleton")] = skeleton ? 1 : 0;
    r.correct = correct;
    data.rows.push_back(r);
  };
  row(0, false, false), row(0, true, true);   // only a skeleton right
  row(1, false, true), row(1, true, true);    // both
  row(2, true, false), row(2, false, false);  // neither
  const SkeletonReadings s = CountSkeletonReadings(data);
  EXPECT_EQ(s.readings, 3u);
  EXPECT_EQ(s.right, 2u);
  EXPECT_EQ(s.only_skeleton_right, 1u);
}

TEST(ReadingScorer, ValidationSplitIsByDatabaseAndStable) {
  size_t in = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::string db = "db_" + std::to_string(i);
    EXPECT_EQ(InValidation(db, 0.2), InValidation(db, 0.2));
    in += InValidation(db, 0.2) ? 1 : 0;
  }
  EXPECT_GT(in, 150u);
  EXPECT_LT(in, 250u);
  EXPECT_FALSE(InValidation("anything", 0.0));
}

}  // namespace
}  // namespace plainsql::builtin
