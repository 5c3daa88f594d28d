// The grouping passes (see passes.h): grouping, aggregates, superlatives, order and the select list.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>

#include "builtin/passes.h"
#include "builtin/query_tree.h"
#include "builtin/words.h"
#include "common/strings.h"
#include "naturalness/identifier.h"
#include "retrieval/text.h"

namespace plainsql::builtin {

namespace {

using retrieval::IsStopWord;

Output ColumnOutput(const ColumnRef& c) { return {Output::Kind::kColumn, c, ""}; }

// "sorted by the channel rating" (rating_in_percent), "in decreasing order of their sales" (sales_billion), "ordered by
// the date they were formed" (date_formed), "how many students live in each city" (city_code): after an ordering or a
// grouping cue the words up to the next preposition name a column, so a column of a table the question reaches is
// taken by any of its name's words there, not only by its head word as linking does elsewhere. Its key columns are left
// out; the column matching the most words wins, a tie none. `words` returns the tokens it matched.
std::optional<ColumnRef> ColumnByNameWords(const Reading& r, size_t at, std::vector<size_t>& words) {
  static const std::set<std::string, std::less<>> kEnds = {"in",   "from", "and", "or",   "then",
                                                           "with", "for",  "to",  "order"};
  for (size_t k = at; k < r.tokens.size() && k < at + 6; ++k) {
    const retrieval::Token& t = r.tokens[k];
    if (t.kind != TokenKind::kWord || kEnds.count(t.lower)) break;
    if (!r.used[k] && !IsStopWord(t.lower)) words.push_back(k);
  }
  if (words.empty()) return std::nullopt;
  std::set<std::string> tables = r.linked_tables;
  for (const auto& v : r.values) tables.insert(ToLower(v.table));
  size_t best = 0, at_best = 0;
  std::optional<ColumnRef> found;
  std::vector<size_t> found_words;
  for (const linking::SchemaElement& el : r.ctx.index.Elements()) {
    if (el.column.empty() || el.view || !tables.count(ToLower(el.table))) continue;
    const catalog::Table* t = r.ctx.schema.FindTable(el.table);
    if (t == nullptr || IsKeyColumn(*t, el.column)) continue;
    std::vector<size_t> matched;
    for (size_t k : words) {
      bool in_name = false;
      for (size_t p = 0; p < el.phrases.size() && p < el.aliases_from && !in_name; ++p) {
        if (linking::IsSynonymPhrase(el, p)) continue;
        in_name = std::find(el.phrases[p].begin(), el.phrases[p].end(), r.tokens[k].stem) != el.phrases[p].end();
      }
      if (in_name) matched.push_back(k);
    }
    if (matched.empty() || matched.size() < best) continue;
    at_best = matched.size() == best ? at_best + 1 : 1;
    best = matched.size();
    found = ColumnRef{el.table, el.column};
    found_words = matched;
  }
  if (at_best != 1) return std::nullopt;
  words = found_words;
  return found;
}

// "the apartment number and the number of rooms": a count a column stores, named by a word of its name no link took,
// the column's name also saying it counts (room_count, num_of_shops), is that column: a mention of it is added at `k`.
bool CountStoredIn(Reading& r, size_t k) {
  bool ambiguous = false;
  const std::optional<ColumnRef> c = NumericByWord(r, k, 0, &ambiguous);
  if (!c || ambiguous) {
    if (c) r.used[k] = false;
    return false;
  }
  const auto words = naturalness::SplitWords(c->column);
  const bool counts = std::any_of(words.begin(), words.end(), [](std::string_view w) {
    const std::string l = ToLower(w);
    return l == "count" || l == "number" || l == "num" || l == "cnt";
  });
  const auto& elements = r.ctx.index.Elements();
  const auto el = std::find_if(elements.begin(), elements.end(), [&](const linking::SchemaElement& e) {
    return EqualsIgnoreCase(e.table, c->table) && EqualsIgnoreCase(e.column, c->column);
  });
  if (!counts || el == elements.end()) {
    r.used[k] = false;
    return false;
  }
  const Mention m{static_cast<size_t>(el - elements.begin()), k, k + 1, true, 1.0};
  const auto at = std::find_if(r.mentions.begin(), r.mentions.end(), [&](const Mention& o) { return o.begin > k; });
  const size_t index = static_cast<size_t>(at - r.mentions.begin());
  r.mentions.insert(at, m);
  std::set<size_t> consumed;  // (indexes after the new mention move by one)
  for (const size_t i : r.consumed) consumed.insert(i < index ? i : i + 1);
  r.consumed = std::move(consumed);
  return true;
}

// "the maximum number of transit passengers", "the number of seats" (a numeric column): a quantity, not a count; nor
// is the last word of a column's name ("room number").
bool CountIsQuantity(Reading& r, const AggregateCue& a, bool other_aggregates) {
  if (r.tokens[a.token].lower != "number") return false;
  // "the room number of the offices": "number" ends a column's name, no count; "the phone number of Nancy Edwards":
  // it follows one (phone).
  if (ColumnAt(r, a.token)) return true;
  const bool after_name = std::any_of(r.mentions.begin(), r.mentions.end(), [&](const Mention& m) {
    return m.end == a.token && m.whole && !ElementOf(r, m).column.empty();
  });
  if (after_name) return true;
  size_t k = a.token + 1;
  while (k < r.tokens.size() && r.tokens[k].kind == TokenKind::kWord && IsStopWord(r.tokens[k].lower)) ++k;
  auto named = ColumnAt(r, k);
  if (other_aggregates || (named && HoldsQuantities(r.ctx, *named))) return true;
  // "the total number of rooms", "the total number of king beds": the sum right before has read a quantity after
  // "number of" (room_count, beds): no count besides.
  for (size_t i = 0; i < r.aggregates.size(); ++i) {
    if (r.aggregate_cues[i] + 1 == a.token && r.aggregates[i].function == "sum") return true;
  }
  // "the largest number of bedrooms": after a superlative, a word of a quantity's name that no link took
  // (bedroom_count, ReadSuperlative orders by it).
  const bool after_superlative =
      std::any_of(r.intent.superlatives.begin(), r.intent.superlatives.end(), [&](const Superlative& s) {
        const std::string w = ToLower(s.word);
        return s.token + 1 == a.token && w != "most" && w != "fewest" && w != "least";
      });
  if (!named && !after_superlative && k < r.tokens.size() && !TableAt(r, k) && CountStoredIn(r, k)) return true;
  if (named || !after_superlative || k >= r.tokens.size() || TableAt(r, k)) return false;
  bool ambiguous = false;
  const bool by_word = NumericByWord(r, k, 0, &ambiguous).has_value();
  if (by_word) r.used[k] = false;  // (read again by ReadSuperlative)
  return by_word && !ambiguous;
}

// "How many undergraduates are there in 2004?", "How many king beds are there?": "how many" before a column that
// holds quantities (not a key, not also a table's name) sums it.
std::optional<ColumnRef> HowManyOfQuantity(Reading& r, const AggregateCue& a) {
  if (r.tokens[a.token].lower != "how" || a.token + 1 >= r.tokens.size() || r.tokens[a.token + 1].lower != "many") {
    return std::nullopt;
  }
  size_t k = a.token + 2;
  while (k < r.tokens.size() && r.tokens[k].kind == TokenKind::kWord && IsStopWord(r.tokens[k].lower)) ++k;
  // ("How many different levels": distinct values are counted; "how many bike ids": ids are no quantity.)
  if (k < r.tokens.size() && IsDistinctWord(r.tokens[k].lower)) return std::nullopt;
  // "How many rooms in total are there in ...": a quantity by a word of its name no link took (room_count), when a
  // sum is asked for too ("in total").
  const bool in_total = std::any_of(r.intent.aggregates.begin(), r.intent.aggregates.end(), [&](const AggregateCue& o) {
    return o.kind == Aggregate::kSum && o.token > 0 && r.tokens[o.token - 1].lower == "in";
  });
  if (in_total && k < r.tokens.size() && !ColumnAt(r, k) && !TableAt(r, k)) {
    bool ambiguous = false;
    auto by_word = NumericByWord(r, k, 0, &ambiguous);
    if (by_word && !ambiguous && !ToLower(by_word->column).ends_with("id")) return by_word;
    if (by_word) r.used[k] = false;
  }
  // The column may end a little later ("how many king beds": beds), but nothing of the question may come between.
  for (size_t end = k; end < r.tokens.size() && end <= k + 1; ++end) {
    if (TableAt(r, end)) return std::nullopt;
    auto named = ColumnAt(r, end);
    if (!named) continue;
    const catalog::Table* t = r.ctx.schema.FindTable(named->table);
    if (!t || !IsNumericColumn(r.ctx.schema, *named) || ToLower(named->column).ends_with("id") ||
        r.tokens[end].lower == "ids" || IsKeyColumn(*t, named->column)) {
      return std::nullopt;
    }
    MarkMention(r, end);
    return named;
  }
  return std::nullopt;
}

// "the number of allergies in each type", "How many eliminations did each team have?": the noun counted names the rows
// counted; when it links to a column (Allergy, Eliminated_By) that column is not shown beside the count. ("how many
// different cities": the distinct values counted, read by DifferentColumn.)
void ConsumeCountedColumn(Reading& r, size_t cue) {
  const std::string& w = r.tokens[cue].lower;
  if (w != "number" && w != "how") return;
  size_t k = cue + 1;
  while (k < r.tokens.size() &&
         (r.tokens[k].lower == "of" || r.tokens[k].lower == "many" || r.tokens[k].lower == "the")) {
    ++k;
  }
  if (k >= r.tokens.size() || IsDistinctWord(r.tokens[k].lower) || TableAt(r, k)) return;
  const std::optional<ColumnRef> c = ColumnAt(r, k);
  if (!c) return;
  // ("the number of institutions in each building": a column named as its table, Institution.Institution, stands for
  // the table's rows when nothing else of the question names that table: left as it is, so that the table is joined.)
  const bool table_named_else = std::any_of(r.mentions.begin(), r.mentions.end(), [&](const Mention& m) {
    return (m.begin > k || m.end <= k) && EqualsIgnoreCase(ElementOf(r, m).table, c->table);
  });
  if (EqualsIgnoreCase(c->column, c->table) && !table_named_else) return;
  MarkMention(r, k);
}

// The verbs a question may open with to ask for something: "Find the ...", "Show me the ...".
const std::set<std::string, std::less<>> kCommands = {"find", "show", "give",    "return",
                                                      "list", "tell", "display", "get"};

// "What is the earliest hire date?", "Find the largest payment amount": a superlative right after the question's
// opening ("what is the", "find the", "show me the") asks for the column it orders by, which is shown too. Not after
// another noun ("the name of the oldest singer" shows the name).
bool AsksForOrderedColumn(const Reading& r, size_t superlative) {
  const auto& t = r.tokens;
  // ("the most recent": the superlative is read at "recent".)
  if (superlative > 0 && (t[superlative - 1].lower == "most" || t[superlative - 1].lower == "least")) --superlative;
  if (superlative < 2 || t[superlative - 1].lower != "the") return false;
  static const std::set<std::string, std::less<>> kAsking = {"what", "which"};
  static const std::set<std::string, std::less<>> kCopulas = {"is", "was", "are", "were"};
  if (superlative == 3) {
    return (kAsking.count(t[0].lower) && kCopulas.count(t[1].lower)) ||
           (kCommands.count(t[0].lower) && t[1].lower == "me");
  }
  return superlative == 2 && kCommands.count(t[0].lower);
}

// Whether the question asks first for what is named at `begin`: "Which city ...", "What city ...", "Find the city
// ...", "Show me the city ...".
bool AskedFirst(const Reading& r, size_t begin) {
  const auto& t = r.tokens;
  if (begin == 1) return t[0].lower == "which" || t[0].lower == "what";
  if (begin < 2 || !kCommands.count(t[0].lower) || t[begin - 1].lower != "the") return false;
  return begin == 2 || (begin == 3 && t[1].lower == "me");
}

// Whether table `from` refers to table `to` through at most `depth` foreign keys followed from the referencing side
// (opr_conf → MoOperation → technician): each row of `to` has a set of `from` rows.
bool RefersTo(const catalog::Schema& schema, const std::string& from, const std::string& to, int depth) {
  if (ToLower(from) == ToLower(to)) return true;
  const catalog::Table* t = schema.FindTable(from);
  if (!t || depth == 0) return false;
  return std::any_of(t->foreign_keys.begin(), t->foreign_keys.end(), [&](const catalog::ForeignKey& fk) {
    return ToLower(fk.ref_table) != ToLower(from) && RefersTo(schema, fk.ref_table, to, depth - 1);
  });
}

// "the most hours" per subject: a quantity (not a key, a year or a date) of another table whose rows refer to the
// subject's, so that each subject row has several to add up.
bool AddsUpPerSubject(const Reading& r, const ColumnRef& c) {
  if (ToLower(c.table) == ToLower(r.subject) || !HoldsQuantities(r.ctx, c) || HoldsDates(r.ctx.schema, c)) {
    return false;
  }
  const catalog::Table* t = r.ctx.schema.FindTable(c.table);
  if (!t || IsKeyColumn(*t, c.column) || ToLower(c.column).find("year") != std::string::npos) return false;
  return RefersTo(r.ctx.schema, c.table, r.subject, 3);
}

// "the technician who confirmed the most hours": of the quantities the noun may name (EST_HRS, PlannedHrs, ACT_HRS),
// the one whose description, or its table's, has the word right before the superlative, function words skipped
// ("Actual work hours confirmed"; a noun there counts too: "the technician with the most hours" finds the
// confirmations' table "entered by technicians"); `chosen` when none or several have it.
ColumnRef QuantityTheVerbDescribes(const Reading& r, size_t superlative, const ColumnRef& chosen) {
  size_t v = superlative;
  while (v > 0 && r.tokens[v - 1].kind == TokenKind::kWord && IsStopWord(r.tokens[v - 1].lower)) --v;
  if (v == 0 || r.tokens[v - 1].kind != TokenKind::kWord || r.tokens[v - 1].lower.size() < 4) return chosen;
  const std::string& verb = r.tokens[v - 1].stem;
  thread_local retrieval::Stemmer stemmer;
  auto says = [&](const std::string& text) {
    const auto words = naturalness::SplitWords(text);
    return std::any_of(words.begin(), words.end(),
                       [&](std::string_view w) { return stemmer.Stem(ToLower(w)) == verb; });
  };
  std::optional<ColumnRef> found;
  for (const auto& l : r.links) {
    if (l.begin > superlative + 1 || superlative + 1 >= l.end) continue;
    const auto& el = r.ctx.index.Elements()[l.element];
    const catalog::Table* t = el.column.empty() ? nullptr : r.ctx.schema.FindTable(el.table);
    const catalog::Column* c = t ? t->FindColumn(el.column) : nullptr;
    if (!c || !HoldsQuantities(r.ctx, {el.table, el.column}) || !(says(c->comment) || says(t->comment))) continue;
    if (found && !(*found == ColumnRef{el.table, el.column})) return chosen;
    found = ColumnRef{el.table, el.column};
  }
  return found.value_or(chosen);
}

// A superlative: "the oldest singer" orders by the quantity and keeps one row; "the stadium with the most concerts"
// counts per group; "the most common age" counts the rows per value of what is shown.
void ReadSuperlative(Reading& r) {
  const Superlative& s = r.intent.superlatives.front();
  std::string word = ToLower(s.word);
  bool counts = word == "most" || word == "fewest" || word == "least";
  auto next_column = ColumnAt(r, s.token + 1);
  // "the largest number of representatives", "the smallest number of faculty members": as "the most" / "the fewest",
  // unless what follows "number of" is a quantity ("the highest number of total credits" orders by the credits).
  if (!counts && s.token + 2 < r.tokens.size() && r.tokens[s.token + 1].lower == "number" &&
      r.tokens[s.token + 2].lower == "of") {
    size_t k = s.token + 3;
    while (k < r.tokens.size() && r.tokens[k].kind == TokenKind::kWord && IsStopWord(r.tokens[k].lower)) ++k;
    const auto named = k < r.tokens.size() ? ColumnAt(r, k) : std::nullopt;
    r.used[s.token + 1] = r.used[s.token + 2] = true;
    bool ambiguous = false;
    std::optional<ColumnRef> by_word;
    // ("the largest number of bedrooms": a word of a quantity's name no link took, bedroom_count; not a table's.)
    if (!named && k < r.tokens.size() && !TableAt(r, k)) by_word = NumericByWord(r, k, 0, &ambiguous);
    if (named && HoldsQuantities(r.ctx, *named)) {
      next_column = named;
      MarkMention(r, k);
    } else if (by_word && !ambiguous) {
      next_column = by_word;
    } else {
      if (by_word) r.used[k] = false;
      counts = true;
      next_column.reset();
    }
  }
  // "the top 3 durations", "the top 3 number of transactions": "top" orders by a quantity or a count named right
  // after it; before anything else ("the top 5 countries by ...") it only limits.
  if (word == "top" && !counts && !(next_column && HoldsQuantities(r.ctx, *next_column))) return;
  // "the youngest winning pilot": a key named after a superlative of a quantity (age) is no sort key.
  if (!counts && next_column && !QuantityOf(word).empty()) {
    const catalog::Table* t = r.ctx.schema.FindTable(next_column->table);
    if (t && IsKeyColumn(*t, next_column->column)) {
      // (It says which rows, the pilots who won: its table is joined, the key is not shown.)
      MarkMention(r, s.token + 1);
      r.need_tables_extra.push_back(next_column->table);
      next_column.reset();
    }
  }
  static const words::WordSet kFrequent = words::List("frequency_words");
  if (counts && s.token + 1 < r.tokens.size() && kFrequent.count(r.tokens[s.token + 1].lower)) {
    r.used[s.token + 1] = true;
    r.by_shown = r.by_frequency = true;
    next_column.reset();
  }
  // "the apartment with the most beds": a word of a quantity's name that no link took (bedroom_count), not a table's,
  // and the noun's last word ("the most start trips": no).
  const size_t noun = s.token + 1;
  const bool noun_ends = noun + 1 >= r.tokens.size() || r.tokens[noun + 1].kind != TokenKind::kWord ||
                         IsStopWord(r.tokens[noun + 1].lower) || r.used[noun + 1];
  if (counts && !next_column && noun < r.tokens.size() && !r.used[noun] && noun_ends && !TableAt(r, noun)) {
    bool ambiguous = false;
    next_column = NumericByWord(r, noun, 0, &ambiguous);
    if (next_column && (ambiguous || ToLower(next_column->column).ends_with("id"))) {
      r.used[noun] = false;
      next_column.reset();
    }
  }
  if (counts && next_column && HoldsQuantities(r.ctx, *next_column)) {
    next_column = QuantityTheVerbDescribes(r, s.token, *next_column);
  }
  if (counts && !next_column) {
    r.group_by_count = true;
  } else if (counts && AddsUpPerSubject(r, *next_column)) {
    // "the technician who confirmed the most hours", "the department with the most credits": a quantity of the rows
    // that refer to each subject row is added up per subject, not read off the one largest row.
    r.order_aggregate = Output{Output::Kind::kAggregate, *next_column, "sum"};
    r.selected.push_back(*next_column);
    MarkMention(r, s.token + 1);
    r.order_desc = s.descending;
    r.limit = s.unlimited ? "" : "1";
    return;
  } else if (next_column) {
    // Only the mention that names the ordering is used up: "the name and age of the oldest singer" shows age.
    r.order_column = next_column;
    if (!AsksForOrderedColumn(r, s.token)) MarkMention(r, s.token + 1);
  }
  bool reversed = false;  // "the oldest" by a date: the earliest
  if (!counts && !next_column) {
    // "Which plant opened most recently?", "the equipment installed first": the verb right before names the event's
    // date or year (linking::Link), which orders and is not shown.
    size_t before = s.token;
    if (before > 0 && (r.tokens[before - 1].lower == "most" || r.tokens[before - 1].lower == "least")) --before;
    const std::optional<ColumnRef> event = before > 0 ? ColumnAt(r, before - 1) : std::nullopt;
    const bool dates = event && HoldsDates(r.ctx.schema, *event);
    if (event && (dates || ToLower(event->column).find("year") != std::string::npos)) {
      r.order_column = event;
      MarkMention(r, before - 1);
      // "by hire date, oldest first": a word of age orders a date or a year the other way (quantities.txt's '-').
      reversed = QuantityOf(word).find(dates ? "-date" : "-year") != std::string::npos;
    } else {
      const std::string quantity = word == "first" || word == "last" ? "date/year" : QuantityOf(word);
      r.order_column = NumericNear(r, s.token, quantity, &reversed);
    }
  }
  // "the schools with the top 3 largest size": nothing names a quantity; the subject's one quantity orders.
  if (!counts && !r.order_column) r.order_column = SubjectsOnlyQuantity(r);
  r.order_desc = s.descending != reversed;
  r.limit = s.unlimited ? "" : "1";
}

// The tables a column named only by its head word may come from: those the reading needs anyway.
std::set<std::string> AnchoredTables(const Reading& r) {
  std::set<std::string> anchored = {ToLower(r.subject)};
  for (const auto& f : r.filters) anchored.insert(ToLower(f.col.table));
  for (const auto& c : r.selected) anchored.insert(ToLower(c.table));
  if (r.group) anchored.insert(ToLower(r.group->table));
  if (r.order_column) anchored.insert(ToLower(r.order_column->table));
  if (r.year_column) anchored.insert(ToLower(r.year_column->table));
  if (r.having && !r.having->counted.empty()) anchored.insert(ToLower(r.having->counted));
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (el.column.empty() || m.whole) anchored.insert(ToLower(el.table));
  }
  return anchored;
}

// "the names of members and their parties", "parties and the corresponding regions": a table named after a word that
// relates it to what is listed before stands for its name, shown.
std::optional<ColumnRef> RelatedTableName(const Reading& r, const Mention& m, const std::string& table) {
  static const words::WordSet kRelating = words::List("relating_words");
  bool relating = false;
  for (size_t k = m.begin; k > 0 && m.begin - k < 2; --k) {
    const std::string& w = r.tokens[k - 1].lower;
    if (kRelating.count(w)) {
      relating = true;
    } else if (w != "the") {
      break;
    }
  }
  if (!relating || ToLower(table) == ToLower(r.subject)) return std::nullopt;
  auto name = ColumnNamed(r.ctx.schema, table, "name");
  if (!name || IsNumericColumn(r.ctx.schema, *name)) return std::nullopt;
  return name;
}

// "the names and budgets of departments with budgets above the average": a column a condition uses is still shown
// where it is listed with a column shown ("and", "," between them) and the condition names it again elsewhere.
bool ListedBesideShown(const Reading& r, size_t k) {
  const Mention& m = r.mentions[k];
  const auto& el = ElementOf(r, m);
  if (!m.whole) return false;  // ("the names and descriptions of courses of the subject named ...")
  bool named_again = false;
  for (size_t j = 0; j < r.mentions.size(); ++j) {
    const auto& other = ElementOf(r, r.mentions[j]);
    if (j != k && other.table == el.table && other.column == el.column) named_again = true;
  }
  if (!named_again) return false;
  auto joiner = [&](size_t i) {
    const std::string& w = r.tokens[i].lower;
    return w == "and" || w == "the" || w == "their" || w == "its";
  };
  auto shown_column_at = [&](size_t begin, size_t end) {
    for (size_t j = 0; j < r.mentions.size(); ++j) {
      const Mention& o = r.mentions[j];
      if (j != k && !r.consumed.count(j) && !ElementOf(r, o).column.empty() && o.begin < end && begin < o.end) {
        return true;
      }
    }
    return false;
  };
  size_t i = m.begin;
  // ("the name and training hours", "the name and storage capacity": a word no link took, or only a weak one, may
  // stand before the name.)
  if (i > 0 && (!r.used[i - 1] || OnlyWeakLinks(r, i - 1, i)) && !joiner(i - 1) &&
      r.tokens[i - 1].kind == TokenKind::kWord) {
    --i;
  }
  bool conjunction = CommaBefore(r, i);
  while (i > 0 && joiner(i - 1)) {
    conjunction |= r.tokens[--i].lower != "the";
    conjunction |= CommaBefore(r, i);
  }
  if (conjunction && i > 0 && shown_column_at(i - 1, i)) return true;
  i = m.end;
  conjunction = CommaBefore(r, i);
  while (i < r.tokens.size() && joiner(i)) {
    conjunction |= r.tokens[i++].lower != "the";
    conjunction |= CommaBefore(r, i);
  }
  return conjunction && i < r.tokens.size() && shown_column_at(i, i + 1);
}

// "the building full names containing the word 'court'": with nothing else asked for, the column a pattern reads is
// what is shown when it is named right before the pattern's cue as the thing asked for ("whose name contains": not).
std::optional<ColumnRef> PatternHead(const Reading& r) {
  static const std::set<std::string> kOwners = {"whose", "with", "where",  "which", "that", "their", "its", "his",
                                                "her",   "whom", "having", "have",  "has",  "had",   "a",   "an"};
  for (const auto& f : r.filters) {
    if (f.op != "LIKE") continue;
    for (const Mention& m : r.mentions) {
      const auto& el = ElementOf(r, m);
      const bool before_cue =
          m.end == f.at || (m.end + 1 == f.at && (r.tokens[m.end].lower == "that" || r.tokens[m.end].lower == "which"));
      if (!before_cue || el.table != f.col.table || el.column != f.col.column) continue;
      if (m.begin == 0 || !kOwners.count(r.tokens[m.begin - 1].lower)) return f.col;
    }
  }
  return std::nullopt;
}

// "the name of the room with the maximum occupancy": a maximum or minimum that is not listed beside the columns shown
// picks the row: ordered by it, one row, the aggregate not shown. ("the name and the maximum price": listed, kept.)
void ArgMax(Reading& r) {
  if (r.group || r.counting || r.having || r.order_aggregate || r.order_column || !r.limit.empty() || r.shown.empty() ||
      r.aggregates.size() != 1) {
    return;
  }
  const Output& a = r.aggregates.front();
  if (a.function != "max" && a.function != "min") return;
  if (std::find(r.shown.begin(), r.shown.end(), a.col) != r.shown.end()) return;
  size_t k = r.aggregate_cues.front();
  while (k > 0 && r.tokens[k - 1].lower == "the") --k;
  if (k == 0 || r.tokens[k - 1].lower == "and" || CommaBefore(r, k)) return;
  r.order_column = a.col;
  r.order_desc = a.function == "max";
  r.limit = "1";
  r.notes.push_back(
      fmt::format("the row with the {} {}.{}", a.function == "max" ? "highest" : "lowest", a.col.table, a.col.column));
  r.aggregates.clear();
  r.aggregate_cues.clear();
}

// The subject's column named right after "different" / "distinct" / "unique" (or after the subject's own name: "how
// many different captain ranks") and not used by a condition, if any.
std::optional<ColumnRef> DifferentColumn(Reading& r) {
  for (size_t i = 0; i + 1 < r.tokens.size(); ++i) {
    if (!IsDistinctWord(r.tokens[i].lower)) continue;
    size_t at = i + 1;
    for (const Mention& m : r.mentions) {
      const auto& el = ElementOf(r, m);
      if (m.begin == at && el.column.empty() && EqualsIgnoreCase(el.table, r.subject) && m.end < r.tokens.size()) {
        at = m.end;
        break;
      }
    }
    auto c = ColumnAt(r, at);
    if (!c || !EqualsIgnoreCase(c->table, r.subject)) continue;
    if (std::any_of(r.filters.begin(), r.filters.end(), [&](const Filter& f) { return f.col == *c; })) continue;
    // Not a key ("distinct projects" of AssignedTo.Project count the projects), nor the column that names its own
    // table's rows (artist.Artist: "distinct artists" counts artists).
    const catalog::Table* t = r.ctx.schema.FindTable(c->table);
    if (!t || IsKeyColumn(*t, c->column) || EqualsIgnoreCase(c->column, t->name)) continue;
    return c;
  }
  return std::nullopt;
}

// The columns named and not used for anything else, in question order; those used are returned. A column named only
// by its head word ("names" for manager_name) is not worth a join: it is shown only when its table is needed anyway.
std::vector<ColumnRef> ShowNamedColumns(Reading& r) {
  std::vector<ColumnRef> used;
  std::set<std::string> anchored = AnchoredTables(r);
  for (size_t k = 0; k < r.mentions.size(); ++k) {
    const auto& el = ElementOf(r, r.mentions[k]);
    if (el.column.empty()) {
      auto name = r.consumed.count(k) ? std::nullopt : RelatedTableName(r, r.mentions[k], el.table);
      if (name && std::find(r.shown.begin(), r.shown.end(), *name) == r.shown.end()) r.shown.push_back(*name);
      continue;
    }
    if (r.consumed.count(k) && !ListedBesideShown(r, k)) {
      // Used by a condition, the grouping or the ordering: shown after the rest in the "with used" reading.
      r.choices.outputs_vary = true;
      ColumnRef c{el.table, el.column};
      if (std::find(used.begin(), used.end(), c) == used.end()) used.push_back(c);
      continue;
    }
    // ("Which city is the store named Blackville in?", "Find the city the store ... is in": the noun the question asks
    // for first is shown whatever it costs.)
    if (!r.mentions[k].whole && !anchored.count(ToLower(el.table)) && !AskedFirst(r, r.mentions[k].begin)) {
      r.notes.push_back(fmt::format("not shown: {}.{} (only its head word named, its table not otherwise needed)",
                                    el.table, el.column));
      continue;
    }
    if (!r.mentions[k].whole && YesLiteral(r.ctx, {el.table, el.column})) {
      // "Which technician confirmed the most hours?": a yes/no column's head word alone is a verb or an adjective
      // (FINAL_CONF), not a noun asking for its value.
      r.notes.push_back(
          fmt::format("not shown: {}.{} (a yes/no column named only by its head word)", el.table, el.column));
      continue;
    }
    ColumnRef c{el.table, el.column};
    if (std::find(r.shown.begin(), r.shown.end(), c) == r.shown.end()) r.shown.push_back(c);
  }
  return used;
}

// "List the payment id, the date and the amount": a word listed beside a column shown (",", "and", "the" between)
// that no link took is a column of the same table by any word of its name, when exactly one has it (the linker takes
// a name's last word alone: Date_Payment_Made, Amount_Payment); shown in the question's order.
void ShowListedByNameWords(Reading& r) {
  if (r.shown.empty()) return;
  struct Listed {
    size_t begin, end;
    ColumnRef col;
  };
  std::vector<Listed> listed;  // what is shown, in the question's order
  for (const Mention& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    const ColumnRef c{el.table, el.column};
    if (!el.column.empty() && std::find(r.shown.begin(), r.shown.end(), c) != r.shown.end()) {
      listed.push_back({m.begin, m.end, c});
    }
  }
  std::sort(listed.begin(), listed.end(), [](const Listed& x, const Listed& y) { return x.begin < y.begin; });
  // Whether tokens [from, to) are joiners only, with a comma or "and" among them or before `to`.
  auto joined = [&](size_t from, size_t to) {
    bool conjunction = to < r.comma_before.size() && r.comma_before[to];
    for (size_t i = from; i < to; ++i) {
      const std::string& w = r.tokens[i].lower;
      if (w != "and" && w != "the" && w != "its" && w != "their") return false;
      conjunction |= w == "and" || (i < r.comma_before.size() && r.comma_before[i]);
    }
    return conjunction;
  };
  // The column of `table` with the word at `k` in its name as written, if exactly one has it.
  auto named_by_word = [&](size_t k, const std::string& table) -> std::optional<ColumnRef> {
    const catalog::Table* t = r.ctx.schema.FindTable(table);
    if (t == nullptr) return std::nullopt;
    std::optional<ColumnRef> found;
    for (const auto& c : t->columns) {
      if (!NameWritesWord(c.name, r.tokens[k])) continue;
      if (found) return std::nullopt;
      found = ColumnRef{t->name, c.name};
    }
    return found;
  };
  for (bool added = true; added;) {
    added = false;
    for (size_t k = 0; k < r.tokens.size() && !added; ++k) {
      const retrieval::Token& w = r.tokens[k];
      // (A word linked only by its head word to a column not shown, "the date": Customer_Policies.Start_Date, is free.)
      const bool linked = std::any_of(r.mentions.begin(), r.mentions.end(), [&](const Mention& m) {
        const auto& el = ElementOf(r, m);
        return m.begin <= k && k < m.end &&
               (m.whole || el.column.empty() ||
                std::find(r.shown.begin(), r.shown.end(), ColumnRef{el.table, el.column}) != r.shown.end());
      });
      const bool covered = std::any_of(r.mentions.begin(), r.mentions.end(),
                                       [&](const Mention& m) { return m.begin <= k && k < m.end; });
      if (w.kind != TokenKind::kWord || (r.used[k] && !covered) || IsStopWord(w.lower) || w.stem.size() < 3 || linked) {
        continue;
      }
      auto next = std::find_if(listed.begin(), listed.end(), [&](const Listed& l) { return l.begin > k; });
      std::optional<ColumnRef> neighbour;
      if (next != listed.begin() && joined(std::prev(next)->end, k)) neighbour = std::prev(next)->col;
      if (!neighbour && next != listed.end() && joined(k + 1, next->begin)) neighbour = next->col;
      if (!neighbour) continue;
      const auto c = named_by_word(k, neighbour->table);
      if (!c || std::find(r.shown.begin(), r.shown.end(), *c) != r.shown.end()) continue;
      r.used[k] = true;
      r.notes.push_back(fmt::format("shown {}.{}: listed, by a word of its name", c->table, c->column));
      const auto before = next == listed.end() ? r.shown.end() : std::find(r.shown.begin(), r.shown.end(), next->col);
      r.shown.insert(before, *c);
      listed.insert(next, {k, k + 1, *c});
      added = true;
    }
  }
}

// "the categories and the count", "each bed type's average price" ("different bed types" with an aggregate): a
// column named before the count, or after "different", groups.
void GroupByShown(Reading& r) {
  if (r.group || r.group_by_count || r.having || !(r.counting || !r.aggregates.empty()) || r.shown.empty()) return;
  for (size_t i = 0; i + 1 < r.tokens.size() && !r.group; ++i) {
    if (!r.counting && r.intent.distinct && (r.tokens[i].lower == "different" || r.tokens[i].lower == "distinct")) {
      if (auto c = ColumnAt(r, i + 1)) r.group = c;
    }
  }
  if (!r.group && r.counting && r.count_at) {
    for (size_t k = 0; k < r.mentions.size() && !r.group; ++k) {
      const auto& el = ElementOf(r, r.mentions[k]);
      if (!el.column.empty() && !r.consumed.count(k) && r.mentions[k].end <= *r.count_at) {
        r.group = ColumnRef{el.table, el.column};
      }
    }
  }
  if (r.group) {
    std::erase(r.shown, *r.group);
    r.notes.push_back(fmt::format("grouped by {}.{}", r.group->table, r.group->column));
  }
}

// "all the information about", "all details of", "everything": every column.
bool AsksForEverything(Reading& r) {
  bool everything = false;
  static const words::WordSet kEverything = words::List("everything_words");
  for (size_t i = 0; i < r.tokens.size(); ++i) {
    const std::string& w = r.tokens[i].lower;
    bool all_before = (i >= 1 && r.tokens[i - 1].lower == "all") || (i >= 2 && r.tokens[i - 2].lower == "all");
    bool word = kEverything.count(w) && (w != "details" || !r.used[i]);
    // ("List the information of all instructors": "the information" / "the info" about rows, no column's.)
    bool about = (w == "information" || w == "info") && !r.used[i] && i > 0 && r.tokens[i - 1].lower == "the" &&
                 i + 1 < r.tokens.size() &&
                 (r.tokens[i + 1].lower == "of" || r.tokens[i + 1].lower == "about" || r.tokens[i + 1].lower == "on" ||
                  r.tokens[i + 1].lower == "for");
    if (w == "everything" || (word && (all_before || about))) {
      everything = true;
      r.used[i] = true;
    }
  }
  return everything;
}

// "How many technicians were hired each year?", "orders created per month": a year or a month with no column of the
// subject's named so is the part of a date of the subject's: the one the question names ("hired": hire_date), else its
// only one, else the one a word before the unit names as SubjectDateColumnAt finds it. The unit word is used; "" when
// it is no such group.
std::string DateOfTimeUnit(Reading& r, size_t k, std::optional<ColumnRef>& date) {
  if (k >= r.tokens.size() || r.subject.empty()) return "";
  const std::string& w = r.tokens[k].lower;
  std::string unit = w == "year" || w == "years" ? "year" : w == "month" || w == "months" ? "month" : "";
  const catalog::Table* t = r.ctx.schema.FindTable(r.subject);
  if (unit.empty() || t == nullptr || !tree::HasDatePart(r.ctx.dialect)) return "";
  if (auto c = ColumnAt(r, k); c && EqualsIgnoreCase(c->table, t->name)) return "";
  std::vector<ColumnRef> dates;
  for (const auto& c : t->columns) {
    if (ToLower(c.name).find(unit) != std::string::npos) return "";  // a year column of its own groups as it is
    if (HoldsDates(r.ctx.schema, {t->name, c.name})) dates.push_back({t->name, c.name});
  }
  std::optional<ColumnRef> named;
  for (const Mention& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    for (const ColumnRef& d : dates) {
      if (EqualsIgnoreCase(el.table, d.table) && el.column == d.column) named = d;
    }
  }
  if (!named && dates.size() == 1) named = dates.front();
  // ("orders created each month": the subject's date column a word before the unit names, "created" for CRT_DT)
  if (auto at = named ? std::nullopt : SubjectDateColumnAt(r, k); at && EqualsIgnoreCase(at->table, t->name)) {
    named = at;
  }
  if (!named) return "";
  date = named;
  r.used[k] = true;
  return unit;
}

}  // namespace

