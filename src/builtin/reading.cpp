// Questions the passes ask of a reading and of the schema (see reading.h).
#include "builtin/reading.h"

#include "builtin/words.h"
#include "common/strings.h"

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

std::optional<ColumnRef> ColumnNamed(const catalog::Schema& schema, const std::string& table, std::string_view word) {
  const catalog::Table* t = schema.FindTable(table);
  if (!t) return std::nullopt;
  std::optional<ColumnRef> any;
  for (const auto& c : t->columns) {
    if (ToLower(c.name).find(word) == std::string::npos) continue;
    if (c.type_class == catalog::TypeClass::kNumeric) return ColumnRef{t->name, c.name};
    if (!any) any = ColumnRef{t->name, c.name};
  }
  return any;
}

std::optional<ColumnRef> ColumnAt(const Reading& r, size_t token) {
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (!el.column.empty() && m.begin <= token && token < m.end) return ColumnRef{el.table, el.column};
  }
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

std::optional<ColumnRef> NumericNear(Reading& r, size_t token, const std::string& hint) {
  if (!hint.empty()) {
    if (auto c = ColumnNamed(r.ctx.schema, r.subject, hint)) return c;
    for (const auto& t : r.linked_tables) {
      if (auto c = ColumnNamed(r.ctx.schema, t, hint)) return c;
    }
  }
  std::optional<size_t> best;
  size_t best_distance = SIZE_MAX;
  for (size_t k = 0; k < r.mentions.size(); ++k) {
    const auto& el = ElementOf(r, r.mentions[k]);
    if (el.column.empty() || !IsNumericColumn(r.ctx.schema, {el.table, el.column})) continue;
    size_t d = r.mentions[k].end <= token ? token - r.mentions[k].end : r.mentions[k].begin - token + 1;
    if (d < best_distance) {
      best = k;
      best_distance = d;
    }
  }
  if (!best) return std::nullopt;
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
