// Bar of issue #3: for every Spider gold query whose database is present, the (table, column) set the resolver
// reports equals the set SQLite's own authorizer reports (SQLITE_READ) while preparing the query. Conventions, the
// same on both sides: COUNT(*) and other reads without a column count for the table only; names compare
// case-insensitively. (The resolver counts the joined columns of a USING or NATURAL join on both tables, which
// SQLite's authorizer does not report; no Spider gold query uses either, so the sets are compared as they are.)
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "catalog/introspect.h"
#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "data_test.h"
#include "exec/connection.h"
#include "sql/parser.h"
#include "sql/resolver.h"

namespace plainsql::sql {
namespace {

namespace fs = std::filesystem;

using NameSet = std::set<std::string>;

struct AuthorizerReads {
  NameSet tables, columns;
};

int CollectReads(void* p, int action, const char* a1, const char* a2, const char*, const char*) {
  auto* reads = static_cast<AuthorizerReads*>(p);
  if (action == SQLITE_READ && a1 && !EqualsIgnoreCase(a1, "sqlite_master") && !EqualsIgnoreCase(a1, "sqlite_schema")) {
    reads->tables.insert(ToLower(a1));
    if (a2 && *a2) reads->columns.insert(ToLower(a1) + "." + ToLower(a2));
  }
  return SQLITE_OK;
}

TEST(ResolverOracle, SpiderGoldMatchesSqliteAuthorizer) {
  std::string root = std::string(PLAINSQL_SHARED_DATA) + "/spider";
  if (!fs::exists(root + "/train_gold.sql")) PLAINSQL_DATA_MISSING() << "Spider data not found";
  std::map<std::string, std::pair<sqlite3*, NameCatalog>> dbs;
  int compared = 0, mismatched = 0, skipped = 0;
  std::string report;
  for (const char* rel : {"dev_gold.sql", "train_gold.sql"}) {
    std::ifstream in(root + "/" + rel);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      auto tab = line.find('\t');
      if (tab == std::string::npos) continue;
      std::string sql = line.substr(0, tab), db = std::string(Trim(line.substr(tab + 1)));
      std::string file = root + "/database/" + db + "/" + db + ".sqlite";
      if (!fs::exists(file)) continue;
      auto& entry = dbs[db];
      if (!entry.first) {
        ASSERT_EQ(sqlite3_open_v2(file.c_str(), &entry.first, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        auto conn = exec::Connect(file);
        ASSERT_TRUE(conn.ok());
        catalog::IntrospectOptions opts;
        opts.samples = 0;
        opts.row_counts = false;
        auto schema = catalog::Introspect(**conn, opts);
        ASSERT_TRUE(schema.ok());
        entry.second = catalog::ToNameCatalog(*schema);
      }
      AuthorizerReads reads;
      sqlite3_set_authorizer(entry.first, CollectReads, &reads);
      sqlite3_stmt* stmt = nullptr;
      int rc = sqlite3_prepare_v2(entry.first, sql.c_str(), -1, &stmt, nullptr);
      sqlite3_finalize(stmt);
      sqlite3_set_authorizer(entry.first, nullptr, nullptr);
      auto q = ParseQuery(sql, Sqlite());
      if (rc != SQLITE_OK || !q.ok()) {  // rejected by SQLite: listed in gold_rejected.txt and checked there
        ++skipped;
        continue;
      }
      Resolution r = Resolve(*q, entry.second, Sqlite());
      NameSet tables, columns;
      for (const auto& t : r.tables) tables.insert(ToLower(t));
      for (const auto& [t, c] : r.columns) columns.insert(ToLower(t) + "." + ToLower(c));
      const NameSet& auth_columns = reads.columns;
      ++compared;
      if (tables != reads.tables || columns != auth_columns || !r.unresolved.empty()) {
        ++mismatched;
        if (mismatched <= 30) {
          std::vector<std::string> only_r, only_a;
          std::set_difference(columns.begin(), columns.end(), auth_columns.begin(), auth_columns.end(),
                              std::back_inserter(only_r));
          std::set_difference(auth_columns.begin(), auth_columns.end(), columns.begin(), columns.end(),
                              std::back_inserter(only_a));
          report += std::string(rel) + ":" + std::to_string(n) + " " + sql +
                    "\n  resolver only: " + Join(only_r, ", ") + "\n  authorizer only: " + Join(only_a, ", ") +
                    (r.unresolved.empty() ? "" : "\n  unresolved: " + r.unresolved[0].name) + "\n";
        }
      }
    }
  }
  for (auto& [db, entry] : dbs) sqlite3_close(entry.first);
  std::cout << "resolver vs SQLite authorizer: " << compared << " queries compared, " << mismatched << " differ, "
            << skipped << " rejected by SQLite\n";
  EXPECT_EQ(mismatched, 0) << report;
  EXPECT_GT(compared, 9000);
}

}  // namespace
}  // namespace plainsql::sql
