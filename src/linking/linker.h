// Schema linking for the built-in translator: which tables and columns a question mentions. Each table and column is
// indexed by the stems of the words of its name (split as naturalness::SplitWords splits them) and, when the expander
// reads a cryptic name differently, of its expansion ("MO_ST" → "maintenance order status"); question n-grams are
// matched against them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "catalog/schema.h"
#include "catalog/view_sources.h"
#include "retrieval/text.h"
#include "retrieval/wordnet.h"

namespace plainsql::naturalness {
class Expander;
}

namespace plainsql::linking {

using retrieval::RelatedWord;
using retrieval::Relation;
using retrieval::Stemmer;
using retrieval::Token;
using retrieval::TokenKind;
using retrieval::WordNet;

struct SchemaElement {
  std::string table;
  std::string column;                             // "" for the table itself
  std::vector<std::vector<std::string>> phrases;  // stem sequences that name it (the name, its expansion)
  bool view = false;                              // of a view: a base table's name wins a tie
  std::vector<double> weights;                    // per phrase: 1, or 0.9 when function words were dropped from it
  /// The phrases from this index on are the element's aliases (catalog::Column::aliases: a crosswalk's other readings
  /// of a cryptic name), weighted kAliasPhraseWeight of a name's own; they are not schema words (see IsSynonymPhrase).
  size_t aliases_from = SIZE_MAX;
  bool key = false;  // a column that is its table's primary key alone
};

/// The weight of a phrase read from an alias, relative to the same phrase read from the name. Chosen on the cryptic
/// copies of held-out Spider train databases (docs/BENCHMARKS.md, issue #21).
inline constexpr double kAliasPhraseWeight = 0.7;

/// The weight of a phrase that is a WordNet synonym of a name ("forename" and "given name" for first_name), added
/// after the name's own phrases. A synonym's words are no schema words: not SchemaIndex's vocabulary, not what the
/// lexicon learns a question word stands for.
inline constexpr double kSynonymPhraseWeight = 0.85;
inline bool IsSynonymPhrase(const SchemaElement& e, size_t phrase) {
  return phrase < e.weights.size() && e.weights[phrase] == kSynonymPhraseWeight;
}

class Lexicon;

/// A question word that stands for a schema word through WordNet ("vocalist" for "singer") or the learned lexicon.
struct Alternative {
  std::string schema_stem;
  double weight = 0;  // < 1: synonyms 0.85, derived forms 0.75, hypernyms 0.7
  Relation relation = Relation::kSynonym;
  /// The question word is itself a schema word: the alternative holds only for a table that does not write it (a
  /// word the schema writes names what it names there; in a table that lacks it, "gender" may still name `Sex`).
  bool written = false;
};

/// What indexing a schema derives from each distinct name (its phrases and their weights, the expander's reading of
/// it) and from WordNet (the question words related to the schema's words): most of the cost of indexing a large
/// schema, so it can be kept between runs (ToJson / FromJson) and handed back to SchemaIndex.
struct NameDerivations {
  struct Name {
    std::vector<std::vector<std::string>> phrases;
    std::vector<double> weights;
    std::string expansion;  // the expander's reading of the name ("" without an expander)
  };
  std::unordered_map<std::string, Name> names;
  std::map<std::string, std::vector<Alternative>> related;  // question stem -> schema stems (WordNet)
  bool complete = false;  // filled by a SchemaIndex of the same schema, expander and WordNet: nothing left to derive
  nlohmann::json ToJson() const;
  /// nullopt when `j` is not a ToJson of this version.
  static std::optional<NameDerivations> FromJson(const nlohmann::json& j);
};

/// Options of Link.
struct LinkOptions {
  /// Also match a name written as abbreviations of consecutive question words, each piece a word's first letter and
  /// more of its letters in order ("LIGHTCOND" for "lighting condition", "curbwt" for "curb weight", "GVWR" for "gross
  /// vehicle weight rating"): the question says what a cryptic name abbreviates. Scored below a written match.
  bool abbreviations = false;
  /// With `abbreviations`, also match a cryptic name (SchemaIndex::CrypticLetters) whose letters split into pieces of
  /// two letters or more, each abbreviating a different content word anywhere in the question, in any order
  /// ("BELTUSE" for "did not use a seat belt", "InstNum" for "the number of installments"; a hyphenated word's parts
  /// count as words). Scored below an abbreviation of consecutive words, as a WordNet relative.
  bool scattered_abbreviations = false;
  /// Also match a question word to a word of a name that is no dictionary word and abbreviates it: the same first
  /// letter, then more of its letters in order, at least a third of them ("cty" for "city", "Fndd" for "founded", "crs"
  /// for "course"; not "cd" for "completed"): cryptic names the question spells out. Scored at kAbbreviatedWordWeight
  /// of a written match, below WordNet's synonyms.
  bool abbreviated_words = false;
  /// Also match a question word to a dictionary word of three to six letters of a name that it starts with: a
  /// truncation that happens to be a word ("Nam" for "name", "Cod" for
  /// "code", "cat" for "category"), which abbreviated_words leaves out, except in a table that has a table or column
  /// named by the question word alone ("Name": then that one answers). At least a third of the question word's
  /// letters; scored at kAbbreviatedWordWeight.
  bool truncated_words = false;
  /// Also match a question word that is a multi-word name written as one ("NumGE1500", "borderColor", "EILCode"; case
  /// and separators ignored): a question or its evidence quoting an identifier. Scored as a written match of the
  /// name's words.
  bool identifiers = false;
  /// Also match a question word that the schema writes through its WordNet or learned relatives in the tables that do
  /// not write it (Alternative::written: "gender" for `Sex` in a table without a gender column, where the schema has
  /// one elsewhere), at kWrittenAlternativeWeight of the relative's weight. For a schema read without its values: in
  /// a large schema of unrelated tables a word is written somewhere far more often than in the table it asks about.
  bool written_alternatives = false;
};

/// The weight of a written alternative (LinkOptions::written_alternatives) relative to the alternative's own, chosen
/// on the L-size stand-ins and the held-out Spider train questions without a database (0.4, 0.6, 0.8, 1;
/// docs/BENCHMARKS.md, #18).
inline constexpr double kWrittenAlternativeWeight = 0.6;

class SchemaIndex {
 public:
  /// Indexes every table and column of `schema`; `expander` (optional) adds expansions of names; `wordnet` (optional)
  /// adds the words related to each word of a name, so that a question may name it by a synonym. `derived`
  /// (optional): when complete, what was derived for this schema before (used instead of the expander and WordNet);
  /// else filled and marked complete. `lexicon`: the learned words to add (null: Lexicon::Active()). With WordNet, a
  /// table whose name says nothing is also named by its one-column key (KeyNamesTable in linker.cpp).
  SchemaIndex(const catalog::Schema& schema, Stemmer& stemmer, const naturalness::Expander* expander = nullptr,
              const WordNet* wordnet = nullptr, NameDerivations* derived = nullptr, const Lexicon* lexicon = nullptr);
  const std::vector<SchemaElement>& Elements() const { return elements_; }
  /// The WordNet the index was built with (null: none).
  const WordNet* Wordnet() const { return wordnet_; }
  /// What the schema's view columns show (catalog::ViewSources), read once when the index is built.
  const catalog::ViewSourceMap& ViewSources() const { return view_sources_; }
  /// The schema words a question word's stem may stand for through WordNet; empty when the stem is itself a schema
  /// word (an exact match is never replaced by a synonym) or nothing relates it.
  const std::vector<Alternative>& AlternativesFor(const std::string& stem) const;
  /// The distinct names' lower-case letters (3 to 24 of them), for abbreviation matches; LettersOf(element) indexes it
  /// (UINT32_MAX: a name too short or too long).
  const std::vector<std::string>& Letters() const { return letters_; }
  uint32_t LettersOf(size_t element) const { return element_letters_[element]; }
  /// The index in the schema of an element's table, and of its column in that table (-1: the table itself).
  uint32_t TableOf(size_t element) const { return element_place_[element].first; }
  int32_t ColumnOf(size_t element) const { return element_place_[element].second; }
  /// The tables (schema indices, in order) whose names write a question stem that has written alternatives
  /// (Alternative::written); null for any other stem.
  const std::vector<uint32_t>* TablesWriting(const std::string& stem) const;
  /// Whether the name of Letters()[id] has a word that is no dictionary word for the expander ("BELTUSE", "DdctPrcnt";
  /// never without an expander): the names LinkOptions::scattered_abbreviations reads.
  bool CrypticLetters(uint32_t id) const { return letters_cryptic_[id]; }
  /// The words of names of two words or more that are no dictionary word for the expander, three to 24 letters and
  /// nothing else ("boces" of "boces_name"; none without an expander), for acronym matches of a word of a name.
  const std::vector<std::string>& CrypticWords() const { return cryptic_words_; }
  /// The elements whose name has CrypticWords()[id].
  const std::vector<uint32_t>& ElementsWithCrypticWord(size_t id) const { return cryptic_word_elements_[id]; }
  /// The elements whose name has two words or more and reads `squashed` (lower-case letters and digits) with its
  /// separators and case dropped, with that word count; null when none.
  const std::pair<size_t, std::vector<uint32_t>>* WrittenAs(const std::string& squashed) const;
  /// The word of a name a phrase stem comes from when that word is no dictionary word for the expander ("cty",
  /// "fndd"; lower case, letters only, two or more); null for other stems and without an expander.
  const std::string* CrypticWord(const std::string& stem) const;
  /// The stem of a dictionary word of three to six letters that some name has ("nam", "cod", "cat"; lower case, letters
  /// only, no stop word) and that `prefix` spells; null for any other and without an expander. Such a word may be a
  /// truncation a question spells out ("name", "code", "category"): LinkOptions::truncated_words.
  const std::string* ShortWordStem(std::string_view prefix) const;
  /// The tables (schema indices, in order) with a table or column named by `stem` alone (one word), when it starts
  /// with a ShortWordStem's word; null otherwise.
  const std::vector<uint32_t>* TablesWritingTruncated(const std::string& stem) const;
  /// Calls fn(stem, word) for every cryptic word (see CrypticWord), in no particular order.
  template <typename Fn>
  void ForEachCrypticWord(Fn&& fn) const {
    for (const auto& [stem, word] : cryptic_) fn(stem, word);
  }