void ReadGroupBy(Reading& r) {
  for (size_t g : r.intent.group_by) {
    // ("pages per minute color": a cue inside a mention, a word of its column's name, is part of the name.)
    const bool in_name = g > 0 && std::any_of(r.mentions.begin(), r.mentions.end(), [&](const Mention& m) {
                           return m.begin < g - 1 && g < m.end && ColumnNameHasWord(ElementOf(r, m), r.tokens[g - 1]);
                         });
    if (in_name) continue;
    // "for each country" names a column; "in each genre" a table: its name column, else its key.
    size_t k = g;
    // ("how many had each different status code": "different" adds nothing to "each".)
    while (k < r.tokens.size() && r.tokens[k].kind == TokenKind::kWord &&
           (IsStopWord(r.tokens[k].lower) || IsDistinctWord(r.tokens[k].lower))) {
      ++k;
    }
    std::optional<ColumnRef> date;
    if (std::string unit = DateOfTimeUnit(r, k, date); !unit.empty()) {
      r.group = date;
      r.group_part = unit;
      break;
    }
    if (auto c = ColumnAt(r, k)) {
      r.group = c;
      break;
    }
    std::vector<size_t> words;
    if (k < r.tokens.size() && !r.used[k] && !TableAt(r, k)) {
      if (auto c = ColumnByNameWords(r, k, words)) {
        r.group = c;
        for (size_t w : words) r.used[w] = true;
        break;
      }
    }
    if (auto t = TableAt(r, k)) {
      // "for each faculty rank": the table's column named right after it.
      size_t end = k + 1;
      for (const Mention& m : r.mentions) {
        if (m.begin == k) end = m.end;
      }
      if (auto next = ColumnAt(r, end); next && EqualsIgnoreCase(next->table, *t)) {
        r.group = next;
        break;
      }
      const catalog::Table* table = r.ctx.schema.FindTable(*t);
      std::optional<ColumnRef> c = ColumnNamed(r.ctx.schema, *t, "name");
      if (c && IsNumericColumn(r.ctx.schema, *c)) c.reset();
      if (!c && table && !table->primary_key.empty()) c = ColumnRef{table->name, table->primary_key.front()};
      if (c) {
        r.group = c;
        break;
      }
    }
  }
  for (const auto& f : r.filters) MarkConsumed(r, f.col);
  if (r.group) MarkConsumed(r, *r.group);
}

