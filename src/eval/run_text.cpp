// Runs and scores as text (see run_text.h).
#include "eval/run_text.h"

#include <fmt/format.h>

#include <array>
#include <utility>

#include "common/choice.h"
#include "common/csv.h"
#include "common/strings.h"
#include "eval/systems.h"

namespace plainsql::eval {

namespace {

constexpr std::array<Choice<ExportFormat>, 2> kExportFormats = {
    {{"jsonl", ExportFormat::kJsonl}, {"csv", ExportFormat::kCsv}}};

std::string CsvRow(const nlohmann::ordered_json& q, bool keys) {
  std::vector<std::string> cells;
  for (const auto& [k, v] : q.items()) {
    if (keys) {
      cells.push_back(k);
    } else {
      cells.push_back(CsvField(v.is_string() ? v.get<std::string>() : v.is_null() ? std::string() : v.dump()));
    }
  }
  return Join(cells, ",") + "\n";
}

}  // namespace

Result<ExportFormat> ParseExportFormat(std::string_view name, std::string_view option) {
  return ParseChoice<ExportFormat>(name, option, kExportFormats);
}

std::string ExportScores(const std::vector<QuestionScore>& scores, ExportFormat format) {
  auto j = ScoreJson(scores);
  for (size_t i = 0; i < scores.size() && i < j["questions"].size(); ++i) {
    j["questions"][i]["latency_ms"] = scores[i].latency_ms;
    j["questions"][i]["stages"] = StagesToJson(scores[i].stages);
  }
  std::string out;
  for (const auto& q : j["questions"]) {
    if (format == ExportFormat::kJsonl) {
      out += q.dump() + "\n";
      continue;
    }
    if (out.empty()) out += CsvRow(q, true);
    out += CsvRow(q, false);
  }
  return out;
}

Result<std::string> RunsTable(RunStore& store) {
  auto runs = store.ListRuns();
  if (!runs) return runs.error();
  std::string out =
      fmt::format("{:<26} {:<12} {:<11} {:>11} {:>9}  {}\n", "run", "name", "status", "done", "EX strict", "system");
  for (const auto& r : *runs) {
    auto scores = store.Scores(r.id);
    if (!scores) return scores.error();
    auto summary = ScoreJson(*scores)["summary"];
    std::string ex = summary["ex_strict"].is_null() ? "-" : fmt::format("{:.3f}", summary["ex_strict"].get<double>());
    out += fmt::format("{:<26} {:<12} {:<11} {:>11} {:>9}  {}\n", r.id, r.spec.name, r.status,
                       fmt::format("{}/{}", r.done, r.total), ex, SystemLabel(r.spec.system));
  }
  return out;
}

std::string RunText(const RunInfo& run, const std::vector<QuestionScore>& scores) {
  return fmt::format("run {}{} ({}, {}/{} questions) on {} {}, system {}\n", run.id,
                     run.spec.name.empty() ? "" : " \"" + run.spec.name + "\"", run.status, run.done, run.total,
                     run.spec.benchmark, run.spec.questions, SystemLabel(run.spec.system)) +
         ScoreText(scores);
}

std::string SubsetText(const nlohmann::ordered_json& subsets) {
  const auto& s = subsets["summary"];
  auto cell = [](const nlohmann::ordered_json& v) {
    return v.is_null() ? std::string("-") : fmt::format("{:.3f}", v.get<double>());
  };
  std::string out = fmt::format("{} questions, {} scored\n", s["questions"].get<size_t>(), s["scored"].get<size_t>());
  constexpr std::pair<const char*, const char*> kRows[] = {{"sch_recall", "SchRecall"},
                                                           {"perf_recall", "PerfRecall"},
                                                           {"sch_precision", "SchPrecision"},
                                                           {"sch_f1", "SchF1"},
                                                           {"relation_recall", "relation recall"},
                                                           {"relation_precision", "relation precision"},
                                                           {"attribute_recall", "attribute recall"},
                                                           {"attribute_precision", "attribute precision"},
                                                           {"proportion", "subset proportion"}};
  for (const auto& [key, label] : kRows) out += fmt::format("{:<20} {}\n", label, cell(s[key]));
  return out;
}

}  // namespace plainsql::eval
