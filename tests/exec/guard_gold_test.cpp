// Issue #15's no-regression bar on ../shared/data (label "data"): the access guard allows every gold query of Spider
// (dev and train, against the schemas of tables.json) and BIRD (dev in SQLite; mini-dev in SQLite and PostgreSQL),
// checked as Connection::Query checks them. Execution of the Spider gold queries under the guard is covered by
// sql_gold_test (SpiderRoundTrip runs every one through Connection::Query); BIRD's databases are not in shared/.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "catalog/benchmark_schema.h"
#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "exec/connection.h"
#include "test_util.h"

namespace plainsql::exec {
namespace {

namespace fs = std::filesystem;

std::string Data(const std::string& rel) { return std::string(PLAINSQL_SHARED_DATA) + "/" + rel; }

struct GoldSet {
  const char* gold;
  const char* tables;
  const char* dialect;
};

class GuardGold : public ::testing::TestWithParam<GoldSet> {};

TEST_P(GuardGold, EveryGoldQueryIsAllowed) {
  const GoldSet& set = GetParam();
  if (!fs::exists(Data(set.gold))) {
    if (std::getenv("CI")) FAIL() << Data(set.gold) << " not found (CI=true: data tests must not skip)";
    GTEST_SKIP() << Data(set.gold) << " not found";
  }
  const sql::Dialect* dialect = *sql::DialectByName(set.dialect);
  // Lines their own engine rejects: unparsable, or naming a table the schema lacks.
  auto rejected = test::GoldRejected();
  std::map<std::string, AccessPolicy> policies;
  std::ifstream in(Data(set.gold));
  std::string line;
  int n = 0, checked = 0, refused = 0;
  while (std::getline(in, line)) {
    ++n;
    if (Trim(line).empty()) continue;
    std::string key = std::string(set.gold) + ":" + std::to_string(n);
    if (rejected.count(key)) continue;
    auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << key;
    std::string sql = line.substr(0, tab), db(Trim(line.substr(tab + 1)));
    if (!policies.count(db)) {
      auto schema = catalog::LoadBenchmarkSchema(Data(set.tables), db);
      ASSERT_TRUE(schema.ok()) << key << ": " << schema.error().message;
      policies[db] = catalog::AccessPolicyFor(*schema, *dialect);
    }
    Status s = CheckQuery(sql, policies[db]);
    ++checked;
    if (!s) {
      ++refused;
      ADD_FAILURE() << key << " (" << db << "): " << s.error().message << "\n  " << sql;
    }
  }
  std::printf("%s: %d gold queries checked, %d refused\n", set.gold, checked, refused);
  EXPECT_GT(checked, 400);
}

INSTANTIATE_TEST_SUITE_P(SharedData, GuardGold,
                         ::testing::Values(GoldSet{"spider/dev_gold.sql", "spider/tables.json", "sqlite"},
                                           GoldSet{"spider/train_gold.sql", "spider/tables.json", "sqlite"},
                                           GoldSet{"bird/dev_gold.sql", "bird/dev_tables.json", "sqlite"},
                                           GoldSet{"bird/mini_dev/mini_dev_sqlite_gold.sql",
                                                   "bird/mini_dev/dev_tables.json", "sqlite"},
                                           GoldSet{"bird/mini_dev/mini_dev_postgresql_gold.sql",
                                                   "bird/mini_dev/dev_tables.json", "postgres"}),
                         [](const auto& param_info) {
                           std::string name = param_info.param.gold;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace plainsql::exec
