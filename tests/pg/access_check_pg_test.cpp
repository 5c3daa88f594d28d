// Least-privilege advice on PostgreSQL: the fixture's superuser is privileged, its SELECT-only reader is not, rights
// beyond reading are each found, and the reader role plainsql's SQL creates is not privileged and reads everything.
//
// Checks that only read run on the shared cluster the ctest fixture starts. Those that create roles and grants run on
// a second, private cluster: roles, role settings and ACLs are cluster state that the security suite
// (tests/security) snapshots before and after each attack while other tests run in parallel.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "common/strings.h"
#include "exec/access_check.h"
#include "exec/connection.h"
#include "test_util.h"

namespace plainsql::exec {
namespace {

std::string FirstLine(const std::string& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// postgresql://postgres:pw@127.0.0.1:port/plainsql_test -> the same server as another user.
std::string AsUser(const std::string& url, const std::string& user, const std::string& password) {
  std::smatch m;
  if (!std::regex_search(url, m, std::regex(R"(@(127\.0\.0\.1:\d+/.*)$)"))) return "";
  return "postgresql://" + user + ":" + password + "@" + std::string(m[1]);
}

// Runs SQL with full rights, bypassing plainsql (for setting up).
void Admin(const std::string& url, const std::string& sql) {
  PGconn* c = PQconnectdb(url.c_str());
  ASSERT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
  PGresult* r = PQexec(c, sql.c_str());
  auto st = PQresultStatus(r);
  std::string err = PQresultErrorMessage(r);
  PQclear(r);
  PQfinish(c);
  ASSERT_TRUE(st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) << err << "\nin:\n" << sql;
}

AccessReport Check(const std::string& url, const AccessCheckOptions& options = {}) {
  auto conn = Connect(url);
  EXPECT_TRUE(conn.ok()) << conn.error().message;
  if (!conn.ok()) return {};
  auto report = CheckRoleAccess(**conn, options);
  EXPECT_TRUE(report.ok()) << report.error().message;
  return report.ok() ? *report : AccessReport{};
}

const AccessFinding* Find(const AccessReport& report, const std::string& code) {
  auto it = std::find_if(report.findings.begin(), report.findings.end(),
                         [&](const AccessFinding& f) { return f.code == code; });
  return it == report.findings.end() ? nullptr : &*it;
}

std::vector<std::string> Codes(const AccessReport& report, Severity at_least) {
  std::vector<std::string> out;
  for (const auto& f : report.findings) {
    if (f.severity <= at_least) out.push_back(f.code);
  }
  return out;
}

class AccessCheckPgShared : public ::testing::Test {
 protected:
  void SetUp() override {
    url_ = FirstLine(PLAINSQL_PG_URL_FILE);
    ASSERT_FALSE(url_.empty()) << "no cluster URL in " << PLAINSQL_PG_URL_FILE << " (the pg fixture did not start)";
  }
  std::string url_;
};

TEST_F(AccessCheckPgShared, SuperuserIsPrivileged) {
  AccessReport report = Check(url_);
  EXPECT_EQ(report.engine, Engine::kPostgres);
  EXPECT_EQ(report.role, "postgres");
  EXPECT_EQ(report.database_name, "plainsql_test");
  EXPECT_TRUE(report.privileged);
  ASSERT_FALSE(report.findings.empty());
  EXPECT_EQ(report.findings[0].code, "superuser");
  EXPECT_EQ(report.findings[0].severity, Severity::kHigh);

  // The reader SQL covers both fixture schemas, with the owner of their relations for later ones.
  ASSERT_EQ(report.schemas.size(), 2u);
  EXPECT_EQ(report.schemas[0].name, "public");
  EXPECT_EQ(report.schemas[1].name, "sales");
  EXPECT_EQ(report.schemas[1].owners, std::vector<std::string>{"postgres"});
  EXPECT_NE(report.reader_sql.find("GRANT CONNECT ON DATABASE plainsql_test TO plainsql_reader;"), std::string::npos)
      << report.reader_sql;
  EXPECT_NE(report.reader_sql.find("GRANT SELECT ON ALL TABLES IN SCHEMA sales TO plainsql_reader;"), std::string::npos)
      << report.reader_sql;

  // The URL's password appears in no output.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(url_, m, std::regex(R"(://[^:]+:([^@]+)@)")));
  std::string password = m[1];
  EXPECT_EQ(RenderAccessReportText(report).find(password), std::string::npos);
  EXPECT_EQ(RenderAccessReportJson(report).find(password), std::string::npos);
}

TEST_F(AccessCheckPgShared, RoleNameIsQuotedInTheReaderSql) {
  AccessCheckOptions options;
  options.reader_role = "NL Reader";
  AccessReport report = Check(url_, options);
  EXPECT_EQ(report.reader_role, "NL Reader");
  EXPECT_NE(report.reader_sql.find("CREATE ROLE \"NL Reader\" LOGIN"), std::string::npos) << report.reader_sql;
}

// The fixture's reader role holds USAGE and SELECT only; one table was created after its grants.
TEST_F(AccessCheckPgShared, SelectOnlyRoleIsNotPrivileged) {
  AccessReport report = Check(AsUser(url_, "reader", "reader-password"));
  EXPECT_EQ(report.role, "reader");
  EXPECT_FALSE(report.privileged);
  EXPECT_EQ(Codes(report, Severity::kMedium), std::vector<std::string>{}) << RenderAccessReportText(report);
  const AccessFinding* unreadable = Find(report, "unreadable");
  ASSERT_NE(unreadable, nullptr) << RenderAccessReportText(report);
  EXPECT_EQ(unreadable->severity, Severity::kInfo);
  EXPECT_EQ(unreadable->objects, std::vector<std::string>{"\"public\".hidden_salary"});
}

// A second throwaway cluster with the same fixture, for the checks that create roles and grants.
class AccessCheckPgPrivate : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // Beside the shared cluster's directory, in the build tree, where the server's system user can reach it.
    dir_ = (std::filesystem::path(PLAINSQL_PG_URL_FILE).parent_path().parent_path() /
            ("pgtest-access-" + std::to_string(getpid())))
               .string();
    std::string script = std::string(PLAINSQL_SOURCE_DIR) + "/tests/pg/pg_cluster.sh";
    std::string cmd =
        "bash '" + script + "' start '" + dir_ + "' '" + PLAINSQL_SOURCE_DIR + "/tests/pg/fixture.sql' >/dev/null";
    if (std::system(cmd.c_str()) == 0) url_ = FirstLine(dir_ + "/url");
  }
  static void TearDownTestSuite() {
    std::string cmd = "bash '" + std::string(PLAINSQL_SOURCE_DIR) + "/tests/pg/pg_cluster.sh' stop '" + dir_ + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
  }
  void SetUp() override { ASSERT_FALSE(url_.empty()) << "the private cluster did not start in " << dir_; }

