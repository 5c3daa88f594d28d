// Least-privilege advice on SQLite (file permissions of this process) and the reader-role SQL for PostgreSQL, which
// needs no server to write. The PostgreSQL checks themselves are in tests/pg/access_check_pg_test.cpp.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "exec/access_check.h"
#include "exec/connection.h"
#include "test_util.h"

namespace plainsql::exec {
namespace {

const AccessFinding* Find(const AccessReport& report, const std::string& code) {
  auto it = std::find_if(report.findings.begin(), report.findings.end(),
                         [&](const AccessFinding& f) { return f.code == code; });
  return it == report.findings.end() ? nullptr : &*it;
}

AccessReport Check(const std::string& path) {
  auto conn = Connect(path);
  EXPECT_TRUE(conn.ok()) << conn.error().message;
  if (!conn.ok()) return {};
  auto report = CheckRoleAccess(**conn);
  EXPECT_TRUE(report.ok()) << report.error().message;
  return report.ok() ? *report : AccessReport{};
}

TEST(AccessCheckSqlite, ReportsAWritableFileAndDirectory) {
  test::TempDir dir;
  std::string path = dir.File("plant.db");
  test::MakeSqliteDb(path, "CREATE TABLE plant (id INTEGER PRIMARY KEY, name TEXT);");
  AccessReport report = Check(path);
  EXPECT_EQ(report.engine, Engine::kSqlite);
  EXPECT_EQ(report.database_name, "plant");
  EXPECT_FALSE(report.role.empty());

  const AccessFinding* file = Find(report, "file_writable");
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->severity, Severity::kMedium);
  ASSERT_EQ(file->objects.size(), 1u);
  EXPECT_NE(file->objects[0].find("plant.db"), std::string::npos);
  EXPECT_EQ(Find(report, "file_read_only"), nullptr);
  ASSERT_NE(Find(report, "directory_writable"), nullptr);
  EXPECT_EQ(Find(report, "root") != nullptr, geteuid() == 0);

