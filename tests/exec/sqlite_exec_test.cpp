// Read-only execution on SQLite: typed results, refusals that change nothing, timeouts, row caps, clear errors.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "exec/connection.h"
#include "exec/fingerprint.h"
#include "test_util.h"

namespace plainsql::exec {
namespace {

using namespace std::chrono_literals;

std::unique_ptr<Connection> Open(const std::string& path) {
  auto c = Connect(path);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
  return c.ok() ? std::move(*c) : nullptr;
}

TEST(ConnectionString, Parses) {
  auto a = ParseConnectionString("sqlite:/tmp/x.db");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->engine, Engine::kSqlite);
  EXPECT_EQ(a->target, "/tmp/x.db");
  EXPECT_EQ(ParseConnectionString("x.db")->target, "x.db");
  EXPECT_EQ(ParseConnectionString("sqlite:///abs/x.db")->target, "/abs/x.db");
  EXPECT_EQ(ParseConnectionString("postgresql://u@h/db")->engine, Engine::kPostgres);
  EXPECT_EQ(ParseConnectionString("postgres://u@h/db")->engine, Engine::kPostgres);
  EXPECT_EQ(ParseConnectionString("mysql://u@h/db").error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(ParseConnectionString("  ").error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(ParseConnectionString("sqlite:").error().code, ErrorCode::kInvalidArgument);
}

TEST(ConnectionString, RedactsPasswords) {
  EXPECT_EQ(RedactConnectionString("postgresql://bob:s3cret@db.example/x"), "postgresql://bob:***@db.example/x");
  EXPECT_EQ(RedactConnectionString("postgresql://h/x?user=bob&password=s3cret&sslmode=require"),
            "postgresql://h/x?user=bob&password=***&sslmode=require");
  EXPECT_EQ(RedactConnectionString("postgresql://bob@h/x"), "postgresql://bob@h/x");
}

TEST(SqliteExec, OpenErrorsAreClear) {
  test::TempDir dir;
  auto missing = Connect(dir.File("nope.db"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_NE(missing.error().message.find("nope.db"), std::string::npos);

  auto is_dir = Connect(dir.path());
  ASSERT_FALSE(is_dir.ok());
  EXPECT_EQ(is_dir.error().code, ErrorCode::kInvalidArgument);

  std::string junk = dir.File("junk.db");
  {
    std::ofstream out(junk);
    out << "this is not a database, just some text that is long enough to have a header......................";
  }
  auto not_db = Connect(junk);
  ASSERT_FALSE(not_db.ok());
  EXPECT_EQ(not_db.error().code, ErrorCode::kConnection);
}

TEST(SqliteExec, TypedValues) {
  auto conn = Open(test::SampleDb());
  auto rs = conn->Query("SELECT 1 AS i, 2.5 AS r, 'x' AS t, NULL AS n, x'00ff' AS b", Limits{});
  ASSERT_TRUE(rs.ok()) << rs.error().message;
  ASSERT_EQ(rs->rows.size(), 1u);
  const Row& row = rs->rows[0];
  EXPECT_EQ(rs->columns, (std::vector<std::string>{"i", "r", "t", "n", "b"}));
  EXPECT_EQ(row[0], Value::Integer(1));
  EXPECT_EQ(row[1], Value::Real(2.5));
  EXPECT_EQ(row[2], Value::Text("x"));
  EXPECT_TRUE(row[3].is_null());
  EXPECT_EQ(row[4], Value::MakeBlob(std::string("\x00\xff", 2)));
  EXPECT_EQ(row[4].ToString(), "\\x00ff");
  EXPECT_FALSE(rs->truncated);
}

TEST(SqliteExec, ReadsTheSampleDatabase) {
  auto conn = Open(test::SampleDb());
  auto rs =
      conn->Query("SELECT count(*) FROM TB_MO m JOIN MO_ST_CD s ON s.ST_CD = m.MO_ST WHERE s.IS_OPEN = 1", Limits{});
  ASSERT_TRUE(rs.ok()) << rs.error().message;
  EXPECT_GT(rs->rows[0][0].as_integer(), 0);
  EXPECT_EQ(rs->column_types.size(), 1u);
}

TEST(SqliteExec, BindsParameters) {
  auto conn = Open(test::SampleDb());
  auto rs = conn->Query("SELECT plant_name FROM plant WHERE city = ? AND plant_id > ?", Limits{},
                        {Value::Text("Toledo"), Value::Integer(0)});
  ASSERT_TRUE(rs.ok()) << rs.error().message;
  ASSERT_EQ(rs->rows.size(), 1u);
  EXPECT_EQ(rs->rows[0][0].as_text(), "Riverside Works");
  auto wrong = conn->Query("SELECT ?", Limits{}, {});
  EXPECT_EQ(wrong.error().code, ErrorCode::kInvalidArgument);
}

// Every statement that could change a database is refused, and the file is byte-for-byte unchanged after all of them.
TEST(SqliteExec, RefusesWritesAndChangesNothing) {
  test::TempDir dir;
  std::string db = dir.File("plant.db");
  std::filesystem::copy_file(test::SampleDb(), db);
  std::string before = test::FileChecksum(db);
  auto conn = Open(db);
  const std::vector<std::string> statements = {
      "INSERT INTO plant VALUES (99, 'x', 'y', 'z', 2000)",
      "UPDATE plant SET city = 'x'",
      "DELETE FROM plant",
      "REPLACE INTO plant VALUES (1, 'x', 'y', 'z', 2000)",
      "DROP TABLE MO_PART",
      "DROP VIEW open_orders",
      "CREATE TABLE t (a)",
      "CREATE INDEX i ON plant (city)",
      "CREATE TEMP TABLE t (a)",
      "ALTER TABLE plant ADD COLUMN x",
      "ALTER TABLE plant RENAME TO factory",
      "ATTACH DATABASE ':memory:' AS m",
      "ATTACH DATABASE '" + dir.File("other.db") + "' AS o",
      "DETACH DATABASE main",
      "PRAGMA writable_schema = ON",
      "PRAGMA user_version = 7",
      "PRAGMA journal_mode = WAL",
      "PRAGMA foreign_keys = OFF",
      "SELECT 1; DROP TABLE plant",
      "SELECT 1; UPDATE plant SET city = 'x'",
      "WITH a AS (SELECT 1) DELETE FROM plant",
      "WITH a AS (SELECT 1) UPDATE sqlite_master SET sql = 'x'",
      "VACUUM",
      "VACUUM INTO '" + dir.File("copy.db") + "'",
      "REINDEX",
      "ANALYZE",
      "BEGIN",
      "SAVEPOINT s",
      "EXPLAIN DELETE FROM plant",
      "SELECT load_extension('/nonexistent')",
  };
  for (const auto& sql : statements) {
    auto rs = conn->Query(sql, Limits{});
    ASSERT_FALSE(rs.ok()) << "was allowed: " << sql;
    EXPECT_EQ(rs.error().code, ErrorCode::kNotReadOnly) << sql << " -> " << rs.error().message;
  }
  // Pragma functions pass the lexical guard as SELECTs; whatever they return, the checksum below proves they wrote
  // nothing.
  for (const char* sql : {"SELECT * FROM pragma_user_version(7)", "SELECT * FROM pragma_writable_schema(1)"}) {
    (void)conn->Query(sql, Limits{});
  }
  conn.reset();
  EXPECT_EQ(test::FileChecksum(db), before);
  EXPECT_FALSE(std::filesystem::exists(dir.File("copy.db")));
  EXPECT_FALSE(std::filesystem::exists(dir.File("other.db")));
  EXPECT_FALSE(std::filesystem::exists(db + "-wal"));
}

TEST(SqliteExec, AllowsReadOnlyIntrospectionPragmaFunctionsToPlainsqlOnly) {
  auto conn = Open(test::SampleDb());
  // plainsql's own catalog queries read the pragma functions; a query may not (they are not on the allowlist).
  auto rs = conn->QueryInternal("SELECT name FROM pragma_table_xinfo('TB_MO') ORDER BY cid", Limits{});
  ASSERT_TRUE(rs.ok()) << rs.error().message;
  EXPECT_EQ(rs->rows.size(), 10u);
  auto refused = conn->Query("SELECT name FROM pragma_table_xinfo('TB_MO') ORDER BY cid", Limits{});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kNotAllowed);
}

TEST(SqliteExec, StopsAtTheTimeout) {
  auto conn = Open(test::SampleDb());
  Limits limits{200ms, 10};
  auto start = std::chrono::steady_clock::now();
  auto rs =
      conn->Query("WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c", limits);
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(rs.ok());
  EXPECT_EQ(rs.error().code, ErrorCode::kTimeout);
  EXPECT_LT(elapsed, 2 * limits.timeout) << "stopped too late";
  // The connection is usable afterwards.
  auto again = conn->Query("SELECT 1", Limits{});
  EXPECT_TRUE(again.ok());
}

TEST(SqliteExec, StopsAtTheInstructionBudget) {
  auto conn = Open(test::SampleDb());
  const char* q =
      "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 200000) SELECT count(*) FROM c";
  // Without a budget the query runs to its end; with one far below its work it is stopped, however long the timeout.
  auto whole = conn->Query(q, Limits{60'000ms, 10});
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(whole->rows.at(0).at(0).as_integer(), 200000);
  auto stopped = conn->Query(q, Limits{60'000ms, 10, 100'000});
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.error().code, ErrorCode::kTimeout);
  EXPECT_NE(stopped.error().message.find("budget of 100000 instructions"), std::string::npos)
      << stopped.error().message;
  // A budget the query stays within changes nothing, and each query starts with a fresh count (run four times, the
  // query would pass this budget from the second run on if the counts added up).
  const int64_t kBudget = 5'000'000;  // the query takes about 3.4 million
  for (int i = 0; i < 4; ++i) {
    auto within = conn->Query(q, Limits{60'000ms, 10, kBudget});
    ASSERT_TRUE(within.ok()) << i << ": " << within.error().message;
    EXPECT_EQ(within->rows.at(0).at(0).as_integer(), 200000);
  }
}

TEST(SqliteExec, CapsRows) {
  auto conn = Open(test::SampleDb());
  const char* q = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 100) SELECT n FROM c";
  auto capped = conn->Query(q, Limits{1000ms, 10});
  ASSERT_TRUE(capped.ok());
  EXPECT_EQ(capped->rows.size(), 10u);
  EXPECT_TRUE(capped->truncated);
  auto exact = conn->Query(q, Limits{1000ms, 100});
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ(exact->rows.size(), 100u);
  EXPECT_FALSE(exact->truncated);
  auto none = conn->Query(q, Limits{1000ms, 0});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->rows.empty());
  EXPECT_TRUE(none->truncated);
}

TEST(SqliteExec, SqlErrors) {
  auto conn = Open(test::SampleDb());
  auto syntax = conn->Query("SELEC 1", Limits{});
  EXPECT_EQ(syntax.error().code, ErrorCode::kNotReadOnly);  // not a query at all
  auto bad = conn->Query("SELECT FROM WHERE", Limits{});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kSql);
  auto missing = conn->Query("SELECT no_such_column FROM plant", Limits{});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kSql);
  EXPECT_NE(missing.error().message.find("no_such_column"), std::string::npos);
  auto empty = conn->Query("  -- nothing\n", Limits{});
  EXPECT_EQ(empty.error().code, ErrorCode::kInvalidArgument);
  auto open_quote = conn->Query("SELECT 'abc", Limits{});
  EXPECT_EQ(open_quote.error().code, ErrorCode::kSql);
}

TEST(Fingerprint, OrderAndMultiset) {
  auto conn = Open(test::SampleDb());
  auto a = conn->Query("SELECT plant_id, city FROM plant ORDER BY plant_id", Limits{});
  auto b = conn->Query("SELECT plant_id AS x, city AS y FROM plant ORDER BY plant_id DESC", Limits{});
  auto c = conn->Query("SELECT plant_id, country FROM plant ORDER BY plant_id", Limits{});
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_NE(OrderedFingerprint(*a), OrderedFingerprint(*b));
  EXPECT_EQ(MultisetFingerprint(*a), MultisetFingerprint(*b));  // same rows, other order, other column names
  EXPECT_NE(MultisetFingerprint(*a), MultisetFingerprint(*c));
  auto ints = conn->Query("SELECT 1, 2", Limits{});
  auto reals = conn->Query("SELECT 1.0, 2.0", Limits{});
  auto text = conn->Query("SELECT '1', '2'", Limits{});
  EXPECT_EQ(OrderedFingerprint(*ints), OrderedFingerprint(*reals));
  EXPECT_NE(OrderedFingerprint(*ints), OrderedFingerprint(*text));
  auto dup1 = conn->Query("VALUES (1), (1), (2)", Limits{});
  auto dup2 = conn->Query("VALUES (1), (2), (2)", Limits{});
  EXPECT_NE(MultisetFingerprint(*dup1), MultisetFingerprint(*dup2));  // multiplicities count
  auto null_row = conn->Query("SELECT NULL", Limits{});
  auto empty_text = conn->Query("SELECT ''", Limits{});
  EXPECT_NE(OrderedFingerprint(*null_row), OrderedFingerprint(*empty_text));
}

}  // namespace
}  // namespace plainsql::exec
