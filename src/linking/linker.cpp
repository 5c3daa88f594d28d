// Schema linking (see linker.h).
#include "linking/linker.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "common/strings.h"
#include "linking/lexicon.h"
#include "naturalness/expander.h"
#include "naturalness/identifier.h"

namespace plainsql::linking {

using retrieval::IsStopWord;
using retrieval::SingularCandidates;

namespace {

// A name's lower-case letters and digits, its separators dropped ("NumGE1500" -> "numge1500").
std::string Squashed(std::string_view name) { return LowerAlnum(name); }

// A word in British spelling and its American form: -our / -or, -ise / -ize, -isation / -ization, -yse / -yze, -tre /
// -ter, -ogue / -og, -ence / -ense (both written as the American form, then compared).
bool SpellingVariants(std::string_view a, std::string_view b) {
  auto american = [](std::string w) {
    static const std::pair<std::string_view, std::string_view> kInside[] = {
        {"our", "or"}, {"isation", "ization"}, {"ise", "ize"}, {"yse", "yze"}};
    for (const auto& [from, to] : kInside) {
      if (const size_t at = w.find(from); at != std::string::npos && at > 0) w.replace(at, from.size(), to);
    }
    static const std::pair<std::string_view, std::string_view> kEnds[] = {
        {"tre", "ter"}, {"ogue", "og"}, {"ence", "ense"}};
    for (const auto& [from, to] : kEnds) {
      if (w.size() > from.size() + 2 && w.ends_with(from)) w.replace(w.size() - from.size(), from.size(), to);
    }
    return w;
  };
  return a != b && a.size() > 3 && b.size() > 3 && american(std::string(a)) == american(std::string(b));
}

// Whether "and" or "or" stands between tokens `from` and `to`.
bool SpansConjunction(const std::vector<Token>& tokens, size_t from, size_t to) {
  for (size_t i = from + 1; i < to; ++i) {
    if (tokens[i].lower == "and" || tokens[i].lower == "or") return true;
  }
  return false;
}

// Whether the question writes, between tokens `from` and `to`, the function words inside `name` that its phrase
// dropped, and no others ("active to date" for active_to_date, not active_from_date; "date of birth" for
// date_of_birth): then the reduced phrase matched the name whole as written. An article the name lacks may stand
// between ("date of the birth"). A name that also drops a leading or trailing function word ("Has_Pet") is left
// at its reduced weight.
bool WritesInnerFunctionWords(std::string_view name, const std::vector<Token>& tokens, size_t from, size_t to) {
  std::vector<std::string> words;
  for (auto w : naturalness::SplitWords(name)) words.push_back(ToLower(w));
  if (words.size() < 3 || IsStopWord(words.front()) || IsStopWord(words.back())) return false;
  std::vector<std::string_view> inner, written;
  for (const auto& w : words) {
    if (IsStopWord(w)) inner.push_back(w);
  }
  for (size_t i = from + 1; i < to; ++i) {
    const std::string& w = tokens[i].lower;
    if (tokens[i].kind == TokenKind::kWord && IsStopWord(w) && w != "the" && w != "a" && w != "an")
      written.push_back(w);
  }
  return !inner.empty() && inner == written;
}

// Whether `word` is all digits.
bool IsNumeral(std::string_view word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char ch) { return std::isdigit(ch); });
}

// Whether a name's stem is a word of time (the last word of "hire date", "opened year", "start time").
bool IsTimeWord(std::string_view stem) { return stem == "date" || stem == "year" || stem == "time" || stem == "day"; }

// Whether the question writes a year ("after 2020") or a date ("2002-06-21"), asks when, or orders by a time
// ("opened most recently", "hired first", "the earliest installed").
bool AsksForATime(const std::vector<Token>& tokens) {
  for (size_t i = 1; i < tokens.size(); ++i) {
    const std::string& w = tokens[i].lower;
    if ((w == "first" || w == "last") && tokens[i - 1].lower.ends_with("ed") &&
        (i + 1 == tokens.size() || tokens[i + 1].kind != TokenKind::kWord)) {
      return true;
    }
    // "hired each year", "created per month": counted per a unit of time.
    const std::string& before = tokens[i - 1].lower;
    if ((w == "year" || w == "month") && (before == "each" || before == "per" || before == "every")) return true;
  }
  return std::any_of(tokens.begin(), tokens.end(), [](const Token& t) {
    if (t.kind == TokenKind::kWord) {
      return t.lower == "when" || t.lower == "recently" || t.lower == "earliest" || t.lower == "latest";
    }
    if (t.kind != TokenKind::kNumber || t.lower.size() < 4) return false;
    const std::string_view year = std::string_view(t.lower).substr(0, 4);
    return (t.lower.size() == 4 || t.lower[4] == '-') && IsNumeral(year) && year >= "1800" && year <= "2100";
  });
}

// `s` with everything but its letters dropped.
std::string LettersOnly(std::string_view s) {
  std::string out;
  for (unsigned char ch : s) {
    if (std::isalpha(ch)) out.push_back(static_cast<char>(ch));
  }
  return out;
}

// The digits that end a name after a letter ("JKWGT3" -> "3", "street_2" -> "2"; "1500" alone -> "").
std::string TrailingNumber(std::string_view name) {
  size_t i = name.size();
  while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1]))) --i;
  if (i == name.size() || i == 0) return "";
  const bool after_letter = std::any_of(name.begin(), name.begin() + static_cast<std::ptrdiff_t>(i),
                                        [](unsigned char ch) { return std::isalpha(ch); });
  return after_letter ? std::string(name.substr(i)) : "";
}

// The weight of the phrase GluedToTable gives: below the whole name's, as a phrase without its function words.
constexpr double kGluedRemainderWeight = 0.9;

// Whether token `at` is a number equal to the numeral `digits` ("03" and "3" are equal).
bool FollowedByNumber(const std::vector<Token>& tokens, size_t at, std::string_view digits) {
  if (at >= tokens.size() || tokens[at].kind != TokenKind::kNumber) return false;
  auto trim = [](std::string_view d) {
    while (d.size() > 1 && d.front() == '0') d.remove_prefix(1);
    return d;
  };
  return IsNumeral(tokens[at].lower) && trim(tokens[at].lower) == trim(digits);
}

// The stems of a name's words. Function words are dropped ("date_of_birth" is matched as "date birth", as the
// question's stop words are skipped too), unless the name has nothing else.
std::vector<std::string> Stems(const std::vector<std::string_view>& words, Stemmer& stemmer, bool* reduced = nullptr) {
  std::vector<std::string> out, all;
  out.reserve(words.size());
  for (auto w : words) {
    std::string lower(w);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string stem = stemmer.Stem(lower);
    all.push_back(stem);
    if (!IsStopWord(lower)) out.push_back(std::move(stem));
  }
  if (reduced) *reduced = !out.empty() && out.size() < all.size();
  return out.empty() ? all : out;
}

// The phrases that name `name`, each with its weight: 1, or 0.9 when function words were dropped from it (so that
// "Has_Pet" read as "pet" loses a tie to "Pets"). `expanded`, when given, gets the expanded name.
std::vector<std::vector<std::string>> Phrases(const std::string& name, Stemmer& stemmer,
                                              const naturalness::Expander* expander, std::vector<double>& weights,
                                              std::string* expanded_name = nullptr) {
  std::vector<std::vector<std::string>> out;
  auto add = [&](std::vector<std::string> p, bool reduced) {
    std::erase_if(p, [](const std::string& s) { return s.empty(); });
    if (!p.empty() && std::find(out.begin(), out.end(), p) == out.end()) {
      out.push_back(std::move(p));
      weights.push_back(reduced ? 0.9 : 1.0);
    }
  };
  bool reduced = false;
  const auto words = naturalness::SplitWords(name);
  auto stems = Stems(words, stemmer, &reduced);
  add(std::move(stems), reduced);
  // "X of Y" is headed by X, as "Y X" is ("date_of_birth" is a birth date): the words after "of", then those before
  // it, so that X alone is the name's head word (Link) and "birth date" reads it whole.
  for (size_t i = 1; i + 1 < words.size(); ++i) {
    if (!EqualsIgnoreCase(words[i], "of")) continue;
    std::vector<std::string_view> swapped(words.begin() + static_cast<std::ptrdiff_t>(i) + 1, words.end());
    swapped.insert(swapped.end(), words.begin(), words.begin() + static_cast<std::ptrdiff_t>(i));
    add(Stems(swapped, stemmer), true);
    break;
  }
  if (expander) {
    naturalness::Expansion e = expander->Expand(name);
    auto expanded = Stems(naturalness::SplitWords(e.name), stemmer, &reduced);
    add(std::move(expanded), reduced);
    if (expanded_name) *expanded_name = std::move(e.name);
  }
  return out;
}

