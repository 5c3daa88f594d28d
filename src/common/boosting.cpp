#include "common/boosting.h"

#include <fmt/format.h>
#include <xgboost/c_api.h>

#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace plainsql {

namespace {

// XGBoost's handles, freed on every path.
struct DMatrixDeleter {
  void operator()(void* h) const { XGDMatrixFree(h); }
};
struct BoosterDeleter {
  void operator()(void* h) const { XGBoosterFree(h); }
};

Error XgbError(const std::string& what) {
  return MakeError(ErrorCode::kInternal, fmt::format("XGBoost: {}: {}", what, XGBGetLastError()));
}

// The JSON model XGBoost saves (learner.gradient_booster.model.trees; a leaf's value is in split_conditions) as trees.
Result<TreeEnsemble> FromJson(const nlohmann::json& model) {
  TreeEnsemble out;
  const auto& learner = model.at("learner");
  const double base_score = std::stod(learner.at("learner_model_param").at("base_score").get<std::string>());
  if (base_score <= 0 || base_score >= 1) return MakeError(ErrorCode::kInternal, "XGBoost: base score out of (0, 1)");
  out.base_margin = std::log(base_score / (1 - base_score));
  for (const auto& tree : learner.at("gradient_booster").at("model").at("trees")) {
    const auto& left = tree.at("left_children");
    const auto& right = tree.at("right_children");
    const auto& index = tree.at("split_indices");
    const auto& condition = tree.at("split_conditions");
    std::vector<TreeNode> nodes(left.size());
    for (size_t n = 0; n < nodes.size(); ++n) {
      const int l = left[n].get<int>();
      nodes[n].value = condition[n].get<float>();
      if (l < 0) continue;  // a leaf
      nodes[n].feature = index[n].get<int>();
      nodes[n].threshold = condition[n].get<float>();
      nodes[n].left = l;
      nodes[n].right = right[n].get<int>();
      nodes[n].value = 0;
    }
    out.trees.push_back(std::move(nodes));
  }
  if (Status s = out.Check(); !s) return s.error();
  return out;
}

}  // namespace

Result<TreeEnsemble> FitBoostedTrees(const std::vector<std::vector<double>>& rows, const std::vector<double>& labels,
                                     const BoostingOptions& options) {
  if (rows.empty() || rows.size() != labels.size()) {
    return MakeError(ErrorCode::kInvalidArgument, "boosting: no rows, or not one label per row");
  }
  const size_t width = rows[0].size();
  std::vector<float> data;
  data.reserve(rows.size() * width);
  for (const auto& r : rows) {
    if (r.size() != width) return MakeError(ErrorCode::kInvalidArgument, "boosting: rows of different widths");
    for (double v : r) data.push_back(static_cast<float>(v));
  }
  std::vector<float> y(labels.begin(), labels.end());
  DMatrixHandle raw_matrix = nullptr;
  if (XGDMatrixCreateFromMat(data.data(), rows.size(), width, NAN, &raw_matrix) != 0) return XgbError("data");
  std::unique_ptr<void, DMatrixDeleter> matrix(raw_matrix);
  if (XGDMatrixSetFloatInfo(raw_matrix, "label", y.data(), y.size()) != 0) return XgbError("labels");
  BoosterHandle raw_booster = nullptr;
  if (XGBoosterCreate(&raw_matrix, 1, &raw_booster) != 0) return XgbError("booster");
  std::unique_ptr<void, BoosterDeleter> booster(raw_booster);
  const std::vector<std::pair<std::string, std::string>> params = {
      {"objective", "binary:logistic"},
      {"base_score", "0.5"},
      {"tree_method", "hist"},
      {"max_depth", std::to_string(options.max_depth)},
      {"eta", fmt::format("{}", options.eta)},
      {"subsample", fmt::format("{}", options.subsample)},
      {"colsample_bytree", fmt::format("{}", options.colsample)},
      {"seed", std::to_string(options.seed)},
      {"nthread", std::to_string(options.threads)},
      {"verbosity", "0"},
  };
  for (const auto& [k, v] : params) {
    if (XGBoosterSetParam(raw_booster, k.c_str(), v.c_str()) != 0) return XgbError("parameter " + k);
  }
  for (int round = 0; round < options.rounds; ++round) {
    if (XGBoosterUpdateOneIter(raw_booster, round, raw_matrix) != 0) return XgbError("training");
  }
  bst_ulong length = 0;
  const char* buffer = nullptr;
  if (XGBoosterSaveModelToBuffer(raw_booster, R"({"format": "json"})", &length, &buffer) != 0) {
    return XgbError("saving the model");
  }
  auto json = nlohmann::json::parse(std::string(buffer, length), nullptr, false);
  if (json.is_discarded()) return MakeError(ErrorCode::kInternal, "XGBoost: its saved model is not JSON");
  try {
    return FromJson(json);
  } catch (const nlohmann::json::exception& e) {
    return MakeError(ErrorCode::kInternal, fmt::format("XGBoost: unexpected model layout: {}", e.what()));
  }
}

}  // namespace plainsql
