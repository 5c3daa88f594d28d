// The expander (see expander.h).
#include "naturalness/expander.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <set>

#include "common/strings.h"
#include "naturalness/identifier.h"

namespace plainsql::naturalness {

namespace {

bool IsDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether `abbr` takes letters of `word` in order, starting with its first letter and taking its second from the
// word's first three letters ("shl" in "shoulder", not "alc" in "antilock").
bool Subsequence(std::string_view abbr, std::string_view word) {
  if (abbr.empty() || word.empty() || abbr[0] != word[0]) return false;
  if (abbr.size() >= 2 && word.substr(1, 2).find(abbr[1]) == std::string_view::npos) return false;
  size_t i = 0;
  for (char c : word) {
    if (i < abbr.size() && c == abbr[i]) ++i;
  }
  return i == abbr.size();
}

}  // namespace

Result<std::map<std::string, std::string>> Expander::LoadAbbreviations(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read abbreviations {}", path));
  std::map<std::string, std::string> out;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    if (tab == std::string::npos || tab == 0 || tab + 1 == line.size()) {
      return MakeError(ErrorCode::kFormat, fmt::format("{}:{}: expected 'abbreviation<TAB>expansion'", path, n));
    }
    out[ToLower(line.substr(0, tab))] = ToLower(line.substr(tab + 1));
  }
  return out;
}

void Expander::SetContext(const std::vector<std::string>& names) {
  context_.clear();
  coordinates_ = false;
  for (const auto& name : names) {
    for (std::string_view w : SplitWords(name)) {
      std::string lower = ToLower(w);
      if (lower == "lat" || lower == "latitude") coordinates_ = true;
      if (lower.size() >= 4 && words_.Tier(lower)) ++context_[lower];
    }
  }
}

void Expander::AddEvidence(std::string_view text) {
  static const std::set<std::string> kStop = {"this",  "that", "with", "from", "which", "when", "where", "there",
                                              "their", "than", "then", "into", "each",  "also", "been",  "have",
                                              "were",  "will", "does", "only", "some",  "such", "they",  "them"};
  std::vector<std::string> run;  // consecutive dictionary words of the current phrase
  auto flush = [&] {
    for (size_t n = 2; n <= 3; ++n) {
      for (size_t i = 0; i + n <= run.size(); ++i) {
        std::string initials, phrase;
        for (size_t k = i; k < i + n; ++k) {
          initials += run[k][0];
          phrase += (k > i ? "_" : "") + run[k];
        }
        ++phrases_[initials][phrase];
      }
    }
    run.clear();
  };
  size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (!std::isalpha(c)) {
      // Sentence and field breaks end a phrase; spaces and hyphens inside one do not.
      if (c != ' ' && c != '-') flush();
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && std::isalpha(static_cast<unsigned char>(text[j]))) ++j;
    std::string w = ToLower(text.substr(i, j - i));
    i = j;
    if (w.size() >= 3 && words_.Tier(w) && !kStop.count(w)) {
      if (w.size() >= 4) ++context_[w];
      run.push_back(w);
    } else {
      flush();
    }
  }
  flush();
}

// A word to keep as it is: a common word, or a rarer one of 5+ letters. Short rare "words" ("acc", "syst") are far
// more often abbreviations in a schema than the dictionary entries they happen to match.
bool Expander::IsWord(const std::string& lower) const {
  auto tier = words_.Tier(lower);
  return tier && (*tier <= 1 || lower.size() >= 5) && !abbreviations_.count(lower);
}

std::vector<Expander::Candidate> Expander::Candidates(const std::string& t) const {
  std::vector<Candidate> out;
  for (const auto& [plural, n] : context_) {
    // An abbreviation names the thing, not the table of things: "Enum" in a schema with "Enumerations" is an
    // enumeration.
    std::string w = plural;
    if (w.size() > 4 && w.back() == 's' && w[w.size() - 2] != 's' && words_.Tier(w.substr(0, w.size() - 1))) {
      w.pop_back();
    }
    // More uses in the schema count for a word; so does being short (the singular over the plural).
    double bonus = 0.1 * n - 0.01 * static_cast<double>(w.size());
    if (w.size() > t.size() && w.starts_with(t)) {
      out.push_back({3 + bonus, w, "schema"});
    } else if (w.size() > t.size() + 1 && Subsequence(t, w)) {
      out.push_back({2 + bonus, w, "schema"});
    }
  }
  // Two letters are the prefix of many schema words; a known two-letter abbreviation ("db", "qa") is surer.
  if (auto it = abbreviations_.find(t); it != abbreviations_.end()) {
    out.push_back({t.size() <= 2 ? 4.0 : 2.5, it->second, "abbreviations"});
  }
  // Two letters begin too many words to pick one without other evidence.
  for (std::string_view w : t.size() >= 3 ? words_.CommonWordsWithPrefix(t) : std::vector<std::string_view>{}) {
    int tier = words_.Tier(w).value_or(1);
    out.push_back(
        {1.5 - 0.3 * tier - 0.02 * static_cast<double>(w.size() - t.size()), std::string(w), "dictionary prefix"});
  }
  std::sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
    return a.score != b.score ? a.score > b.score : a.word < b.word;
  });
  return out;
}

