// The value passes (see passes.h): LIKE patterns, stored values and yes/no columns as filters.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "builtin/passes.h"
#include "builtin/words.h"
#include "common/strings.h"

namespace plainsql::builtin {

namespace {

std::string QuoteForNote(std::string_view s) { return "'" + ReplaceAll(s, "'", "''") + "'"; }

// A pattern's text as LIKE reads it literally: '%', '_' and the escape character itself escaped with a backslash
// (tree::Condition adds the ESCAPE clause when a pattern has one).
std::string PatternLiteral(std::string_view text) {
  std::string v;
  for (char ch : text) {
    if (ch == '%' || ch == '_' || ch == '\\') v += '\\';
    v += ch;
  }
  return v;
}

// Whether the unquoted token at `k` after a pattern noun is the pattern's text: one letter or digit, a word in
// capitals, or a word followed by "in" ("the word love in its title").
bool PatternText(const std::vector<retrieval::Token>& tokens, size_t k) {
  const retrieval::Token& t = tokens[k];
  if (t.kind != TokenKind::kWord && t.kind != TokenKind::kNumber) return false;
  return t.text.size() == 1 || InCapitals(t.text) || (k + 1 < tokens.size() && tokens[k + 1].lower == "in");
}

// The pattern a cue at `i` starts, if a quoted or named string follows within five words.
void PatternAt(Reading& r, size_t i) {
  const auto& tokens = r.tokens;
  const std::string& w = tokens[i].lower;
  static const words::WordSet kContains = words::List("pattern_contains");
  static const words::WordSet kStarts = words::List("pattern_starts");
  static const words::WordSet kEnds = words::List("pattern_ends");
  static const words::WordSet kNouns = words::List("pattern_nouns");
  bool contains = kContains.count(w) > 0;
  bool with = i + 1 < tokens.size() && tokens[i + 1].lower == "with";
  bool starts = with && kStarts.count(w);
  bool ends = with && kEnds.count(w);
  // "employees with the letter M in their first names", "the word love in its title": the noun says it, no verb.
  // (A noun inside another pattern's words, "contains the word 'Latte'", starts none of its own.)
  const bool inside =
      std::any_of(r.patterns.begin(), r.patterns.end(), [&](const Pattern& p) { return p.cue <= i && i < p.value; });
  if (!contains && !starts && !ends && kNouns.count(w) && !inside && i + 1 < tokens.size() &&
      (PatternText(tokens, i + 1) || tokens[i + 1].kind == TokenKind::kQuoted)) {
    contains = true;
  }
  if (!contains && !starts && !ends) return;
  // "movies that have 'Deleted Scenes' as a substring": the quoted text before "as a" and the noun.
  if (contains && kNouns.count(w) && i >= 3 && tokens[i - 1].lower == "a" && tokens[i - 2].lower == "as" &&
      tokens[i - 3].kind == TokenKind::kQuoted && !r.used[i - 3]) {
    r.patterns.push_back({i, i - 3, "%" + PatternLiteral(tokens[i - 3].text) + "%", false});
    r.used[i] = r.used[i - 1] = r.used[i - 2] = r.used[i - 3] = true;
    return;
  }
  for (size_t k = i + 1; k < tokens.size() && k <= i + 5; ++k) {
    if (r.used[k]) continue;  // another cue's pattern ("contains the substring 'ee'": one pattern)
    bool quoted = tokens[k].kind == TokenKind::kQuoted;
    // ("the letter a"; "the substring the computer": a stop word between the noun and its text.)
    const bool after_noun =
        kNouns.count(tokens[k - 1].lower) ||
        (k >= i + 2 && retrieval::IsStopWord(tokens[k - 1].lower) && kNouns.count(tokens[k - 2].lower));
    bool named = after_noun && !(retrieval::IsStopWord(tokens[k].lower) && tokens[k].lower.size() > 1);
    // "contains NY": a word in capitals right after the cue.
    bool capitals = contains && k == i + 1 && tokens[k].kind == TokenKind::kWord && tokens[k].text.size() >= 2 &&
                    InCapitals(tokens[k].text);
    // "albums that start with A": a letter or a word in capitals right after "with".
    bool lettered = (starts || ends) && k == i + 2 && PatternText(tokens, k) && tokens[k].kind == TokenKind::kWord;
    if (!quoted && !named && !capitals && !lettered) continue;
    const std::string v = PatternLiteral(tokens[k].text);
    bool negated = false;
    for (size_t n : r.intent.negations) {
      if (n < i && i - n <= 2) {
        negated = true;
        r.pattern_negations.insert(n);
      }
    }
    r.patterns.push_back({i, k, contains ? "%" + v + "%" : starts ? v + "%" : "%" + v, negated});
    r.used[i] = r.used[k] = true;
    for (size_t j = i + 1; j < k; ++j) {
      if (tokens[j].lower == "with" || kNouns.count(tokens[j].lower)) r.used[j] = true;
    }
    // "the letters D or S": the next one too, read from its own token.
    if (named && k + 2 < tokens.size() && (tokens[k + 1].lower == "or" || tokens[k + 1].lower == "and") &&
        !r.used[k + 2] && PatternText(tokens, k + 2)) {
      const std::string next = PatternLiteral(tokens[k + 2].text);
      r.patterns.push_back({k + 2, k + 2, contains ? "%" + next + "%" : starts ? next + "%" : "%" + next, negated});
      r.used[k + 2] = true;
    }
    return;
  }
}

// The columns that hold the value at [b, e), those of tables the question names first; the first value several
// columns hold is the one later readings vary.
const retrieval::ValueMatch* ValueHolder(Reading& r, size_t b, size_t e) {
  std::vector<const retrieval::ValueMatch*> holders;
  for (const auto& v : r.values) {
    if (v.begin == b && v.end == e) holders.push_back(&v);
  }
  std::stable_partition(holders.begin(), holders.end(),
                        [&](const retrieval::ValueMatch* v) { return r.linked_tables.count(ToLower(v->table)) > 0; });
  // ("the customers Steve Johnson supports": a first and a last name side by side are one row's, employees'.)
  auto beside = [&](const retrieval::ValueMatch* v) {
    return std::any_of(r.values.begin(), r.values.end(), [&](const retrieval::ValueMatch& w) {
      return (w.begin == e || w.end == b) && EqualsIgnoreCase(w.table, v->table) && w.column != v->column;
    });
  };
  std::stable_partition(holders.begin(), holders.end(), beside);
  const retrieval::ValueMatch* best = holders.empty() ? nullptr : holders.front();
  if (holders.size() > 1 && !r.choices.value_seen) {
    r.choices.value_seen = true;
    r.choices.value_alternatives = holders.size() - 1;
    if (r.choices.value_choice < holders.size()) best = holders[r.choices.value_choice];
    r.choices.varied_table = best->table;
  }
  return best;
}

// A text column a mention at `k` names.
std::optional<ColumnRef> TextColumnAt(const Reading& r, size_t k) {
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (!el.column.empty() && m.begin <= k && k < m.end && !IsNumericColumn(r.ctx.schema, {el.table, el.column})) {
      return ColumnRef{el.table, el.column};
    }
  }
  return std::nullopt;
}

// A word just before `k` says the column there only filters: "whose name contains".
bool OnlyFilter(const Reading& r, size_t k) {
  static const words::WordSet kOnlyFilter = words::List("filter_only_words");
  for (size_t j = k >= 2 ? k - 2 : 0; j < k; ++j) {
    if (kOnlyFilter.count(r.tokens[j].lower)) return true;
  }
  return false;
}

}  // namespace

