// The naturalness classifier: Regular (N1) / Low (N2) / Least (N3) for one identifier, with three probabilities.
//
// Model: L2-regularised logistic regression (liblinear's solver 0), ordinal by default (Learner), over the sparse
// features of features.h. Why this family: the evidence is many weak, mostly additive cues (character shapes, known
// words and abbreviations), which a linear model over n-grams captures well; liblinear's solvers scored within 0.2
// points of each other on the SNAILS validation set (L1-regularised LR 1.7 points below), and this one gives
// probabilities; it trains in seconds, deterministically, from a command; its file is plain text; and inference is a
// sparse dot product (over 100,000 names per second on one core, no GPU, no Python). Gradient-boosted trees stacked on
// it (bench/naturalness_stack.cpp) gained at most half a point on validation. docs/NATURALNESS.md has the details and
// figures.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "naturalness/crosswalk.h"
#include "naturalness/wordlist.h"

namespace plainsql::naturalness {

/// The label is the class with the largest decision value; the probabilities are the softmax of the three decision
/// values (they sum to 1, and the label has the largest).
struct Prediction {
  Level level = Level::kRegular;
  std::array<double, 3> p{};  // Regular, Low, Least
};

/// A labelled identifier, as in the SNAILS naturalness files (text,category,label).
struct LabeledIdentifier {
  std::string text;
  Level level = Level::kRegular;
};

/// Reads a SNAILS-format file: a header naming `text` and `category` (N1/N2/N3) and/or `label` (0/1/2) columns.
Result<std::vector<LabeledIdentifier>> LoadLabeled(const std::string& path);

class Model {
 public:
  static Result<Model> Load(const std::string& path);
  static Result<Model> Parse(std::string_view text, std::string_view source_name);
  std::string Serialize() const;

  /// The decision of the model for one identifier; never fails (any bytes, any length).
  Prediction Classify(std::string_view identifier, const WordList& words) const;

  size_t FeatureCount() const { return weights_.size(); }
  /// Free-form facts recorded at training (C, validation accuracy, ...), in file order.
  const std::vector<std::pair<std::string, std::string>>& Info() const { return info_; }

 private:
  friend class ModelBuilder;
  /// Hash64(feature name) -> weights: open addressing with linear probing over a power-of-two table (a
  /// node-based map spent most of the classification time in cache misses).
  /// Each slot holds the hash's upper half and the weights together in 16 bytes (the lower half picks the slot), so a
  /// lookup touches one cache line and four slots share one: the lookups are most of the time of classifying a name.
  struct FlatIndex {
    struct Slot {
      // The hash's upper 32 bits; 0 = empty slot (stored as 1 when they are 0). A wrong match needs another feature
      // with the same upper half in the run of slots probed: about one in 10^5 over a 94,000-feature table.
      uint32_t key = 0;
      std::array<float, 3> w{};
    };
    static_assert(sizeof(Slot) == 16);
    std::vector<Slot> slots;
    void Build(const std::vector<uint64_t>& hashes, const std::vector<std::array<float, 3>>& weights);
    const std::array<float, 3>* Find(uint64_t hash) const;
  };
  void Reindex();
  FlatIndex index_;
  std::vector<std::array<float, 3>> weights_;
  std::vector<std::string> names_;  // feature names, for Serialize
  std::array<double, 3> bias_{};
  std::vector<std::pair<std::string, std::string>> info_;
};

/// Word list and model together: what `plainsql naturalness classify` and `profile` use.
class Classifier {
 public:
  Classifier(std::shared_ptr<const WordList> words, Model model) : words_(std::move(words)), model_(std::move(model)) {}
  /// Loads data/words.tsv and data/naturalness.model from `data_dir` (see DefaultDataDir).
  static Result<Classifier> Load(const std::string& data_dir);
  Prediction Classify(std::string_view identifier) const { return model_.Classify(identifier, *words_); }
  const Model& GetModel() const { return model_; }
  const WordList& Words() const { return *words_; }

 private:
  std::shared_ptr<const WordList> words_;
  Model model_;
};

/// Where the shipped data files are: $PLAINSQL_DATA_DIR if set, else ../share/plainsql beside the executable when it
/// holds a model (an installed plainsql), else the data/ directory of the source tree this binary was built from.
std::string DefaultDataDir();

// --- training and evaluation -------------------------------------------------------------------------------------

/// How the three levels are learned, both with liblinear's L2-regularised logistic regression over the same features.
/// kOrdinal (the default) uses their order, Regular < Low < Least: one regression tells Regular from the rest (a), one
/// Least from the rest (b), and a name's decision values are (-a, 0, b), so Low is what neither boundary claims.
/// kOneVsRest fits one regression per level (how the model was fitted before; docs/BENCHMARKS.md, #21 twelfth part).
enum class Learner { kOrdinal, kOneVsRest };

/// "ordinal" / "one-vs-rest"; ParseLearner returns nullopt for another name.
std::string_view LearnerName(Learner learner);
std::optional<Learner> ParseLearner(std::string_view name);

struct TrainOptions {
  std::vector<double> c_values = {0.3, 1, 3, 10};  // the regularisation constants tried; the best on validation wins
  Learner learner = Learner::kOrdinal;
};

struct EvalReport {
  size_t n = 0;
  double accuracy = 0;
  std::array<double, 3> precision{}, recall{}, f1{};
  double macro_precision = 0, macro_recall = 0, macro_f1 = 0;
  std::array<std::array<int, 3>, 3> confusion{};  // [gold][predicted]
};

struct TrainReport {
  struct Candidate {
    double c;
    EvalReport validation;
  };
  std::vector<Candidate> candidates;
  double chosen_c = 0;
  size_t train_size = 0, validation_size = 0, features = 0;
};

/// Trains on `train`, picks C by validation accuracy (ties: the smaller C), and returns the model trained on `train`
/// with that C. `progress` (optional) hears one line per step.
Result<Model> Train(const std::vector<LabeledIdentifier>& train, const std::vector<LabeledIdentifier>& validation,
                    const WordList& words, const TrainOptions& options, TrainReport* report,
                    const std::function<void(const std::string&)>& progress = {});

EvalReport Evaluate(const Classifier& classifier, const std::vector<LabeledIdentifier>& rows);
EvalReport Evaluate(const Model& model, const WordList& words, const std::vector<LabeledIdentifier>& rows);

}  // namespace plainsql::naturalness
