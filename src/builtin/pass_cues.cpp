// The cue pass (see passes.h): words that carry the intent name no table or column.
#include "builtin/passes.h"

#include <algorithm>

#include "builtin/words.h"

namespace plainsql::builtin {

namespace {

// "first" and "top" are cues only before a number ("top 3"); "first name" names a column. "number" only before "of".
// "group" and "order" name columns too; they are cues in "grouped by", "group by", "in … order", "order by".
bool IsCue(const std::vector<retrieval::Token>& tokens, size_t i) {
  static const words::WordSet kCues = words::List("cue_words");
  static const words::WordSet kOrderWords = words::List("order_words");
  const std::string& w = tokens[i].lower;
  if (tokens[i].kind != TokenKind::kWord || !kCues.count(w)) return false;
  if ((w == "first" || w == "top") && !(i + 1 < tokens.size() && tokens[i + 1].kind == TokenKind::kNumber)) {
    return false;
  }
  // "the number of tracks" counts; "phone number", "flight number" name columns.
  if (w == "number" && !(i + 1 < tokens.size() && tokens[i + 1].lower == "of")) return false;
  if (w == "group" || w == "order") {
    bool by = i + 1 < tokens.size() && tokens[i + 1].lower == "by";
    bool in_order = w == "order" && i > 0 && kOrderWords.count(tokens[i - 1].lower);
    if (!by && !in_order) return false;
  }
  return true;
}

}  // namespace

void MaskCues(Reading& r) {
  for (size_t i = 0; i < r.tokens.size(); ++i) {
    // "room number of the offices": "number" ends a name the linker matched whole, no "number of" count.
    const bool ends_name = r.tokens[i].lower == "number" && i > 0 &&
                           std::any_of(r.links.begin(), r.links.end(), [&](const linking::LinkMatch& m) {
                             return m.whole && m.begin + 1 == i && m.end == i + 1;
                           });
    // "the average number of pages per minute color", "sorted by the room count": a cue word inside a column's name
    // matched whole or ending it (after one of its words, and a word of the name itself) is part of the name, not a
    // cue.
    const bool inside_name = std::any_of(r.links.begin(), r.links.end(), [&](const linking::LinkMatch& m) {
      return m.whole && !m.related && m.begin < i && i < m.end &&
             ColumnNameHasWord(r.ctx.index.Elements()[m.element], r.tokens[i]);
    });
    if (IsCue(r.tokens, i) && !ends_name && !inside_name) r.used[i] = true;
    // (Nor an aggregate: "the room count" counts nothing.)
    if (inside_name) std::erase_if(r.intent.aggregates, [&](const AggregateCue& a) { return a.token == i; });
  }
  // "products with max page size A4": a superlative or an aggregate (not a count: "the number of hosts" is read with
  // Number_of_hosts by CountIsQuantity) that begins a column's name matched whole, of two words or more and a word of
  // the name itself, is part of the name.
  // The column's table must be named elsewhere too ("the most popular file format" is no genre's most_popular_in).
  const auto& elements = r.ctx.index.Elements();
  auto table_named_apart = [&](const linking::LinkMatch& m) {
    return std::any_of(r.links.begin(), r.links.end(), [&](const linking::LinkMatch& o) {
      return !o.related && (o.begin >= m.end || o.end <= m.begin) &&
             EqualsIgnoreCase(elements[o.element].table, elements[m.element].table);
    });
  };
  // (A word of the name as written; or as the index expands it, "maximum page size" for max_page_size, when a value
  // or a number follows within four words: "the room with the maximum occupancy" is a superlative of maxOccupancy.)
  auto value_after = [&](size_t end) {
    for (size_t k = end; k < r.tokens.size() && k < end + 4; ++k) {
      if (r.tokens[k].kind != TokenKind::kWord) return true;
      if (std::any_of(r.values.begin(), r.values.end(), [&](const auto& v) { return v.begin == k; })) return true;
    }
    return false;
  };
  auto name_has = [&](const linking::LinkMatch& m) {
    const linking::SchemaElement& el = elements[m.element];
    const retrieval::Token& t = r.tokens[m.begin];
    if (ColumnNameHasWord(el, t)) return true;
    // (Or the sort key: "sorted by their total credits", "in descending order of maximum aperture".)
    bool sort_key = false;
    if (r.intent.order_token && *r.intent.order_token <= m.begin) {
      sort_key = true;
      for (size_t k = *r.intent.order_token; k < m.begin; ++k) sort_key &= IsStopWord(r.tokens[k].lower);
    }
    if (!value_after(m.end) && !sort_key) return false;
    for (size_t p = 0; p < el.phrases.size() && p < el.aliases_from; ++p) {
      if (linking::IsSynonymPhrase(el, p)) continue;
      if (std::find(el.phrases[p].begin(), el.phrases[p].end(), t.stem) != el.phrases[p].end()) return true;
    }
    return false;
  };
  auto begins_name = [&](size_t token) {
    return std::any_of(r.links.begin(), r.links.end(), [&](const linking::LinkMatch& m) {
      return m.whole && !m.related && m.begin == token && token + 1 < m.end && !elements[m.element].column.empty() &&
             name_has(m) && table_named_apart(m);
    });
  };
  std::erase_if(r.intent.superlatives, [&](const Superlative& s) { return begins_name(s.token); });
  std::erase_if(r.intent.aggregates,
                [&](const AggregateCue& a) { return a.kind != Aggregate::kCount && begins_name(a.token); });
  for (const auto& s : r.intent.superlatives) r.used[s.token] = true;
  for (const size_t k : r.intent.order_range) r.used[k] = true;    // "from large to small"
  if (r.intent.limit_token) r.used[*r.intent.limit_token] = true;  // "the 2 oldest": no value of a column
  // "order all gas station locations by the opening year": the verb before "by" orders, it names no column.
  if (r.intent.order_verb) r.used[*r.intent.order_verb] = true;
}

}  // namespace plainsql::builtin
