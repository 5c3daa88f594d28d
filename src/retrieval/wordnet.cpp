// WordNet's database files (see wordnet.h). Formats: wndb(5WN). An index line is
// `lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt offset…` with senses most frequent first; a data
// line, found at its byte offset, is `offset lex_filenum ss_type w_cnt(hex) [word lex_id]… p_cnt [symbol offset pos
// source/target]… | gloss`.
#include "retrieval/wordnet.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

#include "common/file.h"
#include "common/strings.h"
#include "retrieval/text.h"

namespace plainsql::retrieval {

namespace {

// The lemma of an index line (up to the first space).
std::string_view LemmaAt(std::string_view index, size_t line_start) {
  size_t end = index.find(' ', line_start);
  if (end == std::string_view::npos) end = index.size();
  return index.substr(line_start, end - line_start);
}

bool SingleWord(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](unsigned char c) { return std::isalpha(c) != 0; });
}

std::string LowerWord(std::string_view w) {
  std::string out = ToLower(w);
  // Adjectives carry a syntactic marker: "big(a)".
  if (size_t p = out.find('('); p != std::string::npos) out.resize(p);
  return out;
}

}  // namespace

WordNet::~WordNet() {
  for (auto& p : parts_) {
    if (p.data_fd >= 0) ::close(p.data_fd);
  }
}

Result<std::shared_ptr<const WordNet>> WordNet::Open(const std::string& dir_in) {
  std::string dir = dir_in;
  if (dir.empty()) {
    const char* env = std::getenv("PLAINSQL_WORDNET_DIR");
    dir = env && *env ? env : "/usr/share/wordnet";
  }
  std::shared_ptr<WordNet> wn(new WordNet());
  const std::pair<char, const char*> parts[3] = {{'n', "noun"}, {'v', "verb"}, {'a', "adj"}};
  for (int i = 0; i < 3; ++i) {
    Part& p = wn->parts_[i];
    p.pos = parts[i].first;
    auto index = ReadFileToString(dir + "/index." + parts[i].second);
    if (!index) {
      return MakeError(
          ErrorCode::kNotFound,
          fmt::format("WordNet not found in {} (Debian package wordnet-base; or set PLAINSQL_WORDNET_DIR): {}", dir,
                      index.error().message));
    }
    p.index = std::move(*index);
    std::string data = dir + "/data." + parts[i].second;
    p.data_fd = ::open(data.c_str(), O_RDONLY | O_CLOEXEC);
    if (p.data_fd < 0) return MakeError(ErrorCode::kNotFound, fmt::format("cannot open WordNet data file {}", data));
  }
  // The irregular comparatives and superlatives ("younger young", "better good"); optional: without them an
  // inflected adjective is found by its regular ending only.
  if (auto exc = ReadFileToString(dir + "/adj.exc")) {
    std::istringstream lines(*exc);
    std::string line;
    while (std::getline(lines, line)) {
      std::istringstream fields(line);
      std::string form, base;
      if (fields >> form >> base) wn->adjective_forms_.emplace_back(form, base);
    }
    std::sort(wn->adjective_forms_.begin(), wn->adjective_forms_.end());
  }
  return std::shared_ptr<const WordNet>(std::move(wn));
}

const WordNet::Part* WordNet::PartOf(char pos) const {
  if (pos == 's') pos = 'a';  // satellite adjectives live in the adjective files
  for (const auto& p : parts_) {
    if (p.pos == pos) return &p;
  }
  return nullptr;
}

std::vector<long> WordNet::Offsets(const Part& part, std::string_view lemma) const {
  std::string_view index = part.index;
  // Binary search over lines; the licence header lines start with spaces and sort before every lemma.
  size_t lo = 0, hi = index.size();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    size_t start = mid == 0 ? 0 : index.rfind('\n', mid - 1);
    start = start == std::string_view::npos || mid == 0 ? 0 : start + 1;
    std::string_view at = LemmaAt(index, start);
    if (at == lemma) {
      size_t end = index.find('\n', start);
      std::istringstream line(std::string(index.substr(start, end == std::string_view::npos ? end : end - start)));
      std::string word, pos;
      size_t synsets = 0, pointers = 0;
      line >> word >> pos >> synsets >> pointers;
      std::string skip;
      for (size_t i = 0; i < pointers; ++i) line >> skip;
      line >> skip >> skip;  // sense_cnt, tagsense_cnt
      std::vector<long> out;
      long offset = 0;
      while (out.size() < synsets && line >> offset) out.push_back(offset);
      return out;
    }
    if (at < lemma) {
      size_t end = index.find('\n', start);
      lo = end == std::string_view::npos ? index.size() : end + 1;
    } else {
      hi = start;
    }
  }
  return {};
}

