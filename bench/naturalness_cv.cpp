// Cross-validated accuracy of the naturalness classifier's features on the training file alone: the training file is
// split into K folds by position, each fold scored by a model trained on the others, for each C. A feature change is
// chosen on this figure, so that the validation file stays a report (issue #21, item 4).
//   naturalness_cv [--one-vs-rest] TRAIN.csv [K] [C...]   (the learner: the shipped ordinal one unless --one-vs-rest)
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "naturalness/classifier.h"

using namespace plainsql;
using namespace plainsql::naturalness;

int main(int argc, char** argv) {
  Learner learner = Learner::kOrdinal;
  if (argc > 1 && std::string(argv[1]) == "--one-vs-rest") {
    learner = Learner::kOneVsRest;
    --argc;
    ++argv;
  }
  if (argc < 2) {
    fmt::print(stderr, "usage: naturalness_cv [--one-vs-rest] TRAIN.csv [K] [C...]\n");
    return 2;
  }
  auto train = LoadLabeled(argv[1]);
  auto words = WordList::Load(DefaultDataDir() + "/words.tsv");
  if (!train || !words) {
    fmt::print(stderr, "cannot read the training file or the word list\n");
    return 1;
  }
  int folds = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<double> cs;
  for (int i = 3; i < argc; ++i) cs.push_back(std::atof(argv[i]));
  if (cs.empty()) cs = {1, 3};
  for (double c : cs) {
    size_t right = 0;
    for (int f = 0; f < folds; ++f) {
      std::vector<LabeledIdentifier> in, out;
      for (size_t i = 0; i < train->size(); ++i) {
        (static_cast<int>(i % static_cast<size_t>(folds)) == f ? out : in).push_back((*train)[i]);
      }
      TrainOptions options;
      options.c_values = {c};
      options.learner = learner;
      TrainReport report;
      auto model = naturalness::Train(in, out, *words, options, &report);
      if (!model) return 1;
      right +=
          static_cast<size_t>(std::lround(report.candidates[0].validation.accuracy * static_cast<double>(out.size())));
    }
    fmt::print("C {}: {}-fold accuracy {:.4f}\n", c, folds,
               static_cast<double>(right) / static_cast<double>(train->size()));
  }
  return 0;
}
