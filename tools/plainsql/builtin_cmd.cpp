// `plainsql builtin train` (see builtin_cmd.h).
#include "builtin_cmd.h"

#include <fmt/format.h>
#include <algorithm>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "builtin/lexicon_train.h"
#include "builtin/train.h"
#include "cli.h"
#include "common/file.h"
#include "eval/benchmark.h"

namespace plainsql::cli {

namespace {

nlohmann::ordered_json ReportJson(const builtin::RankingReport& r) {
  auto share = [&](size_t n) { return r.questions ? static_cast<double>(n) / static_cast<double>(r.questions) : 0.0; };
  return {{"questions", r.questions},
          {"translator_ex", share(r.translator_right)},
          {"ranked_ex", share(r.ranked_right)},
          {"oracle_ex", share(r.any_right)},
          {"ece", r.ece},
          {"top_half_accuracy", r.top_half},
          {"bottom_half_accuracy", r.bottom_half}};
}

nlohmann::ordered_json SkeletonJson(const builtin::SkeletonReadings& s) {
  return {{"readings", s.readings}, {"right", s.right}, {"questions_only_skeleton_right", s.only_skeleton_right}};
}

}  // namespace

BuiltinCommands::BuiltinCommands(CLI::App& app) {
  CLI::App* group = app.add_subcommand("builtin", "The built-in offline translator's learned parts");
  group->require_subcommand(1);
  shape_c_ = builtin::kShapeC;
  train_ = group->add_subcommand(
      "train",
      "Fit the reading scorer on a Spider-format training set: every question translated, each candidate run and "
      "labelled by whether its result equals the gold result; a share of the databases is held out to report on, "
      "then the model is fitted on all of them and written");
  train_->add_option("--questions", questions_, "Training questions (Spider JSON: db_id, question, query)")->required();
  train_->add_option("--db-dir", db_dir_, "Folder of the SQLite databases (Spider layout)")->required();
  train_->add_option("-o,--out", out_, "Where to write the model (none: only the report)");
  train_->add_option("--shape-out", shape_out_,
                     "Where to write the shape model, which predicts a query's shape from the question and whose "
                     "agreement with each reading the scorer reads (none: not written)");
  train_->add_option("--skeletons-out", skeletons_out_,
                     "Where to write the skeletons of solved questions the translator fills with a question's own "
                     "tables, columns and values (none: not written)");
  train_->add_option("--shape-c", shape_c_, "liblinear's C for the shape model")
      ->check(Positive())
      ->capture_default_str();
  train_->add_option("--validation", validation_, "Share of the databases held out for the report")
      ->check(CLI::Range(0.0, 0.9))
      ->capture_default_str();
  train_->add_option("--c", c_, "liblinear's C (inverse regularisation)")->check(Positive())->capture_default_str();
  train_
      ->add_option("--foreign-every", foreign_every_,
                   "Every N questions, the question's database is also asked another database's question, whose "
                   "readings all count as wrong, so that P(right) learns what an unanswerable question looks like (0: "
                   "none)")
      ->capture_default_str();
  train_->add_option("--candidates", candidates_, "Candidates run per question")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  train_
      ->add_option("--unsure-accuracy", unsure_accuracy_,
                   "The unsure threshold is the highest probability below which at most this share of the held-out "
                   "answers were right, within one standard error (`ask` shows answers below it as unsure)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  train_->add_flag("--json", json_, "The report as one JSON object");
  lexicon_ = group->add_subcommand(
      "lexicon",
      "Learn the lexicon from a Spider-format training set: question words that name nothing of the schema as "
      "written, paired with the words of the names the gold query reads that the question does not write");
  lexicon_->add_option("--questions", questions_, "Training questions (Spider JSON: db_id, question, query)")
      ->required();
  lexicon_->add_option("--db-dir", db_dir_, "Folder of the SQLite databases (Spider layout)")->required();
  lexicon_->add_option("-o,--out", out_, "Where to write the lexicon (none: printed)");
  lexicon_->add_option("--min-count", min_count_, "Questions a pair must be seen in")->capture_default_str();
  lexicon_->add_option("--min-databases", min_databases_, "Databases a pair must be seen in")->capture_default_str();
  lexicon_
      ->add_option("--min-share", min_share_,
                   "Share of the questions where the question word named nothing that must hold the pair")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  lexicon_
      ->add_option("--validation", learn_validation_,
                   "Learn without the share of the databases `builtin train --validation` holds out (to measure "
                   "a lexicon on databases it never saw)")
      ->check(CLI::Range(0.0, 0.9))
      ->capture_default_str();
  lexicon_
      ->add_flag("--paraphrases,!--no-paraphrases", paraphrases_,
                 "Also learn from each question's other wording (`question_syn` in Spider train: a paraphrase "
                 "with synonyms for the schema's words), as a second question with the same query")
      ->capture_default_str();
  lexicon_->add_flag("--json", json_, "The pairs as a JSON array");
}

int BuiltinCommands::Run() { return train_->parsed() ? RunTrain() : RunLexicon(); }

int BuiltinCommands::RunLexicon() {
  auto bench = eval::LoadSpiderQuestions(questions_);
  if (!bench) return Fail(bench.error());
  const size_t paraphrases =
      paraphrases_ ? static_cast<size_t>(std::count_if(bench->questions.begin(), bench->questions.end(),
                                                       [](const eval::Question& q) { return !q.paraphrase.empty(); }))
                   : 0;
  auto resources = linking::LinkResources::Load();
  if (!resources) return Fail(resources.error());
  builtin::LexiconOptions options;
  options.db_dir = db_dir_;
  options.min_count = min_count_;
  options.min_databases = min_databases_;
  options.min_share = min_share_;
  options.paraphrases = paraphrases_;
  if (learn_validation_ > 0) {
    options.use = [&](const std::string& db) { return !builtin::InValidation(db, learn_validation_); };
  }
  size_t shown = 0;
  options.progress = [&](size_t done, size_t total) {
    if (done == total || done >= shown + 500) {
      fmt::print(stderr, "\rread {} of {} questions", done, total);
      if (done == total) fmt::print(stderr, "\n");
      shown = done;
    }
  };
  auto entries = builtin::LearnLexicon(*bench, options, **resources);
  if (!entries) return Fail(entries.error());
  const std::string header = fmt::format(
      "Generated by `plainsql builtin lexicon` (do not edit) from {}{}{}:\n"
      "question words (stems) and the schema words their gold queries read when the question does not write them;\n"
      "kept when seen in at least {} questions of {} databases and in at least {} of the questions where the question\n"
      "word named nothing.",
      std::filesystem::path(questions_).filename().string(),
      paraphrases ? fmt::format(" and {} paraphrases", paraphrases) : "",
      learn_validation_ > 0 ? fmt::format(" without the {} of the databases held out", learn_validation_) : "",
      min_count_, min_databases_, min_share_);
  if (!out_.empty()) {
    if (auto w = WriteFileAtomically(out_, linking::Lexicon::Format(*entries, header)); !w) return Fail(w.error());
  }
  if (json_) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& e : *entries) {
      j.push_back({{"question", e.question_stem},
                   {"schema", e.schema_stem},
                   {"count", e.count},
                   {"databases", e.databases},
                   {"share", e.share}});
    }
    Write(j.dump() + "\n");
    return 0;
  }
  Write(fmt::format("{} pairs\n", entries->size()));
  if (out_.empty())
    Write(linking::Lexicon::Format(*entries, header));
  else
    Write(fmt::format("lexicon written to {}\n", out_));
  return 0;
}

