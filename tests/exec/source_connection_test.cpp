// Connections over a host's query function (the PostgreSQL extension's SPI): parameters written in as literals, the
// sink's row cap and ceilings, and the guard before the host sees a query.
#include "exec/source_connection.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace plainsql::exec {
namespace {

TEST(SourceConnection, ParametersBecomeQuotedLiterals) {
  auto text =
      InlinePostgresParameters("SELECT a FROM t WHERE b = $1 AND c = $2 AND d = '$1' AND e = $10",
                               {Value::Text("O'Brien"), Value::Integer(7), Value::Null(), Value::Null(), Value::Null(),
                                Value::Null(), Value::Null(), Value::Null(), Value::Null(), Value::Real(std::nan(""))});
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, "SELECT a FROM t WHERE b = 'O''Brien' AND c = '7' AND d = '$1' AND e = 'NaN'");
  auto blob = InlinePostgresParameters("SELECT $1", {Value::MakeBlob(std::string("\x01\xff", 2))});
  ASSERT_TRUE(blob.ok());
  EXPECT_EQ(*blob, "SELECT '\\x01ff'::bytea");
  auto null = InlinePostgresParameters("SELECT $1", {Value::Null()});
  ASSERT_TRUE(null.ok());
  EXPECT_EQ(*null, "SELECT NULL");
  auto missing = InlinePostgresParameters("SELECT $2", {Value::Integer(1)});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("parameter $2 but 1 were given"), std::string::npos);
  // A dollar-quoted string is a string: nothing inside it is a parameter.
  auto quoted = InlinePostgresParameters("SELECT $$ $1 $$, $1", {Value::Integer(3)});
  ASSERT_TRUE(quoted.ok());
  EXPECT_EQ(*quoted, "SELECT $$ $1 $$, '3'");
}

TEST(SourceConnection, RowsStopAtTheCapAndTheCeilings) {
  ResultSet rs;
  Ceilings ceilings;
  SourceRows rows(rs, 2, ceilings);
  rows.AddColumn("n", 23);  // int4
  rows.AddColumn("s", 25);  // text
  EXPECT_TRUE(rows.AddValue("1", 1));
  EXPECT_TRUE(rows.AddValue("a", 1));
  EXPECT_TRUE(rows.AddValue("2", 1));
  EXPECT_TRUE(rows.AddValue(nullptr, 0));
  EXPECT_FALSE(rows.AddValue("3", 1));  // a third row: the cap
  EXPECT_TRUE(rs.truncated);
  ASSERT_EQ(rs.rows.size(), 2u);
  EXPECT_EQ(rs.rows[0][0].as_integer(), 1);
  EXPECT_TRUE(rs.rows[1][1].is_null());
  EXPECT_EQ(rs.column_types, (std::vector<std::string>{"integer", "text"}));
  EXPECT_FALSE(rows.error().has_value());

  ResultSet big;
  ceilings.max_result_bytes = 100;
  SourceRows capped(big, 1000, ceilings);
  capped.AddColumn("s", 25);
  bool go = true;
  for (int i = 0; i < 100 && go; ++i) go = capped.AddValue("0123456789", 10);
  EXPECT_FALSE(go);
  ASSERT_TRUE(capped.error().has_value());
  EXPECT_EQ(capped.error()->code, ErrorCode::kResourceLimit);
}

TEST(SourceConnection, TheHostSeesOnlyCheckedQueries) {
  std::vector<std::string> seen;
  QuerySource source;
  source.identity = "test";
  source.database_name = "test";
  source.run = [&](const std::string& sql, const Limits&, SourceRows& rows) -> std::optional<SourceFailure> {
    seen.push_back(sql);
    if (sql.find("pg_catalog.current_schemas") != std::string::npos) {
      rows.AddColumn("s", 25);
      rows.AddValue("public", 6);
    } else if (sql.find("pg_catalog.pg_class") != std::string::npos) {
      rows.AddColumn("n", 25);
      rows.AddColumn("r", 25);
      rows.AddValue("public", 6);
      rows.AddValue("t", 1);
    } else if (sql.find("boom") != std::string::npos) {
      return SourceFailure{"42703", "column \"boom\" does not exist"};
    } else {
      rows.AddColumn("count", 20);
      rows.AddValue("3", 1);
    }
    return std::nullopt;
  };
  auto conn = OpenQuerySource(source);
  EXPECT_EQ(conn->engine(), Engine::kPostgres);
  auto ok = conn->Query("SELECT count(*) FROM t", Limits{});
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->rows[0][0].as_integer(), 3);
  size_t before = seen.size();
  auto write = conn->Query("DELETE FROM t", Limits{});
  ASSERT_FALSE(write.ok());
  EXPECT_EQ(write.error().code, ErrorCode::kNotReadOnly);
  auto other = conn->Query("SELECT * FROM secret", Limits{});
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(seen.size(), before + 2);  // the unknown relation made the catalog be read again (two queries); neither ran
  auto failed = conn->Query("SELECT boom FROM t", Limits{});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().code, ErrorCode::kSql);
  EXPECT_NE(failed.error().message.find("boom"), std::string::npos);
  auto session = OpenSourceWriteSession(source);
  ASSERT_FALSE(session.ok());  // no write function
}

}  // namespace
}  // namespace plainsql::exec
