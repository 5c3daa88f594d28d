// `plainsql naturalness ...` (classify identifiers, evaluate and train the classifier, build the word list) and
// `plainsql profile` (the naturalness report of a schema).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace plainsql::cli {

class NaturalnessCommands {
 public:
  explicit NaturalnessCommands(CLI::App& app);
  bool Selected() const { return root_->parsed() || profile_->parsed(); }
  int Run();

 private:
  int Classify();
  int Eval();
  int Train();
  int WordList();
  int NameModel();
  int Profile();
  int CheckCrosswalk();
  int Expand();

  CLI::App* root_ = nullptr;
  CLI::App* classify_ = nullptr;
  CLI::App* eval_ = nullptr;
  CLI::App* train_ = nullptr;
  CLI::App* wordlist_ = nullptr;
  CLI::App* name_model_ = nullptr;
  std::string db_dir_, questions_file_, name_model_file_;
  std::vector<std::string> excluded_;
  CLI::App* profile_ = nullptr;
  CLI::App* check_ = nullptr;
  CLI::App* expand_ = nullptr;
  bool explain_ = false;
  std::string crosswalk_file_;
  std::string conn_, tables_file_, db_id_, format_ = "text", schema_filter_;
  size_t top_ = 20;
  std::string data_dir_;
  std::vector<std::string> identifiers_;
  std::string eval_file_;
  bool json_ = false;
  std::string train_file_, validation_file_, out_, words_file_, learner_ = "ordinal";
  std::vector<double> c_values_;
};

}  // namespace plainsql::cli