std::optional<double> Expander::PieceCost(const std::string& p) const {
  if (auto tier = words_.Tier(p); tier && (p.size() >= 3 || !abbreviations_.count(p))) return 1 + 0.3 * *tier;
  if (abbreviations_.count(p)) return 1.2;
  if (p.size() >= 3) {
    for (const auto& [w, n] : context_) {
      if (w.size() > p.size() && w.starts_with(p)) return 1.6;
    }
    if (words_.IsCommonPrefix(p)) return 2.0;
    if (words_.IsCommonSkeleton(p)) return 2.2;
  }
  return std::nullopt;
}

// The cheapest cover of a run of letters by word-or-abbreviation pieces (2-12 letters each); a letter no piece covers
// costs 4.
std::vector<std::string> Expander::SegmentRun(const std::string& t) const {
  size_t n = t.size();
  std::vector<double> cost(n + 1, std::numeric_limits<double>::infinity());
  std::vector<size_t> from(n + 1, 0);
  cost[0] = 0;
  for (size_t i = 1; i <= n; ++i) {
    cost[i] = cost[i - 1] + 4;
    from[i] = i - 1;
    for (size_t j = i >= 12 ? i - 12 : 0; j + 1 < i; ++j) {
      auto c = PieceCost(t.substr(j, i - j));
      if (c && cost[j] + *c < cost[i]) {
        cost[i] = cost[j] + *c;
        from[i] = j;
      }
    }
  }
  std::vector<std::string> pieces;
  for (size_t i = n; i > 0; i = from[i]) pieces.push_back(t.substr(from[i], i - from[i]));
  std::reverse(pieces.begin(), pieces.end());
  return pieces;
}

namespace {

// The word chosen from ranked candidates, with the next distinct ones as alternatives.
template <typename Candidates>
ExpandedWord Chosen(const std::string& written, const Candidates& c) {
  ExpandedWord w{written, c[0].word, c[0].source, {}};
  for (size_t i = 1; i < c.size() && w.alternatives.size() < 3; ++i) {
    bool seen = c[i].word == w.expanded;
    for (const auto& a : w.alternatives) seen |= a.first == c[i].word;
    if (!seen) w.alternatives.emplace_back(c[i].word, c[i].source);
  }
  return w;
}

}  // namespace

ExpandedWord Expander::ExpandPiece(const std::string& written, const std::string& t) const {
  if ((t.size() >= 3 || words_.Tier(t)) && IsWord(t)) return {written, t, "word"};
  auto c = Candidates(t);
  if (!c.empty()) return Chosen(written, c);
  if (t.size() >= 4) {  // three consonants match too many words ("dbh", "mpd")
    if (const auto* list = words_.CommonWordsWithSkeleton(ConsonantSkeleton(t))) {
      std::string_view best =
          *std::min_element(list->begin(), list->end(), [&](std::string_view a, std::string_view b) {
            return std::make_pair(words_.Tier(a).value_or(9), a.size()) <
                   std::make_pair(words_.Tier(b).value_or(9), b.size());
          });
      return {written, std::string(best), "dictionary skeleton"};
    }
  }
  return {written, t, "unchanged"};
}

