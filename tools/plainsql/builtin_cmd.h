// `plainsql builtin train`: fits the built-in translator's reading scorer (src/builtin/train.h) on a Spider-format
// training set, reports it on held-out databases and writes the model (data/reading_scorer.tsv is the shipped one).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace plainsql::cli {

class BuiltinCommands {
 public:
  explicit BuiltinCommands(CLI::App& app);
  bool Selected() const { return train_->parsed(); }
  int Run();

 private:
  CLI::App* train_ = nullptr;
  std::string questions_, db_dir_, out_;
  double validation_ = 0.2;
  double c_ = 1.0;
  double unsure_accuracy_ = 0.1;
  size_t candidates_ = 8;
  bool json_ = false;
};

}  // namespace plainsql::cli
