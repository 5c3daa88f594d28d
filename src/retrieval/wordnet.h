// WordNet (Princeton WordNet 3.0 as Debian's wordnet-base installs it in /usr/share/wordnet) for the built-in
// translator's linking: the words related to a schema word, so that "vocalists" finds the `singer` table. Only the
// database files are read: index.{noun,verb,adj} (sorted lemma lines, searched in memory) and data.{noun,verb,adj}
// (synsets, read on demand at the byte offsets the index gives). Thread-safe once opened.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace plainsql::retrieval {

enum class Relation { kSynonym, kHypernym, kDerived, kLearned };  // kLearned: from the lexicon (linking/lexicon.h)

struct RelatedWord {
  std::string word;  // a single-word lemma, lower case ("vocalist")
  Relation relation = Relation::kSynonym;
};

class WordNet {
 public:
  /// The WordNet database in `dir` ("" → $PLAINSQL_WORDNET_DIR, else /usr/share/wordnet). kNotFound when its index
  /// files are missing.
  static Result<std::shared_ptr<const WordNet>> Open(const std::string& dir = "");

  /// Words related to `word` (lower case; a plural is tried as its singular when the plural has no entry): the other
  /// lemmas of its most frequent senses (three noun senses, two verb and two adjective senses), the lemmas of the
  /// direct hypernyms of its two most frequent noun senses, and the nouns and verbs derived from its first noun or verb
  /// sense ("singer" → "sing"). Multi-word lemmas are left out. Empty when WordNet does not know the word.
  std::vector<RelatedWord> Related(std::string_view word) const;

  /// The other lemmas of the most frequent noun sense of a name of one to three words (lower case; "first name" is
  /// looked up as WordNet's "first_name"), each as its words: "first name" → {"given", "name"}, {"forename"}; "surname"
  /// → {"family", "name"}, {"last", "name"}, {"cognomen"}. Only lemmas of letters (a multi-word one split at '_' and
  /// '-'). Empty when WordNet has no such noun.
  std::vector<std::vector<std::string>> NounSynonyms(const std::vector<std::string>& words) const;

  /// The nouns an adjective pertains to, as names of one word or more (lower case, '_' read as a space): "french" →
  /// "france", "french republic"; "dutch" → "netherlands", "holland", …; from its two most frequent senses. Empty for
  /// a word that is no such adjective.
  std::vector<std::string> Pertainyms(std::string_view adjective) const;

  /// The words naming what a noun is: the lemmas of the hypernyms and instance hypernyms of its two most frequent noun
  /// senses, up to `depth` steps up, a multi-word lemma by its last word ("netherlands" → country, nation, state, land,
  /// ...; "english" → germanic, language, ...). `noun` is lower case, several words joined by '_' ("united_states").
  std::vector<std::string> Kinds(std::string_view noun, int depth) const;

  /// The nouns naming what an adjective measures (WordNet's attribute pointers of its three most frequent senses, a
  /// satellite's through its head adjective; a multi-word noun by its last word): "young" → age; "longest" → duration,
  /// length; "male" → sex, gender, sexuality; "taller" → stature, height. `word` is lower case and may be a comparative
  /// or a superlative (WordNet's adj.exc list, else "-er" / "-est" taken off, with or without an "e"). Empty for a word
  /// that is no such adjective.
  std::vector<std::string> Attributes(std::string_view word) const;

  /// Whether WordNet has `word` (lower case) as a lemma of any part of speech.
  bool Knows(std::string_view word) const;

  ~WordNet();
  WordNet(const WordNet&) = delete;
  WordNet& operator=(const WordNet&) = delete;

 private:
  WordNet() = default;
  struct Part {
    char pos = 'n';
    std::string index;  // the whole index file
    int data_fd = -1;   // the data file, read with pread
  };
  struct Synset {
    char type = 'n';  // n, v, a, s (a satellite adjective), r
    std::vector<std::string> words;
    std::vector<std::pair<std::string, std::pair<char, long>>> pointers;  // symbol, (pos, offset)
  };
  const Part* PartOf(char pos) const;
  std::vector<long> Offsets(const Part& part, std::string_view lemma) const;
  bool ReadSynset(char pos, long offset, Synset& out) const;
  Part parts_[3];
  std::vector<std::pair<std::string, std::string>> adjective_forms_;  // adj.exc: (inflected, base), sorted
};

}  // namespace plainsql::retrieval
