// The cell values a question may name ("singers from France" → singer.Country = 'France'): the distinct text values
// of every text column, read once per database with read-only, time-limited, row-capped queries, and matched against
// the question's words case-insensitively.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"
#include "retrieval/text.h"

namespace plainsql::retrieval {

struct ValueIndexOptions {
  int64_t max_values_per_column = 5000;      // distinct values read per column (the most frequent first)
  size_t max_value_length = 80;              // longer values (free text) are not indexed
  std::chrono::milliseconds budget{10'000};  // for the whole database; columns past it are skipped and counted
};

struct ValueMatch {
  std::string table, column, value;  // the value as stored
  size_t begin = 0, end = 0;         // question tokens [begin, end)
  bool quoted = false;               // the question quoted it
  bool plural = false;               // a plural in lower case read as its stored singular (Match's plain_plurals)
};

class ValueIndex {
 public:
  /// Reads the values of `schema`'s text columns through `conn`.
  static Result<ValueIndex> Build(exec::Connection& conn, const catalog::Schema& schema,
                                  const ValueIndexOptions& options = {});

  /// Every value the question names: its quoted strings and word n-grams (up to 5 words) equal to a stored value,
  /// ignoring case, or to its words with the punctuation between them dropped ("Ph.D.", "Comp. Sci."). A stop word is
  /// no value unless written in capitals ("AS"). Longer matches first; a span covered by a longer match is not reported
  /// again. A capitalized plural also names a value stored in the singular ("the Professors": 'Professor'); with
  /// `plain_plurals` a plural in lower case does too, marked `plural` (a plain plural is more often a table's name: the
  /// caller decides).
  std::vector<ValueMatch> Match(const std::vector<Token>& tokens, bool plain_plurals = false) const;

  /// The stored values equal to `text` (ignoring case), reported at question tokens [begin, end): a value the question
  /// names by another word ("French" for 'France').
  std::vector<ValueMatch> Equal(std::string_view text, size_t begin, size_t end) const;

  /// The stored values that contain `text` (ignoring case) without being equal to it, at most `limit`, in the order of
  /// the values: for a quoted part of a value ("London "Heathrow"", "6862 Kaitlyn Knolls" of a longer address). Empty
  /// for a text under three characters.
  std::vector<ValueMatch> Containing(std::string_view text, size_t limit = 50) const;

  /// Whether `table`.`column` is a text column every value read of which is a number ("344", "-2.5"): a quantity kept
  /// as text (Spider's wrestler.Days_held), which a comparison with a number may still name. Case-insensitive.
  bool HoldsNumbers(std::string_view table, std::string_view column) const;

  /// The stored value that says yes in a text column that holds a yes/no answer: exactly two distinct values, one of
  /// Y / Yes / T / True and one of N / No / F / False, ignoring case (Spider's medicine.FDA_approved 'Yes' / 'No',
  /// people.Is_Male 'T' / 'F'). A declared BOOLEAN column needs none of this. Case-insensitive names.
  std::optional<std::string> YesValue(std::string_view table, std::string_view column) const;

  /// The same values under another naming of the schema (a crosswalk's): `rename(table, column)`, with the names as
  /// stored, gives the column's other table and column name, or nullopt to leave its values out.
  using ColumnRename =
      std::function<std::optional<std::pair<std::string, std::string>>(const std::string&, const std::string&)>;
  ValueIndex Renamed(const ColumnRename& rename) const;

  size_t Values() const { return values_; }
  size_t ColumnsSkipped() const { return skipped_; }
  double BuildMs() const { return build_ms_; }

 private:
  struct Where {
    std::string table, column, value;
  };
  std::map<std::string, std::vector<Where>> by_lower_;  // lower-case value -> where it occurs
  // A value written with punctuation inside ("Ph.D.", "Comp. Sci."), by its words: the question's tokens drop the
  // punctuation, so its n-grams meet the value only this way. Values without any are left out (by_lower_ has them).
  std::map<std::string, std::vector<Where>> by_words_;
  std::set<std::pair<std::string, std::string>> numeric_text_;  // lower-case (table, column) of those HoldsNumbers
  std::map<std::pair<std::string, std::string>, std::string> yes_value_;  // lower-case (table, column) -> YesValue
  size_t values_ = 0, skipped_ = 0;
  double build_ms_ = 0;
};

}  // namespace plainsql::retrieval
