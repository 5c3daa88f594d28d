// Tokens and stems (see text.h).
#include "retrieval/text.h"
#include "common/strings.h"

#include <fmt/format.h>
#include <libstemmer.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace plainsql::retrieval {

struct Stemmer::Impl {
  sb_stemmer* stemmer = sb_stemmer_new("english", nullptr);  // UTF-8
  ~Impl() { sb_stemmer_delete(stemmer); }
};

Stemmer::Stemmer() : impl_(std::make_unique<Impl>()) {}
Stemmer::~Stemmer() = default;

std::string Stemmer::Stem(std::string_view word) {
  if (!impl_->stemmer || word.empty()) return std::string(word);
  const sb_symbol* out =
      sb_stemmer_stem(impl_->stemmer, reinterpret_cast<const sb_symbol*>(word.data()), static_cast<int>(word.size()));
  if (!out) return std::string(word);
  return std::string(reinterpret_cast<const char*>(out), static_cast<size_t>(sb_stemmer_length(impl_->stemmer)));
}

namespace {

bool IsWordChar(unsigned char c) { return std::isalnum(c) || c >= 0x80; }

bool AllDigits(std::string_view w) {
  return std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A day of the month as written: "7", "07", "7th", "21st" (0: none).
int DayOf(const Token& t) {
  std::string_view w = t.lower;
  if (t.kind == TokenKind::kWord && w.size() >= 3) {
    const std::string_view suffix = w.substr(w.size() - 2);
    if (suffix != "st" && suffix != "nd" && suffix != "rd" && suffix != "th") return 0;
    w.remove_suffix(2);
  } else if (t.kind != TokenKind::kNumber) {
    return 0;
  }
  if (w.empty() || w.size() > 2 || !AllDigits(w)) return 0;
  const int d = std::stoi(std::string(w));
  return d >= 1 && d <= 31 ? d : 0;
}

// A year as written: four digits, 1000..2999 (0: none).
int YearOf(const Token& t) {
  const std::string& w = t.lower;
  if (t.kind != TokenKind::kNumber || w.size() != 4 || (w[0] != '1' && w[0] != '2') || !AllDigits(w)) return 0;
  return std::stoi(w);
}

bool ValidDate(int y, int m, int d) { return d >= 1 && d <= DaysInMonth(y, m); }

// A date written with its month's name ("September 7th, 1987", "7 September 1987", "the 7th of Sept 1987") becomes
// one number-like token holding the ISO date, as "1987-09-07" written so is: a comparison then reads it as a date
// and not as the year alone. A month and a year alone ("in September 1987") become one holding the ISO month,
// "1987-09" (the lower-case "may" is the verb there: "May 2020" is the month). The token's text is the span as
// written (offsets and lengths stay those of the question).
void MergeWrittenDates(std::string_view q, std::vector<Token>& tokens) {
  std::vector<Token> out;
  out.reserve(tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    int y = 0, m = 0, d = 0;
    size_t last = i;
    auto at = [&](size_t k) -> const Token* { return k < tokens.size() ? &tokens[k] : nullptr; };
    if (const Token* b = at(i + 1); b && (m = MonthOf(tokens[i].lower)) > 0 && (d = DayOf(*b)) > 0 && at(i + 2)) {
      y = YearOf(tokens[i + 2]);  // September 7th, 1987
      last = i + 2;
    } else if (b && m > 0 && tokens[i].text != "may" && (y = YearOf(*b)) > 0) {
      last = i + 1;  // September 1987
    } else if ((d = DayOf(tokens[i])) > 0) {
      // "of" only after an ordinal ("the 7th of September"): "the top 3 of March 2010" names no date.
      const bool of = at(i + 1) && tokens[i + 1].lower == "of" && tokens[i].kind == TokenKind::kWord;
      const size_t month = of ? i + 2 : i + 1;
      if (at(month) && (m = MonthOf(tokens[month].lower)) > 0 && at(month + 1)) {
        y = YearOf(tokens[month + 1]);  // 7 September 1987, the 7th of September 1987
        last = month + 1;
      }
    }
    if (y == 0 || (d != 0 && !ValidDate(y, m, d))) {
      out.push_back(std::move(tokens[i]));
      continue;
    }
    Token date;
    date.kind = TokenKind::kNumber;
    date.offset = tokens[i].offset;
    date.text = std::string(q.substr(date.offset, tokens[last].offset + tokens[last].text.size() - date.offset));
    date.lower = date.stem = d ? fmt::format("{:04d}-{:02d}-{:02d}", y, m, d) : fmt::format("{:04d}-{:02d}", y, m);
    out.push_back(std::move(date));
    i = last;
  }
  tokens = std::move(out);
}

}  // namespace

int MonthOf(std::string_view w) {
  static constexpr std::array<std::string_view, 12> kNames = {"january",   "february", "march",    "april",
                                                              "may",       "june",     "july",     "august",
                                                              "september", "october",  "november", "december"};
  for (size_t m = 0; m < kNames.size(); ++m) {
    if (w == kNames[m] || (w.size() >= 3 && m != 4 && kNames[m].starts_with(w) && (w.size() == 3 || w == "sept")))
      return static_cast<int>(m) + 1;
  }
  return 0;
}

bool IsIsoDateTime(std::string_view v) {
  auto digits = [&](size_t at, size_t n) { return at + n <= v.size() && AllDigits(v.substr(at, n)); };
  if (!(digits(0, 4) && v.size() >= 10 && v[4] == '-' && digits(5, 2) && v[7] == '-' && digits(8, 2))) return false;
  if (v.size() == 10) return true;
  return (v.size() == 16 || v.size() == 19) && v[10] == ' ' && digits(11, 2) && v[13] == ':' && digits(14, 2) &&
         (v.size() == 16 || (v[16] == ':' && digits(17, 2)));
}

int DaysInMonth(int year, int month) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return 0;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return kDays[static_cast<size_t>(month - 1)] + (month == 2 && leap ? 1 : 0);
}

