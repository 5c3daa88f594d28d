// Deploying and dropping natural views (see deploy.h).
#include "views/deploy.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "common/strings.h"
#include "common/version.h"

namespace plainsql::views {

namespace {

namespace fs = std::filesystem;

using Rows = std::vector<std::vector<std::string>>;

constexpr const char* kSqliteMarkedViews =
    "SELECT name FROM sqlite_schema WHERE type = 'view' AND sql LIKE '%/* plainsql natural view%' ORDER BY rowid";

// The name PostgreSQL stores for an identifier written as ViewIdentifier writes it.
std::string StoredPostgresName(std::string_view name) { return ToLower(name); }

Error Refused(const std::vector<std::string>& clashes, std::string_view where, std::string_view advice) {
  return MakeError(ErrorCode::kInvalidArgument,
                   fmt::format("{} view name{} would take the name of an existing table or view in {}: {}. Nothing was "
                               "changed. {}",
                               clashes.size(), clashes.size() == 1 ? "" : "s", where, Join(clashes, ", "), advice));
}

// Queries every view once (no rows), so that a view the database accepted but cannot run fails the deployment.
Status CheckViews(exec::WriteSession& session, const std::vector<std::string>& qualified_names) {
  for (const auto& name : qualified_names) {
    auto r = session.Rows("SELECT * FROM " + name + " LIMIT 0");
    if (!r) return MakeError(ErrorCode::kSql, fmt::format("view {} does not run: {}", name, r.error().message));
  }
  return Status::Ok();
}

Result<DeployReport> ApplySqlite(const std::string& path, const ViewPlan& plan, const catalog::Schema& schema) {
  auto session = exec::OpenWriteSession("sqlite:" + path);
  if (!session) return session.error();
  DeployReport report;
  report.where = path;
  auto ours = (*session)->Rows(kSqliteMarkedViews);
  if (!ours) return ours.error();
  std::set<std::string> our_names;
  for (const auto& r : *ours) our_names.insert(ToLower(r.at(0)));
  auto existing = (*session)->Rows("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')");
  if (!existing) return existing.error();
  std::set<std::string> taken;
  for (const auto& r : *existing) {
    if (!our_names.count(ToLower(r.at(0)))) taken.insert(ToLower(r.at(0)));
  }
  std::vector<std::string> clashes;
  std::vector<const View*> to_create;
  for (const auto& v : plan.views) {
    if (ViewIsIdentity(v, schema)) {
      report.as_is.push_back(v.name);
      continue;
    }
    if (taken.count(ToLower(v.name))) clashes.push_back(v.name);
    to_create.push_back(&v);
  }
  if (!clashes.empty()) {
    return Refused(clashes, path,
                   "SQLite keeps tables and views in one namespace; deploy into a companion database instead "
                   "(--companion FILE), or give these tables other names in the crosswalk.");
  }
  for (const auto& r : *ours) {
    if (Status s = (*session)->Execute("DROP VIEW " + sql::QuoteIdentifier(sql::Sqlite(), r.at(0))); !s) {
      return s.error();
    }
    ++report.dropped;
  }
  ViewPlan subset = plan;
  subset.views.clear();
  std::vector<std::string> names;
  for (const View* v : to_create) {
    subset.views.push_back(*v);
    names.push_back(ViewIdentifier(Target::kSqlite, v->name));
  }
  for (const auto& stmt : CreateStatements(subset, schema, Target::kSqlite)) {
    if (Status s = (*session)->Execute(stmt); !s) return s.error();
  }
  if (Status s = CheckViews(**session, names); !s) return s.error();
  if (Status s = (*session)->Commit(); !s) return s.error();
  report.created = static_cast<int>(to_create.size());
  return report;
}

// Whether the file at `path` is a plainsql companion database (or does not exist).
Result<bool> IsCompanion(const std::string& path) {
  if (!fs::exists(path)) return false;
  auto session = exec::OpenWriteSession("sqlite:" + path);
  if (!session) return session.error();
  auto r = (*session)->Rows("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'plainsql_companion'");
  if (!r) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("{} exists and is not a plainsql companion database ({}); refusing to change it", path,
                                 r.error().message));
  }
  return !r->empty();
}

