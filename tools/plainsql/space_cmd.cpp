// `plainsql space ...` (see space_cmd.h).
#include "space_cmd.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>

#include "cli.h"
#include "common/file.h"
#include "eval/runs.h"
#include "features/benchmark.h"
#include "features/compare.h"
#include "features/estimator_train.h"
#include "linking/subset_builtin.h"

namespace plainsql::cli {

SpaceCommands::SpaceCommands(CLI::App& app) {
  root_ = app.add_subcommand("space", "SQLSpace analyses over the features of `plainsql features`");
  root_->require_subcommand(1);
  compare_ = root_->add_subcommand(
      "compare",
      "Benchmark composition: each feature's share in each set (files of `plainsql features --questions Q --json`), "
      "a chi-square test of equal shares, and the features that set each set apart");
  compare_->add_option("FILES", files_, "Two feature files or more (JSON lines of plainsql features --json)")
      ->required()
      ->expected(2, -1);
  compare_->add_option("--name", names_, "A name per file, in order (default: the file's name without extension)");
  compare_->add_option("--top", top_, "Distinctive features shown per set, each way")->capture_default_str();
  compare_->add_flag("--json", json_, "One JSON object: the sets with their distinctive features, every feature");
  compare_->add_option("--html", html_, "Also write a self-contained HTML report with charts to this file");

  estimator_ = root_->add_subcommand(
      "estimator", "The correctness estimator: the probability a system answers a question right, from its features");
  estimator_->require_subcommand(1);
  train_ = estimator_->add_subcommand(
      "train", "Fit an estimator on a stored run's outcomes (EX strict) and the live features of its questions");
  train_
      ->add_option("RUN", train_runs_,
                   "Run id, id prefix or name; several runs of the same system are fitted on together (the "
                   "held-out split is by database across them)")
      ->required();
  train_->add_option("-o,--output", out_, "The model file to write")->required();
  train_->add_option("--runs", runs_file_, "The runs database: a SQLite file or a postgresql:// URL")
      ->capture_default_str();
  train_->add_option("--validation", validation_, "Share of the databases held out to report on (0: none)")
      ->check(CLI::Range(0.0, 0.9))
      ->capture_default_str();
  train_->add_option("--folds", folds_, "Cross-validate over this many folds of databases (below 2: none)")
      ->check(CLI::Range(0, 50))
      ->capture_default_str();
  train_->add_option("--rounds", rounds_, "Trees")->capture_default_str()->check(CLI::Range(1, 5000));
  train_->add_option("--depth", depth_, "Levels per tree")->capture_default_str()->check(CLI::Range(1, 12));
  train_->add_option("--eta", eta_, "Learning rate")->capture_default_str()->check(CLI::Range(0.001, 1.0));
  eval_ = estimator_->add_subcommand(
      "eval", "Measure an estimator on a stored run: ROC AUC, calibration (ECE), right answers by confidence half");
  eval_->add_option("RUN", run_, "Run id, id prefix or name")->required();
  eval_->add_option("--model", model_, "The model file (default: the shipped estimator of the built-in translator)");
  eval_->add_option("--runs", runs_file_, "The runs database: a SQLite file or a postgresql:// URL")
      ->capture_default_str();
  eval_->add_flag("--json", json_, "One JSON object");
}

int SpaceCommands::Run() {
  if (train_->parsed()) return EstimatorTrain();
  if (eval_->parsed()) return EstimatorEval();
  return Compare();
}

namespace {

// A run's estimator examples, with progress on stderr.
Result<std::vector<features::EstimatorExample>> ExamplesOf(const std::string& runs_file, const std::string& run_name,
                                                           eval::RunInfo& run) {
  auto store = eval::RunStore::Open(runs_file);
  if (!store) return store.error();
  auto info = (*store)->GetRun(run_name);
  if (!info) return info.error();
  run = *info;
  auto scores = (*store)->Scores(run.id);
  if (!scores) return scores.error();
  auto resources = linking::LinkResources::Load();
  if (!resources) return resources.error();
  auto examples = features::RunExamples(run, *scores, *resources, [](size_t done, size_t total) {
    if (done % 500 == 0 || done == total) fmt::print(stderr, "\rfeatures: {} / {}", done, total);
  });
  fmt::print(stderr, "\n");
  return examples;
}

}  // namespace

int SpaceCommands::EstimatorTrain() {
  std::vector<features::EstimatorExample> examples;
  std::vector<std::string> described;
  std::string system;
  for (const auto& name : train_runs_) {
    eval::RunInfo run;
    auto some = ExamplesOf(runs_file_, name, run);
    if (!some) return Fail(some.error());
    if (!system.empty() && run.spec.system != system) {
      return Fail(MakeError(ErrorCode::kInvalidArgument,
                            fmt::format("run {} is of system {}, not {}: an estimator is fitted on one system's runs",
                                        run.id, run.spec.system, system)));
    }
    system = run.spec.system;
    described.push_back(fmt::format("{} ({}, {})", run.id, run.spec.name, run.spec.questions));
    examples.insert(examples.end(), some->begin(), some->end());
  }
  features::EstimatorOptions options;
  options.system = system;
  options.validation = validation_;
  options.folds = folds_;
  options.boosting.rounds = rounds_;
  options.boosting.max_depth = depth_;
  options.boosting.eta = eta_;
  auto fit = features::FitEstimator(examples, options);
  if (!fit) return Fail(fit.error());
  const std::string comment = fmt::format(
      "plainsql correctness estimator, fitted by `plainsql space estimator train` on the runs\n{}\n"
      "system {}, {} examples, {} trees of depth {}, learning rate {}\n{}",
      fmt::join(described, "\n"), system, fit->train + fit->held_out, rounds_, depth_, eta_,
      features::FitFigures(*fit));
  if (auto st = WriteFileAtomically(out_, fit->model.Serialize(comment)); !st) return Fail(st.error());
  Write(features::FitText(*fit));
  return 0;
}

int SpaceCommands::EstimatorEval() {
  features::Estimator loaded;
  if (!model_.empty()) {
    auto m = features::Estimator::Load(model_);
    if (!m) return Fail(m.error());
    loaded = std::move(*m);
  }
  const features::Estimator& model = model_.empty() ? features::Estimator::Shipped() : loaded;
  eval::RunInfo run;
  auto examples = ExamplesOf(runs_file_, run_, run);
  if (!examples) return Fail(examples.error());
  const features::EstimatorReport r = features::EvaluateEstimator(model, *examples);
  nlohmann::json j = {{"run", run.id},
                      {"system", run.spec.system},
                      {"model_system", model.system},
                      {"examples", r.examples},
                      {"right", r.right},
                      {"mean_estimate", r.mean_estimate},
                      {"roc_auc", r.auc},
                      {"ece", r.ece},
                      {"right_more_confident_half", r.right_more_confident},
                      {"right_less_confident_half", r.right_less_confident}};
  if (json_) {
    Write(j.dump(2) + "\n");
  } else {
    Write(
        fmt::format("{} examples of run {} ({}), right {:.3f}, mean estimate {:.3f}\nROC AUC {:.4f}, ECE {:.4f}; "
                    "right in the more / less confident half: {:.3f} / {:.3f}\n",
                    r.examples, run.id, run.spec.system, r.right, r.mean_estimate, r.auc, r.ece, r.right_more_confident,
                    r.right_less_confident));
  }
  return 0;
}

int SpaceCommands::Compare() {
  if (!names_.empty() && names_.size() != files_.size()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, fmt::format("{} --name for {} files: give one per file, or none",
                                                                   names_.size(), files_.size())));
  }
  std::vector<features::FeatureSet> sets;
  for (size_t i = 0; i < files_.size(); ++i) {
    const std::string name = names_.empty() ? std::filesystem::path(files_[i]).stem().string() : names_[i];
    auto set = features::ReadFeatureLines(files_[i], name);
    if (!set) return Fail(set.error());
    sets.push_back(std::move(*set));
  }
  auto composition = features::Compare(sets, top_);
  if (!composition) return Fail(composition.error());
  if (!html_.empty()) {
    if (auto st = WriteFileAtomically(html_, features::CompositionHtml(*composition)); !st) return Fail(st.error());
  }
  Write(json_ ? features::CompositionJson(*composition).dump(2) + "\n" : features::CompositionText(*composition));
  return 0;
}

}  // namespace plainsql::cli
