// The features of a benchmark's questions: their databases opened once each (the schema from a tables.json, else
// introspected from a SQLite file of a Spider-style folder, whose stored values are indexed too).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "catalog/benchmark_schema.h"
#include "common/status.h"
#include "eval/benchmark.h"
#include "features/estimator.h"
#include "features/extract.h"

namespace plainsql::exec {
class Connection;
}

namespace plainsql::features {

class BenchmarkFeatures {
 public:
  /// `tables`: a tables.json ("" for none); `db_dir`: a folder of SQLite databases ("" for none). One of them.
  static Result<std::unique_ptr<BenchmarkFeatures>> Open(const std::string& tables, const std::string& db_dir,
                                                         std::shared_ptr<const linking::LinkResources> resources);
  ~BenchmarkFeatures();

  /// The features of `q` (with its gold SQL when `with_sql`), its database opened on first use.
  Result<Extraction> Extract(const eval::Question& q, const sql::Dialect& dialect, bool with_sql);
  size_t Databases() const { return dbs_.size(); }
  /// The schema of an opened database as a list (catalog::RenderList), for a model judge; "" when not opened.
  std::string SchemaText(const std::string& db_id) const;

 private:
  struct Open_;
  BenchmarkFeatures(catalog::BenchmarkSchemas tables, std::string db_dir,
                    std::shared_ptr<const linking::LinkResources> resources);
  catalog::BenchmarkSchemas tables_;
  std::string db_dir_;
  Extractor extractor_;
  std::map<std::string, std::unique_ptr<Open_>> dbs_;
};

}  // namespace plainsql::features

namespace plainsql::eval {
struct RunInfo;
struct QuestionScore;
class QuestionEstimator;
}  // namespace plainsql::eval

namespace plainsql::features {

/// A correctness estimator for `eval run` (one per worker): each question's live features (its database opened once,
/// from `tables` or `db_dir`) read by `model`. A question whose schema cannot be read gets no estimate.
std::unique_ptr<eval::QuestionEstimator> MakeQuestionEstimator(std::shared_ptr<const Estimator> model,
                                                               const std::string& tables, const std::string& db_dir,
                                                               const std::string& dialect,
                                                               std::shared_ptr<const linking::LinkResources> resources);

/// The examples of a stored run: each question scored by execution (EX strict known) with its features, read from the
/// run's own questions file, tables and databases: the live ones (question and schema) for the correctness estimator,
/// with `with_sql` the gold SQL's too. `progress` (may be empty) is called with (done, total). `indices`, when given,
/// gets each example's question index.
Result<std::vector<EstimatorExample>> RunExamples(const eval::RunInfo& run,
                                                  const std::vector<eval::QuestionScore>& scores,
                                                  std::shared_ptr<const linking::LinkResources> resources,
                                                  const std::function<void(size_t, size_t)>& progress = {},
                                                  bool with_sql = false, std::vector<size_t>* indices = nullptr);

}  // namespace plainsql::features
