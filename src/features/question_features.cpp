// Question features. The word lists are short closed classes of English (wh-words, auxiliaries, subordinating
// conjunctions, command verbs), written here rather than in data files: each is read by one rule of this file.
#include "features/question_features.h"

#include <cctype>
#include <set>
#include <string>

#include "linking/linker.h"

namespace plainsql::features {

namespace {

using retrieval::Token;
using retrieval::TokenKind;
using WordSet = std::set<std::string_view>;

const WordSet kWh = {"what", "which", "who", "whom", "whose", "when", "where", "how", "why"};
const WordSet kPrepositions = {"in", "on", "at", "for", "from", "to", "of", "with", "by", "during", "under", "among"};
const WordSet kAuxiliaries = {"is",    "are", "was",  "were", "do",   "does",  "did",    "can",
                              "could", "has", "have", "had",  "will", "would", "should", "may"};
// Verbs that open a command ("List the names ...", "Show me ...", "Count the ...").
const WordSet kCommands = {"show",      "list",    "find",     "give",      "return",   "display",   "count",
                           "tell",      "get",     "provide",  "name",      "identify", "calculate", "compute",
                           "determine", "state",   "indicate", "report",    "select",   "retrieve",  "fetch",
                           "print",     "sort",    "order",    "rank",      "compare",  "enumerate", "output",
                           "locate",    "please",  "describe", "summarize", "obtain",   "check",     "look",
                           "search",    "mention", "specify",  "present"};
const WordSet kSubordinators = {"if",      "because", "although", "though", "while",
                                "whereas", "unless",  "until",    "whether"};
const WordSet kBe = {"is", "are", "was", "were", "be", "been", "being"};
// Past participles that do not end in -ed.
const WordSet kIrregularParticiples = {"born",  "made",  "written", "given", "taken", "held",  "built",  "sold",
                                       "shown", "known", "done",    "seen",  "won",   "paid",  "bought", "led",
                                       "sent",  "spent", "found",   "kept",  "run",   "drawn", "grown",  "chosen"};
const WordSet kVague = {"some", "several", "many", "few", "lots", "numerous", "various", "plenty"};
const WordSet kTemporal = {"recent", "recently", "latest",    "current",  "currently", "today",
                           "now",    "ago",      "yesterday", "nowadays", "presently"};
const WordSet kFirstPerson = {"me", "my", "we", "our", "us", "mine", "ours", "myself"};
const WordSet kRatio = {"percent",  "percentage",  "ratio",  "rate",  "proportion",
                        "fraction", "percentages", "ratios", "rates", "proportions"};
const WordSet kOrder = {"sorted",     "sort",         "ordered",        "order", "ascending",
                        "descending", "alphabetical", "alphabetically", "ranked"};
const WordSet kMonths = {"january", "february", "march",     "april",   "may",      "june",
                         "july",    "august",   "september", "october", "november", "december"};

bool IsWord(const Token& t) { return t.kind == TokenKind::kWord; }

bool Participle(const std::string& w) {
  return (w.size() > 4 && w.ends_with("ed")) || kIrregularParticiples.count(w) > 0;
}

// How the question opens: a wh-question (also after a preposition: "In which year"), a yes/no question, a command
// (also after "please"), or a polite request ("could you list").
struct Opening {
  bool wh = false, yes_no = false, command = false, polite = false;
};

Opening ReadOpening(const std::vector<Token>& t) {
  Opening o;
  if (t.empty()) return o;
  const std::string& w0 = t[0].lower;
  const std::string w1 = t.size() > 1 ? t[1].lower : "";
  const std::string w2 = t.size() > 2 ? t[2].lower : "";
  o.wh = kWh.count(w0) || (kPrepositions.count(w0) && kWh.count(w1));
  o.polite = (w0 == "could" || w0 == "would" || w0 == "can" || w0 == "will") && w1 == "you";
  o.yes_no = kAuxiliaries.count(w0) && !o.polite;
  o.command = kCommands.count(w0) || (w0 == "please" && kCommands.count(w1)) || (o.polite && kCommands.count(w2));
  if (w0 == "please") o.polite = true;
  return o;
}

// Sentences: a '.', '?' or '!' followed by a space and more words (a decimal point is followed by a digit).
bool SeveralSentences(std::string_view text) {
  for (size_t i = 0; i + 2 < text.size(); ++i) {
    char c = text[i];
    if ((c == '.' || c == '?' || c == '!') && std::isspace(static_cast<unsigned char>(text[i + 1]))) {
      size_t j = i + 1;
      while (j < text.size() && std::isspace(static_cast<unsigned char>(text[j]))) ++j;
      if (j < text.size() && std::isalnum(static_cast<unsigned char>(text[j]))) {
        // "St. Louis", "e.g. x": a period after a short capitalized or lower-case abbreviation is not an end.
        size_t k = i;
        while (k > 0 && std::isalpha(static_cast<unsigned char>(text[k - 1]))) --k;
        if (c == '.' && i - k <= 2 && i > k) continue;
        return true;
      }
    }
  }
  return false;
}

bool RelativeClause(const std::vector<Token>& t) {
  for (size_t i = 1; i < t.size(); ++i) {
    const std::string& w = t[i].lower;
    if ((w == "who" || w == "whom" || w == "whose" || w == "which") && !(i == 1 && kPrepositions.count(t[0].lower))) {
      return true;
    }
    // "that" followed by a verb form: "the products that were sold", "a store that has".
    if (w == "that" && i + 1 < t.size() &&
        (kAuxiliaries.count(t[i + 1].lower) || kBe.count(t[i + 1].lower) || Participle(t[i + 1].lower))) {
      return true;
    }
  }
  return false;
}

bool SubordinateClause(const std::vector<Token>& t) {
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string& w = t[i].lower;
    if (kSubordinators.count(w)) return true;
    // "when" / "where" inside the sentence open a clause ("the cities where ..."); "since" before a clause, not a
    // year ("since 2010" is a comparison).
    if (i > 0 && (w == "when" || w == "where") && !(i == 1 && kPrepositions.count(t[0].lower))) return true;
    if (w == "since" && i + 1 < t.size() && t[i + 1].kind == TokenKind::kWord) return true;
  }
  return false;
}

bool Passive(const std::vector<Token>& t) {
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    if (!kBe.count(t[i].lower)) continue;
    size_t j = i + 1;
    if (j + 1 < t.size() && t[j].lower.size() > 3 && t[j].lower.ends_with("ly")) ++j;  // "was first released"
    if (j + 1 < t.size() && (t[j].lower == "not" || t[j].lower == "first" || t[j].lower == "never")) ++j;
    if (IsWord(t[j]) && Participle(t[j].lower)) return true;
  }
  return false;
}

