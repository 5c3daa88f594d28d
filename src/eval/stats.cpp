// Statistics over a run (see stats.h).
#include "eval/stats.h"

#include <algorithm>
#include <array>
#include <map>

#include "eval/metrics.h"

namespace plainsql::eval {

namespace {

nlohmann::ordered_json RateJson(const std::vector<double>& outcomes) {
  nlohmann::ordered_json j = {{"n", outcomes.size()}};
  if (outcomes.empty()) {
    j["value"] = nullptr;
    return j;
  }
  double sum = 0;
  for (double v : outcomes) sum += v;
  j["value"] = sum / static_cast<double>(outcomes.size());
  Interval ci = BootstrapInterval(outcomes);
  j["ci95"] = {ci.low, ci.high};
  return j;
}

}  // namespace

nlohmann::ordered_json RunStatistics(const std::vector<QuestionScore>& scores,
                                     const naturalness::Classifier& classifier, const ShownName& shown) {
  std::vector<double> strict, relaxed, jaccard, em;
  for (const auto& s : scores) {
    em.push_back(s.em ? 1 : 0);
    if (!s.ex_strict) continue;
    strict.push_back(*s.ex_strict ? 1 : 0);
    relaxed.push_back(s.ex_relaxed.value_or(false) ? 1 : 0);
    jaccard.push_back(s.ex_jaccard.value_or(false) ? 1 : 0);
  }
  nlohmann::ordered_json out;
  out["ex_strict"] = RateJson(strict);
  out["ex_relaxed"] = RateJson(relaxed);
  out["ex_jaccard"] = RateJson(jaccard);
  out["em"] = RateJson(em);

  // Each name as the system saw it: the identifier's own last part, or its name at the run's level.
  auto name_of = [&](const std::string& db_id, const std::string& id) {
    if (shown) return shown(db_id, id);
    size_t dot = id.find('.');
    return dot == std::string::npos ? id : id.substr(dot + 1);
  };
  std::vector<double> naturalness, success;
  // Per question: the share of its gold identifiers at each level, and its outcomes (SNAILS' Figures 9-12).
  std::array<std::vector<double>, 3> shares;
  std::vector<double> query_recall, query_precision, query_f1;
  std::map<std::string, std::vector<double>> by_level;
  for (const auto& s : scores) {
    if (!s.ex_strict || s.gold_identifiers.empty()) continue;
    double sum = 0;
    int least = 0;
    std::array<double, 3> count{};
    for (const auto& id : s.gold_identifiers) {
      naturalness::Prediction p = classifier.Classify(name_of(s.db_id, id));
      sum += p.p[0] + 0.5 * p.p[1];
      least = std::max(least, naturalness::LevelIndex(p.level));
      count[static_cast<size_t>(naturalness::LevelIndex(p.level))] += 1;
    }
    const auto n = static_cast<double>(s.gold_identifiers.size());
    naturalness.push_back(sum / n);
    for (size_t l = 0; l < 3; ++l) shares[l].push_back(count[l] / n);
    success.push_back(*s.ex_strict ? 1 : 0);
    query_recall.push_back(s.linking.recall);
    query_precision.push_back(s.linking.precision);
    query_f1.push_back(s.linking.f1);
    by_level[std::string(naturalness::LevelName(naturalness::kLevels[static_cast<size_t>(least)]))].push_back(
        *s.ex_strict ? 1 : 0);
  }
  auto tau_json = [](const std::vector<double>& x, const std::vector<double>& y) {
    KendallResult k = KendallTau(x, y);
    nlohmann::ordered_json j = {{"kendall_tau", nullptr}, {"p_value", nullptr}};
    if (k.defined) {
      j["kendall_tau"] = k.tau;
      j["p_value"] = k.p_value;
    }
    return j;
  };
  nlohmann::ordered_json n = {{"questions", naturalness.size()}};
  n.update(tau_json(naturalness, success));
  n["by_least_level"] = nlohmann::ordered_json::object();
  for (const char* level : {"Regular", "Low", "Least"}) {
    if (by_level.count(level)) n["by_least_level"][level] = RateJson(by_level[level]);
  }
  n["shares"] = nlohmann::ordered_json::object();
  for (size_t l = 0; l < 3; ++l) {
    n["shares"][std::string(naturalness::LevelName(naturalness::kLevels[l]))] = {
        {"ex_strict", tau_json(shares[l], success)},
        {"query_recall", tau_json(shares[l], query_recall)},
        {"query_precision", tau_json(shares[l], query_precision)},
        {"query_f1", tau_json(shares[l], query_f1)}};
  }
  out["naturalness"] = n;

  // IdentifierRecall by the naturalness level of each native identifier's name (SNAILS).
  std::map<std::string, std::vector<double>> recall_by_level;
  std::vector<double> all_recalls;
  for (const auto& r : IdentifierRecalls(scores)) {
    const std::string name = name_of(r.db_id, r.identifier);
    recall_by_level[std::string(naturalness::LevelName(classifier.Classify(name).level))].push_back(r.Recall());
    all_recalls.push_back(r.Recall());
  }
  auto mean_of = [](const std::vector<double>& v) -> nlohmann::ordered_json {
    nlohmann::ordered_json j = {{"identifiers", v.size()}, {"mean", nullptr}};
    if (v.empty()) return j;
    double sum = 0;
    for (double x : v) sum += x;
    j["mean"] = sum / static_cast<double>(v.size());
    return j;
  };
  nlohmann::ordered_json ir = mean_of(all_recalls);
  ir["by_level"] = nlohmann::ordered_json::object();
  for (const char* level : {"Regular", "Low", "Least"}) {
    if (recall_by_level.count(level)) ir["by_level"][level] = mean_of(recall_by_level[level]);
  }
  out["identifier_recall"] = ir;

  // Cost per stage, stages in the order they first appear.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const StageCost*>> by_stage;
  for (const auto& s : scores) {
    for (const auto& c : s.stages) {
      if (!by_stage.count(c.stage)) order.push_back(c.stage);
      by_stage[c.stage].push_back(&c);
    }
  }
  nlohmann::ordered_json stages = nlohmann::ordered_json::object();
  for (const auto& name : order) {
    const auto& costs = by_stage[name];
    std::vector<double> ms;
    ms.reserve(costs.size());
    int64_t prompt = 0, completion = 0;
    for (const StageCost* c : costs) {
      ms.push_back(c->ms);
      prompt += c->prompt_tokens;
      completion += c->completion_tokens;
    }
    std::sort(ms.begin(), ms.end());
    double total = 0;
    for (double x : ms) total += x;
    auto pct = [&](double q) { return ms[static_cast<size_t>(q * static_cast<double>(ms.size() - 1))]; };
    stages[name] = {{"questions", costs.size()}, {"median_ms", pct(0.5)},   {"p90_ms", pct(0.9)},
                    {"total_ms", total},         {"prompt_tokens", prompt}, {"completion_tokens", completion}};
  }
  out["stages"] = stages;
  return out;
}

}  // namespace plainsql::eval
