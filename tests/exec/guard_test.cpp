// The access guard on a fixed policy, from the cases in guard_cases.txt (see its header), and the guard on a real
// SQLite connection: the authorizer's second wall, the ceilings, and the linear instr() / replace().
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>

#include "common/strings.h"
#include "exec/connection.h"
#include "test_util.h"

namespace plainsql::exec {
namespace {

AccessPolicy SqlitePolicy() {
  AccessPolicy p;
  p.dialect = &sql::Sqlite();
  p.functions = DefaultAllowedFunctions(sql::Sqlite());
  p.search_path = {"temp", "main", "native"};
  p.relations = {{"main", "plant", true},    {"main", "TB_MO", true},          {"main", "v_plant", true},
                 {"temp", "nat", true},      {"main", "sqlite_master", false}, {"main", "sqlite_schema", false},
                 {"native", "secret", false}};
  return p;
}

AccessPolicy PostgresPolicy() {
  AccessPolicy p;
  p.dialect = &sql::Postgres();
  p.functions = DefaultAllowedFunctions(sql::Postgres());
  p.search_path = {"pg_catalog", "public"};
  p.relations = {{"public", "plant", true},          {"public", "TB_MO", true},
                 {"sales", "Customer", true},        {"sales", "sale", true},
                 {"pg_catalog", "pg_authid", false}, {"pg_catalog", "pg_class", false},
                 {"pg_catalog", "pg_roles", false},  {"information_schema", "tables", false}};
  return p;
}

struct Case {
  std::string dialect, expect, sql;
  int line = 0;
};

std::vector<Case> ReadCases() {
  std::vector<Case> out;
  std::ifstream in(std::string(PLAINSQL_SOURCE_DIR) + "/tests/exec/guard_cases.txt");
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    auto f = Split(line, '\t');
    if (f.size() != 3) {
      ADD_FAILURE() << "guard_cases.txt:" << n << ": expected three tab-separated fields";
      continue;
    }
    out.push_back({f[0], f[1], f[2], n});
  }
  return out;
}

TEST(Guard, Cases) {
  AccessPolicy sqlite = SqlitePolicy(), postgres = PostgresPolicy();
  auto cases = ReadCases();
  ASSERT_GT(cases.size(), 50u);
  for (const Case& c : cases) {
    const AccessPolicy& p = c.dialect == "postgres" ? postgres : sqlite;
    Status s = CheckQuery(c.sql, p);
    std::string where = "guard_cases.txt:" + std::to_string(c.line) + ": " + c.sql;
    if (c.expect == "ok") {
      EXPECT_TRUE(s.ok()) << where << "\n  refused: " << s.error().message;
      continue;
    }
    ASSERT_TRUE(c.expect.starts_with("refused:")) << where;
    std::string text = c.expect.substr(8);
    ASSERT_FALSE(s.ok()) << where << "\n  was allowed";
    EXPECT_NE(s.error().message.find(text), std::string::npos) << where << "\n  message: " << s.error().message;
  }
}

TEST(Guard, RefusalsNameTheSetting) {
  Status f = CheckQuery("SELECT randomblob(4)", SqlitePolicy());
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().code, ErrorCode::kNotAllowed);
  EXPECT_NE(f.error().message.find("allow_functions"), std::string::npos) << f.error().message;
  Status r = CheckQuery("SELECT * FROM pg_roles", PostgresPolicy());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("\"pg_catalog.pg_roles\" to allow_relations"), std::string::npos)
      << r.error().message;
}

TEST(Guard, UserAllowances) {
  AccessPolicy p = PostgresPolicy();
  ApplyAccessOptions(p, AccessOptions{{"lpad", "public.my_fn"}, {"pg_catalog.pg_roles"}, {}});
  EXPECT_TRUE(CheckQuery("SELECT lpad(name, 10) FROM plant", p).ok());
  EXPECT_TRUE(CheckQuery("SELECT public.my_fn(1)", p).ok());
  EXPECT_FALSE(CheckQuery("SELECT other.my_fn(1)", p).ok());
  EXPECT_TRUE(CheckQuery("SELECT rolname FROM pg_roles", p).ok());
  EXPECT_FALSE(CheckQuery("SELECT * FROM pg_authid", p).ok());
}

TEST(Guard, DefaultListsAreClosed) {
  const auto& pg = DefaultAllowedFunctions(sql::Postgres());
  for (const char* f : {"query_to_xml", "pg_read_file", "lo_import", "pg_advisory_lock", "set_config", "dblink",
                        "pg_sleep", "current_setting", "ts_stat", "ts_rewrite", "nextval", "repeat", "version"}) {
    EXPECT_FALSE(pg.count(f)) << f;
  }
  const auto& lite = DefaultAllowedFunctions(sql::Sqlite());
  for (const char* f : {"load_extension", "randomblob", "zeroblob", "fts3_tokenizer", "readfile", "writefile"}) {
    EXPECT_FALSE(lite.count(f)) << f;
  }
  EXPECT_TRUE(lite.count("count") && lite.count("strftime") && pg.count("count") && pg.count("date_trunc"));
}

