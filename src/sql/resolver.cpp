// Name resolution (see resolver.h). Scopes nest like the query: each SELECT sees its FROM sources, then the scopes
// around it (correlated subqueries); common table expressions are visible to the query that defines them.
#include "sql/resolver.h"

#include <algorithm>

#include "common/strings.h"
#include "sql/token.h"

namespace plainsql::sql {

const CatalogTable* NameCatalog::Find(const QualifiedName& name) const {
  const std::string& table = name.last().name;
  std::string schema = name.parts.size() >= 2 ? name.parts[name.parts.size() - 2].name : "";
  auto schema_ok = [&](const CatalogTable& t) {
    return schema.empty() || t.schema.empty() || EqualsIgnoreCase(t.schema, schema) ||
           EqualsIgnoreCase(schema, "main") || EqualsIgnoreCase(schema, "dbo");
  };
  for (const CatalogTable& t : tables) {
    if (t.name == table && schema_ok(t)) return &t;
  }
  for (const CatalogTable& t : tables) {
    if (EqualsIgnoreCase(t.name, table) && schema_ok(t)) return &t;
  }
  return nullptr;
}

namespace {

std::string Joined(const QualifiedName& n) {
  std::vector<std::string> parts;
  for (const auto& p : n.parts) parts.push_back(p.name);
  return Join(parts, ".");
}

using Origin = std::optional<std::pair<std::string, std::string>>;

// An output column of a query: its name, and the base column it passes through unchanged (no alias, no expression),
// so that a reference to it from outside can be renamed with that base column.
struct OutColumn {
  std::string name;
  Origin origin;
};

// One FROM item as the query sees it.
struct Source {
  std::string name;                     // alias, or the table's own name
  char quote = 0;                       // how that name was quoted
  const CatalogTable* table = nullptr;  // a base table, or nullptr for a derived table / CTE / function
  std::vector<OutColumn> columns;       // output columns of a derived source
  bool any_column = false;              // columns unknown (table-valued function, unresolved table): accept any
  std::vector<std::string> merged;      // USING / NATURAL columns this source shares with one on its left
};

struct Scope {
  const Scope* parent = nullptr;
  std::vector<Source> sources;
  std::vector<std::string> aliases;  // select-list aliases, usable in WHERE / GROUP BY / HAVING / ORDER BY (SQLite)
};

struct CteInfo {
  std::string name;
  std::vector<OutColumn> columns;
  bool any_column = false;  // a recursive CTE while its own body is being resolved
};

class Resolver {
 public:
  Resolver(const NameCatalog& c, const Dialect& d) : c_(c), d_(d) {}

  Resolution Run(const Query& q) {
    QueryColumns(q, nullptr);
    std::sort(out_.unresolved.begin(), out_.unresolved.end(),
              [](const UnresolvedName& a, const UnresolvedName& b) { return a.offset < b.offset; });
    return std::move(out_);
  }

 private:
  void Read(const CatalogTable& t, const std::string& column) { out_.columns.insert({t.name, column}); }
  static const OutColumn* FindOut(const std::vector<OutColumn>& cols, const std::string& name) {
    for (const auto& c : cols) {
      if (c.name == name) return &c;
    }
    for (const auto& c : cols) {
      if (EqualsIgnoreCase(c.name, name)) return &c;
    }
    return nullptr;
  }

  static const std::string* FindColumn(const std::vector<std::string>& cols, const std::string& name) {
    for (const auto& c : cols) {
      if (c == name) return &c;
    }
    for (const auto& c : cols) {
      if (EqualsIgnoreCase(c, name)) return &c;
    }
    return nullptr;
  }

  // Whether `s` has column `name`; with `bind`, records the read, and with `at`, the binding of the name written at
  // that offset.
  bool SourceHas(const Source& s, const std::string& name, bool bind, const uint32_t* at = nullptr) {
    if (s.table) {
      const std::string* col = FindColumn(s.table->columns, name);
      if (col && bind) Read(*s.table, *col);
      if (col && bind && at) out_.column_at[*at] = {s.table->name, *col};
      return col != nullptr;
    }
    const OutColumn* out = FindOut(s.columns, name);
    if (out && bind && at && out->origin) out_.column_at[*at] = *out->origin;
    return s.any_column || out != nullptr;
  }

