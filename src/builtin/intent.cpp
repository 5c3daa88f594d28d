// Intent cues (see intent.h).
#include "builtin/intent.h"

#include "builtin/words.h"
#include "common/strings.h"

#include <algorithm>
#include <map>
#include <set>

namespace plainsql::builtin {

using retrieval::IsStopWord;

namespace {

bool Is(const std::vector<Token>& t, size_t i, std::string_view word) {
  return i < t.size() && t[i].kind == TokenKind::kWord && t[i].lower == word;
}

bool IsNumber(const std::vector<Token>& t, size_t i) { return i < t.size() && t[i].kind == TokenKind::kNumber; }

// Word cues: aggregates, grouping, order, limits, superlatives, negation, DISTINCT.
void ReadWordCues(const std::vector<Token>& t, Intent& in) {
  static const words::WordMap kSuper = words::Pairs("superlatives");
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string& w = t[i].lower;
    if (t[i].kind != TokenKind::kWord) continue;
    // Aggregates.
    if ((w == "how" && (Is(t, i + 1, "many") || Is(t, i + 1, "much"))) || (w == "number" && Is(t, i + 1, "of")) ||
        w == "count") {
      if (!(w == "how" && Is(t, i + 1, "much"))) in.aggregates.push_back({Aggregate::kCount, i});
    }
    if (w == "average" || w == "mean" || w == "avg") in.aggregates.push_back({Aggregate::kAvg, i});
    if (w == "total" || w == "sum" || (w == "how" && Is(t, i + 1, "much"))) {
      in.aggregates.push_back({Aggregate::kSum, i});
    }
    if (w == "maximum" || w == "max") in.aggregates.push_back({Aggregate::kMax, i});
    if (w == "minimum" || w == "min") in.aggregates.push_back({Aggregate::kMin, i});
    // Grouping.
    if ((w == "each" || w == "per" || w == "every") && i + 1 < t.size()) in.group_by.push_back(i + 1);
    // "the total credits by different department", "the number of rooms for different decor" ("the number of
    // different decors" counts them).
    if ((w == "different" || w == "various") && i > 0 && i + 1 < t.size() &&
        (t[i - 1].lower == "by" || t[i - 1].lower == "for" || t[i - 1].lower == "across" ||
         (t[i - 1].lower == "the" && i > 1 && (t[i - 2].lower == "for" || t[i - 2].lower == "by")))) {
      in.group_by.push_back(i + 1);
    }
    if (w == "by" && i > 0 && (t[i - 1].lower == "grouped" || t[i - 1].lower == "group")) in.group_by.push_back(i + 1);
    // "all countries and their number of airlines": what is listed before "and their number of" is counted in.
    if ((w == "their" || w == "its") && i > 1 && t[i - 1].lower == "and" && Is(t, i + 1, "number") &&
        Is(t, i + 2, "of") && t[i - 2].kind == TokenKind::kWord) {
      in.group_by.push_back(i - 2);
    }
    // Ordering.
    if (w == "descending" || w == "decreasing" || w == "descendingly") in.order_descending = true;
    // ("in reverse alphabetical order", "reversed lexicographic order": descending.)
    const bool lettered = w == "alphabetical" || w == "alphabetically" || w == "alphabetic" || w == "lexicographic" ||
                          w == "lexicographical" || w == "lexicographically";
    const bool reversed = i > 0 && (t[i - 1].lower == "reverse" || t[i - 1].lower == "reversed");
    if (w == "ascending" || w == "increasing" || w == "ascendingly") in.order_descending = false;
    if (lettered && !in.order_descending) in.order_descending = reversed;  // ("descending lexicographical order")
    if (lettered) in.order_lettered = true;
    // "ordered by", "sorted by"; "ordered descending by population", "sort the results by the number of followers":
    // an ordering verb right before "by", else a few words before it.
    static const std::set<std::string, std::less<>> kOrderVerbs = {"ordered",  "sorted",  "order",     "sort",
                                                                   "ranked",   "rank",    "arranged",  "arrange",
                                                                   "ordering", "sorting", "arranging", "listed"};
    if (w == "by" && i > 0 && !in.order_token && t[i - 1].lower != "grouped" && t[i - 1].lower != "group") {
      for (size_t j = i - 1; j + 8 >= i; --j) {
        if (kOrderVerbs.count(t[j].lower)) {
          in.order_token = i + 1;
          in.order_verb = j;
          break;
        }
        if (j == 0) break;
      }
    }
    // "in descending order of age": the column follows "order of".
    if (w == "of" && i > 0 && t[i - 1].lower == "order" && !in.order_token) in.order_token = i + 1;
    // Limits: "top 3", "first 5", "the three lowest", "5 largest".
    if ((w == "top" || w == "first") && i + 1 < t.size()) {
      if (auto n = SmallNumber(t[i + 1])) {
        in.limit = *n;
        in.limit_token = i + 1;
        // "the trips with the top 3 durations": "top" is the superlative when none follows ("the top 3 largest", "the
        // top 3 artists with the largest number of songs").
        bool own = false;
        for (size_t k = i + 2; k < t.size(); ++k) own = own || kSuper.count(t[k].lower) > 0;
        if (w == "top" && !own) in.superlatives.push_back({true, i + 1, t[i].text});
      }
    }
    // (Read from the superlative: the number before it may be a digit, which this loop of words does not visit. A
    // digit after a content word is that word's value: "the patient who stayed in room 111 most recently".)
    static const words::WordSet kLimited = words::List("limit_superlatives");
    const bool valued = i > 1 && t[i - 1].kind == TokenKind::kNumber && t[i - 2].kind == TokenKind::kWord &&
                        !IsStopWord(t[i - 2].lower);
    if (i > 0 && kLimited.count(w) && !valued && t[i - 1].lower != "once" && t[i - 1].lower != "twice" &&
        t[i - 1].lower != "thrice") {
      if (auto n = SmallNumber(t[i - 1])) {
        in.limit = *n;
        in.limit_token = i - 1;
      }
    }
    // Superlatives. "most expensive", "least recently": the adjective after "most" / "least" names the quantity (the
    // quantities list), so it is the superlative, not a count.
    static const words::WordMap kQuantities = words::Pairs("quantities");
    const bool by_adjective = (w == "most" || w == "least") && i + 1 < t.size() && kQuantities.count(t[i + 1].lower) &&
                              !(i > 0 && t[i - 1].lower == "at");
    const bool after_by_adjective =
        i > 0 && (t[i - 1].lower == "most" || t[i - 1].lower == "least") && kQuantities.count(w);
    auto it = kSuper.find(w);
    if (by_adjective) {
      in.superlatives.push_back({w == "most", i + 1, t[i + 1].text});
    } else if (!after_by_adjective && it != kSuper.end()) {  // (an adjective after "most" was read with it)
      // "at least 3" is a comparison, not a superlative.
      bool at_least = w == "least" && i > 0 && t[i - 1].lower == "at";
      bool at_most = w == "most" && i > 0 && t[i - 1].lower == "at";
      if (!at_least && !at_most) {
        in.superlatives.push_back({it->second == "desc", i, t[i].text});
      }
    }
    // "Which plant opened first?", "the technician hired last": an event's order after its verb, at the question's end.
    if ((w == "first" || w == "last") && i > 0 && t[i - 1].lower.ends_with("ed") &&
        (i + 1 == t.size() || t[i + 1].kind != TokenKind::kWord)) {
      in.superlatives.push_back({w == "last", i, t[i].text});
    }
    // Negation.
    // ("all home cities except for those having a driver older than 40", "every plant except Toledo's")
    if (w == "not" || w == "no" || w == "never" || w == "without" || w == "none" || w == "except" ||
        w.ends_with("n't")) {
      in.negations.push_back(i);
    }
    const bool grouping = !in.group_by.empty() && in.group_by.back() == i + 1;  // "for different decor"
    if (IsDistinctWord(w) && !grouping) in.distinct = true;
  }
}

// Comparisons with a number: the cue is found by looking back from each number.
void ReadNumberComparisons(const std::vector<Token>& t, Intent& in) {
  static const words::WordMap kMore = words::Pairs("comparisons");
  static const words::WordSet kAdjectives = words::List("comparison_adjectives");
  static const words::WordMap kQuantities = words::Pairs("quantities");
  for (size_t i = 0; i < t.size(); ++i) {
    // Numbers, and number words after a comparing word ("more than two", "at least once", "two or more").
    std::string value;
    if (IsNumber(t, i)) {
      value = t[i].lower;
    } else if (auto n = SmallNumber(t[i])) {
      value = std::to_string(*n);
    } else {
      continue;
    }
    // "between 5 and 10", "between 50 to 100"
    const bool to_or_and = Is(t, i + 1, "and") || Is(t, i + 1, "to");
    if (i >= 1 && Is(t, i - 1, "between") && to_or_and && IsNumber(t, i + 2)) {
      in.comparisons.push_back({"BETWEEN", t[i].lower, t[i + 2].lower, i - 1, i, "", false});
      continue;
    }
    // "4 or more", "two or fewer".
    // ("over 1500 or less than 500", "before 1989-09-03 or after 2007-12-25": the word compares the next number.)
    if (Is(t, i + 1, "or") && i + 2 < t.size() && !Is(t, i + 3, "than") && !IsNumber(t, i + 3)) {
      static const words::WordMap kAfter = words::Pairs("comparisons_after");
      if (auto it = kAfter.find(t[i + 2].lower); it != kAfter.end()) {
        // ("30 or younger": the word may name the quantity, as in "younger than 30"; see QuantityOf.)
        in.comparisons.push_back({it->second, value, "", i + 2, i, t[i + 2].lower, false});
        continue;
      }
    }
    if (i >= 3 && (Is(t, i - 1, "and") || Is(t, i - 1, "to")) && Is(t, i - 3, "between")) continue;  // taken above
    // Look back up to 3 words for a cue: "more than 30", "at least 3", "before 2010", "older than 30".
    // Function words and "year" do not count: "before the year of 2010".
    for (size_t back = 1, words = 0; words < 3 && back <= i && back <= 6; ++back) {
      size_t c = i - back;
      if (!(IsStopWord(t[c].lower) || t[c].lower == "year" || t[c].lower == "years")) ++words;
      const std::string& w = t[c].lower;
      std::string op;
      if (w == "least" && c > 0 && t[c - 1].lower == "at") op = ">=";
      if (w == "most" && c > 0 && t[c - 1].lower == "at") op = "<=";
      // "more than or equal to 5": the cue is three words before "equal".
      if (op.empty() && w == "equal" && c >= 3 && t[c - 1].lower == "or" && t[c - 2].lower == "than") {
        auto it = kMore.find(t[c - 3].lower);
        if (it != kMore.end() && (it->second == ">" || it->second == "<")) op = it->second == ">" ? ">=" : "<=";
      }
      if (op.empty()) {
        auto it = kMore.find(w);
        if (it == kMore.end()) continue;
        op = it->second;
      }
      // "more than or equal to", "in or after 2019", "on or before", "no more than".
      const bool or_at = c >= 2 && t[c - 1].lower == "or" &&
                         (t[c - 2].lower == "in" || t[c - 2].lower == "on" || t[c - 2].lower == "at");
      bool or_equal = (Is(t, c + 1, "than") && Is(t, c + 2, "or") && Is(t, c + 3, "equal")) || or_at;
      bool negated = c > 0 && (t[c - 1].lower == "no" || t[c - 1].lower == "not");
      if (op == ">") op = negated ? "<=" : or_equal ? ">=" : ">";
      if (op == "<") op = negated ? ">=" : or_equal ? "<=" : "<";
      std::string adjective = kAdjectives.count(w) ? w : std::string();
      // "more expensive than 5000": the word after "more" / "less" names the quantity.
      if (adjective.empty() && (w == "more" || w == "less") && c + 1 < i && kQuantities.count(t[c + 1].lower)) {
        adjective = t[c + 1].lower;
      }
      in.comparisons.push_back({op, value, "", c, i, adjective, false});
      break;
    }
  }
}

// Comparisons with the average: a comparing word up to 3 words before "average" ("older than average", "above the
// average age", "higher than the average"). That "average" is not an aggregate to select.
void ReadAverageComparisons(const std::vector<Token>& t, Intent& in) {
  static const words::WordMap kMore = words::Pairs("comparisons");
  static const words::WordSet kAdjectives = words::List("comparison_adjectives");
  for (size_t i = 0; i < t.size(); ++i) {
    if (!(Is(t, i, "average") || Is(t, i, "mean") || Is(t, i, "avg"))) continue;
    // Function words and "year" do not count: "before the year of 2010".
    for (size_t back = 1, words = 0; words < 3 && back <= i && back <= 6; ++back) {
      size_t c = i - back;
      if (!(IsStopWord(t[c].lower) || t[c].lower == "year" || t[c].lower == "years")) ++words;
      auto it = kMore.find(t[c].lower);
      if (it == kMore.end() || it->second == "=" || it->second == ">=") continue;
      bool negated = c > 0 && (t[c - 1].lower == "no" || t[c - 1].lower == "not");
      std::string op = it->second;
      if (negated) op = op == ">" ? "<=" : ">=";
      std::string adjective = kAdjectives.count(t[c].lower) ? t[c].lower : "";
      in.comparisons.push_back({op, "", "", c, i, adjective, true});
      std::erase_if(in.aggregates, [&](const AggregateCue& a) { return a.token == i; });
      break;
    }
  }
}

// "enrollment greater than that of all colleges in FL", "older than every engineer", "a higher salary than any of the
// instructors in Biology", "produced before any wine from Brander": a comparison with all of some rows, a few words
// before "all" / "every" / "any" ("than" between, unless the cue is a preposition: before, after, above, ...).
void ReadAllComparisons(const std::vector<Token>& t, Intent& in) {
  static const words::WordMap kMore = words::Pairs("comparisons");
  static const words::WordSet kAdjectives = words::List("comparison_adjectives");
  for (size_t i = 1; i < t.size(); ++i) {
    if (!(Is(t, i, "all") || Is(t, i, "every") || Is(t, i, "any"))) continue;
    bool than = false;
    for (size_t back = 1; back <= i && back <= 7; ++back) {
      const size_t c = i - back;
      than = than || t[c].lower == "than";
      auto it = kMore.find(t[c].lower);
      if (it == kMore.end()) continue;
      const bool preposition = t[c].lower == "before" || t[c].lower == "after" || t[c].lower == "above" ||
                               t[c].lower == "below" || t[c].lower == "over" || t[c].lower == "under";
      const bool taken =
          std::any_of(in.comparisons.begin(), in.comparisons.end(), [&](const Comparison& o) { return o.cue == c; });
      if ((it->second == ">" || it->second == "<") && (than || preposition) && !taken) {
        const std::string adjective = kAdjectives.count(t[c].lower) ? t[c].lower : "";
        in.comparisons.push_back({it->second, "", "", c, i, adjective, false, true});
      }
      break;
    }
  }
}

// "the most", "the least", "the fewest": a superlative that counts rows, not one of a quantity.
bool Counts(const Superlative& s) {
  const std::string w = ToLower(s.word);
  return w == "most" || w == "least" || w == "fewest";
}

// "the highest, lowest, and average cost", "the greatest and average capacity": a superlative listed with an aggregate
// (words joined by "and", "or" or commas, which the tokens leave out) is one more aggregate of the same quantity, the
// maximum or the minimum, not an ordering.
void ListedSuperlatives(const std::vector<Token>& t, Intent& in) {
  auto aggregate_at = [&](size_t k) {
    return std::any_of(in.aggregates.begin(), in.aggregates.end(),
                       [&](const AggregateCue& a) { return a.token == k && a.kind != Aggregate::kCount; });
  };
  auto superlative_at = [&](size_t k) {
    return std::any_of(in.superlatives.begin(), in.superlatives.end(),
                       [&](const Superlative& s) { return s.token == k; });
  };
  // ("the longest and the shortest": an article before a listed word is listed with it.)
  auto listed = [&](size_t k) {
    return Is(t, k, "and") || Is(t, k, "or") || superlative_at(k) || aggregate_at(k) ||
           (Is(t, k, "the") && (superlative_at(k + 1) || aggregate_at(k + 1)));
  };
  std::vector<AggregateCue> added;
  for (const Superlative& s : in.superlatives) {
    // The run of listed words around the superlative: a list has its "and" / "or" ("the highest average price" is
    // no list: the highest of the averages).
    size_t first = s.token, last = s.token;
    while (last + 1 < t.size() && listed(last + 1)) ++last;
    while (first > 0 && listed(first - 1)) --first;
    bool with_aggregate = false, conjunction = false;
    for (size_t k = first; k <= last; ++k) {
      with_aggregate = with_aggregate || aggregate_at(k);
      conjunction = conjunction || Is(t, k, "and") || Is(t, k, "or");
    }
    // "the oldest and youngest students", "the lowest and highest rating": two opposite superlatives of a quantity
    // listed together ask for its maximum and minimum; no row is both.
    const bool opposite = !Counts(s) && std::any_of(in.superlatives.begin(), in.superlatives.end(), [&](const auto& o) {
      return o.token >= first && o.token <= last && o.descending != s.descending && !Counts(o);
    });
    if ((with_aggregate || opposite) && conjunction) {
      added.push_back({s.descending ? Aggregate::kMax : Aggregate::kMin, s.token});
    }
  }
  if (added.empty()) return;
  std::erase_if(in.superlatives, [&](const Superlative& s) {
    return std::any_of(added.begin(), added.end(), [&](const AggregateCue& a) { return a.token == s.token; });
  });
  in.aggregates.insert(in.aggregates.end(), added.begin(), added.end());
  std::stable_sort(in.aggregates.begin(), in.aggregates.end(),
                   [](const AggregateCue& a, const AggregateCue& b) { return a.token < b.token; });
}

// "the smallest salary for every department", "how old is the youngest person for each job": a superlative with a
// grouping is the maximum or minimum in each group, not an ordering ("the most" and "the least" aside: they count).
void SuperlativesPerGroup(Intent& in) {
  if (in.group_by.empty()) return;
  std::vector<Superlative> kept;
  for (const Superlative& s : in.superlatives) {
    if (Counts(s)) {
      kept.push_back(s);
      continue;
    }
    in.aggregates.push_back({s.descending ? Aggregate::kMax : Aggregate::kMin, s.token});
  }
  if (kept.size() == in.superlatives.size()) return;
  in.superlatives = std::move(kept);
  std::stable_sort(in.aggregates.begin(), in.aggregates.end(),
                   [](const AggregateCue& a, const AggregateCue& b) { return a.token < b.token; });
}

}  // namespace