  // plainsql opens SQLite read-only whatever the file allows: nothing here makes the connection privileged.
  EXPECT_FALSE(report.privileged);
  EXPECT_FALSE(IsPrivileged(report));
  EXPECT_TRUE(report.reader_sql.empty());
  bool chmod_advice = std::any_of(report.advice.begin(), report.advice.end(), [](const std::string& a) {
    return a.find("chmod a-w '") != std::string::npos && a.find("plant.db'") != std::string::npos;
  });
  EXPECT_TRUE(chmod_advice);
}

// A file without write permission, and a directory the process may not write, as an ordinary user. root passes
// access(2)'s permission checks, so under root the check runs in a child process that drops to user nobody.
TEST(AccessCheckSqlite, ReportsAReadOnlyFile) {
  test::TempDir dir;
  std::string path = dir.File("ro.db");
  test::MakeSqliteDb(path, "CREATE TABLE t (x INTEGER);");
  ASSERT_EQ(chmod(path.c_str(), 0444), 0);
  ASSERT_EQ(chmod(dir.path().c_str(), 0555), 0);
  auto check = [&]() {
    auto conn = Connect(path);
    if (!conn.ok()) return 10;
    auto report = CheckRoleAccess(**conn);
    if (!report.ok()) return 11;
    if (Find(*report, "file_writable") || Find(*report, "directory_writable") || Find(*report, "root")) return 12;
    const AccessFinding* ro = Find(*report, "file_read_only");
    if (!ro || ro->severity != Severity::kInfo) return 13;
    bool chmod_advice = std::any_of(report->advice.begin(), report->advice.end(),
                                    [](const std::string& a) { return a.find("chmod") != std::string::npos; });
    return chmod_advice ? 14 : 0;  // nothing to make read-only
  };
  int code = 0;
  if (geteuid() != 0) {
    code = check();
  } else {
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      constexpr uid_t kNobody = 65534;  // nobody / nogroup on Debian
      if (setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(20);
      _exit(check());
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    code = WEXITSTATUS(status);
  }
  // 10: no connection, 11: no report, 12: a writable or root finding, 13: no read-only finding, 14: chmod advice,
  // 20: could not drop root.
  EXPECT_EQ(code, 0);
  chmod(dir.path().c_str(), 0700);  // so that TempDir can remove it
}

TEST(AccessCheckSqlite, AdvisesLeavingWalModeBeforeMakingTheFileReadOnly) {
  test::TempDir dir;
  std::string path = dir.File("wal.db");
  test::MakeSqliteDb(path, "PRAGMA journal_mode=WAL; CREATE TABLE t (x INTEGER);");
  AccessReport report = Check(path);
  bool wal = std::any_of(report.advice.begin(), report.advice.end(),
                         [](const std::string& a) { return a.find("journal_mode=DELETE") != std::string::npos; });
  EXPECT_TRUE(wal);
}

TEST(AccessCheckSqlite, RendersTextAndJson) {
  test::TempDir dir;
  std::string path = dir.File("r.db");
  test::MakeSqliteDb(path, "CREATE TABLE t (x INTEGER);");
  AccessReport report = Check(path);
  std::string text = RenderAccessReportText(report);
  EXPECT_NE(text.find("not privileged"), std::string::npos) << text;
  EXPECT_NE(text.find("medium "), std::string::npos) << text;
  EXPECT_NE(text.find("Advice:"), std::string::npos) << text;

  auto j = nlohmann::json::parse(RenderAccessReportJson(report));
  EXPECT_EQ(j["engine"], "sqlite");
  EXPECT_EQ(j["privileged"], false);
  ASSERT_TRUE(j["findings"].is_array());
  bool writable = false;
  for (const auto& f : j["findings"]) {
    EXPECT_TRUE(f.contains("severity") && f.contains("text") && f.contains("why") && f.contains("objects"));
    if (f["code"] == "file_writable") writable = f["severity"] == "medium";
  }
  EXPECT_TRUE(writable);
  EXPECT_TRUE(j["advice"].is_array());
}

TEST(AccessCheck, RefusesAnEmptyRoleName) {
  test::TempDir dir;
  std::string path = dir.File("e.db");
  test::MakeSqliteDb(path, "CREATE TABLE t (x INTEGER);");
  auto conn = Connect(path);
  ASSERT_TRUE(conn.ok()) << conn.error().message;
  AccessCheckOptions options;
  options.reader_role = "";
  auto report = CheckRoleAccess(**conn, options);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.error().code, ErrorCode::kInvalidArgument);
}

TEST(AccessCheck, PrivilegedMeansAHighFinding) {
  AccessReport report;
  EXPECT_FALSE(IsPrivileged(report));
  report.findings.push_back({Severity::kMedium, "createdb", "t", "w", {}});
  report.findings.push_back({Severity::kInfo, "unreadable", "t", "w", {}});
  EXPECT_FALSE(IsPrivileged(report));
  report.findings.push_back({Severity::kHigh, "superuser", "t", "w", {}});
  EXPECT_TRUE(IsPrivileged(report));
  EXPECT_EQ(SeverityName(Severity::kHigh), "high");
}

TEST(AccessCheck, ReaderRoleSqlQuotesEveryName) {
  std::string sql =
      MinimalReaderRoleSql("my-db", {{"public", {"postgres"}}, {"Sales \"EU\"", {"app", "Owner"}}}, "Reader");
  EXPECT_NE(sql.find("CREATE ROLE \"Reader\" LOGIN PASSWORD :'reader_password'"), std::string::npos) << sql;
  EXPECT_NE(sql.find("GRANT CONNECT ON DATABASE \"my-db\" TO \"Reader\";"), std::string::npos) << sql;
  EXPECT_NE(sql.find("GRANT USAGE ON SCHEMA \"public\" TO \"Reader\";"), std::string::npos) << sql;
  EXPECT_NE(sql.find("GRANT SELECT ON ALL TABLES IN SCHEMA \"public\" TO \"Reader\";"), std::string::npos) << sql;
  EXPECT_NE(sql.find("GRANT USAGE ON SCHEMA \"Sales \"\"EU\"\"\" TO \"Reader\";"), std::string::npos) << sql;
  EXPECT_NE(sql.find("ALTER DEFAULT PRIVILEGES FOR ROLE app, \"Owner\" IN SCHEMA \"Sales \"\"EU\"\"\" GRANT SELECT "
                     "ON TABLES TO \"Reader\";"),
            std::string::npos)
      << sql;
  EXPECT_NE(sql.find("ALTER ROLE \"Reader\" SET default_transaction_read_only = on;"), std::string::npos) << sql;
  EXPECT_NE(sql.find("ALTER ROLE \"Reader\" SET statement_timeout = '30s';"), std::string::npos) << sql;
  // Nothing that grants more than reading.
  for (const char* word : {"INSERT", "UPDATE", "DELETE", "CREATE ON", " SUPERUSER", "ALL PRIVILEGES"}) {
    EXPECT_EQ(sql.find(word), std::string::npos) << word << " in\n" << sql;
  }
}

}  // namespace
}  // namespace plainsql::exec