  const CteInfo* FindCte(const std::string& name) const {
    for (auto it = ctes_.rbegin(); it != ctes_.rend(); ++it) {
      if (EqualsIgnoreCase(it->name, name)) return &*it;
    }
    return nullptr;
  }  // Resolves a query; returns its output columns.
  std::vector<OutColumn> QueryColumns(const Query& q, const Scope* outer) {
    size_t cte_mark = ctes_.size();
    for (const Cte& cte : q.with) {
      CteInfo info{cte.name.name, {}, false};
      for (const auto& c : cte.columns) info.columns.push_back({c.name, std::nullopt});
      if (q.recursive) {  // visible to its own body, with the listed columns or, until they are known, any
        CteInfo self = info;
        self.any_column = info.columns.empty();
        ctes_.push_back(self);
      }
      std::vector<OutColumn> cols = QueryColumns(*cte.query, outer);
      if (q.recursive) ctes_.pop_back();
      if (info.columns.empty()) {
        info.columns = cols;
      } else {
        for (size_t i = 0; i < info.columns.size() && i < cols.size(); ++i) info.columns[i].origin = cols[i].origin;
      }
      ctes_.push_back(info);
    }
    Scope order_scope;
    std::vector<OutColumn> cols = BodyColumns(q.body, outer, &order_scope);
    if (!q.order_by.empty()) {
      // ORDER BY sees the output columns first, then, for a plain SELECT, its FROM sources.
      order_scope.parent = outer;
      for (const auto& c : cols) order_scope.aliases.push_back(c.name);
      for (const OrderItem& o : q.order_by) {
        if (o.expr.kind == ExprKind::kColumn && o.expr.name.parts.size() == 1) {
          if (const OutColumn* out = FindOut(cols, o.expr.name.last().name)) {
            if (out->origin) out_.column_at[o.expr.offset] = *out->origin;
            continue;
          }
        }
        ExprNames(o.expr, order_scope);
      }
    }
    Scope limit_scope;
    limit_scope.parent = outer;
    if (q.limit) ExprNames(*q.limit, limit_scope);
    if (q.offset) ExprNames(*q.offset, limit_scope);
    ctes_.resize(cte_mark);
    return cols;
  }
  std::vector<OutColumn> BodyColumns(const QueryBody& b, const Scope* outer, Scope* select_scope) {
    switch (b.kind) {
      case QueryBodyKind::kSelect: return SelectColumns(b.select, outer, select_scope);
      case QueryBodyKind::kSetOp: {
        std::vector<OutColumn> left = BodyColumns(*b.left, outer, nullptr);
        BodyColumns(*b.right, outer, nullptr);
        return left;
      }
      case QueryBodyKind::kValues: {
        Scope s;
        s.parent = outer;
        std::vector<OutColumn> cols;
        for (const auto& row : b.rows) {
          for (const Expr& e : row) ExprNames(e, s);
        }
        if (!b.rows.empty()) {
          for (size_t i = 0; i < b.rows[0].size(); ++i) cols.push_back({"column" + std::to_string(i + 1), {}});
        }
        return cols;
      }
      case QueryBodyKind::kParenthesized: return QueryColumns(*b.inner, outer);
    }
    return {};
  }
  std::vector<OutColumn> SelectColumns(const Select& sel, const Scope* outer, Scope* keep) {
    Scope scope;
    scope.parent = outer;
    if (sel.from) {
      // SQLite lets an ON clause name any table of the FROM clause, even one joined after it. The list is this
      // FROM clause's own: a derived table inside it keeps its own list.
      std::vector<const Expr*> outer_on = std::move(deferred_on_);
      deferred_on_.clear();
      AddSources(*sel.from, scope);
      std::vector<const Expr*> mine = std::move(deferred_on_);
      deferred_on_ = std::move(outer_on);
      for (const Expr* on : mine) ExprNames(*on, scope);
    }
    for (const SelectItem& item : sel.items) {
      if (item.alias) scope.aliases.push_back(item.alias->name);
    }
    std::vector<OutColumn> cols;
    for (const SelectItem& item : sel.items) {
      if (item.expr.kind == ExprKind::kStar) {
        Star(item.expr, scope, cols);
        continue;
      }
      ExprNames(item.expr, scope, /*allow_aliases=*/false);
      if (item.alias) {
        cols.push_back({item.alias->name, std::nullopt});
      } else if (item.expr.kind == ExprKind::kColumn) {
        auto it = out_.column_at.find(item.expr.offset);
        cols.push_back({item.expr.name.last().name, it == out_.column_at.end() ? Origin() : Origin(it->second)});
      } else {
        cols.push_back({"", std::nullopt});
      }
    }
    if (sel.top) ExprNames(*sel.top, scope);
    for (const Expr& e : sel.distinct_on) ExprNames(e, scope);
    if (sel.where) ExprNames(*sel.where, scope);
    for (const Expr& e : sel.group_by) ExprNames(e, scope);
    if (sel.having) ExprNames(*sel.having, scope);
    for (const auto& [name, w] : sel.windows) Window(w, scope);
    if (keep) *keep = std::move(scope);
    return cols;
  }
  void Star(const Expr& star, Scope& scope, std::vector<OutColumn>& cols) {
    bool qualified = !star.name.parts.empty();
    bool found = false;
    for (const Source& s : scope.sources) {
      if (qualified && !EqualsIgnoreCase(s.name, star.name.last().name)) continue;
      found = true;
      if (s.table) {
        for (const auto& c : s.table->columns) {
          Read(*s.table, c);
          bool merged = std::any_of(s.merged.begin(), s.merged.end(), [&](auto& m) { return EqualsIgnoreCase(m, c); });
          if (qualified || !merged) cols.push_back({c, std::make_pair(s.table->name, c)});
        }
      } else {
        for (const auto& c : s.columns) cols.push_back(c);
      }
    }
    if (qualified && !found) out_.unresolved.push_back({Joined(star.name), "table", star.offset});
  }