// A name's other names as WordNet has them (WordNet::NounSynonyms of its words and of its expansion's): "forename" and
// "given name" for first_name, "family name" and "surname" for last_name, "postcode" for zip_code. Left out: a single
// word that is one of the name's own words ("number" is a lemma of phone_number's synset), a one-word name's one-word
// synonyms (SchemaIndex's alternatives relate those), and a synonym holding all of the name's words ("industrial
// plant"). Weighted as a synonym alternative is, and matched whole only (Link).
void AddSynonymPhrases(const std::string& name, const std::string& expansion, const WordNet& wordnet, Stemmer& stemmer,
                       std::vector<std::vector<std::string>>& phrases, std::vector<double>& weights) {
  for (const std::string* source : {&name, &expansion}) {
    std::vector<std::string> words;
    for (auto w : naturalness::SplitWords(*source)) words.push_back(ToLower(w));
    for (const auto& synonym : wordnet.NounSynonyms(words)) {
      auto has = [&](const std::string& w) { return std::find(synonym.begin(), synonym.end(), w) != synonym.end(); };
      if (synonym.size() == 1 &&
          (words.size() == 1 || std::find(words.begin(), words.end(), synonym[0]) != words.end())) {
        continue;
      }
      if (std::all_of(words.begin(), words.end(), has)) continue;  // "industrial plant" for plant says no more
      std::vector<std::string_view> views(synonym.begin(), synonym.end());
      std::vector<std::string> stems = Stems(views, stemmer);
      if (std::find(phrases.begin(), phrases.end(), stems) != phrases.end()) continue;
      phrases.push_back(std::move(stems));
      weights.push_back(kSynonymPhraseWeight);
    }
  }
}

// The phrases of an element's aliases (catalog::Column::aliases), after its own and below them
// (kAliasPhraseWeight); a phrase the element has already is not added again.
void AddAliasPhrases(SchemaElement& e, const std::vector<std::string>& aliases, Stemmer& stemmer) {
  if (aliases.empty()) return;
  e.aliases_from = e.phrases.size();
  for (const auto& alias : aliases) {
    std::vector<double> w;
    auto ps = Phrases(alias, stemmer, nullptr, w);
    for (size_t i = 0; i < ps.size(); ++i) {
      if (std::find(e.phrases.begin(), e.phrases.end(), ps[i]) != e.phrases.end()) continue;
      e.phrases.push_back(std::move(ps[i]));
      e.weights.push_back(w[i] * kAliasPhraseWeight);
    }
  }
}

}  // namespace

std::string NameInDescription(std::string_view description) {
  static const std::set<std::string, std::less<>> kClauseWords = {
      "where", "which", "who", "whom", "whose", "that", "when", "if", "is", "are", "was", "were", "be", "has", "have"};
  size_t end = std::min(description.size(), description.find_first_of(":;,.(\n"));
  if (const size_t dash = description.find(" - "); dash < end) end = dash;
  std::vector<std::string> words;
  for (const auto& w : Split(std::string(Trim(description.substr(0, end))), ' ')) {
    if (!w.empty()) words.push_back(ToLower(w));
  }
  while (!words.empty() && (words.front() == "the" || words.front() == "a" || words.front() == "an")) {
    words.erase(words.begin());
  }
  const auto content = std::count_if(words.begin(), words.end(), [](const std::string& w) { return !IsStopWord(w); });
  const bool named =
      content > 0 && content <= 5 && std::isalpha(static_cast<unsigned char>(words[0][0])) &&
      std::none_of(words.begin(), words.end(), [](const std::string& w) { return kClauseWords.count(w); });
  return named ? Join(words, " ") : "";
}

std::string GluedToTable(std::string_view table, std::string_view column) {
  // Called for every column of a schema: the cheap test of the table's letters first, the splitter last.
  const std::string c = ToLower(column);
  // The longest of the prefixes that may stand for the table: its letters, all but one of them, or one of its words.
  size_t prefix = 0;
  const std::string t = ToLower(LettersOnly(table));
  for (size_t n = std::min(t.size(), c.size()); n >= 3 && n + 1 >= t.size(); --n) {
    if (t.find(std::string_view(c).substr(0, n)) != std::string::npos) {
      prefix = n;
      break;
    }
  }
  for (auto w : naturalness::SplitWords(table)) {
    if (w.size() >= 3 && w.size() > prefix && c.starts_with(ToLower(w))) prefix = w.size();
  }
  if (prefix == 0) return "";
  std::string_view rest = std::string_view(column).substr(prefix);
  const bool letters = std::all_of(rest.begin(), rest.end(), [](unsigned char ch) { return std::isalpha(ch); });
  if (rest.size() < 3 || !letters || naturalness::SplitWords(column).size() != 1) return "";
  return std::string(rest);
}

namespace {

// What a table's one-column primary key says a row is, its key words left out ("StuID" -> "Stu", "CardCode" -> "Card"),
// when the table's name says nothing: no word of it (of three letters or more) is one WordNet relates to anything
// ("OCRD", "OTPZ"; not "Visitors", whose key "Tourist_ID" names what a visitor is, not the table). "" otherwise. A
// row's key names the table in the schemas that abbreviate table names hardest: on abbreviated copies of the held-out
// Spider train databases it won 33 questions and lost 7 (docs/BENCHMARKS.md, #18 thirty-third part).
std::string KeyNamesTable(const catalog::Table& t, const WordNet& wordnet) {
  if (t.primary_key.size() != 1) return "";
  static const std::set<std::string, std::less<>> kKeyWords = {"id", "code", "no", "num", "number", "key", "nr", "cd"};
  std::string out;
  for (auto w : naturalness::SplitWords(t.primary_key[0])) {
    if (kKeyWords.count(ToLower(w))) continue;
    if (!out.empty()) out += ' ';
    out += w;
  }
  if (Squashed(out).size() < 3 || Squashed(out) == Squashed(t.name)) return "";
  for (auto w : naturalness::SplitWords(t.name)) {
    if (w.size() >= 3 && !wordnet.Related(ToLower(w)).empty()) return "";
  }
  return out;
}

// A yes/no column is named by its quality alone: "certified" for is_certified, "critical" for CRIT_FLG. Adds to a
// column's phrases each one without its flag words.
void AddQualityPhrases(std::vector<std::vector<std::string>>& phrases, std::vector<double>& weights) {
  static const std::set<std::string, std::less<>> kFlagWords = {"is",    "has",       "flag", "flg",  "ind",
                                                                "indic", "indicator", "yn",   "bool", "boolean"};
  for (size_t i = 0, n = phrases.size(); i < n; ++i) {
    std::vector<std::string> quality;
    for (const auto& w : phrases[i]) {
      if (!kFlagWords.count(w)) quality.push_back(w);
    }
    if (!quality.empty() && quality.size() < phrases[i].size() &&
        std::find(phrases.begin(), phrases.end(), quality) == phrases.end()) {
      phrases.push_back(std::move(quality));
      weights.push_back(1.0);
    }
  }
}

// A table whose name ends in a word that says only that it holds something ("festival_detail", "customer_info",
// "sensor_data") is named by the words before it too: "festivals" names festival_detail. Each such phrase without its
// last word is added, as a name with a word dropped is (0.9). Tables only: a column "product_details" is not the
// product.
void AddGenericHeadPhrases(SchemaElement& e, Stemmer& stemmer) {
  static const std::set<std::string> kGeneric = [&] {
    std::set<std::string> out;
    for (const char* w : {"detail", "details", "info", "information", "data"}) out.insert(stemmer.Stem(w));
    return out;
  }();
  for (size_t i = 0, n = e.phrases.size(); i < n && i < e.aliases_from; ++i) {
    if (e.phrases[i].size() < 2 || !kGeneric.count(e.phrases[i].back())) continue;
    std::vector<std::string> head(e.phrases[i].begin(), e.phrases[i].end() - 1);
    if (std::find(e.phrases.begin(), e.phrases.end(), head) != e.phrases.end()) continue;
    e.phrases.push_back(std::move(head));
    e.weights.push_back(0.9);
  }
}

// An element's other names the catalog gives: its aliases (a crosswalk's other readings), a readable name a benchmark's
// schema file or a data dictionary gives (Column::label), and what its description calls it (a comment or a data
// dictionary's description: NameInDescription): a DBA's dictionary so lets the linker read TB_MO as maintenance orders.
// A column's description names it beside its table ("Description of the equipment", "Creation date of the maintenance
// order"): the words its table's names already have (`table_stems`) are left out, so that the table's own word still
// names the table and not each of its columns.
std::vector<std::string> OtherNames(const std::vector<std::string>& aliases, const std::string& name,
                                    const std::string& label, const std::string& comment, Stemmer& stemmer,
                                    const std::set<std::string>& table_stems) {
  std::vector<std::string> out = aliases;
  auto add = [&](const std::string& other) {
    if (other.empty() || EqualsIgnoreCase(LettersOnly(other), LettersOnly(name))) return;
    if (std::find(out.begin(), out.end(), other) == out.end()) out.push_back(other);
  };
  add(label);
  std::vector<std::string> words;
  for (const auto& w : Split(NameInDescription(comment), ' ')) {
    if (!w.empty()) words.push_back(w);
  }
  std::erase_if(words, [&](const std::string& w) { return table_stems.count(stemmer.Stem(w)) > 0; });
  while (!words.empty() && IsStopWord(words.back())) words.pop_back();
  while (!words.empty() && IsStopWord(words.front())) words.erase(words.begin());
  add(Join(words, " "));
  // "Final confirmation flag": what is flagged names the column too, as AddQualityPhrases reads a yes/no name.
  if (words.size() > 1 && (words.back() == "flag" || words.back() == "indicator")) {
    words.pop_back();
    add(Join(words, " "));
  }
  return out;
}

// A view's column that shows a base column as stored is another name of it: open_orders.equipment names
// TB_EQUIP.EQ_DESC, so "the equipment made by Siemens" can read the table the view leaves the manufacturer out of.
// (table, column) -> the names of the view columns that show it under another name.
std::map<std::pair<std::string, std::string>, std::vector<std::string>> NamesOfViewColumns(
    const catalog::ViewSourceMap& sources) {
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> out;
  for (const auto& [view_column, base] : sources) {
    if (!EqualsIgnoreCase(view_column.second, base.second)) out[base].push_back(view_column.second);
  }
  return out;
}

}  // namespace