void FindPatterns(Reading& r) {
  for (size_t i = 0; i < r.tokens.size(); ++i) PatternAt(r, i);
  // "physicians who have 'senior' in their titles": a quoted string no column stores, right before "in their ...",
  // is contained in that column.
  for (size_t k = 0; k + 2 < r.tokens.size(); ++k) {
    const std::string& next = r.tokens[k + 2].lower;
    if (r.tokens[k].kind != TokenKind::kQuoted || r.used[k] || r.tokens[k + 1].lower != "in" ||
        (next != "their" && next != "its" && next != "his" && next != "her" && next != "the")) {
      continue;
    }
    const bool stored = std::any_of(r.values.begin(), r.values.end(),
                                    [&](const retrieval::ValueMatch& v) { return v.begin == k && v.end == k + 1; });
    if (stored) continue;
    r.patterns.push_back({k, k, "%" + PatternLiteral(r.tokens[k].text) + "%", false});
    r.used[k] = true;
  }
}

namespace {

// "female dependents", "male faculty": a word that stands for a coded value (words/coded_values.txt) is a filter on a
// column so named that stores the code ('F') or the word ('female'), a column of a table the question names first.
void CodedValues(Reading& r) {
  static const words::WordMap kCoded = words::Pairs("coded_values");
  for (size_t i = 0; i < r.tokens.size(); ++i) {
    auto it = kCoded.find(r.tokens[i].lower);
    if (it == kCoded.end() || r.used[i] || r.tokens[i].kind != TokenKind::kWord) continue;
    const std::vector<std::string> parts = Split(it->second, ' ');
    if (parts.size() != 2) continue;
    const std::vector<std::string> column_words = Split(parts[1], '/');
    std::vector<retrieval::ValueMatch> held;
    for (const std::string& code : Split(parts[0], '/')) {
      retrieval::Token t;
      t.kind = TokenKind::kQuoted;
      t.text = code;
      t.lower = ToLower(code);
      for (auto& v : r.ctx.values->Match({t})) {
        const std::string column = ToLower(v.column);
        if (std::any_of(column_words.begin(), column_words.end(),
                        [&](const std::string& w) { return column.find(w) != std::string::npos; })) {
          held.push_back(std::move(v));
        }
      }
      if (!held.empty()) break;
    }
    if (held.empty()) continue;
    std::stable_partition(held.begin(), held.end(),
                          [&](const retrieval::ValueMatch& v) { return r.linked_tables.count(ToLower(v.table)) > 0; });
    const retrieval::ValueMatch& v = held.front();
    r.used[i] = true;
    // Already stated as the stored value in one of those columns: "the male dorm (with gender M)".
    const bool stated = std::any_of(r.filters.begin(), r.filters.end(), [&](const Filter& f) {
      return f.op == "=" && std::any_of(held.begin(), held.end(), [&](const retrieval::ValueMatch& h) {
               return f.col == ColumnRef{h.table, h.column} && f.value.text == h.value;
             });
    });
    if (stated) continue;
    r.filters.push_back({{v.table, v.column}, "=", {Literal::Kind::kString, v.value, {}}, {}, i});
    r.notes.push_back(fmt::format("'{}': value '{}' in {}.{}", r.tokens[i].text, v.value, v.table, v.column));
  }
}

// "How many papers are "Atsushi Ohori" the author of?": a quoted name no column stores whole, whose words are stored
// in different columns of one table (a first and a last name), is a condition on each.
void QuotedNameByParts(Reading& r, size_t i) {
  const std::vector<std::string> words = Split(r.tokens[i].text, ' ');
  if (words.size() < 2 || words.size() > 3) return;
  std::vector<retrieval::Token> parts;
  for (const auto& w : words) {
    retrieval::Token t;
    t.text = w;
    t.lower = ToLower(w);
    parts.push_back(std::move(t));
  }
  const std::vector<retrieval::ValueMatch> matches = r.ctx.values->Match(parts);
  // The table that holds the first word, a table the question names first.
  std::vector<const retrieval::ValueMatch*> first;
  for (const auto& m : matches) {
    if (m.begin == 0 && m.end == 1) first.push_back(&m);
  }
  std::stable_partition(first.begin(), first.end(),
                        [&](const retrieval::ValueMatch* m) { return r.linked_tables.count(ToLower(m->table)) > 0; });
  for (const retrieval::ValueMatch* start : first) {
    std::vector<const retrieval::ValueMatch*> chosen = {start};
    for (size_t w = 1; w < words.size(); ++w) {
      for (const auto& m : matches) {
        const bool other_column = std::none_of(chosen.begin(), chosen.end(), [&](const retrieval::ValueMatch* c) {
          return EqualsIgnoreCase(c->column, m.column);
        });
        if (m.begin == w && m.end == w + 1 && EqualsIgnoreCase(m.table, start->table) && other_column) {
          chosen.push_back(&m);
          break;
        }
      }
    }
    if (chosen.size() != words.size()) continue;
    for (const retrieval::ValueMatch* c : chosen) {
      r.filters.push_back({{c->table, c->column}, "=", {Literal::Kind::kString, c->value, {}}, {}, i});
      r.notes.push_back(fmt::format("value '{}' in {}.{}", c->value, c->table, c->column));
    }
    r.used[i] = true;
    return;
  }
}

// "the airport named London "Heathrow"", "the building "6862 Kaitlyn Knolls"" (stored with a suite number): a quoted
// string no value equals whole, but values of a column contain, is a LIKE on that column; of a table the question
// names first, else the column with the most such values.
void QuotedPartOfValue(Reading& r, size_t i) {
  const std::vector<retrieval::ValueMatch> found = r.ctx.values->Containing(r.tokens[i].text);
  struct Held {
    ColumnRef col;
    size_t values = 0;
    bool named = false;
  };
  std::vector<Held> held;
  for (const auto& v : found) {
    auto it = std::find_if(held.begin(), held.end(), [&](const Held& h) {
      return EqualsIgnoreCase(h.col.table, v.table) && EqualsIgnoreCase(h.col.column, v.column);
    });
    if (it == held.end()) {
      held.push_back({{v.table, v.column}, 0, r.linked_tables.count(ToLower(v.table)) > 0});
      it = held.end() - 1;
    }
    ++it->values;
  }
  if (held.empty()) return;
  const Held& best = *std::max_element(held.begin(), held.end(), [](const Held& a, const Held& b) {
    return std::make_pair(a.named, a.values) < std::make_pair(b.named, b.values);
  });
  const std::string like = "%" + PatternLiteral(r.tokens[i].text) + "%";
  r.filters.push_back({best.col, "LIKE", {Literal::Kind::kString, like, {}}, {}, i});
  r.used[i] = true;
  r.notes.push_back(
      fmt::format("part of values in {}.{}: LIKE {}", best.col.table, best.col.column, QuoteForNote(like)));
}

}  // namespace

