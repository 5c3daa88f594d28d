// The skeleton of a masked query (see skeleton.h). It works on the printed masked query's tokens: sql::Mask has
// already made every name and value a placeholder, so what is left to fold is the printer's fixed spelling of a few
// shapes, and rewriting token runs to a fixed point is shorter and clearer than a second tree pass would be.
#include "examples/skeleton.h"

#include <array>
#include <cctype>
#include <vector>

namespace plainsql::examples {

namespace {

using Tokens = std::vector<std::string>;

constexpr std::string_view kHole = "_";

bool IsOperatorChar(char c) { return c == '<' || c == '>' || c == '=' || c == '!'; }

Tokens Tokenize(std::string_view s) {
  Tokens out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (s.substr(i, 6) == "<mask>" || s.substr(i, 7) == "<value>") {
      out.emplace_back(kHole);
      i += s[i + 1] == 'm' ? 6 : 7;
    } else if (c == '*') {
      out.emplace_back(kHole);
      ++i;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      std::string word;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) {
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(s[j])));
        ++j;
      }
      out.push_back(std::move(word));
      i = j;
    } else if (IsOperatorChar(c)) {
      size_t j = i;
      while (j < s.size() && IsOperatorChar(s[j]) && s.substr(j, 6) != "<mask>" && s.substr(j, 7) != "<value>") ++j;
      out.emplace_back(s.substr(i, j - i));
      i = j;
    } else {
      out.emplace_back(1, c);
      ++i;
    }
  }
  return out;
}

bool IsHole(const Tokens& t, size_t i) { return i < t.size() && t[i] == kHole; }
bool Is(const Tokens& t, size_t i, std::string_view word) { return i < t.size() && t[i] == word; }

bool IsComparison(const Tokens& t, size_t i) {
  static constexpr std::array<std::string_view, 7> kOps = {"=", "!=", "<>", ">", ">=", "<", "<="};
  if (i >= t.size()) return false;
  for (auto op : kOps) {
    if (t[i] == op) return true;
  }
  return false;
}

// `_ = _` at i.
bool IsEquality(const Tokens& t, size_t i) { return IsHole(t, i) && Is(t, i + 1, "=") && IsHole(t, i + 2); }

// One left-to-right rewrite of the rules; true when something changed.
bool FoldOnce(Tokens& t) {
  Tokens out;
  bool changed = false;
  for (size_t i = 0; i < t.size();) {
    if (Is(t, i, "on") && IsEquality(t, i + 1)) {  // a join condition, with the equalities ANDed to it
      i += 4;
      while (Is(t, i, "and") && IsEquality(t, i + 1)) i += 4;
      changed = true;
    } else if (IsHole(t, i) && (Is(t, i + 1, "join") || Is(t, i + 1, ",") || IsComparison(t, i + 1)) &&
               IsHole(t, i + 2)) {
      out.emplace_back(kHole);
      i += 3;
      changed = true;
    } else if (Is(t, i, "where") && IsHole(t, i + 1) && (Is(t, i + 2, "and") || Is(t, i + 2, "or")) &&
               IsHole(t, i + 3)) {
      out.emplace_back("where");
      out.emplace_back(kHole);
      i += 4;
      changed = true;
    } else {
      out.push_back(std::move(t[i]));
      ++i;
    }
  }
  t = std::move(out);
  return changed;
}

}  // namespace

std::string Skeleton(std::string_view masked_sql) {
  Tokens raw = Tokenize(masked_sql);
  Tokens t;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (IsHole(raw, i) && Is(raw, i + 1, ".") && IsHole(raw, i + 2)) {  // a qualified name
      t.emplace_back(kHole);
      i += 2;
    } else if (Is(raw, i, "as") && IsHole(raw, i + 1)) {  // an alias
      ++i;
    } else {
      t.push_back(std::move(raw[i]));
    }
  }
  while (FoldOnce(t)) {
  }
  std::string out;
  for (size_t i = 0; i < t.size(); ++i) {
    if (i >= 2 && t[i - 2] == "order" && t[i - 1] == "by") t[i] = kHole;
    if (!out.empty()) out += ' ';
    out += t[i];
  }
  return out;
}

}  // namespace plainsql::examples