bool WordNet::ReadSynset(char pos, long offset, Synset& out) const {
  const Part* part = PartOf(pos);
  if (!part || offset < 0) return false;
  std::string line;
  char buf[4096];
  for (off_t at = offset;;) {
    ssize_t n = ::pread(part->data_fd, buf, sizeof buf, at);
    if (n <= 0) break;
    const char* nl = static_cast<const char*>(std::memchr(buf, '\n', static_cast<size_t>(n)));
    line.append(buf, nl ? static_cast<size_t>(nl - buf) : static_cast<size_t>(n));
    if (nl) break;
    at += n;
  }
  if (size_t bar = line.find(" | "); bar != std::string::npos) line.resize(bar);
  std::istringstream in(line);
  long got = -1;
  std::string lex, type, count_hex;
  if (!(in >> got >> lex >> type >> count_hex) || got != offset) return false;
  size_t words = std::strtoul(count_hex.c_str(), nullptr, 16);
  out = {};
  out.type = type.empty() ? 'n' : type[0];
  for (size_t i = 0; i < words; ++i) {
    std::string w, lex_id;
    if (!(in >> w >> lex_id)) return false;
    out.words.push_back(LowerWord(w));
  }
  size_t pointers = 0;
  in >> pointers;
  for (size_t i = 0; i < pointers; ++i) {
    std::string symbol, ppos, st;
    long target = 0;
    if (!(in >> symbol >> target >> ppos >> st)) return false;
    out.pointers.push_back({symbol, {ppos.empty() ? 'n' : ppos[0], target}});
  }
  return true;
}

bool WordNet::Knows(std::string_view word) const {
  for (const auto& p : parts_) {
    if (!Offsets(p, word).empty()) return true;
  }
  return false;
}

std::vector<std::vector<std::string>> WordNet::NounSynonyms(const std::vector<std::string>& words) const {
  std::vector<std::vector<std::string>> out;
  if (words.empty() || words.size() > 3) return out;
  std::string lemma;
  for (const auto& w : words) {
    if (!SingleWord(w)) return out;
    lemma += (lemma.empty() ? "" : "_") + w;
  }
  const std::vector<long> offsets = Offsets(*PartOf('n'), lemma);
  Synset syn;
  if (offsets.empty() || !ReadSynset('n', offsets[0], syn)) return out;
  for (const auto& w : syn.words) {
    if (w == lemma) continue;
    std::vector<std::string> parts;
    for (size_t b = 0; b <= w.size();) {
      const size_t e = std::min(w.find_first_of("_-", b), w.size());
      parts.push_back(w.substr(b, e - b));
      b = e + 1;
    }
    const bool letters = std::all_of(parts.begin(), parts.end(), [](const std::string& p) { return SingleWord(p); });
    if (letters && std::find(out.begin(), out.end(), parts) == out.end()) out.push_back(std::move(parts));
  }
  return out;
}

std::vector<std::string> WordNet::Pertainyms(std::string_view adjective) const {
  std::vector<std::string> out;
  const std::vector<long> offsets = Offsets(*PartOf('a'), adjective);
  for (size_t s = 0; s < offsets.size() && s < 2; ++s) {
    Synset syn;
    if (!ReadSynset('a', offsets[s], syn)) continue;
    for (const auto& [symbol, target] : syn.pointers) {
      Synset noun;
      if (symbol != "\\" || target.first != 'n' || !ReadSynset('n', target.second, noun)) continue;
      for (std::string w : noun.words) {
        std::replace(w.begin(), w.end(), '_', ' ');
        if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(std::move(w));
      }
    }
  }
  return out;
}

std::vector<std::string> WordNet::Kinds(std::string_view noun, int depth) const {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::vector<long> level = Offsets(*PartOf('n'), noun);
  if (level.size() > 2) level.resize(2);
  std::set<long> visited(level.begin(), level.end());
  for (int d = 0; d < depth && !level.empty(); ++d) {
    std::vector<long> next;
    for (long offset : level) {
      Synset syn;
      if (!ReadSynset('n', offset, syn)) continue;
      for (const auto& [symbol, target] : syn.pointers) {
        if ((symbol != "@" && symbol != "@i") || target.first != 'n' || !visited.insert(target.second).second) continue;
        next.push_back(target.second);
        Synset up;
        if (!ReadSynset('n', target.second, up)) continue;
        for (const auto& w : up.words) {
          std::string head = w.substr(w.find_last_of("_-") == std::string::npos ? 0 : w.find_last_of("_-") + 1);
          if (SingleWord(head) && seen.insert(head).second) out.push_back(head);
        }
      }
    }
    level = std::move(next);
  }
  return out;
}

