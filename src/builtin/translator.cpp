// The built-in translator (see translator.h).
#include "builtin/translator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "builtin/intent.h"
#include "linking/joins.h"
#include "sql/parser.h"
#include "sql/printer.h"

namespace plainsql::builtin {

using linking::ConnectTables;
using linking::JoinEdge;
using retrieval::IsStopWord;

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

struct ColumnRef {
  std::string table, column;
  bool operator==(const ColumnRef&) const = default;
};

struct Filter {
  ColumnRef col;
  std::string op;        // "=", ">", "BETWEEN", ...
  std::string literal;   // SQL text
  std::string literal2;  // BETWEEN's upper bound
  size_t at = SIZE_MAX;  // the question token it comes from
};

std::string Quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

bool IsNumericColumn(const catalog::Schema& schema, const ColumnRef& c) {
  const catalog::Table* t = schema.FindTable(c.table);
  const catalog::Column* col = t ? t->FindColumn(c.column) : nullptr;
  return col && col->type_class == catalog::TypeClass::kNumeric;
}

// A column of `table` whose name contains `word` (case-insensitive), numeric ones first.
std::optional<ColumnRef> ColumnNamed(const catalog::Schema& schema, const std::string& table, std::string_view word) {
  const catalog::Table* t = schema.FindTable(table);
  if (!t) return std::nullopt;
  std::optional<ColumnRef> any;
  for (const auto& c : t->columns) {
    if (Lower(c.name).find(word) == std::string::npos) continue;
    if (c.type_class == catalog::TypeClass::kNumeric) return ColumnRef{t->name, c.name};
    if (!any) any = ColumnRef{t->name, c.name};
  }
  return any;
}

// The quantity an adjective or superlative names.
std::string QuantityOf(std::string_view word) {
  static const std::map<std::string, std::string, std::less<>> kWords = {
      {"older", "age"},      {"oldest", "age"},      {"younger", "age"},    {"youngest", "age"},
      {"longer", "length"},  {"longest", "length"},  {"shorter", "length"}, {"shortest", "length"},
      {"heavier", "weight"}, {"heaviest", "weight"}, {"lighter", "weight"}, {"lightest", "weight"},
      {"taller", "height"},  {"tallest", "height"},  {"cheaper", "price"},  {"cheapest", "price"},
      {"later", "year"},     {"latest", "year"},     {"earliest", "year"},  {"newest", "year"},
      {"richest", "money"},  {"fastest", "speed"},   {"slowest", "speed"},  {"biggest", "size"},
      {"largest", "size"},   {"smallest", "size"}};
  auto it = kWords.find(word);
  return it == kWords.end() ? std::string() : it->second;
}

// The quantity a unit after a number names: "30 years old" → age, "10 lbs" → weight.
std::string QuantityOfUnit(const std::vector<Token>& tokens, size_t at) {
  static const std::map<std::string, std::string, std::less<>> kUnits = {
      {"lbs", "weight"},  {"lb", "weight"},       {"pounds", "weight"},  {"kg", "weight"},      {"kilograms", "weight"},
      {"tons", "weight"}, {"grams", "weight"},    {"meters", "height"},  {"metres", "height"},  {"feet", "height"},
      {"cm", "height"},   {"inches", "height"},   {"km", "distance"},    {"miles", "distance"}, {"dollars", "price"},
      {"euros", "price"}, {"minutes", "minutes"}, {"seconds", "seconds"}};
  const std::string& w = tokens[at].lower;
  if ((w == "years" || w == "year") && at + 1 < tokens.size() && tokens[at + 1].lower == "old") return "age";
  auto it = kUnits.find(w);
  return it == kUnits.end() ? std::string() : it->second;
}

}  // namespace

Translator::Translator(const catalog::Schema& schema, const SchemaIndex& index, const ValueIndex* values)
    : schema_(schema), index_(index), values_(values) {}

Translation Translator::Translate(const std::string& question, const sql::Dialect& dialect, Stemmer& stemmer) const {
  // The best reading, then the same question with the first stored value that several columns hold read as the next
  // column that holds it ("Toledo" as a city, else as a customer's name): later readings, ranked lower.
  Choices first;
  Translation out = Assemble(question, dialect, stemmer, first);
  if (out.candidates.empty() || !first.value_alternatives) return out;
  for (size_t k = 1; k <= first.value_alternatives && k <= 2; ++k) {
    Choices other;
    other.value_choice = k;
    Translation t = Assemble(question, dialect, stemmer, other);
    if (other.lost) continue;  // the value's table could not be joined: that reading dropped the value
    for (auto& c : t.candidates) {
      bool seen = std::any_of(out.candidates.begin(), out.candidates.end(),
                              [&](const TranslatorCandidate& x) { return x.sql == c.sql; });
      if (seen) continue;
      c.score = std::max(0.0, c.score - 0.2 * static_cast<double>(k));
      out.candidates.push_back(std::move(c));
    }
  }
  return out;
}

