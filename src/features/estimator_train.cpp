// Fitting the correctness estimator.
#include "features/estimator_train.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "common/hash.h"

namespace plainsql::features {

namespace {

Result<Estimator> Fit(const std::vector<const EstimatorExample*>& examples, const std::vector<size_t>& inputs,
                      const EstimatorOptions& options) {
  std::vector<std::vector<double>> rows;
  std::vector<double> labels;
  for (const auto* e : examples) {
    std::vector<double> x;
    x.reserve(inputs.size());
    for (size_t i : inputs) x.push_back(e->values[i] == 1 ? 1.0 : 0.0);
    rows.push_back(std::move(x));
    labels.push_back(e->right ? 1.0 : 0.0);
  }
  auto trees = FitBoostedTrees(rows, labels, options.boosting);
  if (!trees) return trees.error();
  Estimator model;
  model.system = options.system;
  model.inputs = inputs;
  model.trees = std::move(*trees);
  return model;
}

}  // namespace

Result<EstimatorFit> FitEstimator(const std::vector<EstimatorExample>& examples, const EstimatorOptions& options) {
  if (examples.size() < 50) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("{} scored examples: too few to fit an estimator (50 at least)", examples.size()));
  }
  const std::vector<size_t> inputs = LiveFeatures();
  std::vector<const EstimatorExample*> all, train, held;
  for (const auto& e : examples) {
    all.push_back(&e);
    // A database's questions go one way: the held-out figures are for databases the fit never saw.
    const bool out = options.validation > 0 && static_cast<double>(Hash64(e.db_id) % 1000) < options.validation * 1000;
    (out ? held : train).push_back(&e);
  }
  EstimatorFit fit;
  fit.train = train.size();
  fit.held_out = held.size();
  if (!held.empty() && !train.empty()) {
    auto partial = Fit(train, inputs, options);
    if (!partial) return partial.error();
    std::vector<double> p;
    std::vector<bool> right;
    double hits = 0;
    for (const auto* e : held) {
      p.push_back(partial->Probability(e->values));
      right.push_back(e->right);
      hits += e->right ? 1 : 0;
    }
    fit.held_out_accuracy = hits / static_cast<double>(held.size());
    fit.auc = RocAuc(p, right);
    fit.ece = CalibrationError(p, right);
    // Permutation importance: each input's values shuffled among the held-out examples (a fixed seed).
    std::mt19937_64 rng(options.boosting.seed);
    for (size_t j = 0; j < inputs.size(); ++j) {
      std::vector<size_t> perm(held.size());
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng);
      std::vector<double> q;
      for (size_t k = 0; k < held.size(); ++k) {
        Values v = held[k]->values;
        v[inputs[j]] = held[perm[k]]->values[inputs[j]];
        q.push_back(partial->Probability(v));
      }
      const double drop = fit.auc - RocAuc(q, right);
      if (drop > 0) fit.importance.emplace_back(inputs[j], drop);
    }
    std::sort(fit.importance.begin(), fit.importance.end(),
              [](const auto& a, const auto& b) { return a.second > b.second; });
  }
  if (options.folds >= 2) {
    const auto folds = static_cast<uint64_t>(options.folds);
    std::vector<double> p(all.size(), 0);
    std::vector<bool> right(all.size());
    for (size_t i = 0; i < all.size(); ++i) right[i] = all[i]->right;
    for (uint64_t f = 0; f < folds; ++f) {
      std::vector<const EstimatorExample*> rest;
      std::vector<size_t> out;
      for (size_t i = 0; i < all.size(); ++i) {
        if (Hash64(all[i]->db_id) % folds == f) {
          out.push_back(i);
        } else {
          rest.push_back(all[i]);
        }
      }
      if (out.empty() || rest.empty()) continue;
      auto partial = Fit(rest, inputs, options);
      if (!partial) return partial.error();
      for (size_t i : out) p[i] = partial->Probability(all[i]->values);
    }
    fit.folds = options.folds;
    fit.cv_auc = RocAuc(p, right);
    fit.cv_ece = CalibrationError(p, right);
  }
  auto model = Fit(all, inputs, options);
  if (!model) return model.error();
  fit.model = std::move(*model);
  return fit;
}

namespace {

std::string CrossValidationLine(const EstimatorFit& fit) {
  return fmt::format("cross-validated over {} folds of databases: ROC AUC {:.4f}, ECE {:.4f}", fit.folds, fit.cv_auc,
                     fit.cv_ece);
}

}  // namespace

std::string FitFigures(const EstimatorFit& fit) {
  std::string out =
      fmt::format("held-out databases ({} examples): ROC AUC {:.4f}, ECE {:.4f}", fit.held_out, fit.auc, fit.ece);
  if (fit.folds >= 2) out += "\n" + CrossValidationLine(fit);
  return out;
}

std::string FitText(const EstimatorFit& fit, size_t top) {
  std::string out =
      fmt::format("fitted on {} examples; held-out databases: {} examples", fit.train + fit.held_out, fit.held_out);
  if (fit.held_out > 0) {
    out += fmt::format(" (right {:.3f}): ROC AUC {:.4f}, ECE {:.4f} (a model fitted on the other {})\n",
                       fit.held_out_accuracy, fit.auc, fit.ece, fit.train);
    out += "most important features (held-out AUC lost when shuffled):\n";
    for (size_t i = 0; i < fit.importance.size() && i < top; ++i) {
      const auto& f = Catalog()[fit.importance[i].first];
      out += fmt::format("  {:<28} {:.4f}  {}\n", f.id, fit.importance[i].second, f.text);
    }
  } else {
    out += "\n";
  }
  if (fit.folds >= 2) out += CrossValidationLine(fit) + "\n";
  return out;
}

}  // namespace plainsql::features
