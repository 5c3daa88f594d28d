// Questions the passes ask of a reading and of the schema (see reading.h).
#include "builtin/reading.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "builtin/passes.h"
#include "builtin/relative_dates.h"
#include "builtin/words.h"
#include "common/strings.h"
#include "naturalness/identifier.h"

namespace plainsql::builtin {

const linking::SchemaElement& ElementOf(const Reading& r, const Mention& m) {
  return r.ctx.index.Elements()[m.element];
}

bool IsWord(const retrieval::Token& t, std::string_view word) {
  return t.kind == retrieval::TokenKind::kWord && t.lower == word;
}

bool IsNumericColumn(const catalog::Schema& schema, const ColumnRef& c) {
  const catalog::Table* t = schema.FindTable(c.table);
  const catalog::Column* col = t ? t->FindColumn(c.column) : nullptr;
  return col && col->type_class == catalog::TypeClass::kNumeric;
}

std::string_view DeniedOp(std::string_view op) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kPairs = {
      {{"=", "!="}, {"!=", "="}, {">", "<="}, {"<=", ">"}, {"<", ">="}, {">=", "<"}}};
  for (const auto& [a, b] : kPairs) {
    if (a == op) return b;
  }
  return "";
}

bool IsYesNoColumn(const catalog::Schema& schema, const ColumnRef& c) {
  const catalog::Table* t = schema.FindTable(c.table);
  const catalog::Column* col = t ? t->FindColumn(c.column) : nullptr;
  return col && col->type_class == catalog::TypeClass::kBoolean;
}

std::optional<Literal> YesLiteral(const Context& ctx, const ColumnRef& c) {
  if (IsYesNoColumn(ctx.schema, c)) return Literal{Literal::Kind::kTrue, "", {}};
  if (auto yes = ctx.values ? ctx.values->YesValue(c.table, c.column) : std::nullopt) {
    return Literal{Literal::Kind::kString, *yes, {}};
  }
  return std::nullopt;
}

bool HoldsDates(const catalog::Schema& schema, const ColumnRef& c) {
  const catalog::Table* t = schema.FindTable(c.table);
  const catalog::Column* col = t ? t->FindColumn(c.column) : nullptr;
  if (!col) return false;
  return col->type_class == catalog::TypeClass::kDatetime ||
         (col->type_class != catalog::TypeClass::kNumeric && ToLower(c.column).find("date") != std::string::npos);
}

bool IsMonth(std::string_view v) {
  if (v.size() != 7 || v[4] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6}) {
    if (v[i] < '0' || v[i] > '9') return false;
  }
  return (v[5] == '0' && v[6] != '0') || (v[5] == '1' && v[6] <= '2');
}

bool IsDay(std::string_view v) { return ParseDay(v).has_value(); }

std::string FirstDayOf(std::string_view period) {
  if (IsDay(period)) return std::string(period);
  return IsMonth(period) ? fmt::format("{}-01", period) : fmt::format("{}-01-01", period);
}

std::string FirstDayAfter(std::string_view period) {
  if (auto day = ParseDay(period)) return IsoOf(NextDay(*day));
  const int year = std::stoi(std::string(period.substr(0, 4)));
  if (!IsMonth(period)) return fmt::format("{:04d}-01-01", year + 1);
  const int month = std::stoi(std::string(period.substr(5, 2)));
  return month == 12 ? fmt::format("{:04d}-01-01", year + 1) : fmt::format("{:04d}-{:02d}-01", year, month + 1);
}

Filter PeriodsOfDates(const ColumnRef& c, const std::string& first, const std::string& last, size_t at) {
  std::string end = fmt::format("{}-12-31 23:59:59", last.substr(0, 4));
  if (IsDay(last)) {
    end = last + " 23:59:59";
  } else if (IsMonth(last)) {
    const int days = retrieval::DaysInMonth(std::stoi(last.substr(0, 4)), std::stoi(last.substr(5, 2)));
    end = fmt::format("{}-{:02d} 23:59:59", last, days);
  }
  return {c, "BETWEEN", {Literal::Kind::kString, FirstDayOf(first), {}}, {Literal::Kind::kString, end, {}}, at};
}

bool HoldsQuantities(const Context& ctx, const ColumnRef& c) {
  return IsNumericColumn(ctx.schema, c) || (ctx.values && ctx.values->HoldsNumbers(c.table, c.column));
}