  // Adds the sources of a FROM item to `scope`, resolving join conditions and derived tables on the way.
  void AddSources(const TableRef& t, Scope& scope) {
    switch (t.kind) {
      case TableRefKind::kTable: {
        Source s;
        s.name = t.alias ? t.alias->name : t.name.last().name;
        s.quote = t.alias ? t.alias->quote : t.name.last().quote;
        const CteInfo* cte = t.name.parts.size() == 1 ? FindCte(t.name.last().name) : nullptr;
        if (cte) {
          s.columns = cte->columns;
          s.any_column = cte->any_column;
        } else if (const CatalogTable* table = c_.Find(t.name)) {
          s.table = table;
          out_.tables.insert(table->name);
          out_.table_at[t.name.last().offset] = table->name;
        } else {
          out_.unresolved.push_back({Joined(t.name), "table", t.name.parts.front().offset});
          s.any_column = true;  // do not report each of its columns again
        }
        if (!t.column_aliases.empty()) {
          // t AS x(a, b): the source is seen under the new column names; reads of them are reads of t's columns.
          s.columns.clear();
          for (const auto& c : t.column_aliases) s.columns.push_back({c.name, std::nullopt});
          if (s.table) {
            for (size_t i = 0; i < t.column_aliases.size() && i < s.table->columns.size(); ++i) {
              Read(*s.table, s.table->columns[i]);
            }
          }
          s.table = nullptr;
        }
        scope.sources.push_back(std::move(s));
        return;
      }
      case TableRefKind::kSubquery:
      case TableRefKind::kValues: {
        Source s;
        s.name = t.alias ? t.alias->name : "";
        s.quote = t.alias ? t.alias->quote : 0;
        // A LATERAL subquery sees the sources on its left; any other sees only the enclosing query.
        s.columns = QueryColumns(*t.query, t.lateral ? &scope : scope.parent);
        if (!t.column_aliases.empty()) {
          s.columns.clear();
          for (const auto& c : t.column_aliases) s.columns.push_back({c.name, std::nullopt});
        }
        scope.sources.push_back(std::move(s));
        return;
      }
      case TableRefKind::kFunction: {
        ExprNames(*t.function, scope);
        Source s;
        s.name = t.alias ? t.alias->name : t.function->name.last().name;
        s.quote = t.alias ? t.alias->quote : t.function->name.last().quote;
        s.any_column = true;
        scope.sources.push_back(std::move(s));
        return;
      }
      case TableRefKind::kJoin: {
        AddSources(*t.left, scope);
        size_t left_end = scope.sources.size();
        AddSources(*t.right, scope);
        std::vector<std::pair<std::string, const uint32_t*>> shared;  // name, and where USING wrote it
        if (t.join.natural) {
          for (size_t r = left_end; r < scope.sources.size(); ++r) {
            for (const auto& c : ColumnsOf(scope.sources[r])) {
              for (size_t l = 0; l < left_end; ++l) {
                if (FindColumn(ColumnsOf(scope.sources[l]), c)) shared.emplace_back(c, nullptr);
              }
            }
          }
        }
        for (const auto& u : t.join.using_columns) shared.emplace_back(u.name, &u.offset);
        for (const auto& [c, at] : shared) {
          bool left_has = false, right_has = false;
          // A USING name is bound to the left side's column (a rename maps both sides' columns alike or not at all).
          for (size_t l = 0; l < left_end; ++l)
            left_has |= SourceHas(scope.sources[l], c, true, left_has ? nullptr : at);
          for (size_t r = left_end; r < scope.sources.size(); ++r) {
            if (SourceHas(scope.sources[r], c, true)) {
              right_has = true;
              scope.sources[r].merged.push_back(c);
            }
          }
          if (!left_has || !right_has) out_.unresolved.push_back({c, "column", t.offset});
        }
        if (t.join.on) {
          if (d_.on_sees_whole_from)
            deferred_on_.push_back(t.join.on.get());
          else
            ExprNames(*t.join.on, scope);
        }
        return;
      }
    }
  }
  static std::vector<std::string> ColumnsOf(const Source& s) {
    if (s.table) return s.table->columns;
    std::vector<std::string> names;
    for (const auto& c : s.columns) names.push_back(c.name);
    return names;
  }

