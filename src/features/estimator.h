// The correctness estimator (SQLSpace §6): before a system answers, the probability that it will answer right, from
// the question's features and its schema's (never the SQL's: there is none yet), and the features of the question
// that lower it most (what a user could rewrite). Gradient-boosted trees fitted on a stored run's outcomes
// (estimator_train.h); the library evaluates them itself.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "common/trees.h"
#include "features/values.h"

namespace plainsql::features {

/// One question of a run: its features and whether the system answered it right.
struct EstimatorExample {
  Values values;
  bool right = false;
  std::string db_id;
};

/// The features an estimator may read: the derived ones that need only the question or the question and its schema.
std::vector<size_t> LiveFeatures();

class Estimator {
 public:
  /// The probability of a right answer for an example's values (features it does not read are ignored; an unknown
  /// one reads as 0).
  double Probability(const Values& values) const;

  /// The features that hold for the example and lower its probability most: for each, the probability with it
  /// removed minus the probability as it is (positive: the feature hurts), largest first, at most `k`, only those
  /// above `min_gain`.
  std::vector<std::pair<size_t, double>> Hurting(const Values& values, size_t k = 3, double min_gain = 0.02) const;

  /// The text form: "# comment" lines, "system<TAB>name", "input<TAB>feature id" lines in input order, then the
  /// trees (TreeEnsemble::Serialize with prefix "tree").
  std::string Serialize(const std::string& comment) const;
  /// Reads the text form; an input not in the catalog is an error (a model of another version).
  static Result<Estimator> Parse(const std::string& text);
  /// Reads a model file.
  static Result<Estimator> Load(const std::string& path);
  /// The estimator for the built-in translator compiled into the library (data/estimator_builtin.tsv).
  static const Estimator& Shipped();

  std::string system;            // the system whose outcomes it was fitted on ("builtin", a run's system)
  std::vector<size_t> inputs;    // catalog indices, in input order
  plainsql::TreeEnsemble trees;  // over the inputs' values (0 or 1)

 private:
  std::vector<double> Row(const Values& values) const;
};

/// The area under the ROC curve of `p` for `right` (ties count half); 0.5 when either class is empty.
double RocAuc(const std::vector<double>& p, const std::vector<bool>& right);
/// Expected calibration error over `bins` equal-width bins of `p`.
double CalibrationError(const std::vector<double>& p, const std::vector<bool>& right, size_t bins = 10);

/// How well an estimator's probabilities fit a set of outcomes.
struct EstimatorReport {
  size_t examples = 0;
  double right = 0, mean_estimate = 0;  // shares
  double auc = 0.5, ece = 0;
  double right_more_confident = 0, right_less_confident = 0;  // right answers in the upper and lower half by estimate
};
EstimatorReport EvaluateEstimator(const Estimator& model, const std::vector<EstimatorExample>& examples);

/// An estimate as JSON: {"probability": p, "system": ..., "hurting": [{"feature", "text", "gain"}]}.
nlohmann::json EstimateJson(const Estimator& model, const Values& values);
/// One line: "estimated P(right) 0.42 before answering; lowered most by: has more than 12 words (+0.12 without), ..."
std::string EstimateText(const Estimator& model, const Values& values);

}  // namespace plainsql::features
