// Least-privilege advice: what the connected role (PostgreSQL) or the process user (SQLite) can do beyond reading the
// schema plainsql introspects, and how to connect with less. plainsql's guard refuses writes whatever the role may
// do; this report is about the second wall, the database's own permissions, which hold even if the guard has a hole.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "exec/connection.h"

namespace plainsql::exec {

/// How much a finding matters. kHigh: the role can change data or schema, reach the server's files or programs, or
/// act as another role; such a role is "privileged". kMedium: it can read or affect more than the introspected
/// schema. kInfo: worth knowing, no risk by itself.
enum class Severity { kHigh, kMedium, kInfo };

/// "high", "medium" or "info".
std::string_view SeverityName(Severity severity);

/// One thing the role can do beyond reading the schema.
struct AccessFinding {
  Severity severity = Severity::kInfo;
  std::string code;                  // stable identifier for scripts: "superuser", "write_grant", "file_writable", ...
  std::string text;                  // one line: what the role can do
  std::string why;                   // why it matters
  std::vector<std::string> objects;  // the relations, schemas or roles it concerns (may be empty)
};

/// A schema the reader role needs, with the roles owning its relations (for ALTER DEFAULT PRIVILEGES FOR ROLE).
struct ReaderSchema {
  std::string name;
  std::vector<std::string> owners;
};

struct AccessReport {
  Engine engine = Engine::kSqlite;
  std::string database;  // Connection::identity(): "sqlite:/abs/path" or "postgresql://user@host:port/db" (no password)
  std::string database_name;            // PostgreSQL: the database (for GRANT CONNECT); SQLite: the file's stem
  std::string role;                     // PostgreSQL: current_user; SQLite: the process user
  std::vector<AccessFinding> findings;  // most severe first
  bool privileged = false;              // any kHigh finding
  /// PostgreSQL: the user schemas (among those plainsql introspects) that hold relations.
  std::vector<ReaderSchema> schemas;
  /// PostgreSQL: the role name MinimalReaderRoleSql was asked for, and its SQL.
  std::string reader_role;
  std::string reader_sql;
  /// SQLite: what to do instead of a reader role (shell commands and notes).
  std::vector<std::string> advice;
};

struct AccessCheckOptions {
  std::string reader_role = "plainsql_reader";  // the role the minimal-role SQL creates
};

/// Reports what the connection's role can do beyond reading the introspected schema (PostgreSQL: the schemas in the
/// connection's ExecSettings, else every user schema), with the SQL for a minimal reader role; on SQLite, whether the
/// file and its directory are writable by this process and whether it runs as root. Reads the catalog only, through
/// Connection::QueryInternal.
Result<AccessReport> CheckRoleAccess(Connection& conn, const AccessCheckOptions& options = {});

/// True when the report has a high-severity finding (what `plainsql ask` warns about).
bool IsPrivileged(const AccessReport& report);

/// The warning `plainsql ask` prints when the connection's role is privileged, once per connection identity in this
/// process (later calls for the same database and role return nothing); nothing for a role that only reads, or when
/// the check itself cannot run.
std::optional<std::string> PrivilegeWarningOnce(Connection& conn);

/// PostgreSQL statements that create a login role able to read `schemas` of `database` and nothing else: CONNECT,
/// USAGE, SELECT on every table and view, the same on relations created later by the schemas' owners, and a read-only
/// default with a statement timeout. The password is a placeholder to replace. Identifiers are quoted.
std::string MinimalReaderRoleSql(std::string_view database, const std::vector<ReaderSchema>& schemas,
                                 std::string_view role_name);

/// The report for a terminal: the findings, then the reader-role SQL (PostgreSQL) or the advice (SQLite).
std::string RenderAccessReportText(const AccessReport& report);

/// The report as one JSON object (engine, database, role, privileged, findings, schemas, reader_role, reader_sql,
/// advice), with a trailing newline.
std::string RenderAccessReportJson(const AccessReport& report);

}  // namespace plainsql::exec
