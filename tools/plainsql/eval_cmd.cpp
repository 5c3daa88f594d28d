// `plainsql eval score | subsets | run` (see eval_cmd.h).
#include "eval_cmd.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <memory>

#include "cli.h"
#include "common/file.h"
#include "common/strings.h"
#include "eval/benchmark.h"
#include "eval/levels.h"
#include "eval/report.h"
#include "eval/run_text.h"
#include "eval/runner.h"
#include "eval/score.h"
#include "eval/systems.h"
#include "exec/connection.h"
#include "features/benchmark.h"
#include "features/estimator.h"
#include "linking/infer_keys.h"
#include "linking/subset_builtin.h"
#include "sql/dialect.h"

namespace plainsql::cli {

namespace {

// Ctrl-C asks a running `eval run` to stop; the library sees the token between questions.
eval::CancelToken g_cancel;

extern "C" void OnInterrupt(int) { g_cancel.Cancel(); }

eval::Selection SelectionOf(const std::vector<std::string>& databases, int64_t from, int64_t to) {
  eval::Selection s;
  s.databases = databases;
  if (from >= 0) s.from = static_cast<size_t>(from);
  if (to >= 0) s.to = static_cast<size_t>(to);
  return s;
}

}  // namespace

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
  score_->add_option("--crosswalk-dir", crosswalk_dir_,
                     "Predictions written against a naming level's names: a directory of crosswalks (<db_id>.csv) "
                     "to translate them back to the native names before scoring");
  score_->add_option("--level", level_, "With --crosswalk-dir: the level the predictions were written at (N1 default)");
  score_->add_option("--db", databases_, "Only the questions of these databases (repeatable)");
  score_->add_option("--difficulty", difficulties_, "Only these difficulty classes (repeatable)");
  score_->add_option("--from", from_, "Only questions from this index (0-based)");
  score_->add_option("--to", to_, "Only questions before this index");
  score_->add_flag("--keep-distinct", keep_distinct_, "Keep DISTINCT (the official evaluator removes it by default)");
  score_->add_option("--timeout", timeout_ms_, "Per query, in milliseconds")->capture_default_str();
  score_->add_flag("--json", json_, "Print one JSON object: summary and one entry per question");

  subsets_ = root_->add_subcommand(
      "subsets",
      "Score predicted schema subsets (JSON Lines, one per question) against what each gold query reads, overall and "
      "by schema size (S < 100, M < 1,000, L < 2,500, XL < 50,000, XXL < 100,000 columns): PRe, SchRecall, "
      "SchPrecision, SchF1, relation and attribute recall / precision / F1 and proportions, tokens, time");
  subsets_->add_option("--benchmark", benchmark_, "spider | bird | snails | custom")->capture_default_str();
  subsets_->add_option("--questions", questions_, "The questions (as for eval score)")->required();
  subsets_->add_option("--tables", tables_, "tables.json, for the schemas' names");
  subsets_->add_option("--db-dir", db_dir_, "Folder of SQLite databases, for the schemas' names");
  subsets_
      ->add_option("--subsets", subsets_file_,
                   "One line per question, in order: a JSON array of names (\"t\", \"t.c\", \"t.*\") or "
                   "{\"tables\": [...], \"columns\": [...], \"ms\": time}")
      ->required();
  subsets_->add_flag("--json", json_,
                     "Print one JSON object: summary (overall and by size) and one entry per question");
  subsets_->add_option("--html", html_, "Also write the scores as a self-contained HTML report to this file");

