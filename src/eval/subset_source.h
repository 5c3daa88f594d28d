// Where `eval run --subset` takes each question's schema subset from, as the subsetting study's oracle and
// proportion-ablation experiments feed subsets to a system (issue #18): a file of subsets (JSON Lines, one per
// question, as `plainsql link --questions ... --json` writes), the oracle (what the gold query reads), or a subsetting
// method of linking/subset_methods.h run per database. The source is part of the run's stored system string, so runs
// on different subsets are never confused and a resumed run uses the same one.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/benchmark_schema.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "eval/benchmark.h"
#include "eval/score.h"

namespace plainsql::linking {
struct LinkResources;
struct SubsetDatabase;
}  // namespace plainsql::linking

namespace plainsql::eval {

enum class SubsetKind { kNone, kFile, kOracle, kMethod };

struct SubsetSource {
  SubsetKind kind = SubsetKind::kNone;
  std::string value;  // the file (kFile) or the method's name (kMethod)
  /// As stored in a run: "" (none), "oracle", the method's name, or "file:PATH".
  std::string Spec() const;
};

/// `--subset` as given, or a stored spec: "oracle", a method of linking::SubsetMethods() ("builtin", "draft"),
/// "file:PATH", or any other text as a file path. "" is no subset.
Result<SubsetSource> ParseSubsetSource(const std::string& text);

/// A run's system string with its subset source appended after a TAB ("SYSTEM\tsubset=SPEC"; a TAB never occurs in
/// a system string: a stored pipeline configuration is JSON, which escapes it), and back: (system, spec), the spec ""
/// when there is none.
std::string SystemWithSubset(const std::string& system, const SubsetSource& source);
std::pair<std::string, std::string> SplitSubset(const std::string& system);

/// What every worker shares for a source: the file's lines, loaded once and checked against the benchmark (one line
/// per question), or a method's resources.
struct SubsetSetup {
  SubsetSource source;
  std::shared_ptr<const std::vector<SubsetLine>> lines;     // kFile
  std::shared_ptr<const linking::LinkResources> resources;  // kMethod
  std::string dialect = "sqlite";                           // the benchmark's: for parsing gold queries
  std::string tables, db_dir;                               // kMethod: the schemas, as `plainsql link` reads them
};
Result<SubsetSetup> PrepareSubsets(const SubsetSource& source, const Benchmark& benchmark, const std::string& tables,
                                   const std::string& db_dir);

/// Gives each question its subset; one per worker thread (not thread-safe).
class SubsetSupplier {
 public:
  explicit SubsetSupplier(const SubsetSetup& setup);
  ~SubsetSupplier();
  SubsetSupplier(const SubsetSupplier&) = delete;
  SubsetSupplier& operator=(const SubsetSupplier&) = delete;
  /// The names the subset keeps for `question`, whose database the system sees as `schema`. nullopt: no subset for
  /// this question (the oracle when the gold query does not parse): the system gets the whole schema.
  Result<std::optional<std::vector<std::string>>> For(const Question& question, const catalog::Schema& schema);

 private:
  const SubsetSetup& setup_;
  std::optional<catalog::BenchmarkSchemas> tables_;  // kMethod, read on first use
  std::map<std::string, std::unique_ptr<linking::SubsetDatabase>> dbs_;
};

}  // namespace plainsql::eval