 private:
  std::vector<SchemaElement> elements_;
  const WordNet* wordnet_ = nullptr;
  catalog::ViewSourceMap view_sources_;
  std::vector<std::string> letters_;       // distinct names' lower-case letters (4 or more), for abbreviation matches
  std::vector<uint32_t> element_letters_;  // per element: index into letters_, or UINT32_MAX
  std::vector<bool> letters_cryptic_;      // per letters_: see CrypticLetters
  // Multi-word names squashed (see WrittenAs) -> (words, elements).
  std::unordered_map<std::string, std::pair<size_t, std::vector<uint32_t>>> squashed_;
  std::set<std::string> vocabulary_;                          // every stem of every phrase
  std::unordered_map<std::string, std::string> cryptic_;      // stem -> the name's word that is no dictionary word
  std::vector<std::string> cryptic_words_;                    // see CrypticWords
  std::vector<std::vector<uint32_t>> cryptic_word_elements_;  // per cryptic_words_: the elements
  std::map<std::string, std::vector<Alternative>> related_;   // question stem -> schema stems
  std::vector<std::pair<uint32_t, int32_t>> element_place_;   // per element: see TableOf, ColumnOf
  // The question stems of written alternatives (Alternative::written) -> the tables writing them, in order.
  std::unordered_map<std::string, std::vector<uint32_t>> written_in_;
  std::unordered_map<std::string, std::string> short_words_;  // word -> stem: see ShortWordStem
  // Stems that start with a short word -> the tables writing them, in order (see TablesWritingTruncated).
  std::unordered_map<std::string, std::vector<uint32_t>> truncated_in_;

