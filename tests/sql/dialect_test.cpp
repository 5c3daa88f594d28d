// Tests of dialect data and identifier quoting.
#include <gtest/gtest.h>

#include "sql/dialect.h"

namespace plainsql::sql {
namespace {

TEST(Dialect, LookupByName) {
  EXPECT_EQ(*DialectByName("postgresql"), &Postgres());
  EXPECT_EQ(*DialectByName("SQLite"), &Sqlite());
  EXPECT_EQ(*DialectByName("mssql"), &TSql());
  EXPECT_FALSE(DialectByName("oracle").has_value());
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

}  // namespace
}  // namespace plainsql::sql
