// `plainsql runs ...` (see runs_cmd.h).
#include "runs_cmd.h"

#include <fmt/format.h>

#include <map>
#include <optional>

#include "cli.h"
#include "common/file.h"
#include "eval/levels.h"
#include "eval/report.h"
#include "eval/run_text.h"
#include "eval/runs.h"
#include "eval/stats.h"
#include "features/benchmark.h"
#include "features/blindspots.h"
#include "linking/subset_builtin.h"
#include "naturalness/classifier.h"

namespace plainsql::cli {

RunsCommands::RunsCommands(CLI::App& app) {
  root_ = app.add_subcommand("runs", "Inspect the runs database: list, show, compare and export runs");
  root_->require_subcommand(1);
  root_->add_option("--runs", runs_file_, "The runs database: a SQLite file or a postgresql:// URL")
      ->capture_default_str();
  list_ = root_->add_subcommand("list", "Every run: id, name, status, progress, EX strict");
  show_ = root_->add_subcommand("show", "A run's scores, overall and by difficulty (--json: every question)");
  show_->add_option("RUN", run_a_, "Run id, id prefix or name")->required();
  show_->add_flag("--json", json_, "The eval score JSON of the run");
  compare_ = root_->add_subcommand("compare", "Two runs on the questions both answered: EX strict, McNemar");
  compare_->add_option("A", run_a_, "First run")->required();
  compare_->add_option("B", run_b_, "Second run")->required();
  export_ = root_->add_subcommand("export", "Every question of a run, one JSON object per line (or CSV)");
  export_->add_option("RUN", run_a_, "Run id, id prefix or name")->required();
  export_->add_option("--format", export_format_, "jsonl | csv")->capture_default_str();
  stats_ = root_->add_subcommand(
      "stats", "A run's statistics (JSON): bootstrap intervals, naturalness vs success (Kendall's tau), by level");
  stats_->add_option("RUN", run_a_, "Run id, id prefix or name")->required();
  report_ = root_->add_subcommand(
      "report", "A self-contained HTML report of a run (charts inline, works offline), optionally against another");
  report_->add_option("RUN", run_a_, "Run id, id prefix or name")->required();
  report_->add_option("--vs", run_b_, "A second run to compare with");
  report_->add_option("-o,--output", report_out_, "The HTML file to write")->required();
  blindspots_ = root_->add_subcommand(
      "blindspots",
      "A run's blind spots (SQLSpace): its questions clustered by their features (k-means), accuracy per cluster "
      "with a 95% interval, each cluster named by its most distinctive features; --vs compares a second run");
  blindspots_->add_option("RUN", run_a_, "Run id, id prefix or name")->required();
  blindspots_->add_option("--vs", run_b_, "A second run on the same questions");
  blindspots_->add_option("--k", k_, "Clusters (default: the elbow of k = 2 .. 20)")->check(CLI::Range(1, 200));
  blindspots_->add_flag("--json", json_, "One JSON object: clusters, their accuracy, interval and features");
  levels_ = root_->add_subcommand(
      "levels",
      "Runs side by side by naming level (SNAILS): EX strict, QueryRecall / Precision / F1, IdentifierRecall, and "
      "Kendall's tau of each level's share of the gold identifiers against them, pooled over the runs");
  levels_->add_option("RUN", level_runs_, "Runs (id, id prefix or name): the same questions at several levels")
      ->required();
  levels_->add_flag("--json", json_, "One JSON object");
  levels_->add_option("--html", report_out_,
                      "Also write a self-contained HTML report (charts of EX and the query metrics by level, inline "
                      "SVG, works offline) to this file");
}

int RunsCommands::Run() {
  auto format = eval::ParseExportFormat(export_format_);
  if (export_->parsed() && !format) return Fail(format.error());
  auto store = eval::RunStore::Open(runs_file_);
  if (!store) return Fail(store.error());
  if (list_->parsed()) {
    auto table = eval::RunsTable(**store);
    if (!table) return Fail(table.error());
    Write(*table);
    return 0;
  }
  if (report_->parsed()) return Report();
  if (levels_->parsed()) return Levels();
  if (blindspots_->parsed()) return BlindSpots();
  auto a = (*store)->GetRun(run_a_);
  if (!a) return Fail(a.error());
  auto scores_a = (*store)->Scores(a->id);
  if (!scores_a) return Fail(scores_a.error());
  if (show_->parsed() && !json_) {
    Write(eval::RunText(*a, *scores_a));
  } else if (show_->parsed()) {
    auto j = eval::ScoreJson(*scores_a);
    j["run"] = a->id;
    Write(j.dump(2) + "\n");
  } else if (stats_->parsed()) {
    auto classifier = naturalness::Classifier::Load(naturalness::DefaultDataDir());
    if (!classifier) return Fail(classifier.error());
    auto j = eval::RunStatistics(*scores_a, *classifier, eval::ShownNames(a->spec.system));
    j["run"] = a->id;
    Write(j.dump(2) + "\n");
  } else if (compare_->parsed()) {
    auto b = (*store)->GetRun(run_b_);
    if (!b) return Fail(b.error());
    auto scores_b = (*store)->Scores(b->id);
    if (!scores_b) return Fail(scores_b.error());
    auto j = eval::CompareRuns(*scores_a, *scores_b);
    j["a"] = a->id;
    j["b"] = b->id;
    Write(j.dump(2) + "\n");
  } else {
    Write(eval::ExportScores(*scores_a, *format));
  }
  return 0;
}

int RunsCommands::Report() {
  auto store = eval::RunStore::Open(runs_file_);
  if (!store) return Fail(store.error());
  auto classifier = naturalness::Classifier::Load(naturalness::DefaultDataDir());
  if (!classifier) return Fail(classifier.error());
  auto html = eval::RunReportHtml(**store, run_a_, run_b_, *classifier);
  if (!html) return Fail(html.error());
  if (Status st = WriteFileAtomically(report_out_, *html); !st) return Fail(st.error());
  Write(fmt::format("wrote {} ({} bytes)\n", report_out_, html->size()));
  return 0;
}

int RunsCommands::BlindSpots() {
  auto store = eval::RunStore::Open(runs_file_);
  if (!store) return Fail(store.error());
  auto a = (*store)->GetRun(run_a_);
  if (!a) return Fail(a.error());
  auto scores = (*store)->Scores(a->id);
  if (!scores) return Fail(scores.error());
  // The second run's outcomes by question index: only the questions both scored by execution are clustered.
  std::map<size_t, bool> b_right;
  std::string b_name;
  if (!run_b_.empty()) {
    auto b = (*store)->GetRun(run_b_);
    if (!b) return Fail(b.error());
    auto b_scores = (*store)->Scores(b->id);
    if (!b_scores) return Fail(b_scores.error());
    for (const auto& s : *b_scores) {
      if (s.ex_strict) b_right[s.index] = *s.ex_strict;
    }
    b_name = b->spec.name.empty() ? b->id : b->spec.name;
    std::vector<eval::QuestionScore> both;
    for (auto& s : *scores) {
      if (b_right.count(s.index)) both.push_back(std::move(s));
    }
    *scores = std::move(both);
  }
  auto resources = linking::LinkResources::Load();
  if (!resources) return Fail(resources.error());
  std::vector<size_t> indices;
  auto examples = features::RunExamples(
      *a, *scores, *resources,
      [](size_t done, size_t total) {
        if (done % 500 == 0 || done == total) fmt::print(stderr, "\rfeatures: {} / {}", done, total);
      },
      true, &indices);
  fmt::print(stderr, "\n");
  if (!examples) return Fail(examples.error());
  std::vector<features::Values> values;
  std::vector<bool> right, right_b;
  for (size_t i = 0; i < examples->size(); ++i) {
    values.push_back((*examples)[i].values);
    right.push_back((*examples)[i].right);
    if (!b_right.empty()) right_b.push_back(b_right[indices[i]]);
  }
  features::BlindSpotOptions options;
  options.k = k_;
  auto report = features::BlindSpots(values, right, right_b, options);
  if (!report) return Fail(report.error());
  if (json_) {
    auto j = features::BlindSpotJson(*report);
    j["run"] = a->id;
    j["indices"] = indices;
    Write(j.dump(2) + "\n");
  } else {
    Write(features::BlindSpotText(*report, a->spec.name.empty() ? a->id : a->spec.name, b_name));
  }
  return 0;
}

int RunsCommands::Levels() {
  auto store = eval::RunStore::Open(runs_file_);
  if (!store) return Fail(store.error());
  auto classifier = naturalness::Classifier::Load(naturalness::DefaultDataDir());
  if (!classifier) return Fail(classifier.error());
  std::vector<eval::LevelRun> runs;
  for (const auto& name : level_runs_) {
    auto info = (*store)->GetRun(name);
    if (!info) return Fail(info.error());
    auto scores = (*store)->Scores(info->id);
    if (!scores) return Fail(scores.error());
    runs.push_back({std::move(*info), std::move(*scores)});
  }
  const auto j = eval::CompareLevels(runs, *classifier);
  if (!report_out_.empty()) {
    if (Status st = WriteFileAtomically(report_out_, eval::LevelsReportHtml(j)); !st) return Fail(st.error());
  }
  Write(json_ ? j.dump(2) + "\n" : eval::CompareLevelsText(j));
  return 0;
}

}  // namespace plainsql::cli