SchemaIndex::SchemaIndex(const catalog::Schema& schema, Stemmer& stemmer, const naturalness::Expander* expander,
                         const WordNet* wordnet, NameDerivations* derived, const Lexicon* lexicon)
    : wordnet_(wordnet) {
  std::set<std::string> words;  // the lower-case words of names and expansions, for WordNet
  std::vector<double> weights;
  // A name's phrases, once per distinct name: a large schema repeats its column names (id, name, the same key in every
  // table), and expanding a name is most of the cost of building the index.
  NameDerivations own;
  NameDerivations& d = derived ? *derived : own;
  const bool given = d.complete;  // then `d` is only read (another thread may read it too)
  std::unordered_map<std::string, NameDerivations::Name> missing;  // names a given derivation lacks
  auto phrases = [&](const std::string& name) {
    if (given) {
      if (auto it = d.names.find(name); it != d.names.end()) {
        weights = it->second.weights;
        return it->second.phrases;
      }
    }
    auto [it, fresh] = (given ? missing : d.names).try_emplace(name);
    if (fresh) {
      it->second.phrases = Phrases(name, stemmer, expander, it->second.weights, &it->second.expansion);
      if (wordnet) {
        AddSynonymPhrases(name, it->second.expansion, *wordnet, stemmer, it->second.phrases, it->second.weights);
      }
      if (wordnet && !given) {
        for (auto w : naturalness::SplitWords(name)) words.insert(ToLower(w));
        for (auto w : naturalness::SplitWords(it->second.expansion)) words.insert(ToLower(w));
      }
    }
    weights = it->second.weights;
    return it->second.phrases;
  };
  elements_.reserve(schema.tables.size() + schema.ColumnCount());
  // Views yield to the tables they repeat (see below); in a schema of views alone (a companion database's natural
  // views) there is nothing to yield to.
  const bool has_tables = std::any_of(schema.tables.begin(), schema.tables.end(),
                                      [](const catalog::Table& t) { return t.kind == catalog::TableKind::kTable; });
  view_sources_ = catalog::ViewSources(schema);
  const auto shown_as = NamesOfViewColumns(view_sources_);
  for (const auto& t : schema.tables) {
    const bool view = has_tables && t.kind == catalog::TableKind::kView;
    const auto table_index = static_cast<uint32_t>(&t - schema.tables.data());
    element_place_.emplace_back(table_index, -1);
    elements_.push_back({t.name, "", phrases(t.name), view, weights});
    AddGenericHeadPhrases(elements_.back(), stemmer);
    AddAliasPhrases(elements_.back(), OtherNames(t.aliases, t.name, "", t.comment, stemmer, {}), stemmer);
    std::set<std::string> table_stems;  // the words the table's names have, for its columns' descriptions
    for (const auto& p : elements_.back().phrases) table_stems.insert(p.begin(), p.end());
    // A table whose name says nothing (an ERP's "OCRD") is also named by what its key says a row is.
    if (const std::string named = wordnet ? KeyNamesTable(t, *wordnet) : ""; !named.empty()) {
      auto ps = phrases(named);
      auto& el = elements_.back();
      if (el.aliases_from == SIZE_MAX) el.aliases_from = el.phrases.size();
      for (size_t i = 0; i < ps.size(); ++i) {
        if (std::find(el.phrases.begin(), el.phrases.end(), ps[i]) != el.phrases.end()) continue;
        el.phrases.push_back(std::move(ps[i]));
        el.weights.push_back(weights[i] * kAliasPhraseWeight);
      }
    }
    for (const auto& c : t.columns) {
      auto ps = phrases(c.name);
      // A column named after its table with a word glued on is named by that word too: a question need not say the
      // table ("the plane of impact" for CDC.CDCPLANE).
      if (const std::string rest = GluedToTable(t.name, c.name); !rest.empty()) {
        std::vector<double> w = std::move(weights);
        for (auto& p : phrases(rest)) {
          if (std::find(ps.begin(), ps.end(), p) != ps.end()) continue;
          vocabulary_.insert(p.begin(), p.end());  // the loop below reads one column of each name only
          ps.push_back(std::move(p));
          w.push_back(kGluedRemainderWeight);
        }
        weights = std::move(w);
      }
      if (c.type_class == catalog::TypeClass::kBoolean) AddQualityPhrases(ps, weights);
      element_place_.emplace_back(table_index, static_cast<int32_t>(&c - t.columns.data()));
      elements_.push_back({t.name, c.name, std::move(ps), view, weights});
      elements_.back().key = t.primary_key.size() == 1 && EqualsIgnoreCase(t.primary_key.front(), c.name);
      std::vector<std::string> aliases = OtherNames(c.aliases, c.name, c.label, c.comment, stemmer, table_stems);
      if (auto it = shown_as.find({t.name, c.name}); it != shown_as.end()) {
        aliases.insert(aliases.end(), it->second.begin(), it->second.end());
      }
      AddAliasPhrases(elements_.back(), aliases, stemmer);
    }
  }
  // What follows derives from a name alone: once per distinct name, in the order of first appearance (a large schema
  // repeats its names: the same key and "name" columns in every table).
  std::vector<std::string_view> distinct;
  std::unordered_set<std::string_view> seen;
  for (size_t e = 0; e < elements_.size(); ++e) {
    const std::string& name = elements_[e].column.empty() ? elements_[e].table : elements_[e].column;
    if (!seen.insert(name).second) continue;
    distinct.push_back(name);
    // A yes/no column's added phrase has only words of the name's phrases; a glued column's is added above. A WordNet
    // synonym's words are no schema words: "family" keeps its own relations though "family name" names last_name.
    const auto& el = elements_[e];
    for (size_t p = 0; p < el.phrases.size(); ++p) {
      if (!IsSynonymPhrase(el, p) && p < el.aliases_from) {
        vocabulary_.insert(el.phrases[p].begin(), el.phrases[p].end());
      }
    }
  }
  // Names with a word that is no dictionary word for the expander (see CrypticLetters), and those words' stems.
  std::unordered_set<std::string_view> cryptic_names;
  std::unordered_map<std::string_view, std::vector<uint32_t>> name_cryptic_words;  // names of two words or more
  if (expander) {
    std::unordered_map<std::string, uint32_t> word_ids;
    for (std::string_view name : distinct) {
      const auto split = naturalness::SplitWords(name);
      for (auto w : split) {
        const std::string lower = ToLower(w);
        if (lower.size() < 2 || IsStopWord(lower)) continue;
        if (expander->IsWord(lower)) {
          if (lower.size() >= 3 && lower.size() <= 6 &&
              std::all_of(lower.begin(), lower.end(), [](unsigned char ch) { return std::isalpha(ch); })) {
            short_words_.try_emplace(lower, stemmer.Stem(lower));
          }
          continue;
        }
        cryptic_names.insert(name);
        if (!std::all_of(lower.begin(), lower.end(), [](unsigned char ch) { return std::isalpha(ch); })) continue;
        cryptic_.emplace(stemmer.Stem(lower), lower);
        if (split.size() < 2 || lower.size() < 3 || lower.size() > 24) continue;
        auto [it, fresh] = word_ids.try_emplace(lower, static_cast<uint32_t>(cryptic_words_.size()));
        if (fresh) cryptic_words_.push_back(lower);
        name_cryptic_words[name].push_back(it->second);
      }
    }
    cryptic_word_elements_.resize(cryptic_words_.size());
  }
  // Per distinct name: its letters for abbreviation matches, and, for a name of two words or more, its squashed form
  // for identifier matches.
  struct NameForms {
    uint32_t letters = UINT32_MAX;
    std::string squashed;  // "" when too short to match
    size_t words = 0;
  };
  std::unordered_map<std::string_view, NameForms> forms;
  std::unordered_map<std::string, uint32_t> letter_ids;
  for (std::string_view name : distinct) {
    NameForms& f = forms[name];
    std::string squashed = Squashed(name);
    const std::string letters = LettersOnly(squashed);
    // Longer: not a few words abbreviated; three letters are read as an acronym only (AcronymSpans).
    if (letters.size() >= 3 && letters.size() <= 24) {
      auto [it, fresh] = letter_ids.try_emplace(letters, static_cast<uint32_t>(letters_.size()));
      if (fresh) {
        letters_.push_back(letters);
        letters_cryptic_.push_back(false);
      }
      f.letters = it->second;
      // Another name with the same letters may make them cryptic.
      if (cryptic_names.count(name)) letters_cryptic_[it->second] = true;
    }
    // Two characters only with a number: "q1" written "Q1" (a two-letter word is too often something else).
    const bool has_digit =
        std::any_of(squashed.begin(), squashed.end(), [](unsigned char ch) { return std::isdigit(ch); });
    f.words = naturalness::SplitWords(name).size();
    // A one-word name is matched as written already.
    if (squashed.size() >= (has_digit ? 2U : 3U) && f.words >= 2) f.squashed = std::move(squashed);
  }
  element_letters_.reserve(elements_.size());
  for (size_t e = 0; e < elements_.size(); ++e) {
    const std::string& name = elements_[e].column.empty() ? elements_[e].table : elements_[e].column;
    const NameForms& f = forms.at(name);
    element_letters_.push_back(f.letters);
    if (auto it = name_cryptic_words.find(name); it != name_cryptic_words.end()) {
      for (uint32_t id : it->second) cryptic_word_elements_[id].push_back(static_cast<uint32_t>(e));
    }
    if (f.squashed.empty()) continue;
    auto& entry = squashed_[f.squashed];
    entry.first = std::max(entry.first, f.words);
    entry.second.push_back(static_cast<uint32_t>(e));
  }
  if (given) {
    related_ = d.related;
    IndexWrittenStems();
    return;
  }
  d.complete = true;
  if (wordnet) AddRelated(*wordnet, words, stemmer);
  AddLearned(lexicon ? *lexicon : Lexicon::Active());
  d.related = related_;
  IndexWrittenStems();
}

