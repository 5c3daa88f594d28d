// libFuzzer target: parse -> print -> parse -> print must not crash, leak or disagree. The first input byte picks
// the dialect; the rest is SQL. Queries that parse are also resolved against a small fixed catalog, so the resolver
// sees arbitrary trees too, and go through the rewrite passes (qualify and skeleton must print SQL that parses). How to
// build and run it: README.md, section "Fuzzing".
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/resolver.h"
#include "sql/rewrite/fallbacks.h"
#include "sql/rewrite/mask.h"
#include "sql/rewrite/qualify.h"
#include "sql/rewrite/skeleton.h"

namespace {

const plainsql::sql::NameCatalog& Catalog() {
  static const plainsql::sql::NameCatalog kCatalog{{{"", "singer", {"singer_id", "name", "age"}},
                                                    {"", "concert", {"concert_id", "singer_id", "year"}},
                                                    {"", "T1", {"a", "b"}}}};
  return kCatalog;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace plainsql::sql;
  if (size < 1) return 0;
  static const Dialect* const kDialects[] = {&Sqlite(), &Postgres(), &TSql(), &MySql()};
  const Dialect& d = *kDialects[data[0] % 4];
  std::string_view sql(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto q = ParseQuery(sql, d);
  if (!q.ok()) return 0;
  Resolution resolved = Resolve(*q, Catalog(), d);
  std::string first = Print(*q, d);
  auto again = ParseQuery(first, d);
  if (!again.ok()) {
    std::fprintf(stderr, "printed form does not parse (%s):\n%s\n%s\n", std::string(d.name).c_str(), first.c_str(),
                 again.error().message.c_str());
    std::abort();
  }
  std::string second = Print(*again, d);
  if (second != first) {
    std::fprintf(stderr, "printing is not a fixed point (%s):\n%s\n%s\n", std::string(d.name).c_str(), first.c_str(),
                 second.c_str());
    std::abort();
  }
  PrintOptions pretty;
  pretty.pretty = true;
  (void)Print(*q, d, pretty);
  // Rewrites: a qualified query and a skeleton are SQL that parses again; a masked query prints.
  for (const Query& rewritten : {QualifyColumns(*q, resolved), Skeleton(*q), LiteralizeStringFallbacks(*q, resolved)}) {
    std::string text = Print(rewritten, d);
    auto parsed = ParseQuery(text, d);
    if (!parsed.ok()) {
      std::fprintf(stderr, "rewritten query does not parse (%s):\n%s\n%s\n", std::string(d.name).c_str(), text.c_str(),
                   parsed.error().message.c_str());
      std::abort();
    }
  }
  (void)Print(Mask(*q), d);
  (void)SkeletonTokens(*q, d);
  return 0;
}
