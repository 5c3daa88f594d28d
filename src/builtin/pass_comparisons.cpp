// The comparison passes (see passes.h): numbers, dates, the average and counts per group.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <string_view>

#include "builtin/passes.h"
#include "builtin/query_tree.h"
#include "builtin/words.h"
#include "common/strings.h"
#include "naturalness/identifier.h"
#include "retrieval/text.h"
#include "retrieval/wordnet.h"

namespace plainsql::builtin {

namespace {

using retrieval::IsStopWord;

// "older than average": the quantity the adjective names; "above the average age": the column after it.
void CompareWithAverage(Reading& r, const Comparison& c) {
  std::optional<ColumnRef> col;
  if (!QuantityOf(c.adjective).empty()) col = NumericNear(r, c.cue, QuantityOf(c.adjective));
  for (size_t k = c.number + 1; !col && k < r.tokens.size() && k <= c.number + 2; ++k) {
    if (auto named = ColumnAt(r, k); named && HoldsQuantities(r.ctx, *named)) {
      col = named;
      MarkMention(r, k);
    }
  }
  if (!col) col = NumericNear(r, c.cue, "");
  // "Which technicians earn more than the average?": nothing names it; the subject's one quantity, as for a number.
  if (!col) col = SubjectsOnlyQuantity(r);
  if (!col) {
    r.notes.push_back(fmt::format("no numeric column to compare with the average ('{}')", r.tokens[c.cue].text));
    return;
  }
  r.used[c.cue] = r.used[c.number] = true;
  r.filters.push_back({*col, c.op, {Literal::Kind::kAggregate, "", *col}, {}, c.cue});
  r.notes.push_back(fmt::format("compared with the average of {}.{}", col->table, col->column));
}

// "enrollment greater than that of all colleges in FL", "older than every engineer": the column compared with its
// largest (for "less", "before": its smallest) over the rows the words after "all" select; their conditions on the
// column's table move into the subquery.
void CompareWithAll(Reading& r, const Comparison& c) {
  auto comparable = [&](const ColumnRef& col) { return HoldsQuantities(r.ctx, col) || HoldsDates(r.ctx.schema, col); };
  std::optional<ColumnRef> col;
  if (!QuantityOf(c.adjective).empty()) col = NumericNear(r, c.cue, QuantityOf(c.adjective));
  // Named right before the cue ("whose enrollment is greater", "wines produced before"), else between it and "all"
  // ("a higher salary than any", "before the year of all wines").
  for (size_t k = c.cue; !col && k > 0 && c.cue - k < 3; --k) {
    if (auto named = ColumnAt(r, k - 1); named && comparable(*named)) {
      col = named;
      MarkMention(r, k - 1);
    } else if (!IsStopWord(r.tokens[k - 1].lower)) {
      break;
    }
  }
  for (size_t k = c.cue + 1; !col && k < c.number; ++k) {
    if (auto named = ColumnAt(r, k); named && comparable(*named)) {
      col = named;
      MarkMention(r, k);
    }
  }
  // ("produced before any wine": a time cue orders by the subject's year or date.)
  const std::string& cue = r.tokens[c.cue].lower;
  const bool time = cue == "before" || cue == "after" || cue == "earlier" || cue == "later";
  if (!col) col = NumericNear(r, c.cue, time ? "year/date" : "");
  if (!col) {
    r.notes.push_back(fmt::format("no column to compare with all of '{}'", r.tokens[c.number].text));
    return;
  }
  Literal all(Literal::Kind::kAggregate, "", *col);
  all.function = c.op == ">" ? "max" : "min";
  for (auto it = r.filters.begin(); it != r.filters.end();) {
    const bool inner = it->at != SIZE_MAX && it->at > c.number && ToLower(it->col.table) == ToLower(col->table) &&
                       (it->value.kind == Literal::Kind::kNumber || it->value.kind == Literal::Kind::kString) &&
                       it->op != "BETWEEN" && it->op != "LIKE" && it->op != "NOT LIKE";
    if (!inner) {
      ++it;
      continue;
    }
    all.where.push_back({it->col, it->op, it->value.kind == Literal::Kind::kNumber, it->value.text});
    MarkConsumed(r, it->col);  // (a condition still: "the FL state" shows no state)
    it = r.filters.erase(it);
  }
  r.used[c.cue] = r.used[c.number] = true;
  r.filters.push_back({*col, c.op, all, {}, c.cue});
  r.notes.push_back(fmt::format("compared with the {} of {}.{}", all.function == "max" ? "largest" : "smallest",
                                col->table, col->column));
}

// "more than 100 tracks", "at least 2 events", "4 or more transactions", "more than once": a count per group.
// ("older than 40" names its quantity: never a count; "40 and a singer": the noun must follow the number.)
bool CountPerGroup(Reading& r, const Comparison& c) {
  if (c.op == "BETWEEN" || r.having || !QuantityOf(c.adjective).empty()) return false;
  const auto& tokens = r.tokens;
  size_t k = c.number + 1;
  if (c.cue > c.number) k = c.cue + 1;  // "4 or more transactions"
  while (k < tokens.size() && tokens[k].kind == TokenKind::kWord && IsStopWord(tokens[k].lower) &&
         tokens[k].lower != "and" && tokens[k].lower != "or") {
    ++k;
  }
  std::optional<std::string> counted;
  bool times = tokens[c.number].lower == "once" || tokens[c.number].lower == "twice" ||
               (k < tokens.size() && tokens[k].lower == "times");
  if (k < tokens.size()) counted = TableAt(r, k);
  // "more than 30 pieces of equipment", "at least 2 kinds of parts": a word of measure, "of", then the table counted.
  if (!counted && k + 2 < tokens.size() && tokens[k].kind == TokenKind::kWord && tokens[k + 1].lower == "of" &&
      !ColumnAt(r, k)) {
    counted = TableAt(r, k + 2);
    // (the noun may name a table as well as the column the reading took it for: "equipment", a view's column)
    for (auto l = r.links.begin(); !counted && l != r.links.end(); ++l) {
      const auto& el = r.ctx.index.Elements()[l->element];
      if (el.column.empty() && !el.view && l->begin <= k + 2 && k + 2 < l->end) counted = el.table;
    }
    if (counted) {
      r.used[k] = r.used[k + 1] = true;
      MarkMention(r, k + 2);
      k += 2;
    }
  }
  // "more than 1 player" where the reading took "player" for player.Player: the noun also names the table, whose rows
  // are what is counted. Not a quantity ("more than 1000 followers" compares followers) and not "at least one" (there
  // is one: a join, read elsewhere).
  const size_t right_after = (c.cue > c.number ? c.cue : c.number) + 1;  // ("30 in each position": not counted)
  const std::optional<ColumnRef> named = k == right_after && k < tokens.size() ? ColumnAt(r, k) : std::nullopt;
  const bool exists = c.op == ">=" && c.value == "1";
  for (auto l = r.links.begin(); !counted && named && !exists && l != r.links.end(); ++l) {
    const auto& el = r.ctx.index.Elements()[l->element];
    if (el.column.empty() && l->begin <= k && k < l->end && !HoldsQuantities(r.ctx, *named)) {
      counted = el.table;
      MarkMention(r, k);  // (counted, not shown)
    }
  }
  // "at least ten professors": a plural naming a value stored in the singular counts that value's rows.
  for (auto v = r.values.begin(); !counted && v != r.values.end(); ++v) {
    if (v->plural && v->begin == k) counted = v->table;
  }
  if (!counted && !times) return false;
  r.having = Having{c.op, c.value, counted.value_or("")};
  r.used[c.cue] = r.used[c.number] = true;
  if (times && k < tokens.size()) r.used[k] = true;
  r.notes.push_back(counted ? fmt::format("a count of {} per group {} {}", *counted, c.op, c.value)
                            : fmt::format("a count per group {} {}", c.op, c.value));
  return true;
}

// BETWEEN's upper bound is the next number after the lower one: accounted for with it.
void MarkHigh(Reading& r, const Comparison& c) {
  if (c.high.empty()) return;
  for (size_t k = c.number + 1; k < r.tokens.size(); ++k) {
    if (r.tokens[k].kind == TokenKind::kNumber && r.tokens[k].lower == c.high) {
      r.used[k] = true;
      return;
    }
  }
}

// The date column named nearest to the cue.
std::optional<ColumnRef> NamedDateColumn(Reading& r, size_t cue) {
  std::optional<ColumnRef> col;
  size_t best = SIZE_MAX, best_k = 0;
  for (size_t k = 0; k < r.mentions.size(); ++k) {
    const auto& el = ElementOf(r, r.mentions[k]);
    if (el.column.empty()) continue;
    const catalog::Table* t = r.ctx.schema.FindTable(el.table);
    const catalog::Column* column = t ? t->FindColumn(el.column) : nullptr;
    bool dated = column && (column->type_class == catalog::TypeClass::kDatetime ||
                            ToLower(el.column).find("date") != std::string::npos);
    size_t d = r.mentions[k].end <= cue ? cue - r.mentions[k].end : r.mentions[k].begin - cue + 1;
    if (dated && d < best) {
      best = d;
      best_k = k;
      col = ColumnRef{el.table, el.column};
    }
  }
  if (col) r.consumed.insert(best_k);
  return col;
}

// The stems of the words WordNet derives from the words of a column's description and readable name ("creation date":
// create, ...), which the question's words may be ("created"); the index relates only the words of names to the
// question's.
std::set<std::string> DescriptionDerivedStems(const catalog::Column& column, const retrieval::WordNet* wordnet) {
  std::set<std::string> out;
  if (!wordnet) return out;
  thread_local retrieval::Stemmer stemmer;
  for (const std::string* text : {&column.label, &column.comment}) {
    for (const auto& w : naturalness::SplitWords(*text)) {
      const std::string word = ToLower(w);
      if (word.size() < 4 || IsStopWord(word)) continue;
      for (const auto& rel : wordnet->Related(word)) {
        if (rel.relation == retrieval::Relation::kDerived) out.insert(stemmer.Stem(rel.word));
      }
    }
  }
  return out;
}

// The tables next to the subject: those the question links and those a foreign key joins to it directly.
std::set<std::string> NextToSubject(const Reading& r) {
  std::set<std::string> out = r.linked_tables;
  for (const auto& t : r.ctx.schema.tables) {
    if (EqualsIgnoreCase(t.name, r.subject)) {
      for (const auto& fk : t.foreign_keys) out.insert(ToLower(fk.ref_table));
    }
    for (const auto& fk : t.foreign_keys) {
      if (EqualsIgnoreCase(fk.ref_table, r.subject)) out.insert(ToLower(t.name));
    }
  }
  out.erase(ToLower(r.subject));
  return out;
}

// A date column of the subject: the one a question word nearest `cue` names part of ("installed" for INSTL_DT, read
// "install date"), or names by a form derived from the same word ("created" for CRT_DT described as the "creation
// date"; WordNet's derivations of the schema's words), else its only one. A date column of a table next to the subject
// (NextToSubject) when the word right before `cue`, or the one before it, names it and none of the subject's is named
// nearer ("orders which are shipped after 2000-01-01": Shipments.shipment_date). `named_by`: the naming word, when it
// is right before `cue` or the word before it ("created in 2023"); SIZE_MAX else.
std::optional<ColumnRef> SubjectDateColumn(const Reading& r, size_t cue, size_t* named_by = nullptr) {
  std::vector<ColumnRef> dates;
  std::optional<ColumnRef> named;
  size_t best = SIZE_MAX, best_token = SIZE_MAX;
  auto names = [&](const std::vector<std::string>& phrase, const Token& tok) {
    if (std::find(phrase.begin(), phrase.end(), tok.stem) != phrase.end()) return true;
    const auto& alternatives = r.ctx.index.AlternativesFor(tok.stem);
    return std::any_of(alternatives.begin(), alternatives.end(), [&](const linking::Alternative& a) {
      return a.relation == retrieval::Relation::kDerived &&
             std::find(phrase.begin(), phrase.end(), a.schema_stem) != phrase.end();
    });
  };
  const std::set<std::string> next = NextToSubject(r);
  for (const bool subject : {true, false}) {
    for (const auto& el : r.ctx.index.Elements()) {
      if (el.column.empty() || (ToLower(el.table) == ToLower(r.subject)) != subject) continue;
      if (!subject && !next.count(ToLower(el.table))) continue;
      const catalog::Table* t = r.ctx.schema.FindTable(el.table);
      const catalog::Column* column = t ? t->FindColumn(el.column) : nullptr;
      if (!column || column->type_class != catalog::TypeClass::kDatetime) continue;
      if (subject) dates.push_back({el.table, el.column});
      const std::set<std::string> derived = DescriptionDerivedStems(*column, r.ctx.index.Wordnet());
      for (size_t i = 0; i < r.tokens.size(); ++i) {
        const size_t d = i < cue ? cue - i : i - cue + 1;
        const Token& tok = r.tokens[i];
        if (d >= best || (!subject && (i >= cue || d > 2))) continue;
        if (tok.kind != TokenKind::kWord || IsStopWord(tok.lower)) continue;
        const bool by_name =
            std::any_of(el.phrases.begin(), el.phrases.end(), [&](const auto& phrase) { return names(phrase, tok); });
        if (by_name || derived.count(tok.stem) > 0) {
          named = ColumnRef{el.table, el.column};
          best = d;
          best_token = i;
        }
      }
    }
  }
  if (named_by) *named_by = named && best_token < cue && best <= 2 ? best_token : SIZE_MAX;
  return named ? named : dates.size() == 1 ? std::optional<ColumnRef>(dates.front()) : std::nullopt;
}

bool IsYear(std::string_view number) { return number.size() == 4 && number >= "1800" && number <= "2100"; }

// The date column a date compares ("shipped after 2000-01-01"): the date column named nearest, else one of the
// subject's; none noted.
std::optional<ColumnRef> DateColumnCompared(Reading& r, const Comparison& c) {
  std::optional<ColumnRef> col = NamedDateColumn(r, c.cue);
  if (!col) col = SubjectDateColumnAt(r, c.cue);
  if (!col) col = ColumnNamed(r.ctx.schema, r.subject, "date");
  if (!col) r.notes.push_back(fmt::format("no date column for '{}'", c.value));
  return col;
}

// A date ("shipped after 2000-01-01").
void CompareDate(Reading& r, const Comparison& c) {
  std::optional<ColumnRef> col = DateColumnCompared(r, c);
  if (!col) return;
  r.used[c.cue] = r.used[c.number] = true;
  MarkHigh(r, c);
  Literal high;
  // "between 2023-01-15 and June 2023": to the month's last day.
  if (IsMonth(c.high)) {
    high = PeriodsOfDates(*col, c.high, c.high, c.cue).high;
  } else if (!c.high.empty()) {
    high = {Literal::Kind::kString, c.high, {}};
  }
  r.filters.push_back({*col, c.op, {Literal::Kind::kString, c.value, {}}, high, c.cue});
}

// A year or a month compared with a date column ("hired after 2020", "reported before March 1995"): the date against
// the first day of the period that bounds it, so that a date within that very period is in it, not after it ("after
// 2020" is from 2021-01-01 on, "after March 2020" from 2020-04-01). ISO dates compare as text in SQLite and as dates in
// PostgreSQL. False for an operator with no such bound ("!=").
bool ComparePeriodOfDate(Reading& r, const Comparison& c, const ColumnRef& col) {
  auto day = [](std::string d) { return Literal{Literal::Kind::kString, std::move(d), {}}; };
  Filter f{col, c.op, day(FirstDayOf(c.value)), {}, c.cue};
  const bool high_period = IsYear(c.high) || IsMonth(c.high);
  if (c.op == ">") {
    f.op = ">=";
    f.value = day(FirstDayAfter(c.value));
  } else if (c.op == "<=") {
    f.op = "<";
    f.value = day(FirstDayAfter(c.value));
  } else if (c.op == "=" || (c.op == "BETWEEN" && high_period && c.high >= c.value)) {
    f = PeriodsOfDates(col, c.value, c.op == "=" ? c.value : c.high, c.cue);
  } else if (c.op == "BETWEEN" && retrieval::IsIsoDateTime(c.high) && c.high >= c.value) {
    f.high = day(c.high);  // "between March 2023 and 2023-06-15"
  } else if (c.op != ">=" && c.op != "<") {
    return false;
  }
  r.used[c.cue] = r.used[c.number] = true;
  MarkHigh(r, c);
  r.filters.push_back(std::move(f));
  return true;
}

// Nothing names the compared column, nor a quantity ("younger than 30" names an age): the subject's one column of
// quantities, when it has exactly one besides its keys ("colleges that have more than 15000 students": enr). Not when
// the schema is named right after the number ("at least 3 pieces of equipment" counts rows of something else).
std::optional<ColumnRef> OnlyQuantityOfSubject(const Reading& r, size_t number) {
  constexpr size_t kReach = 3;
  const bool named_after = std::any_of(r.mentions.begin(), r.mentions.end(), [&](const Mention& m) {
    return m.begin > number && m.begin <= number + kReach;
  });
  if (named_after) return std::nullopt;
  return SubjectsOnlyQuantity(r);
}

// A year compared with a date column: `col` set to a date column that keeps years as numbers (church.Open_Date),
// else the comparison read and true (ComparePeriodOfDate); the date column named nearest, else one of the subject's
// ("technicians hired after 2020": hire_date).
bool CompareYearWithDate(Reading& r, const Comparison& c, std::optional<ColumnRef>& col) {
  std::optional<ColumnRef> date = NamedDateColumn(r, c.cue);
  if (!date) date = SubjectDateColumnAt(r, c.cue);
  if (date && IsNumericColumn(r.ctx.schema, *date)) {
    col = date;
    return false;
  }
  return date && ComparePeriodOfDate(r, c, *date);
}

// A column named "year" of the table named last before the cue of those that have one ("the stadium with the most
// concerts after 2013": concert.Year), else of the subject, else of a linked table.
std::optional<ColumnRef> YearColumnOfLinked(const Reading& r, size_t cue) {
  std::optional<ColumnRef> c;
  size_t nearest = 0;
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (!el.column.empty() || m.end > cue || m.end <= nearest) continue;
    if (auto year = ColumnNamed(r.ctx.schema, el.table, "year")) {
      c = year;
      nearest = m.end;
    }
  }
  if (!c) c = ColumnNamed(r.ctx.schema, r.subject, "year");
  for (auto t = r.linked_tables.begin(); !c && t != r.linked_tables.end(); ++t)
    c = ColumnNamed(r.ctx.schema, *t, "year");
  return c;
}

// A number: the column the adjective or the unit after the number names, else the numeric column named nearest;
// "held between 2009 and 2011", "before 2010": else a year. A year after a word of time ("the stadium with the most
// concerts after 2013") is of a year or date column first, not of the quantity named nearest (the capacity).
void CompareNumber(Reading& r, const Comparison& c) {
  std::string hint = QuantityOf(c.adjective);
  bool unit = false;  // the hint is the unit's
  if (hint.empty() && c.number + 1 < r.tokens.size()) {
    hint = QuantityOfUnit(r.tokens, c.number + 1);
    unit = !hint.empty();
  }
  const bool year_like = c.value.size() == 4 && c.value >= "1800" && c.value <= "2100";
  static const words::WordSet kTimeCues = words::List("time_cues");
  // A column named right before the cue is the one compared ("schools founded before 1890": Founded).
  const bool named_before = std::any_of(r.mentions.begin(), r.mentions.end(), [&](const Mention& m) {
    return !ElementOf(r, m).column.empty() && m.end <= c.cue && m.end + 1 >= c.cue;
  });
  std::optional<ColumnRef> col;
  if (year_like && hint.empty() && !named_before && kTimeCues.count(r.tokens[c.cue].lower)) {
    col = YearColumnOfLinked(r, c.cue);
    if (!col && CompareYearWithDate(r, c, col)) return;
  }
  if (!col) col = hint.empty() ? NumericNear(r, c.cue, "") : NumericNear(r, c.cue, hint);
  if (!col && !hint.empty()) col = NumericNear(r, c.cue, "");
  if (!col && year_like) col = NumericNear(r, c.cue, "year");
  // A year and no column of numbers named: a date column rather than the subject's one quantity (hourly_rate); also
  // when the cue names years ("2019 or later") and no column of years is there.
  if (!col && year_like && (hint.empty() || hint == "year") && CompareYearWithDate(r, c, col)) return;
  if (!col && hint.empty()) col = OnlyQuantityOfSubject(r, c.number);
  if (!col) {
    r.notes.push_back(fmt::format("no numeric column for '{}'", r.tokens[c.cue].text));
    return;
  }
  r.used[c.cue] = r.used[c.number] = true;
  // "fewer than 10 units in stock": the unit is the number's, not a name ("units" is no group).
  if (unit) {
    r.used[c.number + 1] = true;
    MarkMention(r, c.number + 1);
  }
  // "after the year 2008": the word "year" is the number's, no column to show.
  if (year_like && c.number > 0 && r.tokens[c.number - 1].lower == "year") {
    r.used[c.number - 1] = true;
    MarkMention(r, c.number - 1);
  }
  MarkHigh(r, c);
  Literal high;
  if (!c.high.empty()) high = {Literal::Kind::kNumber, c.high, {}};
  r.filters.push_back({*col, c.op, {Literal::Kind::kNumber, c.value, {}}, high, c.cue});
}

// "18 years old", "4 minutes": a number and the unit after it, with no comparison, is the quantity the unit names
// equal to the number. The unit's words are marked used.
std::optional<ColumnRef> NumberWithUnit(Reading& r, size_t i) {
  if (i + 1 >= r.tokens.size()) return std::nullopt;
  const std::string hint = QuantityOfUnit(r.tokens, i + 1);
  if (hint.empty()) return std::nullopt;
  auto col = NumericNear(r, i, hint);
  if (!col) return std::nullopt;
  r.used[i + 1] = true;
  if (i + 2 < r.tokens.size() && IsWord(r.tokens[i + 2], "old")) r.used[i + 2] = true;
  return col;
}

// "student 1004", "store 1", "flight number 99", "the aircraft that has an id of 12": a number right after a table's
// name, or after a word saying it identifies something ("id", "number", "no") with the table named before that (else
// the subject), is the table's primary key (one column). Right after a table's name, a year is left to ReadNumbers'
// lone years ("films 2010"). The words from the table's name on are marked used.
std::optional<ColumnRef> NumberAsKey(Reading& r, size_t i) {
  size_t k = i;
  bool id_word = false;
  while (k > 0 && i - k < 5 && r.tokens[k - 1].kind == TokenKind::kWord) {
    const std::string& w = r.tokens[k - 1].lower;
    if (w == "id" || w == "number" || w == "no") {
      id_word = true;
    } else if (!IsStopWord(w) || r.used[k - 1]) {
      break;
    }
    --k;
  }
  std::optional<std::string> table = k > 0 ? TableAt(r, k - 1) : std::nullopt;
  if (!id_word && (!table || k != i || IsYear(r.tokens[i].lower))) return std::nullopt;
  const catalog::Table* t = r.ctx.schema.FindTable(table ? *table : r.subject);
  if (!t || t->primary_key.size() != 1) return std::nullopt;
  ColumnRef key{t->name, t->primary_key.front()};
  for (size_t j = k; j < i; ++j) r.used[j] = true;
  r.notes.push_back(fmt::format("{} is {}.{}", r.tokens[i].text, key.table, key.column));
  return key;
}

// The column named "year" of `table` when it holds numbers.
std::optional<ColumnRef> NumericYearOf(const catalog::Schema& schema, const std::string& table) {
  auto c = ColumnNamed(schema, table, "year");
  if (c && IsNumericColumn(schema, *c)) return c;
  return std::nullopt;
}

// "the courses offered in 2010", "in Chandler in 2010": no table named has a year column; a table a condition reads
// has one (section.year), else a table one foreign key away from the subject.
std::optional<ColumnRef> YearColumnNearby(const Reading& r) {
  auto year_of = [&](const std::string& table) { return NumericYearOf(r.ctx.schema, table); };
  for (const auto& f : r.filters) {
    if (auto c = year_of(f.col.table)) return c;
  }
  const catalog::Table* subject = r.ctx.schema.FindTable(r.subject);
  if (!subject) return std::nullopt;
  for (const auto& fk : subject->foreign_keys) {
    if (auto c = year_of(fk.ref_table)) return c;
  }
  for (const auto& t : r.ctx.schema.tables) {
    for (const auto& fk : t.foreign_keys) {
      if (!EqualsIgnoreCase(fk.ref_table, subject->name)) continue;
      if (auto c = year_of(t.name)) return c;
    }
  }
  return std::nullopt;
}

// A year of an entity's row against one of the rows that refer to it: the year of a campus (founded) and the year of
// its degrees (conferred). A lone year is when the referring rows happened ("degrees conferred at X in 2001", "the
// salary paid by team X in 2010"): of Spider train's gold queries that compare the year of one of two joined tables,
// one referring to the other, 38 of 40 compare the referring table's (a throw-away count over the gold SQL).
std::optional<ColumnRef> YearOfReferringTable(const Reading& r, const ColumnRef& year) {
  const auto referring = [&](const std::string& name) -> std::optional<ColumnRef> {
    const catalog::Table* t = r.ctx.schema.FindTable(name);
    if (!t || EqualsIgnoreCase(t->name, year.table)) return std::nullopt;
    const bool refers = std::any_of(t->foreign_keys.begin(), t->foreign_keys.end(),
                                    [&](const auto& fk) { return EqualsIgnoreCase(fk.ref_table, year.table); });
    return refers ? NumericYearOf(r.ctx.schema, t->name) : std::nullopt;
  };
  // The subject's, else the one linked table's (two that refer to it: the question says which no more than before).
  if (auto c = referring(r.subject)) return c;
  std::optional<ColumnRef> found;
  for (const auto& name : r.linked_tables) {
    auto c = referring(name);
    if (!c || (found && EqualsIgnoreCase(found->table, c->table))) continue;
    if (found) return std::nullopt;
    found = c;
  }
  return found;
}

// "created in March", "hired during August": a month with no year is that month of every year, the month of the year
// of the date column named nearest, else of the subject's (SubjectDateColumnAt), compared as text ("03"). Only after
// "in" or "during", the month's whole name or its abbreviation capitalized ("Mar"; "May" only so), and not where the
// schema or a stored value is named (a column "Mar" of monthly temperatures, a month stored as a word).
void ReadMonthsOfYear(Reading& r) {
  if (!tree::HasDatePart(r.ctx.dialect)) return;
  const auto& tokens = r.tokens;
  for (size_t i = 1; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    const int month = t.kind == TokenKind::kWord && !r.used[i] ? retrieval::MonthOf(t.lower) : 0;
    if (month == 0 || (tokens[i - 1].lower != "in" && tokens[i - 1].lower != "during")) continue;
    const bool whole = (t.lower.size() > 4 || t.lower == "june" || t.lower == "july") && t.lower != "sept";
    const bool capital = !t.text.empty() && std::isupper(static_cast<unsigned char>(t.text[0]));
    if (!capital && (!whole || t.lower == "may")) continue;
    if (i + 1 < tokens.size() && tokens[i + 1].kind == TokenKind::kNumber) continue;  // ("March 5": a day)
    const bool named = std::any_of(r.mentions.begin(), r.mentions.end(),
                                   [&](const Mention& m) { return m.begin <= i && i < m.end; }) ||
                       std::any_of(r.values.begin(), r.values.end(),
                                   [&](const retrieval::ValueMatch& v) { return v.begin <= i && i < v.end; });
    if (named) continue;
    std::optional<ColumnRef> col = NamedDateColumn(r, i);
    if (!col) col = SubjectDateColumnAt(r, i);
    if (!col) continue;
    Filter f{*col, "=", {Literal::Kind::kString, fmt::format("{:02d}", month), {}}, {}, i};
    f.part = "month_of_year";
    r.filters.push_back(std::move(f));
    r.used[i] = true;
  }
}

}  // namespace

