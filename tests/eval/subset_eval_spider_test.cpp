// The oracle of `eval run --subset oracle` on Spider dev (issue #18): for every question, the oracle subset (what the
// gold query reads) scored by `eval subsets` keeps every gold element (PRe 1), the schema restricted to it still
// resolves every name the gold query reads (the join keys are there), and its prompt text is smaller than the whole
// schema's. Skipped without the data; fails under CI=true.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>

#include "catalog/introspect.h"
#include "catalog/name_catalog.h"
#include "catalog/restrict.h"
#include "data_test.h"
#include "eval/benchmark.h"
#include "eval/score.h"
#include "eval/subset_source.h"
#include "exec/connection.h"
#include "sql/parser.h"
#include "sql/resolver.h"

namespace plainsql::eval {
namespace {

namespace fs = std::filesystem;

TEST(SubsetEvalSpiderTest, OracleSubsetsKeepEveryGoldElement) {
  const std::string dir = std::string(PLAINSQL_SHARED_DATA) + "/spider";
  if (!fs::exists(dir + "/dev.json") || !fs::exists(dir + "/database")) PLAINSQL_DATA_MISSING() << dir;
  auto benchmark = LoadBenchmark("spider", dir + "/dev.json");
  ASSERT_TRUE(benchmark) << benchmark.error().message;
  ScoreOptions so;
  so.db_dir = dir + "/database";
  Scorer scorer(*benchmark, so);
  SubsetSource oracle;
  oracle.kind = SubsetKind::kOracle;
  auto setup = PrepareSubsets(oracle, *benchmark, "", so.db_dir);
  ASSERT_TRUE(setup) << setup.error().message;
  SubsetSupplier supplier(*setup);
  std::map<std::string, catalog::Schema> schemas;
  std::vector<SubsetResult> results;
  size_t restricted_resolved = 0;
  for (const auto& q : benchmark->questions) {
    auto& schema = schemas[q.db_id];
    if (schema.tables.empty()) {
      auto conn = exec::Connect(SqliteDatabasePath(so.db_dir, q.db_id));
      ASSERT_TRUE(conn) << conn.error().message;
      auto s = catalog::Introspect(**conn, {});
      ASSERT_TRUE(s) << s.error().message;
      schema = std::move(*s);
    }
    auto names = supplier.For(q, schema);
    ASSERT_TRUE(names) << names.error().message;
    ASSERT_TRUE(*names) << "question " << q.index << ": the gold query does not parse";
    auto r = scorer.ScoreSubset(q, **names);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(!r->scored || r->scores.perfect) << "question " << q.index << " misses " << r->missing.size();
    EXPECT_LE(r->tokens, r->schema_tokens) << "question " << q.index;
    // The gold query reads the same names on the restricted schema as on the whole one.
    auto gold = sql::ParseQuery(q.gold_sql, sql::Sqlite());
    ASSERT_TRUE(gold);
    catalog::RestrictedSchema restricted = catalog::RestrictSchema(schema, **names);
    auto on_subset = QueryIdentifiers(sql::Resolve(*gold, catalog::ToNameCatalog(restricted.schema), sql::Sqlite()));
    auto on_schema = QueryIdentifiers(sql::Resolve(*gold, catalog::ToNameCatalog(schema), sql::Sqlite()));
    EXPECT_EQ(on_subset, on_schema) << "question " << q.index << ": " << q.gold_sql;
    restricted_resolved += on_subset == on_schema ? 1 : 0;
    results.push_back(std::move(*r));
  }
  auto summary = SubsetJson(results)["summary"];
  auto overall = summary;
  overall.erase("by_size");
  std::cout << "oracle subsets on Spider dev: " << overall.dump() << "\n";
  EXPECT_EQ(summary["scored"].get<size_t>(), benchmark->questions.size());
  EXPECT_EQ(summary["perf_recall"].get<double>(), 1.0);
  EXPECT_EQ(restricted_resolved, benchmark->questions.size());
  EXPECT_LT(summary["tokens"].get<double>(), summary["schema_tokens"].get<double>());
}

}  // namespace
}  // namespace plainsql::eval