Result<DeployReport> ApplyCompanion(const std::string& native_path, const std::string& companion, const ViewPlan& plan,
                                    const catalog::Schema& schema) {
  std::error_code ec;
  if (fs::exists(companion) && fs::equivalent(native_path, companion, ec)) {
    return MakeError(ErrorCode::kInvalidArgument, "the companion database must be another file than the database");
  }
  auto is_companion = IsCompanion(companion);
  if (!is_companion) return is_companion.error();
  if (fs::exists(companion) && !*is_companion) {
    return MakeError(
        ErrorCode::kInvalidArgument,
        fmt::format("{} exists and is not a plainsql companion database; refusing to change it", companion));
  }
  auto session = exec::OpenWriteSession("sqlite:" + companion, /*create=*/true);
  if (!session) return session.error();
  DeployReport report;
  report.where = companion;
  exec::WriteSession& s = **session;
  for (const char* ddl :
       {"CREATE TABLE IF NOT EXISTS plainsql_companion (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS plainsql_views (seq INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, body TEXT "
        "NOT NULL)",
        // The native keys and NOT NULL columns under the views' names (ViewKeys), a row per key column: a
        // connection shows them.
        "CREATE TABLE IF NOT EXISTS plainsql_keys (key_no INTEGER NOT NULL, position INTEGER NOT NULL, view TEXT NOT "
        "NULL, kind TEXT NOT NULL, column_name TEXT NOT NULL, ref_view TEXT NOT NULL, ref_column TEXT NOT NULL, "
        "PRIMARY KEY (key_no, position))"}) {
    if (Status st = s.Execute(ddl); !st) return st.error();
  }
  auto old = s.Rows("SELECT count(*) FROM plainsql_views");
  if (!old) return old.error();
  report.dropped = std::stoi(old->at(0).at(0));
  if (Status st = s.Execute("DELETE FROM plainsql_views; DELETE FROM plainsql_companion; DELETE FROM plainsql_keys");
      !st) {
    return st.error();
  }
  std::string level(plan.options.level == naturalness::Level::kNative ? "native"
                                                                      : naturalness::LevelCode(plan.options.level));
  fs::path abs = fs::absolute(native_path, ec);
  std::vector<std::pair<std::string, std::string>> meta = {{"native_path", ec ? native_path : abs.string()},
                                                           {"level", level},
                                                           {"extended", plan.options.extended ? "1" : "0"},
                                                           {"plainsql_version", kVersion}};
  for (const auto& [k, v] : meta) {
    if (auto r = s.Rows("INSERT INTO plainsql_companion (key, value) VALUES (?, ?) RETURNING key", {k, v}); !r) {
      return r.error();
    }
  }
  int seq = 0;
  for (const auto& v : plan.views) {
    std::string body = ViewSelect(plan, v, schema, Target::kSqliteCompanion);
    if (auto r = s.Rows("INSERT INTO plainsql_views (seq, name, body) VALUES (?, ?, ?) RETURNING seq",
                        {std::to_string(++seq), v.name, body});
        !r) {
      return r.error();
    }
  }
  int key_no = 0;
  for (const ViewKey& k : ViewKeys(plan, schema)) {
    ++key_no;
    for (size_t i = 0; i < k.columns.size(); ++i) {
      auto r = s.Rows(
          "INSERT INTO plainsql_keys (key_no, position, view, kind, column_name, ref_view, ref_column) VALUES (?, ?, "
          "?, ?, ?, ?, ?) RETURNING key_no",
          {std::to_string(key_no), std::to_string(i), k.view, std::string(ViewKeyKindName(k.kind)), k.columns[i],
           k.ref_view, k.kind == ViewKey::Kind::kForeign ? k.ref_columns[i] : ""});
      if (!r) return r.error();
    }
  }
  if (Status st = s.Commit(); !st) return st.error();
  report.created = static_cast<int>(plan.views.size());
  // Open it the way every later connection will: attaching the original and creating the views checks them all.
  auto check = exec::OpenSqlite(companion);
  if (!check) return check.error();
  for (const auto& v : plan.views) {
    auto r = (*check)->QueryInternal("SELECT * FROM " + sql::QuoteIdentifier(sql::Sqlite(), v.name) + " LIMIT 0", {});
    if (!r) return MakeError(ErrorCode::kSql, fmt::format("view {} does not run: {}", v.name, r.error().message));
  }
  return report;
}

