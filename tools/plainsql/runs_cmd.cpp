// `plainsql runs ...` (see runs_cmd.h).
#include "runs_cmd.h"

#include <fmt/format.h>

#include <optional>

#include "cli.h"
#include "common/file.h"
#include "eval/report.h"
#include "eval/run_text.h"
#include "eval/runs.h"
#include "eval/stats.h"
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
    auto j = eval::RunStatistics(*scores_a, *classifier);
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

}  // namespace plainsql::cli
