// The value index (see value_index.h).
#include "retrieval/value_index.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "common/strings.h"
#include "sql/dialect.h"

namespace plainsql::retrieval {

namespace {

// A number as a database would print one: an optional sign, digits, an optional fraction.
bool IsNumberText(std::string_view v) {
  size_t i = (!v.empty() && (v[0] == '-' || v[0] == '+')) ? 1 : 0;
  size_t digits = 0, dots = 0;
  for (; i < v.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(v[i]))) {
      ++digits;
    } else if (v[i] == '.' && dots == 0) {
      ++dots;
    } else {
      return false;
    }
  }
  return digits > 0;
}

// Whether a stored value answers yes (1) or no (-1) as a yes/no column writes it; 0 for anything else.
int YesOrNo(std::string_view v) {
  const std::string w = ToLower(v);
  if (w == "y" || w == "yes" || w == "t" || w == "true") return 1;
  if (w == "n" || w == "no" || w == "f" || w == "false") return -1;
  return 0;
}

// The words of a value, lower case, joined by single spaces: runs of letters, digits and apostrophes (and any byte of
// a multi-byte character), the rest dropped ("Ph.D." -> "ph d", "Comp. Sci." -> "comp sci"), as the question's tokens
// read it.
std::string WordsOf(std::string_view v) {
  std::string out;
  bool gap = false;
  for (unsigned char c : v) {
    if (std::isalnum(c) || c == '\'' || c >= 0x80) {
      if (gap && !out.empty()) out += ' ';
      out += static_cast<char>(std::tolower(c));
      gap = false;
    } else {
      gap = true;
    }
  }
  return out;
}

std::pair<std::string, std::string> ColumnKey(std::string_view table, std::string_view column) {
  return {ToLower(table), ToLower(column)};
}

}  // namespace

Result<ValueIndex> ValueIndex::Build(exec::Connection& conn, const catalog::Schema& schema,
                                     const ValueIndexOptions& options) {
  ValueIndex index;
  auto start = std::chrono::steady_clock::now();
  const sql::Dialect& d = conn.dialect();
  for (const auto& t : schema.tables) {
    std::string table = t.schema.empty() ? sql::QuoteIdentifier(d, t.name)
                                         : sql::QuoteIdentifier(d, t.schema) + "." + sql::QuoteIdentifier(d, t.name);
    for (const auto& c : t.columns) {
      if (c.type_class != catalog::TypeClass::kText) continue;
      auto elapsed = std::chrono::steady_clock::now() - start;
      if (elapsed >= options.budget) {
        ++index.skipped_;
        continue;
      }
      std::string col = sql::QuoteIdentifier(d, c.name);
      std::string query =
          fmt::format("SELECT {c} FROM {t} WHERE {c} IS NOT NULL GROUP BY {c} ORDER BY count(*) DESC LIMIT {n}",
                      fmt::arg("c", col), fmt::arg("t", table), fmt::arg("n", options.max_values_per_column));
      exec::Limits limits;
      limits.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(options.budget - elapsed);
      limits.max_rows = options.max_values_per_column;
      auto rs = conn.QueryInternal(query, limits);
      if (!rs) {
        // A column that cannot be read in time (a huge table) is skipped, not fatal.
        if (rs.error().code == ErrorCode::kTimeout) {
          ++index.skipped_;
          continue;
        }
        return rs.error();
      }
      bool numbers = !rs->rows.empty();
      int yes = 0, no = 0;
      std::string yes_value;
      for (const auto& row : rs->rows) {
        if (row.empty() || row[0].is_null()) continue;
        std::string v = row[0].ToString();
        numbers = numbers && IsNumberText(v);
        const int answer = YesOrNo(v);
        yes += answer > 0;
        no += answer < 0;
        if (answer > 0) yes_value = v;
        if (v.empty() || v.size() > options.max_value_length) continue;
        index.by_lower_[ToLower(v)].push_back({t.name, c.name, v});
        if (std::string words = WordsOf(v); !words.empty() && words != ToLower(v))
          index.by_words_[words].push_back({t.name, c.name, v});
        ++index.values_;
      }
      if (numbers) index.numeric_text_.insert(ColumnKey(t.name, c.name));
      if (yes == 1 && no == 1 && rs->rows.size() == 2) index.yes_value_[ColumnKey(t.name, c.name)] = yes_value;
    }
  }
  index.build_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return index;
}

