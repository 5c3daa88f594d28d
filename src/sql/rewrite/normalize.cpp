// Normalize pass (see normalize.h).
#include "sql/rewrite/normalize.h"

#include "common/strings.h"
#include "sql/rewrite/walk.h"

namespace plainsql::sql {

namespace {

void Fold(Identifier& id, const Dialect& d) {
  // Quoted names are exact in PostgreSQL (and the standard); everywhere else names compare case-insensitively.
  if (!(id.quote && d.folding != CaseFolding::kNone)) id.name = ToLower(id.name);
  id.quote = 0;
}

}  // namespace

Query Normalize(const Query& query, const Dialect& dialect) {
  Query out = query;
  Walker w;
  w.on_alias = [&](Identifier& id) { Fold(id, dialect); };
  w.on_table = [&](TableRef& t) {
    for (Identifier& p : t.name.parts) Fold(p, dialect);
  };
  w.on_expr = [&](Expr& e) {
    for (Identifier& p : e.name.parts) Fold(p, dialect);
    if (e.kind == ExprKind::kFunction) {
      for (Identifier& p : e.name.parts) p.name = ToUpper(p.name);
    }
    if (e.kind == ExprKind::kKeyword) e.text = ToUpper(e.text);
    if (e.kind == ExprKind::kCast) e.type.name = ToUpper(e.type.name);
    if (e.kind == ExprKind::kBinary && e.op == "==") e.op = "=";
    if (e.kind == ExprKind::kBinary && e.op == "<>") e.op = "!=";
  };
  Walk(out, w);
  return out;
}

}  // namespace plainsql::sql
