// The shape of a query, predicted from the question (issue #19, item 2: what the solved examples say the query asked
// for looks like). A shape is a handful of yes/no properties of the query's syntax tree (a condition, a join, grouping,
// ordering, a count, a set operation, a subquery, ...). The shape model is one logistic regression per property over
// the words of the masked question (schema mentions written `<mask>`, values `<value>`, other words stemmed; single
// words and pairs of neighbours), fitted on Spider train (`plainsql builtin train`, L1-regularised so most weights are
// 0 and the shipped file stays small) and compiled in from data/shape_model.tsv. The reading scorer reads how well each
// reading's shape agrees with the prediction (features "shape_fit" and "shape_worst").
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "retrieval/text.h"
#include "sql/ast.h"

namespace plainsql::builtin {

struct Reading;

/// The properties, in order.
inline constexpr std::array<std::string_view, 15> kShapeProperties = {
    "where",      // a WHERE clause (in the outermost query or either side of a set operation)
    "join",       // two or more tables in a FROM
    "group",      // GROUP BY
    "having",     // HAVING
    "order",      // ORDER BY
    "limit",      // LIMIT
    "count",      // count(...) in a select list
    "aggregate",  // avg / sum / min / max in a select list
    "distinct",   // SELECT DISTINCT or an aggregate over DISTINCT
    "intersect",  // INTERSECT
    "union",      // UNION
    "except",     // EXCEPT
    "subquery",   // a nested SELECT in a condition or a FROM (set operations aside)
    "outputs",    // two or more items in the select list
    "negation",   // NOT IN, NOT EXISTS, !=, <>, NOT LIKE
};
inline constexpr size_t kShapePropertyCount = kShapeProperties.size();

/// The position of a property in kShapeProperties (kShapePropertyCount when there is none of that name).
constexpr size_t ShapePropertyIndex(std::string_view name) {
  size_t i = 0;
  while (i < kShapePropertyCount && kShapeProperties[i] != name) ++i;
  return i;
}

using Shape = std::array<bool, kShapePropertyCount>;
using ShapePrediction = std::array<double, kShapePropertyCount>;  // P(property) each

/// The shape of a query.
Shape ShapeOf(const sql::Query& query);

/// The words of a question as the shape model reads them: a token inside a schema mention is `<mask>`, a number, a
/// quoted string or a stored value `<value>`, any other word its stem; a run of one placeholder is written once.
std::vector<std::string> MaskedWords(const Reading& r);
/// The same from tokens and a mark per token ("<mask>", "<value>" or "" for the token's own stem; missing marks are
/// ""): for readers of a question other than the translator (the features' linker).
std::vector<std::string> MaskWords(const std::vector<retrieval::Token>& tokens, std::vector<std::string> marks);

/// The model's inputs of a masked question: each word ("w:word") and each pair of neighbours ("b:a_b", the first word
/// paired with a start mark), each once.
std::vector<std::string> ShapeInputs(const std::vector<std::string>& masked_words);

class ShapeModel {
 public:
  ShapeModel() = default;
  /// Weights per input, kShapePropertyCount each, and a bias per property.
  ShapeModel(std::unordered_map<std::string, std::array<double, kShapePropertyCount>> weights,
             std::array<double, kShapePropertyCount> bias)
      : weights_(std::move(weights)), bias_(bias) {}

  /// Parses the text form: `#` comment lines, a `property` line naming the properties in order, a `bias` line, then a
  /// line per input (`input<TAB>weight<TAB>...`).
  static Result<ShapeModel> Parse(std::string_view text);
  /// The text form, `header` as leading comment lines; inputs in byte order, weights rounded to 6 significant digits.
  std::string Serialize(const std::string& header) const;
  /// The shipped model (data/shape_model.tsv, compiled in).
  static const ShapeModel& Builtin();

  ShapePrediction Predict(const std::vector<std::string>& masked_words) const;
  bool Empty() const { return weights_.empty(); }
  size_t Inputs() const { return weights_.size(); }

 private:
  std::unordered_map<std::string, std::array<double, kShapePropertyCount>> weights_;
  std::array<double, kShapePropertyCount> bias_{};
};

/// How well `shape` agrees with `prediction`: the mean and the lowest, over the properties, of log P(the shape's value
/// of the property), each at least log(0.001).
std::pair<double, double> ShapeAgreement(const Shape& shape, const ShapePrediction& prediction);

}  // namespace plainsql::builtin
