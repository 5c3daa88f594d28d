// Least-privilege advice (see access_check.h). PostgreSQL: five catalog queries (the role's attributes, its
// memberships in the predefined roles that reach beyond one database, its privileges on every relation, schema and
// the database), turned into findings and the SQL for a reader role. SQLite: file permissions of this process.
#include "exec/access_check.h"

#include <fmt/format.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "common/strings.h"
#include "sql/dialect.h"

namespace plainsql::exec {

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kHigh: return "high";
    case Severity::kMedium: return "medium";
    case Severity::kInfo: return "info";
  }
  return "info";
}

bool IsPrivileged(const AccessReport& report) {
  return std::any_of(report.findings.begin(), report.findings.end(),
                     [](const AccessFinding& f) { return f.severity == Severity::kHigh; });
}

namespace {

// Catalog queries read small tables, but a database can hold very many relations: a generous row cap (the report
// says when it was reached).
Limits CatalogLimits() {
  Limits limits;
  limits.timeout = std::chrono::milliseconds(30'000);
  limits.max_rows = 1'000'000;
  return limits;
}

// PostgreSQL booleans arrive as integers 0/1 (see value.h); text is accepted too, for safety.
bool Truthy(const Value& v) {
  if (v.type() == ValueType::kInteger) return v.as_integer() != 0;
  if (v.type() == ValueType::kText) return v.as_text() == "t" || v.as_text() == "true";
  return false;
}

// Relations listed in a finding's text: a few names, the rest in `objects` (JSON) only.
constexpr size_t kNamesInText = 5;

std::string NameList(const std::vector<std::string>& names) {
  std::vector<std::string> shown(names.begin(),
                                 names.begin() + static_cast<long>(std::min(names.size(), kNamesInText)));
  std::string out = Join(shown, ", ");
  if (names.size() > shown.size()) out += fmt::format(" and {} more", names.size() - shown.size());
  return out;
}

// `text` in lines of at most `width` columns (longer words stay whole), each indented by `indent` spaces.
std::string Wrap(const std::string& text, size_t indent, size_t width) {
  std::string out, line;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
      out += std::string(indent, ' ') + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  if (!line.empty()) out += std::string(indent, ' ') + line + "\n";
  return out;
}

std::string Plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL

// Schemas that are PostgreSQL's own, never user data (the same filter as catalog introspection).
constexpr const char* kUserSchemaFilter =
    "n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%' "
    "AND n.nspname NOT LIKE 'pg\\_temp\\_%'";

std::string QualifiedName(const std::string& schema, const std::string& name) {
  return sql::QuoteIdentifier(sql::Postgres(), schema) + "." + sql::QuoteIdentifier(sql::Postgres(), name);
}

// The role attributes that reach beyond reading, in the order reported.
struct RoleAttribute {
  int column;  // in the role query's result
  const char* code;
  Severity severity;
  const char* text;
  const char* why;
};
constexpr RoleAttribute kRoleAttributes[] = {
    {2, "createrole", Severity::kHigh, "can create, alter and drop roles (CREATEROLE)",
     "It can create roles with more rights than its own and, before PostgreSQL 16, make itself a member of any "
     "non-superuser role, pg_execute_server_program included."},
    {5, "replication", Severity::kHigh, "may start replication connections (REPLICATION)",
     "A replication connection copies the whole cluster, every database in it, wherever pg_hba.conf allows it."},
    {3, "createdb", Severity::kMedium, "can create databases (CREATEDB)",
     "It can create databases it owns and fill the server's disk; reading needs none of that."},
    {4, "bypassrls", Severity::kMedium, "bypasses row-level security (BYPASSRLS)",
     "Rows that row-level security policies hide from other roles are visible to it."},
};

// Predefined roles whose members reach beyond one database's tables. Roles missing from the server's version (e.g.
// pg_read_all_data before 14) are simply not found: the query joins pg_roles.
struct PredefinedRole {
  const char* name;
  Severity severity;
  const char* text;
  const char* why;
};
constexpr PredefinedRole kPredefinedRoles[] = {
    {"pg_execute_server_program", Severity::kHigh, "runs programs on the server (COPY ... PROGRAM)",
     "Programs run as the operating-system user of the database server, with access to every database's files."},
    {"pg_read_server_files", Severity::kHigh, "reads any file the server can read (COPY FROM a file, pg_read_file)",
     "Server files hold configuration, keys and other databases' data."},
    {"pg_write_server_files", Severity::kHigh, "writes any file the server can write (COPY TO a file)",
     "Writing the server's files can change its configuration or corrupt any database of the cluster."},
    {"pg_write_all_data", Severity::kHigh, "writes every table, view and sequence of the database",
     "Only plainsql's guard stands between a generated query and changed data."},
    {"pg_read_all_data", Severity::kMedium, "reads every table, view and sequence of the database",
     "It reads beyond the schemas plainsql introspects, whatever their grants say."},
    {"pg_signal_backend", Severity::kMedium, "cancels and terminates other sessions (pg_terminate_backend)",
     "Other users' queries and connections can be stopped."},
    {"pg_monitor", Severity::kMedium, "reads monitoring views and every setting",
     "Other sessions' query text, server paths and configuration become visible."},
    {"pg_read_all_settings", Severity::kMedium, "reads every configuration setting",
     "Settings hidden from ordinary roles include server file paths and library settings."},
    {"pg_read_all_stats", Severity::kMedium, "reads every statistics view",
     "pg_stat_activity and pg_stat_statements show other sessions' query text, which may hold data or secrets."},
};

// One relation of a user schema and what the connected role may do with it.
struct RelationRights {
  std::string schema, name, owner;
  char kind = 'r';  // pg_class.relkind
  bool owned = false, select = false, sequence_update = false;
  bool table[6] = {};  // kTablePrivileges, in order
};

// Table privileges beyond SELECT, with the severity of holding each on any relation.
struct TablePrivilege {
  const char* name;
  Severity severity;
  const char* why;
};
constexpr TablePrivilege kTablePrivileges[] = {
    {"INSERT", Severity::kHigh, "Only plainsql's guard stands between a generated query and new rows."},
    {"UPDATE", Severity::kHigh, "Only plainsql's guard stands between a generated query and changed rows."},
    {"DELETE", Severity::kHigh, "Only plainsql's guard stands between a generated query and deleted rows."},
    {"TRUNCATE", Severity::kHigh, "Only plainsql's guard stands between a generated query and emptied tables."},
    {"TRIGGER", Severity::kHigh,
     "It can create triggers on these tables: code that runs whenever another role writes them."},
    {"REFERENCES", Severity::kMedium,
     "It can add foreign keys that reference these tables (on tables it may alter), blocking their updates and "
     "deletes."},
};

std::string RelationsSql() {
  // Sequences carry no table privileges; their UPDATE (setval, nextval) is read separately. CASE keeps each
  // privilege function to the relation kinds it applies to.
  std::string sql =
      "SELECT n.nspname, c.relname, c.relkind::text, pg_get_userbyid(c.relowner), pg_has_role(c.relowner, 'MEMBER'), "
      "CASE WHEN c.relkind = 'S' THEN has_sequence_privilege(c.oid, 'SELECT') "
      "ELSE has_table_privilege(c.oid, 'SELECT') END, "
      "CASE WHEN c.relkind = 'S' THEN has_sequence_privilege(c.oid, 'UPDATE') ELSE false END";
  for (const auto& p : kTablePrivileges) {
    sql += fmt::format(", CASE WHEN c.relkind = 'S' THEN false ELSE has_table_privilege(c.oid, '{}') END", p.name);
  }
  sql += fmt::format(
      " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
      "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S') AND {} ORDER BY n.nspname, c.relname",
      kUserSchemaFilter);
  return sql;
}

// The schemas the guard lets queries read: the connection's list, or every user schema when it is empty.
bool SchemaInScope(const Connection& conn, const std::string& schema) {
  const auto& schemas = conn.GetExecSettings().access.schemas;
  return schemas.empty() || std::find(schemas.begin(), schemas.end(), schema) != schemas.end();
}

Result<std::vector<RelationRights>> ReadRelations(Connection& conn, AccessReport& report) {
  auto rs = conn.QueryInternal(RelationsSql(), CatalogLimits());
  if (!rs) return rs.error();
  if (rs->truncated) {
    report.findings.push_back({Severity::kInfo,
                               "truncated",
                               fmt::format("only the first {} relations were checked", rs->rows.size()),
                               "The database holds more relations than one catalog query returns.",
                               {}});
  }
  std::vector<RelationRights> out;
  for (const auto& row : rs->rows) {
    RelationRights r;
    r.schema = row[0].ToStringOrEmpty();
    if (!SchemaInScope(conn, r.schema)) continue;
    r.name = row[1].ToStringOrEmpty();
    std::string kind = row[2].ToStringOrEmpty();
    r.kind = kind.empty() ? 'r' : kind[0];
    r.owner = row[3].ToStringOrEmpty();
    r.owned = Truthy(row[4]);
    r.select = Truthy(row[5]);
    r.sequence_update = Truthy(row[6]);
    for (size_t i = 0; i < std::size(kTablePrivileges); ++i) r.table[i] = Truthy(row[7 + i]);
    out.push_back(std::move(r));
  }
  return out;
}

// The role itself: returns whether it is a superuser (then every other check is moot and skipped).
Result<bool> AddRoleFindings(Connection& conn, AccessReport& report) {
  auto rs = conn.QueryInternal(
      "SELECT r.rolname, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolbypassrls, r.rolreplication, "
      "current_database() FROM pg_roles r WHERE r.rolname = current_user",
      CatalogLimits());
  if (!rs) return rs.error();
  if (rs->rows.empty()) return MakeError(ErrorCode::kInternal, "the connected role is missing from pg_roles");
  const Row& row = rs->rows[0];
  report.role = row[0].ToStringOrEmpty();
  report.database_name = row[6].ToStringOrEmpty();
  if (Truthy(row[1])) {
    report.findings.push_back(
        {Severity::kHigh,
         "superuser",
         fmt::format("role {} is a superuser", report.role),
         "A superuser passes every permission check: it reads and writes every table, reads and writes server files, "
         "runs programs on the server and changes any role. Connect plainsql as a reader role instead.",
         {}});
    return true;
  }
  for (const auto& a : kRoleAttributes) {
    if (Truthy(row[a.column])) report.findings.push_back({a.severity, a.code, a.text, a.why, {}});
  }
  return false;
}

Status AddMembershipFindings(Connection& conn, AccessReport& report) {
  std::vector<std::string> names;
  for (const auto& p : kPredefinedRoles) names.push_back(sql::QuoteString(p.name));
  auto rs = conn.QueryInternal(fmt::format("SELECT r.rolname FROM pg_roles r WHERE r.rolname IN ({}) "
                                           "AND pg_has_role(r.oid, 'MEMBER')",
                                           Join(names, ", ")),
                               CatalogLimits());
  if (!rs) return rs.error();
  std::set<std::string> member;
  for (const auto& row : rs->rows) member.insert(row[0].ToStringOrEmpty());
  for (const auto& p : kPredefinedRoles) {
    if (!member.count(p.name)) continue;
    report.findings.push_back({p.severity,
                               "member_of_" + std::string(p.name),
                               fmt::format("member of {}: {}", p.name, p.text),
                               p.why,
                               {p.name}});
  }
  // The privilege functions above count the rights a role inherits, not those of roles it can only SET ROLE to.
  auto set_role = conn.QueryInternal(
      "SELECT r.rolname FROM pg_roles r WHERE r.rolname <> current_user AND r.rolname NOT LIKE 'pg\\_%' "
      "AND pg_has_role(r.oid, 'MEMBER') AND NOT pg_has_role(r.oid, 'USAGE') ORDER BY r.rolname",
      CatalogLimits());
  if (!set_role) return set_role.error();
  std::vector<std::string> roles;
  for (const auto& row : set_role->rows)
    roles.push_back(sql::QuoteIdentifier(sql::Postgres(), row[0].ToStringOrEmpty()));
  if (!roles.empty()) {
    report.findings.push_back(
        {Severity::kMedium, "set_role",
         fmt::format("can SET ROLE to {}: {}", Plural(roles.size(), "role", "roles"), NameList(roles)),
         "Their rights are not inherited, so this report does not count them: run check-access as each of them too.",
         roles});
  }
  return Status::Ok();
}

void AddRelationFindings(const std::vector<RelationRights>& relations, AccessReport& report) {
  std::vector<std::string> by_privilege[std::size(kTablePrivileges)];
  std::vector<std::string> owned, sequences, unreadable;
  size_t readable_kinds = 0;
  for (const auto& r : relations) {
    std::string name = QualifiedName(r.schema, r.name);
    if (r.owned) owned.push_back(name);
    if (r.kind == 'S') {
      if (r.sequence_update && !r.owned) sequences.push_back(name);
      continue;
    }
    ++readable_kinds;
    if (!r.select) unreadable.push_back(name);
    if (r.owned) continue;  // an owner holds every privilege: the ownership finding says it once
    for (size_t i = 0; i < std::size(kTablePrivileges); ++i) {
      if (r.table[i]) by_privilege[i].push_back(name);
    }
  }
  if (!owned.empty()) {
    report.findings.push_back(
        {Severity::kHigh, "owner",
         fmt::format("owns (or is a member of the owner of) {}: {}", Plural(owned.size(), "relation", "relations"),
                     NameList(owned)),
         "An owner can ALTER, DROP and TRUNCATE its relations and grant any privilege on them, whatever the grants "
         "say.",
         owned});
  }
  for (size_t i = 0; i < std::size(kTablePrivileges); ++i) {
    const auto& names = by_privilege[i];
    if (names.empty()) continue;
    const auto& p = kTablePrivileges[i];
    report.findings.push_back(
        {p.severity, "grant_" + ToLower(p.name),
         fmt::format("{} on {}: {}", p.name, Plural(names.size(), "relation", "relations"), NameList(names)), p.why,
         names});
  }
  if (!sequences.empty()) {
    report.findings.push_back(
        {Severity::kMedium, "grant_sequence_update",
         fmt::format("UPDATE on {}: {}", Plural(sequences.size(), "sequence", "sequences"), NameList(sequences)),
         "It can advance or reset them (nextval, setval), breaking the inserts of applications that use them.",
         sequences});
  }
  if (!unreadable.empty()) {
    report.findings.push_back(
        {Severity::kInfo, "unreadable",
         fmt::format("cannot read {} of {}: {}", unreadable.size(), Plural(readable_kinds, "relation", "relations"),
                     NameList(unreadable)),
         "plainsql sees them in the catalog, but queries on them fail with permission denied: grant SELECT on them "
         "or narrow [exec] schemas in plainsql.toml.",
         unreadable});
  }
}

// The schemas the reader role needs: those holding relations, with their relations' owners.
std::vector<ReaderSchema> SchemasWithRelations(const std::vector<RelationRights>& relations) {
  std::map<std::string, std::set<std::string>> owners;
  for (const auto& r : relations) {
    if (r.kind != 'S') owners[r.schema].insert(r.owner);
  }
  std::vector<ReaderSchema> out;
  out.reserve(owners.size());
  for (const auto& [schema, roles] : owners) out.push_back({schema, {roles.begin(), roles.end()}});
  return out;
}

Status AddSchemaFindings(Connection& conn, AccessReport& report) {
  auto rs = conn.QueryInternal(
      fmt::format("SELECT n.nspname, has_schema_privilege(n.oid, 'CREATE'), pg_has_role(n.nspowner, 'MEMBER') "
                  "FROM pg_namespace n WHERE {} ORDER BY n.nspname",
                  kUserSchemaFilter),
      CatalogLimits());
  if (!rs) return rs.error();
  std::vector<std::string> create, owned;
  for (const auto& row : rs->rows) {
    std::string schema = row[0].ToStringOrEmpty();
    if (!SchemaInScope(conn, schema)) continue;
    std::string quoted = sql::QuoteIdentifier(sql::Postgres(), schema);
    if (Truthy(row[2])) {
      owned.push_back(quoted);
    } else if (Truthy(row[1])) {
      create.push_back(quoted);  // an owner's CREATE goes without saying
    }
  }
  if (!owned.empty()) {
    report.findings.push_back({Severity::kHigh, "schema_owner",
                               fmt::format("owns (or is a member of the owner of) {}: {}",
                                           Plural(owned.size(), "schema", "schemas"), NameList(owned)),
                               "A schema's owner can drop and rename everything in it and create objects there.",
                               owned});
  }
  if (!create.empty()) {
    report.findings.push_back(
        {Severity::kMedium, "schema_create",
         fmt::format("may create objects in {}: {}", Plural(create.size(), "schema", "schemas"), NameList(create)),
         "It can create tables, views and functions there; a function named like a built-in, in a schema on other "
         "roles' search_path, runs with their rights when they call it. PostgreSQL before 15 grants CREATE on "
         "public to every role: REVOKE CREATE ON SCHEMA public FROM PUBLIC.",
         create});
  }
  return Status::Ok();
}

Status AddDatabaseFindings(Connection& conn, AccessReport& report) {
  auto rs = conn.QueryInternal(
      "SELECT has_database_privilege(d.oid, 'CREATE'), pg_has_role(d.datdba, 'MEMBER') FROM pg_database d "
      "WHERE d.datname = current_database()",
      CatalogLimits());
  if (!rs) return rs.error();
  if (rs->rows.empty()) return Status::Ok();
  std::string db = sql::QuoteIdentifier(sql::Postgres(), report.database_name);
  if (Truthy(rs->rows[0][1])) {
    report.findings.push_back({Severity::kHigh,
                               "database_owner",
                               fmt::format("owns (or is a member of the owner of) database {}", db),
                               "The owner can drop the database, change its settings and create schemas in it.",
                               {report.database_name}});
  } else if (Truthy(rs->rows[0][0])) {
    report.findings.push_back({Severity::kMedium,
                               "database_create",
                               fmt::format("may create schemas in database {}", db),
                               "It can create schemas and objects in them; reading needs none of that.",
                               {report.database_name}});
  }
  return Status::Ok();
}

Result<AccessReport> CheckPostgres(Connection& conn, const AccessCheckOptions& options) {
  AccessReport report;
  report.engine = Engine::kPostgres;
  report.database = conn.identity();
  auto superuser = AddRoleFindings(conn, report);
  if (!superuser) return superuser.error();
  auto relations = ReadRelations(conn, report);
  if (!relations) return relations.error();
  if (!*superuser) {
    if (Status s = AddMembershipFindings(conn, report); !s) return s.error();
    AddRelationFindings(*relations, report);
    if (Status s = AddSchemaFindings(conn, report); !s) return s.error();
    if (Status s = AddDatabaseFindings(conn, report); !s) return s.error();
  }
  report.schemas = SchemasWithRelations(*relations);
  report.reader_role = options.reader_role;
  report.reader_sql = MinimalReaderRoleSql(report.database_name, report.schemas, options.reader_role);
  return report;
}

// ---------------------------------------------------------------------------------------------------------------
// SQLite

// A path in single quotes for a POSIX shell.
std::string ShellQuote(const std::string& s) { return "'" + ReplaceAll(s, "'", "'\\''") + "'"; }

std::string ProcessUser() {
  uid_t uid = geteuid();
  if (const passwd* pw = getpwuid(uid)) return pw->pw_name;
  return fmt::format("uid {}", uid);
}

// Header bytes 18 and 19 (file format write and read versions) are 2 in WAL mode. A WAL database whose file and
// directory are read-only opens only while its -wal and -shm files exist (SQLite's wal.html, "Read-Only Databases").
bool UsesWal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char header[20] = {};
  if (!in.read(header, sizeof header)) return false;
  return header[18] == 2 && header[19] == 2;
}

// access(2) W_OK: whether this process may write `path`, and whether a failure is a read-only file system.
struct Writable {
  bool writable = false;
  bool read_only_fs = false;
};
Writable CheckWritable(const std::string& path) {
  if (access(path.c_str(), W_OK) == 0) return {true, false};
  return {false, errno == EROFS};
}

void AddSqliteAdvice(const std::string& path, bool writable, bool root, AccessReport& report) {
  std::filesystem::path p(path);
  std::string dir = p.parent_path().string();
  if (root) report.advice.emplace_back("run plainsql as an ordinary user: root passes every permission check");
  if (writable) {
    std::string copy = (p.parent_path() / (p.stem().string() + "-readonly" + p.extension().string())).string();
    report.advice.push_back(fmt::format("make the file read-only (as its owner): chmod a-w {}", ShellQuote(path)));
    report.advice.push_back(fmt::format("or give plainsql a read-only copy: cp {} {} && chmod a-w {}", ShellQuote(path),
                                        ShellQuote(copy), ShellQuote(copy)));
    report.advice.push_back(
        fmt::format("or a read-only mount of its directory: mount --bind -o ro {} /mnt/plainsql", ShellQuote(dir)));
  }
  if (UsesWal(path)) {
    report.advice.push_back(fmt::format(
        "the database is in WAL mode, which a read-only file cannot be opened in without its -shm file: switch it "
        "first with sqlite3 {} 'PRAGMA journal_mode=DELETE'",
        ShellQuote(path)));
  }
  report.advice.emplace_back(
      "plainsql itself always opens the file read-only (SQLITE_OPEN_READONLY) with an authorizer that refuses writes");
}

Result<AccessReport> CheckSqlite(const Connection& conn) {
  AccessReport report;
  report.engine = Engine::kSqlite;
  report.database = conn.identity();
  report.database_name = conn.database_name();
  report.role = ProcessUser();
  // identity() is "sqlite:" followed by the absolute path (see sqlite_connection.cpp).
  constexpr std::string_view kPrefix = "sqlite:";
  std::string path = report.database.substr(report.database.rfind(kPrefix, 0) == 0 ? kPrefix.size() : 0);
  bool root = geteuid() == 0;
  if (root) {
    report.findings.push_back(
        {Severity::kMedium,
         "root",
         "plainsql runs as root",
         "root writes the database file whatever its permissions: only plainsql's read-only open and authorizer keep "
         "it unchanged.",
         {}});
  }
  Writable file = CheckWritable(path);
  if (file.writable) {
    report.findings.push_back({Severity::kMedium,
                               "file_writable",
                               fmt::format("the database file is writable by this process (user {})", report.role),
                               "plainsql opens it read-only, but a file the process cannot write is a second wall "
                               "should that ever fail.",
                               {path}});
  } else {
    report.findings.push_back({Severity::kInfo,
                               file.read_only_fs ? "read_only_mount" : "file_read_only",
                               file.read_only_fs ? "the database file is on a read-only file system"
                                                 : "the database file is not writable by this process",
                               "The file system is a second wall behind plainsql's read-only open.",
                               {path}});
  }
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (CheckWritable(dir).writable) {
    report.findings.push_back(
        {Severity::kMedium,
         "directory_writable",
         fmt::format("the directory holding the database is writable by this process (user {})", report.role),
         "A process that can write the directory can delete or replace the file; SQLite also creates its journal "
         "files there.",
         {dir}});
  }
  AddSqliteAdvice(path, file.writable, root, report);
  return report;
}

}  // namespace

