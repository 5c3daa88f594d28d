// The expander (see expander.h).
#include "naturalness/expander.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
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
  IndexContext();
}

void Expander::IndexContext() {
  context_index_ = {};
  for (const auto& [w, n] : context_) {
    if (w[0] < 'a' || w[0] > 'z') continue;
    context_index_.letter_total[w[0] - 'a'] += n;
    context_index_.singular[Singular(w)] += n;
    // Not a rare "word" that is one of the schema's abbreviations ("incr").
    if (IsWord(w)) context_index_.words[w[0] - 'a'].push_back(w);
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
  IndexContext();
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
    // Not when the singular is a rarer word than the plural: "species" is no "specie" (coined money).
    std::string w = plural;
    if (w.size() > 4 && w.back() == 's' && w[w.size() - 2] != 's') {
      auto singular = words_.Tier(w.substr(0, w.size() - 1));
      if (singular && *singular <= words_.Tier(w).value_or(3)) w.pop_back();
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

// The plural of an expansion's last word: "initial" -> "initials", "quantity" -> "quantities", "box" -> "boxes".
std::string Plural(const std::string& expansion) {
  std::string w = expansion;
  if (w.size() >= 2 && w.back() == 'y' && std::string_view("aeiou").find(w[w.size() - 2]) == std::string_view::npos) {
    w.pop_back();
    return w + "ies";
  }
  if (w.ends_with("s") || w.ends_with("x") || w.ends_with("ch") || w.ends_with("sh")) return w + "es";
  return w + "s";
}

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

double Expander::ModelPrior(const std::string& word, const NameContext& context, bool head) const {
  if (word.empty()) return std::log(1e-12);
  // Mass a dictionary word the model never saw gets, in the model's counts, by how common it is.
  static constexpr double kTierMass[] = {0.5, 0.2, 0.05, 0.02};
  auto tier = words_.Tier(word);
  double dictionary = tier ? kTierMass[std::min(*tier, 3)] : 0.001;
  double p = std::exp(model_->LogPrior(word, context.is_table, dictionary));
  // A key column is mostly named after the table it keys, and a table after what its columns and the tables it
  // references say. Another column's last word says what it holds, seldom whose it is: its other words may repeat
  // its table's.
  bool key = context.is_table || context.shape == "key";
  double related = context.related.empty() ? 0 : key ? 0.5 : head ? 0.03 : 0.3;
  double schema = context_.empty() ? 0 : 0.15;
  double q = (1 - related - schema) * p;
  if (related > 0) {
    // Among the related words with the same first letter: they propose readings of this letter.
    double hits = 0, same_letter = 0;
    for (const auto& r : context.related) {
      if (r.empty() || r[0] != word[0]) continue;
      ++same_letter;
      hits += r == word || Singular(r) == word ? 1 : 0;  // readings are singular; a kept table name may be plural
    }
    if (same_letter > 0)
      q += related * hits / same_letter;
    else
      q /= 1 - related;  // nothing to propose: the model alone
  }
  if (schema > 0) {
    // Likewise among the schema's words with the same first letter.
    double all = word[0] >= 'a' && word[0] <= 'z' ? context_index_.letter_total[word[0] - 'a'] : 0;
    auto own = context_index_.singular.find(word);
    if (all > 0)
      q += schema * (own == context_index_.singular.end() ? 0 : own->second) / all;
    else
      q /= 1 - schema;
  }
  return std::log(std::max(q, 1e-12));
}

std::vector<Expander::Candidate> Expander::ModelCandidates(const std::string& written, const std::string& t,
                                                           const NameContext& context, bool head) const {
  double shape_weight = context.is_table || context.shape.empty() ? 0 : head ? 1.0 : 0.3;
  auto evidence = [&](const std::string& word, bool last) {
    double s = ModelPrior(word, context, last) +
               (last ? shape_weight : 0.3 * shape_weight) * model_->ShapeEvidence(word, context.shape);
    if (last) {
      // Up to ten times likelier when every sampled value is one.
      auto v = context.value_kinds.find(word);
      if (v != context.value_kinds.end()) s += std::log(1 + 9 * v->second);
    }
    return s;
  };
  std::map<std::string, Candidate> scored;
  // Written in capitals, two to four letters are more often the initials of as many words ("MI": mountain id) than
  // one word.
  bool capitals = written.size() >= 2 && written.size() <= 4 &&
                  std::all_of(written.begin(), written.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  constexpr double kCaps = 0.9;  // chosen on cryptic copies of held-out Spider train databases (docs/BENCHMARKS.md)
  double one_word = capitals ? std::log(1 - kCaps) : 0;
  auto add = [&](const std::string& plural, double channel, const std::string& source) {
    if (channel <= 0) return;
    // Readings are counted and named in the singular ("course" and "courses" are one reading), but a word read as
    // written stays as written.
    std::string word = plural == t ? plural : Singular(plural);
    double s = one_word + std::log(channel) + evidence(word, head);
    auto [it, fresh] = scored.try_emplace(word, Candidate{s, word, source});
    if (!fresh && s > it->second.score) it->second = {s, word, source};
  };
  auto consider = [&](std::string_view w, const std::string& source) {
    add(std::string(w), AbbreviationProbability(t, w), source);
  };
  for (const auto& w : model_->WordsStartingWith(t[0])) consider(w, "name model");
  if (t[0] >= 'a' && t[0] <= 'z') {
    for (const auto& w : context_index_.words[t[0] - 'a']) consider(w, "schema");
  }
  if (head) {
    for (const auto& [w, share] : context.value_kinds) consider(w, "stored values");
  }
  auto known = [&](const std::string& w) { return words_.Tier(w) || model_->Knows(w); };
  for (const auto& w : context.related) {
    if (known(w)) consider(w, "related name");
  }
  // How the schema's other names read the same piece (SetSchemaReadings): a word, or initials ("MO" read
  // maintenance_order in TB_MO proposes it for "Mo" in MoOperation), scored as the model scores any reading.
  if (auto agreed = schema_readings_.find(ToLower(written)); agreed != schema_readings_.end()) {
    for (const auto& r : agreed->second) {
      if (scored.count(r.reading)) continue;
      std::vector<std::string> words = Split(r.reading, '_');
      if (words.size() == 1) {
        if (known(words[0])) consider(words[0], "schema reading");
        continue;
      }
      bool initials = words.size() == t.size();
      for (size_t i = 0; initials && i < words.size(); ++i) initials = !words[i].empty() && words[i][0] == t[i];
      if (!initials) continue;
      double score = std::log(capitals ? kCaps : 1 - kCaps);
      for (size_t i = 0; i < words.size(); ++i) {
        score += std::log(0.25) + evidence(words[i], head && i + 1 == words.size());
        if (i > 0) score += model_->Cohesion(words[i - 1], words[i]);
      }
      scored.try_emplace(r.reading, Candidate{score, r.reading, "schema reading"});
    }
  }
  // Capitals stand for words a schema would use, not any dictionary word they spell ("DLH" is no "delhi").
  if (t.size() >= 2 && !capitals) {
    for (std::string_view w : words_.CommonWordsWithPrefix(t)) consider(w, "dictionary prefix");
  }
  if (t.size() >= 3 && !capitals) {
    if (const auto* list = words_.CommonWordsWithSkeleton(ConsonantSkeleton(t))) {
      for (std::string_view w : *list) consider(w, "dictionary skeleton");
    }
  }
  // The word itself, when it is one: most names are written in words, but in a schema of cryptic names a short word
  // is more often an abbreviation ("Man", "Rev").
  if (IsWord(t) || (t.size() <= 2 && words_.Tier(t))) add(t, std::max(0.05, 0.5 * (1 - cryptic_share_)), "word");
  if (auto it = abbreviations_.find(t); it != abbreviations_.end()) {
    std::vector<std::string> parts = Split(it->second, '_');
    scored[it->second] = {one_word + std::log(0.5) + evidence(parts.back(), head), it->second, "abbreviations"};
  }
  if (capitals) {
    // A small beam over the letters, each read as a word it begins, the words scored with how well they follow one
    // another in names.
    struct Partial {
      double score;
      std::vector<std::string> words;
    };
    std::vector<Partial> beam = {{std::log(kCaps), {}}};
    for (size_t i = 0; i < t.size(); ++i) {
      bool last = head && i + 1 == t.size();
      std::vector<std::pair<double, std::string>> letter;
      for (const auto& w : model_->WordsStartingWith(t[i])) letter.emplace_back(evidence(w, last), w);
      for (const auto& w : context.related) {
        if (w[0] == t[i] && known(w)) letter.emplace_back(evidence(w, last), w);
      }
      std::sort(letter.begin(), letter.end(), std::greater<>());
      if (letter.size() > 6) letter.resize(6);
      std::vector<Partial> next;
      for (const auto& p : beam) {
        for (const auto& [ls, w] : letter) {
          double cohesion = p.words.empty() ? 0 : model_->Cohesion(p.words.back(), w);
          Partial q{p.score + std::log(0.25) + ls + cohesion, p.words};
          q.words.push_back(w);
          next.push_back(std::move(q));
        }
      }
      std::sort(next.begin(), next.end(), [](const Partial& a, const Partial& b) { return a.score > b.score; });
      if (next.size() > 8) next.resize(8);
      beam = std::move(next);
    }
    // The best three (the others stay out of the posterior: counting every reading as initials left nearly every
    // acronym unread on the development copies).
    for (size_t i = 0; i < beam.size() && i < 3; ++i) {
      if (beam[i].words.size() != t.size()) continue;
      std::string joined = Join(beam[i].words, "_");
      scored.try_emplace(joined, Candidate{beam[i].score, joined, "initials"});
    }
  }
  std::vector<Candidate> ranked;
  ranked.reserve(scored.size());
  for (auto& [w, c] : scored) ranked.push_back(std::move(c));
  std::sort(ranked.begin(), ranked.end(), [](const Candidate& a, const Candidate& b) {
    return a.score != b.score ? a.score > b.score : a.word < b.word;
  });
  if (ranked.empty()) return ranked;
  // The rest share what is left of the probability: kept as one pseudo-candidate so posteriors stay honest.
  double rest = 0;
  for (size_t i = 8; i < ranked.size(); ++i) rest += std::exp(ranked[i].score - ranked[0].score);
  if (ranked.size() > 8) ranked.resize(8);
  if (rest > 0) ranked.push_back({ranked[0].score + std::log(rest), "", "rest"});
  return ranked;
}

void Expander::ChooseReadings(std::vector<ExpandedWord>& words, const std::vector<std::vector<Candidate>>& options,
                              std::string_view identifier) const {
  size_t n = words.size();
  const std::string self = ToLower(identifier);
  // Each slot's readings: a model piece's candidates (with the support the schema's other names give each), or the one
  // word already chosen. "" is the pseudo-candidate of the rest; it takes no part in the path.
  auto readings = [&](size_t i) -> std::vector<Candidate> {
    if (options[i].empty()) return {{0, words[i].expanded, words[i].source}};
    std::vector<Candidate> out = options[i];
    auto agreed = schema_weight_ > 0 ? schema_readings_.find(ToLower(words[i].written)) : schema_readings_.end();
    if (agreed == schema_readings_.end()) return out;
    std::map<std::string, double> support;
    for (const auto& r : agreed->second) {
      if (r.identifier != self) support[r.reading] += r.probability;
    }
    for (auto& c : out) {
      auto it = c.word.empty() ? support.end() : support.find(c.word);
      if (it != support.end()) c.score += schema_weight_ * std::log1p(it->second);
    }
    return out;
  };
  auto first_word = [](const std::string& w) { return w.substr(0, w.find('_')); };
  auto last_word = [](const std::string& w) {
    return w.substr(w.rfind('_') == std::string::npos ? 0 : w.rfind('_') + 1);
  };
  auto link = [&](const Candidate& a, const Candidate& b) {
    if (a.word.empty() || b.word.empty()) return 0.0;
    return model_->Cohesion(last_word(a.word), first_word(b.word));
  };
  std::vector<std::vector<Candidate>> slot(n);
  std::vector<std::vector<double>> best(n);
  std::vector<std::vector<size_t>> from(n);
  for (size_t i = 0; i < n; ++i) {
    slot[i] = readings(i);
    best[i].assign(slot[i].size(), -1e300);
    from[i].assign(slot[i].size(), 0);
    for (size_t k = 0; k < slot[i].size(); ++k) {
      if (slot[i][k].word.empty()) continue;
      if (i == 0) {
        best[i][k] = slot[i][k].score;
        continue;
      }
      for (size_t j = 0; j < slot[i - 1].size(); ++j) {
        double s = best[i - 1][j] + link(slot[i - 1][j], slot[i][k]) + slot[i][k].score;
        if (s > best[i][k]) {
          best[i][k] = s;
          from[i][k] = j;
        }
      }
    }
  }
  if (n == 0) return;
  std::vector<size_t> chosen(n, 0);
  chosen[n - 1] = static_cast<size_t>(std::max_element(best[n - 1].begin(), best[n - 1].end()) - best[n - 1].begin());
  for (size_t i = n - 1; i > 0; --i) chosen[i - 1] = from[i][chosen[i]];
  for (size_t i = 0; i < n; ++i) {
    if (options[i].empty()) continue;
    // The reading's probability among this slot's readings, its neighbours' readings fixed.
    std::vector<Candidate> local = slot[i];
    for (auto& c : local) {
      if (i > 0) c.score += link(slot[i - 1][chosen[i - 1]], c);
      if (i + 1 < n) c.score += link(c, slot[i + 1][chosen[i + 1]]);
    }
    const Candidate& pick = local[chosen[i]];
    double z = 0;
    for (const auto& c : local) z += std::exp(c.score - pick.score);
    std::vector<Candidate> ranked;
    ranked.push_back(pick);
    for (size_t k = 0; k < local.size(); ++k) {
      if (k != chosen[i] && !local[k].word.empty()) ranked.push_back(local[k]);
    }
    ExpandedWord w = Chosen(words[i].written, ranked);
    w.reading = pick.word;
    w.posterior = 1 / z;
    if (1 / z < min_posterior_ && w.source != "word") {
      w.alternatives.insert(w.alternatives.begin(), {w.expanded, w.source});
      if (w.alternatives.size() > 3) w.alternatives.pop_back();
      w.expanded = words[i].expanded;  // as written
      w.source = "unchanged";
    }
    words[i] = std::move(w);
  }
}

Expansion Expander::Expand(std::string_view identifier, const NameContext* context) const {
  Expansion out;
  static const NameContext kNoContext;
  const NameContext& ctx = context ? *context : kNoContext;
  // With a name model: each cryptic piece's ranked readings (options[i] for out.words[i]), chosen together at the end.
  std::vector<std::vector<Candidate>> options;
  auto model_piece = [&](const std::string& written, const std::string& lower, bool head) {
    options.resize(out.words.size());
    options.push_back(lower.empty() ? std::vector<Candidate>{} : ModelCandidates(written, lower, ctx, head));
    out.words.emplace_back(written, lower, "unchanged");
  };
  std::vector<std::string_view> split = SplitWords(identifier);
  for (size_t i = 0; i < split.size(); ++i) {
    std::string_view w = split[i];
    std::string written(w), t = ToLower(w);
    bool last = i + 1 == split.size();
    if (IsDigits(t)) {
      out.words.emplace_back(written, t, "number");
      continue;
    }
    // After a "yes", "no" is the answer, not a number ("tlu_Yes_No").
    if (t == "no" && i > 0 && ToLower(split[i - 1]) == "yes") {
      out.words.emplace_back(written, t, "word");
      continue;
    }
    // After utm, e and n written apart are east and north ("utmE", "UTM_N"), as the rule below reads them run together
    // ("UTME").
    if ((t == "e" || t == "n") && i > 0 && ToLower(split[i - 1]) == "utm") {
      out.words.emplace_back(written, t == "e" ? "east" : "north", "abbreviations");
      continue;
    }
    // Beside a latitude, "long" is a longitude, not an adjective.
    if (t == "long" && coordinates_) {
      out.words.emplace_back(written, "longitude", "schema");
      continue;
    }
    // A single capital split off a word by its case ("LName", "FName"): the two run together may be one known
    // abbreviation ("lname": last name), which the split hid.
    if (t.size() == 1 && i + 1 < split.size() && abbreviations_.count(t + ToLower(split[i + 1]))) {
      out.words.emplace_back(written + std::string(split[i + 1]), abbreviations_.at(t + ToLower(split[i + 1])),
                             "abbreviations");
      ++i;
      continue;
    }
    // With a name model, short words are read too: in a cryptic schema "Man" may be a manufacturer.
    if ((t.size() >= 3 || words_.Tier(t)) && IsWord(t) && !(model_ && t.size() <= 4)) {
      out.words.emplace_back(written, t, "word");
      continue;
    }
    // A known abbreviation with one letter after it, an axis or a direction: "UTMX" is utm, x; after utm, e and n
    // are east and north.
    // With a name model, only an axis letter or a direction after utm, written in capitals: "stdm" is no "std" with an
    // "m", "Ctry" no "ctr" with a "y".
    auto axis = [&](const std::string& head, char tail) {
      bool capitals = std::all_of(written.begin(), written.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
      return !model_ || (capitals && (tail == 'x' || tail == 'y' || tail == 'z' ||
                                      (head == "utm" && (tail == 'e' || tail == 'n'))));
    };
    // Not when the whole is a longer cut of the same word ("Syst" is system, not sys and t).
    if (t.size() >= 4 && abbreviations_.count(t.substr(0, t.size() - 1)) && !abbreviations_.count(t) &&
        !abbreviations_.at(t.substr(0, t.size() - 1)).starts_with(t) && axis(t.substr(0, t.size() - 1), t.back())) {
      std::string head = t.substr(0, t.size() - 1), tail = t.substr(t.size() - 1);
      const std::string& expansion = abbreviations_.at(head);
      if (tail == "s") {  // a plural: "Inits" are initials, "Amts" amounts
        out.words.emplace_back(written, Plural(expansion), "abbreviations");
        continue;
      }
      out.words.emplace_back(written.substr(0, head.size()), expansion, "abbreviations");
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
    if (model_ && abbreviations_.count(t)) {  // a known abbreviation is trusted as it is
      out.words.emplace_back(written, abbreviations_.at(t), "abbreviations");
      continue;
    }
    if (model_) {
      std::vector<std::string> pieces = t.size() >= 6 ? SegmentRun(t) : std::vector<std::string>{t};
      if (pieces.size() > 1 && std::all_of(pieces.begin(), pieces.end(), [](const auto& p) { return p.size() > 1; })) {
        for (size_t k = 0; k < pieces.size(); ++k) {
          model_piece(pieces[k], pieces[k], last && k + 1 == pieces.size());
        }
      } else {
        model_piece(written, t, last);
      }
      continue;
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
  if (!options.empty()) {
    options.resize(out.words.size());
    ChooseReadings(out.words, options, identifier);
  }
  std::vector<std::string> parts;
  for (const auto& w : out.words) parts.push_back(w.expanded);
  out.name = Join(parts, "_");
  if (out.name.empty()) out.name = std::string(identifier);
  if (!out.name.empty() && out.name[0] >= '0' && out.name[0] <= '9') out.name = "n" + out.name;  // a valid bare name
  return out;
}

std::vector<std::string> AlternativeNames(const Expansion& expansion, size_t max) {
  const auto& words = expansion.words;
  std::vector<size_t> order;
  for (size_t i = 0; i < words.size(); ++i) {
    if (!words[i].alternatives.empty()) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return words[a].posterior < words[b].posterior; });
  std::vector<std::string> out;
  size_t ranks = 0;
  for (size_t i : order) ranks = std::max(ranks, words[i].alternatives.size());
  for (size_t rank = 0; rank < ranks && out.size() < max; ++rank) {
    for (size_t i : order) {
      if (rank >= words[i].alternatives.size() || out.size() >= max) continue;
      std::vector<std::string> parts;
      for (size_t k = 0; k < words.size(); ++k) {
        parts.push_back(k == i ? words[i].alternatives[rank].first : words[k].expanded);
      }
      std::string name = Join(parts, "_");
      if (name.empty() || name == expansion.name) continue;
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
    }
  }
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
