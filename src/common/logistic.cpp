// Two-class logistic regression through liblinear (see logistic.h).
#include "common/logistic.h"

#include <linear.h>

#include <algorithm>
#include <array>
#include <cstdlib>

namespace plainsql {

namespace {

void Quiet(const char*) {}

}  // namespace

LogisticFit FitLogistic(const std::vector<SparseRow>& rows, const std::vector<double>& labels, int inputs,
                        const LogisticOptions& options) {
  LogisticFit fit;
  fit.weights.assign(static_cast<size_t>(inputs), 0.0);
  const bool both = std::find(labels.begin(), labels.end(), 1.0) != labels.end() &&
                    std::find(labels.begin(), labels.end(), -1.0) != labels.end();
  if (!both) return fit;
  // liblinear's rows end with index -1; the bias is input inputs + 1.
  std::vector<std::vector<feature_node>> nodes;
  nodes.reserve(rows.size());
  for (const auto& row : rows) {
    std::vector<feature_node> x;
    x.reserve(row.size() + 2);
    for (const auto& [index, value] : row) x.push_back({index, value});
    if (options.bias) x.push_back({inputs + 1, 1.0});
    x.push_back({-1, 0});
    nodes.push_back(std::move(x));
  }
  std::vector<feature_node*> x;
  x.reserve(nodes.size());
  for (auto& row : nodes) x.push_back(row.data());
  std::vector<double> y = labels;
  problem prob{};
  prob.l = static_cast<int>(nodes.size());
  prob.n = options.bias ? inputs + 1 : inputs;
  prob.y = y.data();
  prob.x = x.data();
  prob.bias = -1;
  parameter param{};
  param.solver_type = options.regularization == Regularization::kL1 ? L1R_LR : L2R_LR;
  param.eps = options.eps;
  param.C = options.c;
  set_print_string_function(Quiet);
  // liblinear's solvers visit the inputs in an order drawn from rand(): seeded here, every fit of the same rows gives
  // the same model whatever the process fitted before it (training fits several models in turn).
  std::srand(1);
  model* lm = train(&prob, &param);
  std::array<int, 2> order{};
  get_labels(lm, order.data());
  const double sign = order[0] == 1 ? 1.0 : -1.0;  // liblinear's weights favour its first label
  for (int f = 1; f <= inputs; ++f) fit.weights[static_cast<size_t>(f - 1)] = sign * get_decfun_coef(lm, f, 0);
  if (options.bias) fit.bias = sign * get_decfun_coef(lm, inputs + 1, 0);
  free_and_destroy_model(&lm);
  return fit;
}

}  // namespace plainsql
