// libFuzzer target for the access guard: whatever text exec::CheckQuery accepts must touch only allowlisted relations
// and functions. The oracle is independent of plainsql's parser: the accepted text is prepared by SQLite itself on an
// in-memory database, with an authorizer that records every table read and function call SQLite compiles, and each
// must be one the policy allows. A difference between how plainsql's parser and SQLite's read a text (the way a
// guard is bypassed) aborts. The whole input is the SQL text.
#include <sqlite3.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "common/strings.h"
#include "exec/connection.h"

namespace {

using plainsql::ToLower;

sqlite3* Database() {
  static sqlite3* db = [] {
    sqlite3* d = nullptr;
    sqlite3_open(":memory:", &d);
    sqlite3_exec(d,
                 "CREATE TABLE plant(id INTEGER PRIMARY KEY, name TEXT, city TEXT);"
                 "CREATE TABLE TB_MO(MO_ID INTEGER, MO_ST TEXT, plant_id INTEGER);"
                 "CREATE TABLE secret(pw TEXT);"
                 "CREATE VIEW v_plant AS SELECT id, upper(name) AS n FROM plant;",
                 nullptr, nullptr, nullptr);
    sqlite3_limit(d, SQLITE_LIMIT_ATTACHED, 0);
    return d;
  }();
  return db;
}

plainsql::exec::AccessPolicy Policy() {
  plainsql::exec::AccessPolicy p;
  p.dialect = &plainsql::sql::Sqlite();
  p.functions = plainsql::exec::DefaultAllowedFunctions(plainsql::sql::Sqlite());
  p.search_path = {"temp", "main"};
  p.relations = {{"main", "plant", true},
                 {"main", "TB_MO", true},
                 {"main", "v_plant", true},
                 {"main", "secret", false},
                 {"main", "sqlite_master", false},
                 {"main", "sqlite_schema", false},
                 {"temp", "sqlite_temp_master", false}};
  return p;
}

struct Oracle {
  const plainsql::exec::AccessPolicy* policy;
  std::set<std::string> ctes;
  std::string violation;
};

int Authorize(void* p, int action, const char* a1, const char* a2, const char* db, const char* inside) {
  auto* o = static_cast<Oracle*>(p);
  // Reads inside the schema's view are the view's; inside a CTE (SQLite names it too) they are the query's.
  if (inside && ToLower(inside) == "v_plant" && !o->ctes.count("v_plant")) return SQLITE_OK;
  if (action == SQLITE_READ && db && a1) {
    std::string t = ToLower(a1);
    bool ok = t == "plant" || t == "tb_mo" || t == "v_plant" || o->policy->functions.count(t) ||
              ((t == "sqlite_master" || t == "sqlite_schema") && a2 && ToLower(a2) == "rowid");
    if (!ok && o->violation.empty()) o->violation = std::string("read ") + db + "." + a1;
  }
  if (action == SQLITE_FUNCTION && a2 && !o->policy->functions.count(ToLower(a2)) && o->violation.empty()) {
    o->violation = std::string("function ") + a2;
  }
  if (action == SQLITE_PRAGMA && o->violation.empty()) o->violation = std::string("pragma ") + (a1 ? a1 : "");
  return SQLITE_OK;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::string sql(reinterpret_cast<const char*>(data), size);
  static const plainsql::exec::AccessPolicy policy = Policy();
  plainsql::exec::AccessedNames names;
  if (!plainsql::exec::CheckQuery(sql, policy, nullptr, &names)) return 0;
  Oracle oracle{&policy, std::set<std::string>(names.ctes.begin(), names.ctes.end()), ""};
  sqlite3* db = Database();
  sqlite3_set_authorizer(db, &Authorize, &oracle);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr);
  sqlite3_finalize(stmt);
  sqlite3_set_authorizer(db, nullptr, nullptr);
  if (!oracle.violation.empty()) {
    std::fprintf(stderr, "guard accepted a query SQLite compiles to a %s:\n%s\n", oracle.violation.c_str(),
                 sql.c_str());
    std::abort();
  }
  return 0;
}
