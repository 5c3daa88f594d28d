// `plainsql eval score` (see eval_cmd.h).
#include "eval_cmd.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <mutex>
#include <optional>
#include <thread>

#include "cli.h"
#include "common/csv.h"
#include "common/file.h"
#include "common/strings.h"
#include "eval/benchmark.h"
#include "eval/report.h"
#include "eval/runs.h"
#include "eval/score.h"
#include "eval/stats.h"
#include "eval/systems.h"
#include "exec/connection.h"
#include "naturalness/classifier.h"
#include "pipeline/config.h"

namespace plainsql::cli {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void OnInterrupt(int) { g_interrupted = true; }

// The questions a selection keeps, with their positions in the benchmark.
std::vector<size_t> SelectQuestions(const eval::Benchmark& b, const std::vector<std::string>& databases, int64_t from,
                                    int64_t to) {
  std::vector<size_t> out;
  for (size_t i = 0; i < b.questions.size(); ++i) {
    if (from >= 0 && static_cast<int64_t>(i) < from) continue;
    if (to >= 0 && static_cast<int64_t>(i) >= to) continue;
    if (!databases.empty() && std::find(databases.begin(), databases.end(), b.questions[i].db_id) == databases.end()) {
      continue;
    }
    out.push_back(i);
  }
  return out;
}

std::string Seconds(double s) {
  if (s < 60) return fmt::format("{:.0f}s", s);
  return fmt::format("{:.0f}m{:02.0f}s", std::floor(s / 60), std::fmod(s, 60));
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
  score_->add_option("--db", databases_, "Only the questions of these databases (repeatable)");
  score_->add_option("--difficulty", difficulties_, "Only these difficulty classes (repeatable)");
  score_->add_option("--from", from_, "Only questions from this index (0-based)");
  score_->add_option("--to", to_, "Only questions before this index");
  score_->add_flag("--keep-distinct", keep_distinct_, "Keep DISTINCT (the official evaluator removes it by default)");
  score_->add_option("--timeout", timeout_ms_, "Per query, in milliseconds")->capture_default_str();
  score_->add_flag("--json", json_, "Print one JSON object: summary and one entry per question");

  subsets_ = root_->add_subcommand(
      "subsets",
      "Score predicted schema subsets (JSON Lines, one per question) against what each gold query reads: SchRecall, "
      "PerfRecall, SchPrecision, SchF1, relation and attribute variants, subset proportion");
  subsets_->add_option("--benchmark", benchmark_, "spider | bird | snails | custom")->capture_default_str();
  subsets_->add_option("--questions", questions_, "The questions (as for eval score)")->required();
  subsets_->add_option("--tables", tables_, "tables.json, for the schemas' names");
  subsets_->add_option("--db-dir", db_dir_, "Folder of SQLite databases, for the schemas' names");
  subsets_
      ->add_option("--subsets", subsets_file_,
                   "One line per question, in order: a JSON array of names (\"t\", \"t.c\", \"t.*\") or "
                   "{\"tables\": [...], \"columns\": [...]}")
      ->required();
  subsets_->add_flag("--json", json_, "Print one JSON object: summary and one entry per question");

  run_ = root_->add_subcommand(
      "run",
      "Run a system on a benchmark, storing every question's prediction, result and metrics in a runs database "
      "(resumable after a crash or Ctrl-C)");
  run_->add_option("--benchmark", benchmark_, "spider | bird | snails | custom")->capture_default_str();
  run_->add_option("--questions", questions_, "The questions file (or SNAILS folder)");
  run_->add_option("--tables", tables_, "tables.json, for names where there is no database");
  run_->add_option("--db-dir", db_dir_, "Folder of SQLite databases (Spider layout)");
  run_->add_option("--system", system_,
                   "What answers: builtin (the offline translator), predictions:FILE (one SQL per line, in question "
                   "order), pipeline (the ask pipeline as plainsql.toml and the environment configure it) or "
                   "pipeline:FILE.toml");
  run_->add_option("--runs", runs_file_,
                   "The runs database: a SQLite file (created when missing) or a postgresql:// URL (workers on several "
                   "machines can share a run)")
      ->capture_default_str();
  run_->add_option("--name", name_, "A name for the run, usable instead of its id");
  run_->add_option("--config", config_file_, "With --system pipeline: the configuration file (default plainsql.toml)");
  run_->add_option("--resume", resume_,
                   "Continue an interrupted run, or join a running one as another worker (its id, id prefix or name)");
  run_->add_option("--db", databases_, "Only the questions of these databases (repeatable)");
  run_->add_option("--from", from_, "Only questions from this index (0-based)");
  run_->add_option("--to", to_, "Only questions before this index");
  run_->add_flag("--keep-distinct", keep_distinct_, "Keep DISTINCT when comparing results");
  run_->add_option("--timeout", timeout_ms_, "Per query, in milliseconds")->capture_default_str();
  run_->add_flag("--json", json_, "Print the scores as eval score --json does");
  run_->add_option("--workers", workers_, "Questions worked on at once")->capture_default_str();

  runs_ = app.add_subcommand("runs", "Inspect the runs database: list, show, compare and export runs");
  runs_->require_subcommand(1);
  runs_->add_option("--runs", runs_file_, "The runs database: a SQLite file or a postgresql:// URL")
      ->capture_default_str();
  runs_list_ = runs_->add_subcommand("list", "Every run: id, name, status, progress, EX strict");
  runs_show_ = runs_->add_subcommand("show", "A run's scores, overall and by difficulty (--json: every question)");
  runs_show_->add_option("RUN", run_a_, "Run id, id prefix or name")->required();
  runs_show_->add_flag("--json", json_, "The eval score JSON of the run");
  runs_compare_ = runs_->add_subcommand("compare", "Two runs on the questions both answered: EX strict, McNemar");
  runs_compare_->add_option("A", run_a_, "First run")->required();
  runs_compare_->add_option("B", run_b_, "Second run")->required();
  runs_export_ = runs_->add_subcommand("export", "Every question of a run, one JSON object per line (or CSV)");
  runs_export_->add_option("RUN", run_a_, "Run id, id prefix or name")->required();
  runs_export_->add_option("--format", export_format_, "jsonl | csv")->capture_default_str();
  runs_stats_ = runs_->add_subcommand(
      "stats", "A run's statistics (JSON): bootstrap intervals, naturalness vs success (Kendall's tau), by level");
  runs_stats_->add_option("RUN", run_a_, "Run id, id prefix or name")->required();
  runs_report_ = runs_->add_subcommand(
      "report", "A self-contained HTML report of a run (charts inline, works offline), optionally against another");
  runs_report_->add_option("RUN", run_a_, "Run id, id prefix or name")->required();
  runs_report_->add_option("--vs", run_b_, "A second run to compare with");
  runs_report_->add_option("-o,--output", report_out_, "The HTML file to write")->required();
}

int EvalCommands::Run() {
  if (runs_->parsed()) return Runs();
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
  auto subsets = eval::LoadSubsets(subsets_file_);
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
    auto r = scorer.ScoreSubset(benchmark->questions[i], (*subsets)[i]);
    if (!r) return Fail(r.error());
    results.push_back(std::move(*r));
  }
  nlohmann::ordered_json j = eval::SubsetJson(results);
  if (json_) {
    Write(j.dump(2) + "\n");
    return 0;
  }
  const auto& s = j["summary"];
  auto cell = [](const nlohmann::ordered_json& v) {
    return v.is_null() ? std::string("-") : fmt::format("{:.3f}", v.get<double>());
  };
  std::string out = fmt::format("{} questions, {} scored\n", s["questions"].get<size_t>(), s["scored"].get<size_t>());
  for (const auto& [key, label] :
       std::vector<std::pair<const char*, const char*>>{{"sch_recall", "SchRecall"},
                                                        {"perf_recall", "PerfRecall"},
                                                        {"sch_precision", "SchPrecision"},
                                                        {"sch_f1", "SchF1"},
                                                        {"relation_recall", "relation recall"},
                                                        {"relation_precision", "relation precision"},
                                                        {"attribute_recall", "attribute recall"},
                                                        {"attribute_precision", "attribute precision"},
                                                        {"proportion", "subset proportion"}}) {
    out += fmt::format("{:<20} {}\n", label, cell(s[key]));
  }
  Write(out);
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

namespace plainsql::cli {

int EvalCommands::RunBenchmark() {
  if (timeout_ms_ <= 0) return Fail(MakeError(ErrorCode::kInvalidArgument, "--timeout must be positive"));
  if (workers_ < 1 || workers_ > 256) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--workers must be between 1 and 256"));
  }
  // A new run's arguments are checked before the runs database is touched (a mistake creates no file).
  std::unique_ptr<eval::RunStore> store_holder;
  auto open_store = [&]() -> Status {
    auto opened = eval::RunStore::Open(runs_file_);
    if (!opened) return opened.error();
    store_holder = std::move(*opened);
    return Status::Ok();
  };
  auto* store = &store_holder;
  eval::RunSpec spec;
  std::string run_id;
  if (!resume_.empty()) {
    if (Status st = open_store(); !st) return Fail(st.error());
    auto run = (*store)->GetRun(resume_);
    if (!run) return Fail(run.error());
    if (run->status == "done") {
      return Fail(
          MakeError(ErrorCode::kInvalidArgument, fmt::format("run {} is complete; nothing to resume", run->id)));
    }
    spec = run->spec;
    run_id = run->id;
  } else {
    if (questions_.empty() || system_.empty()) {
      return Fail(MakeError(ErrorCode::kInvalidArgument, "eval run needs --questions and --system (or --resume RUN)"));
    }
    if (db_dir_.empty() && tables_.empty()) {
      return Fail(MakeError(ErrorCode::kInvalidArgument,
                            "give --db-dir (to execute) or --tables (to score linking and exact match only)"));
    }
    spec = {name_, benchmark_, questions_, db_dir_, tables_, system_, keep_distinct_, timeout_ms_};
  }
  auto benchmark = eval::LoadBenchmark(spec.benchmark, spec.questions);
  if (!benchmark) return Fail(benchmark.error());
  // The system: stored predictions, or a pipeline configuration (the built-in translator plugs in with issue #8).
  std::vector<std::string> predictions;
  std::optional<pipeline::PipelineConfig> pipeline_config;
  bool builtin_system = false;
  if (spec.system.starts_with("predictions:")) {
    auto p = eval::LoadPredictions(spec.system.substr(12));
    if (!p) return Fail(p.error());
    if (p->size() != benchmark->questions.size()) {
      return Fail(MakeError(ErrorCode::kInvalidArgument,
                            fmt::format("{} has {} lines but the benchmark has {} questions", spec.system.substr(12),
                                        p->size(), benchmark->questions.size())));
    }
    predictions = std::move(*p);
  } else if (spec.system == "builtin") {
    // The built-in translator through the pipeline (checks, execution, voting), with the default pipeline options.
    pipeline_config.emplace();
    builtin_system = true;
    if (auto probe = eval::PipelineSystem::Create(*pipeline_config, spec.db_dir, true); !probe) {
      return Fail(probe.error());
    }
    predictions.assign(benchmark->questions.size(), "");
  } else if (spec.system == "pipeline" || spec.system.starts_with("pipeline:")) {
    // A pipeline configuration: from --config / plainsql.toml / the environment (`pipeline`), from a file
    // (`pipeline:FILE.toml`), or as a run stored it (`pipeline:{...}`, when resuming).
    Result<pipeline::PipelineConfig> config = MakeError(ErrorCode::kInternal, "");
    if (spec.system.starts_with("pipeline:{")) {
      config = eval::PipelineConfigFromSpec(spec.system);
    } else {
      config = pipeline::LoadConfig(spec.system == "pipeline" ? config_file_ : spec.system.substr(9));
    }
    if (!config) return Fail(config.error());
    // Checked now, before a run is created: a generator can be built and the databases are there.
    if (auto probe = eval::PipelineSystem::Create(*config, spec.db_dir); !probe) return Fail(probe.error());
    pipeline_config = std::move(*config);
    spec.system = eval::PipelineSystemSpec(*pipeline_config);
    predictions.assign(benchmark->questions.size(), "");
  } else {
    return Fail(MakeError(ErrorCode::kInvalidArgument,
                          fmt::format("unknown --system '{}': use builtin (the built-in offline translator), "
                                      "predictions:FILE (one SQL per line, in question order), pipeline (the "
                                      "configuration of plainsql.toml and the environment) or pipeline:FILE.toml",
                                      spec.system)));
  }
  std::vector<eval::Question> run_questions;
  std::vector<std::string> run_predictions;
  if (run_id.empty()) {
    if (Status st = open_store(); !st) return Fail(st.error());
    for (size_t i : SelectQuestions(*benchmark, databases_, from_, to_)) {
      run_questions.push_back(benchmark->questions[i]);
      run_predictions.push_back(predictions[i]);
    }
    auto id = (*store)->CreateRun(spec, run_questions);
    if (!id) return Fail(id.error());
    run_id = *id;
  } else {
    // The run's own question list, as stored: positions follow the benchmark indexes chosen when it was created.
    auto indexes = (*store)->QuestionIndexes(run_id);
    if (!indexes) return Fail(indexes.error());
    for (size_t idx : *indexes) {
      if (idx >= benchmark->questions.size()) {
        return Fail(
            MakeError(ErrorCode::kFormat, fmt::format("run {} has question {}, but {} has only {} questions", run_id,
                                                      idx, spec.questions, benchmark->questions.size())));
      }
      run_questions.push_back(benchmark->questions[idx]);
      run_predictions.push_back(predictions[idx]);
    }
  }
  auto pending = (*store)->Pending(run_id);
  if (!pending) return Fail(pending.error());
  eval::ScoreOptions options;
  options.db_dir = spec.db_dir;
  options.tables_file = spec.tables;
  options.keep_distinct = spec.keep_distinct;
  options.limits.timeout = std::chrono::milliseconds(spec.timeout_ms);
  // Workers claim questions one at a time from the runs database, so other processes (on this machine or, with a
  // PostgreSQL runs database, on others) can work on the same run. Each worker has its own scorer (its own database
  // connections); the store is used by one worker at a time.
  const std::string me = eval::WorkerId();
  g_interrupted = false;
  auto previous = std::signal(SIGINT, OnInterrupt);
  auto start = std::chrono::steady_clock::now();
  bool tty = isatty(STDERR_FILENO);
  size_t done = 0, total = pending->size();
  std::mutex mu;  // guards the store, `done`, `failure`, `finished` and the progress line
  std::optional<Error> failure;
  bool finished = false;    // every question of the run is recorded
  std::string waiting_for;  // the last "waiting for other workers" message shown
  auto work = [&] {
    eval::Scorer scorer(*benchmark, options);
    std::unique_ptr<eval::PipelineSystem> system;
    if (pipeline_config) {
      auto created = eval::PipelineSystem::Create(*pipeline_config, spec.db_dir, builtin_system);
      std::lock_guard lock(mu);
      if (!created) {
        if (!failure) failure = created.error();
        return;
      }
      system = std::move(*created);
    }
    while (!g_interrupted) {
      std::optional<size_t> position;
      {
        std::lock_guard lock(mu);
        if (failure || finished) return;
        auto claimed = (*store)->Claim(run_id, me, eval::kClaimLeaseSeconds);
        if (!claimed) {
          failure = claimed.error();
          return;
        }
        position = *claimed;
        if (!position) {
          // Nothing free: the run is complete, or other workers hold the rest. Claims of workers on this machine
          // that no longer exist are given back at once; others lapse after the lease.
          auto left = (*store)->Pending(run_id);
          auto claimants = (*store)->Claimants(run_id, eval::kClaimLeaseSeconds);
          if (!left || !claimants) {
            failure = left ? claimants.error() : left.error();
            return;
          }
          if (left->empty()) {
            finished = true;
            return;
          }
          std::string others;
          for (const auto& [worker, count] : *claimants) {
            if (worker == me) continue;
            if (!eval::WorkerAlive(worker)) {
              if (Status st = (*store)->Release(run_id, worker); !st) {
                failure = st.error();
                return;
              }
              continue;
            }
            others += fmt::format("{}{} ({})", others.empty() ? "" : ", ", worker, count);
          }
          if (!others.empty() && others != waiting_for) {
            waiting_for = others;
            fmt::print(stderr, "{}plainsql: waiting for {} questions claimed by other workers: {}\n", tty ? "\n" : "",
                       left->size(), others);
          }
        }
      }
      if (!position) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        continue;
      }
      if (*position >= run_questions.size()) continue;
      // The system's answer (for a predictions file, a lookup), then the scoring, each timed as a stage.
      auto t0 = std::chrono::steady_clock::now();
      std::string prediction;
      std::vector<eval::StageCost> system_stages;
      std::string system_error;
      if (system) {
        auto answer = system->Answer(run_questions[*position]);
        if (!answer || answer->code == std::optional<ErrorCode>(ErrorCode::kConnection)) {
          // A database that cannot be opened, or a model that cannot be reached after the retries, stops the run:
          // every further question would fail the same way. The run can be resumed.
          std::lock_guard lock(mu);
          if (!failure) failure = answer ? MakeError(ErrorCode::kConnection, answer->error) : answer.error();
          return;
        }
        prediction = answer->sql;
        system_stages = std::move(answer->stages);
        system_error = answer->error;
      } else {
        prediction = run_predictions[*position];
        system_stages.push_back(
            {"system", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(), 0, 0});
      }
      auto score = scorer.Score(run_questions[*position], prediction);
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (score) {
        score->stages.insert(score->stages.begin(), system_stages.begin(), system_stages.end());
        if (!system_error.empty() && prediction.empty()) score->error = "system: " + system_error;
      }
      std::lock_guard lock(mu);
      if (!score) {
        if (!failure) failure = score.error();
        return;
      }
      if (Status st = (*store)->Record(run_id, *position, *score, ms, me); !st) {
        if (!failure) failure = st.error();
        return;
      }
      ++done;
      if (tty && (done % 20 == 0 || done == total)) {
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        double eta =
            done ? elapsed / static_cast<double>(done) * static_cast<double>(total - std::min(done, total)) : 0;
        size_t width = 30, filled = total ? std::min(done, total) * width / total : width;
        fmt::print(stderr, "\r[{}{}] {}/{} ETA {}   ", std::string(filled, '#'), std::string(width - filled, ' '), done,
                   total, Seconds(eta));
        if (done == total) fmt::print(stderr, "\n");
      }
    }
  };
  std::vector<std::thread> workers;
  for (int w = 1; w < workers_; ++w) workers.emplace_back(work);
  work();
  for (auto& t : workers) t.join();
  std::signal(SIGINT, previous);
  if (!finished) {
    // Stopped (Ctrl-C or an error): give back what this process claimed, so a resumed run or another worker takes it
    // at once.
    (void)(*store)->Release(run_id, me);
    (void)(*store)->SetStatus(run_id, "interrupted");
    if (failure) return Fail(*failure);
    fmt::print(stderr,
               "\nplainsql: interrupted after {} of {} questions; resume with: plainsql eval run --runs {} "
               "--resume {}\n",
               done, total, exec::RedactConnectionString(runs_file_), run_id);
    return 130;
  }
  if (Status st = (*store)->SetStatus(run_id, "done"); !st) return Fail(st.error());
  auto scores = (*store)->Scores(run_id);
  if (!scores) return Fail(scores.error());
  if (json_) {
    auto j = eval::ScoreJson(*scores);
    j["run"] = run_id;
    Write(j.dump(2) + "\n");
  } else {
    Write(eval::ScoreText(*scores) +
          fmt::format("run {} stored in {}\n", run_id, exec::RedactConnectionString(runs_file_)));
  }
  return 0;
}

