// `plainsql builtin train` and `plainsql builtin lexicon`. train fits the built-in translator's reading scorer
// (src/builtin/train.h) on a Spider-format training set, reports it on held-out databases and writes the model
// (data/reading_scorer.tsv is the shipped one); lexicon learns question-word / schema-word pairs from one
// (src/builtin/lexicon_train.h; data/lexicon.tsv).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace plainsql::cli {

class BuiltinCommands {
 public:
  explicit BuiltinCommands(CLI::App& app);
  bool Selected() const { return train_->parsed() || lexicon_->parsed(); }
  int Run();

 private:
  int RunTrain();
  int RunLexicon();
  CLI::App* train_ = nullptr;
  CLI::App* lexicon_ = nullptr;
  size_t min_count_ = 3, min_databases_ = 1;
  double min_share_ = 0.6;
  bool paraphrases_ = true;
  double learn_validation_ = 0;
  std::string questions_, db_dir_, out_, shape_out_, skeletons_out_;
  double validation_ = 0.2;
  double c_ = 1.0;
  double shape_c_ = 0;  // builtin::kShapeC, set by the constructor (one home for the default)
  size_t foreign_every_ = 10;
  double unsure_accuracy_ = 0.1;
  size_t candidates_ = 8;
  bool json_ = false;
};

}  // namespace plainsql::cli