namespace {

// "the average latitude and longitude": the column an aggregate after `cue` read, then the quantity columns listed
// right after its mention ("and", ","), each marked used.
std::vector<ColumnRef> ListedQuantities(Reading& r, size_t cue, const ColumnRef& col) {
  std::vector<ColumnRef> out = {col};
  size_t end = SIZE_MAX;
  for (const Mention& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (m.begin > cue && el.table == col.table && el.column == col.column && m.begin < end) end = m.end;
  }
  for (std::optional<size_t> at = end == SIZE_MAX ? std::nullopt : NextListed(r, end); at; at = NextListed(r, end)) {
    size_t next = *at;
    if (r.tokens[next].lower == "the" && next + 1 < r.tokens.size()) ++next;
    std::optional<ColumnRef> c = ColumnAt(r, next);
    // A word of a longer name the linker does not take alone ("price": price_range), in the same table.
    if (!c && r.tokens[next].kind == TokenKind::kWord && r.tokens[next].stem.size() >= 3) {
      c = ColumnNamed(r.ctx.schema, col.table, r.tokens[next].stem);
    }
    if (!c || !HoldsQuantities(r.ctx, *c) || std::find(out.begin(), out.end(), *c) != out.end()) break;
    out.push_back(*c);
    MarkMention(r, next);
    r.used[next] = true;
    end = next + 1;
    for (const Mention& m : r.mentions) {
      if (m.begin == next) end = std::max(end, m.end);
    }
  }
  return out;
}

// Whether the sum cue at `token` reads "total number of" and a table's name ("the total number of the stations").
bool TotalNumberOfTable(const Reading& r, size_t token) {
  size_t k = token + 1;
  if (k + 1 >= r.tokens.size() || r.tokens[k].lower != "number" || r.tokens[k + 1].lower != "of") return false;
  k += 2;
  if (k < r.tokens.size() && r.tokens[k].lower == "the") ++k;
  return k < r.tokens.size() && TableAt(r, k).has_value();
}

}  // namespace

