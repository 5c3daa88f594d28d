// Keys a database does not declare, inferred from names and data: primary keys (a unique, non-null, key-like column)
// and foreign keys (a column whose name points at another table's key and whose values that key contains), marked
// `inferred` in the schema so that the linker, the built-in translator's join paths and the views use them like
// declared ones and every rendering can tell them apart. Data is read through the connection's read-only path with
// bounded sampling (a row cap per table, a timeout per query); nothing is written.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "catalog/cache.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"

namespace plainsql::linking {

/// What to do with the keys a database declares.
enum class KeyInferenceMode {
  kAdd,       // keep declared keys; infer a primary key for a table without one, foreign keys for other columns
  kReplace,   // drop every declared key first and infer all of them (to measure inference against the declared ones)
  kIsolated,  // keep declared keys; infer only the keys of tables no declared foreign key touches (a table loaded
              // beside the others without keys, or every table of a schema that declares none)
};
/// "add", "replace" or "isolated".
std::optional<KeyInferenceMode> KeyInferenceModeByName(std::string_view name);
/// The mode's name, as KeyInferenceModeByName reads it.
std::string_view KeyInferenceModeName(KeyInferenceMode mode);
/// The mode an `--infer-keys` value names, or an error that lists the modes; `none_allowed`: "none" is accepted too
/// (nullopt: no inference), as where inference is on by default (`link`, the trainer).
Result<std::optional<KeyInferenceMode>> KeyInferenceModeOption(std::string_view value, bool none_allowed = false);

struct InferKeysOptions {
  KeyInferenceMode mode = KeyInferenceMode::kAdd;
  int64_t sample_rows = 10'000;  // rows read per table (the first the database returns)
  int probe_values = 1'000;      // distinct values of a column checked against a key whose table was not read in full
  std::chrono::milliseconds timeout{5'000};  // per query; a table that cannot be read is judged on names alone
  /// A foreign key is kept when its score reaches this. Score = 2·name + 2·containment + 0.5·same type class
  /// + 0.3·key-like target + 0.5·share of the target table's words the column names − 1·same table − 2·the column is
  /// its own table's key + 3.2·data-only (see infer_keys.cpp). 4.0 had the best F1 on Spider train's databases.
  double threshold = 4.0;
  double min_containment = 0.5;  // below this share of a column's values found in the key, no foreign key
  /// Above this many tables, a column is only compared with keys whose names share a word with it (no data-only
  /// matches, no prefix matches): a schema of thousands of tables stays quick.
  size_t exhaustive_tables = 300;
};

/// One inferred key with its evidence.
struct InferredKey {
  bool primary = false;  // a primary key (ref_* empty) or a foreign key
  std::string table;
  std::vector<std::string> columns;
  std::string ref_table;
  std::vector<std::string> ref_columns;
  double score = 0;         // foreign keys: the score compared with the threshold
  double name_match = 0;    // 0..1: how the column's name points at the referenced table and key (0: data only)
  double containment = -1;  // share of the column's sampled distinct values the key contains; -1 when unknown
};

struct KeyInferenceResult {
  std::vector<InferredKey> keys;      // in schema order: each table's primary key, then its foreign keys
  std::vector<std::string> warnings;  // tables that could not be read (judged on names alone)
};

/// The values of one column in a table's sample, as canonical text (integral reals as integers; blobs left out).
struct ColumnValues {
  std::unordered_set<std::string> distinct;
  int64_t non_null = 0;
  int64_t nulls = 0;
};

/// A table's sample: per column its values, and the rows (for composite keys); NULL cells are nullopt.
struct TableValues {
  bool read = false;      // false when the table could not be read: names alone decide
  bool complete = false;  // every row was read (so uniqueness and containment in it are exact)
  std::vector<ColumnValues> columns;
  std::vector<std::vector<std::optional<std::string>>> rows;
};

/// Share of `child`'s distinct values (column `child_column` of `child_table`) found in `key_column` of `key_table`,
/// asked of the database when the key's table was not read in full; nullopt when it cannot say.
using ContainmentProbe = std::function<std::optional<double>(const catalog::Table& child_table, size_t child_column,
                                                             const catalog::Table& key_table, size_t key_column)>;

/// Reads a bounded sample of every table of `schema` (views are skipped).
std::vector<TableValues> ReadSamples(exec::Connection& conn, const catalog::Schema& schema,
                                     const InferKeysOptions& options, std::vector<std::string>* warnings);

/// The inference itself, on samples (one per table of `schema`, in order; views' entries are ignored). Adds the keys
/// to `schema` (marked inferred) and returns them; with kReplace, declared keys are dropped first. `probe` may be
/// empty (containment in a table not read in full is then the sample's).
KeyInferenceResult InferKeysFromSamples(catalog::Schema& schema, const std::vector<TableValues>& samples,
                                        const InferKeysOptions& options, const ContainmentProbe& probe = {});

/// Samples the database through `conn` and infers keys into `schema`.
Result<KeyInferenceResult> InferKeys(exec::Connection& conn, catalog::Schema& schema, const InferKeysOptions& options);

/// `loaded` (catalog::LoadSchema's result) with inferred keys added, through a cache file beside its snapshot: the file
/// is named by the snapshot's key (the catalog digest and introspection options) and the mode, so a database is
/// sampled once per change of its catalog and a changed one is sampled again. Without a snapshot file (caching off),
/// the keys are inferred each time. Warnings (tables that could not be read) join `loaded.warnings`.
Status InferKeysCached(exec::Connection& conn, catalog::LoadedSchema& loaded, const InferKeysOptions& options);

/// The last words that make a name a key's ("customer_id", "dept_code", "order_no"), lower case; inference compares
/// them with a name's stemmed words, the subsetter with its joined-up key columns (subset_builtin.cpp).
const std::vector<std::string>& KeyWords();

/// Removes every declared (not inferred) primary, unique and foreign key.
void DropDeclaredKeys(catalog::Schema& schema);

}  // namespace plainsql::linking