  run_ = root_->add_subcommand(
      "run",
      "Run a system on a benchmark, storing every question's prediction, result and metrics in a runs database "
      "(resumable after a crash or Ctrl-C)");
  run_->add_option("--benchmark", benchmark_, "spider | bird | snails | custom")->capture_default_str();
  run_->add_option("--questions", questions_, "The questions file (or SNAILS folder)");
  run_->add_option("--tables", tables_, "tables.json, for names where there is no database");
  run_->add_option("--db-dir", db_dir_, "Folder of SQLite databases (Spider layout)");
  run_->add_option(
      "--system", system_,
      "What answers: builtin (the offline translator; builtin:infer-keys=add|replace|isolated as --infer-keys "
      "gives), predictions:FILE (one SQL per line, in question "
      "order), pipeline (the ask pipeline as plainsql.toml and the environment configure it) or "
      "pipeline:FILE.toml");
  run_->add_option("--runs", runs_file_,
                   "The runs database: a SQLite file (created when missing) or a postgresql:// URL (workers on several "
                   "machines can share a run)")
      ->capture_default_str();
  run_->add_option("--name", name_, "A name for the run, usable instead of its id");
  run_->add_flag("--infer-keys{add}", infer_keys_,
                 "With --system builtin: add the keys each database does not declare, inferred from names and values; "
                 "--infer-keys=replace drops the declared keys and answers on inferred ones alone");
  run_->add_option("--config", config_file_, "With --system pipeline: the configuration file (default plainsql.toml)");
  run_->add_option("--configuration", configuration_,
                   "With --system pipeline, one of the NATURAL thesis's configurations: baseline (the model's answer "
                   "alone: one candidate, no draft, refinement, vote or examples), zero-shot (every stage, no "
                   "examples), train (every stage, examples from --examples STORE built from another split) or ground "
                   "(every stage, examples from --examples STORE built from this benchmark's own questions, leaving "
                   "out the question asked)");
  run_->add_option("--examples", examples_,
                   "With --system pipeline: the example store (plainsql examples build) for train and ground, or, "
                   "without --configuration, instead of [pipeline] examples");
  run_->add_option("--subset", subset_,
                   "Give the system each question's schema restricted to a subset (with the key columns joins need): "
                   "oracle (what the gold query reads), a subsetting method (builtin, draft) or a subsets file (one "
                   "JSON line per question, as plainsql link --json writes)");
  run_->add_option("--crosswalk-dir", crosswalk_dir_,
                   "SNAILS' naming levels: a directory of crosswalks, one <db_id>.csv per database; the system sees "
                   "each database under --level's names and its SQL is translated back to the native names to be "
                   "scored");
  run_->add_option("--level", level_, "With --crosswalk-dir: native, N1 (default), N2 or N3");
  run_->add_option("--via", via_,
                   "With --crosswalk-dir: how the system sees the level's names: middleware (default; the schema it "
                   "is shown is renamed and its SQL translated back) or views (natural views deployed in a temporary "
                   "companion database: it reads their schema, its SQL runs on them, and is translated back to be "
                   "scored)");
  run_->add_option("--estimator", estimator_,
                   "A correctness estimator (plainsql space estimator train) whose estimate, from each question's "
                   "features before the system answers, is stored as estimated_correctness; default: the shipped "
                   "estimator for a new run of --system builtin, none otherwise; none: no estimates");
  run_->add_option("--resume", resume_,
                   "Continue an interrupted run, or join a running one as another worker (its id, id prefix or name)");
  run_->add_option("--db", databases_, "Only the questions of these databases (repeatable)");
  run_->add_option("--from", from_, "Only questions from this index (0-based)");
  run_->add_option("--to", to_, "Only questions before this index");
  run_->add_flag("--keep-distinct", keep_distinct_, "Keep DISTINCT when comparing results");
  run_->add_option("--timeout", timeout_ms_, "Per query, in milliseconds")->capture_default_str();
  run_->add_flag("--json", json_, "Print the scores as eval score --json does");
  run_->add_option("--workers", workers_, "Questions worked on at once")->capture_default_str();
  haystack_ = std::make_unique<HaystackCommand>(*root_);
}

int EvalCommands::Run() {
  if (haystack_->Selected()) return haystack_->Run();
  if (run_->parsed()) return RunBenchmark();
  if (subsets_->parsed()) return Subsets();
  return Score();
}

