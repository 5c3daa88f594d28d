// Token estimate (see tokens.h for the rules).
#include "catalog/tokens.h"

#include <cctype>

namespace plainsql::catalog {

namespace {
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return (c >= 'a' && c <= 'z') || (static_cast<unsigned char>(c) >= 0x80); }
bool IsLetter(char c) { return IsUpper(c) || IsLower(c); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
}  // namespace

size_t EstimateTokens(std::string_view s) {
  size_t tokens = 0, i = 0, n = s.size();
  while (i < n) {
    char c = s[i];
    if (IsSpace(c)) {
      size_t j = i;
      while (j < n && IsSpace(s[j])) ++j;
      // A single space before a word or number is part of that token.
      bool absorbed = (j - i == 1 && s[i] == ' ' && j < n && (IsLetter(s[j]) || IsDigit(s[j])));
      if (!absorbed) ++tokens;
      i = j;
    } else if (IsLetter(c)) {
      // A word: an optional capital followed by lower case letters, or a run of capitals.
      size_t j = i + 1;
      bool caps = IsUpper(c) && j < n && IsUpper(s[j]);
      if (caps) {
        while (j < n && IsUpper(s[j]) && !(j + 1 < n && IsLower(s[j + 1]))) ++j;
        tokens += (j - i + 2) / 3;
      } else {
        while (j < n && IsLower(s[j])) ++j;
        tokens += (j - i + 5) / 6;
      }
      i = j;
    } else if (IsDigit(c)) {
      size_t j = i;
      while (j < n && IsDigit(s[j])) ++j;
      tokens += (j - i + 2) / 3;
      i = j;
    } else {
      ++tokens;
      ++i;
    }
  }
  return tokens;
}

}  // namespace plainsql::catalog