void SchemaIndex::IndexWrittenStems() {
  for (const auto& [stem, alts] : related_) {
    if (std::any_of(alts.begin(), alts.end(), [](const Alternative& a) { return a.written; })) written_in_[stem];
  }
  if (!short_words_.empty()) {
    for (const auto& stem : vocabulary_) {
      for (size_t n = 3; n <= 6 && n < stem.size(); ++n) {
        auto it = short_words_.find(stem.substr(0, n));
        if (it != short_words_.end() && it->second != stem) {
          truncated_in_[stem];
          break;
        }
      }
    }
  }
  if (written_in_.empty() && truncated_in_.empty()) return;
  for (size_t e = 0; e < elements_.size(); ++e) {
    const auto& el = elements_[e];
    for (size_t p = 0; p < el.phrases.size() && p < el.aliases_from; ++p) {
      if (IsSynonymPhrase(el, p)) continue;
      for (const auto& stem : el.phrases[p]) {
        const uint32_t table = TableOf(e);
        for (auto* in : {&written_in_, &truncated_in_}) {
          // A truncation yields only to a name that is the word alone: `Store_Name` beside `Nam` says nothing.
          if (in == &truncated_in_ && el.phrases[p].size() != 1) continue;
          auto it = in->find(stem);
          if (it == in->end()) continue;
          if (it->second.empty() || it->second.back() != table) it->second.push_back(table);
        }
      }
    }
  }
}

const std::string* SchemaIndex::ShortWordStem(std::string_view prefix) const {
  auto it = short_words_.find(std::string(prefix));
  return it == short_words_.end() ? nullptr : &it->second;
}

const std::vector<uint32_t>* SchemaIndex::TablesWritingTruncated(const std::string& stem) const {
  auto it = truncated_in_.find(stem);
  return it == truncated_in_.end() ? nullptr : &it->second;
}

const std::vector<uint32_t>* SchemaIndex::TablesWriting(const std::string& stem) const {
  auto it = written_in_.find(stem);
  return it == written_in_.end() ? nullptr : &it->second;
}

void SchemaIndex::AddLearned(const Lexicon& lexicon) {
  // A learned pair never replaces a WordNet relation that weighs more; one for a question word the schema writes is a
  // written alternative (Alternative::written), read only where Link is asked to.
  for (const auto& schema_stem : vocabulary_) {
    for (const LexiconEntry* e : lexicon.ForSchemaStem(schema_stem)) {
      const bool written = vocabulary_.count(e->question_stem) > 0;
      auto& alts = related_[e->question_stem];
      auto it = std::find_if(alts.begin(), alts.end(), [&](const Alternative& a) {
        return a.schema_stem == schema_stem && a.written == written;
      });
      if (it == alts.end()) {
        alts.push_back({schema_stem, Lexicon::kWeight, Relation::kLearned, written});
      } else if (it->weight < Lexicon::kWeight) {
        *it = {schema_stem, Lexicon::kWeight, Relation::kLearned, written};
      }
    }
  }
}

void SchemaIndex::AddRelated(const WordNet& wordnet, const std::set<std::string>& words, Stemmer& stemmer) {
  for (const auto& w : words) {
    // Digits and one- or two-letter words ("id", "no") relate to too much.
    if (w.size() < 3 || !std::all_of(w.begin(), w.end(), [](unsigned char c) { return std::isalpha(c) != 0; })) {
      continue;
    }
    std::string schema_stem = stemmer.Stem(w);
    for (const auto& r : wordnet.Related(w)) {
      std::string stem = stemmer.Stem(r.word);
      // A word the schema writes names what it names, except as the more general word for a schema word ("name" for a
      // title: WordNet's hypernym of "title"), which the linker weighs below any name written out: its other relatives
      // are written alternatives (Alternative::written), read only where Link is asked to.
      const bool general = r.relation == Relation::kHypernym;
      if (stem == schema_stem || IsStopWord(r.word)) continue;
      const bool written = vocabulary_.count(stem) && !general;
      double weight = r.relation == Relation::kSynonym ? 0.85 : r.relation == Relation::kDerived ? 0.75 : 0.7;
      // The same word in the other spelling ("colour" for "color") is the word as written.
      if (r.relation == Relation::kSynonym && SpellingVariants(w, ToLower(r.word))) weight = 1.0;
      // A written alternative is kept beside an unwritten one of the same schema word, never in its place.
      auto& alts = related_[stem];
      auto it = std::find_if(alts.begin(), alts.end(), [&](const Alternative& a) {
        return a.schema_stem == schema_stem && a.written == written;
      });
      if (it == alts.end()) {
        alts.push_back({schema_stem, weight, r.relation, written});
      } else if (it->weight < weight) {
        *it = {schema_stem, weight, r.relation, written};
      }
    }
  }
}

namespace {
constexpr int kNameDerivationsVersion = 9;  // bump when what SchemaIndex derives from a name changes
}  // namespace

nlohmann::json NameDerivations::ToJson() const {
  nlohmann::json j = {{"plainsql_name_derivations", kNameDerivationsVersion}};
  nlohmann::json& n = j["names"] = nlohmann::json::object();
  for (const auto& [name, d] : names) n[name] = {{"p", d.phrases}, {"w", d.weights}, {"e", d.expansion}};
  nlohmann::json& r = j["related"] = nlohmann::json::object();
  for (const auto& [stem, alts] : related) {
    nlohmann::json& a = r[stem] = nlohmann::json::array();
    for (const auto& alt : alts) {
      a.push_back({alt.schema_stem, alt.weight, static_cast<int>(alt.relation), alt.written});
    }
  }
  return j;
}

