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

// The last part of an identifier as the system saw it.
std::string ShownOrOwn(const ShownName& shown, const std::string& db_id, const std::string& id) {
  if (shown) return shown(db_id, id);
  const size_t dot = id.find('.');
  return dot == std::string::npos ? id : id.substr(dot + 1);
}

}  // namespace

nlohmann::ordered_json KendallJson(const std::vector<double>& x, const std::vector<double>& y) {
  KendallResult k = KendallTau(x, y);
  nlohmann::ordered_json j = {{"kendall_tau", nullptr}, {"p_value", nullptr}};
  if (k.defined) {
    j["kendall_tau"] = k.tau;
    j["p_value"] = k.p_value;
  }
  return j;
}

bool LevelShares::Add(const QuestionScore& s, const naturalness::Classifier& classifier, const ShownName& shown) {
  if (!s.ex_strict || s.gold_identifiers.empty()) return false;
  double sum = 0;
  least = 0;
  std::array<double, 3> count{};
  for (const auto& id : s.gold_identifiers) {
    naturalness::Prediction p = classifier.Classify(ShownOrOwn(shown, s.db_id, id));
    sum += p.p[0] + 0.5 * p.p[1];
    least = std::max(least, naturalness::LevelIndex(p.level));
    count[static_cast<size_t>(naturalness::LevelIndex(p.level))] += 1;
  }
  const auto n = static_cast<double>(s.gold_identifiers.size());
  naturalness.push_back(sum / n);
  for (size_t l = 0; l < 3; ++l) shares[l].push_back(count[l] / n);
  ex.push_back(*s.ex_strict ? 1 : 0);
  recall.push_back(s.linking.recall);
  precision.push_back(s.linking.precision);
  f1.push_back(s.linking.f1);
  return true;
}

nlohmann::ordered_json LevelShares::Tau() const {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (size_t l = 0; l < 3; ++l) {
    out[std::string(naturalness::LevelName(naturalness::kLevels[l]))] = {
        {"ex_strict", KendallJson(shares[l], ex)},
        {"query_recall", KendallJson(shares[l], recall)},
        {"query_precision", KendallJson(shares[l], precision)},
        {"query_f1", KendallJson(shares[l], f1)}};
  }
  return out;
}

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

  LevelShares levels;
  std::map<std::string, std::vector<double>> by_level;
  for (const auto& s : scores) {
    if (!levels.Add(s, classifier, shown)) continue;
    by_level[std::string(naturalness::LevelName(naturalness::kLevels[static_cast<size_t>(levels.least)]))].push_back(
        *s.ex_strict ? 1 : 0);
  }
  nlohmann::ordered_json n = {{"questions", levels.naturalness.size()}};
  n.update(KendallJson(levels.naturalness, levels.ex));
  n["by_least_level"] = nlohmann::ordered_json::object();
  for (const char* level : {"Regular", "Low", "Least"}) {
    if (by_level.count(level)) n["by_least_level"][level] = RateJson(by_level[level]);
  }
  n["shares"] = levels.Tau();
  out["naturalness"] = n;

  // IdentifierRecall by the naturalness level of each native identifier's name (SNAILS).
  std::map<std::string, std::vector<double>> recall_by_level;
  std::vector<double> all_recalls;
  for (const auto& r : IdentifierRecalls(scores)) {
    const std::string name = ShownOrOwn(shown, r.db_id, r.identifier);
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