std::vector<ValueMatch> ValueIndex::Containing(std::string_view text, size_t limit) const {
  std::vector<ValueMatch> out;
  if (text.size() < 3) return out;
  const std::string needle = ToLower(text);
  // A scan of the distinct values (a few hundred thousand at most): asked only for a quoted string no value equals.
  for (const auto& [lower, where] : by_lower_) {
    if (lower.size() == needle.size() || lower.find(needle) == std::string::npos) continue;
    for (const auto& w : where) {
      if (out.size() >= limit) return out;
      out.push_back({w.table, w.column, w.value, 0, 0, true});
    }
  }
  return out;
}

std::vector<ValueMatch> ValueIndex::Equal(std::string_view text, size_t begin, size_t end) const {
  std::vector<ValueMatch> out;
  if (auto it = by_lower_.find(ToLower(text)); it != by_lower_.end()) {
    for (const auto& w : it->second) out.push_back({w.table, w.column, w.value, begin, end, false});
  }
  return out;
}

bool ValueIndex::HoldsNumbers(std::string_view table, std::string_view column) const {
  return numeric_text_.count(ColumnKey(table, column)) > 0;
}

std::optional<std::string> ValueIndex::YesValue(std::string_view table, std::string_view column) const {
  auto it = yes_value_.find(ColumnKey(table, column));
  if (it == yes_value_.end()) return std::nullopt;
  return it->second;
}

ValueIndex ValueIndex::Renamed(const ColumnRename& rename) const {
  ValueIndex out;
  std::map<std::pair<std::string, std::string>, std::optional<std::pair<std::string, std::string>>> names;
  auto renamed = [&](const std::string& table, const std::string& column) {
    auto [it, fresh] = names.try_emplace({table, column});
    if (fresh) it->second = rename(table, column);
    return it->second;
  };
  for (const auto& [lower, wheres] : by_lower_) {
    for (const auto& w : wheres) {
      auto to = renamed(w.table, w.column);
      if (!to) continue;
      out.by_lower_[lower].push_back({to->first, to->second, w.value});
      ++out.values_;
    }
  }
  for (const auto& [words, wheres] : by_words_) {
    for (const auto& w : wheres) {
      if (auto to = renamed(w.table, w.column)) out.by_words_[words].push_back({to->first, to->second, w.value});
    }
  }
  // HoldsNumbers is asked by name, ignoring case: the names seen among the values stand for their lower-case keys.
  for (const auto& [from, to] : names) {
    if (to && numeric_text_.count(ColumnKey(from.first, from.second))) {
      out.numeric_text_.insert(ColumnKey(to->first, to->second));
    }
    if (auto yes = to ? yes_value_.find(ColumnKey(from.first, from.second)) : yes_value_.end();
        yes != yes_value_.end()) {
      out.yes_value_[ColumnKey(to->first, to->second)] = yes->second;
    }
  }
  out.skipped_ = skipped_;
  out.build_ms_ = build_ms_;
  return out;
}

namespace {

// Whether `plural` is the regular English plural of `singular`: "-s", "-es" after a sibilant, "-ies" for "-y" ("names"
// is "name"'s, not "nam"'s).
bool RegularPlural(std::string_view singular, std::string_view plural) {
  if (plural.ends_with("ies")) return singular.ends_with('y') && singular.size() + 2 == plural.size();
  if (singular.size() + 1 == plural.size()) return true;
  return singular.size() + 2 == plural.size() &&
         (singular.ends_with('s') || singular.ends_with('x') || singular.ends_with('z') || singular.ends_with("ch") ||
          singular.ends_with("sh"));
}

// Whether the word at `i` follows a number or a determiner ("10 professors", "all the instructors", "no goalies"):
// a noun, not a verb ("tracks belongs to").
bool AfterDeterminer(const std::vector<Token>& tokens, size_t i) {
  if (i == 0) return false;
  if (tokens[i - 1].kind == TokenKind::kNumber) return true;
  // (With the cardinals a question writes in words, "ten professors"; the translator reads their values from its own
  // list, words/number_words.txt, which the value index does not depend on.)
  static constexpr std::array<std::string_view, 24> kDeterminers = {
      "the", "all", "many",  "no",   "any",  "some", "these", "those", "their", "other", "both",   "several",
      "few", "two", "three", "four", "five", "six",  "seven", "eight", "nine",  "ten",   "twenty", "hundred"};
  return std::find(kDeterminers.begin(), kDeterminers.end(), tokens[i - 1].lower) != kDeterminers.end();
}

}  // namespace

