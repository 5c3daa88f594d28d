// The haystack benchmark (issue #18, part 4): many schemas merged into one XL / XXL schema, each table prefixed by its
// database (`concert_singer__singer`), with every question's gold query rewritten to the prefixed names, so that any
// subsetting method can be scored on one huge schema with `plainsql link --json` and `plainsql eval subsets`.
// In: benchmark schema files (tables.json layout) and question files (Spider / BIRD JSON, SNAILS pair files); out: one
// merged schema (written as a one-entry tables.json) and question files whose db_id is the haystack's.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "sql/dialect.h"

namespace plainsql::linking {

/// A schema file of a data set: `source` names the data set ("spider"), `path` is relative to the data folder.
struct HaystackSchemaFile {
  std::string source;
  std::string path;
};

/// A question file: its set's name ("spider_dev"), the data set whose schemas it reads, the loader (spider | bird |
/// snails, as `eval::LoadBenchmark` names them) and its path relative to the data folder. `held_out` keeps only the
/// questions of databases train_linker holds out (hash of db_id 0 mod 5): questions no model was fitted on.
struct HaystackQuestionFile {
  std::string set, source, kind, path;
  bool held_out = false;
};

struct HaystackOptions {
  std::string data_dir;  // the shared data folder (../shared/data)
  /// What is read; missing files are skipped (and listed in Haystack::notes). Default: every schema of Spider
  /// (tables.json: train and dev), BIRD dev and SNAILS; Spider dev, Spider train (all, and its held-out databases),
  /// BIRD dev and SNAILS native questions.
  std::vector<HaystackSchemaFile> schemas = DefaultSchemaFiles();
  std::vector<HaystackQuestionFile> questions = DefaultQuestionFiles();
  /// The whole set of schemas this many times: copy k >= 2 is prefixed "k<k>_" before the database (exact twins of
  /// the originals, which the questions never target), to reach XXL sizes (5 copies: about 100,000 columns).
  size_t copies = 1;
  std::string db_id = "haystack";  // the merged schema's db_id, which every question gets

  static std::vector<HaystackSchemaFile> DefaultSchemaFiles();
  static std::vector<HaystackQuestionFile> DefaultQuestionFiles();
};

/// One question mapped into the haystack.
struct HaystackQuestion {
  std::string set;        // the question file's set
  std::string source_db;  // its database before the merge
  std::string question, evidence;
  std::string gold_sql;  // rewritten to the prefixed names, in SQLite's dialect
};

struct Haystack {
  catalog::Schema schema;                       // the merged schema (database = options.db_id)
  std::map<std::string, std::string> prefixes;  // "source/db_id" -> table prefix (with its "__")
  std::vector<HaystackQuestion> questions;      // in file order, set by set
  std::map<std::string, size_t> skipped;        // why questions were left out -> how many
  std::vector<std::string> notes;               // files not found, schema warnings
  size_t ColumnCount() const { return schema.ColumnCount(); }
};

/// The table prefix of a database: its db_id with every character other than a letter, digit or '_' made '_', then
/// "__" ("SBODemoUS-Business Partners" -> "SBODemoUS_Business_Partners__").
std::string HaystackPrefix(const std::string& db_id);

/// Appends `schema` to `merged` with every table renamed `prefix + name` and its foreign keys rewritten to the
/// prefixed tables (namespaces dropped: a haystack has one).
void AppendPrefixed(const catalog::Schema& schema, const std::string& prefix, catalog::Schema& merged);

/// Rewrites a gold query written against `schema` in `dialect`: every table of `schema` it reads (FROM items and
/// table qualifiers of columns; not CTE names or aliases) gets `prefix`, schema qualifiers ("dbo.") are dropped, and
/// the query is printed in SQLite's dialect. Fails when the query does not parse or names no table of `schema`.
Result<std::string> MapGoldSql(const std::string& sql, const sql::Dialect& dialect, const catalog::Schema& schema,
                               const std::string& prefix);

/// The base tables a query reads (lower-case, CTE names excluded), for checking a mapped query.
Result<std::vector<std::string>> QueryTables(const std::string& sql, const sql::Dialect& dialect);

/// Builds the haystack from the files of `options` (fails only when no schema file can be read).
Result<Haystack> BuildHaystack(const HaystackOptions& options);

/// A schema as one entry of a tables.json file (Spider's layout: table and column names, types, keys as indexes).
nlohmann::ordered_json BenchmarkEntry(const catalog::Schema& schema, const std::string& db_id);

/// Writes `dir`/tables.json (the merged schema, one entry), `dir`/questions_<set>.json (Spider layout: db_id,
/// question, query, evidence, plus source_db) and `dir`/manifest.json (sizes, prefixes, counts, what was skipped).
/// Returns the manifest.
Result<nlohmann::ordered_json> WriteHaystack(const Haystack& haystack, const std::string& dir);

}  // namespace plainsql::linking
