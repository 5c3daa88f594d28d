// SQLite's string fallbacks as literals (see fallbacks.h).
#include "sql/rewrite/fallbacks.h"

#include <set>

#include "sql/rewrite/walk.h"

namespace plainsql::sql {

Query LiteralizeStringFallbacks(const Query& query, const Resolution& resolution) {
  Query out = query;
  if (resolution.string_fallbacks.empty()) return out;
  std::set<uint32_t> at(resolution.string_fallbacks.begin(), resolution.string_fallbacks.end());
  Walker w;
  w.on_expr = [&](Expr& e) {
    if (e.kind != ExprKind::kColumn || !at.count(e.offset) || e.name.parts.size() != 1) return;
    std::string value = e.name.parts.back().name;
    e.kind = ExprKind::kLiteral;
    e.literal_kind = LiteralKind::kString;
    e.text = std::move(value);
    e.quote = '\'';
    e.name = {};
  };
  Walk(out, w);
  return out;
}

}  // namespace plainsql::sql
