// The linking pass (see passes.h): the tables and columns the question names.
#include <algorithm>
#include <optional>

#include "builtin/passes.h"
#include "common/strings.h"

namespace plainsql::builtin {

namespace {

bool Free(const Reading& r, const linking::LinkMatch& m) {
  for (size_t i = m.begin; i < m.end; ++i) {
    if (r.used[i]) return false;
  }
  return true;
}

// The table named whole right after the "of" that follows a list of columns ending at `end` ("the name and building of
// the departments"), if any.
std::optional<std::string> OfTable(const Reading& r, size_t end) {
  size_t k = end;
  for (size_t steps = 0; k < r.tokens.size() && steps < 6 && r.tokens[k].lower != "of"; ++k, ++steps) {
    if (r.tokens[k].kind != TokenKind::kWord) return std::nullopt;  // (a value or a number ends the list)
  }
  if (k >= r.tokens.size() || r.tokens[k].lower != "of") return std::nullopt;
  ++k;
  while (k < r.tokens.size() &&
         (r.tokens[k].lower == "the" || r.tokens[k].lower == "all" || r.tokens[k].lower == "each")) {
    ++k;
  }
  for (const auto& l : r.links) {
    const auto& el = r.ctx.index.Elements()[l.element];
    if (el.column.empty() && l.whole && l.begin == k) return el.table;
  }
  return std::nullopt;
}

// A column word that several tables have ("names") belongs to a table the question names ("names of medications"),
// or whose stored value it names: those columns' links are preferred.
void PreferNamedTables(Reading& r) {
  std::set<std::string> named_tables;
  for (const auto& m : r.links) {
    const auto& el = r.ctx.index.Elements()[m.element];
    if (el.column.empty() && m.whole && Free(r, m)) named_tables.insert(ToLower(el.table));
  }
  for (const auto& v : r.values) named_tables.insert(ToLower(v.table));
  constexpr double kBoost = 0.3;  // chosen on Spider train (0.05: 0.369, 0.3: 0.374, 0.6: 0.373)
  for (auto& m : r.links) {
    const auto& el = r.ctx.index.Elements()[m.element];
    if (!el.column.empty() && named_tables.count(ToLower(el.table))) m.score += kBoost;
    // "the name and building of the departments": the table after "of" owns the columns listed before it, the more so
    // (department.dept_name by its head word over instructor.name, named whole).
    if (auto owner = OfTable(r, m.end); !el.column.empty() && owner && EqualsIgnoreCase(*owner, el.table)) {
      m.score += kBoost;
      // "the names and ids of tourist attractions": "ids" alone is the owner's key (Tourist_Attraction_ID), not another
      // column ending in id (Location_ID), whose shorter name scores its head word higher.
      if (!m.whole && m.end == m.begin + 1 && (IsWord(r.tokens[m.begin], "id") || IsWord(r.tokens[m.begin], "ids"))) {
        const catalog::Table* t = r.ctx.schema.FindTable(el.table);
        if (t && t->primary_key.size() == 1 && EqualsIgnoreCase(t->primary_key.front(), el.column)) m.score += kBoost;
      }
    }
  }
  std::stable_sort(r.links.begin(), r.links.end(),
                   [](const linking::LinkMatch& a, const linking::LinkMatch& b) { return a.score > b.score; });
}

// A link may stand for a mention: a whole phrase, or part of one that scores well enough.
bool CanMention(const linking::LinkMatch& m) { return m.whole || m.score >= 0.5; }

// The other links a mention could take: another element linked on exactly its tokens, at most kLinkMargin below the
// link taken. The closest (smallest gap, then earliest mention) come first; Choices::link_choice = k swaps in the k-th.
struct OtherLink {
  double gap = 0;
  size_t mention = 0;
  const linking::LinkMatch* link = nullptr;
};

std::vector<OtherLink> OtherLinks(const Reading& r) {
  constexpr double kLinkMargin = 0.5;
  constexpr size_t kMaxOtherLinks = 3;
  std::vector<OtherLink> out;
  for (size_t i = 0; i < r.mentions.size(); ++i) {
    const Mention& m = r.mentions[i];
    for (const auto& l : r.links) {
      if (l.begin != m.begin || l.end != m.end || l.element == m.element || !CanMention(l)) continue;
      const double gap = m.score - l.score;
      if (gap > kLinkMargin) continue;
      const bool seen = std::any_of(out.begin(), out.end(),
                                    [&](const OtherLink& o) { return o.mention == i && o.link->element == l.element; });
      if (!seen) out.push_back({std::max(0.0, gap), i, &l});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const OtherLink& a, const OtherLink& b) { return a.gap < b.gap; });
  if (out.size() > kMaxOtherLinks) out.resize(kMaxOtherLinks);
  return out;
}

}  // namespace

std::vector<retrieval::Token> ExpandCoordinatedNames(const std::vector<retrieval::Token>& tokens,
                                                     const linking::SchemaIndex& index) {
  using retrieval::TokenKind;
  auto word = [&](size_t i) {
    return i < tokens.size() && tokens[i].kind == TokenKind::kWord && !retrieval::IsStopWord(tokens[i].lower);
  };
  auto conjunction = [&](size_t i) { return tokens[i].lower == "and" || tokens[i].lower == "or"; };
  // Whether a modifier and the noun name a column together ("first" + "names": first_name).
  auto names = [&](size_t modifier, size_t noun) {
    const auto links = linking::Link(index, {tokens[modifier], tokens[noun]});
    return std::any_of(links.begin(), links.end(),
                       [](const linking::LinkMatch& m) { return m.begin == 0 && m.end == 2 && !m.related; });
  };
  // The shared noun of a list of modifiers that starts at `i`: "first and last names" (i "first", then "and", "last",
  // "names"), "first, middle, and last names" (the tokens leave out the commas): the word after the last modifier,
  // which follows the list's "and" / "or". A modifier between the first and the conjunction must name a column with
  // the noun too ("lot details and investor ids" lists two names, not modifiers of "ids").
  auto shared_noun = [&](size_t i) -> std::optional<size_t> {
    if (!word(i)) return std::nullopt;
    for (size_t n = i + 3; n < tokens.size() && n <= i + 5; ++n) {
      if (!word(n - 1) || !conjunction(n - 2)) {
        if (!word(n - 1) && !conjunction(n - 1)) return std::nullopt;
        continue;
      }
      if (!word(n)) return std::nullopt;
      for (size_t k = i + 1; k + 2 < n; ++k) {
        if (!conjunction(k) && !names(k, n)) return std::nullopt;
      }
      return n;
    }
    return std::nullopt;
  };
  // "full name": the first and the last name, where both name columns ("first" + "name": fname, first_name).
  auto as_word = [&](const retrieval::Token& like, const char* w) {
    retrieval::Token t = like;
    t.text = t.lower = t.stem = w;
    return t;
  };
  std::vector<retrieval::Token> out;
  for (size_t i = 0; i < tokens.size(); ++i) {
    // ("the building full names": building_full_name is named whole, no first and last name.)
    auto names_full = [&](size_t from) {
      std::vector<retrieval::Token> span(tokens.begin() + static_cast<std::ptrdiff_t>(from),
                                         tokens.begin() + static_cast<std::ptrdiff_t>(i + 2));
      const auto links = linking::Link(index, span);
      return std::any_of(links.begin(), links.end(), [&](const linking::LinkMatch& m) {
        return m.begin == 0 && m.end == span.size() && !m.related && m.whole;
      });
    };
    if (tokens[i].lower == "full" && word(i + 1) && !names_full(i) && !(i > 0 && word(i - 1) && names_full(i - 1))) {
      std::vector<retrieval::Token> parts = {as_word(tokens[i], "first"), tokens[i + 1], as_word(tokens[i], "and"),
                                             as_word(tokens[i], "last"), tokens[i + 1]};
      const auto first = linking::Link(index, {parts[0], parts[1]});
      const auto last = linking::Link(index, {parts[3], parts[4]});
      auto whole = [](const std::vector<linking::LinkMatch>& links) {
        return std::any_of(links.begin(), links.end(),
                           [](const linking::LinkMatch& m) { return m.begin == 0 && m.end == 2 && !m.related; });
      };
      if (whole(first) && whole(last)) {
        out.insert(out.end(), parts.begin(), parts.end());
        ++i;
        continue;
      }
    }
    out.push_back(tokens[i]);
    const std::optional<size_t> noun = shared_noun(i);
    if (noun && names(i, *noun)) out.push_back(tokens[*noun]);
  }
  return out;
}

namespace {

// "the employee named Nancy Edwards", "a song called 'Money'": a word that introduces the value after it names no
// column.
void MaskValueIntroducers(Reading& r) {
  for (size_t i = 0; i + 1 < r.tokens.size(); ++i) {
    if (!IsWord(r.tokens[i], "named") && !IsWord(r.tokens[i], "called") && !IsWord(r.tokens[i], "titled")) continue;
    const bool value_next =
        r.tokens[i + 1].kind == TokenKind::kQuoted ||
        std::any_of(r.values.begin(), r.values.end(), [&](const retrieval::ValueMatch& v) { return v.begin == i + 1; });
    if (value_next) r.used[i] = true;
  }
}

}  // namespace

void LinkSchema(Reading& r) {
  PreferNamedTables(r);
  MaskValueIntroducers(r);
  for (const auto& m : r.links) {
    if (!Free(r, m)) continue;
    // A partial match only stands in for a column when nothing better names that word.
    if (!CanMention(m)) continue;  // (boosted partial links pass)
    r.mentions.push_back({m.element, m.begin, m.end, m.whole, m.score});
    for (size_t i = m.begin; i < m.end; ++i) r.used[i] = true;
    // "the title, phone number and hire date": "number" after a column named whole ends its name (phone), rather than
    // linking on its own. ("the phone number of X": "number of" is a count cue, marked before; the grouping pass
    // reads it as the end of the column's name there.) So does "name" after a column named as its table ("the
    // institution name": Institution.Institution, the table's name), rather than naming another table's name column.
    const size_t next = m.end;
    const auto& el = r.ctx.index.Elements()[m.element];
    const bool ends_name = next < r.tokens.size() && !r.used[next] &&
                           (IsWord(r.tokens[next], "number") || IsWord(r.tokens[next], "numbers") ||
                            (EqualsIgnoreCase(el.column, el.table) &&
                             (IsWord(r.tokens[next], "name") || IsWord(r.tokens[next], "names"))));
    if (m.whole && !el.column.empty() && ends_name) {
      r.mentions.back().end = next + 1;
      r.used[next] = true;
    }
  }
  std::sort(r.mentions.begin(), r.mentions.end(), [](const Mention& a, const Mention& b) { return a.begin < b.begin; });
  const std::vector<OtherLink> others = OtherLinks(r);
  r.choices.link_alternatives = others.size();
  if (r.choices.link_choice > 0 && r.choices.link_choice <= others.size()) {
    const OtherLink& o = others[r.choices.link_choice - 1];
    r.mentions[o.mention] = {o.link->element, o.link->begin, o.link->end, o.link->whole, o.link->score};
    r.choices.link_gap = o.gap;
  }
  for (const Mention& m : r.mentions) r.linked_tables.insert(ToLower(r.ctx.index.Elements()[m.element].table));
}

}  // namespace plainsql::builtin
