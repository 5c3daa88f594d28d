// Tokens and stems (see text.h).
#include "retrieval/text.h"
#include "common/strings.h"

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

}  // namespace

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
        push(TokenKind::kQuoted, std::string(q.substr(i + 1, end - i - 1)), i);
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
    auto digits = [&](size_t at, size_t n) {
      for (size_t k = at; k < at + n; ++k) {
        if (k >= q.size() || !std::isdigit(static_cast<unsigned char>(q[k]))) return false;
      }
      return true;
    };
    if (digits(i, 4) && i + 10 <= q.size() && q[i + 4] == '-' && digits(i + 5, 2) && q[i + 7] == '-' &&
        digits(i + 8, 2) && (i + 10 == q.size() || !std::isalnum(static_cast<unsigned char>(q[i + 10])))) {
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
