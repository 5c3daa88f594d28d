// Bars of issue #3 on ../shared/data (label "data"):
//  - coverage: every gold query of Spider, BIRD (SQLite, PostgreSQL, MySQL) and SNAILS (T-SQL, alternate
//    naturalness, SQLite) parses, except the few their own engine rejects (gold_rejected.txt);
//  - round trip: every Spider dev and train gold query whose database is present returns the same result on SQLite
//    when printed back from its syntax tree (same rows; same order where the query orders them), and again when its
//    columns are qualified by the qualify pass.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "catalog/introspect.h"
#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "data_test.h"
#include "exec/connection.h"
#include "exec/fingerprint.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/resolver.h"
#include "sql/rewrite/qualify.h"
#include "sql/rewrite/skeleton.h"
#include "sql/rewrite/walk.h"
#include "test_util.h"

namespace plainsql::sql {
namespace {

namespace fs = std::filesystem;

std::string Data(const std::string& rel) { return std::string(PLAINSQL_SHARED_DATA) + "/" + rel; }

struct GoldLine {
  std::string sql, db;
  int line;
};

std::vector<GoldLine> ReadGold(const std::string& rel) {
  std::vector<GoldLine> out;
  std::ifstream in(Data(rel));
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (Trim(line).empty()) continue;
    auto tab = line.find('\t');
    out.push_back({line.substr(0, tab), tab == std::string::npos ? "" : std::string(Trim(line.substr(tab + 1))), n});
  }
  return out;
}

class GoldFiles : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(GoldFiles, EveryQueryParses) {
  auto [rel, dialect_name] = GetParam();
  if (!fs::exists(Data(rel))) PLAINSQL_DATA_MISSING() << Data(rel) << " not found";
  const Dialect& d = **DialectByName(dialect_name);
  auto rejected = test::GoldRejected("parse");
  int parsed = 0, skipped = 0;
  std::set<std::string> skeletons;
  for (const GoldLine& g : ReadGold(rel)) {
    std::string key = std::string(rel) + ":" + std::to_string(g.line);
    auto q = ParseQuery(g.sql, d);
    if (rejected.count(key)) {
      EXPECT_FALSE(q.ok()) << key << " is listed as rejected but parses now";
      ++skipped;
      continue;
    }
    ASSERT_TRUE(q.ok()) << key << ": " << q.error().message;
    // What is printed parses again to the same tree.
    std::string printed = Print(*q, d);
    auto again = ParseQuery(printed, d);
    ASSERT_TRUE(again.ok()) << key << ": printed form does not parse: " << printed << "\n" << again.error().message;
    EXPECT_EQ(Print(*again, d), printed) << key;
    // The skeleton is SQL again (with `_` for names and values), and a fixed point: its skeleton is itself.
    std::string skeleton_sql = Print(Skeleton(*q), d);
    auto skeleton = ParseQuery(skeleton_sql, d);
    ASSERT_TRUE(skeleton.ok()) << key << ": skeleton does not parse: " << skeleton_sql;
    EXPECT_EQ(SkeletonText(*skeleton, d), SkeletonText(*q, d)) << key;
    skeletons.insert(SkeletonText(*q, d));
    ++parsed;
  }
  std::cout << rel << ": " << parsed << " parsed, " << skipped << " rejected by their engine, " << skeletons.size()
            << " distinct skeletons\n";
  EXPECT_GT(parsed, 0);
}

INSTANTIATE_TEST_SUITE_P(
    SharedData, GoldFiles,
    ::testing::Values(std::make_pair(std::string("spider/dev_gold.sql"), std::string("sqlite")),
                      std::make_pair(std::string("spider/train_gold.sql"), std::string("sqlite")),
                      std::make_pair(std::string("bird/dev_gold.sql"), std::string("sqlite")),
                      std::make_pair(std::string("bird/mini_dev/mini_dev_sqlite_gold.sql"), std::string("sqlite")),
                      std::make_pair(std::string("bird/mini_dev/mini_dev_postgresql_gold.sql"),
                                     std::string("postgres")),
                      std::make_pair(std::string("bird/mini_dev/mini_dev_mysql_gold.sql"), std::string("mysql"))),
    // Named by the file (its letters and digits). The parameters are strings, not pointers: ctest's names show them,
    // and a test must have the same name in every build (scripts/test.sh matches the two builds' tests by name).
    [](const ::testing::TestParamInfo<GoldFiles::ParamType>& param) {
      std::string name;
      for (char c : param.param.first) {
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      }
      return name;
    });

// SNAILS pair files: every "-- N: question" header is followed by one query; all of them parse.
TEST(SnailsPairs, EveryQueryParses) {
  std::string root = Data("snails/pairs");
  if (!fs::exists(root)) PLAINSQL_DATA_MISSING() << root << " not found";
  int files = 0, queries = 0;
  std::regex header(R"(^--\s*\d+\s*:)");
  for (const auto& [dir, dialect] : std::vector<std::pair<std::string, const Dialect*>>{
           {root, &TSql()}, {root + "/nl_sql_pairs_alternate_naturalness", &TSql()}, {root + "/sqlite", &Sqlite()}}) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() != ".sql") continue;
      std::string text = test::ReadFile(entry.path().string());
      int headers = 0;
      for (const std::string& l : Split(text, '\n')) headers += std::regex_search(l, header) ? 1 : 0;
      auto statements = ParseScript(text, *dialect);
      ASSERT_TRUE(statements.ok()) << entry.path() << ": " << statements.error().message;
      for (const Statement& st : *statements) {
        EXPECT_EQ(st.kind, StatementKind::kQuery) << entry.path() << " at byte " << st.offset;
      }
      EXPECT_EQ(static_cast<int>(statements->size()), headers) << entry.path();
      ++files;
      queries += static_cast<int>(statements->size());
    }
  }
  std::cout << "SNAILS: " << files << " files, " << queries << " queries parsed\n";
  EXPECT_GT(files, 50);
}