  /// Fills written_in_ from related_ and the elements, and truncated_in_ from short_words_ and the vocabulary.
  void IndexWrittenStems();

  /// WordNet's words related to the schema's `words`, as alternatives.
  void AddRelated(const WordNet& wordnet, const std::set<std::string>& words, Stemmer& stemmer);
  /// The learned lexicon's question words for the schema's stems, as alternatives.
  void AddLearned(const Lexicon& lexicon);
};

/// The weight of a name's word matched as an abbreviation of a question word (LinkOptions::abbreviated_words); chosen
/// before measuring (0.45 and 0.75 gave the same held-out Spider train EX to a question).
inline constexpr double kAbbreviatedWordWeight = 0.6;

struct LinkMatch {
  size_t element = 0;         // index into SchemaIndex::Elements()
  size_t begin = 0, end = 0;  // the question tokens matched: [begin, end)
  double score = 0;           // 1 for a whole phrase, less for part of one; longer phrases score higher
  bool whole = false;         // every word of a phrase matched
  bool related = false;       // some word matched through WordNet, not as written
};

/// Every match of a schema element in the question's tokens, best first. A whole phrase matches contiguous tokens
/// (stop words inside are skipped); the last two or more words of a longer phrase are a partial match ("first name" for
/// "customer_first_name", above one whole word, below two); a single non-stop word matching the head (last word) of a
/// longer phrase is a partial match ("names" for "song_name" scores below "song names"). A question word may also match
/// a schema word through WordNet (SchemaIndex::AlternativesFor), at the alternative's weight.
std::vector<LinkMatch> Link(const SchemaIndex& index, const std::vector<Token>& tokens,
                            const LinkOptions& options = {});

/// A quoted string of `tokens` that names a table or column as a whole is read as that name, not as a value: its
/// token is replaced by its words (offsets into `question`, which `tokens` were read from). A user quotes the names
/// shown to them ("the \"hire date\" of each technician", "\"TYP_DESC\""). The quoted words must all be matched, as
/// written or by their stems, by one name's words (or its expansion's), in order; a quoted string in capitals only by
/// a name written in those very capitals ("SALE" is a code, not the table Sales); and `is_value` (may be empty: no
/// database) must not know it as a stored value.
void UnquoteNames(const SchemaIndex& index, std::string_view question, Stemmer& stemmer, std::vector<Token>& tokens,
                  const std::function<bool(const Token&)>& is_value);

/// The spans of consecutive `words` (lower-case letters) that `letters` (a name's lower-case letters, digits and
/// separators dropped) abbreviates: [begin, end) into `words`, at least two of them, each giving one piece that starts
/// with its first letter and takes more of its letters in order; either every piece has two or more letters, or every
/// piece is one letter and there are three words or more (an acronym). Exposed for tests.
std::vector<std::pair<size_t, size_t>> AbbreviatedSpans(std::string_view letters,
                                                        const std::vector<std::string>& words);

/// The spans of consecutive `words` (lower-case letters; hyphenated words given as their parts) that a cryptic name's
/// `letters` abbreviates when function words may be read or skipped and pieces may be of any length: each word of the
/// span gives a piece that starts with its first letter and takes more of its letters in order, except function words
/// (`stop`) inside the span, which give their first letter or nothing ("hdop" for "horizontal dilution of position",
/// "dbh" for "diameter at breast height", "ellcount" for "english language learner count"). The span begins and ends
/// with a content word and reads two content words with pieces of two letters or more each, or, when a content word
/// gives one letter, three words or more of which two content words ("dob" for "date of birth"). [begin, end) into
/// `words`, one span per beginning (the one with the most content words). Exposed for tests.
std::vector<std::pair<size_t, size_t>> AcronymSpans(std::string_view letters, const std::vector<std::string>& words,
                                                    const std::vector<bool>& stop);

/// What a one-word column name adds to its table's name when it begins with it, glued on ("PLANE" for CDCPLANE in
/// table CDC, "NAME" for KPSNAME in OKPS, "DATE" for EVENTDATE in tbl_Event): the table's letters, all but one of
/// them, or one of its words (three letters at least), then three letters or more; "" otherwise. SchemaIndex names such
/// a column by that word too (a question need not say the table). Names the splitter divides ("CDC_PLANE", "cdcPlane")
/// are read word by word already.
std::string GluedToTable(std::string_view table, std::string_view column);

/// What a short description calls its element, lower-case, or "" when it does not name it: the words before the first
/// ':', ';', ',', '.', '(' or " - ", at most five of them content words, leading articles left out ("Maintenance
/// orders: one row per order raised" -> "maintenance orders", "Final confirmation flag" -> "final confirmation flag").
/// A clause ("Plant where the equipment is installed", "1 when orders in this status are still open") says what the
/// values are rather than what the element is called: "". SchemaIndex reads the name of a table's or column's comment
/// (a COMMENT ON, a data dictionary's description) as another name of it, a column's without the words its table's
/// names have.
std::string NameInDescription(std::string_view description);

/// The `words` (lower-case letters) that `letters` abbreviates in any order: `letters` splits into two pieces or more,
/// each of two letters or more, each the first letter of a different word and more of its letters in order. Returns
/// the words' indices in the pieces' order, or nothing. Exposed for tests.
std::vector<size_t> ScatteredAbbreviation(std::string_view letters, const std::vector<std::string>& words);

/// The words b of `words` (lower-case letters, consecutive in the question) such that a name's `letters` are the first
/// letter of words[b] followed by the whole of words[b + 1] (or that word without a plural "s"): "lname" for "last
/// name", "dname" for "department names". A pattern people write (`LName`, `FName`, `DName`) which AcronymSpans reads
/// from three words only: one initial falls on some word by chance, the whole word after it does not. At least four
/// letters. Exposed for tests.
std::vector<size_t> InitialAndWord(std::string_view letters, const std::vector<std::string>& words);

/// Whether a question writes a year: four digits from 1000 to 2199 standing alone ("1998", "the 1990s", "2014-2015",
/// "1998/10/14"), not a part of a longer number, of "2,000" or of "3.1415". The subsetter's `dated_and_date` feature.
bool WritesYearOrDate(std::string_view question);

/// Whether the word at `offset` opens a sentence of `text` (nothing but spaces, quotes and brackets after the start or
/// after a full stop, question mark, exclamation mark, colon or line break): its capital says nothing then.
bool OpensSentence(std::string_view text, size_t offset);

/// The words of a quoted value that reads as a name, in order: every word starts with a capital letter (a letter
/// after it may be anything: "McDonald", "O'Brien") or is a short joining word ("of", "de", "van", "the", "and",
/// ...), and at least one does; the joining words are left out. "Jeremy Gibbons" → Jeremy, Gibbons; "University of
/// Pennsylvania" → University, Pennsylvania; "Google" → Google; "CZE", "red", "A380", "New york" → nothing. A quoted
/// name is what the question names, as its capitalised words are outside quotes (the subsetter's proper noun and
/// full-name evidence, KindsNamed).
std::vector<std::string> QuotedNameWords(std::string_view quoted);

/// The nouns naming what the question's adjectives measure, lower case: WordNet's attributes (WordNet::Attributes) of
/// each word that is no function word ("the youngest" → age; "male" → sex, gender; "longer than" → duration, length).
/// A question may say the quantity a column holds only by its adjective. The subsetter's `measured_attribute` feature.
std::set<std::string> MeasuredBy(const std::vector<Token>& tokens, const WordNet& wordnet);

/// What the things a question names are, lower case: WordNet's kinds two steps up (WordNet::Kinds) of each capitalised
/// word that opens no sentence and is no function word, of two such words in a row as one name ("United States"),
/// and of the nouns a capitalised adjective pertains to ("Canadian" → Canada). "London" → capital, city; "Texas" →
/// state; "Canadian" → country. The subsetter's `named_kind` feature: a name the question gives says which column
/// holds it ("branches in London": a city column) when no stored value can.
std::set<std::string> KindsNamed(std::string_view question, const std::vector<Token>& tokens, const WordNet& wordnet);

}  // namespace plainsql::linking
