// The schema a question is answered on: the catalog's snapshot (cached), the keys the database does not declare
// inferred from names and data (linking/infer_keys.h), and a data dictionary's descriptions. One function, so that
// `plainsql ask` and `prompt`, `plainsql serve`, the C API and the PostgreSQL extension answer on the same schema.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/cache.h"
#include "catalog/introspect.h"
#include "common/status.h"
#include "exec/connection.h"
#include "linking/infer_keys.h"

namespace plainsql::pipeline {

struct SchemaLoadOptions {
  catalog::IntrospectOptions introspect;
  catalog::CacheOptions cache;
  /// Keys inferred (nullopt: none). The default infers the keys of tables no declared foreign key touches: a database
  /// that declares none, or a table loaded beside the others without keys, gets its joins; declared keys are kept.
  /// On Spider train the built-in translator's EX was 0.6109 without inference and 0.6148 with it (docs/BENCHMARKS.md,
  /// forty-fourth part).
  std::optional<linking::KeyInferenceMode> infer_keys = linking::KeyInferenceMode::kIsolated;
  /// "auto": the dictionary beside a SQLite file (BIRD's database_description folder), when there is one, and a warning
  /// when it cannot be read; "none": no dictionary; else a dictionary's path (an error when it cannot be read).
  std::string descriptions = "auto";
};

/// Fills `schema`'s comments and readable names from the data dictionary `descriptions` names: "none" none; "auto"
/// (or "") the one at `beside` ("" when there is none), a failure to read it added to `warnings`; else its path, a
/// failure to read it an error.
Status ApplyDescriptions(catalog::Schema& schema, const std::string& descriptions, const std::string& beside,
                         std::vector<std::string>& warnings);

/// What an `--infer-keys` value or setting names for answering: "" (the default, isolated), "add", "replace",
/// "isolated" or "none" (nullopt).
Result<std::optional<linking::KeyInferenceMode>> AnswerKeyInference(std::string_view value);

/// The schema of `conn` as questions are answered on it. The dictionary is applied after the keys are inferred (the
/// inferred-keys cache holds the schema without descriptions). Non-fatal problems are in the result's `warnings`.
Result<catalog::LoadedSchema> LoadSchemaForAnswers(exec::Connection& conn, const SchemaLoadOptions& options);

}  // namespace plainsql::pipeline
