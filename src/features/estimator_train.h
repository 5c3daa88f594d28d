// Fitting the correctness estimator on a system's outcomes (XGBoost through common/boosting.h: trainers only), with a
// validation split by database, ranking and calibration metrics, and permutation importances.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/boosting.h"
#include "common/status.h"
#include "features/estimator.h"

namespace plainsql::features {

struct EstimatorOptions {
  std::string system;
  BoostingOptions boosting{.rounds = 150, .max_depth = 3, .eta = 0.1};
  double validation = 0.2;  // share of the databases held out (by a hash of the name) to report on; 0: none
  int folds = 5;            // cross-validation over this many folds of databases (by the hash); below 2: none
};

struct EstimatorFit {
  Estimator model;  // fitted on every example
  size_t train = 0, held_out = 0;
  double held_out_accuracy = 0, auc = 0, ece = 0;  // on the held-out databases, by a model fitted without them
  /// On the held-out databases: how much the AUC falls when a feature's values are shuffled among them (Breiman's
  /// permutation importance), largest first.
  std::vector<std::pair<size_t, double>> importance;
  /// Cross-validated over folds of databases (each example's probability from the model fitted without its fold):
  /// a steadier figure than one held-out share, for choosing features and settings.
  int folds = 0;
  double cv_auc = 0, cv_ece = 0;
};

Result<EstimatorFit> FitEstimator(const std::vector<EstimatorExample>& examples, const EstimatorOptions& options);

/// The fit's figures in lines (held-out AUC and ECE, and the cross-validated ones), for a model file's header.
std::string FitFigures(const EstimatorFit& fit);

/// A report of the fit: sizes, held-out AUC and ECE, the most important features.
std::string FitText(const EstimatorFit& fit, size_t top = 12);

}  // namespace plainsql::features
