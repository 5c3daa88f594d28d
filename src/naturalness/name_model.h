// The name model: which words readable schemas use in their names and what the columns they name hold, learned from
// databases whose names are readable (shipped: Spider's train databases). The expander uses it to choose among the
// words a cryptic name could stand for: "A" over a column of small whole numbers is more likely an age than an
// address, "Y" over four-digit numbers a year, "Cntr" in a text column a country. Three parts:
//   - a prior: how often each word is a word of a table name and of a column name;
//   - a shape per column: a coarse class of what it holds, from its declared type, its key role and a few stored
//     values (ColumnShape), and how often each word's columns have each shape;
//   - a channel (AbbreviationProbability): how likely a writer abbreviates a word to a given letter string, from the
//     styles people use (first letter, first letters, consonants, other letters in order).
// Rebuilt by `plainsql naturalness name-model`; shipped as data/name_model.tsv.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"

namespace plainsql::naturalness {

/// What a column holds, coarsely: "key" (in a primary or foreign key), "flag" (two values such as 0/1 or Y/N),
/// "year" (whole numbers from 1800 to 2100), "small" (whole numbers under 200), "int", "real", "date", "code" (short
/// letters-and-digits codes), "proper" (capitalised words: names of people, places, things), "word" (lower-case
/// words), "text" (longer text), "number_text" (digits with punctuation: phones, numbers kept as text), "contact"
/// (e-mail and web addresses), or the declared type's class ("numeric", "textual", "other") when there are no
/// stored values to look at.
std::string ColumnShape(const catalog::Table& table, const catalog::Column& column);

/// Stored values to read per column when learning the model and when naming (IntrospectOptions::samples): the same
/// number both times, so that shapes mean the same.
inline constexpr int kShapeSamples = 10;

class NameModel {
 public:
  /// Counts the words of one schema's names and the shapes of its columns (Introspect with samples).
  void Learn(const catalog::Schema& schema);

  /// Reads data/name_model.tsv.
  static Result<NameModel> Load(const std::string& path);
  std::string Serialize(std::string_view header) const;

  /// log P(word) among the words of table names (`table`) or of column names, with `dictionary_mass` counts given to a
  /// word the model never saw (the caller's share for a dictionary word).
  double LogPrior(const std::string& word, bool table, double dictionary_mass) const;
  /// log P(shape | word) - log P(shape): how much more (or less) often this word's columns have this shape than
  /// columns in general; 0 for an empty shape or an unseen word.
  double ShapeEvidence(const std::string& word, const std::string& shape) const;
  /// How much likelier `word` is right after `previous` in a name than anywhere: log of the ratio of P(word | previous)
  /// (interpolated with P(word)) to P(word); 0 when the model never saw `previous` before another word. "type" then
  /// "code", "first" then "name" cohere.
  double Cohesion(const std::string& previous, const std::string& word) const;
  /// The words the model saw that begin with `letter` (lower case).
  const std::vector<std::string>& WordsStartingWith(char letter) const;
  bool Empty() const { return words_.empty(); }
  bool Knows(const std::string& word) const { return words_.count(word) > 0; }
  size_t Size() const { return words_.size(); }
  int Schemas() const { return schemas_; }

 private:
  struct WordCounts {
    double in_tables = 0;
    double in_columns = 0;
    std::map<std::string, double> shapes;
  };
  void IndexWords();

  std::map<std::string, WordCounts> words_;
  std::map<std::string, double> shapes_;                         // all columns' shapes
  std::map<std::pair<std::string, std::string>, double> pairs_;  // (word, next word in the same name) -> count
  std::map<std::string, double> followed_;                       // word -> how often another word follows it
  double table_words_ = 0, column_words_ = 0, columns_ = 0;
  int schemas_ = 0;
  std::vector<std::vector<std::string>> by_letter_ = std::vector<std::vector<std::string>>(26);
};

/// The singular a model word is counted under: "categories" -> "category", "courses" -> "course"; "status",
/// "address" and words of three letters or fewer stay as they are.
std::string Singular(std::string_view lower_word);

/// P(a writer abbreviates `word` as `abbreviation`), both lower case, as a mixture of styles: the first letter alone;
/// the first letters (a prefix); the first letter and then only consonants, in order (the consonant skeleton or part
/// of it); any letters in order. 0 when `abbreviation` is not in `word` in order from its first letter, or equals it.
double AbbreviationProbability(std::string_view abbreviation, std::string_view word);

}  // namespace plainsql::naturalness