void MatchValues(Reading& r) {
  std::set<std::pair<size_t, size_t>> spans;
  for (const auto& v : r.values) spans.insert({v.begin, v.end});
  for (const auto& [b, e] : spans) {
    // A number a comparison reads ("after 1961") is not a stored value, nor is a pattern.
    bool compared = false;
    for (const auto& c : r.intent.comparisons) compared = compared || (b <= c.number && c.number < e);
    for (const auto& p : r.patterns) compared = compared || (b <= p.value && p.value < e);
    if (compared) continue;
    bool clash = false;
    for (size_t i = b; i < e; ++i) clash = clash || r.used[i];
    const retrieval::ValueMatch* best = ValueHolder(r, b, e);
    // A word that is both a column name and a value counts as a value only when quoted or capitalised, or when what
    // links it is weaker than a name written out: a word read as an abbreviation or a relative ("yes" for the "y" of
    // yCard, 'yes' stored in decision) is the value as written.
    if (!best || (clash && !best->quoted && !std::isupper(static_cast<unsigned char>(r.tokens[b].text[0])) &&
                  !OnlyWeakLinks(r, b, e))) {
      continue;
    }
    // A plain plural stands for its stored singular ("how many professors": 'Professor' in rank) only where nothing
    // names a table or column by it as written (Faculty is related to "professor", not named).
    if (best->plural && clash && !OnlyWeakLinks(r, b, e)) continue;
    if (clash) {
      size_t from = b, to = e;  // structured bindings cannot be captured before C++20 in clang
      std::erase_if(r.mentions, [from, to](const Mention& m) { return m.begin < to && from < m.end; });
    }
    r.filters.push_back({{best->table, best->column}, "=", {Literal::Kind::kString, best->value, {}}, {}, b});
    for (size_t i = b; i < e; ++i) r.used[i] = true;
    r.notes.push_back(fmt::format("value '{}' in {}.{}", best->value, best->table, best->column));
  }
  if (!r.ctx.values) return;
  for (size_t i = 0; i < r.tokens.size(); ++i) {
    if (r.tokens[i].kind != TokenKind::kQuoted || r.used[i] || spans.count({i, i + 1})) continue;
    QuotedNameByParts(r, i);
    if (!r.used[i]) QuotedPartOfValue(r, i);
  }
  CodedValues(r);
}