Result<AccessReport> CheckRoleAccess(Connection& conn, const AccessCheckOptions& options) {
  if (options.reader_role.empty()) return MakeError(ErrorCode::kInvalidArgument, "the reader role name is empty");
  auto report = conn.engine() == Engine::kPostgres ? CheckPostgres(conn, options) : CheckSqlite(conn);
  if (!report) return report;
  // Most severe first; within a severity, the order the checks ran.
  std::stable_sort(report->findings.begin(), report->findings.end(),
                   [](const AccessFinding& a, const AccessFinding& b) { return a.severity < b.severity; });
  report->privileged = IsPrivileged(*report);
  return report;
}

std::string MinimalReaderRoleSql(std::string_view database, const std::vector<ReaderSchema>& schemas,
                                 std::string_view role_name) {
  const sql::Dialect& pg = sql::Postgres();
  std::string role = sql::QuoteIdentifier(pg, role_name);
  std::string out =
      "-- A login role that reads the schemas plainsql reads and nothing else. Run as a superuser (or the owner of\n"
      "-- the database and its schemas), with psql -v reader_password='...' -f FILE, or after replacing\n"
      "-- :'reader_password' with a quoted password.\n";
  out += fmt::format(
      "CREATE ROLE {} LOGIN PASSWORD :'reader_password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION "
      "NOBYPASSRLS;\n",
      role);
  out += fmt::format("GRANT CONNECT ON DATABASE {} TO {};\n", sql::QuoteIdentifier(pg, database), role);
  if (schemas.empty()) out += "-- No user schema holds relations yet: grant USAGE and SELECT once one does.\n";
  for (const auto& s : schemas) {
    std::string schema = sql::QuoteIdentifier(pg, s.name);
    out += fmt::format("GRANT USAGE ON SCHEMA {} TO {};\n", schema, role);
    out += fmt::format("GRANT SELECT ON ALL TABLES IN SCHEMA {} TO {};\n", schema, role);
    // Default privileges apply to objects created by the named roles only: the roles that own relations there now.
    std::vector<std::string> owners;
    for (const auto& o : s.owners) owners.push_back(sql::QuoteIdentifier(pg, o));
    if (!owners.empty()) {
      out += fmt::format("ALTER DEFAULT PRIVILEGES FOR ROLE {} IN SCHEMA {} GRANT SELECT ON TABLES TO {};\n",
                         Join(owners, ", "), schema, role);
    }
  }
  // Outside plainsql too, the role cannot write and its queries cannot run for ever.
  out += fmt::format("ALTER ROLE {} SET default_transaction_read_only = on;\n", role);
  out += fmt::format("ALTER ROLE {} SET statement_timeout = '30s';\n", role);
  return out;
}