int BuiltinCommands::RunTrain() {
  auto bench = eval::LoadSpiderQuestions(questions_);
  if (!bench) return Fail(bench.error());
  auto resources = linking::LinkResources::Load();
  if (!resources) return Fail(resources.error());
  builtin::TrainOptions options;
  options.collect.db_dir = db_dir_;
  options.collect.max_candidates = candidates_;
  options.collect.foreign_every = foreign_every_;
  size_t shown = 0;
  options.collect.progress = [&](size_t done, size_t total) {
    if (done == total || done >= shown + 250) {
      fmt::print(stderr, "\rtranslated and ran {} of {} questions", done, total);
      if (done == total) fmt::print(stderr, "\n");
      shown = done;
    }
  };
  options.validation = validation_;
  options.c = c_;
  options.shape_c = shape_c_;
  options.unsure_accuracy = unsure_accuracy_;
  options.source = std::filesystem::path(questions_).filename().string();
  auto trained = builtin::TrainReadingScorer(*bench, options, **resources);
  if (!trained) return Fail(trained.error());
  if (!out_.empty()) {
    if (auto w = WriteFileAtomically(out_, trained->text); !w) return Fail(w.error());
  }
  if (!shape_out_.empty()) {
    if (auto w = WriteFileAtomically(shape_out_, trained->shape_text); !w) return Fail(w.error());
  }
  if (!skeletons_out_.empty()) {
    if (auto w = WriteFileAtomically(skeletons_out_, trained->skeletons_text); !w) return Fail(w.error());
  }
  const builtin::Collected& d = trained->data;
  nlohmann::ordered_json j = {{"questions", d.questions},
                              {"skipped", d.skipped},
                              {"candidates", d.rows.size()},
                              {"foreign_candidates", d.foreign_readings},
                              {"held_out", ReportJson(trained->held_out)},
                              {"threshold", trained->model.threshold},
                              {"unsure_share", trained->unsure_share},
                              {"unsure_accuracy", trained->unsure_accuracy},
                              {"foreign_answered", trained->foreign_answered},
                              {"foreign_unsure", trained->foreign_unsure},
                              {"skeletons", trained->skeletons.Size()},
                              {"skeleton_readings", SkeletonJson(builtin::CountSkeletonReadings(d))}};
  double shape_mean = 0, majority_mean = 0;
  for (size_t k = 0; k < builtin::kShapePropertyCount; ++k) {
    const std::string name(builtin::kShapeProperties[k]);
    j["shape_held_out"][name] = {{"accuracy", trained->shape_accuracy[k]}, {"majority", trained->shape_majority[k]}};
    shape_mean += trained->shape_accuracy[k] / static_cast<double>(builtin::kShapePropertyCount);
    majority_mean += trained->shape_majority[k] / static_cast<double>(builtin::kShapePropertyCount);
  }
  if (json_) {
    Write(j.dump() + "\n");
    return 0;
  }
  Write(fmt::format("{} questions ({} skipped), {} candidates ({} of them of questions asked of another database)\n",
                    d.questions, d.skipped, d.rows.size(), d.foreign_readings));
  const auto& h = j["held_out"];
  Write(
      fmt::format("held out ({} questions on {:.0f}% of the databases): EX translator order {:.4f}, ranked {:.4f}, any "
                  "candidate {:.4f}; ECE {:.4f}; accuracy of the more / less confident half {:.4f} / {:.4f}\n",
                  h["questions"].get<size_t>(), validation_ * 100, h["translator_ex"].get<double>(),
                  h["ranked_ex"].get<double>(), h["oracle_ex"].get<double>(), h["ece"].get<double>(),
                  h["top_half_accuracy"].get<double>(), h["bottom_half_accuracy"].get<double>()));
  Write(fmt::format(
      "unsure threshold {:.2f} and coverage floor {:.2f} ({:.1f}% of the held-out answers below the floor): "
      "{:.1f}% of the held-out answers fall below either, {:.1f}% of those right\n",
      trained->model.threshold, trained->model.min_coverage, 100 * trained->below_floor_share,
      100 * trained->unsure_share, 100 * trained->unsure_accuracy));
  Write(
      fmt::format("questions asked of another held-out database: {} got a reading, {:.1f}% of those below the "
                  "threshold or the floor\n",
                  trained->foreign_answered, 100 * trained->foreign_unsure));
  Write(
      fmt::format("shape model on the held-out questions: {:.4f} of the properties predicted right (the more common "
                  "value alone: {:.4f}); {} inputs with a weight when fitted on all\n",
                  shape_mean, majority_mean, trained->shape.Inputs()));
  if (!out_.empty()) Write(fmt::format("model written to {}\n", out_));
  if (!shape_out_.empty()) Write(fmt::format("shape model written to {}\n", shape_out_));
  if (!skeletons_out_.empty()) {
    Write(fmt::format("{} skeletons written to {}\n", trained->skeletons.Size(), skeletons_out_));
  }
  return 0;
}

}  // namespace plainsql::cli
