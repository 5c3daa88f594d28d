// Skeletons of solved questions (issue #19, item 2): the forms the passes do not build (UNION, EXCEPT, INTERSECT,
// nested queries, a table joined with itself) taken from the gold queries of a training set and filled with a new
// question's own tables, columns and values. A skeleton is a gold query with its names abstracted by their role:
// tables `t0`, `t1`, ... in order of appearance; in each, `k` is the table's single-column primary key, `fJ` the column
// referencing table `tJ`, and the other columns `nI` (numeric) or `sI` (anything else), numbered across the query in
// order of appearance; every string and number (LIMIT's aside) is a value slot `'?I'`, tied to the column it is
// compared with when there is one. So "the names of students who have no pets" and "the titles of films no customer
// rented" share `SELECT s0 FROM t0 WHERE k NOT IN (SELECT f0 FROM t1)`.
//
// `plainsql builtin train` extracts them (the forms above, seen at least twice in two databases) and ships them in
// data/skeletons.tsv, compiled in. The translator proposes those whose shape the shape model finds likeliest for the
// question, fills each with the question's material (the tables, columns and values its first reading linked, in
// question order), and adds the filled queries as further readings for the scorer to rank.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "builtin/reading.h"
#include "builtin/shape.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "sql/ast.h"
#include "sql/dialect.h"
#include "sql/resolver.h"

namespace plainsql::builtin {

/// A value slot: `'?I'` in the skeleton's SQL, the abstract column it is compared with ("" when none: a count) and how
/// ("=", "!=", ">", "LIKE", "BETWEEN", ... as the reading's filters write it).
struct SkeletonValue {
  std::string column;
  std::string op;
  bool operator==(const SkeletonValue&) const = default;
};

struct Skeleton {
  std::string sql;                               // the abstract query (SQLite syntax)
  std::vector<std::vector<std::string>> tables;  // per table slot: its abstract columns, in order of appearance
  std::vector<SkeletonValue> values;             // per value slot
  size_t count = 0;                              // questions of the training set with this skeleton
  size_t databases = 0;                          // and their databases
  /// The skeleton's identity: its SQL, columns and values (not the counts).
  std::string Key() const;
  bool operator==(const Skeleton&) const = default;
};

/// The skeleton of `gold`, a query over `schema` (nullopt when a name does not resolve).
std::optional<Skeleton> ExtractSkeleton(const sql::Query& gold, const catalog::Schema& schema,
                                        const sql::Dialect& dialect);

/// Whether a skeleton has a form the passes do not build: a set operation, a subquery, or a table read twice.
bool IsUnbuiltForm(const Skeleton& s);

/// What a question gives a skeleton to fill, from its first reading, in question order.
struct SkeletonMaterial {
  std::vector<std::string> tables;  // the subject first, then the tables mentioned and those of the values
  std::vector<ColumnRef> columns;   // the columns mentioned
  std::vector<Filter> values;       // the conditions on values (strings, numbers, patterns); a count's number has no
                                    // column
  size_t other_conditions = 0;      // conditions no value slot can carry (a yes/no column): no skeleton fits
};
SkeletonMaterial MaterialOf(const Reading& r);

/// A filled skeleton: the query, and how much of the material it left unused.
struct FilledSkeleton {
  sql::Query query;
  size_t unused = 0;  // tables and columns of the material the query does not read
};

/// The skeletons of a training set, parsed once for filling.
class SkeletonLibrary {
 public:
  SkeletonLibrary();
  ~SkeletonLibrary();
  SkeletonLibrary(SkeletonLibrary&&) noexcept;
  SkeletonLibrary& operator=(SkeletonLibrary&&) noexcept;

  /// Keeps the skeletons seen at least `min_count` times in at least `min_databases` databases, most frequent first.
  static SkeletonLibrary FromCounts(std::vector<Skeleton> skeletons, size_t min_count, size_t min_databases);
  /// The text form: `#` comment lines, then one skeleton a line: count, databases, SQL, columns (`t0:k,s0 t1:f0`),
  /// value columns (`?0=s0 ?1=-`), separated by tabs.
  static Result<SkeletonLibrary> Parse(std::string_view text);
  std::string Serialize(const std::string& header) const;
  /// The shipped library (data/skeletons.tsv, compiled in).
  static const SkeletonLibrary& Builtin();

  size_t Size() const;
  const Skeleton& At(size_t i) const;
  const Shape& ShapeAt(size_t i) const;
  /// The skeletons each of whose shape properties `prediction` gives at least `min_probability`, in the order of how
  /// likely it finds their shapes, most likely first.
  std::vector<size_t> Proposals(const ShapePrediction& prediction, double min_probability) const;
  /// Fills skeleton `i` with `material` over `schema`: nullopt when the material does not fit it (too few columns or
  /// tables of the kinds it needs, values left over or missing, other conditions, no foreign key where it joins).
  std::optional<FilledSkeleton> Fill(size_t i, const SkeletonMaterial& material, const catalog::Schema& schema,
                                     const sql::Dialect& dialect) const;

 private:
  struct Entry;
  std::vector<std::unique_ptr<Entry>> entries_;
};

}  // namespace plainsql::builtin