std::optional<int64_t> SmallNumber(const Token& t) {
  if (t.kind == TokenKind::kNumber) {
    try {
      return std::stoll(t.lower);
    } catch (...) {
      return std::nullopt;
    }
  }
  static const words::WordMap kNumbers = words::Pairs("number_words");
  auto it = kNumbers.find(t.lower);
  if (it == kNumbers.end()) return std::nullopt;
  return std::stoll(it->second);
}

namespace {

// "by year from the most recent to the oldest": two superlatives from … to … give the ordering's direction, not one
// row. Only with an ordering column named ("ordered by year", or "by year" right before "from").
void SuperlativeRange(const std::vector<Token>& t, Intent& in) {
  if (in.superlatives.size() < 2) return;
  for (size_t a = 0; a + 1 < in.superlatives.size(); ++a) {
    const Superlative& first = in.superlatives[a];
    const Superlative& second = in.superlatives[a + 1];
    auto word_between = [&](size_t from, size_t to, std::string_view w) {
      for (size_t k = from; k < to && k < t.size(); ++k) {
        if (t[k].lower == w) return true;
      }
      return false;
    };
    const size_t start = first.token >= 4 ? first.token - 4 : 0;
    if (!word_between(start, first.token, "from") || !word_between(first.token + 1, second.token, "to")) continue;
    // ("the event names by year from the most recent to the oldest": "by" right before "from" names the column.)
    if (!in.order_token) {
      size_t from = start;
      while (from < first.token && t[from].lower != "from") ++from;
      if (from >= 2 && t[from - 2].lower == "by") in.order_token = from - 1;
    }
    if (!in.order_token) continue;
    if (!in.order_descending) in.order_descending = first.descending;
    in.superlatives.erase(in.superlatives.begin() + static_cast<std::ptrdiff_t>(a),
                          in.superlatives.begin() + static_cast<std::ptrdiff_t>(a + 2));
    return;
  }
}

// "sorted by the budget from large to small", "ordered from the highest to the lowest", "from low to high": the two
// ends of "from … to …", both words of the order_ranges list in opposite directions, give the ordering's direction;
// they are neither superlatives (one row) nor values. (SuperlativeRange reads two superlatives with a column named;
// this also reads plain adjectives, and needs no column: the ordering may be by what is shown or counted.)
void OrderRange(const std::vector<Token>& t, Intent& in) {
  static const words::WordMap kEnds = words::Pairs("order_ranges");
  for (size_t i = 2; i + 1 < t.size(); ++i) {
    if (t[i].lower != "to") continue;
    size_t x = i - 1, y = i + 1;  // the words before and after "to", past any "the"
    while (x > 0 && t[x].lower == "the") --x;
    while (y < t.size() && t[y].lower == "the") ++y;
    if (x == 0 || y == t.size()) continue;
    size_t from = x - 1;
    while (from > 0 && t[from].lower == "the") --from;
    if (t[from].lower != "from") continue;
    const auto a = kEnds.find(t[x].lower), b = kEnds.find(t[y].lower);
    if (a == kEnds.end() || b == kEnds.end() || a->second == b->second) continue;
    if (!in.order_descending) in.order_descending = a->second == "desc";
    in.order_range.insert(in.order_range.end(), {x, i, y});
    std::erase_if(in.superlatives, [&](const Superlative& s) { return s.token == x || s.token == y; });
    return;
  }
}

// "the number of technicians per plant, largest first", "highest first": an end of the order_ranges list right before
// "first" at the question's end (or before more of it after punctuation) gives the ordering's direction; it is no
// superlative (one row) and "first" no limit. "the plants, newest first", "most recent first": a superlative that names
// its quantity orders every row by it.
void OrderFirst(const std::vector<Token>& t, Intent& in) {
  static const words::WordMap kEnds = words::Pairs("order_ranges");
  for (size_t i = 1; i < t.size(); ++i) {
    if (t[i].lower != "first" || (i + 1 < t.size() && t[i + 1].kind == TokenKind::kWord)) continue;
    if (t[i - 1].kind != TokenKind::kWord) continue;
    const auto end = kEnds.find(t[i - 1].lower);
    auto super = std::find_if(in.superlatives.begin(), in.superlatives.end(),
                              [&](const Superlative& s) { return s.token == i - 1; });
    if (end != kEnds.end()) {
      if (!in.order_descending) in.order_descending = end->second == "desc";
      in.order_range.insert(in.order_range.end(), {i - 1, i});
      if (super != in.superlatives.end()) in.superlatives.erase(super);
      return;
    }
    if (super != in.superlatives.end()) {
      super->unlimited = true;
      in.order_range.push_back(i);
      return;
    }
    // "the technicians, most recently hired first": "first" after a verb read as the event's order (ReadWordCues)
    // repeats a superlative a few words before it.
    auto event = std::find_if(in.superlatives.begin(), in.superlatives.end(),
                              [&](const Superlative& s) { return s.token == i; });
    auto before = std::find_if(in.superlatives.begin(), in.superlatives.end(),
                               [&](const Superlative& s) { return s.token < i && s.token + 3 >= i; });
    if (event != in.superlatives.end() && before != in.superlatives.end()) {
      before->unlimited = true;
      in.superlatives.erase(event);
      in.order_range.push_back(i);
      return;
    }
  }
}

// "the 3 branches that have the most memberships", "the three products purchased in the largest amounts": a number
// after "the" and before the plural noun that the superlative further on ranks is how many to keep, not a value.
void LimitBeforeNoun(const std::vector<Token>& t, Intent& in) {
  if (in.limit || in.superlatives.empty()) return;
  const size_t superlative = in.superlatives.front().token;
  for (size_t i = 1; i + 2 < superlative; ++i) {
    if (t[i - 1].lower != "the" || t[i + 1].kind != TokenKind::kWord || IsStopWord(t[i + 1].lower) ||
        !t[i + 1].lower.ends_with('s')) {
      continue;
    }
    const std::optional<int64_t> n = SmallNumber(t[i]);
    const bool digits = t[i].lower.size() <= 3 && t[i].lower.find_first_not_of("0123456789") == std::string::npos;
    if (!n || *n < 2 || (t[i].kind == TokenKind::kNumber && !digits)) continue;
    in.limit = *n;
    in.limit_token = i;
    return;
  }
}

}  // namespace

bool IsDistinctWord(std::string_view word) { return word == "different" || word == "distinct" || word == "unique"; }

Intent ReadIntent(const std::vector<Token>& t) {
  Intent in;
  ReadWordCues(t, in);
  SuperlativeRange(t, in);
  OrderRange(t, in);
  OrderFirst(t, in);
  ListedSuperlatives(t, in);
  SuperlativesPerGroup(in);
  ReadNumberComparisons(t, in);
  ReadAverageComparisons(t, in);
  ReadAllComparisons(t, in);
  LimitBeforeNoun(t, in);
  return in;
}

}  // namespace plainsql::builtin