Expansion Expander::Expand(std::string_view identifier) const {
  Expansion out;
  for (std::string_view w : SplitWords(identifier)) {
    std::string written(w), t = ToLower(w);
    if (IsDigits(t)) {
      out.words.emplace_back(written, t, "number");
      continue;
    }
    // Beside a latitude, "long" is a longitude, not an adjective.
    if (t == "long" && coordinates_) {
      out.words.emplace_back(written, "longitude", "schema");
      continue;
    }
    if ((t.size() >= 3 || words_.Tier(t)) && IsWord(t)) {
      out.words.emplace_back(written, t, "word");
      continue;
    }
    // A known abbreviation with one letter after it, an axis or a direction: "UTMX" is utm, x; after utm, e and n
    // are the easting and northing.
    if (t.size() >= 4 && abbreviations_.count(t.substr(0, t.size() - 1)) && !abbreviations_.count(t)) {
      std::string head = t.substr(0, t.size() - 1), tail = t.substr(t.size() - 1);
      out.words.emplace_back(written.substr(0, head.size()), abbreviations_.at(head), "abbreviations");
      if (head == "utm" && (tail == "e" || tail == "n")) {
        out.words.emplace_back(written.substr(head.size()), tail == "e" ? "east" : "north", "abbreviations");
      } else {
        out.words.emplace_back(written.substr(head.size()), tail, "unchanged");
      }
      continue;
    }
    // An axis letter run into a word or a known abbreviation: "Xcoord" is x, coordinate.
    if (t.size() >= 5 && (t[0] == 'x' || t[0] == 'y' || t[0] == 'z')) {
      std::string rest = t.substr(1);
      if (IsWord(rest) || abbreviations_.count(rest)) {
        out.words.emplace_back(written.substr(0, 1), t.substr(0, 1), "unchanged");
        out.words.push_back(ExpandPiece(written.substr(1), rest));
        continue;
      }
    }
    // Initials of a phrase the data dictionary uses more than once ("MO" -> "maintenance order"); a known
    // abbreviation ("cd", "id") wins, since two letters are the initials of many phrases.
    if (t.size() >= 2 && t.size() <= 3 && !abbreviations_.count(t)) {
      auto it = phrases_.find(t);
      if (it != phrases_.end()) {
        auto best = std::max_element(it->second.begin(), it->second.end(),
                                     [](const auto& a, const auto& b) { return a.second < b.second; });
        if (best->second >= 2) {
          out.words.emplace_back(written, best->first, "dictionary phrase");
          continue;
        }
      }
    }
    if (t.size() == 1 && !abbreviations_.count(t)) {  // X, Y, H: a single letter names an axis or a variant, not a word
      out.words.emplace_back(written, t, "unchanged");
      continue;
    }
    auto c = Candidates(t);
    if (!c.empty() && (t.size() <= 5 || c[0].source != "dictionary prefix")) {
      out.words.push_back(Chosen(written, c));
      continue;
    }
    if (t.size() >= 6) {
      std::vector<std::string> pieces = SegmentRun(t);
      if (pieces.size() > 1 && std::all_of(pieces.begin(), pieces.end(), [](const auto& p) { return p.size() > 1; })) {
        for (const auto& p : pieces) out.words.push_back(ExpandPiece(p, p));
        continue;
      }
    }
    out.words.push_back(ExpandPiece(written, t));
  }
  std::vector<std::string> parts;
  for (const auto& w : out.words) parts.push_back(w.expanded);
  out.name = Join(parts, "_");
  if (out.name.empty()) out.name = std::string(identifier);
  if (!out.name.empty() && out.name[0] >= '0' && out.name[0] <= '9') out.name = "n" + out.name;  // a valid bare name
  return out;
}

double NameTokenF1(std::string_view predicted, std::string_view gold) {
  std::map<std::string, int> g;
  int ng = 0, np = 0, common = 0;
  for (auto w : SplitWords(gold)) {
    ++g[ToLower(w)];
    ++ng;
  }
  for (auto w : SplitWords(predicted)) {
    ++np;
    auto it = g.find(ToLower(w));
    if (it != g.end() && it->second > 0) {
      --it->second;
      ++common;
    }
  }
  if (common == 0) return 0;
  double p = static_cast<double>(common) / np, r = static_cast<double>(common) / ng;
  return 2 * p * r / (p + r);
}

bool NameNormalizedEqual(std::string_view a, std::string_view b) {
  auto norm = [](std::string_view s) {
    std::string out;
    for (char c : s) {
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out += c;
      if (c >= 'A' && c <= 'Z') out += static_cast<char>(c - 'A' + 'a');
    }
    return out;
  };
  return norm(a) == norm(b);
}

}  // namespace plainsql::naturalness
