// `plainsql eval run` as a library call (see runner.h).
#include "eval/runner.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <optional>
#include <set>

#include "eval/subset_source.h"
#include "eval/systems.h"
#include "pipeline/config.h"

namespace plainsql::eval {

namespace {

// The system a run measures: stored predictions (one per benchmark question) or a pipeline configuration.
struct System {
  std::vector<std::string> predictions;
  std::optional<pipeline::PipelineConfig> pipeline;
  bool builtin = false;
  std::optional<linking::KeyInferenceMode> infer_keys;       // the built-in translator on inferred keys
  std::shared_ptr<const examples::ExampleLibrary> examples;  // loaded once, shared by every worker
  std::optional<SubsetSetup> subsets;                        // eval run --subset: shared by every worker
  std::optional<NamesLevel> names;                           // eval run --crosswalk-dir / --level
};

// Ground needs a store that holds the benchmark's own questions (each is left out when it is asked).
Status CheckGround(const examples::ExampleLibrary& library, const Benchmark& benchmark) {
  std::set<std::pair<std::string, std::string>> stored;
  for (const auto& e : library.Examples()) stored.emplace(e.db_id, e.question);
  for (const auto& q : benchmark.questions) {
    if (stored.count({q.db_id, q.question})) return Status::Ok();
  }
  return MakeError(ErrorCode::kInvalidArgument,
                   fmt::format("the example store {} holds none of this benchmark's questions; the ground "
                               "configuration needs one built from them (plainsql examples build --questions ...)",
                               library.Where()));
}

// A pipeline configuration's example store, loaded (null when it names none); ground is checked against the benchmark.
Result<std::shared_ptr<const examples::ExampleLibrary>> LoadRunExamples(const pipeline::PipelineConfig& config,
                                                                        const Benchmark& benchmark) {
  auto library = pipeline::LoadExamples(config.examples);
  if (!library) return library.error();
  if (*library && config.examples.configuration == "ground") {
    if (Status st = CheckGround(**library, benchmark); !st) return st.error();
  }
  return library;
}

Result<System> PredictionsSystem(const std::string& file, const Benchmark& benchmark) {
  auto p = LoadPredictions(file);
  if (!p) return p.error();
  if (p->size() != benchmark.questions.size()) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("{} has {} lines but the benchmark has {} questions",
                                                              file, p->size(), benchmark.questions.size()));
  }
  System s;
  s.predictions = std::move(*p);
  return s;
}

// Sets up `spec.system` (without its subset), checking now (before a run is created) that a generator can be built
// and the databases are there. A pipeline configuration is stored in the spec as JSON, so a resumed run uses the same
// one.
Result<System> ResolveBaseSystem(RunSpec& spec, const Benchmark& benchmark, const RunRequest& request) {
  bool configured = !request.configuration.empty() || !request.examples.empty();
  bool pipeline_system = spec.system == "pipeline" || spec.system.starts_with("pipeline:");
  if (configured && (!pipeline_system || spec.system.starts_with("pipeline:{"))) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "--configuration and --examples apply to a new run of --system pipeline (a resumed run keeps its "
                     "own)");
  }
  if (spec.system.starts_with("predictions:")) return PredictionsSystem(spec.system.substr(12), benchmark);
  System s;
  if (auto builtin = ParseBuiltinSystem(spec.system)) {
    // The built-in translator through the pipeline (checks, execution, voting), with the default pipeline options;
    // "builtin:infer-keys=MODE" on each schema with inferred keys.
    if (!*builtin) return builtin->error();
    s.pipeline.emplace();
    s.builtin = true;
    s.infer_keys = **builtin;
    if (auto probe = PipelineSystem::Create(*s.pipeline, spec.db_dir, true, nullptr, s.infer_keys); !probe) {
      return probe.error();
    }
    return s;
  }
  if (spec.system == "pipeline" || spec.system.starts_with("pipeline:")) {
    // From --config / plainsql.toml / the environment (`pipeline`), from a file (`pipeline:FILE.toml`), or as a run
    // stored it (`pipeline:{...}`, when resuming).
    auto config = spec.system.starts_with("pipeline:{")
                      ? PipelineConfigFromSpec(spec.system)
                      : pipeline::LoadConfig(spec.system == "pipeline" ? request.config_file : spec.system.substr(9));
    if (!config) return config.error();
    if (Status st = ApplyConfiguration(*config, request.configuration, request.examples); !st) return st.error();
    auto library = LoadRunExamples(*config, benchmark);
    if (!library) return library.error();
    if (auto probe = PipelineSystem::Create(*config, spec.db_dir, false, *library); !probe) return probe.error();
    s.pipeline = std::move(*config);
    s.examples = std::move(*library);
    spec.system = PipelineSystemSpec(*s.pipeline);
    return s;
  }
  return MakeError(ErrorCode::kInvalidArgument,
                   fmt::format("unknown --system '{}': use builtin (the built-in offline translator; "
                               "builtin:infer-keys=add|replace|isolated on inferred keys), "
                               "predictions:FILE (one SQL per line, in question order), pipeline (the "
                               "configuration of plainsql.toml and the environment) or pipeline:FILE.toml",
                               spec.system));
}

