// Tests of dialect data and identifier quoting.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>

#include "common/strings.h"
#include "sql/dialect.h"

namespace plainsql::sql {
namespace {

TEST(Dialect, LookupByName) {
  EXPECT_EQ(*DialectByName("postgresql"), &Postgres());
  EXPECT_EQ(*DialectByName("SQLite"), &Sqlite());
  EXPECT_EQ(*DialectByName("mssql"), &TSql());
  EXPECT_EQ(*DialectByName("DuckDB"), &DuckDb());
  EXPECT_FALSE(DialectByName("oracle").has_value());
  for (const Dialect* d : AllDialects()) {
    EXPECT_EQ(*DialectByName(d->name), d);
    for (std::string_view alias : d->aliases) EXPECT_EQ(*DialectByName(alias), d) << alias;
  }
}

TEST(Dialect, QuotesOnlyWhenNeeded) {
  EXPECT_EQ(QuoteIdentifier(Sqlite(), "plant"), "plant");
  EXPECT_EQ(QuoteIdentifier(Sqlite(), "TB_MO"), "TB_MO");        // SQLite does not fold case
  EXPECT_EQ(QuoteIdentifier(Postgres(), "TB_MO"), "\"TB_MO\"");  // PostgreSQL folds to lower case
  EXPECT_EQ(QuoteIdentifier(Sqlite(), "Reported By"), "\"Reported By\"");
  EXPECT_EQ(QuoteIdentifier(Sqlite(), "Group"), "\"Group\"");  // reserved word
  EXPECT_EQ(QuoteIdentifier(TSql(), "order"), "[order]");
  EXPECT_EQ(QuoteIdentifier(MySql(), "select"), "`select`");
  EXPECT_EQ(QuoteIdentifier(Sqlite(), "2nd"), "\"2nd\"");
  EXPECT_EQ(QuoteIdentifier(Sqlite(), "a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(QuoteIdentifier(TSql(), "a]b"), "[a]]b]");
  EXPECT_EQ(QuoteIdentifier(Sqlite(), ""), "\"\"");
}

TEST(Dialect, Keywords) {
  EXPECT_TRUE(IsKeyword("select"));
  EXPECT_TRUE(IsKeyword("Group"));
  EXPECT_TRUE(IsKeyword("TOP"));
  EXPECT_FALSE(IsKeyword("plant"));
  EXPECT_EQ(QuoteString("it's"), "'it''s'");
}

// Issue #16: the keyword lists are data (src/sql/dialects/<name>_keywords.txt) compiled in; each is upper case and
// sorted, and the shared ones together give the 417 words of the hand-typed table they replaced.
TEST(Dialect, KeywordListsAreTheDataFiles) {
  std::set<std::string_view> shared;
  for (const Dialect* d : AllDialects()) {
    SCOPED_TRACE(d->name);
    std::ifstream in(std::string(PLAINSQL_SOURCE_DIR) + "/src/sql/dialects/" + std::string(d->name) + "_keywords.txt");
    ASSERT_TRUE(in);
    std::vector<std::string> words;
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line[0] != '#') words.push_back(line);
    }
    ASSERT_EQ(words.size(), d->keywords.size());
    EXPECT_TRUE(std::equal(words.begin(), words.end(), d->keywords.begin()));
    EXPECT_TRUE(std::is_sorted(d->keywords.begin(), d->keywords.end()));
    for (std::string_view w : d->keywords) {
      EXPECT_EQ(ToUpper(w), w);
      EXPECT_TRUE(IsKeyword(*d, w));
      EXPECT_TRUE(IsReservedIn(*d, w));
    }
    if (d->shared_keywords) shared.insert(d->keywords.begin(), d->keywords.end());
  }
  EXPECT_EQ(shared.size(), 417u);
  EXPECT_GT(Sqlite().keywords.size(), 140u);  // SQLite 3.40 has 147
}

TEST(Dialect, DuckDbKeywordsAreQuotedInDuckDbOnly) {
  EXPECT_TRUE(IsKeyword(DuckDb(), "qualify"));
  EXPECT_FALSE(IsKeyword("qualify"));
  EXPECT_EQ(QuoteIdentifier(DuckDb(), "qualify"), "\"qualify\"");
  EXPECT_EQ(QuoteIdentifier(Sqlite(), "qualify"), "qualify");
  EXPECT_EQ(QuoteIdentifier(DuckDb(), "order"), "\"order\"");  // shared keywords are quoted everywhere
  EXPECT_EQ(QuoteIdentifier(DuckDb(), "TB_MO"), "TB_MO");      // case-insensitive, case kept: no folding
}

}  // namespace
}  // namespace plainsql::sql
