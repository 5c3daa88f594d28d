// SQLSpace features (issue #20): the SQL-syntax features against hand-checked queries, the question, schema and
// semantic features against cases on the sample database, and the catalog's own consistency.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include "catalog/introspect.h"
#include "common/strings.h"
#include "exec/connection.h"
#include "features/extract.h"
#include "features/sql_features.h"
#include "linking/subset_builtin.h"
#include "sql/parser.h"
#include "test_util.h"

namespace plainsql::features {
namespace {

std::vector<std::vector<std::string>> Cases(const std::string& name, size_t fields) {
  std::ifstream in(test::DataFile("features", name));
  EXPECT_TRUE(in) << name;
  std::vector<std::vector<std::string>> out;
  std::string line, dialect = "sqlite";
  while (std::getline(in, line)) {
    if (line.starts_with("# dialect: ")) dialect = line.substr(11);
    if (line.empty() || line[0] == '#') continue;
    auto f = Split(line, '\t');
    EXPECT_EQ(f.size(), fields) << line;
    if (f.size() != fields) continue;
    f.push_back(dialect);
    out.push_back(f);
  }
  return out;
}

TEST(FeatureCatalog, IdsAreUniqueAndPrefixedByAspect) {
  std::set<std::string_view> ids;
  for (const auto& f : Catalog()) {
    EXPECT_TRUE(ids.insert(f.id).second) << f.id;
    const std::string_view prefix = f.id.substr(0, f.id.find('.'));
    const std::string_view expected = f.aspect == Aspect::kQuestionSyntax ? "q"
                                      : f.aspect == Aspect::kSqlSyntax    ? "sql"
                                      : f.aspect == Aspect::kSemantics    ? "sem"
                                      : f.aspect == Aspect::kPragmatics   ? "p"
                                                                          : "db";
    EXPECT_EQ(prefix, expected) << f.id;
    EXPECT_FALSE(f.text.empty()) << f.id;
    EXPECT_EQ(IndexOf(f.id), std::optional<size_t>(&f - Catalog().data()));
  }
  EXPECT_FALSE(IndexOf("no.such_feature"));
}

// Every case of data/sql_syntax.tsv: exactly the sql.* features listed hold (at least 60 cases, checked by hand).
TEST(SqlFeatures, HandCheckedQueries) {
  const auto cases = Cases("sql_syntax.tsv", 2);
  EXPECT_GE(cases.size(), 60u);
  for (const auto& c : cases) {
    const sql::Dialect* dialect = *sql::DialectByName(c[2]);
    auto query = sql::ParseQuery(c[0], *dialect);
    ASSERT_TRUE(query) << c[0] << ": " << query.error().message;
    Values values = Unknown();
    ReadSql(*query, values);
    std::set<std::string> got, want;
    for (size_t i = 0; i < Catalog().size(); ++i) {
      if (Catalog()[i].aspect != Aspect::kSqlSyntax) continue;
      EXPECT_GE(values[i], 0) << Catalog()[i].id << " not computed for " << c[0];
      if (values[i] == 1) got.insert(std::string(Catalog()[i].id));
    }
    for (const auto& id : Split(c[1], ' ')) {
      ASSERT_TRUE(IndexOf("sql." + id)) << "unknown feature sql." << id;
      want.insert("sql." + id);
    }
    EXPECT_EQ(got, want) << c[0];
  }
}

// Every case of data/examples.tsv on the sample database: +id holds, -id does not.
TEST(Extractor, SampleDatabaseCases) {
  auto resources = linking::LinkResources::Load();
  ASSERT_TRUE(resources) << resources.error().message;
  auto conn = exec::Connect(test::SampleDb());
  ASSERT_TRUE(conn) << conn.error().message;
  auto schema = catalog::Introspect(**conn, {});
  ASSERT_TRUE(schema);
  Extractor extractor(*resources);
  auto db = extractor.Prepare(*schema, conn->get());
  const auto cases = Cases("examples.tsv", 3);
  EXPECT_GE(cases.size(), 20u);
  for (const auto& c : cases) {
    auto got = extractor.Extract({c[0], "", c[1] == "-" ? "" : c[1]}, db.get(), sql::Sqlite());
    EXPECT_EQ(got.sql_error, "") << c[0];
    for (const auto& check : Split(c[2], ' ')) {
      ASSERT_GE(check.size(), 2u) << c[0];
      const std::string id = check.substr(1);
      ASSERT_TRUE(IndexOf(id)) << "unknown feature " << id;
      EXPECT_EQ(Get(got.values, id), check[0] == '+' ? 1 : 0) << c[0] << ": " << id;
    }
  }
}

// A stored value held by columns of two tables is ambiguous; one held by a single table is not.
TEST(Extractor, ValueHeldByTwoTables) {
  test::TempDir dir;
  const std::string file = dir.File("towns.db");
  test::MakeSqliteDb(file,
                     "CREATE TABLE town (town_id INTEGER PRIMARY KEY, name TEXT);"
                     "CREATE TABLE club (club_id INTEGER PRIMARY KEY, club_name TEXT, home TEXT);"
                     "INSERT INTO town VALUES (1, 'Springfield'), (2, 'Shelbyville');"
                     "INSERT INTO club VALUES (1, 'Rovers', 'Springfield'), (2, 'Athletic', 'Ogdenville');");
  auto conn = exec::Connect(file);
  ASSERT_TRUE(conn) << conn.error().message;
  auto schema = catalog::Introspect(**conn, {});
  ASSERT_TRUE(schema);
  Extractor extractor(nullptr);
  auto db = extractor.Prepare(*schema, conn->get());
  auto both = extractor.Extract({"What is in Springfield?", "", ""}, db.get(), sql::Sqlite());
  EXPECT_EQ(Get(both.values, "db.value_mentioned"), 1);
  EXPECT_EQ(Get(both.values, "db.value_ambiguous"), 1);
  auto one = extractor.Extract({"What is in Shelbyville?", "", ""}, db.get(), sql::Sqlite());
  EXPECT_EQ(Get(one.values, "db.value_mentioned"), 1);
  EXPECT_EQ(Get(one.values, "db.value_ambiguous"), 0);
}

// What is not at hand stays unknown: no schema, no SQL; a question alone still has its question features.
TEST(Extractor, UnknownWithoutSchemaOrSql) {
  Extractor extractor(nullptr);
  auto got = extractor.Extract({"How many singers are there?", "", ""}, nullptr, sql::Sqlite());
  for (size_t i = 0; i < Catalog().size(); ++i) {
    const auto& f = Catalog()[i];
    EXPECT_EQ(got.values[i] >= 0, f.needs == Needs::kQuestion && f.source == Source::kDerived) << f.id;
  }
  EXPECT_EQ(Get(got.values, "q.how_many"), 1);
  auto json = ToJson(got.values);
  EXPECT_NE(json.dump().find("\"q.how_many\""), std::string::npos) << json.dump();
  EXPECT_NE(json.dump().find("\"sql.count\""), std::string::npos) << json.dump();  // listed as unknown
  auto bad = extractor.Extract({"How many singers?", "", "SELECT count(* FROM singer"}, nullptr, sql::Sqlite());
  EXPECT_NE(bad.sql_error, "");
  EXPECT_EQ(Get(bad.values, "sql.count"), -1);
}

}  // namespace
}  // namespace plainsql::features