bool Range(const std::vector<Token>& t) {
  for (size_t i = 0; i + 3 < t.size(); ++i) {
    if (t[i].lower == "between") {
      for (size_t j = i + 2; j < t.size() && j <= i + 5; ++j) {
        if (t[j].lower == "and") return true;
      }
    }
    if (t[i].lower == "from" && t[i + 1].kind == TokenKind::kNumber && t[i + 2].lower == "to") return true;
  }
  return false;
}

bool WritesNumber(const std::vector<Token>& t) {
  for (const auto& tok : t) {
    if (tok.kind == TokenKind::kNumber) return true;
    // Number words, "one" aside ("the one who", "at least one" is read as a count cue already).
    if (IsWord(tok) && tok.lower != "one" && builtin::SmallNumber(tok)) return true;
  }
  return false;
}

bool WritesDate(std::string_view text, const std::vector<Token>& t) {
  if (linking::WritesYearOrDate(text)) return true;
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    if (kMonths.count(t[i].lower) && t[i + 1].kind == TokenKind::kNumber && t[i].lower != "may") return true;
  }
  return false;
}

bool Has(const std::vector<Token>& t, const WordSet& words) {
  for (const auto& tok : t) {
    if (IsWord(tok) && words.count(tok.lower)) return true;
  }
  return false;
}

bool HasPair(const std::vector<Token>& t, std::string_view a, std::string_view b) {
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i].lower == a && t[i + 1].lower == b) return true;
  }
  return false;
}

}  // namespace