// The system with its schema subsets: a new run's --subset, or the one a resumed run stored with its system.
Result<System> ResolveSubsetSystem(RunSpec& spec, const Benchmark& benchmark, const RunRequest& request) {
  auto [base, stored] = SplitSubset(spec.system);
  auto source = ParseSubsetSource(request.resume.empty() ? request.subset : stored);
  if (!source) return source.error();
  spec.system = base;
  auto system = ResolveBaseSystem(spec, benchmark, request);
  if (!system) return system.error();
  if (source->kind == SubsetKind::kNone) return system;
  if (!system->pipeline) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "--subset applies to a system that answers (builtin or pipeline), not to a predictions file");
  }
  auto setup = PrepareSubsets(*source, benchmark, spec.tables, spec.db_dir);
  if (!setup) return setup.error();
  system->subsets = std::move(*setup);
  spec.system = SystemWithSubset(spec.system, *source);
  return system;
}

// The system with its naming level: a new run's --crosswalk-dir and --level, or the one a resumed run stored.
Result<System> ResolveSystem(RunSpec& spec, const Benchmark& benchmark, const RunRequest& request) {
  auto [unnamed, stored_names] = SplitNames(spec.system);
  std::optional<NamesLevel> names = stored_names;
  if (request.resume.empty()) {
    auto given = ParseNamesLevel(request.crosswalk_dir, request.level, request.via);
    if (!given) return given.error();
    names = *given;
  }
  spec.system = unnamed;
  auto system = ResolveSubsetSystem(spec, benchmark, request);
  if (!system || !names) return system;
  if (!system->pipeline) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "--crosswalk-dir applies to a system that answers (builtin or pipeline), not to a predictions "
                     "file: translate the predictions with `plainsql translate` and score them");
  }
  std::vector<Question> asked;  // a new run's questions (a resumed run was checked when it was created)
  if (request.resume.empty()) {
    for (size_t i : SelectQuestions(benchmark, request.selection)) asked.push_back(benchmark.questions[i]);
  }
  if (auto st = CheckCrosswalks(names->crosswalk_dir, asked); !st) return st.error();
  system->names = names;
  spec.system = SystemWithNames(spec.system, names);
  return system;
}

// What one run works on: its questions by position, with the stored prediction of each (when the system is a file).
struct RunQuestions {
  std::vector<Question> questions;
  std::vector<std::string> predictions;
  void Add(const Benchmark& benchmark, size_t index, const System& system) {
    questions.push_back(benchmark.questions[index]);
    predictions.push_back(system.predictions.empty() ? std::string() : system.predictions[index]);
  }
};

// A thread's work on one question: the system's answer (for a predictions file, a lookup), then the scoring, each
// timed as a stage.
QuestionWorkFactory MakeWork(const Benchmark& benchmark, const RunSpec& spec, const System& system,
                             const RunQuestions& run, const RunRequest::EstimatorFactory& make_estimator) {
  ScoreOptions options;
  options.db_dir = spec.db_dir;
  options.tables_file = spec.tables;
  options.keep_distinct = spec.keep_distinct;
  options.limits.timeout = std::chrono::milliseconds(spec.timeout_ms);
  return [&benchmark, &spec, &system, &run, options, make_estimator]() -> Result<QuestionWork> {
    auto scorer = std::make_shared<Scorer>(benchmark, options);
    std::shared_ptr<QuestionEstimator> estimator;
    if (make_estimator) estimator = make_estimator(spec, benchmark.dialect);
    std::shared_ptr<PipelineSystem> answerer;
    if (system.pipeline) {
      auto created =
          PipelineSystem::Create(*system.pipeline, spec.db_dir, system.builtin, system.examples, system.infer_keys);
      if (!created) return created.error();
      if (system.subsets) (*created)->UseSubsets(std::make_unique<SubsetSupplier>(*system.subsets));
      if (system.names) (*created)->UseNames(*system.names);
      answerer = std::move(*created);
    }
    return QuestionWork([scorer, answerer, estimator, &run](size_t position) -> Result<QuestionScore> {
      if (position >= run.questions.size()) {
        return MakeError(ErrorCode::kFormat, fmt::format("the run has no question at position {}", position));
      }
      const Question& q = run.questions[position];
      auto t0 = std::chrono::steady_clock::now();
      SystemAnswer answer;
      if (answerer) {
        auto a = answerer->Answer(q);
        // A database that cannot be opened, or a model that cannot be reached after the retries, stops the run:
        // every further question would fail the same way. The run can be resumed.
        if (!a) return a.error();
        if (a->code == std::optional<ErrorCode>(ErrorCode::kConnection)) {
          return MakeError(ErrorCode::kConnection, a->error);
        }
        answer = std::move(*a);
      } else {
        answer.sql = run.predictions[position];
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        answer.stages.push_back({"system", ms, 0, 0});
      }
      auto score = scorer->Score(q, answer.sql);
      if (!score) return score;
      score->stages.insert(score->stages.begin(), answer.stages.begin(), answer.stages.end());
      score->confidence = answer.confidence;
      if (estimator) score->estimated_correctness = estimator->Estimate(q);
      if (!answer.error.empty() && answer.sql.empty()) score->error = "system: " + answer.error;
      return score;
    });
  };
}

}  // namespace

