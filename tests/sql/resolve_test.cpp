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