void ReadQuestion(std::string_view question, const std::vector<Token>& tokens, const builtin::Intent& intent,
                  bool evidence, Values& values) {
  const Opening open = ReadOpening(tokens);
  size_t words = 0;
  bool quoted = false;
  for (const auto& t : tokens) {
    if (t.kind == TokenKind::kQuoted) quoted = true;
    ++words;
  }
  std::string_view trimmed = question;
  while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) trimmed.remove_suffix(1);
  bool count_cue = HasPair(tokens, "how", "many") || HasPair(tokens, "number", "of") ||
                   (!tokens.empty() && tokens[0].lower == "count");
  bool other_aggregate = false;
  for (const auto& a : intent.aggregates) {
    if (a.kind == builtin::Aggregate::kCount) {
      count_cue = true;
    } else {
      other_aggregate = true;
    }
  }
  Set(values, "q.wh_question", open.wh);
  Set(values, "q.yes_no_question", open.yes_no);
  Set(values, "q.imperative", open.command);
  Set(values, "q.statement", !open.wh && !open.yes_no && !open.command && !open.polite);
  Set(values, "q.question_mark", !trimmed.empty() && trimmed.back() == '?');
  Set(values, "q.several_sentences", SeveralSentences(trimmed));
  Set(values, "q.long", words > 20);
  Set(values, "q.how_many", count_cue);
  Set(values, "q.aggregate_word", other_aggregate);
  Set(values, "q.superlative", !intent.superlatives.empty());
  Set(values, "q.comparative", !intent.comparisons.empty());
  Set(values, "q.negation",
      !intent.negations.empty() || Has(tokens, {"except", "excluding"}) || HasPair(tokens, "other", "than") ||
          HasPair(tokens, "apart", "from"));
  Set(values, "q.number", WritesNumber(tokens));
  Set(values, "q.year_or_date", WritesDate(question, tokens));
  Set(values, "q.quoted", quoted);
  Set(values, "q.and", Has(tokens, {"and"}));
  Set(values, "q.or", Has(tokens, {"or"}));
  Set(values, "q.relative_clause", RelativeClause(tokens));
  Set(values, "q.subordinate_clause", SubordinateClause(tokens));
  Set(values, "q.passive", Passive(tokens));
  Set(values, "q.symbols", question.find_first_of("%<>=+$/") != std::string_view::npos);
  Set(values, "q.parenthetical", question.find('(') != std::string_view::npos);
  Set(values, "q.per_group", !intent.group_by.empty());
  Set(values, "q.order",
      intent.order_descending.has_value() || intent.order_token.has_value() || intent.order_verb.has_value() ||
          !intent.order_range.empty() || Has(tokens, kOrder));
  Set(values, "q.top_n", intent.limit.has_value());
  Set(values, "q.distinct_word", intent.distinct);
  Set(values, "q.ratio_word", Has(tokens, kRatio) || question.find('%') != std::string_view::npos);
  Set(values, "q.range", Range(tokens));
  Set(values, "q.short", words <= 9);
  Set(values, "q.medium_length", words > 12);
  Set(values, "q.over_16_words", words > 16);
  Set(values, "q.both",
      Has(tokens, {"both"}) || HasPair(tokens, "as", "well") || HasPair(tokens, "and", "also") ||
          HasPair(tokens, "but", "also"));
  Set(values, "q.contrast", Has(tokens, {"but", "however", "yet", "whereas"}));
  Set(values, "q.several_comparisons", intent.comparisons.size() >= 2);
  Set(values, "q.several_aggregates", intent.aggregates.size() >= 2);
  Set(values, "p.brief", words <= 6);
  Set(values, "p.polite",
      open.polite || Has(tokens, {"please"}) || HasPair(tokens, "would", "like") || HasPair(tokens, "i'd", "like"));
  bool vague = HasPair(tokens, "a", "lot");
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (kVague.count(tokens[i].lower) && !(tokens[i].lower == "many" && i > 0 && tokens[i - 1].lower == "how")) {
      vague = true;
    }
  }
  Set(values, "p.vague_quantity", vague);
  Set(values, "p.temporal_reference", Has(tokens, kTemporal));
  Set(values, "p.evidence", evidence);
  bool first_person = false;
  for (const auto& t : tokens) {
    // "US" in capitals is a country, "I" in capitals the pronoun.
    if (t.text == "I" || (kFirstPerson.count(t.lower) && t.text != "US")) first_person = true;
  }
  Set(values, "p.first_person", first_person);
}

}  // namespace plainsql::features
