// The reading scorer (issue #19): a logistic regression over features of a candidate reading and of its result, fitted
// on solved questions (`plainsql builtin train`, train.h) and compiled in from reading_scorer.tsv. It ranks the
// translator's candidates and gives each a probability of being right: the answer's confidence.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "builtin/shape.h"
#include "common/status.h"
#include "exec/value.h"

namespace plainsql::builtin {

struct Reading;

/// The features, in order: what a reading found and built (from the reading), then what running it gave.
inline constexpr std::array<std::string_view, 57> kReadingFeatures = {
    "coverage",              // share of the question's content words the reading accounts for
    "unlinked",              // log(1 + content words nothing accounts for)
    "rank",                  // the build pass's order of this candidate (0: as read, 1: the other reading of a pair)
    "alternative",           // which reading of the question (0: as linked; k: the k-th other choice)
    "tables",                // tables joined
    "filters",               // conditions
    "value_filters",         // conditions on stored values the question names
    "outputs",               // items of the select list
    "star",                  // SELECT *
    "aggregates",            // aggregate outputs
    "counting",              // count(*) shown
    "grouped",               // GROUP BY
    "having",                // HAVING
    "ordered",               // ORDER BY
    "limited",               // LIMIT
    "negated",               // NOT IN subquery or != for a negation
    "set_operation",         // INTERSECT / UNION / EXCEPT
    "mentions",              // log(1 + schema mentions)
    "partial_mentions",      // share of mentions that matched only part of a name
    "related_links",         // share of links through WordNet
    "cue_count_unmet",       // "how many" read but no count built
    "cue_order_unmet",       // a superlative or "top N" read but no ordering built
    "cue_compare_unmet",     // comparisons read minus conditions built (>= 0)
    "listed",                // columns the question lists ("the name and price of"): 1 + mentions joined by and / ","
    "outputs_over",          // columns shown beyond those listed
    "outputs_under",         // listed columns not shown
    "shown_used",            // shown columns a condition, the grouping or the ordering also uses
    "named_only_tables",     // tables joined only because the question names them
    "named_only_as_column",  // of those, named by words that also name a column of a needed table
    "dropped_as_column",     // tables only named, left out by this reading, whose words also name a needed column
    "dropped_named",         // other tables only named, left out by this reading
    "first_only",            // the reading shows only the first column named
    "with_used",             // the reading shows the columns the conditions use too
    "distinct_cue",          // "different" / "distinct" / "unique" in the question
    "link_varied",           // a mention takes another link than the best (Choices::link_choice)
    "link_gap",              // how much lower that link scored
    "group_by_shown",        // a count per group by the column shown instead of the subject's key (Choices)
    "shape_fit",             // mean log P of the reading's shape under the shape model's prediction (shape.h)
    "shape_worst",           // the lowest of those log P: the property the prediction most disagrees with
    "skeleton",              // a skeleton of solved questions filled with the question's material (skeleton.h)
    "skeleton_unused",       // tables and columns of the material the filled skeleton does not read
    "skeleton_count",        // log(1 + solved questions with that skeleton)
    "counted_once",          // the main reading's count over a join as count(DISTINCT subject key) (build pass)
    "listed_once",           // a list that repeats through a join shown with DISTINCT, no cue asking (build pass)
    "union",                 // the set operation is a UNION ("A or B" read as two queries, not one with OR)
    "shown_of_other",        // shown columns named "X of (the …) T" whose table is not T ("the names of the albums")
    "shown_foreign_part",    // shown columns of a foreign key named by part of their name only ("name": dept_name)
    "shown_counted",         // shown columns named by the noun a count counts ("the number of railways": Railway)
    "aggregate_filtered",    // an aggregate (avg, sum, max, min) of a column a condition compares too
    "tables_united",         // "the X of all T1 and T2" read as the question asked of each table, UNION of the two
    "fails",                 // running it failed
    "empty",                 // it ran and returned no rows
    "one_row",               // exactly one row
    "rows",                  // log(1 + rows)
    "null_first",            // its first column holds a NULL
    "columns",               // columns of the result
    "counts_one",            // a count per group that is 1 in each of two groups or more (the groups are the rows)
};
inline constexpr size_t kReadingFeatureCount = kReadingFeatures.size();

/// The position of a feature in kReadingFeatures (kReadingFeatureCount when there is none of that name).
constexpr size_t ReadingFeatureIndex(std::string_view name) {
  size_t i = 0;
  while (i < kReadingFeatureCount && kReadingFeatures[i] != name) ++i;
  return i;
}

/// From "fails" on, the features come from running the candidate.
inline constexpr size_t kFirstResultFeature = ReadingFeatureIndex("fails");

using ReadingFeatureVector = std::array<double, kReadingFeatureCount>;

/// The features of the `rank`-th candidate the build pass made of `r` (the result features left 0).
ReadingFeatureVector FeaturesOfReading(const Reading& r, size_t rank);
/// The rows of a result the features count: a reading is run with at most this many (kReadingRunLimits), and a result
/// read with a higher cap (training) is counted the same way.
inline constexpr size_t kResultRowsSeen = 1'000;

/// Sets the features that read the shape model's prediction (shape_fit, shape_worst) for a reading of shape `shape`.
void SetShapeFeatures(ReadingFeatureVector& f, const Shape& shape, const ShapePrediction& prediction);

/// Sets the result features: `result` is null when running the candidate failed.
void SetResultFeatures(ReadingFeatureVector& f, const exec::ResultSet* result);

/// Two linear models over the features. The probability that a reading is right, a logistic regression fitted on
/// readings one by one: P(right) = 1 / (1 + exp(-(w·x + b))). The order of a question's readings, one fitted on pairs
/// of a right and a wrong reading of the same question (what they share cancels out): by r·x, highest first.
struct ReadingScorer {
  std::vector<double> weights;  // one per feature
  double bias = 0;
  std::vector<double> rank_weights;  // one per feature; empty: readings are ordered by their probability
  double threshold = 0.5;            // below this probability an answer is reported as unsure
  /// An answer whose reading accounts for less of the question than this (the "coverage" feature) is reported as
  /// unsure whatever its probability: below it the held-out answers the model was checked on were seldom right, and
  /// the fit has few readings there to extrapolate from ("How has the weather affected …": one word of six linked).
  double min_coverage = 0;
  /// Why an answer read as `f` should not be presented as the answer ("" when it may): below the threshold, or
  /// covering less of the question than min_coverage.
  std::string Unsure(const ReadingFeatureVector& f, double probability) const;
  double Probability(const ReadingFeatureVector& f) const;
  double RankScore(const ReadingFeatureVector& f) const;
  /// The text form (reading_scorer.tsv): comment lines, then "bias", "threshold", "min_coverage" and one line per
  /// feature (name TAB weight [TAB rank weight]). Features missing from the text weigh 0; unknown names are an error.
  static Result<ReadingScorer> Parse(std::string_view text);
  std::string Serialize(std::string_view header) const;
  /// The model compiled into the library (data/reading_scorer.tsv).
  static const ReadingScorer& Builtin();
};

}  // namespace plainsql::builtin
