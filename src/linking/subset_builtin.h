// The built-in subsetting method (`plainsql link --method builtin`): every table and column gets features from the
// linker's evidence (name, expansion and WordNet matches, word overlap with its name, label and comment), the cell
// values the question names (value index), and the foreign-key graph (distance to the best-linked table, linked
// neighbours); two logistic regressions (tables, columns), trained on Spider train by bench/train_linker, turn them
// into probabilities. Tables over the threshold are kept, joined by the shortest foreign-key paths (the tables on a
// path come with their key columns), small tables whole, large ones by their columns over the threshold and their keys.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/schema.h"
#include "linking/linker.h"
#include "linking/subset.h"
#include "retrieval/value_index.h"

namespace plainsql::naturalness {
class Classifier;
class Expander;
}  // namespace plainsql::naturalness

namespace plainsql::linking {

/// The names of the model's inputs, in order (the model file names its weights by them): the features, then the
/// product of every pair of them ("link*table_is_best").
const std::vector<std::string>& TableFeatureNames();
const std::vector<std::string>& ColumnFeatureNames();
/// A feature vector as the model's input: the features, then their pairwise products.
std::vector<double> ModelInputs(const std::vector<double>& features);

/// Two logistic regressions and the cut: p = 1 / (1 + exp(-(w·x + bias))).
struct SubsetModel {
  std::vector<double> table_weights, column_weights;  // one per feature
  double table_bias = 0, column_bias = 0;
  double table_threshold = 0.1, column_threshold = 0.1;  // the least probability kept, in a schema of any size
  double table_lambda = 0, column_lambda = 0;  // in a schema of N elements the threshold is >= 1 - exp(-lambda / N)
  size_t small_table = 8;                      // kept tables with at most this many columns are kept whole
  /// The text form: "# comment" lines, then "key<TAB>value" (table_threshold, column_threshold, table_lambda,
  /// column_lambda, small_table, table_bias, column_bias) and "table<TAB>feature<TAB>weight" /
  /// "column<TAB>feature<TAB>weight" lines.
  static Result<SubsetModel> Parse(const std::string& text);
  std::string Serialize(const std::string& comment) const;
  /// The model compiled into the library (src/linking/subset_model.tsv, written by bench/train_linker).
  static const SubsetModel& Shipped();
};

/// What the linker is built from, loaded once and shared: the naturalness word list and abbreviations (expander), and
/// WordNet (null when not installed).
struct LinkResources {
  std::unique_ptr<naturalness::Classifier> classifier;
  std::unique_ptr<naturalness::Expander> expander;
  std::shared_ptr<const WordNet> wordnet;
  ~LinkResources();
  static Result<std::shared_ptr<const LinkResources>> Load();
};

/// The scorer's probabilities for one question: per table, and per table per column.
struct QuestionScores {
  std::vector<double> tables;
  std::vector<std::vector<double>> columns;
};

/// The features of one question against every table and column of the schema.
struct QuestionFeatures {
  std::vector<std::vector<double>> tables;                // per table (schema order)
  std::vector<std::vector<std::vector<double>>> columns;  // per table, per column
};

class BuiltinSubsetter final : public Subsetter {
 public:
  /// `values` may be null (no database at hand). The schema and values must outlive the subsetter.
  BuiltinSubsetter(const catalog::Schema& schema, std::shared_ptr<const LinkResources> resources,
                   const retrieval::ValueIndex* values, SubsetModel model = SubsetModel::Shipped());
  ~BuiltinSubsetter() override;
  std::string Name() const override { return "builtin"; }
  Result<Subset> Select(const std::string& question, const SubsetOptions& options) override;

  /// The features alone (for training) and the choice from them (for choosing thresholds without recomputing them).
  QuestionFeatures Features(const std::string& question);
  Subset Choose(const QuestionFeatures& features, const SubsetOptions& options) const;
  QuestionScores Score(const QuestionFeatures& features) const;
  Subset Choose(const QuestionScores& scores, const SubsetOptions& options) const;
  /// Replaces the model (the trainer tries weights and thresholds on the same features).
  void SetModel(SubsetModel model);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace plainsql::linking
