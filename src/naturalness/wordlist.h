// The English word list behind identifier analysis: lower-case words with a tier that stands in for frequency
// (Debian has no frequency list, but its word lists come in nested sizes):
//   tier 0  in wamerican-small (about 50,000 words: the common ones)
//   tier 1  in wamerican (about 100,000)
//   tier 2  in wamerican-large (about 170,000)
//   tier 3  only a WordNet lemma (technical and rare words)
// The product ships the list as data/words.tsv; `plainsql naturalness wordlist` regenerates it from the Debian packages
// (wamerican-small, wamerican, wamerican-large, wordnet).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/status.h"

namespace plainsql::naturalness {

/// Where `plainsql naturalness wordlist` reads from: word-per-line files with their tier, and WordNet index files
/// (index.noun, index.verb, index.adj, index.adv) whose single-word lemmas get the WordNet tier.
struct WordListSources {
  std::vector<std::pair<std::string, int>> dictionaries = {{"/usr/share/dict/american-english-small", 0},
                                                           {"/usr/share/dict/american-english", 1},
                                                           {"/usr/share/dict/american-english-large", 2}};
  std::string wordnet_dir = "/usr/share/wordnet";
  int wordnet_tier = 3;
};

class WordList {
 public:
  WordList() = default;
  WordList(const WordList&) = delete;
  WordList& operator=(const WordList&) = delete;
  WordList(WordList&&) = default;
  WordList& operator=(WordList&&) = default;

  /// Builds the list from Debian's files. Words with an apostrophe or a non-letter are skipped; case is folded; a word
  /// keeps its lowest tier.
  static Result<WordList> Build(const WordListSources& sources);
  /// Reads data/words.tsv (word TAB tier per line; '#' lines are comments).
  static Result<WordList> Load(const std::string& path);
  /// The file Load reads, with a header saying where it came from.
  std::string Serialize(std::string_view header) const;

  /// The tier of a lower-case word, or nullopt. One- and two-letter entries count only for a short list of function
  /// words ("id", "of", "to", "no", ...): the dictionaries list nearly every letter pair as some abbreviation.
  std::optional<int> Tier(std::string_view lower_word) const;
  /// Whether `lower` begins a common word (tier 0 or 1, at least 4 letters) without being all of it: "desc", "num".
  bool IsCommonPrefix(std::string_view lower) const;
  /// Whether `lower` is the consonant skeleton of a common word (first letter, then the consonants, doubled letters
  /// once): "amnt" (amount), "pybl" (payable).
  bool IsCommonSkeleton(std::string_view lower) const;
  size_t Size() const { return words_.size(); }
  /// Common words (tier 0 or 1, 4+ letters) that begin with `lower` and are longer, in alphabetical order.
  std::vector<std::string_view> CommonWordsWithPrefix(std::string_view lower) const;
  /// Common words whose consonant skeleton is `skeleton`.
  const std::vector<std::string_view>* CommonWordsWithSkeleton(const std::string& skeleton) const;

 private:
  /// Indexes `words` (views into any storage; a word listed twice keeps its lowest tier).
  void Index(std::vector<std::pair<std::string_view, int>> words);
  /// The slot of `word` in slots_: where it is, or the empty slot where it would go.
  size_t Slot(std::string_view word) const;

  // Every word, back to back; the views below point into it. A vector, not a string: moving a short string copies its
  // characters (the small-string buffer), which would leave the views behind.
  std::vector<char> arena_;
  std::vector<std::pair<std::string_view, int>> words_;  // word and tier, in alphabetical order
  // An open-addressing hash table over words_ (index + 1; 0 = empty), a power of two at least twice their number. Not
  // std::unordered_map: it allocates a node per word, and every command that reads names builds this table of 150,000
  // words, which was most of the time of a short command.
  std::vector<uint32_t> slots_;
  std::vector<std::string_view> common_sorted_;  // tier 0-1 words of 4+ letters, sorted, for prefix queries
  std::unordered_map<std::string, std::vector<std::string_view>> skeletons_;
};

/// The consonant skeleton of a lower-case word (see IsCommonSkeleton).
std::string ConsonantSkeleton(std::string_view lower);

}  // namespace plainsql::naturalness
