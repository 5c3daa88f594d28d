// Schema linking (see linker.h).
#include "builtin/linker.h"

#include <algorithm>
#include <cctype>

#include "naturalness/expander.h"
#include "naturalness/identifier.h"

namespace plainsql::builtin {

namespace {

std::vector<std::string> Stems(const std::vector<std::string_view>& words, Stemmer& stemmer) {
  std::vector<std::string> out;
  out.reserve(words.size());
  for (auto w : words) {
    std::string lower(w);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    out.push_back(stemmer.Stem(lower));
  }
  return out;
}

std::vector<std::vector<std::string>> Phrases(const std::string& name, Stemmer& stemmer,
                                              const naturalness::Expander* expander) {
  std::vector<std::vector<std::string>> out;
  auto add = [&](std::vector<std::string> p) {
    std::erase_if(p, [](const std::string& s) { return s.empty(); });
    if (!p.empty() && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
  };
  add(Stems(naturalness::SplitWords(name), stemmer));
  if (expander) {
    naturalness::Expansion e = expander->Expand(name);
    add(Stems(naturalness::SplitWords(e.name), stemmer));
  }
  return out;
}

}  // namespace

SchemaIndex::SchemaIndex(const catalog::Schema& schema, Stemmer& stemmer, const naturalness::Expander* expander) {
  for (const auto& t : schema.tables) {
    elements_.push_back({t.name, "", Phrases(t.name, stemmer, expander)});
    for (const auto& c : t.columns) elements_.push_back({t.name, c.name, Phrases(c.name, stemmer, expander)});
  }
}

std::vector<LinkMatch> Link(const SchemaIndex& index, const std::vector<Token>& tokens) {
  // The question's content words (stop words dropped), remembering their token positions.
  std::vector<size_t> content;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind == TokenKind::kWord && !IsStopWord(tokens[i].lower)) content.push_back(i);
  }
  std::vector<LinkMatch> out;
  const auto& elements = index.Elements();
  for (size_t e = 0; e < elements.size(); ++e) {
    for (const auto& phrase : elements[e].phrases) {
      size_t m = phrase.size();
      // Whole phrase over consecutive content words.
      for (size_t k = 0; k + m <= content.size(); ++k) {
        bool all = true;
        for (size_t j = 0; j < m && all; ++j) all = tokens[content[k + j]].stem == phrase[j];
        if (all) {
          out.push_back({e, content[k], content[k + m - 1] + 1, 1.0 + 0.1 * static_cast<double>(m - 1), true});
        }
      }
      // Part of a longer phrase: its head word alone.
      if (m > 1) {
        for (size_t k : content) {
          if (tokens[k].stem == phrase.back()) out.push_back({e, k, k + 1, 0.5 / static_cast<double>(m - 1), false});
        }
      }
    }
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

}  // namespace plainsql::builtin
