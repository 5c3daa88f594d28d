// The word list (see wordlist.h).
#include "naturalness/wordlist.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <sstream>

#include "common/strings.h"

namespace plainsql::naturalness {

namespace {

constexpr std::array<std::string_view, 23> kShortWords = {"id", "no", "of", "to", "in", "on", "at", "by",
                                                          "is", "it", "or", "up", "us", "an", "as", "be",
                                                          "do", "go", "he", "me", "my", "we", "so"};

bool AllLetters(std::string_view w) {
  return !w.empty() &&
         std::all_of(w.begin(), w.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
}

}  // namespace

std::string ConsonantSkeleton(std::string_view w) {
  std::string out;
  for (size_t i = 0; i < w.size(); ++i) {
    char c = w[i];
    if (i > 0 && (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u')) continue;
    if (!out.empty() && out.back() == c) continue;
    out.push_back(c);
  }
  return out;
}

void WordList::Index(std::vector<std::pair<std::string_view, int>> words) {
  // Alphabetical, each word once with its lowest tier: the order of Build and of data/words.tsv, checked in one pass.
  if (!std::is_sorted(words.begin(), words.end())) std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
              words.end());
  size_t total = 0;
  for (const auto& [w, t] : words) total += w.size();
  arena_.clear();
  arena_.reserve(total);
  words_.clear();
  words_.reserve(words.size());
  for (const auto& [w, t] : words) {
    words_.emplace_back(std::string_view(arena_.data() + arena_.size(), w.size()), t);
    arena_.insert(arena_.end(), w.begin(), w.end());  // no reallocation (reserved): the views stay valid
  }
  size_t capacity = 16;
  while (capacity < 2 * words_.size()) capacity *= 2;
  slots_.assign(capacity, 0);
  common_sorted_.clear();
  skeletons_.clear();
  for (size_t i = 0; i < words_.size(); ++i) {
    const auto& [view, t] = words_[i];
    slots_[Slot(view)] = static_cast<uint32_t>(i + 1);
    if (t <= 1 && view.size() >= 4) {
      common_sorted_.push_back(view);  // in order: words_ is sorted, so are these lists
      skeletons_[ConsonantSkeleton(view)].push_back(view);
    }
  }
}

size_t WordList::Slot(std::string_view word) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = std::hash<std::string_view>{}(word)&mask;; i = (i + 1) & mask) {
    if (slots_[i] == 0 || words_[slots_[i] - 1].first == word) return i;
  }
}

Result<WordList> WordList::Build(const WordListSources& sources) {
  std::map<std::string, int> best;
  auto add = [&](std::string_view word, int tier) {
    if (!AllLetters(word)) return;
    std::string w = ToLower(word);
    auto [it, inserted] = best.emplace(w, tier);
    if (!inserted) it->second = std::min(it->second, tier);
  };
  for (const auto& [path, tier] : sources.dictionaries) {
    std::ifstream in(path);
    if (!in) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read word list {}", path));
    std::string line;
    while (std::getline(in, line)) add(Trim(line), tier);
  }
  if (!sources.wordnet_dir.empty()) {
    for (const char* pos : {"noun", "verb", "adj", "adv"}) {
      std::string path = sources.wordnet_dir + "/index." + pos;
      std::ifstream in(path);
      if (!in) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read WordNet index {}", path));
      std::string line;
      while (std::getline(in, line)) {
        if (line.empty() || line[0] == ' ') continue;  // the licence header lines start with spaces
        add(std::string_view(line).substr(0, line.find(' ')), sources.wordnet_tier);
      }
    }
  }
  WordList list;
  list.Index(std::vector<std::pair<std::string_view, int>>(best.begin(), best.end()));
  return list;
}

Result<WordList> WordList::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read word list {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  const std::string all = std::move(text).str();
  std::vector<std::pair<std::string_view, int>> words;  // views into `all`; Index copies them
  int n = 0;
  for (size_t pos = 0; pos < all.size();) {
    size_t end = all.find('\n', pos);
    if (end == std::string::npos) end = all.size();
    std::string_view line(all.data() + pos, end - pos);
    pos = end + 1;
    ++n;
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    if (tab == std::string_view::npos || tab + 2 != line.size() || line[tab + 1] < '0' || line[tab + 1] > '9') {
      return MakeError(ErrorCode::kFormat, fmt::format("{}:{}: expected 'word<TAB>tier'", path, n));
    }
    words.emplace_back(line.substr(0, tab), line[tab + 1] - '0');
  }
  WordList list;
  list.Index(std::move(words));
  return list;
}

std::string WordList::Serialize(std::string_view header) const {
  std::string out;
  for (const std::string& h : Split(header, '\n')) out += "# " + h + "\n";
  for (const auto& [w, t] : words_) {
    out += w;
    out += '\t';
    out += static_cast<char>('0' + t);
    out += '\n';
  }
  return out;
}

std::optional<int> WordList::Tier(std::string_view w) const {
  if (w.size() <= 2) {
    if (std::find(kShortWords.begin(), kShortWords.end(), w) != kShortWords.end()) return 0;
    return std::nullopt;
  }
  if (slots_.empty()) return std::nullopt;
  const uint32_t at = slots_[Slot(w)];
  if (at == 0) return std::nullopt;
  return words_[at - 1].second;
}

bool WordList::IsCommonPrefix(std::string_view lower) const {
  if (lower.size() < 2) return false;
  auto it = std::upper_bound(common_sorted_.begin(), common_sorted_.end(), lower);  // first word > lower
  return it != common_sorted_.end() && it->size() > lower.size() && it->starts_with(lower);
}

bool WordList::IsCommonSkeleton(std::string_view lower) const {
  return CommonWordsWithSkeleton(ConsonantSkeleton(lower)) != nullptr;
}

std::vector<std::string_view> WordList::CommonWordsWithPrefix(std::string_view lower) const {
  std::vector<std::string_view> out;
  for (auto it = std::upper_bound(common_sorted_.begin(), common_sorted_.end(), lower);
       it != common_sorted_.end() && it->starts_with(lower); ++it) {
    if (it->size() > lower.size()) out.push_back(*it);
  }
  return out;
}

const std::vector<std::string_view>* WordList::CommonWordsWithSkeleton(const std::string& skeleton) const {
  auto it = skeletons_.find(skeleton);
  return it == skeletons_.end() ? nullptr : &it->second;
}

}  // namespace plainsql::naturalness
