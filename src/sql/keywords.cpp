// Keyword lookups for quoting. The lists themselves are data: dialects/<dialect>_keywords.txt, generated from the
// engines' own lists by tools/gen_keywords where an engine list exists, compiled in by CMake (keywords_data.h.in).
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "common/strings.h"
#include "sql/dialect.h"

namespace plainsql::sql {

namespace {

bool Contains(std::span<const std::string_view> sorted, std::string_view upper) {
  return std::binary_search(sorted.begin(), sorted.end(), upper);
}

// The union of the shared dialects' keywords, sorted, built once.
const std::vector<std::string_view>& SharedKeywords() {
  static const std::vector<std::string_view> kWords = [] {
    std::vector<std::string_view> out;
    for (const Dialect* d : AllDialects()) {
      if (d->shared_keywords) out.insert(out.end(), d->keywords.begin(), d->keywords.end());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }();
  return kWords;
}

}  // namespace

bool IsKeyword(std::string_view word) { return Contains(SharedKeywords(), ToUpper(word)); }

bool IsKeyword(const Dialect& dialect, std::string_view word) { return Contains(dialect.keywords, ToUpper(word)); }

bool IsReservedIn(const Dialect& dialect, std::string_view word) {
  std::string upper = ToUpper(word);
  return Contains(SharedKeywords(), upper) || (!dialect.shared_keywords && Contains(dialect.keywords, upper));
}

}  // namespace plainsql::sql