int EvalCommands::Runs() {
  auto store = eval::RunStore::Open(runs_file_);
  if (!store) return Fail(store.error());
  if (runs_list_->parsed()) {
    auto runs = (*store)->ListRuns();
    if (!runs) return Fail(runs.error());
    std::string out =
        fmt::format("{:<26} {:<12} {:<11} {:>11} {:>9}  {}\n", "run", "name", "status", "done", "EX strict", "system");
    for (const auto& r : *runs) {
      auto scores = (*store)->Scores(r.id);
      if (!scores) return Fail(scores.error());
      auto summary = eval::ScoreJson(*scores)["summary"];
      std::string ex = summary["ex_strict"].is_null() ? "-" : fmt::format("{:.3f}", summary["ex_strict"].get<double>());
      out += fmt::format("{:<26} {:<12} {:<11} {:>11} {:>9}  {}\n", r.id, r.spec.name, r.status,
                         fmt::format("{}/{}", r.done, r.total), ex, eval::SystemLabel(r.spec.system));
    }
    Write(out);
    return 0;
  }
  auto a = (*store)->GetRun(run_a_);
  if (!a) return Fail(a.error());
  auto scores_a = (*store)->Scores(a->id);
  if (!scores_a) return Fail(scores_a.error());
  if (runs_show_->parsed()) {
    if (json_) {
      auto j = eval::ScoreJson(*scores_a);
      j["run"] = a->id;
      Write(j.dump(2) + "\n");
      return 0;
    }
    Write(fmt::format("run {}{} ({}, {}/{} questions) on {} {}, system {}\n", a->id,
                      a->spec.name.empty() ? "" : " \"" + a->spec.name + "\"", a->status, a->done, a->total,
                      a->spec.benchmark, a->spec.questions, eval::SystemLabel(a->spec.system)) +
          eval::ScoreText(*scores_a));
    return 0;
  }
  if (runs_stats_->parsed()) {
    auto classifier = naturalness::Classifier::Load(naturalness::DefaultDataDir());
    if (!classifier) return Fail(classifier.error());
    auto j = eval::RunStatistics(*scores_a, *classifier);
    j["run"] = a->id;
    Write(j.dump(2) + "\n");
    return 0;
  }
  if (runs_report_->parsed()) {
    auto classifier = naturalness::Classifier::Load(naturalness::DefaultDataDir());
    if (!classifier) return Fail(classifier.error());
    eval::ReportRun first{*a, *scores_a, eval::RunStatistics(*scores_a, *classifier)};
    std::optional<eval::ReportRun> second;
    if (!run_b_.empty()) {
      auto b = (*store)->GetRun(run_b_);
      if (!b) return Fail(b.error());
      auto scores_b = (*store)->Scores(b->id);
      if (!scores_b) return Fail(scores_b.error());
      second = eval::ReportRun{*b, *scores_b, eval::RunStatistics(*scores_b, *classifier)};
    }
    std::string html = eval::RunReportHtml(first, second ? &*second : nullptr);
    if (Status st = WriteFileAtomically(report_out_, html); !st) return Fail(st.error());
    Write(fmt::format("wrote {} ({} bytes)\n", report_out_, html.size()));
    return 0;
  }
  if (runs_compare_->parsed()) {
    auto b = (*store)->GetRun(run_b_);
    if (!b) return Fail(b.error());
    auto scores_b = (*store)->Scores(b->id);
    if (!scores_b) return Fail(scores_b.error());
    auto j = eval::CompareRuns(*scores_a, *scores_b);
    j["a"] = a->id;
    j["b"] = b->id;
    Write(j.dump(2) + "\n");
    return 0;
  }
  // export
  if (export_format_ != "jsonl" && export_format_ != "csv") {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--format must be jsonl or csv"));
  }
  auto j = eval::ScoreJson(*scores_a);
  // Plus what only a run has: the latency and the cost of each stage.
  for (size_t i = 0; i < scores_a->size() && i < j["questions"].size(); ++i) {
    j["questions"][i]["latency_ms"] = (*scores_a)[i].latency_ms;
    j["questions"][i]["stages"] = eval::StagesToJson((*scores_a)[i].stages);
  }
  std::string out;
  bool header = true;
  for (const auto& q : j["questions"]) {
    if (export_format_ == "jsonl") {
      out += q.dump() + "\n";
      continue;
    }
    if (header) {
      std::vector<std::string> keys;
      for (const auto& [k, v] : q.items()) keys.push_back(k);
      out += Join(keys, ",") + "\n";
      header = false;
    }
    std::vector<std::string> cells;
    for (const auto& [k, v] : q.items()) {
      cells.push_back(CsvField(v.is_string() ? v.get<std::string>() : v.is_null() ? std::string() : v.dump()));
    }
    out += Join(cells, ",") + "\n";
  }
  Write(out);
  return 0;
}

}  // namespace plainsql::cli