Status ValidateRunRequest(const RunRequest& r) {
  if (r.spec.timeout_ms <= 0) return MakeError(ErrorCode::kInvalidArgument, "--timeout must be positive");
  if (r.workers.threads < 1 || r.workers.threads > 256) {
    return MakeError(ErrorCode::kInvalidArgument, "--workers must be between 1 and 256");
  }
  if (!r.resume.empty()) {
    if (!r.subset.empty()) {
      return MakeError(ErrorCode::kInvalidArgument, "--subset applies to a new run (a resumed run keeps its own)");
    }
    return Status::Ok();
  }
  if (r.spec.questions.empty() || r.spec.system.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, "eval run needs --questions and --system (or --resume RUN)");
  }
  if (r.spec.db_dir.empty() && r.spec.tables.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "give --db-dir (to execute) or --tables (to score linking and exact match only)");
  }
  return Status::Ok();
}

Result<RunResult> RunBenchmark(const RunRequest& request) {
  if (Status st = ValidateRunRequest(request); !st) return st.error();
  // A new run's arguments are checked before the runs database is touched (a mistake creates no file).
  std::unique_ptr<RunStore> store;
  RunSpec spec = request.spec;
  RunResult result;
  if (!request.resume.empty()) {
    auto opened = RunStore::Open(request.runs);
    if (!opened) return opened.error();
    store = std::move(*opened);
    auto run = store->GetRun(request.resume);
    if (!run) return run.error();
    if (run->status == "done") {
      return MakeError(ErrorCode::kInvalidArgument, fmt::format("run {} is complete; nothing to resume", run->id));
    }
    spec = run->spec;
    result.run_id = run->id;
  }
  auto benchmark = LoadBenchmark(spec.benchmark, spec.questions);
  if (!benchmark) return benchmark.error();
  auto system = ResolveSystem(spec, *benchmark, request);
  if (!system) return system.error();
  RunQuestions run;
  if (result.run_id.empty()) {
    auto opened = RunStore::Open(request.runs);
    if (!opened) return opened.error();
    store = std::move(*opened);
    for (size_t i : SelectQuestions(*benchmark, request.selection)) run.Add(*benchmark, i, *system);
    auto id = store->CreateRun(spec, run.questions);
    if (!id) return id.error();
    result.run_id = *id;
  } else {
    // The run's own question list, as stored: positions follow the benchmark indexes chosen when it was created.
    auto indexes = store->QuestionIndexes(result.run_id);
    if (!indexes) return indexes.error();
    for (size_t idx : *indexes) {
      if (idx >= benchmark->questions.size()) {
        return MakeError(ErrorCode::kFormat,
                         fmt::format("run {} has question {}, but {} has only {} questions", result.run_id, idx,
                                     spec.questions, benchmark->questions.size()));
      }
      run.Add(*benchmark, idx, *system);
    }
  }
  auto outcome =
      WorkOnRun(*store, result.run_id, MakeWork(*benchmark, spec, *system, run, request.estimator), request.workers);
  if (!outcome) return outcome.error();
  result.outcome = *outcome;
  if (!outcome->finished) return result;
  auto scores = store->Scores(result.run_id);
  if (!scores) return scores.error();
  result.scores = std::move(*scores);
  return result;
}

}  // namespace plainsql::eval
