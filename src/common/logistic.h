// Two-class logistic regression, fitted by liblinear (Debian's liblinear-dev): the one place plainsql calls liblinear
// for a yes/no model (the reading scorer and its ranking, the shape model, the subsetter's linker model). Inputs are
// sparse; the optional bias is one more input of value 1, regularised like the weights, as liblinear does it.
#pragma once

#include <utility>
#include <vector>

namespace plainsql {

/// One example: (input index, value) pairs, indices 1..inputs, ascending.
using SparseRow = std::vector<std::pair<int, double>>;

enum class Regularization { kL2, kL1 };  // liblinear's L2R_LR and L1R_LR (L1 leaves most weights at 0)

struct LogisticFit {
  std::vector<double> weights;  // per input, weights[i - 1] for index i; for the label +1
  double bias = 0;
};

struct LogisticOptions {
  double c = 1.0;  // inverse regularisation
  Regularization regularization = Regularization::kL2;
  double eps = 0.001;  // liblinear's stopping tolerance
  bool bias = true;
};

/// Fits `rows` against `labels` (+1 or -1 each). When only one label occurs there is nothing to learn: all weights and
/// the bias are 0.
LogisticFit FitLogistic(const std::vector<SparseRow>& rows, const std::vector<double>& labels, int inputs,
                        const LogisticOptions& options);

}  // namespace plainsql