// Column references in `q` with no qualifier, and all of them.
std::pair<int, int> BareColumns(Query q) {
  int bare = 0, all = 0;
  Walker w;
  w.on_expr = [&](Expr& e) {
    if (e.kind != ExprKind::kColumn) return;
    ++all;
    if (e.name.parts.size() == 1 && e.name.parts[0].quote != '"') ++bare;  // "x" is mostly a string in Spider
  };
  Walk(q, w);
  return {bare, all};
}

// Round trip on SQLite: the printed query, and the printed query with qualified columns, return what the gold query
// returns.
TEST(SpiderRoundTrip, PrintedQueriesReturnTheSameResults) {
  std::string root = Data("spider");
  if (!fs::exists(root + "/train_gold.sql")) PLAINSQL_DATA_MISSING() << "Spider data not found";
  auto rejected = test::GoldRejected("parse");
  auto cannot_run = test::GoldRejected("execute");
  std::map<std::string, std::unique_ptr<exec::Connection>> conns;
  std::map<std::string, NameCatalog> catalogs;
  int bare_before = 0, bare_after = 0, columns = 0;
  exec::Limits limits{std::chrono::seconds(30), 10'000'000};
  int compared = 0, no_db = 0, engine_errors = 0;
  for (const char* rel : {"spider/dev_gold.sql", "spider/train_gold.sql"}) {
    for (const GoldLine& g : ReadGold(rel)) {
      std::string key = std::string(rel) + ":" + std::to_string(g.line);
      if (rejected.count(key)) continue;
      std::string file = root + "/database/" + g.db + "/" + g.db + ".sqlite";
      if (!fs::exists(file)) {
        ++no_db;
        continue;
      }
      auto& conn = conns[g.db];
      if (!conn) {
        auto c = exec::Connect(file);
        ASSERT_TRUE(c.ok()) << c.error().message;
        conn = std::move(*c);
        catalog::IntrospectOptions opts;
        opts.samples = 0;
        opts.row_counts = false;
        auto schema = catalog::Introspect(*conn, opts);
        ASSERT_TRUE(schema.ok()) << schema.error().message;
        catalogs[g.db] = catalog::ToNameCatalog(*schema);
      }
      auto q = ParseQuery(g.sql, Sqlite());
      ASSERT_TRUE(q.ok()) << key;
      std::string printed = Print(*q, Sqlite());
      auto want = conn->Query(g.sql, limits);
      auto got = conn->Query(printed, limits);
      if (!want.ok()) {
        ++engine_errors;
        EXPECT_TRUE(cannot_run.count(key)) << key << ": the gold query fails on SQLite: " << want.error().message;
        continue;
      }
      EXPECT_FALSE(cannot_run.count(key)) << key << " is listed as failing on SQLite but runs now";
      ASSERT_TRUE(got.ok()) << key << ": printed query fails: " << got.error().message << "\n  gold:    " << g.sql
                            << "\n  printed: " << printed;
      EXPECT_EQ(got->columns.size(), want->columns.size()) << key;
      bool ordered = !q->order_by.empty();
      if (ordered) {
        EXPECT_EQ(exec::OrderedFingerprint(*got), exec::OrderedFingerprint(*want)) << key << "\n  " << printed;
      } else {
        EXPECT_EQ(exec::MultisetFingerprint(*got), exec::MultisetFingerprint(*want)) << key << "\n  " << printed;
      }
      Query qualified = QualifyColumns(*q, Resolve(*q, catalogs[g.db], Sqlite()));
      std::string qualified_sql = Print(qualified, Sqlite());
      auto [bare, all] = BareColumns(*q);
      bare_before += bare;
      bare_after += BareColumns(qualified).first;
      columns += all;
      auto got_q = conn->Query(qualified_sql, limits);
      ASSERT_TRUE(got_q.ok()) << key << ": qualified query fails: " << got_q.error().message
                              << "\n  gold:      " << g.sql << "\n  qualified: " << qualified_sql;
      if (ordered) {
        EXPECT_EQ(exec::OrderedFingerprint(*got_q), exec::OrderedFingerprint(*want)) << key << "\n  " << qualified_sql;
      } else {
        EXPECT_EQ(exec::MultisetFingerprint(*got_q), exec::MultisetFingerprint(*want))
            << key << "\n  " << qualified_sql;
      }
      ++compared;
    }
  }
  std::cout << "Spider round trip: " << compared << " queries compared, " << no_db
            << " skipped (database not present), " << engine_errors << " gold queries failing on SQLite\n"
            << "qualify: " << columns << " column references, " << bare_before
            << " unqualified (not counting \"strings\") before, " << bare_after << " after\n";
  EXPECT_GT(compared, 8000);
}

}  // namespace
}  // namespace plainsql::sql