void ReadAggregates(Reading& r) {
  // ("the total number of students" and "the number of customers in total" are counts; "the average number of people
  // injured" averages a quantity.)
  bool other_aggregates =
      std::any_of(r.intent.aggregates.begin(), r.intent.aggregates.end(), [&](const AggregateCue& a) {
        const bool total_number =
            a.kind == Aggregate::kSum && a.token + 1 < r.tokens.size() && r.tokens[a.token + 1].lower == "number";
        const bool in_total = a.kind == Aggregate::kSum && a.token > 0 && r.tokens[a.token - 1].lower == "in";
        return a.kind != Aggregate::kCount && !total_number && !in_total;
      });
  // "the maximum and minimum sales": aggregates listed one after another share the column after the last.
  std::optional<size_t> previous;
  std::optional<ColumnRef> previous_col;
  auto listed_after_previous = [&](size_t token) {
    if (!previous || *previous >= token) return false;
    for (size_t k = *previous + 1; k < token; ++k) {
      const std::string& w = r.tokens[k].lower;
      if (w != "and" && w != "or" && w != "the") return false;
    }
    return true;
  };
  for (const auto& a : r.intent.aggregates) {
    if (a.kind == Aggregate::kCount) {
      if (CountIsQuantity(r, a, other_aggregates)) continue;
      if (auto q = HowManyOfQuantity(r, a)) {
        Output item{Output::Kind::kAggregate, *q, "sum"};
        if (std::find(r.aggregates.begin(), r.aggregates.end(), item) == r.aggregates.end()) {
          r.aggregates.push_back(item);
          r.aggregate_cues.push_back(a.token);
          r.selected.push_back(*q);
        }
        continue;
      }
      r.counting = true;
      if (!r.count_at) r.count_at = a.token;
      ConsumeCountedColumn(r, a.token);
      continue;
    }
    // "the total number of gas stations that opened between 2000 and 2005" counts the stations: no quantity to sum.
    if (a.kind == Aggregate::kSum && TotalNumberOfTable(r, a.token)) continue;
    // ("the youngest", read as the minimum in each group, is of the age.)
    // ("the average number of factories and maximum number of shops": the quantity follows "number of".)
    size_t after = a.token + 1;
    if (after + 1 < r.tokens.size() && r.tokens[after].lower == "number" && r.tokens[after + 1].lower == "of")
      after += 2;
    auto col = NumericNear(r, after, QuantityOf(r.tokens[a.token].lower));
    if (!col && listed_after_previous(a.token)) col = previous_col;
    previous = a.token;
    previous_col = col;
    if (!col) continue;
    // "the ages of the oldest and youngest students": the column named before the superlative is the one aggregated,
    // not another one shown.
    if (!QuantityOf(r.tokens[a.token].lower).empty()) {
      for (size_t k = 0; k < r.mentions.size(); ++k) {
        const auto& el = ElementOf(r, r.mentions[k]);
        if (r.mentions[k].end <= a.token && el.table == col->table && el.column == col->column) r.consumed.insert(k);
      }
    }
    static const std::map<Aggregate, const char*> kFn = {
        {Aggregate::kAvg, "avg"}, {Aggregate::kSum, "sum"}, {Aggregate::kMax, "max"}, {Aggregate::kMin, "min"}};
    for (const ColumnRef& c : ListedQuantities(r, a.token, *col)) {
      Output item{Output::Kind::kAggregate, c, kFn.at(a.kind)};
      if (std::find(r.aggregates.begin(), r.aggregates.end(), item) != r.aggregates.end()) continue;
      r.aggregates.push_back(item);
      r.aggregate_cues.push_back(a.token);
      r.selected.push_back(c);
    }
  }
}

