// Parse-and-print (see transpile.h).
#include "sql/transpile.h"

#include "sql/parser.h"
#include "sql/rewrite/fallbacks.h"
#include "sql/rewrite/mask.h"
#include "sql/rewrite/qualify.h"
#include "sql/rewrite/skeleton.h"

namespace plainsql::sql {

Result<std::string> Transpile(std::string_view sql, const Dialect& from, const Dialect& to,
                              const PrintOptions& options) {
  auto q = ParseQuery(sql, from);
  if (!q) return q.error();
  return Print(*q, to, options);
}

Result<std::string> Transpile(std::string_view sql, const Dialect& from, const Dialect& to,
                              const TranspileOptions& options) {
  auto q = ParseQuery(sql, from);
  if (!q) return q.error();
  Query query = std::move(*q);
  const NameCatalog* fallbacks = options.fallbacks_with ? options.fallbacks_with : options.qualify_with;
  if (fallbacks && from.unknown_quoted_is_string && !to.unknown_quoted_is_string) {
    query = LiteralizeStringFallbacks(query, Resolve(query, *fallbacks, from));
  }
  if (options.qualify_with) {
    Resolution r = Resolve(query, *options.qualify_with, from);
    query = QualifyColumns(query, r);
    if (options.unresolved) *options.unresolved = std::move(r.unresolved);
  }
  if (options.skeleton) return SkeletonText(query, to);
  if (options.mask) query = Mask(query);
  return Print(query, to, options.print);
}

std::string OneLineMessage(const Error& error) {
  const std::string& m = error.message;
  size_t nl = m.find('\n');
  std::string line = nl == std::string::npos ? m : m.substr(0, nl);
  if (!line.empty() && line.back() == ':') line.pop_back();
  return line;
}

}  // namespace plainsql::sql
