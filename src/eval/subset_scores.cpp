// Schema subsets scored in summary, overall and by size category (SKALPEL Table 3), and the subsets file (score.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/file.h"
#include "common/strings.h"
#include "eval/score.h"

namespace plainsql::eval {

namespace {

// The per-question metrics summed over a group, as JSON keys, in output order.
constexpr const char* kMeanKeys[] = {
    "sch_recall",         "perf_recall",         "sch_precision",        "sch_f1",     "relation_recall",
    "relation_precision", "attribute_recall",    "attribute_precision",  "proportion", "relation_f1",
    "attribute_f1",       "relation_proportion", "attribute_proportion", "tokens",     "schema_tokens"};

std::vector<double> Values(const SubsetResult& r) {
  const SubsetScores& s = r.scores;
  return {s.recall,
          s.perfect ? 1.0 : 0.0,
          s.precision,
          s.f1,
          s.relation_recall,
          s.relation_precision,
          s.attribute_recall,
          s.attribute_precision,
          s.proportion,
          s.relation_f1,
          s.attribute_f1,
          s.relation_proportion,
          s.attribute_proportion,
          static_cast<double>(r.tokens),
          static_cast<double>(r.schema_tokens)};
}

// Nearest-rank percentile of sorted values.
double Percentile(const std::vector<double>& sorted, double p) {
  size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

// One group of questions (all, or one size category).
struct Group {
  size_t questions = 0, scored = 0;
  std::vector<double> sums = std::vector<double>(std::size(kMeanKeys), 0.0);
  std::vector<double> ms;

  void Add(const SubsetResult& r) {
    ++questions;
    if (!r.scored) return;
    ++scored;
    std::vector<double> v = Values(r);
    for (size_t i = 0; i < v.size(); ++i) sums[i] += v[i];
    if (r.ms) ms.push_back(*r.ms);
  }

  void Fill(nlohmann::ordered_json& j) {
    j["questions"] = questions;
    j["scored"] = scored;
    for (size_t i = 0; i < sums.size(); ++i) {
      j[kMeanKeys[i]] = scored ? nlohmann::ordered_json(sums[i] / static_cast<double>(scored)) : nullptr;
    }
    nlohmann::ordered_json t = {{"timed", ms.size()}, {"mean", nullptr}, {"p50", nullptr}, {"p99", nullptr}};
    if (!ms.empty()) {
      std::sort(ms.begin(), ms.end());
      double sum = 0;
      for (double v : ms) sum += v;
      t["mean"] = sum / static_cast<double>(ms.size());
      t["p50"] = Percentile(ms, 0.50);
      t["p99"] = Percentile(ms, 0.99);
    }
    j["ms"] = std::move(t);
  }
};

nlohmann::ordered_json QuestionJson(const SubsetResult& r) {
  nlohmann::ordered_json q = {{"index", r.index}, {"db_id", r.db_id}, {"difficulty", r.difficulty}};
  if (!r.scored) {
    q["error"] = r.error;
    return q;
  }
  const SubsetScores& s = r.scores;
  q["sch_recall"] = s.recall;
  q["perfect"] = s.perfect;
  q["sch_precision"] = s.precision;
  q["sch_f1"] = s.f1;
  q["relation_recall"] = s.relation_recall;
  q["relation_precision"] = s.relation_precision;
  q["attribute_recall"] = s.attribute_recall;
  q["attribute_precision"] = s.attribute_precision;
  q["proportion"] = s.proportion;
  q["subset_size"] = r.subset_size;
  q["schema_size"] = r.schema_size;
  q["missing"] = r.missing;
  q["unknown"] = r.unknown;
  q["size"] = SizeCategoryName(r.size);
  q["schema_tables"] = r.schema_tables;
  q["schema_columns"] = r.schema_columns;
  q["subset_tables"] = r.subset_tables;
  q["subset_columns"] = r.subset_columns;
  q["relation_f1"] = s.relation_f1;
  q["attribute_f1"] = s.attribute_f1;
  q["relation_proportion"] = s.relation_proportion;
  q["attribute_proportion"] = s.attribute_proportion;
  q["tokens"] = r.tokens;
  q["schema_tokens"] = r.schema_tokens;
  q["ms"] = r.ms ? nlohmann::ordered_json(*r.ms) : nullptr;
  return q;
}

}  // namespace

nlohmann::ordered_json SubsetJson(const std::vector<SubsetResult>& results) {
  Group all;
  std::map<SizeCategory, Group> by_size;
  nlohmann::ordered_json questions = nlohmann::ordered_json::array();
  for (const auto& r : results) {
    all.Add(r);
    // A question that could not be scored has no known schema size: it counts in the overall total only.
    if (r.scored) by_size[r.size].Add(r);
    questions.push_back(QuestionJson(r));
  }
  nlohmann::ordered_json summary;
  all.Fill(summary);
  summary["by_size"] = nlohmann::ordered_json::object();
  for (SizeCategory c : kSizeCategories) {
    nlohmann::ordered_json g = {{"columns", SizeCategoryRange(c)}};
    by_size[c].Fill(g);
    summary["by_size"][std::string(SizeCategoryName(c))] = std::move(g);
  }
  return {{"summary", summary}, {"questions", questions}};
}

Result<std::vector<SubsetLine>> LoadSubsetLines(const std::string& path) {
  auto text = ReadFileToString(path);
  if (!text) return text.error();
  std::vector<SubsetLine> out;
  size_t line_no = 0;
  for (std::string line : Split(*text, '\n')) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (Trim(line).empty()) continue;
    auto bad = [&](std::string_view why) {
      return MakeError(ErrorCode::kFormat, fmt::format("{}:{}: {}", path, line_no, why));
    };
    nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return bad("not JSON");
    SubsetLine s;
    auto take = [&](const nlohmann::json& a) -> bool {
      if (!a.is_array()) return false;
      for (const auto& v : a) {
        if (!v.is_string()) return false;
        s.names.push_back(v.get<std::string>());
      }
      return true;
    };
    if (j.is_array()) {
      if (!take(j)) return bad("a subset is an array of table and column names");
    } else if (j.is_object()) {
      for (const char* key : {"tables", "columns"}) {
        if (j.contains(key) && !take(j[key])) return bad(fmt::format("\"{}\" must be an array of names", key));
      }
      if (j.contains("ms")) {
        if (!j["ms"].is_number()) return bad("\"ms\" must be a number (milliseconds)");
        s.ms = j["ms"].get<double>();
      }
    } else {
      return bad("a subset is an array of names or an object with \"tables\" and \"columns\"");
    }
    out.push_back(std::move(s));
  }
  return out;
}

Result<std::vector<std::vector<std::string>>> LoadSubsets(const std::string& path) {
  auto lines = LoadSubsetLines(path);
  if (!lines) return lines.error();
  std::vector<std::vector<std::string>> out;
  out.reserve(lines->size());
  for (auto& l : *lines) out.push_back(std::move(l.names));
  return out;
}

}  // namespace plainsql::eval
