// The translator's word tables (see words.h).
#include "builtin/words.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "common/strings.h"

namespace plainsql::builtin::words {

namespace internal {
extern const std::pair<std::string_view, std::string_view> kFiles[];
extern const size_t kFileCount;
}  // namespace internal

namespace {

struct Tables {
  std::map<std::string, WordSet, std::less<>> lists;
  std::map<std::string, WordMap, std::less<>> pairs;
};

// Every file read once: its lines without comments and blank lines, as words and as word-value pairs.
const Tables& All() {
  static const Tables kTables = [] {
    Tables t;
    for (size_t f = 0; f < internal::kFileCount; ++f) {
      auto [name, text] = internal::kFiles[f];
      WordSet& list = t.lists[std::string(name)];
      WordMap& pairs = t.pairs[std::string(name)];
      for (const auto& raw : Split(text, '\n')) {
        std::string_view line = Trim(raw);
        if (line.empty() || line.front() == '#') continue;
        size_t space = line.find_first_of(" \t");
        std::string word(line.substr(0, space));
        list.insert(word);
        pairs[word] = space == std::string_view::npos ? std::string() : std::string(Trim(line.substr(space)));
      }
    }
    return t;
  }();
  return kTables;
}

[[noreturn]] void Missing(std::string_view name) {
  std::fprintf(stderr, "plainsql: no word table src/builtin/words/%.*s.txt was compiled in\n",
               static_cast<int>(name.size()), name.data());
  std::abort();
}

}  // namespace

const WordSet& List(std::string_view name) {
  auto it = All().lists.find(name);
  if (it == All().lists.end()) Missing(name);
  return it->second;
}

const WordMap& Pairs(std::string_view name) {
  auto it = All().pairs.find(name);
  if (it == All().pairs.end()) Missing(name);
  return it->second;
}

std::set<std::string> Names() {
  std::set<std::string> out;
  for (const auto& [name, list] : All().lists) out.insert(name);
  return out;
}

}  // namespace plainsql::builtin::words