namespace {

// "the three accounts with the highest balances", "three churches that opened most recently": a number right before
// the table a superlative after it picks rows of is how many it keeps.
// (Digits up to three, or a number word other than "one".)
std::optional<std::string> CountBeforeTable(Reading& r) {
  const size_t superlative = r.intent.superlatives.front().token;
  for (size_t i = 0; i + 1 < superlative; ++i) {
    const retrieval::Token& t = r.tokens[i];
    if (r.used[i] || !TableAt(r, i + 1)) continue;
    const std::optional<int64_t> n = SmallNumber(t);
    const bool digits = t.lower.size() <= 3 && t.lower.find_first_not_of("0123456789") == std::string::npos;
    if (!n || (t.kind == TokenKind::kNumber ? !digits : (t.kind != TokenKind::kWord || *n == 1))) continue;
    r.used[i] = true;
    return std::to_string(*n);
  }
  return std::nullopt;
}

// A count asked apart from the superlative that orders the groups by one ("the customer with the most accounts, and
// how many accounts does this person have?", "How many problems does the product with the most problems have?"): not
// the superlative's own ("the most number of cards" orders by the count and asks for none).
bool CountApartFromSuperlative(const Reading& r) {
  if (!r.counting || !r.count_at || !r.group_by_count || r.intent.superlatives.empty()) return false;
  const size_t s = r.intent.superlatives.front().token;
  return *r.count_at < s || *r.count_at > s + 3;
}

// "frequency", "count", "the number of": the token that says the ordering is by a count, at or after `at`.
std::optional<size_t> CountCue(const Reading& r, size_t at) {
  size_t k = at;
  while (k < r.tokens.size() && r.tokens[k].kind == TokenKind::kWord && IsStopWord(r.tokens[k].lower)) ++k;
  if (k >= r.tokens.size()) return std::nullopt;
  const std::string& w = r.tokens[k].lower;
  if (w == "frequency" || w == "count") return k;
  if (w == "number" && k + 1 < r.tokens.size() && r.tokens[k + 1].lower == "of") return k + 1;
  return std::nullopt;
}

// The token of a column of quantities named at `k` or after the stop words from there ("the floors"), if any.
std::optional<size_t> QuantityAfter(const Reading& r, size_t k) {
  while (k < r.tokens.size() && r.tokens[k].kind == TokenKind::kWord && IsStopWord(r.tokens[k].lower)) ++k;
  if (k >= r.tokens.size()) return std::nullopt;
  const std::optional<ColumnRef> c = ColumnAt(r, k);
  if (!c || !HoldsQuantities(r.ctx, *c)) return std::nullopt;
  const catalog::Table* t = r.ctx.schema.FindTable(c->table);
  if (t == nullptr || IsKeyColumn(*t, c->column)) return std::nullopt;
  return k;
}

}  // namespace