std::optional<ColumnRef> ColumnNamed(const catalog::Schema& schema, const std::string& table, std::string_view word) {
  const catalog::Table* t = schema.FindTable(table);
  if (!t) return std::nullopt;
  // A name that writes the word as a word of its own comes before one that has it inside another ("age": Age, not
  // Manager_ID); numbers first within each.
  std::optional<ColumnRef> numeric[2], any[2];
  for (const auto& c : t->columns) {
    if (ToLower(c.name).find(word) == std::string::npos) continue;
    const auto written = naturalness::SplitWords(c.name);
    const int level =
        std::any_of(written.begin(), written.end(), [&](std::string_view x) { return EqualsIgnoreCase(x, word); }) ? 0
                                                                                                                   : 1;
    auto& slot = c.type_class == catalog::TypeClass::kNumeric ? numeric[level] : any[level];
    if (!slot) slot = ColumnRef{t->name, c.name};
  }
  for (auto* found : {&numeric[0], &any[0], &numeric[1], &any[1]}) {
    if (*found) return *found;
  }
  return std::nullopt;
}

std::optional<ColumnRef> TextColumnNamed(const catalog::Schema& schema, const std::string& table,
                                         std::string_view word) {
  const catalog::Table* t = schema.FindTable(table);
  if (!t) return std::nullopt;
  for (const auto& c : t->columns) {
    if (c.type_class == catalog::TypeClass::kText && ToLower(c.name).find(word) != std::string::npos) {
      return ColumnRef{t->name, c.name};
    }
  }
  return std::nullopt;
}

bool NameWritesWord(std::string_view column, const retrieval::Token& t) {
  const auto written = naturalness::SplitWords(column);
  return std::any_of(written.begin(), written.end(), [&](std::string_view x) {
    const std::string lower = ToLower(x);
    return lower == t.lower || lower == t.stem;
  });
}

bool ColumnNameHasWord(const linking::SchemaElement& el, const retrieval::Token& t) {
  if (el.column.empty()) return false;
  const auto words = naturalness::SplitWords(el.column);
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return ToLower(w) == t.lower; });
}

std::optional<ColumnRef> ColumnAt(const Reading& r, size_t token) {
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (!el.column.empty() && m.begin <= token && token < m.end) return ColumnRef{el.table, el.column};
  }
  return std::nullopt;
}

bool CommaBefore(const Reading& r, size_t i) { return i < r.comma_before.size() && r.comma_before[i]; }

std::optional<size_t> NextListed(const Reading& r, size_t end) {
  if (end >= r.tokens.size()) return std::nullopt;
  if (r.tokens[end].lower == "and" && end + 1 < r.tokens.size()) return end + 1;
  if (CommaBefore(r, end)) return end;
  return std::nullopt;
}

std::optional<std::string> TableAt(const Reading& r, size_t token) {
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (el.column.empty() && m.begin <= token && token < m.end) return el.table;
  }
  return std::nullopt;
}

void MarkMention(Reading& r, size_t token) {
  for (size_t k = 0; k < r.mentions.size(); ++k) {
    if (r.mentions[k].begin <= token && token < r.mentions[k].end) r.consumed.insert(k);
  }
}

void MarkConsumed(Reading& r, const ColumnRef& c) {
  for (size_t k = 0; k < r.mentions.size(); ++k) {
    const auto& el = ElementOf(r, r.mentions[k]);
    if (el.table == c.table && el.column == c.column) r.consumed.insert(k);
  }
}

bool OnlyWeakLinks(const Reading& r, size_t b, size_t e) {
  bool any = false;
  for (size_t i = b; i < e; ++i) {
    if (!r.used[i]) continue;
    const auto m =
        std::find_if(r.mentions.begin(), r.mentions.end(), [i](const Mention& x) { return x.begin <= i && i < x.end; });
    // (A mention's score may be raised above its link's for the subject's table: a link through WordNet or the
    // lexicon is weak whatever its score.)
    const auto link = m == r.mentions.end()
                          ? r.links.end()
                          : std::find_if(r.links.begin(), r.links.end(), [&](const linking::LinkMatch& l) {
                              return l.element == m->element && l.begin == m->begin && l.end == m->end;
                            });
    const bool related = link != r.links.end() && link->related;
    if (m == r.mentions.end() || (m->whole && m->score >= 1.0 && !related)) return false;
    any = true;
  }
  return any;
}