void PlacePatterns(Reading& r) {
  std::optional<ColumnRef> previous;
  for (const auto& p : r.patterns) {
    std::optional<ColumnRef> col;
    for (size_t back = 1; back <= 3 && back <= p.cue && !col; ++back) {
      col = TextColumnAt(r, p.cue - back);
      if (col && OnlyFilter(r, p.cue - back)) r.consumed_tokens.insert(p.cue - back);
    }
    // (After the cue when the pattern's text came first: "'Deleted Scenes' as a substring in the special feature".)
    const size_t last = std::max(p.cue, p.value);
    for (size_t k = last + 1; k < r.tokens.size() && k <= last + 4 && !col; ++k) {
      col = TextColumnAt(r, k);
      if (col && OnlyFilter(r, k)) r.consumed_tokens.insert(k);
    }
    // ("contains the word 'Latte' or the word 'Americano'": the column of the pattern before.)
    if (!col && previous) col = previous;
    if (!col) col = ColumnNamed(r.ctx.schema, r.subject, "name");
    if (!col) col = TextColumnNamed(r.ctx.schema, r.subject, "title");  // ("albums that start with A": albums.title)
    if (!col) continue;
    previous = col;
    r.filters.push_back({*col, p.negated ? "NOT LIKE" : "LIKE", {Literal::Kind::kString, p.like, {}}, {}, p.cue});
    r.notes.push_back(fmt::format("pattern {} on {}.{}", QuoteForNote(p.like), col->table, col->column));
  }
}