std::vector<Token> Tokenize(std::string_view q, Stemmer& stemmer) {
  std::vector<Token> out;
  size_t i = 0;
  auto push = [&](TokenKind kind, std::string text, size_t offset) {
    Token t;
    t.kind = kind;
    t.lower = ToLower(text);
    if (kind == TokenKind::kWord && t.lower.size() > 2 && t.lower.ends_with("'s")) {
      t.lower.resize(t.lower.size() - 2);
    } else if (kind == TokenKind::kWord && t.lower.size() > 4 && t.lower.ends_with("\xe2\x80\x99s")) {  // ’s
      t.lower.resize(t.lower.size() - 4);
    }
    t.stem = kind == TokenKind::kWord ? stemmer.Stem(t.lower) : t.lower;
    t.text = std::move(text);
    t.offset = offset;
    out.push_back(std::move(t));
  };
  while (i < q.size()) {
    unsigned char c = static_cast<unsigned char>(q[i]);
    // Quoted strings: ASCII quotes.
    if (c == '"' || (c == '\'' && (i == 0 || !IsWordChar(static_cast<unsigned char>(q[i - 1]))))) {
      size_t end = q.find(static_cast<char>(c), i + 1);
      if (end != std::string_view::npos && end > i + 1) {
        // A quoted ISO date or date and time ("sent before '1986-08-26 20:49:27'") is a date, as one written bare.
        const std::string_view inner = q.substr(i + 1, end - i - 1);
        if (IsIsoDateTime(inner)) {
          push(TokenKind::kNumber, std::string(inner), i + 1);
        } else {
          push(TokenKind::kQuoted, std::string(inner), i);
        }
        i = end + 1;
        continue;
      }
    }
    // The curly quotes: “ … ” and ‘ … ’ (’ alone is an apostrophe: "owner’s").
    const bool double_curly = q.substr(i).starts_with("\xe2\x80\x9c");
    if (double_curly || q.substr(i).starts_with("\xe2\x80\x98")) {
      size_t end = q.find(double_curly ? "\xe2\x80\x9d" : "\xe2\x80\x99", i + 3);
      if (end != std::string_view::npos && end > i + 3) {
        push(TokenKind::kQuoted, std::string(q.substr(i + 3, end - i - 3)), i);
        i = end + 3;
        continue;
      }
    }
    bool negative = c == '-' && i + 1 < q.size() && std::isdigit(static_cast<unsigned char>(q[i + 1])) &&
                    (i == 0 || q[i - 1] == ' ');
    // ISO dates ("2000-01-01") are one token, a number-like value.
    if (i + 10 <= q.size() && IsIsoDateTime(q.substr(i, 10)) &&
        (i + 10 == q.size() || !std::isalnum(static_cast<unsigned char>(q[i + 10])))) {
      push(TokenKind::kNumber, std::string(q.substr(i, 10)), i);
      i += 10;
      continue;
    }
    if (std::isdigit(c) || negative) {
      size_t start = i;
      if (negative) ++i;
      while (i < q.size() &&
             (std::isdigit(static_cast<unsigned char>(q[i])) || ((q[i] == '.' || q[i] == ',') && i + 1 < q.size() &&
                                                                 std::isdigit(static_cast<unsigned char>(q[i + 1]))))) {
        ++i;
      }
      // "1990s", "3rd": a number followed by letters is a word.
      if (i < q.size() && std::isalpha(static_cast<unsigned char>(q[i]))) {
        while (i < q.size() && IsWordChar(static_cast<unsigned char>(q[i]))) ++i;
        push(TokenKind::kWord, std::string(q.substr(start, i - start)), start);
        continue;
      }
      std::string number(q.substr(start, i - start));
      std::erase(number, ',');
      push(TokenKind::kNumber, number, start);
      continue;
    }
    if (IsWordChar(c)) {
      size_t start = i;
      while (i < q.size() &&
             (IsWordChar(static_cast<unsigned char>(q[i])) || ((q[i] == '\'' || q[i] == '-') && i + 1 < q.size() &&
                                                               IsWordChar(static_cast<unsigned char>(q[i + 1]))))) {
        ++i;
      }
      push(TokenKind::kWord, std::string(q.substr(start, i - start)), start);
      continue;
    }
    ++i;
  }
  MergeWrittenDates(q, out);
  return out;
}

std::vector<std::string> SingularCandidates(std::string_view w) {
  std::vector<std::string> out;
  if (w.ends_with("ies") && w.size() > 4) out.push_back(std::string(w.substr(0, w.size() - 3)) + "y");
  if (w.ends_with("es") && w.size() > 3) out.emplace_back(w.substr(0, w.size() - 2));
  if (w.ends_with("s") && w.size() > 2) out.emplace_back(w.substr(0, w.size() - 1));
  return out;
}

bool IsStopWord(std::string_view w) {
  static constexpr std::array<std::string_view, 60> kStop = {
      "a",     "an",    "the",   "of",    "in",   "on",    "at",   "to",     "for",  "from",  "by",    "with",
      "and",   "or",    "is",    "are",   "was",  "were",  "be",   "been",   "do",   "does",  "did",   "what",
      "which", "who",   "whom",  "whose", "when", "where", "how",  "that",   "this", "these", "those", "it",
      "its",   "their", "there", "give",  "show", "list",  "find", "return", "tell", "me",    "all",   "each",
      "every", "as",    "than",  "have",  "has",  "had",   "also", "please", "i",    "we"};
  return std::find(kStop.begin(), kStop.end(), w) != kStop.end();
}

}  // namespace plainsql::retrieval