Result<Rows> PostgresMarkedViews(exec::WriteSession& s, const std::string& ns) {
  return s.Rows(
      "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND "
      "c.relkind = 'v' AND obj_description(c.oid, 'pg_class') LIKE 'plainsql natural view%' ORDER BY c.relname",
      {StoredPostgresName(ns)});
}

}  // namespace

Result<DeployReport> ApplyViewsOn(exec::WriteSession& s, const ViewPlan& plan, const catalog::Schema& schema) {
  if (s.engine() != exec::Engine::kPostgres) {
    return MakeError(ErrorCode::kInvalidArgument, "ApplyViewsOn deploys on PostgreSQL only");
  }
  const std::string& ns = plan.options.schema_name;
  std::string qns = ViewIdentifier(Target::kPostgres, ns);
  DeployReport report;
  report.where = StoredPostgresName(ns);
  auto ours = PostgresMarkedViews(s, ns);
  if (!ours) return ours.error();
  std::set<std::string> our_names;
  for (const auto& r : *ours) our_names.insert(r.at(0));
  auto existing = s.Rows(
      "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND "
      "c.relkind IN ('r', 'v', 'm', 'f', 'p', 'S', 'i', 'c')",
      {StoredPostgresName(ns)});
  if (!existing) return existing.error();
  std::set<std::string> taken;
  for (const auto& r : *existing) {
    if (!our_names.count(r.at(0))) taken.insert(r.at(0));
  }
  std::vector<std::string> clashes;
  std::vector<std::string> names;
  for (const auto& v : plan.views) {
    if (taken.count(StoredPostgresName(v.name))) clashes.push_back(v.name);
    names.push_back(qns + "." + ViewIdentifier(Target::kPostgres, v.name));
  }
  if (!clashes.empty()) {
    return Refused(clashes, "schema " + report.where, "Choose another schema for the views (--namespace).");
  }
  for (const auto& r : *ours) {
    if (Status st = s.Execute("DROP VIEW " + qns + "." + sql::QuoteIdentifier(sql::Postgres(), r.at(0))); !st) {
      return st.error();
    }
    ++report.dropped;
  }
  auto had_schema = s.Rows("SELECT 1 FROM pg_namespace WHERE nspname = $1", {report.where});
  if (!had_schema) return had_schema.error();
  for (const auto& stmt : CreateStatements(plan, schema, Target::kPostgres)) {
    // The comment marks the schema as plainsql's (so that --drop may remove it); a schema that existed is left as is.
    if (stmt.starts_with("COMMENT ON SCHEMA") && !had_schema->empty()) continue;
    if (Status st = s.Execute(stmt); !st) return st.error();
  }
  if (Status st = CheckViews(s, names); !st) return st.error();
  report.created = static_cast<int>(plan.views.size());
  return report;
}

namespace {

Result<DeployReport> ApplyPostgres(const std::string& url, const ViewPlan& plan, const catalog::Schema& schema) {
  auto session = exec::OpenWriteSession(url);
  if (!session) return session.error();
  auto report = ApplyViewsOn(**session, plan, schema);
  if (!report) return report.error();
  if (Status st = (*session)->Commit(); !st) return st.error();
  return report;
}

}  // namespace

Result<DeployReport> ApplyViews(const std::string& conn, const ViewPlan& plan, const catalog::Schema& schema,
                                const std::string& companion) {
  auto info = exec::ParseConnectionString(conn);
  if (!info) return info.error();
  if (info->engine == exec::Engine::kPostgres) {
    if (!companion.empty()) {
      return MakeError(ErrorCode::kInvalidArgument, "a companion database is for SQLite; PostgreSQL uses a schema");
    }
    return ApplyPostgres(info->target, plan, schema);
  }
  if (!companion.empty()) return ApplyCompanion(info->target, companion, plan, schema);
  return ApplySqlite(info->target, plan, schema);
}

