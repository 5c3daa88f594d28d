// Subset sources of eval run (see subset_source.h).
#include "eval/subset_source.h"

#include <fmt/format.h>

#include <algorithm>

#include "catalog/dictionary.h"
#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "eval/metrics.h"
#include "linking/subset_methods.h"
#include "sql/parser.h"
#include "sql/resolver.h"

namespace plainsql::eval {

namespace {

constexpr std::string_view kSubsetTag = "\tsubset=";

}  // namespace

std::string SubsetSource::Spec() const {
  switch (kind) {
    case SubsetKind::kNone: return "";
    case SubsetKind::kOracle: return "oracle";
    case SubsetKind::kMethod: return value;
    case SubsetKind::kFile: return "file:" + value;
  }
  return "";
}

Result<SubsetSource> ParseSubsetSource(const std::string& text) {
  SubsetSource s;
  if (text.empty()) return s;
  if (text.find('\t') != std::string::npos) {
    return MakeError(ErrorCode::kInvalidArgument, "--subset: a TAB is not allowed in a subset file's name");
  }
  const auto& methods = linking::SubsetMethods();
  if (text == "oracle") {
    s.kind = SubsetKind::kOracle;
  } else if (std::find(methods.begin(), methods.end(), text) != methods.end()) {
    s.kind = SubsetKind::kMethod;
    s.value = text;
  } else {
    s.kind = SubsetKind::kFile;
    s.value = text.starts_with("file:") ? text.substr(5) : text;
    if (s.value.empty()) return MakeError(ErrorCode::kInvalidArgument, "--subset file: needs a file name");
  }
  return s;
}

std::string SystemWithSubset(const std::string& system, const SubsetSource& source) {
  if (source.kind == SubsetKind::kNone) return system;
  return system + std::string(kSubsetTag) + source.Spec();
}

std::pair<std::string, std::string> SplitSubset(const std::string& system) {
  size_t at = system.find(kSubsetTag);
  if (at == std::string::npos) return {system, ""};
  return {system.substr(0, at), system.substr(at + kSubsetTag.size())};
}

Result<SubsetSetup> PrepareSubsets(const SubsetSource& source, const Benchmark& benchmark, const std::string& tables,
                                   const std::string& db_dir) {
  SubsetSetup setup;
  setup.source = source;
  setup.dialect = benchmark.dialect;
  setup.tables = tables;
  setup.db_dir = db_dir;
  if (source.kind == SubsetKind::kFile) {
    auto lines = LoadSubsetLines(source.value);
    if (!lines) return lines.error();
    if (lines->size() != benchmark.questions.size()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("{} has {} subsets but the benchmark has {} questions: one subset per question, in "
                                   "order",
                                   source.value, lines->size(), benchmark.questions.size()));
    }
    setup.lines = std::make_shared<const std::vector<SubsetLine>>(std::move(*lines));
  } else if (source.kind == SubsetKind::kMethod) {
    auto resources = linking::LinkResources::Load();
    if (!resources) return resources.error();
    setup.resources = std::move(*resources);
  }
  return setup;
}

SubsetSupplier::SubsetSupplier(const SubsetSetup& setup) : setup_(setup) {}
SubsetSupplier::~SubsetSupplier() = default;

Result<std::optional<std::vector<std::string>>> SubsetSupplier::For(const Question& q, const catalog::Schema& schema) {
  using Names = std::optional<std::vector<std::string>>;
  switch (setup_.source.kind) {
    case SubsetKind::kNone: return Names();
    case SubsetKind::kFile:
      if (q.index >= setup_.lines->size()) {
        return MakeError(ErrorCode::kFormat,
                         fmt::format("{} has no subset for question {}", setup_.source.value, q.index));
      }
      return Names((*setup_.lines)[q.index].names);
    case SubsetKind::kOracle: {
      // What the gold query reads, resolved against the schema the system sees.
      const sql::Dialect* d = sql::DialectByName(setup_.dialect).value_or(&sql::Sqlite());
      auto gold = sql::ParseQuery(q.gold_sql, *d);
      if (!gold) return Names();
      std::set<std::string> ids = QueryIdentifiers(sql::Resolve(*gold, catalog::ToNameCatalog(schema), *d));
      return Names(std::vector<std::string>(ids.begin(), ids.end()));
    }
    case SubsetKind::kMethod: break;
  }
  // A method, run per database as `plainsql link --questions` runs it (the tables.json entry when there is one).
  if (!tables_) {
    auto t = catalog::BenchmarkSchemas::Read(setup_.tables);
    if (!t) return t.error();
    tables_ = std::move(*t);
  }
  auto& db = dbs_[q.db_id];
  if (!db) {
    std::string file = setup_.db_dir.empty() ? "" : SqliteDatabasePath(setup_.db_dir, q.db_id);
    // Keys inferred as `plainsql link` infers them by default: those of the tables no declared key touches.
    linking::InferKeysOptions infer;
    infer.mode = linking::KeyInferenceMode::kIsolated;
    auto opened =
        linking::OpenSubsetDatabase(*tables_, q.db_id, file, catalog::DataDictionaryIn(setup_.db_dir, q.db_id),
                                    setup_.source.value, setup_.resources, nullptr, &infer);
    if (!opened) return opened.error();
    db = std::move(*opened);
  }
  auto subset = db->subsetter->Select(q.question, {});
  if (!subset) return subset.error();
  std::vector<std::string> names = subset->tables;
  names.insert(names.end(), subset->columns.begin(), subset->columns.end());
  return Names(std::move(names));
}

}  // namespace plainsql::eval