std::string RenderAccessReportText(const AccessReport& report) {
  size_t counts[3] = {};
  for (const auto& f : report.findings) ++counts[static_cast<int>(f.severity)];
  std::string who = report.engine == Engine::kPostgres ? fmt::format("role {}", report.role)
                                                       : fmt::format("process user {}", report.role);
  std::string out = fmt::format("{} on {}: {} ({} high, {} medium, {} info)\n", who, report.database,
                                report.privileged ? "PRIVILEGED" : "not privileged", counts[0], counts[1], counts[2]);
  if (report.findings.empty()) out += "\nno rights beyond reading found\n";
  for (const auto& f : report.findings) {
    out += fmt::format("\n{:<7}{}\n{}", SeverityName(f.severity), f.text, Wrap(f.why, 7, 120));
  }
  if (!report.reader_sql.empty()) {
    out += fmt::format("\nA minimal reader role, {}:\n\n{}", report.reader_role, report.reader_sql);
  }
  if (!report.advice.empty()) {
    out += "\nAdvice:\n";
    for (const auto& a : report.advice) out += "  " + a + "\n";
  }
  return out;
}

std::string RenderAccessReportJson(const AccessReport& report) {
  nlohmann::ordered_json j;
  j["engine"] = report.engine == Engine::kPostgres ? "postgres" : "sqlite";
  j["database"] = report.database;
  j["role"] = report.role;
  j["privileged"] = report.privileged;
  j["findings"] = nlohmann::ordered_json::array();
  for (const auto& f : report.findings) {
    j["findings"].push_back({{"severity", SeverityName(f.severity)},
                             {"code", f.code},
                             {"text", f.text},
                             {"why", f.why},
                             {"objects", f.objects}});
  }
  j["schemas"] = nlohmann::ordered_json::array();
  for (const auto& s : report.schemas) j["schemas"].push_back({{"name", s.name}, {"owners", s.owners}});
  j["reader_role"] = report.reader_role;
  j["reader_sql"] = report.reader_sql;
  j["advice"] = report.advice;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::optional<std::string> PrivilegeWarningOnce(Connection& conn) {
  static std::mutex mutex;
  static std::set<std::string> warned;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!warned.insert(conn.identity()).second) return std::nullopt;
  }
  auto report = CheckRoleAccess(conn);
  if (!report || !report->privileged) return std::nullopt;
  std::string what = report->findings.empty() ? "more than reading" : report->findings.front().text;
  return fmt::format(
      "connected as {}, a role that can do more than read ({}); plainsql runs queries read-only behind an allowlist, "
      "but a reader role is the safer wall: run 'plainsql check-access' for the SQL that creates one",
      report->role, what);
}

}  // namespace plainsql::exec
