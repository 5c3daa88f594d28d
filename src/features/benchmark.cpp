// The features of a benchmark's questions, databases opened once each.
#include "features/benchmark.h"

#include <fmt/format.h>

#include "catalog/introspect.h"
#include "catalog/render.h"
#include "eval/runner.h"
#include "eval/runs.h"
#include "exec/connection.h"
#include "features/estimator.h"
#include "features/estimator_train.h"

namespace plainsql::features {

struct BenchmarkFeatures::Open_ {
  std::unique_ptr<exec::Connection> conn;
  std::unique_ptr<Database> db;
};

BenchmarkFeatures::BenchmarkFeatures(catalog::BenchmarkSchemas tables, std::string db_dir,
                                     std::shared_ptr<const linking::LinkResources> resources)
    : tables_(std::move(tables)), db_dir_(std::move(db_dir)), extractor_(std::move(resources)) {}

BenchmarkFeatures::~BenchmarkFeatures() = default;

Result<std::unique_ptr<BenchmarkFeatures>> BenchmarkFeatures::Open(
    const std::string& tables, const std::string& db_dir, std::shared_ptr<const linking::LinkResources> resources) {
  if (tables.empty() && db_dir.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, "give --tables (the schemas) or --db-dir (SQLite databases)");
  }
  auto schemas = catalog::BenchmarkSchemas::Read(tables);
  if (!schemas) return schemas.error();
  return std::unique_ptr<BenchmarkFeatures>(new BenchmarkFeatures(std::move(*schemas), db_dir, std::move(resources)));
}

std::string BenchmarkFeatures::SchemaText(const std::string& db_id) const {
  auto it = dbs_.find(db_id);
  return it == dbs_.end() || !it->second->db ? "" : catalog::RenderList(it->second->db->schema);
}

Result<Extraction> BenchmarkFeatures::Extract(const eval::Question& q, const sql::Dialect& dialect, bool with_sql) {
  auto& open = dbs_[q.db_id];
  if (!open) {
    open = std::make_unique<Open_>();
    const std::string file = db_dir_.empty() ? "" : eval::SqliteDatabasePath(db_dir_, q.db_id);
    std::optional<catalog::Schema> schema;
    if (!tables_.Empty()) {
      if (auto s = tables_.Get(q.db_id)) schema = std::move(*s);
    }
    if (!file.empty()) {
      if (auto c = exec::Connect(file)) open->conn = std::move(*c);
      if (open->conn && !schema) {
        catalog::IntrospectOptions options;
        options.samples = 0;
        if (auto s = catalog::Introspect(*open->conn, options)) schema = std::move(*s);
      }
    }
    if (!schema) {
      dbs_.erase(q.db_id);
      return MakeError(
          ErrorCode::kNotFound,
          fmt::format("no schema for database '{}' (not in --tables, no SQLite file in --db-dir)", q.db_id));
    }
    open->db = extractor_.Prepare(std::move(*schema), open->conn.get());
  }
  return extractor_.Extract({q.question, q.evidence, with_sql ? q.gold_sql : ""}, open->db.get(), dialect);
}

}  // namespace plainsql::features

namespace plainsql::features {

Result<std::vector<EstimatorExample>> RunExamples(const eval::RunInfo& run,
                                                  const std::vector<eval::QuestionScore>& scores,
                                                  std::shared_ptr<const linking::LinkResources> resources,
                                                  const std::function<void(size_t, size_t)>& progress, bool with_sql,
                                                  std::vector<size_t>* indices) {
  auto benchmark = eval::LoadBenchmark(run.spec.benchmark, run.spec.questions);
  if (!benchmark) {
    return MakeError(benchmark.error().code, fmt::format("run {}: its questions ({}): {}", run.id, run.spec.questions,
                                                         benchmark.error().message));
  }
  auto dialect = sql::DialectByName(benchmark->dialect);
  if (!dialect) return MakeError(ErrorCode::kInvalidArgument, "unknown dialect " + benchmark->dialect);
  auto opened = BenchmarkFeatures::Open(run.spec.tables, run.spec.db_dir, std::move(resources));
  if (!opened) return opened.error();
  std::vector<EstimatorExample> out;
  size_t done = 0;
  for (const auto& s : scores) {
    if (progress) progress(++done, scores.size());
    if (!s.ex_strict || s.index >= benchmark->questions.size()) continue;
    const eval::Question& q = benchmark->questions[s.index];
    auto got = (*opened)->Extract(q, **dialect, with_sql);
    if (!got) continue;  // a database without a schema: nothing to read
    out.push_back({std::move(got->values), *s.ex_strict, q.db_id});
    if (indices) indices->push_back(s.index);
  }
  return out;
}

namespace {

class FeatureEstimator : public eval::QuestionEstimator {
 public:
  FeatureEstimator(std::shared_ptr<const Estimator> model, std::unique_ptr<BenchmarkFeatures> features,
                   const sql::Dialect& dialect)
      : model_(std::move(model)), features_(std::move(features)), dialect_(dialect) {}
  std::optional<double> Estimate(const eval::Question& q) override {
    auto got = features_->Extract(q, dialect_, false);
    if (!got) return std::nullopt;
    return model_->Probability(got->values);
  }

 private:
  std::shared_ptr<const Estimator> model_;
  std::unique_ptr<BenchmarkFeatures> features_;
  const sql::Dialect& dialect_;
};

}  // namespace

std::unique_ptr<eval::QuestionEstimator> MakeQuestionEstimator(
    std::shared_ptr<const Estimator> model, const std::string& tables, const std::string& db_dir,
    const std::string& dialect, std::shared_ptr<const linking::LinkResources> resources) {
  auto features = BenchmarkFeatures::Open(tables, db_dir, std::move(resources));
  auto d = sql::DialectByName(dialect);
  if (!features || !d) return nullptr;
  return std::make_unique<FeatureEstimator>(std::move(model), std::move(*features), **d);
}

}  // namespace plainsql::features