std::optional<NameDerivations> NameDerivations::FromJson(const nlohmann::json& j) {
  try {
    if (!j.is_object() || j.value("plainsql_name_derivations", 0) != kNameDerivationsVersion) return std::nullopt;
    NameDerivations out;
    for (const auto& [name, d] : j.at("names").items()) {
      Name& n = out.names[name];
      d.at("p").get_to(n.phrases);
      d.at("w").get_to(n.weights);
      d.at("e").get_to(n.expansion);
      if (n.weights.size() != n.phrases.size()) return std::nullopt;
    }
    for (const auto& [stem, alts] : j.at("related").items()) {
      auto& list = out.related[stem];
      for (const auto& a : alts) {
        const int relation = a.at(2).get<int>();
        if (relation < 0 || relation > static_cast<int>(Relation::kLearned)) return std::nullopt;
        list.push_back(
            {a.at(0).get<std::string>(), a.at(1).get<double>(), static_cast<Relation>(relation), a.at(3).get<bool>()});
      }
    }
    out.complete = true;
    return out;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

const std::pair<size_t, std::vector<uint32_t>>* SchemaIndex::WrittenAs(const std::string& squashed) const {
  auto it = squashed_.find(squashed);
  return it == squashed_.end() ? nullptr : &it->second;
}

const std::vector<Alternative>& SchemaIndex::AlternativesFor(const std::string& stem) const {
  static const std::vector<Alternative> kNone;
  auto it = related_.find(stem);
  return it == related_.end() ? kNone : it->second;
}

namespace {

// Whether letters[from..] splits into pieces abbreviating words[at], words[at + 1], ... and ends with words[end - 1]
// for some end; pieces of `min_piece` to `max_piece` letters. Returns the end, or 0. `memo` ((letters + 1) × (words +
// 1) entries, -1 unknown) keeps each (from, at) answer: without it a name of repeated letters against repeated words
// would take exponential time.
size_t SegmentFrom(std::string_view letters, size_t from, const std::vector<std::string>& words, size_t at,
                   size_t min_piece, size_t max_piece, std::vector<int>& memo) {
  if (from == letters.size()) return at;
  if (at >= words.size()) return 0;
  int& known = memo[from * (words.size() + 1) + at];
  if (known >= 0) return static_cast<size_t>(known);
  known = 0;
  const size_t longest = std::min(max_piece, letters.size() - from);
  // Longer pieces first: "lightcond" is "light" + "cond", not "l" + ...
  for (size_t len = longest; len >= min_piece && len > 0; --len) {
    if (!Abbreviates(letters.substr(from, len), words[at])) continue;
    if (size_t end = SegmentFrom(letters, from + len, words, at + 1, min_piece, max_piece, memo)) {
      known = static_cast<int>(end);
      break;
    }
  }
  return static_cast<size_t>(known);
}

}  // namespace

std::vector<std::pair<size_t, size_t>> AbbreviatedSpans(std::string_view letters,
                                                        const std::vector<std::string>& words) {
  std::vector<std::pair<size_t, size_t>> out;
  if (letters.empty()) return out;
  const size_t states = (letters.size() + 1) * (words.size() + 1);
  std::vector<int> pieces(states, -1), initials(states, -1);  // memos: pieces of 2+ letters, of 1 letter
  for (size_t begin = 0; begin + 1 < words.size(); ++begin) {
    if (words[begin].empty() || words[begin][0] != letters[0]) continue;
    // The first piece leaves at least one more (two words at least), longest first.
    size_t end = 0;
    for (size_t len = letters.size() >= 4 ? letters.size() - 2 : 0; len >= 2 && end == 0; --len) {
      if (Abbreviates(letters.substr(0, len), words[begin])) {
        end = SegmentFrom(letters, len, words, begin + 1, 2, letters.size(), pieces);
      }
    }
    if (end >= begin + 2) {
      out.emplace_back(begin, end);
    } else if (letters.size() >= 3 && begin + letters.size() <= words.size() &&
               SegmentFrom(letters, 0, words, begin, 1, 1, initials) == begin + letters.size()) {
      out.emplace_back(begin, begin + letters.size());  // an acronym
    }
  }
  return out;
}

std::vector<size_t> ScatteredAbbreviation(std::string_view letters, const std::vector<std::string>& words) {
  const size_t n = letters.size(), k = std::min<size_t>(words.size(), 64);  // a bit per word used
  if (n < 4 || k < 2) return {};
  // reach[i * k + w]: the most letters from i a piece abbreviating word w may take (every shorter piece of two or more
  // letters from i abbreviates it too: dropping a piece's last letters keeps the rest in order).
  std::vector<uint8_t> reach(n * k, 0);
  bool any = false;
  for (size_t w = 0; w < k; ++w) {
    const std::string& word = words[w];
    for (size_t i = 0; i + 1 < n && !word.empty(); ++i) {
      if (letters[i] != word[0]) continue;
      size_t len = 1, at = 1;
      while (i + len < n && at < word.size()) {
        at = word.find(letters[i + len], at);
        if (at == std::string::npos) break;
        ++at;
        ++len;
      }
      if (len >= 2) reach[i * k + w] = static_cast<uint8_t>(std::min<size_t>(len, 255));
      any |= i == 0 && len >= 2;
    }
  }
  if (!any) return {};
  // Depth-first, longest pieces first; (position, words used) states known to fail are kept, and the search gives up
  // after a bounded number of steps (a name of repeated letters against many words).
  std::set<std::pair<size_t, uint64_t>> failed;
  std::vector<size_t> path;
  size_t steps = 0;
  std::function<bool(size_t, uint64_t)> from = [&](size_t i, uint64_t used) -> bool {
    if (i == n) return path.size() >= 2;
    if (++steps > 4096 || failed.count({i, used})) return false;
    for (size_t len = n - i; len >= 2; --len) {
      for (size_t w = 0; w < k; ++w) {
        if ((used >> w & 1U) || reach[i * k + w] < len) continue;
        path.push_back(w);
        if (from(i + len, used | (uint64_t{1} << w))) return true;
        path.pop_back();
      }
    }
    failed.insert({i, used});
    return false;
  };
  return from(0, 0) ? path : std::vector<size_t>{};
}

namespace {

// AcronymSpans' search over one question's words, reused for every name: the best ways to read letters[i..] from
// word w on, kept per (i, w) and stamped with the name they belong to, so that a name costs only the states it reaches.
class AcronymFinder {
 public:
  AcronymFinder(const std::vector<std::string>& words, const std::vector<bool>& stop) : words_(words), stop_(stop) {}

  std::vector<std::pair<size_t, size_t>> Spans(std::string_view letters) {
    std::vector<std::pair<size_t, size_t>> out;
    if (letters.size() < 3 || words_.empty()) return out;
    letters_ = letters;
    ++stamp_;
    memo_.resize(std::max(memo_.size(), letters.size() * words_.size()));
    for (size_t begin = 0; begin < words_.size(); ++begin) {
      if (stop_[begin]) continue;
      const State& s = From(0, begin);
      // Two content words with pieces of two letters or more, or, when one gives a letter only, three pieces or more
      // of which two content words ("dob" for "date of birth").
      const bool initials = s.initials.content >= 2 && s.initials.read >= 3, pieces = s.pieces.content >= 2;
      if (initials && (!pieces || s.initials.content > s.pieces.content)) {
        out.emplace_back(begin, s.initials.end);
      } else if (pieces) {
        out.emplace_back(begin, s.pieces.end);
      }
    }
    return out;
  }

 private:
  struct Best {
    int content = -1;  // the most content words of a reading (-1: none)
    int read = 0;      // its words read, function words included
    size_t end = 0;    // the word after its last
  };
  struct State {
    uint64_t stamp = 0;
    Best pieces;    // readings whose content words give two letters or more each
    Best initials;  // readings with a content word giving one letter
  };

  // The readings of letters_[i..] whose first piece abbreviates word w.
  const State& From(size_t i, size_t w) {
    State& s = memo_[i * words_.size() + w];
    if (s.stamp == stamp_) return s;
    s = State{stamp_, {}, {}};
    const std::string& word = words_[w];
    if (word.empty() || word[0] != letters_[i]) return s;
    const bool function_word = stop_[w];
    auto offer = [&](bool initial, int content, int read, size_t end) {
      Best& b = initial ? s.initials : s.pieces;
      if (content > b.content || (content == b.content && read > b.read)) b = {content, read, end};
    };
    const size_t longest = function_word ? 1 : std::min(letters_.size() - i, word.size());
    // A piece that fails makes every longer piece fail too (its letters are a prefix of theirs).
    for (size_t len = 1; len <= longest && Abbreviates(letters_.substr(i, len), word); ++len) {
      const bool initial = len == 1 && !function_word;
      const int here = function_word ? 0 : 1;
      if (i + len == letters_.size()) {
        if (!function_word) offer(initial, here, 1, w + 1);  // a span ends with a content word
        continue;
      }
      // The next word, or the one after up to two function words left out ("diameter at breast height").
      for (size_t next = w + 1, skipped = 0; next < words_.size(); ++next) {
        const State& rest = From(i + len, next);
        if (rest.pieces.content >= 0) offer(initial, here + rest.pieces.content, 1 + rest.pieces.read, rest.pieces.end);
        if (rest.initials.content >= 0)
          offer(true, here + rest.initials.content, 1 + rest.initials.read, rest.initials.end);
        if (!stop_[next] || ++skipped > 2) break;
      }
    }
    return s;
  }

  const std::vector<std::string>& words_;
  const std::vector<bool>& stop_;
  std::string_view letters_;
  uint64_t stamp_ = 0;
  std::vector<State> memo_;
};

}  // namespace

std::vector<std::pair<size_t, size_t>> AcronymSpans(std::string_view letters, const std::vector<std::string>& words,
                                                    const std::vector<bool>& stop) {
  AcronymFinder finder(words, stop);
  return finder.Spans(letters);
}

std::vector<size_t> InitialAndWord(std::string_view letters, const std::vector<std::string>& words) {
  std::vector<size_t> starts;
  if (letters.size() < 4) return starts;
  const std::string_view word = letters.substr(1);
  for (size_t b = 0; b + 1 < words.size(); ++b) {
    if (words[b].empty() || words[b][0] != letters[0]) continue;
    const std::string& next = words[b + 1];
    if (next == word || (next.size() == word.size() + 1 && next.back() == 's' && next.starts_with(word)))
      starts.push_back(b);
  }
  return starts;
}

const std::string* SchemaIndex::CrypticWord(const std::string& stem) const {
  auto it = cryptic_.find(stem);
  return it == cryptic_.end() ? nullptr : &it->second;
}

namespace {

// Link's abbreviation matches (LinkOptions::abbreviations and scattered_abbreviations), appended to `out`.
void AbbreviationMatches(const SchemaIndex& index, const std::vector<Token>& tokens, const std::vector<size_t>& content,
                         bool scattered, std::vector<LinkMatch>& out) {
  const auto& elements = index.Elements();
  // Each distinct name's letters against the content words, once; then every element of that name.
  std::vector<std::string> words;
  words.reserve(content.size());
  for (size_t k : content) words.push_back(LettersOnly(tokens[k].lower));
  // A hyphenated word's parts are words too ("manufacture-recommended", "snout-to-vent"), and the token each word
  // comes from: of the content words for scattered pieces, of every word for acronyms (function words included).
  auto split = [&](size_t k, std::vector<std::string>& parts, std::vector<size_t>& part_token) {
    size_t from = 0;
    const std::string& lower = tokens[k].lower;
    for (size_t dash = lower.find('-'); dash != std::string::npos; from = dash + 1, dash = lower.find('-', from)) {
      parts.push_back(LettersOnly(lower.substr(from, dash - from)));
      part_token.push_back(k);
    }
    parts.push_back(LettersOnly(lower.substr(from)));
    part_token.push_back(k);
  };
  std::vector<std::string> parts, all_parts;
  std::vector<size_t> part_token, all_part_token;
  if (scattered) {
    for (size_t k : content) split(k, parts, part_token);
  }
  for (size_t k = 0; k < tokens.size(); ++k) {
    if (tokens[k].kind == TokenKind::kWord) split(k, all_parts, all_part_token);
  }
  std::vector<bool> all_stop(all_parts.size());
  for (size_t p = 0; p < all_parts.size(); ++p) all_stop[p] = all_parts[p].empty() || IsStopWord(all_parts[p]);
  AcronymFinder acronyms(all_parts, all_stop);
  auto content_in = [&](std::pair<size_t, size_t> span) {
    return std::count(all_stop.begin() + static_cast<std::ptrdiff_t>(span.first),
                      all_stop.begin() + static_cast<std::ptrdiff_t>(span.second), false);
  };
  // A name's word that is an acronym of question words ("boces" for "board of cooperative educational services" in
  // boces_name): a partial match of the name, below a whole word as written.
  for (size_t id = 0; id < index.CrypticWords().size(); ++id) {
    for (auto span : acronyms.Spans(index.CrypticWords()[id])) {
      const double score = 0.6 * 0.75 * (1.0 + 0.35 * static_cast<double>(content_in(span) - 1));
      for (uint32_t e : index.ElementsWithCrypticWord(id))
        out.push_back({e, all_part_token[span.first], all_part_token[span.second - 1] + 1, score, false, true});
    }
  }
  struct Found {
    bool done = false;
    std::vector<std::pair<size_t, size_t>> spans;
    std::vector<size_t> scattered;                    // parts' indices
    std::vector<std::pair<size_t, size_t>> acronyms;  // all_parts' spans
    std::vector<size_t> initial_word;                 // content words b where b, b + 1 read as the name
  };
  std::vector<Found> found(index.Letters().size());
  for (size_t e = 0; e < elements.size(); ++e) {
    const uint32_t id = index.LettersOf(e);
    if (id == UINT32_MAX) continue;
    Found& f = found[id];
    if (!f.done) {
      const std::string& letters = index.Letters()[id];
      if (letters.size() >= 4) f.spans = AbbreviatedSpans(letters, words);
      if (scattered && f.spans.empty() && index.CrypticLetters(id)) f.scattered = ScatteredAbbreviation(letters, parts);
      f.acronyms = acronyms.Spans(letters);
      for (size_t b : InitialAndWord(letters, words)) {
        if (content[b + 1] == content[b] + 1) f.initial_word.push_back(b);  // adjacent in the question too
      }
      // A name with a dictionary word in it is read as an acronym of four content words or more only ("ellcount" for
      // "english language learner count"): fewer initials fall on a phrase too often by chance.
      if (!index.CrypticLetters(id)) std::erase_if(f.acronyms, [&](auto span) { return content_in(span) < 4; });
      f.done = true;
    }
    // A numbered name (`JKWGT3`) is told apart from its siblings by the number after the abbreviated words.
    const std::string number = TrailingNumber(elements[e].column.empty() ? elements[e].table : elements[e].column);
    for (auto [b, en] : f.spans) {
      // Below a written match of as many words (0.75), as a word's WordNet relative is.
      const size_t next = content[en - 1] + 1;
      const bool numbered = !number.empty() && FollowedByNumber(tokens, next, number);
      const double score = 0.75 * (1.0 + 0.35 * static_cast<double>(en - b - (numbered ? 0 : 1)));
      out.push_back({e, content[b], numbered ? next + 1 : next, score, true, true});
    }
    for (auto span : f.acronyms) {
      // Scored as consecutive words abbreviated, by the content words read.
      const double score = 0.75 * (1.0 + 0.35 * static_cast<double>(content_in(span) - 1));
      out.push_back({e, all_part_token[span.first], all_part_token[span.second - 1] + 1, score, true, true});
    }
    for (size_t b : f.initial_word) {
      // As two consecutive words abbreviated (a lower weight, 0.6 or 0.8 of it, won fewer L-size questions).
      out.push_back({e, content[b], content[b + 1] + 1, 0.75 * 1.35, true, true});
    }
    if (!f.scattered.empty()) {
      // Below consecutive words (0.75 of a written match): the order and the words between say less.
      size_t b = tokens.size(), en = 0;
      for (size_t p : f.scattered) {
        b = std::min(b, part_token[p]);
        en = std::max(en, part_token[p] + 1);
      }
      const double score = 0.6 * (1.0 + 0.35 * static_cast<double>(f.scattered.size() - 1));
      out.push_back({e, b, en, score, false, true});
    }
  }
}

// The stems of the schema's cryptic words (SchemaIndex::CrypticWord) that abbreviate `word` (LinkOptions::
// abbreviated_words): as written, or a plural in -ies as its singular ("cities" is abbreviated "cty"), by at least a
// third of its letters ("cd" abbreviates "code", not "completed").
std::vector<const std::string*> CrypticWordsAbbreviating(const SchemaIndex& index, const std::string& word) {
  std::vector<const std::string*> out;
  const std::string singular = word.ends_with("ies") ? word.substr(0, word.size() - 3) + "y" : std::string();
  index.ForEachCrypticWord([&](const std::string& stem, const std::string& written) {
    auto abbreviates = [&](std::string_view w) {
      return written.size() < w.size() && 3 * written.size() >= w.size() && Abbreviates(written, w);
    };
    if (abbreviates(word) || (!singular.empty() && abbreviates(singular))) out.push_back(&stem);
  });
  return out;
}

// LinkOptions::truncated_words for one question word: the stems of the short dictionary words of names it starts
// with, and the tables with a name that is the word alone, where they do not stand for it.
struct Truncations {
  std::vector<const std::string*> stems;
  const std::vector<uint32_t>* answered_in = nullptr;
};

Truncations TruncationsOf(const SchemaIndex& index, const Token& token) {
  Truncations out;
  const std::string& word = token.lower;
  for (size_t n = 3; n <= 6 && n < word.size(); ++n) {
    if (3 * n < word.size()) continue;  // at least a third of the word's letters
    const std::string* stem = index.ShortWordStem(std::string_view(word).substr(0, n));
    if (stem && *stem != token.stem) out.stems.push_back(stem);
  }
  if (!out.stems.empty()) out.answered_in = index.TablesWritingTruncated(token.stem);
  return out;
}

// How well each content word of a question stands for a schema stem (Link): 1 as written, an alternative's weight
// through WordNet or the lexicon, or an abbreviation's or truncation's when the options ask for them.
class WordWeights {
 public:
  WordWeights(const SchemaIndex& index, const std::vector<Token>& tokens, const std::vector<size_t>& content,
              const LinkOptions& options)
      : tokens_(tokens), content_(content), unwritten_(options.written_alternatives ? 0 : content.size()) {
    alternatives_.reserve(content.size());
    for (size_t k : content) {
      const auto& all = index.AlternativesFor(tokens[k].stem);
      writing_.push_back(index.TablesWriting(tokens[k].stem));
      // A written alternative (Alternative::written) holds in the tables that do not write its question word, and
      // only when asked: otherwise each word's list is read without them (copies: Link reads each list often).
      if (options.written_alternatives || !writing_.back()) {
        alternatives_.push_back(&all);
        continue;
      }
      auto& kept = unwritten_[alternatives_.size()];
      std::copy_if(all.begin(), all.end(), std::back_inserter(kept), [](const Alternative& a) { return !a.written; });
      alternatives_.push_back(&kept);
    }
    // The schema's cryptic words each content word abbreviates, found once per question: asked per schema word
    // instead, a large schema's every phrase paid a lookup for every question word.
    if (options.abbreviated_words) {
      for (size_t k : content) abbreviated_.push_back(CrypticWordsAbbreviating(index, tokens[k].lower));
    }
    if (options.truncated_words) {
      for (size_t k : content) truncated_.push_back(TruncationsOf(index, tokens[k]));
    }
  }

  /// The weight of content word k for schema stem `stem` in a phrase of table `table` (0: no match).
  double Of(size_t k, const std::string& stem, uint32_t table) const {
    if (tokens_[content_[k]].stem == stem) return 1.0;
    double best = 0;
    for (const auto& a : *alternatives_[k]) {
      if (a.schema_stem != stem) continue;
      if (!a.written) {
        best = std::max(best, a.weight);
      } else if (writing_[k] && !std::binary_search(writing_[k]->begin(), writing_[k]->end(), table)) {
        best = std::max(best, a.weight * kWrittenAlternativeWeight);
      }
    }
    if (best > 0) return best;
    if (k < abbreviated_.size()) {
      for (const std::string* s : abbreviated_[k]) {
        if (*s == stem) return kAbbreviatedWordWeight;
      }
    }
    if (k < truncated_.size()) {
      const auto* w = truncated_[k].answered_in;
      for (const std::string* s : truncated_[k].stems) {
        if (*s == stem && !(w && std::binary_search(w->begin(), w->end(), table))) return kAbbreviatedWordWeight;
      }
    }
    return 0.0;
  }

 private:
  const std::vector<Token>& tokens_;
  const std::vector<size_t>& content_;
  std::vector<const std::vector<Alternative>*> alternatives_;
  std::vector<const std::vector<uint32_t>*> writing_;
  std::vector<std::vector<Alternative>> unwritten_;
  std::vector<std::vector<const std::string*>> abbreviated_;
  std::vector<Truncations> truncated_;
};

// LinkOptions::identifiers: a question word that writes a name as the schema does ("bodybuilders" for body_builder).
void IdentifierMatches(const SchemaIndex& index, const std::vector<Token>& tokens, std::vector<LinkMatch>& out) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kWord) continue;
    const std::string squashed = Squashed(tokens[i].text);
    const auto* written = index.WrittenAs(squashed);
    // ... or in the plural.
    for (const std::string& singular : SingularCandidates(squashed)) {
      if (written) break;
      written = index.WrittenAs(singular);
    }
    if (!written) continue;
    const double score = 1.0 + 0.35 * static_cast<double>(written->first - 1);
    for (uint32_t e : written->second) out.push_back({e, i, i + 1, score, true, false});
  }
}

}  // namespace

