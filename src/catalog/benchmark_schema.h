// Schemas from benchmark schema files: Spider `tables.json`, BIRD `dev_tables.json`, SNAILS
// `snails_tables_Native.json` (all the same layout), for databases we only have the schema of.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"

namespace plainsql::catalog {

/// Converts one entry (one database) of a tables.json file. Composite foreign keys, which the format spreads over
/// several column pairs, are regrouped when the referenced columns form the referenced table's composite primary key.
/// A key that names the "*" pseudo-column (a defect of some files) is skipped and described in `warnings`. Keys whose
/// indexes read better one column later (an exporter that counted the columns without the "*" entry) are read so, with
/// a warning.
Result<Schema> SchemaFromBenchmarkEntry(const nlohmann::json& entry, std::vector<std::string>* warnings = nullptr);

/// Reads a tables.json file and converts the entry whose db_id is `db_id`.
Result<Schema> LoadBenchmarkSchema(const std::string& path, const std::string& db_id,
                                   std::vector<std::string>* warnings = nullptr);

/// The db_ids in a tables.json file, in file order.
Result<std::vector<std::string>> ListBenchmarkDatabases(const std::string& path);

/// The entries of a tables.json file by db_id, read once; each schema converted when asked for. An empty path gives an
/// empty set whose Schema() says "no --tables".
class BenchmarkSchemas {
 public:
  static Result<BenchmarkSchemas> Read(const std::string& path);
  bool Empty() const { return path_.empty(); }
  /// The db_ids in file order.
  const std::vector<std::string>& Ids() const { return order_; }
  /// The schema of `db_id`; what was repaired or skipped in its keys goes to `warnings`.
  Result<Schema> Get(const std::string& db_id, std::vector<std::string>* warnings = nullptr) const;

 private:
  std::string path_;
  std::vector<std::string> order_;
  std::map<std::string, nlohmann::json> entries_;
};

/// Reads and parses a JSON file, with errors that name the file.
Result<nlohmann::json> ReadJsonFile(const std::string& path);

}  // namespace plainsql::catalog
