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
  // One column per size category that has scored questions (SKALPEL Table 3), then all questions.
  std::vector<std::pair<std::string, const nlohmann::ordered_json*>> groups;
  for (const auto& [name, g] : s["by_size"].items()) {
    if (g["scored"].get<size_t>() > 0) groups.emplace_back(name, &g);
  }
  groups.emplace_back("all", &s);
  std::string out = fmt::format("{} questions, {} scored\n", s["questions"].get<size_t>(), s["scored"].get<size_t>());
  auto row = [&](std::string_view label, const auto& cell) {
    out += fmt::format("{:<22}", label);
    for (const auto& [name, g] : groups) out += fmt::format(" {:>8}", cell(*g));
    out += "\n";
  };
  auto number = [](const nlohmann::ordered_json& v, const char* format) {
    return v.is_null() ? std::string("-") : fmt::format(fmt::runtime(format), v.get<double>());
  };
  out += fmt::format("{:<22}", "schema size (columns)");
  for (const auto& [name, g] : groups) out += fmt::format(" {:>8}", name);
  out += "\n";
  row("questions", [](const nlohmann::ordered_json& g) { return std::to_string(g["scored"].get<size_t>()); });
  for (const auto& [key, label] : kSubsetRateRows) {
    row(label, [&, key = key](const nlohmann::ordered_json& g) { return number(g[key], "{:.3f}"); });
  }
  row("tokens (mean)", [&](const nlohmann::ordered_json& g) { return number(g["tokens"], "{:.0f}"); });
  row("schema tokens (mean)", [&](const nlohmann::ordered_json& g) { return number(g["schema_tokens"], "{:.0f}"); });
  if (s["ms"]["timed"].get<size_t>() > 0) {
    for (const char* k : {"mean", "p50", "p99"}) {
      row(fmt::format("time ms ({})", k),
          [&](const nlohmann::ordered_json& g) { return number(g["ms"][k], "{:.1f}"); });
    }
  }
  return out;
}

}  // namespace plainsql::eval
