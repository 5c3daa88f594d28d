// The example store (issue #17): solved (question, SQL, database) triples with their masked question and masked SQL,
// every database they were asked of (its schema's structure, its WL labels for the WWL distance, its SQL dialect), a
// cached distance index over every pair of those databases, and what each build has done so far. One SQLite file, or
// the same tables in a PostgreSQL database when several processes share a store (through exec::StoreSession, so both
// engines run the same statements).
//
// Writing is built for interruption: examples are committed in batches, each batch in one transaction together with
// its input's progress, so a build stopped at any point (Ctrl-C, SIGKILL, a full disk) loses at most the batch it was
// writing and resumes right after the last committed one. An example is identified by a hash of (db_id, question,
// sql): adding it again, from a resumed build, an overlapping input or two processes at once, is a no-op. Distances are
// computed once per pair and stored; a new database only adds its own pairs.
//
// ExampleLibrary is the read side: a store loaded for selection (examples::Selector over every example, the databases
// and the distance index), shared read-only by every question and thread of a process.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "examples/example.h"
#include "examples/select.h"
#include "examples/wwl.h"
#include "retrieval/value_index.h"
#include "sql/dialect.h"

namespace plainsql::exec {
class StoreSession;
}

namespace plainsql::examples {

/// The store layout's version (meta key "version"); a store of another version is refused with a message.
inline constexpr int kStoreVersion = 1;

/// A database of the store: the structure of its schema (no samples, no row counts), the schema's structural
/// fingerprint, the dialect its examples' SQL is written in, and its WL labels.
struct StoredDatabase {
  std::string db_id;
  std::string schema_hash;  // catalog::StructuralFingerprint
  std::string dialect;      // sql::Dialect name: "sqlite", "postgres", ...
  catalog::Schema schema;
  std::vector<NodeLabels> labels;
};

/// How far the build of one input (a questions file) got. `key` identifies the input by its benchmark kind and a hash
/// of its content (BuildOptions::content_hash), so the same file under another path resumes too, and a changed file is
/// a new input.
struct InputProgress {
  std::string key, path, benchmark;
  int64_t total = 0;    // items in the input
  int64_t done = 0;     // items handled (stored, already present, or skipped), from the start of the input
  int64_t added = 0;    // examples it added
  int64_t skipped = 0;  // items that could not become examples (SQL that does not parse, unknown database)
  bool finished = false;
  std::string updated;  // UTC, ISO 8601
};

struct StoreStats {
  int64_t examples = 0, databases = 0;
  int64_t distance_pairs = 0;  // pairs of databases the index needs
  int64_t distances_cached = 0;
  std::vector<std::pair<std::string, int64_t>> by_source;    // examples per source, most first
  std::vector<std::pair<std::string, int64_t>> by_database;  // examples per database, most first
  std::vector<InputProgress> inputs;
  std::map<std::string, std::string> meta;  // version, embedder, created, ...
};

/// The pairwise WWL distances of a store's databases, in `dbs` order (a symmetric matrix, 0 on the diagonal).
struct DistanceIndex {
  std::vector<std::string> dbs;
  std::vector<std::vector<double>> distances;
};

/// Told how far a long step got: what it is ("examples", "distances", "embedding"), done and total.
using StoreProgress = std::function<void(const std::string& step, size_t done, size_t total)>;

class ExampleStore {
 public:
  /// Opens a store, creating its tables when needed: a SQLite file path (created when missing) or a postgresql://
  /// URL. A store written by another layout version is refused.
  static Result<std::unique_ptr<ExampleStore>> Open(const std::string& path_or_url);
  /// Opens a store that must exist already (a SQLite file that is not there is kNotFound, not created).
  static Result<std::unique_ptr<ExampleStore>> OpenExisting(const std::string& path_or_url);
  ~ExampleStore();
  ExampleStore(const ExampleStore&) = delete;
  ExampleStore& operator=(const ExampleStore&) = delete;

  /// The file or the URL without its password, for messages.
  const std::string& Where() const;

  /// Registers a database by its schema's structure. Returns true when it is new. The same db_id with the same
  /// structure is a no-op (false); with another structure it is refused (a store maps a db_id to one schema).
  Result<bool> AddDatabase(const std::string& db_id, const catalog::Schema& schema, const sql::Dialect& dialect);
  Result<std::vector<StoredDatabase>> Databases();
  Result<std::optional<StoredDatabase>> FindDatabase(const std::string& db_id);

  /// Adds examples (their databases registered first) in one transaction; an example already stored (same db_id,
  /// question and sql) is left as it is. With `progress`, its `added` grows by the new examples and it is written in
  /// the same transaction (so an input's progress never runs ahead of, or behind, what is stored). Returns how many
  /// were new; their ids are set in `examples` (the ids of those already stored stay 0).
  Result<int64_t> AddExamples(std::vector<Example>& examples, const std::string& source,
                              InputProgress* progress = nullptr);
  /// Every example, in id order (read in pages, so a large store is not held twice).
  Result<std::vector<Example>> Examples();
  Result<int64_t> CountExamples();

  /// The progress of an input, or a fresh one (done = 0) registered now.
  Result<InputProgress> BeginInput(const std::string& key, const std::string& path, const std::string& benchmark,
                                   int64_t total);
  Status SaveInput(const InputProgress& progress);