void ReadOrder(Reading& r) {
  r.order_desc = r.intent.order_descending.value_or(false);
  // "the grape whose wines have the highest average price", "the claim with the largest total settlement": a
  // superlative right before an aggregate orders the groups by it and keeps the first; it is not shown.
  for (const Superlative& s : r.intent.superlatives) {
    for (size_t i = 0; i < r.aggregates.size() && !r.order_aggregate; ++i) {
      if (r.aggregate_cues[i] != s.token + 1) continue;
      r.order_aggregate = r.aggregates[i];
      r.order_desc = s.descending;
      r.aggregates.erase(r.aggregates.begin() + static_cast<std::ptrdiff_t>(i));
      r.aggregate_cues.erase(r.aggregate_cues.begin() + static_cast<std::ptrdiff_t>(i));
      r.used[s.token] = true;
      r.limit = "1";
    }
  }
  if (!r.intent.superlatives.empty() && r.aggregates.empty() && !r.order_aggregate) {
    ReadSuperlative(r);
    if (!r.intent.limit) {
      if (auto n = CountBeforeTable(r)) r.limit = *n;
    }
  }
  if (r.intent.order_token) {
    // "ordered by descending market value": the column may follow a cue word.
    const size_t at = *r.intent.order_token;
    std::optional<ColumnRef> by;
    size_t by_at = 0;
    for (size_t k = at; k < r.tokens.size() && k <= at + 2 && !by; ++k) {
      if (k > at && !r.used[k - 1] && !IsStopWord(r.tokens[k - 1].lower)) break;
      by = ColumnAt(r, k);
      by_at = k;
    }
    if (by) {
      r.order_column = by;
      MarkMention(r, by_at);
    } else if (const std::optional<size_t> c = CountCue(r, at), quantity = c ? QuantityAfter(r, *c + 1) : std::nullopt;
               quantity) {
      // "ordered by the number of floors": a column of quantities after "number of" is the key, no count.
      for (size_t i = at; i <= *c; ++i) r.used[i] = true;
      r.order_column = ColumnAt(r, *quantity);
      MarkMention(r, *quantity);
    } else if (c) {
      // "ordered by frequency", "sorted by the number of apartments": values of what is shown, by how often they
      // occur.
      for (size_t k = at; k <= *c; ++k) r.used[k] = true;
      r.group_by_count = r.by_shown = true;
      // (By frequency, the most frequent first; by a count with no direction, SQL's own: ascending.)
      r.order_desc = r.intent.order_descending.value_or(r.tokens[*c].lower == "frequency");
    } else {
      std::vector<size_t> words;
      if (auto key = ColumnByNameWords(r, at, words)) {
        r.order_column = key;
        for (size_t k : words) r.used[k] = true;
        MarkConsumed(r, *key);  // ("the date they were formed": "date" may have linked to it alone)
      }
    }
  }
  if (r.intent.limit) r.limit = std::to_string(*r.intent.limit);
  // "in alphabetical order", "in descending order" with no column named for it: the first column shown.
  r.order_first_shown = r.intent.order_descending.has_value() && !r.order_column && r.intent.superlatives.empty();
}