int EvalCommands::Subsets() {
  if (db_dir_.empty() && tables_.empty()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "give --db-dir or --tables: the schemas' names are needed"));
  }
  auto benchmark = eval::LoadBenchmark(benchmark_, questions_);
  if (!benchmark) return Fail(benchmark.error());
  auto subsets = eval::LoadSubsetLines(subsets_file_);
  if (!subsets) return Fail(subsets.error());
  if (subsets->size() != benchmark->questions.size()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument,
                          fmt::format("{} has {} subsets but {} has {} questions: one subset per question, in order",
                                      subsets_file_, subsets->size(), questions_, benchmark->questions.size())));
  }
  eval::ScoreOptions options;
  options.db_dir = db_dir_;
  options.tables_file = tables_;
  eval::Scorer scorer(*benchmark, options);
  std::vector<eval::SubsetResult> results;
  results.reserve(subsets->size());
  for (size_t i = 0; i < subsets->size(); ++i) {
    auto r = scorer.ScoreSubset(benchmark->questions[i], (*subsets)[i].names);
    if (!r) return Fail(r.error());
    r->ms = (*subsets)[i].ms;
    results.push_back(std::move(*r));
  }
  nlohmann::ordered_json j = eval::SubsetJson(results);
  if (!html_.empty()) {
    if (Status st = WriteFileAtomically(html_, eval::SubsetReportHtml(j, subsets_file_, questions_)); !st) {
      return Fail(st.error());
    }
  }
  Write(json_ ? j.dump(2) + "\n" : eval::SubsetText(j));
  return 0;
}

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
  for (size_t i : eval::SelectQuestions(*benchmark, SelectionOf(databases_, from_, to_))) {
    questions.push_back(benchmark->questions[i]);
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
  auto names = eval::ParseNamesLevel(crosswalk_dir_, level_);
  if (!names) return Fail(names.error());
  auto counts = std::make_shared<eval::TranslationCounts>();
  if (*names) {
    // Predictions written against the level's names: translated back to the native names as they are scored.
    if (auto st = eval::CheckCrosswalks(crosswalk_dir_, questions); !st) return Fail(st.error());
    auto dialect = sql::DialectByName(benchmark->dialect);
    if (!dialect) return Fail(MakeError(ErrorCode::kInvalidArgument, "unknown dialect " + benchmark->dialect));
    options.rewrite = eval::TranslateToNative(**names, **dialect, counts);
  }
  auto scores = eval::ScorePredictions(*benchmark, questions, selected_predictions, options);
  if (!scores) return Fail(scores.error());
  if (*names) {
    fmt::print(stderr,
               "names: {} of the crosswalks in {}; {} predictions translated, {} not (they do not parse), {} with "
               "names the level does not have\n",
               eval::LevelLabel((*names)->level), crosswalk_dir_, counts->translated, counts->untranslated,
               counts->unresolved);
  }
  if (!difficulties_.empty()) {
    std::erase_if(*scores, [&](const eval::QuestionScore& s) {
      return std::none_of(difficulties_.begin(), difficulties_.end(),
                          [&](const std::string& d) { return EqualsIgnoreCase(d, s.difficulty); });
    });
  }
  Write(json_ ? eval::ScoreJson(*scores).dump(2) + "\n" : eval::ScoreText(*scores));
  return 0;
}