  static std::string dir_, url_;
};
std::string AccessCheckPgPrivate::dir_, AccessCheckPgPrivate::url_;

TEST_F(AccessCheckPgPrivate, RoleWithSelectOnAFewTablesIsNotPrivileged) {
  ASSERT_NO_FATAL_FAILURE(Admin(url_,
                                "CREATE ROLE select_only LOGIN PASSWORD 'select-pw'; "
                                "GRANT SELECT ON plant, \"TB_MO\" TO select_only;"));
  AccessReport report = Check(AsUser(url_, "select_only", "select-pw"));
  EXPECT_EQ(report.role, "select_only");
  EXPECT_FALSE(report.privileged) << RenderAccessReportText(report);
  EXPECT_EQ(Codes(report, Severity::kMedium), std::vector<std::string>{}) << RenderAccessReportText(report);
  ASSERT_NE(Find(report, "unreadable"), nullptr);
}

TEST_F(AccessCheckPgPrivate, EachRightBeyondReadingIsFound) {
  ASSERT_NO_FATAL_FAILURE(Admin(url_,
                                "CREATE ROLE writer LOGIN PASSWORD 'writer-pw' CREATEDB; "
                                "GRANT USAGE ON SCHEMA sales TO writer; "
                                "GRANT SELECT, INSERT, UPDATE ON plant TO writer; "
                                "GRANT DELETE, TRUNCATE, TRIGGER, REFERENCES ON sales.sale TO writer; "
                                "GRANT UPDATE ON order_seq TO writer; "
                                "GRANT CREATE ON SCHEMA sales TO writer; "
                                "GRANT pg_read_server_files, pg_signal_backend TO writer; "
                                "CREATE TABLE writers_own (x integer); ALTER TABLE writers_own OWNER TO writer;"));
  AccessReport report = Check(AsUser(url_, "writer", "writer-pw"));
  EXPECT_TRUE(report.privileged);
  std::string text = RenderAccessReportText(report);
  struct Expected {
    const char* code;
    Severity severity;
  };
  for (const Expected& e :
       {Expected{"member_of_pg_read_server_files", Severity::kHigh}, Expected{"owner", Severity::kHigh},
        Expected{"grant_insert", Severity::kHigh}, Expected{"grant_update", Severity::kHigh},
        Expected{"grant_delete", Severity::kHigh}, Expected{"grant_truncate", Severity::kHigh},
        Expected{"grant_trigger", Severity::kHigh}, Expected{"grant_references", Severity::kMedium},
        Expected{"createdb", Severity::kMedium}, Expected{"member_of_pg_signal_backend", Severity::kMedium},
        Expected{"grant_sequence_update", Severity::kMedium}, Expected{"schema_create", Severity::kMedium}}) {
    const AccessFinding* f = Find(report, e.code);
    ASSERT_NE(f, nullptr) << e.code << " missing from\n" << text;
    EXPECT_EQ(f->severity, e.severity) << e.code;
  }
  EXPECT_EQ(Find(report, "grant_insert")->objects, std::vector<std::string>{"\"public\".plant"});
  EXPECT_EQ(Find(report, "owner")->objects, std::vector<std::string>{"\"public\".writers_own"});
  EXPECT_EQ(Find(report, "superuser"), nullptr);
  // Rights of a role it can switch to but does not inherit are not counted; the report says so.
  ASSERT_NO_FATAL_FAILURE(Admin(url_,
                                "CREATE ROLE switcher LOGIN PASSWORD 'switcher-pw' NOINHERIT; "
                                "CREATE ROLE app_owner NOLOGIN; GRANT app_owner TO switcher;"));
  AccessReport switcher = Check(AsUser(url_, "switcher", "switcher-pw"));
  const AccessFinding* set_role = Find(switcher, "set_role");
  ASSERT_NE(set_role, nullptr) << RenderAccessReportText(switcher);
  EXPECT_EQ(set_role->severity, Severity::kMedium);
  EXPECT_EQ(set_role->objects, std::vector<std::string>{"app_owner"});
  // Most severe first.
  EXPECT_TRUE(std::is_sorted(report.findings.begin(), report.findings.end(),
                             [](const AccessFinding& a, const AccessFinding& b) { return a.severity < b.severity; }));
}

TEST_F(AccessCheckPgPrivate, TheGeneratedReaderRoleIsNotPrivilegedAndReadsEverything) {
  AccessCheckOptions options;
  options.reader_role = "plainsql_reader";
  AccessReport as_superuser = Check(url_, options);
  ASSERT_FALSE(as_superuser.reader_sql.empty());
  // The SQL is written for psql's -v reader_password=...; libpq gets the password in its place.
  std::string sql = ReplaceAll(as_superuser.reader_sql, ":'reader_password'", "'reader-pw'");
  ASSERT_NO_FATAL_FAILURE(Admin(url_, sql));
  // Created after the grants: the default privileges cover it.
  ASSERT_NO_FATAL_FAILURE(Admin(url_, "CREATE TABLE sales.later (id integer)"));

  std::string reader_url = AsUser(url_, "plainsql_reader", "reader-pw");
  AccessReport report = Check(reader_url);
  EXPECT_EQ(report.role, "plainsql_reader");
  EXPECT_FALSE(report.privileged) << RenderAccessReportText(report);
  EXPECT_EQ(Codes(report, Severity::kInfo), std::vector<std::string>{}) << RenderAccessReportText(report);

  auto conn = Connect(reader_url);
  ASSERT_TRUE(conn.ok()) << conn.error().message;
  for (const char* q : {"SELECT count(*) FROM hidden_salary", "SELECT count(*) FROM sales.later"}) {
    auto rs = (*conn)->Query(q, Limits{});
    EXPECT_TRUE(rs.ok()) << q << ": " << rs.error().message;
  }
  auto setting = (*conn)->QueryInternal("SELECT current_setting('default_transaction_read_only')", Limits{});
  ASSERT_TRUE(setting.ok()) << setting.error().message;
  EXPECT_EQ(setting->rows[0][0].ToString(), "on");
}

}  // namespace
}  // namespace plainsql::exec
