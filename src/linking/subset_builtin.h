// The built-in subsetting method (`plainsql link --method builtin`): every table and column gets features from the
// linker's evidence (name, expansion and WordNet matches, word overlap with its name, label and comment), the cell
// values the question names (value index), and the foreign-key graph (distance to the best-linked table, linked
// neighbours) and, when the database is at hand, what a draft query of the built-in translator reads; two logistic
// regressions (tables, columns), trained on Spider train by bench/train_linker, turn them
// into probabilities. Tables over the threshold are kept, joined by the shortest foreign-key paths (the tables on a
// path come with their key columns), small tables whole, large ones by their columns over the threshold and their keys.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "catalog/schema.h"
#include "common/trees.h"
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
/// The base features alone (without their pairwise products), in vector order: what a feature vector holds.
const std::vector<std::string>& BaseTableFeatureNames();
const std::vector<std::string>& BaseColumnFeatureNames();
/// A feature vector as the model's input: the features, then their pairwise products.
std::vector<double> ModelInputs(const std::vector<double>& features);

/// Where the probabilities are cut.
struct SubsetCut {
  double table_threshold = 0.1, column_threshold = 0.1;  // the least probability kept, in a schema of any size
  double table_lambda = 0, column_lambda = 0;  // in a schema of N elements the threshold is >= 1 - exp(-lambda / N)
  size_t small_table = 8;                      // kept tables with at most this many columns are kept whole
  /// At least this share of the schema's columns, most probable first: the column threshold is lowered to the
  /// probability of the column at that rank (a schema whose probabilities are less sharp than the training set's
  /// still gets a subset of a predictable size). Not applied to a narrowed schema, which has its own budget.
  double min_share = 0;
  /// The floor shrinks in a schema of more than min_share_full_up_to tables and columns (or than the last of
  /// min_share_points): at N of them it is min_share × (min_share_full_up_to / N)^min_share_decay (0: the same share
  /// at every size; beyond the last point its share takes min_share's place and its size min_share_full_up_to's). A
  /// floor chosen where schemas have a few dozen columns keeps hundreds of a warehouse's, most of them never read.
  double min_share_decay = 0;
  static constexpr double kFloorFullUpTo = 32;  // about the middle size of the training schemas (Spider train)
  /// Up to this size (tables and columns) the floor is min_share whole: a schema of a few hundred columns may keep
  /// as large a share as a small one and a warehouse's still a small one (a steeper decay beyond).
  double min_share_full_up_to = kFloorFullUpTo;
  /// Further points (size in tables and columns, share) of the floor, by size, all beyond min_share_full_up_to: from
  /// one point to the next the share changes linearly in log N, and beyond the last it decays with min_share_decay.
  /// A size class may then spend its own budget: a schema of a few hundred columns, whose probabilities are flatter
  /// than a small one's, may keep a larger share than its thresholds leave it while a warehouse keeps a small one.
  std::vector<std::pair<double, double>> min_share_points;
  /// The floor's share in a schema of n tables and columns.
  double Floor(double n) const;
  /// kFormat unless min_share_points are by size, each beyond min_share_full_up_to and the one before (what Floor
  /// assumes; a model file with any other is refused, and the trainer does not try one).
  Status Check() const;
  /// Also keep a table that references two or more kept tables (a many-to-many association between them: a
  /// person's accounts through a table of dispositions) with its join columns, though a shorter path joins them.
  bool associations = false;
};