void YesNoColumns(Reading& r) {
  // "certified technicians", "equipment that is not critical": true, or false through the negation pass; "medicines
  // that are FDA approved": 'Yes' where a text column stores 'Yes' or 'No'.
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (el.column.empty() || !m.whole) continue;  // "one time bonus" does not say "full time"
    const std::optional<Literal> yes = YesLiteral(r.ctx, {el.table, el.column});
    if (!yes) continue;
    if (yes->kind == Literal::Kind::kString) {
      // A column of stored answers compared already ("the FDA approval status 'No'"), or named as a noun's modifier
      // ("the distinct FDA approval statuses": a word after it that nothing links) is asked about, not answered yes.
      const bool compared = std::any_of(r.filters.begin(), r.filters.end(), [&](const Filter& f) {
        return f.col.table == el.table && f.col.column == el.column;
      });
      const bool modifier = m.end < r.tokens.size() && r.tokens[m.end].kind == TokenKind::kWord &&
                            !IsStopWord(r.tokens[m.end].lower) && !r.used[m.end] &&
                            std::none_of(r.mentions.begin(), r.mentions.end(),
                                         [&](const Mention& n) { return n.begin <= m.end && m.end < n.end; });
      if (compared || modifier) continue;
    }
    r.filters.push_back({{el.table, el.column}, "=", *yes, {}, m.begin});
    r.consumed_tokens.insert(m.begin);
    r.notes.push_back(fmt::format("yes/no column {}.{} as a filter", el.table, el.column));
  }
}

}  // namespace plainsql::builtin
