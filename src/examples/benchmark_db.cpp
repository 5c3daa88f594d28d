// Opening a benchmark's databases by db_id (see benchmark_db.h).
#include "examples/benchmark_db.h"

#include <fmt/format.h>

#include <utility>

#include "catalog/introspect.h"

namespace plainsql::examples {

Result<BenchmarkDatabase> OpenBenchmarkDatabase(const BenchmarkDatabases& where, const std::string& db_id) {
  BenchmarkDatabase db;
  if (!where.db_dir.empty() && where.file) {
    if (std::string path = where.file(where.db_dir, db_id); !path.empty()) {
      auto conn = exec::Connect(path);
      if (!conn) return conn.error();
      db.conn = std::move(*conn);
    }
  }
  const catalog::BenchmarkSchemas none;  // says "no --tables"
  const catalog::BenchmarkSchemas& tables = where.tables ? *where.tables : none;
  if (auto s = tables.Get(db_id)) {
    db.schema = std::move(*s);
  } else if (db.conn) {
    auto introspected = catalog::Introspect(*db.conn, {});
    if (!introspected) return introspected.error();
    db.schema = std::move(*introspected);
  } else {
    return MakeError(
        ErrorCode::kNotFound,
        fmt::format("no schema for database '{}' ({})", db_id,
                    where.db_dir.empty() ? s.error().message : "not in --tables, no file in " + where.db_dir));
  }
  db.schema.database = db_id;
  if (db.conn) {
    auto v = retrieval::ValueIndex::Build(*db.conn, db.schema);
    if (v) db.values = std::make_unique<retrieval::ValueIndex>(std::move(*v));
  }
  return db;
}

DatabaseSource BenchmarkDatabaseSource(BenchmarkDatabases where) {
  return [where = std::move(where)](const std::string& db_id) -> Result<BuildDatabase> {
    auto db = OpenBenchmarkDatabase(where, db_id);
    if (!db) return db.error();
    BuildDatabase out;
    out.schema = std::move(db->schema);
    out.values = std::move(db->values);
    return out;
  };
}

}  // namespace plainsql::examples
