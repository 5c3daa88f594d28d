// Fitting the shape model (shape.h) and the out-of-fold shape features of the reading scorer's training rows.
#include <algorithm>
#include <map>
#include <set>

#include "builtin/train.h"
#include "common/logistic.h"

namespace plainsql::builtin {

ShapeModel FitShapeModel(const std::vector<std::vector<std::string>>& masked_words, const std::vector<Shape>& shapes,
                         double c, size_t min_questions) {
  // The inputs kept, numbered in byte order so the same questions always give the same problem.
  std::vector<std::vector<std::string>> inputs;
  inputs.reserve(masked_words.size());
  std::map<std::string, size_t> seen;
  for (const auto& words : masked_words) {
    inputs.push_back(ShapeInputs(words));
    for (const auto& input : inputs.back()) ++seen[input];
  }
  std::map<std::string, int> index;
  std::vector<std::string> names;
  for (const auto& [input, n] : seen) {
    if (n < min_questions) continue;
    index.emplace(input, static_cast<int>(names.size()) + 1);
    names.push_back(input);
  }
  const int n = static_cast<int>(names.size());
  std::vector<SparseRow> rows;
  rows.reserve(inputs.size());
  for (const auto& row : inputs) {
    SparseRow x;
    for (const auto& input : row) {
      if (auto it = index.find(input); it != index.end()) x.emplace_back(it->second, 1.0);
    }
    std::sort(x.begin(), x.end());
    rows.push_back(std::move(x));
  }
  std::unordered_map<std::string, std::array<double, kShapePropertyCount>> weights;
  std::array<double, kShapePropertyCount> bias{};
  for (size_t p = 0; p < kShapePropertyCount; ++p) {
    std::vector<double> y;
    y.reserve(shapes.size());
    for (const Shape& s : shapes) y.push_back(s[p] ? 1.0 : -1.0);
    const auto positive = std::count(y.begin(), y.end(), 1.0);
    if (positive == 0 || positive == static_cast<std::ptrdiff_t>(y.size())) {
      // One value only: the bias says it, as far as a logistic function can.
      bias[p] = positive == 0 ? -7.0 : 7.0;
      continue;
    }
    const LogisticFit fit =
        plainsql::FitLogistic(rows, y, n, {.c = c, .regularization = Regularization::kL1, .eps = 0.01, .bias = true});
    for (int f = 1; f <= n; ++f) {
      const double w = fit.weights[static_cast<size_t>(f - 1)];
      if (w != 0) weights[names[static_cast<size_t>(f - 1)]][p] = w;
    }
    bias[p] = fit.bias;
  }
  return {std::move(weights), bias};
}

ShapeModel FitShapeModelOn(const Collected& data, const std::function<bool(size_t question)>& keep, double c) {
  std::vector<std::vector<std::string>> words;
  std::vector<Shape> shapes;
  for (size_t q = 0; q < data.gold_shapes.size(); ++q) {
    if (!data.gold_shapes[q] || !keep(q)) continue;
    words.push_back(data.masked_words[q]);
    shapes.push_back(*data.gold_shapes[q]);
  }
  return FitShapeModel(words, shapes, c);
}

void SetOutOfFoldShapeFeatures(Collected& data, const std::vector<int>& fold_of, double c) {
  std::set<int> folds(fold_of.begin(), fold_of.end());
  folds.insert(-1);
  for (int k : folds) {
    const ShapeModel model = FitShapeModelOn(
        data, [&](size_t q) { return fold_of[q] >= 0 && fold_of[q] != k; }, c);
    std::map<size_t, ShapePrediction> predicted;
    for (ScorerRow& row : data.rows) {
      if (fold_of[row.question] != k) continue;
      auto it = predicted.find(row.question);
      if (it == predicted.end())
        it = predicted.emplace(row.question, model.Predict(data.masked_words[row.question])).first;
      SetShapeFeatures(row.features, row.shape, it->second);
    }
  }
}

}  // namespace plainsql::builtin
