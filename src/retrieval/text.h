// Questions as tokens for the built-in translator: words (lower-cased, with their Snowball English stems), numbers and
// quoted strings, each with its place in the question.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace plainsql::retrieval {

/// The Snowball English stemmer (libstemmer). Not thread-safe: one per thread.
class Stemmer {
 public:
  Stemmer();
  ~Stemmer();
  Stemmer(const Stemmer&) = delete;
  Stemmer& operator=(const Stemmer&) = delete;
  /// The stem of a lower-case word ("singers" → "singer", "countries" → "countri").
  std::string Stem(std::string_view lower_word);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

enum class TokenKind { kWord, kNumber, kQuoted };

struct Token {
  TokenKind kind = TokenKind::kWord;
  std::string text;   // as written (without quotes for kQuoted)
  std::string lower;  // lower case; a possessive 's removed
  std::string stem;   // for words; numbers and quoted strings keep `lower`
  size_t offset = 0;  // byte offset in the question
};

/// Words ([letters/digits, inner ' and -]), numbers (123, 4.5, -2, 1,000) and quoted strings ("…", '…', “…”); other
/// characters separate tokens and are dropped.
std::vector<Token> Tokenize(std::string_view question, Stemmer& stemmer);

/// An ISO date or date and time as a question writes it: "2000-01-01", "2000-01-01 12:30", "2000-01-01 12:30:59".
bool IsIsoDateTime(std::string_view v);

/// The month a lower-case word names, 1..12 (0: none): its English name or a usual abbreviation ("mar", "sept").
int MonthOf(std::string_view lower);

/// The days of a month (1 to 12) of a year, leap years counted; 0 for no such month.
int DaysInMonth(int year, int month);

/// Function words that carry no schema meaning ("the", "of", "what", "is", …).
bool IsStopWord(std::string_view lower);

/// The singulars a lower-case plural may have, likeliest first: "countries" → "country", "classes" → "class" then
/// "classe", "songs" → "song"; none for a word not ending in "s".
std::vector<std::string> SingularCandidates(std::string_view lower);

}  // namespace plainsql::retrieval
