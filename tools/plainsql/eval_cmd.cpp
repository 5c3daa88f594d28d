// `plainsql eval score` (see eval_cmd.h).
#include "eval_cmd.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

#include "cli.h"
#include "common/strings.h"
#include "eval/benchmark.h"
#include "eval/score.h"

namespace plainsql::cli {

EvalCommands::EvalCommands(CLI::App& app) {
  root_ = app.add_subcommand("eval", "Measure: score predictions against a benchmark with the papers' metrics");
  root_->require_subcommand(1);
  score_ = root_->add_subcommand(
      "score",
      "Score a file of predictions (one SQL per line) against a benchmark: EX strict / relaxed / Jaccard, EM, "
      "SNAILS QueryRecall, by difficulty");
  score_->add_option("--benchmark", benchmark_, "spider | bird | snails | custom")->capture_default_str();
  score_
      ->add_option("--questions", questions_,
                   "The questions: Spider/BIRD JSON, a SNAILS pair file or folder, or custom JSONL/CSV")
      ->required();
  score_->add_option("--tables", tables_, "tables.json, to resolve names where there is no database (SNAILS, BIRD)");
  score_->add_option("--db-dir", db_dir_, "Folder of SQLite databases (Spider layout: DIR/db/db.sqlite)");
  score_->add_option("--predictions", predictions_, "One predicted SQL per line, in question order")->required();
  score_->add_option("--db", databases_, "Only the questions of these databases (repeatable)");
  score_->add_option("--difficulty", difficulties_, "Only these difficulty classes (repeatable)");
  score_->add_option("--from", from_, "Only questions from this index (0-based)");
  score_->add_option("--to", to_, "Only questions before this index");
  score_->add_flag("--keep-distinct", keep_distinct_, "Keep DISTINCT (the official evaluator removes it by default)");
  score_->add_option("--timeout", timeout_ms_, "Per query, in milliseconds")->capture_default_str();
  score_->add_flag("--json", json_, "Print one JSON object: summary and one entry per question");
}

int EvalCommands::Run() { return Score(); }

int EvalCommands::Score() {
  if (timeout_ms_ <= 0) return Fail(MakeError(ErrorCode::kInvalidArgument, "--timeout must be positive"));
  if (db_dir_.empty() && tables_.empty()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument,
                          "give --db-dir (to execute) or --tables (to score linking and exact match only)"));
  }
  auto benchmark = eval::LoadBenchmark(benchmark_, questions_);
  if (!benchmark) return Fail(benchmark.error());
  auto predictions = eval::LoadPredictions(predictions_);
  if (!predictions) return Fail(predictions.error());
  // The predictions file holds one line per question of the benchmark; the selection applies to both.
  if (predictions->size() != benchmark->questions.size()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument,
                          fmt::format("{} has {} lines but {} has {} questions: one prediction per question, in order",
                                      predictions_, predictions->size(), questions_, benchmark->questions.size())));
  }
  std::vector<eval::Question> questions;
  std::vector<std::string> selected_predictions;
  for (size_t i = 0; i < benchmark->questions.size(); ++i) {
    const eval::Question& q = benchmark->questions[i];
    if (from_ >= 0 && static_cast<int64_t>(i) < from_) continue;
    if (to_ >= 0 && static_cast<int64_t>(i) >= to_) continue;
    if (!databases_.empty() &&
        std::none_of(databases_.begin(), databases_.end(), [&](const std::string& d) { return d == q.db_id; })) {
      continue;
    }
    questions.push_back(q);
    selected_predictions.push_back((*predictions)[i]);
  }
  eval::ScoreOptions options;
  options.db_dir = db_dir_;
  options.tables_file = tables_;
  options.keep_distinct = keep_distinct_;
  options.limits.timeout = std::chrono::milliseconds(timeout_ms_);
  if (isatty(STDERR_FILENO)) {
    options.progress = [](size_t done, size_t total) {
      if (done % 50 == 0 || done == total)
        fmt::print(stderr, "\rscoring: {}/{}{}", done, total, done == total ? "\n" : "");
    };
  }
  auto scores = eval::ScorePredictions(*benchmark, questions, selected_predictions, options);
  if (!scores) return Fail(scores.error());
  if (!difficulties_.empty()) {
    std::erase_if(*scores, [&](const eval::QuestionScore& s) {
      return std::none_of(difficulties_.begin(), difficulties_.end(),
                          [&](const std::string& d) { return EqualsIgnoreCase(d, s.difficulty); });
    });
  }
  if (json_) {
    Write(eval::ScoreJson(*scores).dump(2) + "\n");
  } else {
    Write(eval::ScoreText(*scores));
  }
  return 0;
}

}  // namespace plainsql::cli