/// A schema too large to score whole (a haystack, a warehouse) is narrowed first: a first stage ranks its tables by the
/// (rare) words their names, columns and labels share with the question and by the linker's evidence, keeps the best
/// `tables` of them and the foreign-key neighbours of the best `neighbours_of`, and the model scores those as if they
/// were the schema (its features are relative to the schema: the best table, ranks, distances), so a question's cost
/// does not grow with the schema's column count beyond the first stage.
///
/// Select on a narrowed schema goes by foreign-key components (the tables joined by keys, directly or not: a database
/// of a haystack, a subject area of a warehouse): components ranked by how much of the question their tables cover
/// together (each question word once, idf-weighted, plus the linker's best evidence in them), and the
/// model run on each of the best `components` as if it were the schema (a component larger than `tables` tables is cut
/// to its best `tables` and their neighbours first), their subsets joined until they hold `budget_share` of the
/// schema's columns. A question that could mean any of several look-alike databases keeps each of them.
struct SubsetNarrow {
  // Chosen on the haystack's held-out Spider train questions (bench/haystack_bench measure, every 4th of them).
  size_t min_columns = 5000;    // narrow schemas with more columns than this (0: never)
  size_t tables = 40;           // tables the first stage keeps (of the schema for Features, of a component for Select)
  size_t neighbours_of = 5;     // ... with the foreign-key neighbours of its best this many
  size_t components = 100;      // components Select runs the model on, best first
  double budget_share = 0.045;  // ... while their subsets hold at most this share of the schema's columns
  /// The best this many components also keep the floor a schema of their size keeps (SubsetCut::Floor); the others,
  /// and all of them by default, keep what passes the thresholds. On the haystack's training questions (held-out
  /// Spider train, its real-cryptic ones, the held-out databases abbreviated or without their foreign keys) a floor on
  /// the best component won 3 questions and lost 6, so it is off (docs/BENCHMARKS.md, twenty-fourth part).
  size_t floored = 0;
  /// Each component's subset holds at most this share of the joined budget, its likeliest columns first (0: no cap).
  /// A wide component (an ERP module joined by keys, a warehouse's subject area) would otherwise fill the budget with
  /// the flat probabilities of its cryptic columns and leave out the smaller databases ranked after it. 0.1 was chosen
  /// on the haystack's training questions with keys inferred as `plainsql link` infers them (docs/BENCHMARKS.md,
  /// twenty-fifth part).
  double component_share = 0.1;
  /// The joined subsets are then spent again on the likeliest columns of the whole (0: not; joined in order, as before
  /// the twenty-sixth part): each column of a table a component's subset lists ranks by its probability within the
  /// component times the component's weight, (its score / the best component's score)^component_weight, a column the
  /// component's cut kept at least at that cut's threshold; the best as many as the joined subsets held are kept, none
  /// of a component's past its share (component_share). The best component's columns that missed its cut are then
  /// worth more than a far weaker component's best ones, the way a wide table's unnamed columns are. 2 was chosen on
  /// the haystack's training questions (docs/BENCHMARKS.md, twenty-sixth part); 8 once a training haystack had what
  /// SNAILS' NTSB has, a cryptic wide table in a database found by its natural tables (twenty-eighth part).
  double component_weight = 8;
  /// In that merge the best component's cap grows by this share of the budget times its lead over the second
  /// component, 1 - (second's score / its score) (0: it does not grow). The cap guards against a wrong component
  /// filling the budget; a component that leads the others far is seldom the wrong one, and a wide table of it (an
  /// accident record of 200 coded columns) needs more of its columns than the cap leaves it. 0.25 was chosen on the
  /// haystack's training questions; a cap grown with the width of a component's tables instead lost on all of them
  /// (docs/BENCHMARKS.md, twenty-seventh part).
  double component_lead = 0.25;
};

/// Two logistic regressions and the cuts: p = 1 / (1 + exp(-(w·x + bias))).
struct SubsetModel {
  std::vector<double> table_weights, column_weights;  // one per feature
  double table_bias = 0, column_bias = 0;
  /// Per base feature, the range the fitting data spanned (empty: none given). Features are clamped into it before
  /// scoring: the pairwise terms make a linear model extrapolate wildly (a 139-column table's log size, beyond any
  /// Spider table's, pushed its columns below every unrelated one), and a model says nothing reliable out of its range.
  std::vector<std::pair<double, double>> table_ranges, column_ranges;
  /// Gradient-boosted trees over the base features (bench/train_linker fits them with XGBoost): when given, they score
  /// instead of the weights. Trees do not extrapolate (beyond its last split a tree's leaf holds): on Spider train's
  /// held-out databases they ranked gold columns as well as the weights, on SNAILS' 1,000-column tables far better.
  plainsql::TreeEnsemble table_trees, column_trees;
  SubsetCut cut;        // for a question with a draft (the database at hand)
  SubsetCut plain_cut;  // for one without (its probabilities are less sharp, so its thresholds are its own)
  SubsetNarrow narrow;  // the first stage for a large schema
  /// The text form: "# comment" lines, then "key<TAB>value" (table_threshold, column_threshold, table_lambda,
  /// column_lambda, small_table, min_share, min_share_decay (absent: 0), min_share_full_up_to (absent: 32),
  /// "min_share_point<TAB>size<TAB>share" lines (none or more, by size),
  /// associations (0 or 1), the same prefixed "plain_" for the cut without a draft (absent: the same cut),
  /// narrow_min_columns, narrow_tables, narrow_neighbours_of, narrow_floored, narrow_component_share,
  /// narrow_component_weight, narrow_component_lead (absent: the defaults), table_bias,
  /// column_bias),
  /// "table<TAB>feature<TAB>weight" / "column<TAB>feature<TAB>weight" lines and
  /// "table_range<TAB>feature<TAB>min<TAB>max" / "column_range<TAB>..." lines (base features only), and the trees'
  /// lines prefixed "table_tree" / "column_tree" (TreeEnsemble::Serialize).
  static Result<SubsetModel> Parse(const std::string& text);
  std::string Serialize(const std::string& comment) const;
  /// The model compiled into the library (src/linking/subset_model.tsv, written by bench/train_linker).
  static const SubsetModel& Shipped();
  /// The model subsetters use: the file PLAINSQL_SUBSET_MODEL names (one bench/train_linker wrote: a refit, a model
  /// fitted on one's own questions), else the shipped one. A file ReadFile refuses is warned about on stderr and the
  /// shipped model used; the program checks CheckModelEnvironment() first to stop instead.
  static const SubsetModel& Active();
  /// A model file: read and parsed, and refused when it holds neither trees nor weights (it would keep nothing but
  /// the floor).
  static Result<SubsetModel> ReadFile(const std::string& path);
};