  void Window(const WindowSpec& w, Scope& scope) {
    for (const Expr& e : w.partition_by) ExprNames(e, scope);
    for (const OrderItem& o : w.order_by) ExprNames(o.expr, scope);
    if (w.frame) {
      if (w.frame->start.offset) ExprNames(*w.frame->start.offset, scope);
      if (w.frame->end && w.frame->end->offset) ExprNames(*w.frame->end->offset, scope);
    }
  }

  void ExprNames(const Expr& e, Scope& scope, bool allow_aliases = true) {
    switch (e.kind) {
      case ExprKind::kColumn: Column(e, scope, allow_aliases); return;
      case ExprKind::kInQuery:
      case ExprKind::kExists:
      case ExprKind::kSubquery: QueryColumns(*e.query, &scope); break;
      case ExprKind::kKeyword: return;
      default: break;
    }
    for (const Expr& a : e.args) ExprNames(a, scope, allow_aliases);
    if (e.filter) ExprNames(*e.filter, scope, allow_aliases);
    if (e.over) Window(*e.over, scope);
    for (const OrderItem& o : e.within_group) ExprNames(o.expr, scope, allow_aliases);
    for (const OrderItem& o : e.arg_order) ExprNames(o.expr, scope, allow_aliases);
  }

  // Whether `col` is a USING / NATURAL join column in scope `s` (one column shared by two sources).
  static bool IsMerged(const Scope& s, const std::string& col) {
    for (const Source& src : s.sources) {
      for (const auto& m : src.merged) {
        if (EqualsIgnoreCase(m, col)) return true;
      }
    }
    return false;
  }

