// A benchmark's database opened by db_id, for building an example store or selecting examples over a questions file
// (`plainsql examples build`, `select --questions`): its schema (the tables.json entry when there is one, else the
// database's own, introspected), and, when the database file is at hand, its connection and value index (so that
// values in questions are masked too, and the built-in translator can draft).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "catalog/benchmark_schema.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "examples/store.h"
#include "exec/connection.h"
#include "retrieval/value_index.h"

namespace plainsql::examples {

/// One opened database. `schema.database` is the db_id asked for.
struct BenchmarkDatabase {
  std::unique_ptr<exec::Connection> conn;         // null: no database file
  catalog::Schema schema;                         // tables.json's when it has the db_id, else introspected
  std::unique_ptr<retrieval::ValueIndex> values;  // null: no file, or its values could not be read
};

/// The SQLite file of a db_id in a folder of databases, "" when it has none. The CLI passes eval::SqliteDatabasePath
/// (the Spider layout), which this library cannot call: plainsql_eval sits above it.
using DatabaseFileLookup = std::function<std::string(const std::string& db_dir, const std::string& db_id)>;

/// Where a benchmark's databases are: the schemas of a tables.json (may be empty) and a folder of database files
/// ("" for none).
struct BenchmarkDatabases {
  const catalog::BenchmarkSchemas* tables = nullptr;
  std::string db_dir;
  DatabaseFileLookup file;
};

/// Opens `db_id`. An error when neither tables.json nor the folder has it, or when its file cannot be opened or
/// introspected; a value index that cannot be built is left out (null), not an error.
Result<BenchmarkDatabase> OpenBenchmarkDatabase(const BenchmarkDatabases& where, const std::string& db_id);

/// OpenBenchmarkDatabase as BuildStore's DatabaseSource (the schema and values; SQLite SQL). Keeps a copy of `where`;
/// the tables it points to must outlive the source.
DatabaseSource BenchmarkDatabaseSource(BenchmarkDatabases where);

}  // namespace plainsql::examples