std::vector<LinkMatch> Link(const SchemaIndex& index, const std::vector<Token>& tokens, const LinkOptions& options) {
  // The question's content words (stop words dropped), remembering their token positions.
  std::vector<size_t> content;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind == TokenKind::kWord && !IsStopWord(tokens[i].lower)) content.push_back(i);
  }
  std::vector<LinkMatch> out;
  const auto& elements = index.Elements();
  const bool dated = AsksForATime(tokens);
  const WordWeights weights(index, tokens, content, options);
  uint32_t table = 0;  // the table of the element being matched
  auto weight = [&](size_t k, const std::string& stem) { return weights.Of(k, stem, table); };
  for (size_t e = 0; e < elements.size(); ++e) {
    table = index.TableOf(e);
    for (size_t pi = 0; pi < elements[e].phrases.size(); ++pi) {
      const auto& phrase = elements[e].phrases[pi];
      const double pw = pi < elements[e].weights.size() ? elements[e].weights[pi] : 1.0;
      size_t m = phrase.size();
      // The least weight of `count` content words from k for the phrase's words from `first` (0: one does not match).
      auto least_of = [&](size_t k, size_t first, size_t count) {
        double least = 1.0;
        for (size_t j = 0; j < count && least > 0; ++j) least = std::min(least, weight(k + j, phrase[first + j]));
        return least;
      };
      // Whole phrase over consecutive content words.
      for (size_t k = 0; k + m <= content.size(); ++k) {
        double least = least_of(k, 0, m);
        // Over "and" / "or" only as written ("course authors and tutors"): "forename and surname" are two names,
        // not "first name" read through two related words.
        if (least > 0 && least < 1.0 && m > 1 && SpansConjunction(tokens, content[k], content[k + m - 1])) least = 0;
        if (least > 0) {
          // Longer phrases are more specific: two whole words outrank one, even one preferred for its table.
          const std::string& name = elements[e].column.empty() ? elements[e].table : elements[e].column;
          const bool as_written =
              pi == 0 && pw < 1.0 && m > 1 && WritesInnerFunctionWords(name, tokens, content[k], content[k + m - 1]);
          double score = (1.0 + 0.35 * static_cast<double>(m - 1)) * least * (as_written ? 1.0 : pw);
          out.push_back({e, content[k], content[k + m - 1] + 1, score, true, least < 1.0});
        }
      }
      // The name's modifiers shared by a coordinated head word ("color code and description": the color's
      // description): the head word alone, scored as the whole phrase a little lowered.
      for (size_t k = 0; m > 1 && k + m < content.size(); ++k) {
        const size_t other = content[k + m - 1], head = content[k + m];
        if (head != other + 2 || !(tokens[other + 1].lower == "and" || tokens[other + 1].lower == "or")) continue;
        if (content[k + m - 2] + 1 != other) continue;  // the modifiers right before the other head word
        const double least = std::min(weight(k + m, phrase[m - 1]), least_of(k, 0, m - 1));
        if (least > 0 && weight(k + m - 1, phrase[m - 1]) == 0) {
          const double score = 0.9 * (1.0 + 0.35 * static_cast<double>(m - 1)) * least * pw;
          out.push_back({e, head, head + 1, score, true, least < 1.0});
        }
      }
      // A WordNet synonym of the name is matched whole only ("plant life" is one of plant's: "life" names no plant).
      if (IsSynonymPhrase(elements[e], pi)) continue;
      // Two words in the other order ("claim amount" for "amount_claimed"), a little below the written order.
      if (m == 2) {
        for (size_t k = 0; k + 2 <= content.size(); ++k) {
          if (content[k + 1] != content[k] + 1) continue;  // adjacent words only: "name of the semester" is no match
          double least = std::min(weight(k, phrase[1]), weight(k + 1, phrase[0]));
          if (least > 0 && phrase[0] != phrase[1]) {
            out.push_back({e, content[k], content[k + 1] + 1, 1.35 * least * 0.9 * pw, true, least < 1.0});
          }
        }
      }
      // A numbered name ("street 2", "weight 3"): its words followed by that number in the question, so the question
      // tells the numbered siblings apart (the number is no content word: numbers are values elsewhere).
      if (m > 1 && IsNumeral(phrase.back())) {
        for (size_t k = 0; k + m - 1 <= content.size(); ++k) {
          const double least = least_of(k, 0, m - 1);
          const size_t next = content[k + m - 2] + 1;
          if (least > 0 && FollowedByNumber(tokens, next, phrase.back())) {
            out.push_back(
                {e, content[k], next + 1, (1.0 + 0.35 * static_cast<double>(m - 1)) * least * pw, true, least < 1.0});
          }
        }
        // ... or its last word alone before the number ("weight 3" for "jk weight 3"), as a head word is.
        for (size_t k = 0; m > 2 && k < content.size(); ++k) {
          const double w = weight(k, phrase[m - 2]);
          if (w > 0 && FollowedByNumber(tokens, content[k] + 1, phrase.back()))
            out.push_back({e, content[k], content[k] + 2, 0.5 / static_cast<double>(m - 2) * w, false, w < 1.0});
        }
      }
      // A name ending in "code", named by the words before it ("policy type" for policy_type_code, "city" for
      // city_code: the code is how the type or the city is stored), a little below the whole name. A lone word only as
      // written: through WordNet ("results" for outcome_code) it lost more Spider train questions than it won.
      if (m > 1 && phrase.back() == "code" && (m > 2 || !elements[e].key)) {
        for (size_t k = 0; k + m - 1 <= content.size(); ++k) {
          const double least = least_of(k, 0, m - 1);
          if (least > 0 && (m > 2 || least == 1.0)) {
            const double score = 0.75 * (1.0 + 0.35 * static_cast<double>(m - 2)) * least * pw;
            out.push_back({e, content[k], content[k + m - 2] + 1, score, true, least < 1.0});
          }
        }
      }
      // Part of a longer phrase: its last words ("first name" for "customer first name"), scored a little above one
      // whole word and below two.
      for (size_t t = 2; t < m; ++t) {
        for (size_t k = 0; k + t <= content.size(); ++k) {
          const double least = least_of(k, m - t, t);
          if (least > 0) {
            const double score = 0.75 * (1.0 + 0.35 * static_cast<double>(t - 1)) * least * pw;
            out.push_back({e, content[k], content[k + t - 1] + 1, score, false, least < 1.0});
          }
        }
      }
      // A name of an event's date or year (hire_date, opened_year, "install date" for INSTL_DT): its words before the
      // date, ending in a verb's past participle, when the question writes a year or a date or asks when
      // ("technicians hired after 2020", "plants opened before 2000"), as the name whole: the verb names the event,
      // the year which of its columns. A noun there names a thing ("invoices created before 1989": the table).
      if (m > 1 && dated && IsTimeWord(phrase.back())) {
        for (size_t k = 0; k + m - 1 <= content.size(); ++k) {
          if (!tokens[content[k + m - 2]].lower.ends_with("ed")) continue;
          const double least = least_of(k, 0, m - 1);
          if (least > 0) {
            const double score = (1.0 + 0.35 * static_cast<double>(m - 2)) * least * pw;
            out.push_back({e, content[k], content[k + m - 2] + 1, score, true, least < 1.0});
          }
        }
      }
      // Part of a longer phrase: its head word alone.
      if (m > 1) {
        for (size_t k = 0; k < content.size(); ++k) {
          double w = weight(k, phrase.back());
          if (w > 0)
            out.push_back({e, content[k], content[k] + 1, 0.5 / static_cast<double>(m - 1) * w, false, w < 1.0});
        }
      }
    }
  }
  if (options.abbreviations) AbbreviationMatches(index, tokens, content, options.scattered_abbreviations, out);
  if (options.identifiers) IdentifierMatches(index, tokens, out);
  // Views repeat their base tables' names: on a tie the base table is meant.
  for (auto& m : out) {
    if (elements[m.element].view) m.score *= 0.95;
  }
  std::sort(out.begin(), out.end(), [](const LinkMatch& a, const LinkMatch& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.begin != b.begin) return a.begin < b.begin;
    return a.element < b.element;
  });
  // One match per (element, span).
  out.erase(std::unique(out.begin(), out.end(),
                        [](const LinkMatch& a, const LinkMatch& b) {
                          return a.element == b.element && a.begin == b.begin && a.end == b.end;
                        }),
            out.end());
  return out;
}