  // Whether a FROM item called `name` in a scope from `inner` out to (not including) `found` would capture a
  // reference qualified with `name` before it reaches the source in `found`.
  static bool Shadowed(const Scope& inner, const Scope* found, const std::string& name) {
    for (const Scope* s = &inner; s && s != found; s = s->parent) {
      for (const Source& src : s->sources) {
        if (EqualsIgnoreCase(src.name, name)) return true;
      }
    }
    return false;
  }

  void Column(const Expr& e, Scope& scope, bool allow_aliases) {
    const QualifiedName& n = e.name;
    const std::string& col = n.last().name;
    if (n.parts.size() >= 2) {
      const std::string& qualifier = n.parts[n.parts.size() - 2].name;
      for (const Scope* s = &scope; s; s = s->parent) {
        for (const Source& src : s->sources) {
          if (!EqualsIgnoreCase(src.name, qualifier)) continue;
          if (!SourceHas(src, col, true, &e.offset)) out_.unresolved.push_back({Joined(n), "column", e.offset});
          return;
        }
      }
      // table.column with the table not in FROM: SQLite accepts it nowhere, so it is unresolved.
      out_.unresolved.push_back({Joined(n), "column", e.offset});
      return;
    }
    for (const Scope* s = &scope; s; s = s->parent) {
      const Source* hit = nullptr;
      int hits = 0;
      for (const Source& src : s->sources) {
        if (!SourceHas(src, col, false)) continue;
        bool merged =
            std::any_of(src.merged.begin(), src.merged.end(), [&](auto& m) { return EqualsIgnoreCase(m, col); });
        if (merged && hit) continue;  // a USING column is one column
        if (!hit) hit = &src;
        ++hits;
      }
      if (hits > 1 && !(hit && hit->any_column)) {
        bool all_any = true;
        for (const Source& src : s->sources) {
          if (SourceHas(src, col, false) && !src.any_column) all_any = false;
        }
        if (!all_any) {
          out_.unresolved.push_back({col, "ambiguous column", e.offset});
          return;
        }
      }
      if (hit) {
        SourceHas(*hit, col, true, &e.offset);
        if (hits == 1 && !hit->name.empty() && !IsMerged(*s, col) && !Shadowed(scope, s, hit->name)) {
          out_.qualifier_at[e.offset] = Identifier{hit->name, hit->quote, e.offset};
        }
        return;
      }
      if (allow_aliases && s == &scope) {
        for (const auto& a : s->aliases) {
          if (EqualsIgnoreCase(a, col)) return;
        }
      }
    }
    if (d_.unknown_quoted_is_string && n.last().quote == '"') {  // SQLite reads an unknown "x" as the string 'x'
      out_.string_fallbacks.push_back(e.offset);
      return;
    }
    out_.unresolved.push_back({col, "column", e.offset});
  }

  const NameCatalog& c_;
  const Dialect& d_;
  Resolution out_;
  std::vector<CteInfo> ctes_;
  std::vector<const Expr*> deferred_on_;  // ON clauses of the FROM clause being read (on_sees_whole_from)
};

}  // namespace

Resolution Resolve(const Query& query, const NameCatalog& catalog, const Dialect& dialect) {
  return Resolver(catalog, dialect).Run(query);
}

nlohmann::ordered_json ResolutionToJson(const Resolution& r, std::string_view source) {
  nlohmann::ordered_json j;
  j["tables"] = std::vector<std::string>(r.tables.begin(), r.tables.end());
  std::vector<std::string> columns;
  for (const auto& [t, c] : r.columns) columns.push_back(t + "." + c);
  j["columns"] = columns;
  j["unresolved"] = nlohmann::ordered_json::array();
  for (const UnresolvedName& u : r.unresolved) {
    SourcePosition p = PositionOf(source, u.offset);
    j["unresolved"].push_back({{"name", u.name}, {"kind", u.kind}, {"line", p.line}, {"column", p.column}});
  }
  return j;
}

}  // namespace plainsql::sql
