// Data-driven resolver tests (resolve_cases.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "common/strings.h"
#include "sql/parser.h"
#include "sql/resolver.h"

namespace plainsql::sql {
namespace {

std::vector<std::string> Items(const std::string& line, const std::string& label) {
  EXPECT_TRUE(line.starts_with(label)) << "expected '" << label << "' line, got: " << line;
  std::vector<std::string> out;
  for (const auto& part : Split(line.substr(std::min(line.size(), label.size())), ',')) {
    std::string_view t = Trim(part);
    if (!t.empty()) out.emplace_back(t);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Resolve, Cases) {
  std::ifstream in(std::string(PLAINSQL_SOURCE_DIR) + "/tests/sql/resolve_cases.txt");
  ASSERT_TRUE(in);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  NameCatalog catalog;
  int cases = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.empty() || l[0] == '#') continue;
    if (l.starts_with("catalog: ")) {
      std::string def = l.substr(9);
      CatalogTable t;
      t.name = std::string(Trim(def.substr(0, def.find('('))));
      std::string cols = def.substr(def.find('(') + 1, def.rfind(')') - def.find('(') - 1);
      for (const auto& c : Split(cols, ',')) t.columns.emplace_back(Trim(c));
      catalog.tables.push_back(std::move(t));
      continue;
    }
    ASSERT_LT(i + 3, lines.size());
    SCOPED_TRACE(l);
    auto q = ParseQuery(l, Sqlite());
    ASSERT_TRUE(q.ok()) << q.error().message;
    Resolution r = Resolve(*q, catalog, Sqlite());
    std::vector<std::string> tables(r.tables.begin(), r.tables.end()), columns, unresolved;
    for (const auto& [t, c] : r.columns) columns.push_back(t + "." + c);
    for (const auto& u : r.unresolved) unresolved.push_back(u.kind + ":" + u.name);
    std::sort(unresolved.begin(), unresolved.end());
    EXPECT_EQ(tables, Items(lines[i + 1], "tables:"));
    EXPECT_EQ(columns, Items(lines[i + 2], "columns:"));
    EXPECT_EQ(unresolved, Items(lines[i + 3], "unresolved:"));
    i += 3;
    ++cases;
  }
  EXPECT_GE(cases, 15);
}

TEST(Resolve, UnresolvedNamesHaveTheirPositions) {
  NameCatalog c;
  c.tables.push_back(CatalogTable{"", "t", {"a"}});
  auto q = ParseQuery("SELECT a,\n  bogus FROM t", Sqlite());
  ASSERT_TRUE(q.ok());
  Resolution r = Resolve(*q, c, Sqlite());
  ASSERT_EQ(r.unresolved.size(), 1u);
  EXPECT_EQ(r.unresolved[0].name, "bogus");
  EXPECT_EQ(r.unresolved[0].offset, 12u);
}

TEST(Resolve, DoubleQuotedUnknownNameIsAStringOnSqliteOnly) {
  NameCatalog c;
  c.tables.push_back(CatalogTable{"", "t", {"a"}});
  auto q = ParseQuery("SELECT a FROM t WHERE a = \"x\"", Sqlite());
  ASSERT_TRUE(q.ok());
  Resolution r = Resolve(*q, c, Sqlite());
  EXPECT_TRUE(r.unresolved.empty());
  EXPECT_EQ(r.string_fallbacks.size(), 1u);
  auto pg = ParseQuery("SELECT a FROM t WHERE a = \"x\"", Postgres());
  ASSERT_TRUE(pg.ok());
  EXPECT_EQ(Resolve(*pg, c, Postgres()).unresolved.size(), 1u);
}

}  // namespace
}  // namespace plainsql::sql

#include "sql/printer.h"
#include "sql/rewrite/normalize.h"
#include "sql/rewrite/rename.h"

namespace plainsql::sql {
namespace {

// Renaming follows the resolver: the same natural name maps by the table it belongs to; aliases, output aliases,
// string literals and names passing through derived tables are handled.
TEST(Rename, NaturalNamesBackToNative) {
  NameCatalog natural;
  natural.tables.push_back(CatalogTable{"", "maintenance_order", {"order_id", "status", "equipment_id"}});
  natural.tables.push_back(CatalogTable{"", "equipment", {"equipment_id", "status"}});
  RenameMap back;
  back.tables = {{"maintenance_order", "TB_MO"}, {"equipment", "TB_EQUIP"}};
  back.columns = {{{"maintenance_order", "order_id"}, "MO_ID"},
                  {{"maintenance_order", "status"}, "MO_ST"},
                  {{"maintenance_order", "equipment_id"}, "EQ_ID"},
                  {{"equipment", "equipment_id"}, "EQ_ID"},
                  {{"equipment", "status"}, "EQ_ST"}};
  const char* sql =
      "SELECT o.status AS status, e.status, maintenance_order.order_id, s.eid FROM maintenance_order AS o "
      "JOIN equipment AS e ON e.equipment_id = o.equipment_id JOIN maintenance_order ON 1 = 1 "
      "JOIN (SELECT equipment_id AS eid, status FROM equipment) AS s ON s.status = 'status' ORDER BY status";
  auto q = ParseQuery(sql, Sqlite());
  ASSERT_TRUE(q.ok()) << q.error().message;
  Resolution r = Resolve(*q, natural, Sqlite());
  EXPECT_TRUE(r.unresolved.empty());
  EXPECT_EQ(Print(RenameIdentifiers(*q, r, back), Sqlite()),
            "SELECT o.MO_ST AS status, e.EQ_ST, TB_MO.MO_ID, s.eid FROM TB_MO AS o JOIN TB_EQUIP AS e ON e.EQ_ID = "
            "o.EQ_ID JOIN TB_MO ON 1 = 1 JOIN (SELECT EQ_ID AS eid, EQ_ST FROM TB_EQUIP) AS s ON s.EQ_ST = 'status' "
            "ORDER BY status");
}

TEST(Normalize, IgnoresCaseAndQuotingWhereTheDialectDoes) {
  auto a = ParseQuery("SELECT [Name], COUNT(*) FROM dbo.Singer WHERE x <> 1", TSql());
  auto b = ParseQuery("select name, count(*) from DBO.singer where X != 1", TSql());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(Normalize(*a, TSql()), Normalize(*b, TSql()));
  auto c = ParseQuery("SELECT \"Name\" FROM t", Postgres());
  auto d = ParseQuery("SELECT name FROM t", Postgres());
  ASSERT_TRUE(c.ok() && d.ok());
  EXPECT_FALSE(Normalize(*c, Postgres()) == Normalize(*d, Postgres()));  // quoted names are exact in PostgreSQL
}

}  // namespace
}  // namespace plainsql::sql