bool IsForeignKeyColumn(const catalog::Table& t, const std::string& column) {
  auto same = [&](const std::string& c) { return EqualsIgnoreCase(c, column); };
  return std::any_of(t.foreign_keys.begin(), t.foreign_keys.end(), [&](const catalog::ForeignKey& fk) {
    return std::any_of(fk.columns.begin(), fk.columns.end(), same);
  });
}

bool IsKeyColumn(const catalog::Table& t, const std::string& column) {
  auto same = [&](const std::string& c) { return EqualsIgnoreCase(c, column); };
  return std::any_of(t.primary_key.begin(), t.primary_key.end(), same) || IsForeignKeyColumn(t, column);
}

namespace {

// Whether a word of a column's name, as the schema index stems it, is `stem` ("memories": Memory_in_G).
bool NameHasStem(const std::vector<const linking::SchemaElement*>& elements, const std::string& stem) {
  return std::any_of(elements.begin(), elements.end(), [&](const linking::SchemaElement* el) {
    return std::any_of(el->phrases.begin(), el->phrases.end(), [&](const std::vector<std::string>& phrase) {
      return std::find(phrase.begin(), phrase.end(), stem) != phrase.end();
    });
  });
}

}  // namespace

// No mention names a numeric column: a word near the comparison that no link took may still be part of one's name
// ("price above 10000": price_range; "more than two bathrooms": bathroom_count; "memories": Memory_in_G), where the
// linker only takes a name's last word alone. The word at `token` first, then those nearest it, on either side; the
// subject's columns, then the linked tables'; key columns are not quantities. `reach`: how far from `token` to look;
// `ambiguous`, when given, is set when two columns have the word that matched.
std::optional<ColumnRef> NumericByWord(Reading& r, size_t token, size_t reach, bool* ambiguous) {
  std::vector<std::string> tables = {r.subject};
  for (const auto& t : r.linked_tables) tables.push_back(t);
  // The schema index's elements of those tables' columns (lower-case "table.column"), found in one pass when first
  // needed: the index is not keyed by name.
  std::map<std::string, std::vector<const linking::SchemaElement*>> elements;
  bool indexed = false;
  auto elements_of = [&](const std::string& table,
                         const std::string& column) -> const std::vector<const linking::SchemaElement*>& {
    if (!indexed) {
      std::set<std::string> wanted;
      for (const auto& t : tables) wanted.insert(ToLower(t));
      for (const auto& el : r.ctx.index.Elements()) {
        if (!el.column.empty() && wanted.count(ToLower(el.table))) {
          elements[ToLower(el.table) + "." + ToLower(el.column)].push_back(&el);
        }
      }
      indexed = true;
    }
    static const std::vector<const linking::SchemaElement*> kNone;
    auto it = elements.find(ToLower(table) + "." + ToLower(column));
    return it == elements.end() ? kNone : it->second;
  };
  for (size_t d = 0; d <= reach; ++d) {
    const std::array<size_t, 2> around = {token - d, token + d};  // (token - d wraps past the end when d > token)
    for (size_t side = 0; side < (d == 0 ? 1u : 2u); ++side) {
      const size_t k = around[side];
      if (k >= r.tokens.size() || r.used[k]) continue;
      const retrieval::Token& w = r.tokens[k];
      if (w.kind != retrieval::TokenKind::kWord || retrieval::IsStopWord(w.lower) || w.stem.size() < 3) continue;
      // A word of the name as written first, then a word as the index reads the name (split, expanded, stemmed), then
      // a part of one ("rooms": room_count before bathroom_count, "bathrooms" still bathroom_count).
      auto matches = [&](const catalog::Table& t, const std::string& column, int level) {
        if (level == 0) return NameWritesWord(column, w);
        if (level == 1) return NameHasStem(elements_of(t.name, column), w.stem);
        return ToLower(column).find(w.stem) != std::string::npos;
      };
      std::optional<ColumnRef> found;
      for (int level = 0; level < 3 && !found; ++level) {
        for (const auto& name : tables) {
          const catalog::Table* t = r.ctx.schema.FindTable(name);
          if (!t) continue;
          for (const auto& c : t->columns) {
            if (!HoldsQuantities(r.ctx, {t->name, c.name}) || IsKeyColumn(*t, c.name) || !matches(*t, c.name, level)) {
              continue;
            }
            const ColumnRef here{t->name, c.name};
            if (!found) {
              found = here;
            } else if (!(*found == here) && ambiguous) {
              *ambiguous = true;
            }
          }
          if (found && ambiguous == nullptr) break;  // (the subject's column first; asked for ambiguity, every table)
        }
      }
      if (found) {
        r.used[k] = true;
        return found;
      }
    }
  }
  return std::nullopt;
}