namespace {

// Whether the quoted string `quoted` names one element as a whole (UnquoteNames).
bool NamesAnElement(const SchemaIndex& index, const Token& quoted, Stemmer& stemmer) {
  if (quoted.text.size() < 2 || quoted.text.size() > 64) return false;
  const std::vector<Token> words = retrieval::Tokenize(quoted.text, stemmer);
  size_t first = SIZE_MAX, last = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i].kind != TokenKind::kWord) return false;  // a number or a date inside: a value
    if (IsStopWord(words[i].lower)) continue;
    first = std::min(first, i);
    last = i;
  }
  if (first == SIZE_MAX) return false;
  const bool capitals = std::none_of(quoted.text.begin(), quoted.text.end(),
                                     [](char c) { return std::islower(static_cast<unsigned char>(c)); });
  // One word is a name only as written ("ties" for the column ties; "Party" is a value beside the table Parties).
  const bool one_word = first == last;
  for (const LinkMatch& m : Link(index, words, {.identifiers = true})) {
    if (!m.whole || m.related || m.begin > first || m.end <= last) continue;
    const SchemaElement& e = index.Elements()[m.element];
    const std::string& name = e.column.empty() ? e.table : e.column;
    if (capitals && name != quoted.text) continue;
    if (one_word && ToLower(name) != words[first].lower) continue;
    return true;
  }
  return false;
}

}  // namespace