std::vector<std::string> WordNet::Attributes(std::string_view word) const {
  const Part* adjectives = PartOf('a');
  // The word's base forms, all of those WordNet's own morphology finds for an adjective: the exception list, the word
  // itself and the regular endings ("higher" is an adjective of its own, and a form of "high").
  std::vector<std::string> bases;
  auto exc =
      std::lower_bound(adjective_forms_.begin(), adjective_forms_.end(), std::pair<std::string, std::string>(word, ""));
  for (; exc != adjective_forms_.end() && exc->first == word; ++exc) bases.push_back(exc->second);
  bases.emplace_back(word);
  for (const auto& [ending, added] :
       {std::pair<std::string_view, std::string_view>{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}}) {
    if (word.size() > ending.size() + 2 && word.ends_with(ending))
      bases.push_back(std::string(word.substr(0, word.size() - ending.size())) + std::string(added));
  }
  std::sort(bases.begin(), bases.end());
  bases.erase(std::unique(bases.begin(), bases.end()), bases.end());
  std::vector<std::string> out;
  auto add_attributes = [&](const Synset& syn) {
    bool any = false;
    for (const auto& [symbol, target] : syn.pointers) {
      Synset noun;
      if (symbol != "=" || target.first != 'n' || !ReadSynset('n', target.second, noun)) continue;
      any = true;
      for (const auto& w : noun.words) {
        std::string head = w.substr(w.find_last_of("_-") == std::string::npos ? 0 : w.find_last_of("_-") + 1);
        if (SingleWord(head) && std::find(out.begin(), out.end(), head) == out.end()) out.push_back(std::move(head));
      }
    }
    return any;
  };
  for (const std::string& base : bases) {
    const std::vector<long> offsets = Offsets(*adjectives, base);
    for (size_t s = 0; s < offsets.size() && s < 3; ++s) {
      Synset syn;
      if (!ReadSynset('a', offsets[s], syn) || add_attributes(syn) || syn.type != 's') continue;
      // A satellite ("elderly") carries no attribute of its own: its head adjective's ("old") is its.
      for (const auto& [symbol, target] : syn.pointers) {
        Synset head;
        if (symbol == "&" && target.first == 'a' && ReadSynset('a', target.second, head)) add_attributes(head);
      }
    }
  }
  return out;
}

std::vector<RelatedWord> WordNet::Related(std::string_view word_in) const {
  std::string word(word_in);
  if (!Knows(word)) {
    // A plural schema word ("songs", "countries", "classes") as its singular.
    for (const auto& t : SingularCandidates(word)) {
      if (Knows(t)) {
        word = t;
        break;
      }
    }
  }
  std::vector<RelatedWord> out;
  std::set<std::string> seen = {word};
  auto add = [&](const std::string& w, Relation r) {
    if (SingleWord(w) && seen.insert(w).second) out.push_back({w, r});
  };
  struct Plan {
    char pos;
    size_t senses;
  };
  for (const Plan plan : {Plan{'n', 3}, Plan{'v', 2}, Plan{'a', 2}}) {
    const Part* part = PartOf(plan.pos);
    std::vector<long> offsets = Offsets(*part, word);
    for (size_t s = 0; s < offsets.size() && s < plan.senses; ++s) {
      Synset syn;
      if (!ReadSynset(plan.pos, offsets[s], syn)) continue;
      for (const auto& w : syn.words) add(w, Relation::kSynonym);
      for (const auto& [symbol, target] : syn.pointers) {
        bool hypernym = plan.pos == 'n' && s < 2 && (symbol == "@" || symbol == "@i");
        bool similar = plan.pos == 'a' && symbol == "&";
        bool derived = s == 0 && plan.pos != 'a' && symbol == "+" && (target.first == 'n' || target.first == 'v');
        if (!hypernym && !similar && !derived) continue;
        Synset other;
        if (!ReadSynset(target.first, target.second, other)) continue;
        for (const auto& w : other.words) {
          add(w, hypernym ? Relation::kHypernym : similar ? Relation::kSynonym : Relation::kDerived);
        }
      }
    }
  }
  return out;
}

}  // namespace plainsql::retrieval
