// Benchmark composition (issue #20): the chi-square tail against table values, the tests on sets built to differ or
// not, and reading feature files.
#include <gtest/gtest.h>

#include <fstream>

#include "features/compare.h"
#include "test_util.h"

namespace plainsql::features {
namespace {

TEST(ChiSquareTail, MatchesTableValues) {
  // Critical values of the chi-square distribution (any statistics table).
  EXPECT_NEAR(ChiSquareTail(3.841, 1), 0.05, 1e-4);
  EXPECT_NEAR(ChiSquareTail(6.635, 1), 0.01, 1e-4);
  EXPECT_NEAR(ChiSquareTail(10.828, 1), 0.001, 1e-5);
  EXPECT_NEAR(ChiSquareTail(5.991, 2), 0.05, 1e-4);
  EXPECT_NEAR(ChiSquareTail(18.307, 10), 0.05, 1e-4);
  EXPECT_NEAR(ChiSquareTail(124.342, 100), 0.05, 1e-3);
  EXPECT_NEAR(ChiSquareTail(2, 2), std::exp(-1.0), 1e-12);  // df 2: exp(-x / 2) exactly
  EXPECT_EQ(ChiSquareTail(0, 3), 1.0);
  EXPECT_LT(ChiSquareTail(500, 1), 1e-100);
}

FeatureSet Make(const std::string& name, size_t n, size_t with_negation) {
  FeatureSet s{name, {}};
  const size_t negation = *IndexOf("q.negation");
  for (size_t i = 0; i < n; ++i) {
    Values v(Catalog().size(), 0);
    v[negation] = i < with_negation ? 1 : 0;
    s.rows.push_back(v);
  }
  return s;
}

TEST(Compare, FindsTheFeatureThatDiffersAndOnlyIt) {
  auto c = Compare({Make("a", 200, 100), Make("b", 200, 10)});
  ASSERT_TRUE(c) << c.error().message;
  size_t significant = 0;
  for (const auto& fc : c->features) {
    if (!fc.significant) continue;
    ++significant;
    EXPECT_EQ(Catalog()[fc.feature].id, "q.negation");
    EXPECT_DOUBLE_EQ(fc.Share(0), 0.5);
    EXPECT_DOUBLE_EQ(fc.Share(1), 0.05);
  }
  EXPECT_EQ(significant, 1u);
  ASSERT_EQ(c->distinctive[0].size(), 1u);
  EXPECT_GT(c->distinctive[0][0].share, c->distinctive[0][0].others);
  ASSERT_EQ(c->distinctive[1].size(), 1u);
  EXPECT_LT(c->distinctive[1][0].share, c->distinctive[1][0].others);
  EXPECT_NE(CompositionText(*c).find("q.negation"), std::string::npos);
  EXPECT_NE(CompositionHtml(*c).find("What sets a apart"), std::string::npos);
  EXPECT_EQ(CompositionJson(*c)["sets"][0]["distinctive"][0]["feature"], "q.negation");
}

TEST(Compare, EqualSharesAreNotSignificant) {
  auto c = Compare({Make("a", 100, 20), Make("b", 300, 60), Make("c", 50, 10)});
  ASSERT_TRUE(c);
  for (const auto& fc : c->features) EXPECT_FALSE(fc.significant) << Catalog()[fc.feature].id;
  for (const auto& d : c->distinctive) EXPECT_TRUE(d.empty());
  EXPECT_FALSE(Compare({Make("a", 10, 1)}));  // one set: nothing to compare
}

TEST(ReadFeatureLines, ReadsHoldsAndUnknownAndRefusesForeignIds) {
  test::TempDir dir;
  {
    std::ofstream(dir.File("ok.jsonl")) << R"({"features": ["q.negation"], "unknown": ["sql.join"], "index": 0})"
                                        << "\n"
                                        << R"({"features": []})"
                                        << "\n";
    std::ofstream(dir.File("bad.jsonl")) << R"({"features": ["q.no_such_thing"]})"
                                         << "\n";
    std::ofstream(dir.File("notjson.jsonl")) << "hello\n";
  }
  auto ok = ReadFeatureLines(dir.File("ok.jsonl"), "ok");
  ASSERT_TRUE(ok) << ok.error().message;
  ASSERT_EQ(ok->rows.size(), 2u);
  EXPECT_EQ(Get(ok->rows[0], "q.negation"), 1);
  EXPECT_EQ(Get(ok->rows[0], "sql.join"), -1);
  EXPECT_EQ(Get(ok->rows[1], "q.negation"), 0);
  auto bad = ReadFeatureLines(dir.File("bad.jsonl"), "bad");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("q.no_such_thing"), std::string::npos);
  EXPECT_FALSE(ReadFeatureLines(dir.File("notjson.jsonl"), "x"));
  EXPECT_FALSE(ReadFeatureLines(dir.File("missing.jsonl"), "x"));
}

}  // namespace
}  // namespace plainsql::features