void ChooseOutputs(Reading& r) {
  // "the team and starting year for each technician": "each" with nothing counted or aggregated lists, it groups
  // nothing.
  if (r.group && !r.counting && r.aggregates.empty() && !r.having && !r.order_aggregate && !r.group_by_count) {
    r.notes.push_back(
        fmt::format("not grouped by {}.{}: nothing is counted or aggregated", r.group->table, r.group->column));
    // Its mentions are shown again, unless a condition or the ordering uses that column too.
    const ColumnRef g = *r.group;
    const bool used = (r.order_column && *r.order_column == g) ||
                      std::any_of(r.filters.begin(), r.filters.end(), [&](const Filter& f) { return f.col == g; });
    for (size_t k = 0; k < r.mentions.size() && !used; ++k) {
      const auto& el = ElementOf(r, r.mentions[k]);
      if (el.table == g.table && el.column == g.column) r.consumed.erase(k);
    }
    r.group.reset();
  }
  const std::vector<ColumnRef> used = ShowNamedColumns(r);
  ShowListedByNameWords(r);
  GroupByShown(r);
  if (r.group) {
    std::erase(r.shown, *r.group);
    r.shown.insert(r.shown.begin(), *r.group);
  }
  if (r.counting && !r.group && !r.group_by_count) {
    r.shown.clear();
    // "How many different countries are the singers from?": count(DISTINCT Country).
    if (auto c = DifferentColumn(r)) r.count_distinct = c;
  }
  ArgMax(r);
  if (r.shown.size() > 1) {
    r.choices.outputs_vary = true;
    if (r.choices.outputs == OutputChoice::kFirstOnly) r.shown.resize(1);
  }
  for (const auto& c : r.shown) {
    // Grouped, a column also aggregated is not shown as well ("How old is the oldest singer in each country?":
    // the country and max(Age), not Age beside it).
    const bool aggregated = std::any_of(r.aggregates.begin(), r.aggregates.end(), [&](const Output& a) {
      return a.kind == Output::Kind::kAggregate && a.col == c;
    });
    if (r.group && aggregated && !(*r.group == c)) continue;
    r.select.push_back(ColumnOutput(c));
  }
  for (const auto& a : r.aggregates) r.select.push_back(a);
  // Ordered by a count, the count is shown when the question asks for it before the ordering too ("the type codes
  // and the number of apartments, sorted by the number of apartments").
  const bool count_asked = r.counting && r.count_at && r.intent.order_token && *r.count_at < *r.intent.order_token;
  if (r.counting && (!r.group_by_count || count_asked || CountApartFromSuperlative(r))) {
    // (Counting the distinct values of the grouping column itself would give 1 in every group: "different publishers
    // with the number of publications" counts the rows.)
    bool distinct = r.intent.distinct && !r.shown.empty() && !(r.group && *r.group == r.select.front().col);
    if (r.count_distinct) {
      r.select.push_back({Output::Kind::kCountDistinct, *r.count_distinct, "count"});
    } else if (distinct) {
      r.select.push_back({Output::Kind::kCountDistinct, r.select.front().col, "count"});
    } else {
      r.select.push_back({Output::Kind::kCount, {}, "count"});
    }
    if (distinct && !r.group) r.select.erase(r.select.begin());
  }
  bool everything = AsksForEverything(r);
  // "everything about the spare part with part number P-100": the columns named are conditions, the answer every
  // column.
  if (everything && !r.counting && r.aggregates.empty() && !r.group) r.select.clear();
  if (r.select.empty()) {
    auto name = PatternHead(r);
    if (!name) name = ColumnNamed(r.ctx.schema, r.subject, "name");
    if (!name) name = TextColumnNamed(r.ctx.schema, r.subject, "title");  // ("Which papers ...?": their titles)
    if (!name) name = TextColumnNamed(r.ctx.schema, r.subject, "desc");   // (a table described, not named: EQ_DESC)
    r.select.push_back(name && !everything ? ColumnOutput(*name) : Output{Output::Kind::kStar, {}, ""});
  }
  if (r.choices.outputs == OutputChoice::kWithUsed && r.select.front().kind != Output::Kind::kStar) {
    for (const auto& c : used) {
      if (std::find(r.select.begin(), r.select.end(), ColumnOutput(c)) == r.select.end()) {
        r.select.push_back(ColumnOutput(c));
      }
    }
  }
}

}  // namespace plainsql::builtin