void UnquoteNames(const SchemaIndex& index, std::string_view question, Stemmer& stemmer, std::vector<Token>& tokens,
                  const std::function<bool(const Token&)>& is_value) {
  if (std::none_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.kind == TokenKind::kQuoted; })) return;
  // A name is quoted where a noun phrase starts ("the \"hire date\"", "the value of \"ties\""); after a verb or a
  // preposition a quoted string is a value ("contain \"Party\"", "named \"Name\"").
  static const std::set<std::string, std::less<>> kBefore = {"the", "a",    "an",    "of",  "its", "their", "his",
                                                             "her", "each", "every", "all", "any", "which", "what"};
  std::vector<Token> out;
  out.reserve(tokens.size());
  bool noun_phrase = true;  // the previous token (read before it is moved) may open one
  for (Token& t : tokens) {
    const bool opens = t.kind == TokenKind::kWord && kBefore.count(t.lower) > 0;
    const bool here = noun_phrase;
    noun_phrase = opens;
    if (t.kind != TokenKind::kQuoted || !here || !NamesAnElement(index, t, stemmer) || (is_value && is_value(t))) {
      out.push_back(std::move(t));
      continue;
    }
    size_t start = question.find(t.text, t.offset);
    if (start == std::string_view::npos) start = t.offset + 1;
    for (Token& w : retrieval::Tokenize(t.text, stemmer)) {
      w.offset += start;
      out.push_back(std::move(w));
    }
  }
  tokens = std::move(out);
}

bool WritesYearOrDate(std::string_view q) {
  for (size_t i = 0; i < q.size();) {
    if (!std::isdigit(static_cast<unsigned char>(q[i]))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < q.size() && std::isdigit(static_cast<unsigned char>(q[j]))) ++j;
    auto separator = [&](size_t k) { return q[k] == ',' || q[k] == '.'; };
    auto digit = [&](size_t k) { return std::isdigit(static_cast<unsigned char>(q[k])) != 0; };
    const bool joined =
        (i > 1 && separator(i - 1) && digit(i - 2)) || (j + 1 < q.size() && separator(j) && digit(j + 1));
    if (j - i == 4 && !joined && (q[i] == '1' || (q[i] == '2' && q[i + 1] <= '1'))) return true;
    i = j;
  }
  return false;
}

bool OpensSentence(std::string_view text, size_t offset) {
  for (size_t i = std::min(offset, text.size()); i > 0; --i) {
    const char ch = text[i - 1];
    if (ch == ' ' || ch == '\t' || ch == '"' || ch == '\'' || ch == '(' || ch == '[') continue;
    return ch == '.' || ch == '?' || ch == '!' || ch == ':' || ch == '\n' || ch == '\r';
  }
  return true;
}

std::vector<std::string> QuotedNameWords(std::string_view quoted) {
  static const std::set<std::string, std::less<>> kJoining = {
      "of", "the", "and", "de", "del", "der", "la", "le", "van", "von", "du", "da", "di", "y", "for", "in", "on"};
  std::vector<std::string> out;
  size_t i = 0;
  while (i < quoted.size()) {
    while (i < quoted.size() && (quoted[i] == ' ' || quoted[i] == ',' || quoted[i] == '.')) ++i;
    size_t j = i;
    while (j < quoted.size() && quoted[j] != ' ' && quoted[j] != ',') ++j;
    std::string_view word = quoted.substr(i, j - i);
    if (!word.empty() && word.back() == '.') word.remove_suffix(1);  // "Jr.", an initial "J."
    i = j;
    if (word.empty()) continue;
    const bool letters = std::all_of(word.begin(), word.end(), [](char ch) {
      return std::isalpha(static_cast<unsigned char>(ch)) || ch == '\'' || ch == '-' || (ch & 0x80);
    });
    if (!letters) return {};
    // All capitals of more than one letter are a code ("CZE", "USA") unless the rest of the name says otherwise.
    const bool all_capitals =
        std::none_of(word.begin(), word.end(), [](char ch) { return std::islower(static_cast<unsigned char>(ch)); });
    if (std::isupper(static_cast<unsigned char>(word[0]))) {
      out.emplace_back(word);
      if (all_capitals && word.size() > 1 && out.size() == 1 && j >= quoted.size()) return {};
    } else if (!kJoining.count(word)) {
      return {};
    }
  }
  return out;
}

std::set<std::string> MeasuredBy(const std::vector<Token>& tokens, const WordNet& wordnet) {
  std::set<std::string> out;
  for (const Token& t : tokens) {
    if (t.kind != TokenKind::kWord || retrieval::IsStopWord(t.lower)) continue;
    for (auto& a : wordnet.Attributes(t.lower)) out.insert(std::move(a));
  }
  return out;
}

std::set<std::string> KindsNamed(std::string_view question, const std::vector<Token>& tokens, const WordNet& wordnet) {
  constexpr int kDepth = 2;  // "London" → national capital → capital, city; a third step reaches "municipality", "area"
  std::set<std::string> out;
  auto add = [&](const std::string& noun) {
    for (auto& k : wordnet.Kinds(noun, kDepth)) out.insert(std::move(k));
  };
  size_t previous = SIZE_MAX;  // the last capitalised word
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.kind == TokenKind::kQuoted) {  // a quoted name: its words, and each two in a row as one name
      auto words = QuotedNameWords(t.text);
      for (size_t w = 0; w < words.size(); ++w) {
        std::string lower = ToLower(words[w]);
        if (retrieval::IsStopWord(lower)) continue;
        add(lower);
        if (w > 0) add(ToLower(words[w - 1]) + "_" + lower);
      }
      continue;
    }
    if (t.kind != TokenKind::kWord || t.text.empty() || !std::isupper(static_cast<unsigned char>(t.text[0])) ||
        OpensSentence(question, t.offset) || retrieval::IsStopWord(t.lower))
      continue;
    add(t.lower);
    if (previous + 1 == i) add(tokens[previous].lower + "_" + t.lower);
    for (std::string noun : wordnet.Pertainyms(t.lower)) {
      std::replace(noun.begin(), noun.end(), ' ', '_');
      add(noun);
    }
    previous = i;
  }
  return out;
}

}  // namespace plainsql::linking