// A string of 10^power copies of `c`, built only with allowed functions.
std::string Amplified(char c, int power) {
  std::string sql = fmt::format("'{}'", c);
  for (int i = 0; i < power; ++i) sql = fmt::format("replace({}, '{}', '{}')", sql, c, std::string(10, c));
  return sql;
}

class GuardSqlite : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("g.db");
    test::MakeSqliteDb(path_,
                       "CREATE TABLE plant(id INTEGER PRIMARY KEY, name TEXT);"
                       "INSERT INTO plant VALUES (1, 'Riverside'), (2, 'Lakeside');"
                       "CREATE VIEW v AS SELECT upper(name) AS u, sqlite_version() AS ver FROM plant;");
    auto c = Connect(path_);
    ASSERT_TRUE(c.ok()) << c.error().message;
    conn_ = std::move(*c);
  }
  test::TempDir dir_;
  std::string path_;
  std::unique_ptr<Connection> conn_;
  Limits limits_{std::chrono::milliseconds(2000), 100};
};

TEST_F(GuardSqlite, ReadsTheSchemaAndNothingElse) {
  EXPECT_TRUE(conn_->Query("SELECT count(*) FROM plant", limits_).ok());
  // A view of the schema may call what it likes: it is the DBA's.
  auto v = conn_->Query("SELECT u FROM v ORDER BY u", limits_);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_EQ(v->rows.size(), 2u);
  auto m = conn_->Query("SELECT * FROM sqlite_master", limits_);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, ErrorCode::kNotAllowed);
  // A CTE named like the view does not pass for it.
  auto cte = conn_->Query("WITH v AS (SELECT name FROM sqlite_master) SELECT * FROM v", limits_);
  ASSERT_FALSE(cte.ok());
  EXPECT_EQ(cte.error().code, ErrorCode::kNotAllowed);
  // plainsql's own catalog queries still work.
  EXPECT_TRUE(conn_->QueryInternal("SELECT name FROM sqlite_master", limits_).ok());
}

TEST_F(GuardSqlite, ATableCreatedAfterTheFirstQueryIsSeen) {
  EXPECT_TRUE(conn_->Query("SELECT 1 FROM plant", limits_).ok());
  test::MakeSqliteDb(path_, "CREATE TABLE later(x); INSERT INTO later VALUES (7);");
  auto rs = conn_->Query("SELECT x FROM later", limits_);
  ASSERT_TRUE(rs.ok()) << rs.error().message;
  EXPECT_EQ(rs->rows.at(0).at(0).ToString(), "7");
}

TEST_F(GuardSqlite, CeilingsStopTheQuery) {
  ExecSettings s;
  s.ceilings.max_value_bytes = 1 << 20;
  s.ceilings.max_result_bytes = 1 << 20;
  conn_->SetExecSettings(s);
  auto big = conn_->Query("SELECT " + Amplified('x', 7), limits_);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().code, ErrorCode::kResourceLimit);
  EXPECT_NE(big.error().message.find("max_value_bytes"), std::string::npos) << big.error().message;
  Limits many = limits_;
  many.max_rows = 1'000'000;
  auto rows = conn_->Query(
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100000) "
      "SELECT n, " +
          Amplified('x', 2) + " FROM r",
      many);
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.error().code, ErrorCode::kResourceLimit);
  EXPECT_NE(rows.error().message.find("max_result_bytes"), std::string::npos) << rows.error().message;
  conn_->SetExecSettings(ExecSettings{});
}

TEST_F(GuardSqlite, InstrAndReplaceKeepSqliteResultsInLinearTime) {
  auto rs = conn_->Query(
      "SELECT instr('abcdé-f', '-'), instr('abc', ''), instr(NULL, 'a'), instr(x'00ff01', x'01'), instr(12345, 34), "
      "replace('aXbXXc', 'X', '--'), replace('abc', '', 'z'), replace(NULL, 'a', 'b'), replace(123, 2, 9), "
      "instr('abc', 'z')",
      limits_);
  ASSERT_TRUE(rs.ok()) << rs.error().message;
  std::vector<std::string> got;
  for (const Value& v : rs->rows.at(0)) got.push_back(v.ToString());
  EXPECT_EQ(got, (std::vector<std::string>{"6", "1", "NULL", "3", "3", "a--b----c", "abc", "NULL", "193", "0"}));
  // O(n·m) in SQLite's own versions: hours for these operands. Linear here, well inside the timeout.
  std::string hay = Amplified('a', 7), needle = Amplified('a', 6) + " || 'b'";
  auto slow = conn_->Query(fmt::format("SELECT instr({0}, {1}), length(replace({0}, {1}, 'c'))", hay, needle), limits_);
  ASSERT_TRUE(slow.ok()) << slow.error().message;
  EXPECT_EQ(slow->rows.at(0).at(0).ToString(), "0");
}

}  // namespace
}  // namespace plainsql::exec
