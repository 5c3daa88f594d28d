// Rewrite passes: mask, skeleton, qualify, and renaming USING columns.
#include <gtest/gtest.h>

#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/resolver.h"
#include "sql/rewrite/fallbacks.h"
#include "sql/rewrite/mask.h"
#include "sql/rewrite/qualify.h"
#include "sql/rewrite/rename.h"
#include "sql/rewrite/skeleton.h"
#include "sql/transpile.h"

namespace plainsql::sql {
namespace {

struct Case {
  const char* in;
  const char* out;
};

Query Parsed(const char* sql, const Dialect& d = Sqlite()) {
  auto q = ParseQuery(sql, d);
  EXPECT_TRUE(q.ok()) << sql << ": " << (q.ok() ? "" : q.error().message);
  return q.ok() ? *q : Query{};
}

TEST(Mask, NamesAndValuesBecomePlaceholders) {
  const Case cases[] = {
      {"SELECT name FROM singer WHERE age > 20", "SELECT <mask> FROM <mask> WHERE <mask> > <value>"},
      {"SELECT T1.name AS n, count(*) FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid GROUP BY T1.name",
       "SELECT <mask>.<mask> AS <mask>, count(*) FROM <mask> AS <mask> JOIN <mask> AS <mask> ON <mask>.<mask> = "
       "<mask>.<mask> GROUP BY <mask>.<mask>"},
      {"SELECT \"Song Name\" FROM main.song WHERE x IN ('a', -1.5, ?) AND y IS NOT NULL LIMIT 3",
       "SELECT <mask> FROM <mask>.<mask> WHERE <mask> IN (<value>, <value>, <value>) AND <mask> IS NOT NULL LIMIT "
       "<value>"},
      {"WITH c(a) AS (SELECT b FROM t) SELECT c.* FROM c JOIN u USING (a) WHERE s LIKE '%x%' AND d = TRUE",
       "WITH <mask>(<mask>) AS (SELECT <mask> FROM <mask>) SELECT <mask>.* FROM <mask> JOIN <mask> USING (<mask>) "
       "WHERE <mask> LIKE <value> AND <mask> = TRUE"},
      {"SELECT CAST(x AS INTEGER) - 1, max(y) FROM t",
       "SELECT CAST(<mask> AS INTEGER) - <value>, max(<mask>) FROM <mask>"},
      {"SELECT a FROM t WHERE d > DATE '2020-01-01'", "SELECT <mask> FROM <mask> WHERE <mask> > <value>"},
      // Positions in GROUP BY and ORDER BY name output columns: they are kept.
      {"SELECT a, count(*) FROM t GROUP BY 1 ORDER BY 2 DESC, a + 1 LIMIT 5",
       "SELECT <mask>, count(*) FROM <mask> GROUP BY 1 ORDER BY 2 DESC, <mask> + <value> LIMIT <value>"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    EXPECT_EQ(Print(Mask(Parsed(c.in)), Sqlite()), c.out);
  }
}

TEST(Mask, SameShapeOnDifferentDatabasesMasksAlike) {
  Query a = Mask(Parsed("SELECT name FROM singer WHERE age > 20"));
  Query b = Mask(Parsed("SELECT [title] FROM dbo.book WHERE pages > 300", TSql()));
  b.body.select.from->name.parts.erase(b.body.select.from->name.parts.begin());  // dbo.
  EXPECT_EQ(Print(a, Sqlite()), Print(b, Sqlite()));
}

TEST(Skeleton, FoldsNamesValuesJoinsAndLists) {
  const Case cases[] = {
      {"SELECT T1.name, T1.age FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid WHERE T2.year > 2014",
       "select _ from _ where _"},
      {"SELECT count(*) FROM singer", "select count ( _ ) from _"},
      {"SELECT name FROM t WHERE a = 1 AND b < 2 OR c LIKE 'x%' ORDER BY a DESC, b DESC LIMIT 3",
       "select _ from _ where _ or _ like _ order by _ desc limit _"},
      {"SELECT a FROM t LEFT JOIN u ON t.x = u.y", "select _ from _ left join _"},
      {"SELECT a FROM t, u, v WHERE t.k = u.k", "select _ from _ where _"},
      {"SELECT a, count(*) FROM t GROUP BY a, b HAVING count(*) > 1",
       "select _ , count ( _ ) from _ group by _ having count ( _ ) > _"},
      {"SELECT name FROM t WHERE id NOT IN (SELECT id FROM u WHERE x IN (1, 2, 3))",
       "select _ from _ where _ not in ( select _ from _ where _ in ( _ ) )"},
      {"SELECT a FROM t UNION SELECT b FROM u", "select _ from _ union select _ from _"},
      {"SELECT a FROM t AS x JOIN (SELECT b FROM u) AS y ON x.a = y.b", "select _ from _ join ( select _ from _ )"},
      {"SELECT a FROM t WHERE d > DATE '2020-01-01' AND x = -3", "select _ from _ where _"},
      // Functions with their own argument syntax keep every argument (fuzzer finding, 2026-11-22).
      {"SELECT substr(a, 1, 2), substring(a FROM 1 FOR 2), position('x' IN a) FROM t",
       "select substr ( _ ) , substring ( _ , _ , _ ) , position ( _ in _ ) from _"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    EXPECT_EQ(SkeletonText(Parsed(c.in), Sqlite()), c.out);
  }
}

TEST(Skeleton, TSqlTopIsItsRowLimit) {
  EXPECT_EQ(SkeletonText(Parsed("SELECT TOP 5 [a] FROM [t] ORDER BY [a]", TSql()), TSql()),
            "select top ( _ ) _ from _ order by _");
}

TEST(Skeleton, SimilarityIsJaccardOverTokenMultisets) {
  auto a = SkeletonTokens(Parsed("SELECT name FROM singer WHERE age > 20"), Sqlite());
  auto b = SkeletonTokens(Parsed("SELECT title FROM book WHERE pages < 100 AND year = 1"), Sqlite());
  auto c = SkeletonTokens(Parsed("SELECT count(*) FROM singer"), Sqlite());
  EXPECT_DOUBLE_EQ(SkeletonSimilarity(a, b), 1.0);  // both "select _ from _ where _"
  // a = {select, _, from, _, where, _}, c = {select, count, (, _, ), from, _}: 4 shared of 6 + 7 - 4 = 9.
  EXPECT_DOUBLE_EQ(SkeletonSimilarity(a, c), 4.0 / 9.0);
  EXPECT_DOUBLE_EQ(SkeletonSimilarity({}, {}), 1.0);
  EXPECT_DOUBLE_EQ(SkeletonSimilarity(a, {}), 0.0);
}

NameCatalog Catalog() {
  NameCatalog c;
  c.tables.push_back(CatalogTable{"", "singer", {"id", "name", "age"}});
  c.tables.push_back(CatalogTable{"", "concert", {"cid", "id", "year", "name"}});
  return c;
}

TEST(Qualify, EveryUnqualifiedColumnGetsItsSource) {
  const Case cases[] = {
      {"SELECT name FROM singer WHERE age > 20", "SELECT singer.name FROM singer WHERE singer.age > 20"},
      {"SELECT age, year FROM singer AS s JOIN concert AS c ON s.id = c.id",
       "SELECT s.age, c.year FROM singer AS s JOIN concert AS c ON s.id = c.id"},
      // USING columns stay bare (in a RIGHT or FULL join neither side is the whole column); so do output aliases
      // in ORDER BY and select-list aliases used later.
      {"SELECT id, year AS y FROM singer JOIN concert USING (id) ORDER BY y, age",
       "SELECT id, concert.year AS y FROM singer JOIN concert USING (id) ORDER BY y, singer.age"},
      // Correlated reference: qualified with the outer table, which nothing inside hides.
      {"SELECT name FROM singer WHERE EXISTS (SELECT 1 FROM concert AS c WHERE c.year = age)",
       "SELECT singer.name FROM singer WHERE EXISTS (SELECT 1 FROM concert AS c WHERE c.year = singer.age)"},
      // ...but not when an inner FROM item has the same name: c.cid inside would not reach the outer c.
      {"SELECT cid FROM concert AS c WHERE EXISTS (SELECT 1 FROM singer AS c WHERE age = cid)",
       "SELECT c.cid FROM concert AS c WHERE EXISTS (SELECT 1 FROM singer AS c WHERE c.age = cid)"},
      // Derived tables and CTEs are sources too; a derived table with no name cannot be named.
      {"WITH o AS (SELECT age FROM singer) SELECT age FROM o",
       "WITH o AS (SELECT singer.age FROM singer) SELECT o.age FROM o"},
      {"SELECT age FROM (SELECT age FROM singer)", "SELECT age FROM (SELECT singer.age FROM singer)"},
      // An ambiguous name is left for the engine to refuse.
      {"SELECT name FROM singer JOIN concert ON 1", "SELECT name FROM singer JOIN concert ON 1"},
      {"SELECT \"Odd\".name FROM singer AS \"Odd\" WHERE age > 1",
       "SELECT \"Odd\".name FROM singer AS \"Odd\" WHERE \"Odd\".age > 1"},
  };
  NameCatalog catalog = Catalog();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    Query q = Parsed(c.in);
    EXPECT_EQ(Print(QualifyColumns(q, Resolve(q, catalog, Sqlite())), Sqlite()), c.out);
  }
}

TEST(Rename, UsingColumnsAreRenamedWithTheirTables) {
  NameCatalog natural = Catalog();
  RenameMap back;
  back.tables = {{"singer", "TB_S"}, {"concert", "TB_C"}};
  back.columns = {{{"singer", "id"}, "S_ID"}, {{"concert", "id"}, "S_ID"}, {{"concert", "year"}, "YR"}};
  Query q = Parsed("SELECT year FROM singer JOIN concert USING (id)");
  EXPECT_EQ(Print(RenameIdentifiers(q, Resolve(q, natural, Sqlite()), back), Sqlite()),
            "SELECT YR FROM TB_S JOIN TB_C USING (S_ID)");
}

TEST(StringFallbacks, SqliteDoubleQuotedStringsBecomeLiteralsForOtherDialects) {
  NameCatalog catalog;
  catalog.tables.push_back({"", "singer", {"Name", "Country"}});
  std::string q = "SELECT \"Name\" FROM singer WHERE Country = \"France\" AND \"Name\" <> \"it's\"";
  auto parsed = ParseQuery(q, Sqlite());
  ASSERT_TRUE(parsed.ok());
  Query out = LiteralizeStringFallbacks(*parsed, Resolve(*parsed, catalog, Sqlite()));
  EXPECT_EQ(Print(out, Postgres()), "SELECT \"Name\" FROM singer WHERE Country = 'France' AND \"Name\" <> 'it''s'");
  TranspileOptions options;
  options.fallbacks_with = &catalog;
  auto pg = Transpile(q, Sqlite(), Postgres(), options);
  ASSERT_TRUE(pg.ok());
  EXPECT_EQ(*pg, Print(out, Postgres()));
  // From SQLite to SQLite nothing changes: SQLite reads them as strings itself.
  auto same = Transpile(q, Sqlite(), Sqlite(), options);
  ASSERT_TRUE(same.ok());
  EXPECT_NE(same->find("\"France\""), std::string::npos);
}

}  // namespace
}  // namespace plainsql::sql
