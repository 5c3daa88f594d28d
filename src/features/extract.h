// Extraction: the feature vector of one example (a question, optionally its schema and its SQL). The question's
// features need nothing else; the database features need the schema (indexed once per database by Prepare); the SQL,
// semantic and gold-database features need the SQL.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "catalog/schema.h"
#include "common/status.h"
#include "features/values.h"
#include "linking/linker.h"
#include "retrieval/text.h"
#include "retrieval/value_index.h"
#include "sql/dialect.h"

namespace plainsql::linking {
struct LinkResources;
}
namespace plainsql::exec {
class Connection;
}

namespace plainsql::features {

struct Example {
  std::string question;
  std::string evidence;  // BIRD's external knowledge, SNAILS' hints ("" when none)
  std::string sql;       // the gold (or any) SQL ("" when none: the SQL features stay unknown)
};

/// A schema made ready for extraction: indexed by the linker, its names' naturalness counted, and its stored values
/// indexed when a connection was given.
struct Database {
  catalog::Schema schema;
  std::unique_ptr<linking::SchemaIndex> index;
  std::optional<retrieval::ValueIndex> values;
  double cryptic_share = 0;  // of its distinct table and column names, those classified low or least natural
};

/// What one extraction found besides the values.
struct Extraction {
  Values values;
  std::string sql_error;  // the SQL given did not parse ("" otherwise)
};

class Extractor {
 public:
  /// `resources`: the naturalness expander and classifier and WordNet (linking::LinkResources::Load); null runs
  /// without them (names are matched as written, naturalness is not read: db.cryptic_schema and db.gold_cryptic 0).
  explicit Extractor(std::shared_ptr<const linking::LinkResources> resources);
  ~Extractor();

  /// Indexes `schema` (and the values of `connection` when given; a failure there leaves values out).
  std::unique_ptr<Database> Prepare(catalog::Schema schema, exec::Connection* connection = nullptr);

  /// The features of `example`; `database` null leaves the schema features unknown. `dialect`: of the SQL.
  Extraction Extract(const Example& example, const Database* database, const sql::Dialect& dialect);

 private:
  std::shared_ptr<const linking::LinkResources> resources_;
  retrieval::Stemmer stemmer_;
};

/// The example's features as JSON: {"features": [ids that hold], "unknown": [ids not computed]}.
nlohmann::json ToJson(const Values& values);

}  // namespace plainsql::features
