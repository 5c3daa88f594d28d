// What a question asks for, from its wording alone: aggregates ("how many", "average"), grouping ("for each", "per"),
// ordering and limits ("top 3", "in descending order"), superlatives ("the oldest", "the most"), comparisons with
// numbers ("more than 30", "two or more", "at least once", "before 2010", "between 5 and 10") or with the average
// ("older than average"), and negation ("not", "never", "without"). Each cue keeps
// the token where it was found, so the assembler can attach it to the nearest linked column.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "retrieval/text.h"

namespace plainsql::builtin {

using retrieval::Stemmer;
using retrieval::Token;
using retrieval::TokenKind;

enum class Aggregate { kNone, kCount, kAvg, kSum, kMax, kMin };

struct AggregateCue {
  Aggregate kind = Aggregate::kNone;
  size_t token = 0;  // where the cue starts
};

struct Comparison {
  std::string op;         // ">", "<", ">=", "<=", "=", "!=", "BETWEEN"
  std::string value;      // the number (or the lower bound of BETWEEN)
  std::string high;       // the upper bound of BETWEEN
  size_t cue = 0;         // the comparing word ("more", "older", "before", …)
  size_t number = 0;      // the number's token
  std::string adjective;  // "older", "younger", "higher", "longer", … when the cue names the quantity
  bool average = false;   // against the average ("older than average", "above the average age"): `number` is the
                          // token of "average" and `value` is empty
  bool all = false;       // against all of some rows ("greater than that of all colleges in FL", "older than every
                          // engineer"): `number` is the token of "all", "every" or "any" and `value` is empty
};

struct Superlative {
  bool descending = true;  // "most", "highest", "oldest", "latest" → descending
  size_t token = 0;
  std::string word;        // the word as written ("oldest")
  bool unlimited = false;  // "newest first": it orders every row instead of keeping the first
};

struct Intent {
  std::vector<AggregateCue> aggregates;
  std::vector<size_t> group_by;          // tokens right after "each" / "per" / "by" (grouping), or "for every"
  std::optional<bool> order_descending;  // an explicit order cue: "in descending order", "sorted by … ascending"
  std::optional<size_t> order_token;     // "ordered by" / "sorted by": the token after "by"
  std::optional<size_t> order_verb;      // "sort the results by", "ordered descending by": the verb, words before "by"
  std::optional<int64_t> limit;          // "top 3", "first 5", "3 highest"
  std::optional<size_t> limit_token;     // the limit's number
  std::vector<Superlative> superlatives;
  std::vector<Comparison> comparisons;
  std::vector<size_t> negations;    // "not", "no", "never", "without", "n't"
  std::vector<size_t> order_range;  // "from large to small", "largest first": the tokens that give the direction
  bool order_lettered = false;      // the order cue is "alphabetical" / "lexicographic": by a name, not a number
  bool distinct = false;            // "different", "distinct", "unique"
};

Intent ReadIntent(const std::vector<Token>& tokens);

/// "different", "distinct", "unique": the words that ask for distinct values.
bool IsDistinctWord(std::string_view word);

/// A number token's value, or a number word's ("three": 3; words/number_words.txt); nullopt for anything else.
std::optional<int64_t> SmallNumber(const Token& t);

}  // namespace plainsql::builtin
