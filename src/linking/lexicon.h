// A lexicon learned from solved questions (issue #19): question words and the schema words their gold queries read
// when the question does not write them ("aviator" for pilot, "publish" for release), with how often and in how many
// databases. Kept as data beside WordNet (data/lexicon.tsv, written by `plainsql builtin lexicon`, compiled in); the
// schema index adds its pairs as alternatives of the schema words, as it adds WordNet's related words.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"

namespace plainsql::linking {

struct LexiconEntry {
  std::string question_stem, schema_stem;  // stems, as retrieval::Stemmer gives them
  size_t count = 0;                        // questions where the pair was seen
  size_t databases = 0;                    // distinct databases among them
  double share = 0;                        // count / questions where the question word was not a schema word
};

class Lexicon {
 public:
  /// The text form: comment lines (#), then one entry a line: question stem, schema stem, count, databases, share,
  /// separated by tabs.
  static Result<Lexicon> Parse(std::string_view text);
  static std::string Format(const std::vector<LexiconEntry>& entries, std::string_view header);
  /// The lexicon compiled into the library (data/lexicon.tsv).
  static const Lexicon& Builtin();
  /// The one linking uses, from the environment variable PLAINSQL_LEXICON: unset, empty or "builtin", the
  /// compiled-in one (the default); "none", no learned pairs; else a lexicon file. Read once per process.
  static const Lexicon& Active();
  /// A lexicon file: read and parsed, or why not.
  static Result<Lexicon> ReadFile(const std::string& path);
  /// Whether what PLAINSQL_LEXICON names can be used: ok when it is unset, "builtin" or "none", else the file's
  /// error. Active() warns and goes on without learned pairs; a program checks this first to refuse a typo instead.
  static Status CheckEnvironment();

  const std::vector<LexiconEntry>& Entries() const { return entries_; }
  /// The entries whose schema word is `schema_stem`.
  const std::vector<const LexiconEntry*>& ForSchemaStem(const std::string& schema_stem) const;
  /// The weight of a learned alternative in linking (below WordNet's synonyms).
  static constexpr double kWeight = 0.75;

 private:
  std::vector<LexiconEntry> entries_;
  std::unordered_map<std::string, std::vector<const LexiconEntry*>> by_schema_;
};

}  // namespace plainsql::linking
