// The subsetting methods by name (`plainsql link --method`), and a benchmark database opened for them.
// `builtin` (subset_builtin.h) works from the schema alone and, when the database is at hand, uses its cell values and
// a draft query of the built-in translator as evidence for its scorer; `draft`, kept for comparison, keeps the tables a
// draft query of the built-in translator reads, each with all its columns (it needs the database, and keeps nothing
// when the translator gives no answer); `skalpel` (subset_skalpel.h) is SKALPEL's LLM and embeddings method. In its own
// library target because both run the built-in translator, which itself depends on plainsql_linking.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/benchmark_schema.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"
#include "linking/infer_keys.h"
#include "linking/subset.h"
#include "linking/subset_builtin.h"
#include "linking/subset_skalpel.h"
#include "retrieval/value_index.h"

namespace plainsql::linking {

/// The method names `MakeSubsetter` knows.
const std::vector<std::string>& SubsetMethods();

/// A subsetter of `method` for `schema`; `conn` and `values` may be null (then `draft` fails and `builtin` works
/// without cell values, and without `conn` without a draft); `resources` is needed by `builtin` (loaded when null).
/// `skalpel` configures the skalpel method (null: its LLM from the environment, PLAINSQL_LLM_URL and
/// PLAINSQL_LLM_MODEL, and the offline embedder); with `conn`, its description prompts show example values.
/// Everything must outlive it.
Result<std::unique_ptr<Subsetter>> MakeSubsetter(const std::string& method, const catalog::Schema& schema,
                                                 exec::Connection* conn, const retrieval::ValueIndex* values,
                                                 std::shared_ptr<const LinkResources> resources,
                                                 const SkalpelOptions* skalpel = nullptr);

/// A database opened for subsetting: its schema (the tables.json entry when there is one: labels, declared keys; else
/// introspected), its connection and value index when its SQLite file is at hand, and a subsetter over them.
struct SubsetDatabase {
  catalog::Schema schema;
  std::unique_ptr<exec::Connection> conn;
  std::unique_ptr<retrieval::ValueIndex> values;
  std::unique_ptr<Subsetter> subsetter;
};

/// Opens `db_id` from `tables` (may be empty) and `sqlite_file` ("" or missing: no database) for `method`
/// (`skalpel` as for MakeSubsetter). A data dictionary at `dictionary` (a folder or file for
/// catalog::DataDictionary::Read; "": none) fills the comments and readable names the schema lacks. With `infer_keys`,
/// the keys the schema does not declare are inferred first (from sampled values when the database is at hand, else from
/// names and types alone); `notes` (may be null) receives what was inferred.
Result<std::unique_ptr<SubsetDatabase>> OpenSubsetDatabase(const catalog::BenchmarkSchemas& tables,
                                                           const std::string& db_id, const std::string& sqlite_file,
                                                           const std::string& dictionary, const std::string& method,
                                                           std::shared_ptr<const LinkResources> resources,
                                                           const SkalpelOptions* skalpel = nullptr,
                                                           const InferKeysOptions* infer_keys = nullptr,
                                                           std::vector<std::string>* notes = nullptr);

}  // namespace plainsql::linking