std::optional<ColumnRef> SubjectsOnlyQuantity(const Reading& r) {
  const catalog::Table* t = r.ctx.schema.FindTable(r.subject);
  if (t == nullptr) return std::nullopt;
  std::optional<ColumnRef> only;
  for (const auto& c : t->columns) {
    if (IsKeyColumn(*t, c.name) || !HoldsQuantities(r.ctx, {t->name, c.name})) continue;
    if (only) return std::nullopt;
    only = ColumnRef{t->name, c.name};
  }
  return only;
}

std::optional<ColumnRef> NumericNear(Reading& r, size_t token, const std::string& hint, bool* reversed) {
  for (const std::string& alternative : hint.empty() ? std::vector<std::string>{} : Split(hint, '/')) {
    const bool other_way = alternative.starts_with('-');
    if (other_way && !reversed) continue;
    const std::string word = other_way ? alternative.substr(1) : alternative;
    std::optional<ColumnRef> c = ColumnNamed(r.ctx.schema, r.subject, word);
    for (auto t = r.linked_tables.begin(); !c && t != r.linked_tables.end(); ++t)
      c = ColumnNamed(r.ctx.schema, *t, word);
    // No column's name says "date" ("CRT_DT"): the subject's date column, the one a word names, else its only one.
    if (!c && word == "date") c = SubjectDateColumnAt(r, token);
    // (several and none named: the first, which a table declares first as its event's date: "the most recent orders"
    // by CRT_DT, not by SCHED_DT or CMPL_DT)
    if (const catalog::Table* t = !c && word == "date" ? r.ctx.schema.FindTable(r.subject) : nullptr) {
      for (auto col = t->columns.begin(); !c && col != t->columns.end(); ++col) {
        if (col->type_class == catalog::TypeClass::kDatetime) c = ColumnRef{t->name, col->name};
      }
    }
    if (c) {
      if (reversed) *reversed = other_way;
      return c;
    }
  }
  std::optional<size_t> best;
  size_t best_distance = SIZE_MAX;
  for (size_t k = 0; k < r.mentions.size(); ++k) {
    const auto& el = ElementOf(r, r.mentions[k]);
    if (el.column.empty() || !HoldsQuantities(r.ctx, {el.table, el.column})) continue;
    size_t d = r.mentions[k].end <= token ? token - r.mentions[k].end : r.mentions[k].begin - token + 1;
    if (d < best_distance) {
      best = k;
      best_distance = d;
    }
  }
  if (!best) return NumericByWord(r, token);
  // "the average price of hotels for each star rating code": the word right after the cue that no link took names a
  // column by a word of its name (price_range) rather than a mention further away (star_rating_code).
  if (best_distance > 1) {
    size_t k = token;
    while (k < r.tokens.size() && r.tokens[k].kind == retrieval::TokenKind::kWord &&
           retrieval::IsStopWord(r.tokens[k].lower)) {
      ++k;
    }
    bool ambiguous = false;
    const auto& named = ElementOf(r, r.mentions[*best]);
    if (auto c = NumericByWord(r, k, 0, &ambiguous);
        c && (ambiguous || (c->table == named.table && c->column == named.column))) {
      r.used[k] = false;  // (two columns have the word, or the mention names the same one: read as before)
    } else if (c) {
      return c;
    }
  }
  r.consumed.insert(*best);
  const auto& el = ElementOf(r, r.mentions[*best]);
  return ColumnRef{el.table, el.column};
}

std::string QuantityOf(std::string_view word) {
  static const words::WordMap kQuantities = words::Pairs("quantities");
  auto it = kQuantities.find(word);
  return it == kQuantities.end() ? std::string() : it->second;
}

std::string QuantityOfUnit(const std::vector<retrieval::Token>& tokens, size_t at) {
  const std::string& w = tokens[at].lower;
  if ((w == "years" || w == "year") && at + 1 < tokens.size() && tokens[at + 1].lower == "old") return "age";
  static const words::WordMap kUnits = words::Pairs("units");
  auto it = kUnits.find(w);
  return it == kUnits.end() ? std::string() : it->second;
}

}  // namespace plainsql::builtin
