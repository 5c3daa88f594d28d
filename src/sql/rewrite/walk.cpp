// Tree walking for rewrite passes (see walk.h).
#include "sql/rewrite/walk.h"

namespace plainsql::sql {

namespace {

class TreeWalk {
 public:
  explicit TreeWalk(const Walker& w) : w_(w) {}

  void QueryNode(Query& q) {
    if (w_.on_query) w_.on_query(q);
    for (Cte& c : q.with) {
      Alias(c.name);
      for (auto& col : c.columns) Alias(col);
      QueryNode(*c.query);
    }
    Body(q.body);
    for (OrderItem& o : q.order_by) ExprNode(o.expr);
    if (q.limit) ExprNode(*q.limit);
    if (q.offset) ExprNode(*q.offset);
  }

 private:
  void Alias(Identifier& id) {
    if (w_.on_alias) w_.on_alias(id);
  }

  void Body(QueryBody& b) {
    switch (b.kind) {
      case QueryBodyKind::kSelect: SelectNode(b.select); break;
      case QueryBodyKind::kSetOp:
        Body(*b.left);
        Body(*b.right);
        break;
      case QueryBodyKind::kValues:
        for (auto& row : b.rows) {
          for (Expr& e : row) ExprNode(e);
        }
        break;
      case QueryBodyKind::kParenthesized: QueryNode(*b.inner); break;
    }
  }

  void SelectNode(Select& s) {
    if (s.top) ExprNode(*s.top);
    for (Expr& e : s.distinct_on) ExprNode(e);
    for (SelectItem& item : s.items) {
      ExprNode(item.expr);
      if (item.alias) Alias(*item.alias);
    }
    if (s.from) Table(*s.from);
    if (s.where) ExprNode(*s.where);
    for (Expr& e : s.group_by) ExprNode(e);
    if (s.having) ExprNode(*s.having);
    for (auto& [name, w] : s.windows) Window(w);
  }

  void Table(TableRef& t) {
    if (w_.on_table) w_.on_table(t);
    switch (t.kind) {
      case TableRefKind::kTable: break;
      case TableRefKind::kSubquery:
      case TableRefKind::kValues: QueryNode(*t.query); break;
      case TableRefKind::kFunction: ExprNode(*t.function); break;
      case TableRefKind::kJoin:
        Table(*t.left);
        Table(*t.right);
        if (t.join.on) ExprNode(*t.join.on);
        break;
    }
    if (t.alias) Alias(*t.alias);
    for (auto& c : t.column_aliases) Alias(c);
  }

  void Window(WindowSpec& w) {
    for (Expr& e : w.partition_by) ExprNode(e);
    for (OrderItem& o : w.order_by) ExprNode(o.expr);
    if (w.frame) {
      if (w.frame->start.offset) ExprNode(*w.frame->start.offset);
      if (w.frame->end && w.frame->end->offset) ExprNode(*w.frame->end->offset);
    }
  }

  void ExprNode(Expr& e) {
    if (w_.on_expr) w_.on_expr(e);
    for (Expr& a : e.args) ExprNode(a);
    if (e.query) QueryNode(*e.query);
    if (e.filter) ExprNode(*e.filter);
    if (e.over) Window(*e.over);
    for (OrderItem& o : e.within_group) ExprNode(o.expr);
    for (OrderItem& o : e.arg_order) ExprNode(o.expr);
  }

  const Walker& w_;
};

}  // namespace

void Walk(Query& query, const Walker& walker) { TreeWalk(walker).QueryNode(query); }

}  // namespace plainsql::sql
