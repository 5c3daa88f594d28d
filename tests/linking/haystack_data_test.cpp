// The haystack (issue #18, src/linking/haystack.h) built from ../shared/data: every Spider, BIRD dev and SNAILS schema
// merged (the column count is the sum of the three schema files'), and every mapped gold query parses in SQLite's
// dialect and reads haystack tables only; almost every question of each set is mapped.
#include <gtest/gtest.h>

#include <filesystem>

#include "catalog/benchmark_schema.h"
#include "data_test.h"
#include "linking/haystack.h"

namespace plainsql::linking {
namespace {

const std::string kShared = PLAINSQL_SHARED_DATA;

TEST(HaystackDataTest, MergesEverySchemaAndMapsTheQuestions) {
  HaystackOptions options;
  options.data_dir = kShared;
  size_t want_columns = 0;
  for (const auto& f : options.schemas) {
    const std::string path = kShared + "/" + f.path;
    if (!std::filesystem::exists(path)) PLAINSQL_DATA_MISSING() << path << " not found";
    auto tables = catalog::BenchmarkSchemas::Read(path);
    ASSERT_TRUE(tables) << tables.error().message;
    for (const auto& id : tables->Ids()) want_columns += tables->Get(id)->ColumnCount();
  }
  auto h = BuildHaystack(options);
  ASSERT_TRUE(h) << h.error().message;
  EXPECT_EQ(h->ColumnCount(), want_columns);
  EXPECT_GT(h->ColumnCount(), 18000u);  // about 20,000: the XL haystack
  EXPECT_LT(h->ColumnCount(), 22000u);
  std::map<std::string, size_t> mapped, skipped;
  for (const auto& q : h->questions) {
    ++mapped[q.set];
    auto tables = QueryTables(q.gold_sql, sql::Sqlite());
    ASSERT_TRUE(tables) << q.gold_sql << ": " << tables.error().message;
    EXPECT_FALSE(tables->empty()) << q.gold_sql;
    for (const auto& t : *tables) ASSERT_NE(h->schema.FindTable(t), nullptr) << t << " in " << q.gold_sql;
  }
  for (const auto& [why, n] : h->skipped) skipped[why.substr(0, why.find(':'))] += n;
  for (const char* set : {"spider_dev", "spider_train", "spider_train_heldout", "bird_dev", "snails"}) {
    EXPECT_GT(mapped[set], 0u) << set;
    // At most 2 % of a set is left out (gold queries the SQL front end cannot parse, or tables a schema file lacks).
    EXPECT_LE(skipped[set] * 50, mapped[set] + skipped[set]) << set << ": " << skipped[set] << " skipped";
  }
  // The larger variant: five copies, toward 100,000 columns.
  options.questions.clear();
  options.copies = 5;
  auto big = BuildHaystack(options);
  ASSERT_TRUE(big);
  EXPECT_EQ(big->ColumnCount(), 5 * want_columns);
}

}  // namespace
}  // namespace plainsql::linking