/// Whether the files PLAINSQL_SUBSET_MODEL and PLAINSQL_LEXICON name, when set, can be used: the first error, with
/// the variable's name. The plainsql program refuses to start on one (a mistyped path would otherwise measure the
/// built-in model under another name, with one warning on stderr).
Status CheckModelEnvironment();

/// What the linker is built from, loaded once and shared: the naturalness word list and abbreviations (expander), and
/// WordNet (null when not installed).
struct LinkResources {
  std::unique_ptr<naturalness::Classifier> classifier;
  std::unique_ptr<naturalness::Expander> expander;
  std::shared_ptr<const WordNet> wordnet;
  /// Names this program and these resources (the program file's and the data folder's sizes and times, WordNet or
  /// not): what is cached from them (the subsetter's name derivations) is read back only under the same version.
  std::string version;
  /// The learned lexicon the schema indexes built with these resources read (null: Lexicon::Active()). A trainer
  /// gives each fold of its databases a lexicon learned without them (bench/train_linker --lexicon cross-fitted).
  std::shared_ptr<const Lexicon> lexicon;
  ~LinkResources();
  /// `lexicon`: see the field (null: the active one).
  static Result<std::shared_ptr<const LinkResources>> Load(std::shared_ptr<const Lexicon> lexicon = nullptr);
};

/// The scorer's probabilities for one question: per table, and per table per column.
struct QuestionScores {
  bool draft = false;             // the features had a draft (the model's cut, else its plain cut)
  std::vector<size_t> table_ids;  // the schema's tables scored, by index (empty: all of them, in order)
  std::vector<double> tables;
  std::vector<std::vector<double>> columns;
};

/// What a draft query of the built-in translator reads (subset_methods.h makes the source; the translator needs the
/// database): evidence for the scorer, never a subset by itself.
struct DraftReads {
  bool given = false;                                     // the translator gave a draft that parses
  std::set<std::string> tables;                           // lower-case names
  std::set<std::pair<std::string, std::string>> columns;  // lower-case (table, column)
  std::string sql;                                        // the draft, for the notes
};
/// The draft for a question (none: `given` false).
using DraftSource = std::function<DraftReads(const std::string& question)>;

/// The features of one question against every table and column of the schema.
struct QuestionFeatures {
  std::vector<size_t> table_ids;  // the schema's tables described, by index (empty: all, in order; else narrowed)
  std::vector<std::vector<double>> tables;                // per table (schema order)
  std::vector<std::vector<std::vector<double>>> columns;  // per table, per column
  std::string draft;                                      // the draft's SQL ("" without one)
};

/// The features as they are without a draft (no database at hand): the trainer fits on both, so one model serves both.
void WithoutDraft(QuestionFeatures& features);

class BuiltinSubsetter final : public Subsetter {
 public:
  /// `values` may be null (no database at hand). The schema and values must outlive the subsetter.
  BuiltinSubsetter(const catalog::Schema& schema, std::shared_ptr<const LinkResources> resources,
                   const retrieval::ValueIndex* values, SubsetModel model = SubsetModel::Active());
  ~BuiltinSubsetter() override;
  std::string Name() const override { return "builtin"; }
  Result<Subset> Select(const std::string& question, const SubsetOptions& options) override;

  /// The features alone (for training) and the choice from them (for choosing thresholds without recomputing them).
  /// `with_database` false: as if no database were at hand (no cell values, no draft), as for a schema alone.
  QuestionFeatures Features(const std::string& question, bool with_database = true);
  Subset Choose(const QuestionFeatures& features, const SubsetOptions& options) const;
  QuestionScores Score(const QuestionFeatures& features) const;
  Subset Choose(const QuestionScores& scores, const SubsetOptions& options) const;
  /// Replaces the model (the trainer tries weights and thresholds on the same features).
  void SetModel(SubsetModel model);
  /// Replaces the cuts alone (the trainer tries thousands on the same scores without copying the model's trees).
  void SetCuts(const SubsetCut& cut, const SubsetCut& plain_cut);
  /// Where drafts come from (null: none; the draft features are then 0).
  void SetDraftSource(DraftSource draft);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace plainsql::linking
