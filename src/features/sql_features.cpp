// SQL-syntax features: one pass over the syntax tree that counts what it meets, with the scopes of FROM names kept so
// that a subquery naming a table of an enclosing query (a correlated subquery) is seen.
#include "features/sql_features.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <string_view>
#include <vector>

#include "common/strings.h"

namespace plainsql::features {

void Set(Values& values, std::string_view id, bool holds) {
  auto at = IndexOf(id);
  assert(at && "feature id not in the catalog");
  if (at) values[*at] = holds ? 1 : 0;
}

int8_t Get(const Values& values, std::string_view id) {
  auto at = IndexOf(id);
  return at && *at < values.size() ? values[*at] : int8_t{-1};
}

namespace {

// Aggregate functions by name (lower case). MIN and MAX with two arguments or more are SQLite's scalar functions.
bool IsAggregateCall(const sql::Expr& e) {
  if (e.kind != sql::ExprKind::kFunction || e.over || e.over_name || e.name.parts.empty()) return false;
  const std::string name = ToLower(e.name.last().name);
  static const std::set<std::string_view> kAggregates = {
      "count",     "sum",     "avg",      "total",   "group_concat", "string_agg",      "array_agg",
      "stdev",     "stdevp",  "var",      "varp",    "stddev",       "variance",        "median",
      "count_big", "listagg", "bool_and", "bool_or", "every",        "json_group_array"};
  if (name == "min" || name == "max") return e.args.size() <= 1;
  return kAggregates.count(name) > 0;
}

// What one pass over the tree finds.
struct Scan {
  // Subqueries and nesting.
  int subqueries = 0, max_depth = 0;
  bool subquery_in_where = false, subquery_in_from = false, correlated = false;
  // Set operations and common table expressions.
  bool set_op = false, union_plain = false, union_all = false, intersect = false, except = false;
  bool cte = false, recursive = false;
  // FROM.
  bool join = false, multiple_joins = false, outer_join = false, self_join = false, cross_join = false;
  // Aggregation, grouping, order.
  int aggregates = 0;
  bool aggregate_in_select = false, count = false, aggregate_distinct = false;
  bool group_by = false, group_by_several = false, having = false;
  bool order_by = false, descending = false, limit = false, order_limit = false, distinct = false;
  // Conditions.
  bool where = false, where_several = false;
  int wheres = 0;
  bool and_op = false, or_op = false, negation = false, inequality = false, between = false, like = false;
  bool in_list = false, in_subquery = false, exists = false, null_test = false;
  // Expressions.
  bool case_expr = false, window = false, cast = false, arithmetic = false, scalar_function = false;
  bool alias = false, star = false, string_literal = false, number_literal = false;
  SqlFacts facts;

  // Per query level: the FROM names (lower case) of each enclosing SELECT, innermost last.
  std::vector<std::set<std::string>> scopes;