std::optional<ColumnRef> SubjectDateColumnAt(Reading& r, size_t cue) {
  size_t by = SIZE_MAX;
  std::optional<ColumnRef> col = SubjectDateColumn(r, cue, &by);
  if (col && by != SIZE_MAX) {
    std::erase_if(r.filters, [&](const Filter& f) {
      return f.at == by && f.value.kind == Literal::Kind::kString && f.op == "=" && !(f.col == *col);
    });
  }
  return col;
}

void ReadComparisons(Reading& r) {
  for (size_t t : r.consumed_tokens) MarkMention(r, t);
  for (const auto& c : r.intent.comparisons) {
    if (c.average) {
      CompareWithAverage(r, c);
    } else if (c.all) {
      CompareWithAll(r, c);
    } else if (CountPerGroup(r, c)) {
      continue;
    } else if (retrieval::IsIsoDateTime(c.value)) {
      CompareDate(r, c);
    } else if (IsMonth(c.value)) {
      // "after March 2020": a month is of a date column.
      if (auto col = DateColumnCompared(r, c)) ComparePeriodOfDate(r, c, *col);
    } else {
      CompareNumber(r, c);
    }
  }
  ReadMonthsOfYear(r);
}

void ReadNumbers(Reading& r) {
  const auto& tokens = r.tokens;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kNumber || r.used[i]) continue;
    // "the first names of the 5 staff members who handled the most complaints": a number before a table's name with a
    // superlative says how many rows (ReadOrder), it is no value.
    if (!r.intent.superlatives.empty() && TableAt(r, i + 1)) continue;
    // A number right after a column's name: "student with ID 1004", "room number 101", "age either 24 or 25"; "age is
    // not 20" (the negation pass turns it round).
    size_t k = i;
    while (k > 0 && tokens[k - 1].kind == TokenKind::kWord &&
           (IsStopWord(tokens[k - 1].lower) || tokens[k - 1].lower == "either" || tokens[k - 1].lower == "not") &&
           i - k < 2) {
      --k;
    }
    std::optional<ColumnRef> col = k > 0 ? ColumnAt(r, k - 1) : std::nullopt;
    // "hired in March 2020": a month is of the date column named before it, else of one found below.
    const bool month = IsMonth(tokens[i].lower);
    if (month && !(col && HoldsDates(r.ctx.schema, *col))) continue;
    // "the most faculties in 2003": a year after "in" is when, not a value of the column before it, unless that column
    // holds years or dates (the lone years below).
    if (col && k < i && tokens[k].lower == "in" && IsYear(tokens[i].lower) && !HoldsDates(r.ctx.schema, *col) &&
        ToLower(col->column).find("year") == std::string::npos) {
      col.reset();
      if (!NumberWithUnit(r, i)) continue;
    }
    bool by_unit = false;  // (a unit's quantity is compared as a number whatever the column keeps)
    if (col) {
      MarkMention(r, k - 1);
      // "in year 2004": the word names no table's year of the two (above).
      if (EqualsIgnoreCase(col->column, "year") && tokens[k - 1].lower == "year") {
        if (auto referring = YearOfReferringTable(r, *col)) col = referring;
      }
    } else if ((col = NumberWithUnit(r, i))) {
      by_unit = true;
    } else if (auto after = ColumnAt(r, i + 1); after && HoldsQuantities(r.ctx, *after)) {
      // Right before one: "rated 3 stars", "5 star ratings".
      col = after;
      MarkMention(r, i + 1);
    } else if (!(col = NumberAsKey(r, i))) {
      continue;
    }
    // "hired in 2021": a year of a date column is its days, not a value equal to the year.
    if (!by_unit && (IsYear(tokens[i].lower) || month || IsDay(tokens[i].lower)) && HoldsDates(r.ctx.schema, *col)) {
      r.filters.push_back(PeriodsOfDates(*col, tokens[i].lower, tokens[i].lower, i));
      r.used[i] = true;
      continue;
    }
    const Literal::Kind kind =
        by_unit || IsNumericColumn(r.ctx.schema, *col) ? Literal::Kind::kNumber : Literal::Kind::kString;
    r.filters.push_back({*col, "=", {kind, tokens[i].lower, {}}, {}, i});
    r.used[i] = true;
    // The numbers coordinated with it are values of the same column: "district 1 or 2", "3 or 4 stars".
    auto coordinated = [&](size_t number, size_t between) {
      return number < tokens.size() && tokens[number].kind == TokenKind::kNumber && !r.used[number] &&
             (IsWord(tokens[between], "or") || IsWord(tokens[between], "and"));
    };
    for (size_t j = i; j >= 2 && coordinated(j - 2, j - 1); j -= 2) {
      r.filters.push_back({*col, "=", {kind, tokens[j - 2].lower, {}}, {}, j - 2});
      r.used[j - 2] = true;
    }
    for (size_t j = i; coordinated(j + 2, j + 1); j += 2) {
      r.filters.push_back({*col, "=", {kind, tokens[j + 2].lower, {}}, {}, j + 2});
      r.used[j + 2] = true;
    }
  }
  size_t first_year = 0;
  // A lone year-like number: "in 2014" → a year or date column equal to it (several joined by OR). A lone month or day
  // ("orders in March 2023", "created on 2023-03-05"): the days of the date column named nearest, else of the
  // subject's.
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kNumber || r.used[i]) continue;
    if (IsMonth(tokens[i].lower) || IsDay(tokens[i].lower)) {
      // (a day, "created on 2023-03-05", "yesterday": its times too)
      Comparison month{"=", tokens[i].lower, "", i, i, "", false, false};
      if (auto col = DateColumnCompared(r, month)) ComparePeriodOfDate(r, month, *col);
    } else if (IsYear(tokens[i].lower)) {
      if (r.years.empty()) first_year = i;
      r.years.push_back(tokens[i].lower);
      r.used[i] = true;
    }
  }
  if (r.years.empty()) return;
  const std::set<size_t> consumed = r.consumed;
  r.year_column = NumericNear(r, tokens.size(), "year");
  // A key column named nearest holds no years ("the id of instructors who taught in 2009"): a year column nearby
  // does, when there is one, and the key's mention is left to show.
  const catalog::Table* t = r.year_column ? r.ctx.schema.FindTable(r.year_column->table) : nullptr;
  if (t && IsKeyColumn(*t, r.year_column->column)) {
    if (auto nearby = YearColumnNearby(r)) {
      r.year_column = nearby;
      r.consumed = consumed;
    }
  }
  if (!r.year_column) r.year_column = YearColumnNearby(r);
  if (r.year_column) {
    if (auto referring = YearOfReferringTable(r, *r.year_column)) r.year_column = referring;
  }
  // No column of years: a date column, the one named nearest, else the subject's ("orders created in 2023": CRT_DT).
  if (!r.year_column) r.year_column = NamedDateColumn(r, first_year);
  if (!r.year_column) r.year_column = SubjectDateColumnAt(r, first_year);
}

}  // namespace plainsql::builtin
