// Does a second learner beat the naturalness classifier (issue #21, item 4)? Gradient-boosted trees (XGBoost, Debian's
// libxgboost-dev) stacked on the logistic regression: the trees see the regression's three probabilities, cross-fitted
// on the training file (each name scored by a model that did not train on it), and dense evidence about the name
// (length, words, capitals, digits, vowels, what kind each word is). One tree ensemble per level, one-vs-rest; the
// level with the largest margin wins. Trained on train.csv, scored on validation.csv beside the regression alone.
//   naturalness_stack TRAIN.csv VALIDATION.csv [DATA_DIR] [FOLDS]
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/boosting.h"
#include "naturalness/classifier.h"
#include "naturalness/identifier.h"

using namespace plainsql;
using namespace plainsql::naturalness;

namespace {

std::vector<double> Dense(std::string_view name, const Prediction& p, const WordList& words) {
  std::vector<double> x;
  for (double q : p.p) x.push_back(q);
  for (double q : p.p) x.push_back(std::log(std::max(q, 1e-9)));
  double upper = 0, lower = 0, digits = 0, vowels = 0, seps = 0, letters = 0;
  for (char c : name) {
    auto u = static_cast<unsigned char>(c);
    upper += std::isupper(u) ? 1 : 0;
    lower += std::islower(u) ? 1 : 0;
    digits += std::isdigit(u) ? 1 : 0;
    letters += std::isalpha(u) ? 1 : 0;
    vowels += std::strchr("aeiouAEIOU", c) && c ? 1 : 0;
    seps += c == '_' || c == '-' || c == ' ' ? 1 : 0;
  }
  double n = std::max<double>(1, static_cast<double>(name.size()));
  x.insert(x.end(), {n, upper / n, lower / n, digits / n, letters > 0 ? vowels / letters : 0, seps});
  std::array<double, 7> kinds{};
  double tiers = 0, word_letters = 0, longest = 0;
  std::vector<std::string_view> split = SplitWords(name);
  for (std::string_view w : split) {
    std::string l;
    for (char c : w) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    WordInfo info = AnalyzeWord(l, words);
    kinds[static_cast<size_t>(info.kind)] += 1;
    if (info.kind == WordKind::kWord) {
      tiers += info.tier;
      word_letters += static_cast<double>(l.size());
    }
    longest = std::max(longest, static_cast<double>(l.size()));
  }
  double k = std::max<double>(1, static_cast<double>(split.size()));
  x.push_back(static_cast<double>(split.size()));
  for (double c : kinds) x.push_back(c / k);
  x.insert(x.end(), {kinds[1] > 0 ? tiers / kinds[1] : -1, word_letters / n, longest});
  // How well the letters, run together, segment into dictionary words.
  std::string run;
  for (char c : name) {
    if (std::isalpha(static_cast<unsigned char>(c)))
      run += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  Segmentation seg = Segment(run, words);
  x.insert(x.end(), {letters > 0 ? seg.unknown_letters / letters : 1, static_cast<double>(seg.words),
                     seg.words > 0 ? (letters - seg.unknown_letters) / seg.words : 0});
  // Capital runs and case changes (SAP-style codes against camel case).
  double changes = 0, caps_run = 0, run_len = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    auto u = static_cast<unsigned char>(name[i]);
    if (i > 0 && std::islower(static_cast<unsigned char>(name[i - 1])) && std::isupper(u)) ++changes;
    run_len = std::isupper(u) ? run_len + 1 : 0;
    caps_run = std::max(caps_run, run_len);
  }
  x.insert(x.end(), {changes, caps_run});
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: naturalness_stack TRAIN.csv VALIDATION.csv [DATA_DIR] [FOLDS]\n");
    return 2;
  }
  std::string dir = argc > 3 ? argv[3] : DefaultDataDir();
  int folds = argc > 4 ? std::atoi(argv[4]) : 5;
  auto classifier = Classifier::Load(dir);
  auto train = LoadLabeled(argv[1]);
  auto validation = LoadLabeled(argv[2]);
  if (!classifier || !train || !validation) {
    fmt::print(stderr, "cannot read the model or the files\n");
    return 1;
  }
  const WordList& words = classifier->Words();
  double c = 1;
  for (const auto& [k, v] : classifier->GetModel().Info()) {
    if (k == "C" || k == "c") c = std::stod(v);
  }
  TrainOptions options;
  options.c_values = {c};
  // Out-of-fold probabilities on train.
  std::vector<Prediction> oof(train->size());
  for (int f = 0; f < folds; ++f) {
    std::vector<LabeledIdentifier> in, out;
    std::vector<size_t> held;
    for (size_t i = 0; i < train->size(); ++i) {
      if (static_cast<int>(i % static_cast<size_t>(folds)) == f) {
        out.push_back((*train)[i]);
        held.push_back(i);
      } else {
        in.push_back((*train)[i]);
      }
    }
    TrainReport report;
    auto m = naturalness::Train(in, out, words, options, &report);
    if (!m) return 1;
    for (size_t j = 0; j < held.size(); ++j) oof[held[j]] = m->Classify((*train)[held[j]].text, words);
    fmt::print(stderr, "fold {} of {}\n", f + 1, folds);
  }
  std::vector<std::vector<double>> rows;
  for (size_t i = 0; i < train->size(); ++i) rows.push_back(Dense((*train)[i].text, oof[i], words));
  std::vector<std::vector<double>> vrows;
  int lr_right = 0;
  for (const auto& v : *validation) {
    Prediction p = classifier->Classify(v.text);
    lr_right += p.level == v.level ? 1 : 0;
    vrows.push_back(Dense(v.text, p, words));
  }
  for (int depth : {3, 4, 6}) {
    for (int rounds : {200, 400}) {
      BoostingOptions bo;
      bo.max_depth = depth;
      bo.rounds = rounds;
      bo.eta = 0.05;
      std::array<TreeEnsemble, 3> trees;
      for (int level = 0; level < 3; ++level) {
        std::vector<double> labels;
        for (const auto& t : *train) labels.push_back(LevelIndex(t.level) == level ? 1 : 0);
        auto fitted = FitBoostedTrees(rows, labels, bo);
        if (!fitted) return 1;
        trees[static_cast<size_t>(level)] = std::move(*fitted);
      }
      int right = 0;
      std::array<std::array<int, 3>, 3> confusion{};
      for (size_t i = 0; i < validation->size(); ++i) {
        int best = 0;
        double margin = -1e300;
        for (int level = 0; level < 3; ++level) {
          double m = trees[static_cast<size_t>(level)].Margin(vrows[i]);
          if (m > margin) {
            margin = m;
            best = level;
          }
        }
        int gold = LevelIndex((*validation)[i].level);
        right += best == gold ? 1 : 0;
        ++confusion[static_cast<size_t>(gold)][static_cast<size_t>(best)];
      }
      double f1 = 0;
      for (size_t l = 0; l < 3; ++l) {
        double tp = confusion[l][l], fp = 0, fn = 0;
        for (size_t o = 0; o < 3; ++o) {
          if (o != l) fp += confusion[o][l], fn += confusion[l][o];
        }
        f1 += tp > 0 ? 2 * tp / (2 * tp + fp + fn) / 3 : 0;
      }
      fmt::print("depth {} rounds {}: stacked accuracy {:.4f} macro-F1 {:.4f} (regression alone {:.4f})\n", depth,
                 rounds, static_cast<double>(right) / static_cast<double>(validation->size()), f1,
                 static_cast<double>(lr_right) / static_cast<double>(validation->size()));
    }
  }
  return 0;
}