  void Query(const sql::Query& q, int depth);
  void Body(const sql::QueryBody& b, int depth, const sql::Query& owner);
  void Select(const sql::Select& s, int depth, const sql::Query& owner);
  void From(const sql::TableRef& t, int depth, std::set<std::string>& names, std::vector<std::string>& tables);
  void Expr(const sql::Expr& e, int depth, bool in_where, bool compared = false);
  void Nested(const sql::Query& q, int depth) {
    ++subqueries;
    max_depth = std::max(max_depth, depth + 1);
    Query(q, depth + 1);
  }
  void Value(const sql::Expr& e);
  void Conditions(const sql::Expr& e, int& n);
};

void Scan::Query(const sql::Query& q, int depth) {
  if (!q.with.empty()) cte = true;
  if (q.recursive) recursive = true;
  for (const auto& c : q.with) {
    if (c.query) Query(*c.query, depth);
  }
  Body(q.body, depth, q);
  if (!q.order_by.empty()) order_by = true;
  for (const auto& o : q.order_by) {
    if (o.descending.value_or(false)) descending = true;
    if (q.body.kind != sql::QueryBodyKind::kSelect) Expr(o.expr, depth, false);
  }
  if (q.limit) limit = true;
  if (!q.order_by.empty() && q.limit) order_limit = true;
}

void Scan::Body(const sql::QueryBody& b, int depth, const sql::Query& owner) {
  switch (b.kind) {
    case sql::QueryBodyKind::kSelect: Select(b.select, depth, owner); break;
    case sql::QueryBodyKind::kSetOp:
      set_op = true;
      if (b.set_op == sql::SetOp::kUnion) (b.set_all ? union_all : union_plain) = true;
      if (b.set_op == sql::SetOp::kIntersect) intersect = true;
      if (b.set_op == sql::SetOp::kExcept) except = true;
      if (b.left) Body(*b.left, depth, owner);
      if (b.right) Body(*b.right, depth, owner);
      break;
    case sql::QueryBodyKind::kParenthesized:
      if (b.inner) Query(*b.inner, depth);
      break;
    case sql::QueryBodyKind::kValues:
      for (const auto& row : b.rows) {
        for (const auto& e : row) Expr(e, depth, false);
      }
      break;
  }
}

void Scan::Conditions(const sql::Expr& e, int& n) {
  if (e.kind == sql::ExprKind::kBinary && (e.op == "AND" || e.op == "OR")) {
    Conditions(e.args[0], n);
    Conditions(e.args[1], n);
    return;
  }
  ++n;
}

void Scan::Select(const sql::Select& s, int depth, const sql::Query& owner) {
  std::set<std::string> names;
  std::vector<std::string> tables;
  if (s.from) From(*s.from, depth, names, tables);
  scopes.push_back(names);
  if (tables.size() >= 2) join = true;
  if (tables.size() >= 3) multiple_joins = true;
  std::sort(tables.begin(), tables.end());
  if (std::adjacent_find(tables.begin(), tables.end()) != tables.end()) self_join = true;
  if (s.distinct) distinct = true;
  if (s.top) {
    limit = true;
    if (!owner.order_by.empty()) order_limit = true;
  }
  for (const auto& item : s.items) {
    if (item.alias) alias = true;
    if (item.expr.kind == sql::ExprKind::kStar) star = true;
    const int before = aggregates;
    Expr(item.expr, depth, false);
    if (aggregates > before) aggregate_in_select = true;
  }
  if (s.where) {
    where = true;
    ++wheres;
    int n = 0;
    Conditions(*s.where, n);
    if (n >= 2) where_several = true;
    Expr(*s.where, depth, true);
  }
  if (!s.group_by.empty()) group_by = true;
  if (s.group_by.size() >= 2) group_by_several = true;
  for (const auto& g : s.group_by) Expr(g, depth, false);
  if (s.having) {
    having = true;
    Expr(*s.having, depth, true);
  }
  // The query's ORDER BY sees this SELECT's names when the SELECT is its whole body (Query reads the rest).
  if (owner.body.kind == sql::QueryBodyKind::kSelect && &owner.body.select == &s) {
    for (const auto& o : owner.order_by) Expr(o.expr, depth, false);
  }
  scopes.pop_back();
}

void Scan::From(const sql::TableRef& t, int depth, std::set<std::string>& names, std::vector<std::string>& tables) {
  if (t.alias) {
    alias = true;
    names.insert(ToLower(t.alias->name));
  }
  switch (t.kind) {
    case sql::TableRefKind::kTable:
      if (!t.name.parts.empty()) {
        tables.push_back(ToLower(t.name.last().name));
        names.insert(ToLower(t.name.last().name));
      }
      break;
    case sql::TableRefKind::kSubquery:
    case sql::TableRefKind::kValues:
      tables.push_back("(subquery)" + std::to_string(tables.size()));
      subquery_in_from = true;
      if (t.query) Nested(*t.query, depth);
      break;
    case sql::TableRefKind::kFunction:
      tables.push_back("(function)" + std::to_string(tables.size()));
      if (t.function) Expr(*t.function, depth, false);
      break;
    case sql::TableRefKind::kJoin:
      if (t.left) From(*t.left, depth, names, tables);
      if (t.right) From(*t.right, depth, names, tables);
      if (t.join.kind == sql::JoinKind::kLeft || t.join.kind == sql::JoinKind::kRight ||
          t.join.kind == sql::JoinKind::kFull) {
        outer_join = true;
      }
      if (t.join.kind == sql::JoinKind::kCross || t.join.comma) cross_join = true;
      if (t.join.on) {
        scopes.push_back(names);  // ON sees the FROM items joined so far
        Expr(*t.join.on, depth, false);
        scopes.pop_back();
      }
      break;
  }
}

// A literal compared with: its text as written; a LIKE pattern without its wildcards at the ends.
void Scan::Value(const sql::Expr& e) {
  if (e.kind != sql::ExprKind::kLiteral) return;
  if (e.literal_kind != sql::LiteralKind::kString && e.literal_kind != sql::LiteralKind::kNumber) return;
  std::string text = e.text;
  while (!text.empty() && (text.front() == '%' || text.front() == '_')) text.erase(text.begin());
  while (!text.empty() && (text.back() == '%' || text.back() == '_')) text.pop_back();
  if (!text.empty()) facts.compared_values.insert(text);
}

void Scan::Expr(const sql::Expr& e, int depth, bool in_where, bool compared) {
  using K = sql::ExprKind;
  if (compared) Value(e);
  switch (e.kind) {
    case K::kLiteral:
      if (e.literal_kind == sql::LiteralKind::kString) string_literal = true;
      if (e.literal_kind == sql::LiteralKind::kNumber) {
        number_literal = true;
        facts.numbers.insert(e.text);
      }
      break;
    case K::kColumn:
      if (e.name.parts.size() >= 2 && scopes.size() >= 2) {
        // Qualified by a name no FROM of this query level has, but an enclosing level's: an outer reference.
        const std::string q = ToLower(e.name.parts[e.name.parts.size() - 2].name);
        if (!scopes.back().count(q)) {
          for (size_t i = scopes.size() - 1; i-- > 0;) {
            if (scopes[i].count(q)) {
              correlated = true;
              break;
            }
          }
        }
      }
      break;
    case K::kStar: break;
    case K::kUnary:
      if (e.op == "NOT") negation = true;
      break;
    case K::kBinary: {
      const std::string& op = e.op;
      if (op == "AND") and_op = true;
      if (op == "OR") or_op = true;
      if (op == "!=" || op == "<>") negation = true;
      if (op == "<" || op == ">" || op == "<=" || op == ">=") inequality = true;
      if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%") arithmetic = true;
      const bool comparison =
          op == "=" || op == "==" || op == "!=" || op == "<>" || op == "<" || op == ">" || op == "<=" || op == ">=";
      if ((op == "=" || op == "==") && e.args.size() == 2 && e.args[0].kind == K::kColumn &&
          e.args[1].kind == K::kColumn) {
        facts.join_key_offsets.insert(e.args[0].offset);
        facts.join_key_offsets.insert(e.args[1].offset);
      }
      for (const auto& a : e.args) Expr(a, depth, in_where, comparison);
      return;
    }
    case K::kBetween:
      between = true;
      if (e.negated) negation = true;
      for (size_t i = 0; i < e.args.size(); ++i) Expr(e.args[i], depth, in_where, i > 0);
      return;
    case K::kInList:
      in_list = true;
      if (e.negated) negation = true;
      for (size_t i = 0; i < e.args.size(); ++i) Expr(e.args[i], depth, in_where, i > 0);
      return;
    case K::kInQuery: in_subquery = true; [[fallthrough]];
    case K::kExists:
      if (e.kind == K::kExists) exists = true;
      [[fallthrough]];
    case K::kSubquery:
      if (e.negated) negation = true;
      if (in_where) subquery_in_where = true;
      for (const auto& a : e.args) Expr(a, depth, in_where);
      if (e.query) Nested(*e.query, depth);
      return;
    case K::kLike:
      like = true;
      if (e.negated) negation = true;
      for (size_t i = 0; i < e.args.size(); ++i) Expr(e.args[i], depth, in_where, i == 1);
      return;
    case K::kIsNull:
      null_test = true;
      if (e.negated) negation = true;
      break;
    case K::kIs:
      if (e.negated) negation = true;
      if (e.args.size() == 2 && e.args[1].kind == K::kLiteral && e.args[1].literal_kind == sql::LiteralKind::kNull) {
        null_test = true;
      }
      break;
    case K::kCase: case_expr = true; break;
    case K::kCast: cast = true; break;
    case K::kFunction:
      if (e.over || e.over_name) {
        window = true;
      } else if (IsAggregateCall(e)) {
        ++aggregates;
        const std::string name = ToLower(e.name.last().name);
        if (name == "count") count = true;
        if (name == "max" || name == "min") facts.max_or_min = true;
        if (e.distinct) aggregate_distinct = true;
      } else {
        scalar_function = true;
      }
      if (e.filter) Expr(*e.filter, depth, in_where);
      break;
    default: break;
  }
  for (const auto& a : e.args) Expr(a, depth, in_where);
}

}  // namespace

SqlFacts ReadSql(const sql::Query& query, Values& values) {
  Scan s;
  s.Query(query, 0);
  const bool single = s.subqueries == 0 && !s.set_op && !s.cte;
  Set(values, "sql.single_select", single);
  Set(values, "sql.select_from_where",
      single && !s.join && !s.group_by && !s.having && !s.order_by && !s.limit && s.aggregates == 0 && !s.distinct &&
          !s.window);
  Set(values, "sql.subquery", s.subqueries > 0);
  Set(values, "sql.subquery_in_where", s.subquery_in_where);
  Set(values, "sql.subquery_in_from", s.subquery_in_from);
  Set(values, "sql.correlated_subquery", s.correlated);
  Set(values, "sql.nested_twice", s.max_depth >= 2);
  Set(values, "sql.set_operation", s.set_op);
  Set(values, "sql.union", s.union_plain);
  Set(values, "sql.union_all", s.union_all);
  Set(values, "sql.intersect", s.intersect);
  Set(values, "sql.except", s.except);
  Set(values, "sql.cte", s.cte);
  Set(values, "sql.recursive_cte", s.recursive);
  Set(values, "sql.join", s.join);
  Set(values, "sql.multiple_joins", s.multiple_joins);
  Set(values, "sql.outer_join", s.outer_join);
  Set(values, "sql.self_join", s.self_join);
  Set(values, "sql.cross_join", s.cross_join);
  Set(values, "sql.aggregate", s.aggregates > 0);
  Set(values, "sql.aggregate_in_select", s.aggregate_in_select);
  Set(values, "sql.count", s.count);
  Set(values, "sql.aggregate_distinct", s.aggregate_distinct);
  Set(values, "sql.several_aggregates", s.aggregates >= 2);
  Set(values, "sql.group_by", s.group_by);
  Set(values, "sql.group_by_several", s.group_by_several);
  Set(values, "sql.having", s.having);
  Set(values, "sql.order_by", s.order_by);
  Set(values, "sql.order_descending", s.descending);
  Set(values, "sql.limit", s.limit);
  Set(values, "sql.order_limit", s.order_limit);
  Set(values, "sql.distinct", s.distinct);
  Set(values, "sql.where", s.where);
  Set(values, "sql.where_single", s.where && !s.where_several);
  Set(values, "sql.where_several", s.where_several);
  Set(values, "sql.and", s.and_op);
  Set(values, "sql.or", s.or_op);
  Set(values, "sql.negation", s.negation);
  Set(values, "sql.inequality", s.inequality);
  Set(values, "sql.between", s.between);
  Set(values, "sql.like", s.like);
  Set(values, "sql.in_list", s.in_list);
  Set(values, "sql.in_subquery", s.in_subquery);
  Set(values, "sql.exists", s.exists);
  Set(values, "sql.null_test", s.null_test);
  Set(values, "sql.case", s.case_expr);
  Set(values, "sql.window", s.window);
  Set(values, "sql.cast", s.cast);
  Set(values, "sql.arithmetic", s.arithmetic);
  Set(values, "sql.scalar_function", s.scalar_function);
  Set(values, "sql.alias", s.alias);
  Set(values, "sql.star", s.star);
  // The outer SELECT: the first of a set operation's.
  const sql::QueryBody* body = &query.body;
  while (body->kind == sql::QueryBodyKind::kSetOp && body->left) body = &*body->left;
  Set(values, "sql.several_columns", body->kind == sql::QueryBodyKind::kSelect && body->select.items.size() >= 2);
  Set(values, "sql.string_literal", s.string_literal);
  Set(values, "sql.number_literal", s.number_literal);
  return s.facts;
}

}  // namespace plainsql::features
