// The expander: a readable (Regular) name for a Low or Least natural one, without an LLM. Each word of the name is
// kept when it is an English word or a number, and otherwise expanded from, in order of trust:
//   1. the schema's own vocabulary: a full word used elsewhere in the schema that the abbreviation begins, or whose
//      letters it takes in order ("Loc" → "location" when another name says "Location");
//   2. a table of common abbreviations (data/abbreviations.tsv: "qty" → "quantity");
//   0. with evidence from a data dictionary or comments (AddEvidence): a phrase of that text whose initials it is;
//   3. the dictionary: a common word it begins (ranked by word-list tier, then by how little it adds), or whose
//      consonant skeleton it is ("amnt" → "amount").
// A long run of letters that is none of these is first segmented into abbreviation-sized pieces ("FRNTHOOD" → "frnt"
// "hood" → "front hood"). Names come out in snake_case. Every word says where its expansion came from.
//
// With a name model (SetNameModel; what `plainsql rename` uses), steps 1 and 3 become one choice by probability: every
// word the piece could abbreviate (the model's words, the schema's, the related names', the dictionary's by prefix and
// skeleton, the kinds of the column's stored values) is scored by the model's prior, the abbreviation channel, the
// column's shape and values, and how well it follows its neighbours in names (a Viterbi path over the name's pieces);
// short words and capitals are read too; an unsure reading leaves the piece as written.
//
// Quality on the SNAILS crosswalks: docs/BENCHMARKS.md.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "naturalness/name_model.h"
#include "naturalness/wordlist.h"

namespace plainsql::naturalness {

struct ExpandedWord {
  ExpandedWord() = default;
  ExpandedWord(std::string written_as, std::string expanded_to, std::string from,
               std::vector<std::pair<std::string, std::string>> others = {})
      : written(std::move(written_as)),
        expanded(std::move(expanded_to)),
        source(std::move(from)),
        alternatives(std::move(others)) {}

  std::string written;   // the word as it appears in the name
  std::string expanded;  // what it became (may be the same)
  std::string source;    // "word", "number", "schema", "abbreviations", "dictionary phrase", "dictionary prefix",
                         // "dictionary skeleton", "unchanged"
  /// The next-ranked other expansions and their sources, best first (at most three), for a reviewer.
  std::vector<std::pair<std::string, std::string>> alternatives;
  /// Read by the name model: its best reading (also when the word was left as written) and that reading's probability
  /// among the word's readings; 0 when the model did not read the word.
  std::string reading;
  double posterior = 0;
};

/// What is known around a name when a name model is set (Expander::SetNameModel).
struct NameContext {
  bool is_table = false;
  std::string shape;                 // the column's ColumnShape ("" for a table, or unknown)
  std::vector<std::string> related;  // words of names already read that this one likely repeats: a column's table and
                                     // the tables its keys reference, a table's referenced tables
  /// Words naming what the column's stored values are (WordNet's hypernyms of the sampled values), each with the share
  /// of the values it names: "Cntr" holding "France" and "Peru" is read as country.
  std::map<std::string, double> value_kinds;
};

struct Expansion {
  std::string name;  // snake_case
  std::vector<ExpandedWord> words;
};

class Expander {
 public:
  /// `abbreviations`: lower-case abbreviation -> expansion (words separated by '_').
  Expander(const WordList& words, std::map<std::string, std::string> abbreviations)
      : words_(words), abbreviations_(std::move(abbreviations)) {}

  /// Reads data/abbreviations.tsv ('#' lines are comments).
  static Result<std::map<std::string, std::string>> LoadAbbreviations(const std::string& path);

  /// The names of the schema the identifiers come from: their dictionary words of 4+ letters become the vocabulary of
  /// step 1.
  void SetContext(const std::vector<std::string>& names);

  /// Evidence from a data dictionary or from comments (any text): its dictionary words of 4+ letters join the schema
  /// vocabulary, and each run of two or three such words is remembered under its initials, so that an abbreviation
  /// made of initials finds the phrase it stands for ("MO" -> "maintenance order" when the text says so).
  void AddEvidence(std::string_view text);

  /// With a name model, a cryptic word is read as the word (or, written in capitals, the initials of the words) with
  /// the highest probability given the model's prior, how likely the word is abbreviated to it
  /// (AbbreviationProbability), what the column holds (`context->shape`) and the related names; a reading below
  /// `min_posterior` among the candidates leaves the word as written. The model must outlive the expander.
  void SetNameModel(const NameModel* model, double min_posterior = 0.25) {
    model_ = model;
    min_posterior_ = min_posterior;
  }