Translation Translator::Assemble(const std::string& question, const sql::Dialect& dialect, Stemmer& stemmer,
                                 Choices& choices) const {
  Translation out;
  std::vector<Token> tokens = Tokenize(question, stemmer);
  Intent intent = ReadIntent(tokens);
  std::vector<LinkMatch> links = Link(index_, tokens);
  std::vector<ValueMatch> values = values_ ? values_->Match(tokens) : std::vector<ValueMatch>{};
  std::vector<bool> used(tokens.size(), false);
  std::vector<std::string> notes;
  // Words that carry the intent ("how many", "sorted by", "descending order", "oldest") name no table or column.
  static const std::set<std::string, std::less<>> kCueWords = {
      "how",        "many",         "much",           "number",  "count",     "average",    "mean",      "avg",
      "total",      "sum",          "maximum",        "max",     "minimum",   "min",        "each",      "per",
      "every",      "order",        "ordered",        "sorted",  "sort",      "descending", "ascending", "decreasing",
      "increasing", "alphabetical", "alphabetically", "top",     "first",     "most",       "least",     "highest",
      "lowest",     "largest",      "smallest",       "more",    "less",      "greater",    "fewer",     "than",
      "between",    "before",       "after",          "above",   "below",     "under",      "over",      "at",
      "not",        "no",           "never",          "without", "different", "distinct",   "unique",    "oldest",
      "youngest",   "older",        "younger",        "grouped", "group"};
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kWord || !kCueWords.count(tokens[i].lower)) continue;
    // "first" and "top" are cues only before a number ("top 3"); "first name" names a column.
    if ((tokens[i].lower == "first" || tokens[i].lower == "top") &&
        !(i + 1 < tokens.size() && tokens[i + 1].kind == TokenKind::kNumber)) {
      continue;
    }
    // "group" and "order" name columns too; they are cues in "grouped by", "group by", "in … order", "order by".
    if ((tokens[i].lower == "group" || tokens[i].lower == "order") &&
        !(i + 1 < tokens.size() && tokens[i + 1].lower == "by") &&
        !(tokens[i].lower == "order" && i > 0 &&
          (tokens[i - 1].lower == "descending" || tokens[i - 1].lower == "ascending" ||
           tokens[i - 1].lower == "alphabetical" || tokens[i - 1].lower == "decreasing" ||
           tokens[i - 1].lower == "increasing" || tokens[i - 1].lower == "reverse"))) {
      continue;
    }
    used[i] = true;
  }
  for (const auto& s : intent.superlatives) used[s.token] = true;

  // Tables and columns the question names, best links first, one per token span.
  struct Mention {
    size_t element, begin, end;
    bool whole = true;  // every word of a name matched, not just its head word
  };
  std::vector<Mention> mentions;
  std::set<std::string> linked_tables;
  // A column word that several tables have ("names") belongs to a table the question names ("names of
  // medications"), or whose stored value it names: those columns' links are preferred.
  std::set<std::string> named_tables;
  for (const auto& m : links) {
    const auto& el = index_.Elements()[m.element];
    bool free = true;
    for (size_t i = m.begin; i < m.end; ++i) free = free && !used[i];
    if (el.column.empty() && m.whole && free) named_tables.insert(Lower(el.table));
  }
  for (const auto& v : values) named_tables.insert(Lower(v.table));
  constexpr double kBoost = 0.3;  // chosen on Spider train (0.05: 0.369, 0.3: 0.374, 0.6: 0.373)
  for (auto& m : links) {
    const auto& el = index_.Elements()[m.element];
    if (!el.column.empty() && named_tables.count(Lower(el.table))) m.score += kBoost;
  }
  std::stable_sort(links.begin(), links.end(),
                   [](const LinkMatch& a, const LinkMatch& b) { return a.score > b.score; });
  for (const auto& m : links) {
    bool free = true;
    for (size_t i = m.begin; i < m.end; ++i) free = free && !used[i];
    if (!free) continue;
    // A partial match only stands in for a column when nothing better names that word.
    if (!m.whole && m.score < 0.5) continue;  // (boosted partial links pass)
    mentions.push_back({m.element, m.begin, m.end, m.whole});
    for (size_t i = m.begin; i < m.end; ++i) used[i] = true;
    linked_tables.insert(Lower(index_.Elements()[m.element].table));
  }
  std::sort(mentions.begin(), mentions.end(), [](const Mention& a, const Mention& b) { return a.begin < b.begin; });

  // Patterns: "names containing the word 'court'", "starting with 'A'", "ending with 'son'": a LIKE on the text
  // column named next to the cue (found once the subject is known).
  struct Pattern {
    size_t cue, value;
    std::string like;
    bool negated = false;  // "does not contain the letter M" → NOT LIKE
  };
  std::set<size_t> pattern_negations;  // negating words a pattern took
  std::vector<Pattern> patterns;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& w = tokens[i].lower;
    bool contains = w == "contain" || w == "contains" || w == "containing" || w == "include" || w == "includes" ||
                    w == "including" || w == "substring";
    bool with = i + 1 < tokens.size() && tokens[i + 1].lower == "with";
    bool starts =
        with && (w == "start" || w == "starts" || w == "starting" || w == "begin" || w == "begins" || w == "beginning");
    bool ends = with && (w == "end" || w == "ends" || w == "ending");
    if (!contains && !starts && !ends) continue;
    for (size_t k = i + 1; k < tokens.size() && k <= i + 5; ++k) {
      bool quoted = tokens[k].kind == TokenKind::kQuoted;
      bool named = k > 0 && (tokens[k - 1].lower == "word" || tokens[k - 1].lower == "letter" ||
                             tokens[k - 1].lower == "string" || tokens[k - 1].lower == "substring");
      if (!quoted && !named) continue;
      std::string v;
      for (char ch : tokens[k].text) {
        if (ch != '%' && ch != '_') v += ch;
      }
      bool negated = false;
      for (size_t n : intent.negations) {
        if (n < i && i - n <= 2) {
          negated = true;
          pattern_negations.insert(n);
        }
      }
      patterns.push_back({i, k, contains ? "%" + v + "%" : starts ? v + "%" : "%" + v, negated});
      used[i] = used[k] = true;
      for (size_t j = i + 1; j < k; ++j) {
        if (tokens[j].lower == "word" || tokens[j].lower == "letter" || tokens[j].lower == "with" ||
            tokens[j].lower == "string" || tokens[j].lower == "substring") {
          used[j] = true;
        }
      }
      break;
    }
  }

  // Cell values: prefer a column of a table the question already names.
  std::vector<Filter> filters;
  std::set<std::pair<size_t, size_t>> value_spans;
  for (const auto& v : values) value_spans.insert({v.begin, v.end});
  for (const auto& span : value_spans) {
    const size_t b = span.first, e = span.second;
    // A number a comparison reads ("after 1961") is not a stored value, nor is a pattern.
    bool compared = false;
    for (const auto& c : intent.comparisons) compared = compared || (b <= c.number && c.number < e);
    for (const auto& p : patterns) compared = compared || (b <= p.value && p.value < e);
    if (compared) continue;
    bool clash = false;
    for (size_t i = b; i < e; ++i) clash = clash || used[i];
    // The columns that hold the value, those of tables the question names first.
    std::vector<const ValueMatch*> holders;
    for (const auto& v : values) {
      if (v.begin == b && v.end == e) holders.push_back(&v);
    }
    std::stable_partition(holders.begin(), holders.end(),
                          [&](const ValueMatch* v) { return linked_tables.count(Lower(v->table)) > 0; });
    const ValueMatch* best = holders.empty() ? nullptr : holders.front();
    if (holders.size() > 1 && !choices.value_seen) {
      // The first value that several columns hold is the one later readings vary.
      choices.value_seen = true;
      choices.value_alternatives = holders.size() - 1;
      if (choices.value_choice < holders.size()) best = holders[choices.value_choice];
      choices.varied_table = best->table;
    }
    // A word that is both a column name and a value counts as a value only when quoted or capitalised.
    if (!best || (clash && !best->quoted && !std::isupper(static_cast<unsigned char>(tokens[b].text[0])))) continue;
    if (clash) {
      std::erase_if(mentions, [&](const Mention& m) { return m.begin < e && b < m.end; });
    }
    filters.push_back({{best->table, best->column}, "=", Quote(best->value), "", b});
    for (size_t i = b; i < e; ++i) used[i] = true;
    notes.push_back(fmt::format("value '{}' in {}.{}", best->value, best->table, best->column));
  }

  // The subject: the first table named, else the table of the first column named, else of the first value.
  std::string subject;
  for (const auto& m : mentions) {
    const auto& el = index_.Elements()[m.element];
    if (el.column.empty()) {
      subject = el.table;
      break;
    }
  }
  if (subject.empty() && !mentions.empty()) subject = index_.Elements()[mentions.front().element].table;
  if (subject.empty() && !filters.empty()) subject = filters.front().col.table;
  if (subject.empty()) {
    for (size_t i = 0; i < tokens.size(); ++i) {
      // Cue words ("how many") are understood, just not names.
      if (tokens[i].kind == TokenKind::kWord && !IsStopWord(tokens[i].lower) && !used[i]) {
        out.unlinked.push_back(tokens[i].text);
      }
    }
    out.reason = "nothing in the question names a table, a column or a stored value";
    return out;
  }

  // Patterns find their column: a text column named just before the cue ("names containing"), or after the pattern
  // ("with 'a' in their name"), else the subject's name column.
  std::set<size_t> consumed_tokens;  // column words the patterns use up ("whose name contains": not shown)
  auto only_filter = [&](size_t k) {
    for (size_t j = k >= 2 ? k - 2 : 0; j < k; ++j) {
      const std::string& w = tokens[j].lower;
      if (w == "whose" || w == "where" || w == "with" || w == "their" || w == "its" || w == "in") return true;
    }
    return false;
  };
  for (const auto& p : patterns) {
    std::optional<ColumnRef> col;
    auto text_column_at = [&](size_t k) -> std::optional<ColumnRef> {
      for (const auto& m : mentions) {
        const auto& el = index_.Elements()[m.element];
        if (!el.column.empty() && m.begin <= k && k < m.end && !IsNumericColumn(schema_, {el.table, el.column})) {
          return ColumnRef{el.table, el.column};
        }
      }
      return std::nullopt;
    };
    for (size_t back = 1; back <= 3 && back <= p.cue && !col; ++back) {
      col = text_column_at(p.cue - back);
      if (col && only_filter(p.cue - back)) consumed_tokens.insert(p.cue - back);
    }
    for (size_t k = p.value + 1; k < tokens.size() && k <= p.value + 4 && !col; ++k) {
      col = text_column_at(k);
      if (col && only_filter(k)) consumed_tokens.insert(k);
    }
    if (!col) col = ColumnNamed(schema_, subject, "name");
    if (!col) continue;
    filters.push_back({*col, p.negated ? "NOT LIKE" : "LIKE", Quote(p.like), "", p.cue});
    notes.push_back(fmt::format("pattern {} on {}.{}", Quote(p.like), col->table, col->column));
  }

  // Yes/no columns named by their quality ("certified technicians", "equipment that is not critical") are filters:
  // true, or false through the negation below.
  for (const auto& m : mentions) {
    const auto& el = index_.Elements()[m.element];
    if (el.column.empty() || !m.whole) continue;  // "one time bonus" does not say "full time"
    const catalog::Table* t = schema_.FindTable(el.table);
    const catalog::Column* c = t ? t->FindColumn(el.column) : nullptr;
    if (!c || c->type_class != catalog::TypeClass::kBoolean) continue;
    filters.push_back(
        {{el.table, el.column}, "=", dialect.name == std::string_view("postgres") ? "TRUE" : "1", "", m.begin});
    consumed_tokens.insert(m.begin);
    notes.push_back(fmt::format("yes/no column {}.{} as a filter", el.table, el.column));
  }

  // Negation: "drivers without a school bus", "pilots who did not win matches in Australia". The tables named after
  // the negating word (other than the subject) and the values found in them become a NOT IN subquery over the foreign
  // key that joins them to the subject; they are not joined in the main query.
  std::optional<size_t> neg_at;
  for (size_t n : intent.negations) {
    bool part_of_comparison = false;  // "no more than 3", "not older than 30"
    for (const auto& c : intent.comparisons) part_of_comparison = part_of_comparison || c.cue == n + 1;
    if (!part_of_comparison && !pattern_negations.count(n)) {
      neg_at = n;
      break;
    }
  }
  std::set<std::string> negated_tables;        // lower-case
  std::vector<std::string> need_tables_extra;  // negated tables joined after all
  if (neg_at) {
    for (const auto& m : mentions) {
      const auto& el = index_.Elements()[m.element];
      if (el.column.empty() && m.begin > *neg_at && Lower(el.table) != Lower(subject)) {
        negated_tables.insert(Lower(el.table));
      }
    }
    for (const auto& f : filters) {
      if (f.at != SIZE_MAX && f.at > *neg_at && Lower(f.col.table) != Lower(subject)) {
        negated_tables.insert(Lower(f.col.table));
      }
    }
    std::erase_if(mentions, [&](const Mention& m) {
      return m.begin > *neg_at && negated_tables.count(Lower(index_.Elements()[m.element].table));
    });
    used[*neg_at] = true;
  }

  auto column_at = [&](size_t token) -> std::optional<ColumnRef> {
    for (const auto& m : mentions) {
      const auto& el = index_.Elements()[m.element];
      if (!el.column.empty() && m.begin <= token && token < m.end) return ColumnRef{el.table, el.column};
    }
    return std::nullopt;
  };
  // The numeric column named nearest to `token` (before it first), else one named after `hint`.
  std::set<size_t> consumed;  // mentions used by filters, grouping or ordering
  auto numeric_near = [&](size_t token, const std::string& hint) -> std::optional<ColumnRef> {
    if (!hint.empty()) {
      for (const auto& t : {subject}) {
        if (auto c = ColumnNamed(schema_, t, hint)) return c;
      }
      for (const auto& t : linked_tables) {
        if (auto c = ColumnNamed(schema_, t, hint)) return c;
      }
    }
    std::optional<size_t> best;
    size_t best_distance = SIZE_MAX;
    for (size_t k = 0; k < mentions.size(); ++k) {
      const auto& el = index_.Elements()[mentions[k].element];
      if (el.column.empty() || !IsNumericColumn(schema_, {el.table, el.column})) continue;
      size_t d = mentions[k].end <= token ? token - mentions[k].end : mentions[k].begin - token + 1;
      if (d < best_distance) {
        best = k;
        best_distance = d;
      }
    }
    if (!best) return std::nullopt;
    consumed.insert(*best);
    const auto& el = index_.Elements()[mentions[*best].element];
    return ColumnRef{el.table, el.column};
  };

  auto table_at = [&](size_t token) -> std::optional<std::string> {
    for (const auto& m : mentions) {
      const auto& el = index_.Elements()[m.element];
      if (el.column.empty() && m.begin <= token && token < m.end) return el.table;
    }
    return std::nullopt;
  };
  auto mark_mention = [&](size_t token) {
    for (size_t k = 0; k < mentions.size(); ++k) {
      if (mentions[k].begin <= token && token < mentions[k].end) consumed.insert(k);
    }
  };
  for (size_t t : consumed_tokens) mark_mention(t);
  // Comparisons with numbers, with the average, and with counts over groups.
  struct Having {
    std::string op, value;
    std::string counted;  // the table whose rows are counted ("" when only "times" says so)
  };
  std::optional<Having> having;
  for (const auto& c : intent.comparisons) {
    if (c.average) {
      // "older than average": the quantity the adjective names; "above the average age": the column after it.
      std::optional<ColumnRef> col;
      if (!QuantityOf(c.adjective).empty()) col = numeric_near(c.cue, QuantityOf(c.adjective));
      for (size_t k = c.number + 1; !col && k < tokens.size() && k <= c.number + 2; ++k) {
        if (auto named = column_at(k); named && IsNumericColumn(schema_, *named)) {
          col = named;
          mark_mention(k);
        }
      }
      if (!col) col = numeric_near(c.cue, "");
      if (!col) {
        notes.push_back(fmt::format("no numeric column to compare with the average ('{}')", tokens[c.cue].text));
        continue;
      }
      used[c.cue] = used[c.number] = true;
      filters.push_back({*col, c.op,
                         fmt::format("(SELECT avg({}) FROM {})", sql::QuoteIdentifier(dialect, col->column),
                                     sql::QuoteIdentifier(dialect, col->table)),
                         "", c.cue});
      notes.push_back(fmt::format("compared with the average of {}.{}", col->table, col->column));
      continue;
    }
    // "more than 100 tracks", "at least 2 events", "4 or more transactions", "more than once": a count per group.
    // ("older than 40" names its quantity: never a count; "40 and a singer": the noun must follow the number.)
    if (c.op != "BETWEEN" && !having && QuantityOf(c.adjective).empty()) {
      size_t k = c.number + 1;
      if (c.cue > c.number) k = c.cue + 1;  // "4 or more transactions"
      while (k < tokens.size() && tokens[k].kind == TokenKind::kWord && IsStopWord(tokens[k].lower) &&
             tokens[k].lower != "and" && tokens[k].lower != "or") {
        ++k;
      }
      std::optional<std::string> counted;
      bool times = tokens[c.number].lower == "once" || tokens[c.number].lower == "twice" ||
                   (k < tokens.size() && tokens[k].lower == "times");
      if (k < tokens.size()) counted = table_at(k);
      if (counted || times) {
        having = Having{c.op, c.value, counted.value_or("")};
        used[c.cue] = used[c.number] = true;
        if (times && k < tokens.size()) used[k] = true;
        notes.push_back(counted ? fmt::format("a count of {} per group {} {}", *counted, c.op, c.value)
                                : fmt::format("a count per group {} {}", c.op, c.value));
        continue;
      }
    }
    // A date ("shipped after 2000-01-01"): the date column named nearest, else one whose name says date.
    if (c.value.size() == 10 && c.value[4] == '-') {
      std::optional<ColumnRef> col;
      size_t best = SIZE_MAX, best_k = 0;
      for (size_t k = 0; k < mentions.size(); ++k) {
        const auto& el = index_.Elements()[mentions[k].element];
        if (el.column.empty()) continue;
        const catalog::Table* t = schema_.FindTable(el.table);
        const catalog::Column* column = t ? t->FindColumn(el.column) : nullptr;
        bool dated = column && (column->type_class == catalog::TypeClass::kDatetime ||
                                Lower(el.column).find("date") != std::string::npos);
        size_t d = mentions[k].end <= c.cue ? c.cue - mentions[k].end : mentions[k].begin - c.cue + 1;
        if (dated && d < best) {
          best = d;
          best_k = k;
          col = ColumnRef{el.table, el.column};
        }
      }
      if (col) consumed.insert(best_k);
      // Else a date column of the subject: one a question word names part of ("installed" for INSTL_DT, read
      // "install date"), else its only one.
      if (!col) {
        std::vector<ColumnRef> dates;
        std::optional<ColumnRef> named;
        for (const auto& el : index_.Elements()) {
          if (el.column.empty() || Lower(el.table) != Lower(subject)) continue;
          const catalog::Table* t = schema_.FindTable(el.table);
          const catalog::Column* column = t ? t->FindColumn(el.column) : nullptr;
          if (!column || column->type_class != catalog::TypeClass::kDatetime) continue;
          dates.push_back({el.table, el.column});
          for (const auto& phrase : el.phrases) {
            for (const auto& tok : tokens) {
              if (!named && tok.kind == TokenKind::kWord && !IsStopWord(tok.lower) &&
                  std::find(phrase.begin(), phrase.end(), tok.stem) != phrase.end()) {
                named = ColumnRef{el.table, el.column};
              }
            }
          }
        }
        col = named ? named : dates.size() == 1 ? std::optional<ColumnRef>(dates.front()) : std::nullopt;
      }
      if (!col) col = ColumnNamed(schema_, subject, "date");
      if (!col) {
        notes.push_back(fmt::format("no date column for '{}'", c.value));
        continue;
      }
      used[c.cue] = used[c.number] = true;
      filters.push_back({*col, c.op, Quote(c.value), c.high.empty() ? "" : Quote(c.high), c.cue});
      continue;
    }
    // The unit after the number names the quantity when no adjective does: "below 30 years old", "over 10 lbs".
    std::string hint = QuantityOf(c.adjective);
    if (hint.empty() && c.number + 1 < tokens.size()) hint = QuantityOfUnit(tokens, c.number + 1);
    auto col = hint.empty() ? numeric_near(c.cue, "") : numeric_near(c.cue, hint);
    if (!col && !hint.empty()) col = numeric_near(c.cue, "");
    // "held between 2009 and 2011", "before 2010": a year.
    bool year_like = c.value.size() == 4 && c.value >= "1800" && c.value <= "2100";
    if (!col && year_like) col = numeric_near(c.cue, "year");
    if (!col) {
      notes.push_back(fmt::format("no numeric column for '{}'", tokens[c.cue].text));
      continue;
    }
    used[c.cue] = used[c.number] = true;
    filters.push_back({*col, c.op, c.value, c.high, c.cue});
  }
  // A number right after a column's name: "student with ID 1004", "room number 101" → that column equals it.
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kNumber || used[i]) continue;
    size_t k = i;
    while (k > 0 && tokens[k - 1].kind == TokenKind::kWord && IsStopWord(tokens[k - 1].lower) && i - k < 2) --k;
    if (k == 0) continue;
    auto col = column_at(k - 1);
    if (!col) continue;
    bool numeric = IsNumericColumn(schema_, *col);
    filters.push_back({*col, "=", numeric ? tokens[i].lower : Quote(tokens[i].lower), "", i});
    used[i] = true;
    mark_mention(k - 1);
  }
  // A lone year-like number: "in 2014" → a year or date column equal to it (several joined by OR).
  std::vector<std::string> years;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kNumber || used[i]) continue;
    bool year = tokens[i].lower.size() == 4 && tokens[i].lower >= "1800" && tokens[i].lower <= "2100";
    if (year) {
      years.push_back(tokens[i].lower);
      used[i] = true;
    }
  }
  std::optional<ColumnRef> year_column;
  if (!years.empty()) year_column = numeric_near(tokens.size(), "year");

  // Grouping, aggregates, superlatives, order.
  std::optional<ColumnRef> group;
  for (size_t g : intent.group_by) {
    // "for each country" names a column; "in each genre" a table: its name column, else its key.
    size_t k = g;
    while (k < tokens.size() && tokens[k].kind == TokenKind::kWord && IsStopWord(tokens[k].lower)) ++k;
    if (auto c = column_at(k)) {
      group = c;
      break;
    }
    if (auto t = table_at(k)) {
      const catalog::Table* table = schema_.FindTable(*t);
      std::optional<ColumnRef> c = ColumnNamed(schema_, *t, "name");
      if (c && IsNumericColumn(schema_, *c)) c.reset();
      if (!c && table && !table->primary_key.empty()) c = ColumnRef{table->name, table->primary_key.front()};
      if (c) {
        group = c;
        break;
      }
    }
  }
  std::vector<std::string> select;
  std::vector<ColumnRef> selected;
  std::string order_by, limit;
  auto mark_consumed = [&](const ColumnRef& c) {
    for (size_t k = 0; k < mentions.size(); ++k) {
      const auto& el = index_.Elements()[mentions[k].element];
      if (el.table == c.table && el.column == c.column) consumed.insert(k);
    }
  };
  for (const auto& f : filters) mark_consumed(f.col);
  if (group) mark_consumed(*group);

  bool counting = false;
  std::vector<std::string> aggregates;
  std::optional<size_t> count_at;
  // ("the total number of students" is a count.)
  bool other_aggregates = std::any_of(intent.aggregates.begin(), intent.aggregates.end(), [&](const AggregateCue& a) {
    return a.kind != Aggregate::kCount && !(a.token + 1 < tokens.size() && tokens[a.token + 1].lower == "number");
  });
  for (const auto& a : intent.aggregates) {
    if (a.kind == Aggregate::kCount) {
      // "the maximum number of transit passengers", "the number of seats" (a numeric column): a quantity, not a count.
      if (tokens[a.token].lower == "number") {
        size_t k = a.token + 1;
        while (k < tokens.size() && tokens[k].kind == TokenKind::kWord && IsStopWord(tokens[k].lower)) ++k;
        auto named = column_at(k);
        if (other_aggregates || (named && IsNumericColumn(schema_, *named))) continue;
      }
      counting = true;
      if (!count_at) count_at = a.token;
      continue;
    }
    auto col = numeric_near(a.token + 1, "");
    if (!col) continue;
    static const std::map<Aggregate, const char*> kFn = {
        {Aggregate::kAvg, "avg"}, {Aggregate::kSum, "sum"}, {Aggregate::kMax, "max"}, {Aggregate::kMin, "min"}};
    std::string item = fmt::format("{}({})", kFn.at(a.kind), "@" + col->table + "." + col->column);
    if (std::find(aggregates.begin(), aggregates.end(), item) != aggregates.end()) continue;
    aggregates.push_back(item);
    selected.push_back(*col);
  }
  std::optional<ColumnRef> order_column;
  bool order_desc = intent.order_descending.value_or(false);
  bool group_by_count = false;
  bool by_shown = false;  // group by the column shown, not the subject's key
  if (!intent.superlatives.empty() && aggregates.empty()) {
    const Superlative& s = intent.superlatives.front();
    std::string word = Lower(s.word);
    bool counts = word == "most" || word == "fewest" || word == "least";
    auto next_column = column_at(s.token + 1);
    // "the most common age", "the type that is most frequent": count the rows per value of what is shown.
    static const std::set<std::string, std::less<>> kFrequent = {"common",     "frequent", "popular",
                                                                 "frequently", "often",    "commonly"};
    if (counts && s.token + 1 < tokens.size() && kFrequent.count(tokens[s.token + 1].lower)) {
      used[s.token + 1] = true;
      by_shown = true;
      next_column.reset();
    }
    if (counts && !next_column) {
      group_by_count = true;  // "the stadium with the most concerts"
    } else {
      // Only the mention that names the ordering is used up: "the name and age of the oldest singer" shows age.
      if (next_column) {
        order_column = next_column;
        mark_mention(s.token + 1);
      } else {
        order_column = numeric_near(s.token, QuantityOf(word));
      }
    }
    order_desc = s.descending;
    limit = "1";
  }
  if (intent.order_token) {
    // "ordered by descending market value": the column may follow a cue word.
    std::optional<ColumnRef> by;
    size_t by_at = 0;
    for (size_t k = *intent.order_token; k < tokens.size() && k <= *intent.order_token + 2 && !by; ++k) {
      if (k > *intent.order_token && !used[k - 1] && !IsStopWord(tokens[k - 1].lower)) break;
      by = column_at(k);
      by_at = k;
    }
    if (by) {
      order_column = by;
      mark_mention(by_at);
    } else if (tokens[*intent.order_token].lower == "frequency" || tokens[*intent.order_token].lower == "count") {
      // "ordered by frequency": values of what is shown, by how often they occur.
      used[*intent.order_token] = true;
      group_by_count = by_shown = true;
      order_desc = intent.order_descending.value_or(true);
    }
  }
  if (intent.limit) limit = std::to_string(*intent.limit);
  // "in alphabetical order", "in descending order" with no column named for it: the first column shown.
  bool order_first_shown = intent.order_descending.has_value() && !order_column && intent.superlatives.empty();

  // The select list: the columns named and not used for anything else, in question order.
  // A column named only by its head word ("names" for manager_name) is not worth a join: it is shown only when its
  // table is needed anyway.
  std::set<std::string> anchored = {Lower(subject)};
  for (const auto& f : filters) anchored.insert(Lower(f.col.table));
  for (const auto& c : selected) anchored.insert(Lower(c.table));
  if (group) anchored.insert(Lower(group->table));
  if (order_column) anchored.insert(Lower(order_column->table));
  if (year_column) anchored.insert(Lower(year_column->table));
  if (having && !having->counted.empty()) anchored.insert(Lower(having->counted));
  for (const auto& m : mentions) {
    const auto& el = index_.Elements()[m.element];
    if (el.column.empty() || m.whole) anchored.insert(Lower(el.table));
  }
  std::vector<ColumnRef> shown;
  for (size_t k = 0; k < mentions.size(); ++k) {
    const auto& el = index_.Elements()[mentions[k].element];
    if (el.column.empty() || consumed.count(k)) continue;
    if (!mentions[k].whole && !anchored.count(Lower(el.table))) {
      notes.push_back(fmt::format("not shown: {}.{} (only its head word named, its table not otherwise needed)",
                                  el.table, el.column));
      continue;
    }
    ColumnRef c{el.table, el.column};
    if (std::find(shown.begin(), shown.end(), c) == shown.end()) {
      shown.push_back(c);
    }
  }
  // "the categories and the count", "each bed type's average price" ("different bed types" with an aggregate): a
  // column named before the count, or after "different", groups.
  if (!group && !group_by_count && !having && (counting || !aggregates.empty()) && !shown.empty()) {
    for (size_t i = 0; i + 1 < tokens.size() && !group; ++i) {
      if (!counting && intent.distinct && (tokens[i].lower == "different" || tokens[i].lower == "distinct")) {
        if (auto c = column_at(i + 1)) group = c;
      }
    }
    if (!group && counting && count_at) {
      for (size_t k = 0; k < mentions.size() && !group; ++k) {
        const auto& el = index_.Elements()[mentions[k].element];
        if (!el.column.empty() && !consumed.count(k) && mentions[k].end <= *count_at)
          group = ColumnRef{el.table, el.column};
      }
    }
    if (group) {
      std::erase(shown, *group);
      notes.push_back(fmt::format("grouped by {}.{}", group->table, group->column));
    }
  }
  if (group) shown.insert(shown.begin(), *group);
  if (counting && !group && !group_by_count) shown.clear();
  select.reserve(shown.size() + aggregates.size() + 1);
  for (const auto& c : shown) select.push_back("@" + c.table + "." + c.column);
  for (const auto& a : aggregates) select.push_back(a);
  if (counting && !group_by_count) {
    select.push_back(intent.distinct && !shown.empty() ? "count(DISTINCT " + select.front() + ")" : "count(*)");
    if (intent.distinct && !shown.empty() && !group) select.erase(select.begin());
  }
  // "all the information about", "all details of", "everything": every column.
  bool everything = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& w = tokens[i].lower;
    bool all_before = (i >= 1 && tokens[i - 1].lower == "all") || (i >= 2 && tokens[i - 2].lower == "all");
    if (w == "everything" || ((w == "information" || w == "info" || (w == "details" && !used[i])) && all_before)) {
      everything = true;
      used[i] = true;
    }
  }
  if (select.empty()) {
    auto name = ColumnNamed(schema_, subject, "name");
    select.push_back(name && !everything ? "@" + name->table + "." + name->column : "*");
  }

  // The negated part: its filters leave the main query for the subquery.
  std::vector<Filter> negated_filters;
  if (!negated_tables.empty()) {
    for (auto it = filters.begin(); it != filters.end();) {
      if (it->at != SIZE_MAX && it->at > *neg_at && negated_tables.count(Lower(it->col.table))) {
        negated_filters.push_back(*it);
        it = filters.erase(it);
      } else {
        ++it;
      }
    }
  } else if (neg_at) {
    // A value of the subject's own table after the negation: "players not from the USA" → !=.
    for (auto& f : filters) {
      if (f.at != SIZE_MAX && f.at > *neg_at && f.op == "=") f.op = "!=";
    }
  }
  std::string not_in;  // "<subject column> NOT IN (subquery)", the subject column as a placeholder
  ColumnRef not_in_column;
  if (!negated_tables.empty()) {
    std::vector<std::string> wanted = {subject};
    for (const auto& t : schema_.tables) {
      if (negated_tables.count(Lower(t.name))) wanted.push_back(t.name);
    }
    auto sub_tree = ConnectTables(schema_, wanted);
    size_t from_subject = 0;
    const JoinEdge* first = nullptr;
    if (sub_tree) {
      for (const auto& e : sub_tree->edges) {
        if (Lower(e.left_table) == Lower(subject)) {
          ++from_subject;
          first = &e;
        }
      }
    }
    if (first && from_subject == 1 && first->left_columns.size() == 1) {
      std::map<std::string, std::string> sub_alias;
      size_t next = 1;
      for (const auto& t : sub_tree->Tables()) {
        if (Lower(t) != Lower(subject)) sub_alias[Lower(t)] = fmt::format("S{}", next++);
      }
      auto sref = [&](const std::string& table, const std::string& column) {
        return sub_alias[Lower(table)] + "." + sql::QuoteIdentifier(dialect, column);
      };
      std::string sub = "SELECT " + sref(first->right_table, first->right_columns.front()) + " FROM " +
                        sql::QuoteIdentifier(dialect, first->right_table) + " AS " +
                        sub_alias[Lower(first->right_table)];
      for (const auto& e : sub_tree->edges) {
        if (&e == first) continue;
        sub +=
            " JOIN " + sql::QuoteIdentifier(dialect, e.right_table) + " AS " + sub_alias[Lower(e.right_table)] + " ON ";
        for (size_t i = 0; i < e.left_columns.size(); ++i) {
          sub += (i ? " AND " : "") + sref(e.left_table, e.left_columns[i]) + " = " +
                 sref(e.right_table, e.right_columns[i]);
        }
      }
      std::vector<std::string> conds;
      for (const auto& f : negated_filters) {
        std::string col = sref(f.col.table, f.col.column);
        conds.push_back(f.op == "BETWEEN" ? fmt::format("{} BETWEEN {} AND {}", col, f.literal, f.literal2)
                                          : fmt::format("{} {} {}", col, f.op, f.literal));
      }
      if (!conds.empty()) sub += " WHERE " + fmt::format("{}", fmt::join(conds, " AND "));
      not_in = sub;
      not_in_column = {subject, first->left_columns.front()};
      notes.push_back(fmt::format("negated: {} NOT IN rows of {}", subject, fmt::join(negated_tables, ", ")));
    } else {
      // No single foreign key to negate through: keep the tables joined as before.
      notes.push_back("negation not applied: no single foreign key from " + subject + " to the negated tables");
      for (auto& f : negated_filters) filters.push_back(f);
      negated_filters.clear();
      for (const auto& t : schema_.tables) {
        if (negated_tables.count(Lower(t.name))) need_tables_extra.push_back(t.name);
      }
    }
  }

  // Tables and joins.
  std::vector<std::string> tables = {subject};
  for (const auto& t : need_tables_extra) tables.push_back(t);
  auto need = [&](const ColumnRef& c) {
    if (std::find(tables.begin(), tables.end(), c.table) == tables.end()) tables.push_back(c.table);
  };
  for (const auto& c : shown) need(c);
  for (const auto& c : selected) need(c);
  for (const auto& f : filters) need(f.col);
  if (order_column) need(*order_column);
  if (year_column) need(*year_column);
  for (const auto& m : mentions) {
    const auto& el = index_.Elements()[m.element];
    if (el.column.empty() && std::find(tables.begin(), tables.end(), el.table) == tables.end()) {
      tables.push_back(el.table);
    }
  }
  auto tree = ConnectTables(schema_, tables);
  // Tables that cannot be joined to the subject are dropped, with what they would have contributed.
  while (!tree && tables.size() > 1) {
    std::string dropped;
    for (size_t i = tables.size(); i-- > 1;) {
      if (!ConnectTables(schema_, {subject, tables[i]})) {
        dropped = tables[i];
        break;
      }
    }
    if (dropped.empty()) dropped = tables.back();
    notes.push_back("dropped " + dropped + ": no foreign-key path to " + subject);
    if (choices.value_choice > 0 && Lower(dropped) == Lower(choices.varied_table)) choices.lost = true;
    std::erase(tables, dropped);
    auto gone = [&](const std::string& item) { return item.find("@" + dropped + ".") != std::string::npos; };
    std::erase_if(select, gone);
    std::erase_if(filters, [&](const Filter& f) { return f.col.table == dropped; });
    if (order_column && order_column->table == dropped) order_column.reset();
    if (year_column && year_column->table == dropped) year_column.reset();
    if (group && group->table == dropped) group.reset();
    tree = ConnectTables(schema_, tables);
  }
  if (select.empty()) {
    auto name = ColumnNamed(schema_, subject, "name");
    select.push_back(name ? "@" + name->table + "." + name->column : "*");
  }
  if (!tree) {
    out.reason = "the tables the question names are not connected by foreign keys: " +
                 fmt::format("{}", fmt::join(tables, ", "));
    return out;
  }
  std::vector<std::string> order_of_tables = tree->Tables();
  bool aliases = order_of_tables.size() > 1;
  std::map<std::string, std::string> alias;
  for (size_t i = 0; i < order_of_tables.size(); ++i) alias[Lower(order_of_tables[i])] = fmt::format("T{}", i + 1);
  auto ref = [&](const std::string& table, const std::string& column) {
    std::string c = sql::QuoteIdentifier(dialect, column);
    return aliases ? alias[Lower(table)] + "." + c : c;
  };
  // "@table.column" placeholders in select items become references.
  auto expand = [&](std::string item) {
    for (size_t at = item.find('@'); at != std::string::npos; at = item.find('@')) {
      size_t dot = item.find('.', at);
      // Column names run to the next ')' or the end.
      size_t end = item.find(')', dot);
      if (end == std::string::npos) end = item.size();
      std::string table = item.substr(at + 1, dot - at - 1), column = item.substr(dot + 1, end - dot - 1);
      item.replace(at, end - at, ref(table, column));
    }
    return item;
  };
  std::string sql = "SELECT ";
  if (intent.distinct && !counting && aggregates.empty()) sql += "DISTINCT ";
  for (size_t i = 0; i < select.size(); ++i) sql += (i ? ", " : "") + expand(select[i]);
  auto table_sql = [&](const std::string& t) {
    std::string q = sql::QuoteIdentifier(dialect, t);
    return aliases ? q + " AS " + alias[Lower(t)] : q;
  };
  sql += " FROM " + table_sql(tree->root);
  for (const auto& e : tree->edges) {
    sql += " JOIN " + table_sql(e.right_table) + " ON ";
    for (size_t i = 0; i < e.left_columns.size(); ++i) {
      sql += (i ? " AND " : "") + ref(e.left_table, e.left_columns[i]) + " = " + ref(e.right_table, e.right_columns[i]);
    }
  }
  // Conditions, in question order. Two conditions with "or" between them are one OR; two on the same column that
  // cannot both hold ("Panama and Malta flags", "more than 5600 and less than 5200") are an OR, or, when the question
  // says "both", the same query twice joined by INTERSECT (the other reading is the next candidate).
  struct Cond {
    std::string sql;
    ColumnRef col;
    size_t at = SIZE_MAX;
    bool equality = false;
    double number = 0;
    bool numeric = false;
    std::string op;
  };
  std::vector<Cond> conds;
  for (const auto& f : filters) {
    std::string col = ref(f.col.table, f.col.column);
    Cond c{f.op == "BETWEEN" ? fmt::format("{} BETWEEN {} AND {}", col, f.literal, f.literal2)
                             : fmt::format("{} {} {}", col, f.op, f.literal),
           f.col,
           f.at,
           f.op == "=",
           0,
           false,
           f.op};
    if (!f.literal.empty() && (std::isdigit(static_cast<unsigned char>(f.literal[0])) || f.literal[0] == '-')) {
      c.number = std::atof(f.literal.c_str());
      c.numeric = true;
    }
    conds.push_back(std::move(c));
  }
  if (!not_in.empty()) {
    conds.push_back({ref(not_in_column.table, not_in_column.column) + " NOT IN (" + not_in + ")", not_in_column,
                     *neg_at, false, 0, false, "NOT IN"});
  }
  std::stable_sort(conds.begin(), conds.end(), [](const Cond& a, const Cond& b) { return a.at < b.at; });
  if (year_column) {
    std::vector<std::string> ors;
    ors.reserve(years.size());
    for (const auto& y : years) ors.push_back(ref(year_column->table, year_column->column) + " = " + y);
    conds.push_back({ors.size() == 1 ? ors[0] : "(" + fmt::format("{}", fmt::join(ors, " OR ")) + ")", *year_column,
                     SIZE_MAX, false, 0, false, "="});
  }
  auto word_between = [&](size_t a, size_t b, std::string_view word) {
    if (a == SIZE_MAX || b == SIZE_MAX) return false;
    for (size_t i = std::min(a, b) + 1; i < std::max(a, b) && i < tokens.size(); ++i) {
      if (tokens[i].kind == TokenKind::kWord && tokens[i].lower == word) return true;
    }
    return false;
  };
  bool both = std::any_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.lower == "both"; });
  // Which pairs (i, i + 1) are joined by OR, and a same-column pair that may be read as INTERSECT.
  std::vector<bool> or_next(conds.size(), false);
  std::optional<std::pair<size_t, size_t>> clash;
  for (size_t i = 0; i + 1 < conds.size(); ++i) {
    const Cond &a = conds[i], &b = conds[i + 1];
    bool same_column = a.col == b.col;
    bool cannot_both =
        same_column && ((a.equality && b.equality) || (a.numeric && b.numeric &&
                                                       ((a.op[0] == '>' && b.op[0] == '<' && a.number >= b.number) ||
                                                        (a.op[0] == '<' && b.op[0] == '>' && a.number <= b.number))));
    if (word_between(a.at, b.at, "or") || word_between(a.at, b.at, "nor")) {
      or_next[i] = true;
    } else if (cannot_both) {
      // "both", or "and" between two conditions that no one row meets: rows of each, as INTERSECT.
      or_next[i] = !(both || word_between(a.at, b.at, "and"));
      if (!clash) clash = std::make_pair(i, i + 1);
    }
  }
  auto where_sql = [&](std::optional<size_t> skip) {
    std::vector<std::string> groups;
    std::vector<std::string> ors;
    for (size_t i = 0; i < conds.size(); ++i) {
      if (skip && *skip == i) continue;
      ors.push_back(conds[i].sql);
      bool joined = or_next[i] && !(skip && *skip == i + 1);
      if (!joined) {
        groups.push_back(ors.size() == 1 ? ors[0] : "(" + fmt::format("{}", fmt::join(ors, " OR ")) + ")");
        ors.clear();
      }
    }
    return groups.empty() ? std::string() : " WHERE " + fmt::format("{}", fmt::join(groups, " AND "));
  };
  // Counting per subject row groups by its key; counting the subject's own rows ("statuses shared by more than two
  // roller coasters") groups by what is shown.
  auto subject_key = [&]() -> std::string {
    const catalog::Table* t = schema_.FindTable(subject);
    bool own_rows = (having && Lower(having->counted) == Lower(subject) && !group_by_count) || by_shown;
    bool keyed = t && !t->primary_key.empty();
    if (keyed && !own_rows) return ref(subject, t->primary_key.front());
    for (const auto& c : shown) {
      if (std::find(order_of_tables.begin(), order_of_tables.end(), c.table) != order_of_tables.end()) {
        return ref(c.table, c.column);
      }
    }
    return keyed ? ref(subject, t->primary_key.front()) : "";
  };
  std::string grouping;  // GROUP BY and HAVING
  if (group) {
    grouping += " GROUP BY " + ref(group->table, group->column);
  } else if (group_by_count || having) {
    std::string key = subject_key();
    if (!key.empty()) {
      grouping += " GROUP BY " + key;
    } else {
      having.reset();
      group_by_count = false;
    }
  }
  if (having) grouping += fmt::format(" HAVING count(*) {} {}", having->op, having->value);
  std::string ordering;
  if (group_by_count) {
    ordering += std::string(" ORDER BY count(*) ") + (order_desc ? "DESC" : "ASC");
  } else if (order_column) {
    ordering += " ORDER BY " + ref(order_column->table, order_column->column) + (order_desc ? " DESC" : "");
  } else if (order_first_shown && !select.empty() && select.front() != "*" && aggregates.empty() && !counting) {
    ordering += " ORDER BY " + expand(select.front()) + (order_desc ? " DESC" : "");
  }
  if (!limit.empty() && (order_column || group_by_count)) ordering += " LIMIT " + limit;

  // The readings, best first: the conditions as read, then the other reading of a same-column pair.
  std::vector<std::pair<std::string, std::string>> readings;  // SQL, note
  std::string intersect;
  if (clash && ordering.empty() && !counting && aggregates.empty()) {
    intersect = sql + where_sql(clash->second) + grouping + " INTERSECT " + sql + where_sql(clash->first) + grouping;
  }
  // No INTERSECT with ordering or aggregates: the pair is an OR then, never an AND that no row meets.
  if (clash && !or_next[clash->first] && intersect.empty()) or_next[clash->first] = true;
  if (clash && !or_next[clash->first] && !intersect.empty()) {
    readings.emplace_back(intersect, "both values: INTERSECT");
    or_next[clash->first] = true;
    readings.emplace_back(sql + where_sql(std::nullopt) + grouping + ordering, "either value: OR");
  } else {
    readings.emplace_back(sql + where_sql(std::nullopt) + grouping + ordering, "");
    if (!intersect.empty()) readings.emplace_back(intersect, "both values: INTERSECT");
  }
  size_t content = 0, covered = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind == TokenKind::kWord && IsStopWord(tokens[i].lower)) continue;
    ++content;
    if (used[i]) {
      ++covered;
    } else {
      out.unlinked.push_back(tokens[i].text);
    }
  }
  double score = content ? static_cast<double>(covered) / static_cast<double>(content) : 0.0;
  // Through the front end: what leaves here parses, and prints in the dialect.
  for (size_t r = 0; r < readings.size(); ++r) {
    auto parsed = sql::ParseQuery(readings[r].first, dialect);
    if (!parsed) {
      if (r == 0) out.reason = "the assembled query does not parse: " + parsed.error().message;
      continue;
    }
    TranslatorCandidate c;
    c.sql = sql::Print(*parsed, dialect);
    c.score = std::max(0.0, score - 0.1 * static_cast<double>(r));
    c.notes = notes;
    if (!readings[r].second.empty()) c.notes.push_back(readings[r].second);
    out.candidates.push_back(std::move(c));
  }
  if (!out.candidates.empty()) out.reason.clear();
  return out;
}

}  // namespace plainsql::builtin