std::vector<ValueMatch> ValueIndex::Match(const std::vector<Token>& tokens, bool plain_plurals) const {
  std::vector<ValueMatch> out;
  std::vector<bool> covered(tokens.size(), false);
  // `key` as stored (lower case), else by its words (an n-gram's key is its words already; a quoted string's words
  // are read here: "Tokyo,Japan" for 'Tokyo , Japan').
  auto emit = [&](const std::string& key, size_t b, size_t e, bool quoted) {
    const std::vector<Where>* found = nullptr;
    if (auto it = by_lower_.find(key); it != by_lower_.end()) {
      found = &it->second;
    } else if (auto words = by_words_.find(quoted ? WordsOf(key) : key); words != by_words_.end()) {
      found = &words->second;
    }
    if (!found) return false;
    for (const auto& w : *found) out.push_back({w.table, w.column, w.value, b, e, quoted});
    for (size_t i = b; i < e; ++i) covered[i] = true;
    return true;
  };
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind == TokenKind::kQuoted) emit(ToLower(tokens[i].text), i, i + 1, true);
  }
  // Word n-grams, longest first, joined by single spaces as they were written.
  for (size_t n = 5; n >= 1; --n) {
    for (size_t b = 0; b + n <= tokens.size(); ++b) {
      bool free = true, words = true;
      for (size_t i = b; i < b + n; ++i) {
        free = free && !covered[i];
        words = words && tokens[i].kind != TokenKind::kQuoted;
      }
      if (!free || !words) continue;
      // (A stop word in capitals may be a code: "the division AS", "the state IN".)
      if (n == 1 && IsStopWord(tokens[b].lower) && !(tokens[b].text.size() >= 2 && InCapitals(tokens[b].text)))
        continue;
      std::string key;
      for (size_t i = b; i < b + n; ++i) key += (i == b ? "" : " ") + ToLower(tokens[i].text);
      if (emit(key, b, b + n, false)) continue;
      // A possessive ends the value as written without it ("Astrid Gruber's email": 'Gruber'); a stored value
      // that keeps its "'s" ("McDonald's") matched as written above.
      const Token& last = tokens[b + n - 1];
      if (last.kind == TokenKind::kWord && last.lower.size() < last.text.size()) {
        key.resize(key.size() - (last.text.size() - last.lower.size()));
        emit(key, b, b + n, false);
      }
    }
  }
  // A capitalized plural inside the question names a value stored in the singular ("the Professors in building NEB":
  // 'Professor'). A plain plural ("students") is far more often a table than a value: only when asked, and marked.
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& w = tokens[i].text;
    if (covered[i] || tokens[i].kind != TokenKind::kWord || w.size() < 4 || w.back() != 's' ||
        IsStopWord(tokens[i].lower)) {
      continue;
    }
    const bool capitalized = i > 0 && std::isupper(static_cast<unsigned char>(w[0]));
    if (!capitalized && !(plain_plurals && AfterDeterminer(tokens, i))) continue;
    const size_t before = out.size();
    const std::string lower = ToLower(w);
    for (const std::string& singular : SingularCandidates(lower)) {
      if (!capitalized && !RegularPlural(singular, lower)) continue;
      if (emit(singular, i, i + 1, false)) break;
    }
    for (size_t k = before; k < out.size(); ++k) out[k].plural = !capitalized;
  }
  return out;
}

}  // namespace plainsql::retrieval