Status EvalCommands::SetEstimator(eval::RunRequest& request, const std::string& system) const {
  std::shared_ptr<const features::Estimator> model;
  // The shipped estimator read the databases' own names: not the default for a run under a crosswalk's names.
  if (estimator_ == "none" || (estimator_.empty() && (system != "builtin" || !crosswalk_dir_.empty()))) {
    return Status::Ok();
  }
  if (estimator_.empty()) {
    // The shipped model lives as long as the program: an aliasing pointer that owns nothing.
    model = std::shared_ptr<const features::Estimator>(std::shared_ptr<void>(), &features::Estimator::Shipped());
  } else {
    auto loaded = features::Estimator::Load(estimator_);
    if (!loaded) return loaded.error();
    model = std::make_shared<const features::Estimator>(std::move(*loaded));
  }
  auto resources = linking::LinkResources::Load();
  if (!resources) return resources.error();
  // The run's own tables and databases (a resumed run's too) and its questions' dialect come from the runner.
  request.estimator = [model, resources = *resources](const eval::RunSpec& spec, const std::string& dialect) {
    return features::MakeQuestionEstimator(model, spec.tables, spec.db_dir, dialect, resources);
  };
  return Status::Ok();
}

int EvalCommands::RunBenchmark() {
  eval::RunRequest request;
  std::string system = system_;
  if (!infer_keys_.empty()) {
    auto mode = linking::KeyInferenceModeOption(infer_keys_);
    if (!mode) return Fail(mode.error());
    if (system_ != "builtin") {
      return Fail(MakeError(ErrorCode::kInvalidArgument, "--infer-keys applies to a new run of --system builtin"));
    }
    system = eval::BuiltinSystemSpec(**mode);
  }
  request.spec = {name_, benchmark_, questions_, db_dir_, tables_, system, keep_distinct_, timeout_ms_};
  request.selection = SelectionOf(databases_, from_, to_);
  request.config_file = config_file_;
  request.configuration = configuration_;
  request.examples = examples_;
  request.subset = subset_;
  request.crosswalk_dir = crosswalk_dir_;
  request.level = level_;
  request.via = via_;
  request.resume = resume_;
  request.runs = runs_file_;
  if (auto st = SetEstimator(request, system_); !st) return Fail(st.error());
  request.workers.threads = workers_;
  request.workers.cancel = &g_cancel;
  bool tty = isatty(STDERR_FILENO);
  if (tty) {
    request.workers.progress = [](const eval::Progress& p) {
      if (p.done % 20 == 0 || p.done == p.total) {
        fmt::print(stderr, "\r{}   {}", eval::ProgressBar(p), p.done == p.total ? "\n" : "");
      }
    };
  }
  request.workers.waiting = [tty](const std::string& what) {
    fmt::print(stderr, "{}plainsql: waiting for {}\n", tty ? "\n" : "", what);
  };
  g_cancel.Reset();
  auto previous = std::signal(SIGINT, OnInterrupt);
  auto result = eval::RunBenchmark(request);
  std::signal(SIGINT, previous);
  if (!result) return Fail(result.error());
  std::string where = exec::RedactConnectionString(runs_file_);
  if (!result->outcome.finished) {
    fmt::print(stderr,
               "\nplainsql: interrupted after {} of {} questions; resume with: plainsql eval run --runs {} "
               "--resume {}\n",
               result->outcome.done, result->outcome.total, where, result->run_id);
    return 130;
  }
  if (json_) {
    auto j = eval::ScoreJson(result->scores);
    j["run"] = result->run_id;
    if (!subset_.empty()) j["subset"] = subset_;
    if (!crosswalk_dir_.empty()) {
      j["level"] = level_.empty() ? "N1" : level_;
      j["via"] = via_.empty() ? "middleware" : via_;
    }
    Write(j.dump(2) + "\n");
  } else {
    std::string subsets = subset_.empty() ? "" : fmt::format("schema subsets: {}\n", subset_);
    if (!crosswalk_dir_.empty()) {
      subsets += fmt::format("names: {} of the crosswalks in {}{}\n", level_.empty() ? "N1" : level_, crosswalk_dir_,
                             via_ == "views" ? ", through natural views" : "");
    }
    Write(eval::ScoreText(result->scores) + subsets + fmt::format("run {} stored in {}\n", result->run_id, where));
  }
  return 0;
}

}  // namespace plainsql::cli