Result<DeployReport> DropViews(const std::string& conn, const std::string& schema_name, const std::string& companion) {
  auto info = exec::ParseConnectionString(conn);
  if (!info) return info.error();
  DeployReport report;
  if (info->engine == exec::Engine::kSqlite && !companion.empty()) {
    report.where = companion;
    auto is_companion = IsCompanion(companion);
    if (!is_companion) return is_companion.error();
    if (!fs::exists(companion)) return report;
    if (!*is_companion) {
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("{} is not a plainsql companion database; refusing to remove it", companion));
    }
    auto session = exec::OpenWriteSession("sqlite:" + companion);
    if (!session) return session.error();
    auto n = (*session)->Rows("SELECT count(*) FROM plainsql_views");
    if (n) report.dropped = std::stoi(n->at(0).at(0));
    session->reset();
    std::error_code ec;
    fs::remove(companion, ec);
    if (ec) return MakeError(ErrorCode::kIo, fmt::format("cannot remove {}: {}", companion, ec.message()));
    for (const char* suffix : {"-journal", "-wal", "-shm"}) fs::remove(companion + suffix, ec);
    return report;
  }
  auto session = exec::OpenWriteSession(conn);
  if (!session) return session.error();
  exec::WriteSession& s = **session;
  if (info->engine == exec::Engine::kSqlite) {
    report.where = info->target;
    auto ours = s.Rows(kSqliteMarkedViews);
    if (!ours) return ours.error();
    for (const auto& r : *ours) {
      if (Status st = s.Execute("DROP VIEW " + sql::QuoteIdentifier(sql::Sqlite(), r.at(0))); !st) return st.error();
      ++report.dropped;
    }
  } else {
    std::string qns = ViewIdentifier(Target::kPostgres, schema_name);
    report.where = StoredPostgresName(schema_name);
    auto ours = PostgresMarkedViews(s, schema_name);
    if (!ours) return ours.error();
    for (const auto& r : *ours) {
      if (Status st = s.Execute("DROP VIEW " + qns + "." + sql::QuoteIdentifier(sql::Postgres(), r.at(0))); !st) {
        return st.error();
      }
      ++report.dropped;
    }
    // The schema goes too when plainsql made it (its comment says so) and nothing else lives in it.
    auto left = s.Rows(
        "SELECT (SELECT count(*) FROM pg_class c WHERE c.relnamespace = n.oid) + "
        "(SELECT count(*) FROM pg_proc p WHERE p.pronamespace = n.oid) + "
        "(SELECT count(*) FROM pg_type t WHERE t.typnamespace = n.oid AND t.typrelid = 0), "
        "coalesce(obj_description(n.oid, 'pg_namespace'), '') FROM pg_namespace n WHERE n.nspname = $1",
        {report.where});
    if (!left) return left.error();
    if (!left->empty() && left->at(0).at(0) == "0" && left->at(0).at(1) == "plainsql natural views") {
      if (Status st = s.Execute("DROP SCHEMA " + qns); !st) return st.error();
    }
  }
  if (Status st = s.Commit(); !st) return st.error();
  return report;
}

Result<std::vector<std::string>> DeployedViewNames(exec::Connection& conn) {
  std::vector<std::string> out;
  if (conn.engine() != exec::Engine::kSqlite) return out;
  auto rs = conn.QueryInternal(kSqliteMarkedViews, exec::Limits{});
  if (!rs) return rs.error();
  for (const auto& row : rs->rows) out.push_back(row.at(0).ToStringOrEmpty());
  return out;
}

catalog::Schema WithoutRelations(const catalog::Schema& schema, const std::vector<std::string>& names) {
  catalog::Schema out = schema;
  std::erase_if(out.tables, [&](const catalog::Table& t) {
    return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return EqualsIgnoreCase(n, t.name); });
  });
  return out;
}

}  // namespace plainsql::views