  /// Computes the WWL distance of every pair of databases that has none stored yet (all of them at once with
  /// examples::WwlDistances when nothing is stored, else pair by pair on `threads` threads), stored in batches.
  /// Stops between batches when `cancel` is set (what was stored stays). Returns how many pairs were computed.
  Result<int64_t> UpdateDistances(int threads = 0, const StoreProgress& progress = {},
                                  const std::atomic<bool>* cancel = nullptr);
  /// The distance index as stored; a pair that is missing (a build stopped before its distances) is NaN.
  Result<DistanceIndex> Distances();

  Result<std::string> Meta(const std::string& key);
  Status SetMeta(const std::string& key, const std::string& value);
  Result<StoreStats> Stats();

 private:
  struct Impl;
  explicit ExampleStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// One item of a build's input: a solved question.
struct BuildItem {
  std::string db_id, question, sql;
};

/// What the build needs for each database its items name: the schema (from tables.json or the database itself), the
/// dialect of the items' SQL, and, when the database is at hand, its value index (so that values in a question are
/// masked too). `values` may be null.
struct BuildDatabase {
  catalog::Schema schema;
  const sql::Dialect* dialect = &sql::Sqlite();
  std::unique_ptr<retrieval::ValueIndex> values;
};
/// Looks a database up by db_id; an error skips the items of that database (counted, with the first reasons).
using DatabaseSource = std::function<Result<BuildDatabase>(const std::string& db_id)>;

/// How BuildStore runs. `content_hash` identifies the input's content (with `benchmark`, the input's key); left empty,
/// it is a hash of the items (each one's db_id, question and sql, in order: what a resumed build counts into), so a
/// caller reads its file once, and a file changed between two reads is never recorded under another content's key.
struct BuildOptions {
  std::string benchmark = "custom";  // recorded with the input and as the examples' source ("spider:FILE")
  std::string path;                  // the input file, as given (for the source and messages)
  std::string content_hash;          // "": a hash of the items
  size_t batch = 1000;               // items per transaction
  StoreProgress progress;
  const std::atomic<bool>* cancel = nullptr;  // set: stop after the current batch (everything committed stays)
  int distance_threads = 0;                   // 0: one per core
};

struct BuildResult {
  InputProgress input;                    // where the input stands now
  int64_t resumed_from = 0;               // items already done before this call
  int64_t added = 0;                      // examples this call added
  int64_t duplicates = 0;                 // items already in the store (another input, or added by hand)
  int64_t skipped = 0;                    // items this call could not use
  std::vector<std::string> skip_reasons;  // the first few, for the user
  int64_t new_databases = 0;
  int64_t distances_computed = 0;
  bool cancelled = false;
};

/// Builds (or resumes, or appends to) a store from `items`: every item's question masked with examples::
/// QuestionMasker over its database's schema and values, its SQL with examples::MaskSql; examples committed in
/// batches with the input's progress; then the distances of any new database. Items already done by an earlier,
/// interrupted build of the same input are not read again.
Result<BuildResult> BuildStore(ExampleStore& store, const std::vector<BuildItem>& items,
                               const DatabaseSource& databases, const BuildOptions& options);

/// A store loaded for selection: every example in a Selector, every database, and the distance index. Read-only and
/// safe to share between threads once loaded (the distances of a database outside the store are computed on first
/// use and kept, under a lock).
class ExampleLibrary {
 public:
  struct LoadOptions {
    SelectWeights weights;
    std::shared_ptr<retrieval::Embedder> embedder;  // null: the built-in offline embedder
    StoreProgress progress;
  };
  static Result<std::shared_ptr<const ExampleLibrary>> Load(const std::string& path_or_url,
                                                            const LoadOptions& options = {});
  static Result<std::shared_ptr<const ExampleLibrary>> Load(ExampleStore& store, const LoadOptions& options = {});

  /// What to select for: the question (masked) asked of a database (its schema and db_id), the draft's masked SQL.
  struct Query {
    const catalog::Schema* schema = nullptr;  // the asked database's (native) schema
    std::string db_id;
    std::string masked_question, masked_sql;
    size_t k = 5;
    std::function<bool(const Example&)> exclude;  // e.g. the question being asked (Ground)
  };
  /// One selected example with its scores and its own database.
  struct Pick {
    const Example* example = nullptr;
    const StoredDatabase* database = nullptr;  // null only when the store lacks the example's database
    Selected scores;
  };
  /// The k best examples, best first (examples::Selector with the WWL distance of the asked database to each
  /// example's database).
  std::vector<Pick> Select(const Query& query) const;

  const StoredDatabase* Database(const std::string& db_id) const;
  const std::vector<Example>& Examples() const { return selector_->Examples(); }
  const std::string& Where() const { return where_; }
  /// The WWL distance between the asked database and a store database (by position in the store's databases).
  std::shared_ptr<const std::vector<double>> DistancesFrom(const catalog::Schema& schema,
                                                           const std::string& db_id) const;

 private:
  ExampleLibrary() = default;
  std::string where_;
  std::unique_ptr<Selector> selector_;
  std::vector<StoredDatabase> databases_;
  std::unordered_map<std::string, size_t> db_index_;
  DistanceIndex index_;  // in databases_ order
  mutable std::mutex mu_;
  mutable std::map<std::string, std::shared_ptr<const std::vector<double>>> asked_;  // by structural fingerprint
};

/// The input key BuildStore records: the benchmark kind and a hash of the input's content.
std::string InputKey(const std::string& benchmark, const std::string& content_hash);

/// The schema reduced to its structure (no samples, no row counts), as the store keeps it.
catalog::Schema StructureOnly(catalog::Schema schema);

}  // namespace plainsql::examples