  /// The share of the schema's names that are not Regular: the more cryptic a schema, the less a short word in it
  /// is taken as written.
  void SetCrypticShare(double share) { cryptic_share_ = share; }

  /// How a cryptic piece was read by one name of the schema (lower-case identifier as expanded), with what probability.
  struct PieceReading {
    std::string identifier, reading;
    double probability = 0;
  };
  /// One reading per piece across a schema (with a name model): every cryptic piece's readings by the schema's names
  /// in a first reading (lower-case piece -> readings). A candidate reading of a piece then gets `weight` ·
  /// log(1 + the probability mass the schema's other names give it) more score, so a piece reads alike across the
  /// schema unless a name's own evidence outweighs the others'.
  void SetSchemaReadings(std::map<std::string, std::vector<PieceReading>> readings, double weight) {
    schema_readings_ = std::move(readings);
    schema_weight_ = weight;
  }
  bool HasNameModel() const { return model_ != nullptr; }
  /// Whether short words are read as possible abbreviations too: with a name model, in a mostly cryptic schema.
  bool DoubtsShortWords() const { return model_ && cryptic_share_ >= 0.5; }

  Expansion Expand(std::string_view identifier, const NameContext* context = nullptr) const;

  /// Whether a lower-case word reads as a dictionary word: a common one, or any of 5 letters or more, and no known
  /// abbreviation.
  bool IsWord(const std::string& lower) const;

 private:
  struct Candidate {
    double score = 0;
    std::string word;
    std::string source;
  };
  std::vector<Candidate> Candidates(const std::string& lower) const;
  std::optional<double> PieceCost(const std::string& piece) const;
  std::vector<std::string> SegmentRun(const std::string& lower) const;
  ExpandedWord ExpandPiece(const std::string& written, const std::string& lower) const;
  /// The name model's readings of a cryptic piece, best first (at most eight, then one "" standing for the rest);
  /// `head`: the name's last word, which the column's shape and values describe.
  std::vector<Candidate> ModelCandidates(const std::string& written, const std::string& lower,
                                         const NameContext& context, bool head) const;
  /// The readings of a name's pieces chosen together (a Viterbi path over the readings, scored with how well
  /// consecutive words cohere in names); a reading below min_posterior_ leaves its piece as written.
  /// `identifier`: the name being read (its own first reading does not count among the schema's).
  void ChooseReadings(std::vector<ExpandedWord>& words, const std::vector<std::vector<Candidate>>& options,
                      std::string_view identifier) const;
  double ModelPrior(const std::string& word, const NameContext& context, bool head) const;

  const WordList& words_;
  std::map<std::string, std::string> abbreviations_;
  std::map<std::string, int> context_;                         // schema word -> how often it appears
  bool coordinates_ = false;                                   // the schema has a latitude, so "long" is a longitude
  std::map<std::string, std::map<std::string, int>> phrases_;  // initials -> phrase (words joined by '_') -> count
  /// context_ indexed for the name model (IndexContext, after every change): per first letter the total count and the
  /// common words, and the counts by singular.
  struct ContextIndex {
    std::array<double, 26> letter_total{};
    std::array<std::vector<std::string>, 26> words;
    std::map<std::string, double> singular;
  };
  void IndexContext();
  ContextIndex context_index_;
  const NameModel* model_ = nullptr;
  std::map<std::string, std::vector<PieceReading>> schema_readings_;
  double schema_weight_ = 0;
  double min_posterior_ = 0.25;
  double cryptic_share_ = 0;
};

/// Other readings of an expanded name, best first, at most `max`: the name with one word read as one of its listed
/// alternatives, the least sure word's first (by posterior; a word the name model did not read counts as least sure),
/// each word's first alternative before any word's second. A word left as written because its reading was unsure has
/// that reading as its first alternative. What `plainsql rename` writes as a crosswalk entry's N1 alternatives.
std::vector<std::string> AlternativeNames(const Expansion& expansion, size_t max = 4);

/// Token-level F1 of two names (words as SplitWords finds them, lower-cased, as multisets) and their equality with
/// case and separators ignored: the expander's quality measures.
double NameTokenF1(std::string_view predicted, std::string_view gold);
bool NameNormalizedEqual(std::string_view a, std::string_view b);

}  // namespace plainsql::naturalness
