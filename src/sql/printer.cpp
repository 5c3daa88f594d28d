// SQL printer (see printer.h).
#include "sql/printer.h"

#include <fmt/format.h>

#include "common/strings.h"
#include "sql/precedence.h"

namespace plainsql::sql {

namespace {

int BinaryPrec(const std::string& op) {
  if (op == "OR" || op == "XOR") return kPrecOr;
  if (op == "AND") return kPrecAnd;
  if (op == "=" || op == "==" || op == "!=" || op == "<>" || op == "<" || op == "<=" || op == ">" || op == ">=" ||
      op == "!<" || op == "!>")
    return kPrecCompare;
  if (op == "|" || op == "&" || op == "<<" || op == ">>" || op == "^") return kPrecBit;
  if (op == "+" || op == "-") return kPrecAdd;
  if (op == "*" || op == "/" || op == "%" || op == "DIV" || op == "MOD") return kPrecMul;
  return kPrecConcat;  // || -> ->>
}

int ExprPrec(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kBinary: return BinaryPrec(e.op);
    case ExprKind::kUnary: return e.op == "NOT" ? kPrecNot : kPrecUnary;
    case ExprKind::kBetween:
    case ExprKind::kInList:
    case ExprKind::kInQuery:
    case ExprKind::kLike:
    case ExprKind::kIsNull:
    case ExprKind::kIs: return kPrecCompare;
    case ExprKind::kExists: return e.negated ? kPrecNot : kPrecAtom;
    case ExprKind::kCollate: return kPrecUnary + 1;
    case ExprKind::kCast: return e.cast_style == CastStyle::kColons ? kPrecUnary + 1 : kPrecAtom;
    case ExprKind::kInterval: return kPrecUnary;
    default: return kPrecAtom;
  }
}

std::string_view SetOpName(SetOp op) {
  switch (op) {
    case SetOp::kUnion: return "UNION";
    case SetOp::kIntersect: return "INTERSECT";
    case SetOp::kExcept: return "EXCEPT";
  }
  return "UNION";
}

class Printer {
 public:
  Printer(const Dialect& d, const PrintOptions& o) : d_(d), o_(o) {}

  std::string Ident(const Identifier& id) const {
    // A rewrite pass's placeholder (<mask>) is written as it is: no name the parser reads can be spelled that way.
    if (id.quote == 0 && id.name.size() > 2 && id.name.front() == '<' && id.name.back() == '>') return id.name;
    if (id.quote == 0) {
      // A bare name stays bare unless the target cannot read it bare; then it is quoted as the target would fold it.
      bool plain = !id.name.empty() && !IsReservedIn(d_, id.name) && !(id.name[0] >= '0' && id.name[0] <= '9');
      for (char c : id.name) {
        unsigned char u = static_cast<unsigned char>(c);
        if (!(std::isalnum(u) || c == '_' || u >= 0x80 || c == '$' || c == '#' || c == '@')) plain = false;
      }
      if (plain) return id.name;
      std::string folded = d_.folding == CaseFolding::kLower   ? ToLower(id.name)
                           : d_.folding == CaseFolding::kUpper ? ToUpper(id.name)
                                                               : id.name;
      return AlwaysQuoteIdentifier(d_, folded);
    }
    return AlwaysQuoteIdentifier(d_, id.name);
  }

  std::string Name(const QualifiedName& n) const {
    std::string out;
    for (size_t i = 0; i < n.parts.size(); ++i) {
      if (i) out += ".";
      out += Ident(n.parts[i]);
    }
    return out;
  }

  std::string String(const std::string& value, char prefix) const {
    std::string body = ReplaceAll(value, "'", "''");
    if (d_.backslash_escapes) body = ReplaceAll(body, "\\", "\\\\");
    std::string p;
    if (prefix == 'N' && d_.national_strings) p = "N";
    if (prefix == 'B') p = "B";
    return p + "'" + body + "'";
  }

  std::string Type(const DataType& t) const {
    std::string out = t.quote ? AlwaysQuoteIdentifier(d_, t.name) : t.name;
    if (!t.params.empty()) out += "(" + Join(t.params, ", ") + ")";
    if (t.array) out += "[]";
    return out;
  }

  // An operand printed inside a parent of binding power `parent`; `right` for the right operand of a binary
  // operator (equal binding power needs parentheses there, as operators are left-associative).
  std::string Operand(const Expr& e, int parent, bool right = false) {
    std::string s = ExprText(e);
    int p = ExprPrec(e);
    if (p < parent || (right && p == parent && p < kPrecAtom)) return "(" + s + ")";
    return s;
  }

  std::string List(const std::vector<Expr>& xs) {
    std::string out;
    for (size_t i = 0; i < xs.size(); ++i) {
      if (i) out += ", ";
      out += ExprText(xs[i]);
    }
    return out;
  }

  std::string OrderList(const std::vector<OrderItem>& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
      const OrderItem& it = items[i];
      if (i) out += ", ";
      out += ExprText(it.expr);
      if (it.descending) out += *it.descending ? " DESC" : " ASC";
      if (it.nulls == NullsOrder::kFirst) out += " NULLS FIRST";
      if (it.nulls == NullsOrder::kLast) out += " NULLS LAST";
    }
    return out;
  }

  std::string ExprText(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kLiteral:
        switch (e.literal_kind) {
          case LiteralKind::kNumber: return e.text;
          case LiteralKind::kString: return String(e.text, e.prefix);
          case LiteralKind::kBlob: return "X'" + e.text + "'";
          case LiteralKind::kNull: return "NULL";
          case LiteralKind::kTrue: return d_.boolean_literals ? "TRUE" : "1";
          case LiteralKind::kFalse: return d_.boolean_literals ? "FALSE" : "0";
        }
        return e.text;
      case ExprKind::kColumn: return Name(e.name);
      case ExprKind::kStar: return e.name.parts.empty() ? "*" : Name(e.name) + ".*";
      case ExprKind::kParameter: return e.text;
      case ExprKind::kKeyword: return e.text;
      case ExprKind::kUnary: {
        if (e.op == "NOT") return "NOT " + Operand(e.args[0], kPrecNot);
        std::string inner = Operand(e.args[0], kPrecUnary);
        // "- -1" must not become "--1", which starts a comment.
        bool space = !inner.empty() && (inner[0] == '-' || inner[0] == '+');
        return e.op + (space ? " " : "") + inner;
      }
      case ExprKind::kBinary: {
        int p = BinaryPrec(e.op);
        std::string op = e.op == "==" && !d_.double_equals ? "=" : e.op;
        return Operand(e.args[0], p) + " " + op + " " + Operand(e.args[1], p, true);
      }
      case ExprKind::kBetween:
        return Operand(e.args[0], kPrecCompare + 1) + (e.negated ? " NOT BETWEEN " : " BETWEEN ") +
               Operand(e.args[1], kPrecCompare + 1) + " AND " + Operand(e.args[2], kPrecCompare + 1);
      case ExprKind::kInList: {
        std::vector<Expr> items(e.args.begin() + 1, e.args.end());
        return Operand(e.args[0], kPrecCompare + 1) + (e.negated ? " NOT IN (" : " IN (") + List(items) + ")";
      }
      case ExprKind::kInQuery:
        return Operand(e.args[0], kPrecCompare + 1) + (e.negated ? " NOT IN (" : " IN (") + Sub(*e.query) + ")";
      case ExprKind::kLike: {
        std::string op = e.op;
        if (op == "ILIKE" && !d_.ilike) op = "LIKE";  // LIKE is case-insensitive there by default
        std::string out = Operand(e.args[0], kPrecCompare + 1) + (e.negated ? " NOT " : " ") + op + " " +
                          Operand(e.args[1], kPrecCompare + 1);
        if (e.args.size() > 2) out += " ESCAPE " + Operand(e.args[2], kPrecCompare + 1);
        return out;
      }
      case ExprKind::kIsNull: return Operand(e.args[0], kPrecCompare + 1) + (e.negated ? " IS NOT NULL" : " IS NULL");
      case ExprKind::kIs:
        return Operand(e.args[0], kPrecCompare + 1) + " IS " + (e.negated ? "NOT " : "") +
               (e.distinct_from ? "DISTINCT FROM " : "") + Operand(e.args[1], kPrecCompare + 1);
      case ExprKind::kExists: return std::string(e.negated ? "NOT EXISTS (" : "EXISTS (") + Sub(*e.query) + ")";
      case ExprKind::kSubquery: return "(" + Sub(*e.query) + ")";
      case ExprKind::kCase: {
        std::string out = "CASE";
        size_t i = 0;
        if (e.has_operand) out += " " + ExprText(e.args[i++]);
        size_t pairs_end = e.args.size() - (e.has_else ? 1 : 0);
        for (; i + 1 < pairs_end + 1 && i < pairs_end; i += 2) {
          out += " WHEN " + ExprText(e.args[i]) + " THEN " + ExprText(e.args[i + 1]);
        }
        if (e.has_else) out += " ELSE " + ExprText(e.args.back());
        return out + " END";
      }
      case ExprKind::kCast: return Cast(e);
      case ExprKind::kFunction: return Function(e);
      case ExprKind::kCollate: {
        std::string name = e.quote ? AlwaysQuoteIdentifier(d_, e.text) : e.text;
        return Operand(e.args[0], kPrecUnary + 1) + " COLLATE " + name;
      }
      case ExprKind::kTuple: return "(" + List(e.args) + ")";
      case ExprKind::kInterval:
        return "INTERVAL " + Operand(e.args[0], kPrecUnary) + (e.text.empty() ? "" : " " + e.text);
      case ExprKind::kExtract: return "EXTRACT(" + e.text + " FROM " + ExprText(e.args[0]) + ")";
      case ExprKind::kSubscript: return Operand(e.args[0], kPrecAtom) + "[" + ExprText(e.args[1]) + "]";
    }
    return {};
  }

  std::string Cast(const Expr& e) {
    const Expr& v = e.args[0];
    switch (e.cast_style) {
      case CastStyle::kColons:
        if (d_.colon_casts) return Operand(v, kPrecUnary + 1) + "::" + Type(e.type);
        break;
      case CastStyle::kTryCast:
        if (d_.try_cast) return "TRY_CAST(" + ExprText(v) + " AS " + Type(e.type) + ")";
        break;
      case CastStyle::kConvert:
        if (d_.convert_type_first) {
          return "CONVERT(" + Type(e.type) + ", " + ExprText(v) +
                 (e.args.size() > 1 ? ", " + ExprText(e.args[1]) : "") + ")";
        }
        break;
      case CastStyle::kConvertMySql:
        if (d_.convert_value_type) return "CONVERT(" + ExprText(v) + ", " + Type(e.type) + ")";
        break;
      case CastStyle::kTypedLiteral:
        if (d_.typed_literals == TypedLiteralStyle::kValueOnly) return ExprText(v);
        if (d_.typed_literals == TypedLiteralStyle::kTypePrefix) return Type(e.type) + " " + ExprText(v);
        break;
      case CastStyle::kCast: break;
    }
    return "CAST(" + ExprText(v) + " AS " + Type(e.type) + ")";
  }

  // Function names are printed as written: many are keywords (rank, left, replace) and must not be quoted.
  std::string FunctionName(const QualifiedName& n) const {
    std::string out;
    for (size_t i = 0; i < n.parts.size(); ++i) {
      if (i) out += ".";
      out += n.parts[i].quote ? AlwaysQuoteIdentifier(d_, n.parts[i].name) : n.parts[i].name;
    }
    return out;
  }

  std::string Function(const Expr& e) {
    std::string out = FunctionName(e.name) + "(";
    switch (e.func_style) {
      case FuncStyle::kPositionIn: out += Operand(e.args[0], kPrecCompare + 1) + " IN " + ExprText(e.args[1]); break;
      case FuncStyle::kTrimFrom:
        if (!e.text.empty()) out += e.text + " ";
        if (e.args.size() > 1) out += ExprText(e.args[1]) + " ";
        out += "FROM " + ExprText(e.args[0]);
        break;
      case FuncStyle::kSubstringFrom:
        if (!d_.substring_from) {
          out += List(e.args);  // SUBSTRING(x, a[, b]): the same arguments in the comma form
        } else {
          out += ExprText(e.args[0]) + " FROM " + ExprText(e.args[1]);
          if (e.args.size() > 2) out += " FOR " + ExprText(e.args[2]);
        }
        break;
      case FuncStyle::kConvertUsing: out += ExprText(e.args[0]) + " USING " + e.text; break;
      case FuncStyle::kPlain:
        if (e.star_arg) {
          out += "*";
        } else {
          if (e.distinct) out += "DISTINCT ";
          if (e.text == "SEPARATOR" && !e.args.empty()) {
            std::vector<Expr> head(e.args.begin(), e.args.end() - 1);
            out += List(head);
            if (!e.arg_order.empty()) out += " ORDER BY " + OrderList(e.arg_order);
            out += " SEPARATOR " + ExprText(e.args.back());
          } else {
            out += List(e.args);
            if (!e.arg_order.empty()) out += " ORDER BY " + OrderList(e.arg_order);
          }
        }
        break;
    }
    out += ")";
    if (!e.within_group.empty()) out += " WITHIN GROUP (ORDER BY " + OrderList(e.within_group) + ")";
    if (e.filter) out += " FILTER (WHERE " + ExprText(*e.filter) + ")";
    if (e.over_name) out += " OVER " + Ident(*e.over_name);
    if (e.over) out += " OVER (" + Window(*e.over) + ")";
    return out;
  }

  std::string Bound(const FrameBound& b) {
    switch (b.kind) {
      case BoundKind::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
      case BoundKind::kPreceding: return ExprText(*b.offset) + " PRECEDING";
      case BoundKind::kCurrentRow: return "CURRENT ROW";
      case BoundKind::kFollowing: return ExprText(*b.offset) + " FOLLOWING";
      case BoundKind::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
    }
    return {};
  }

  std::string Window(const WindowSpec& w) {
    std::vector<std::string> parts;
    if (w.base) parts.push_back(Ident(*w.base));
    if (!w.partition_by.empty()) parts.push_back("PARTITION BY " + List(w.partition_by));
    if (!w.order_by.empty()) parts.push_back("ORDER BY " + OrderList(w.order_by));
    if (w.frame) {
      const WindowFrame& f = *w.frame;
      std::string s = f.unit == FrameUnit::kRows ? "ROWS " : f.unit == FrameUnit::kRange ? "RANGE " : "GROUPS ";
      s += f.end ? "BETWEEN " + Bound(f.start) + " AND " + Bound(*f.end) : Bound(f.start);
      if (!f.exclude.empty()) s += " EXCLUDE " + f.exclude;
      parts.push_back(s);
    }
    return Join(parts, " ");
  }

  // ---- queries ----
  std::string Sub(const Query& q) {
    indent_ += 2;
    std::string s = QueryText(q);
    indent_ -= 2;
    return o_.pretty ? s + Break() : s;
  }

  std::string Break() const { return o_.pretty ? "\n" + std::string(static_cast<size_t>(indent_), ' ') : " "; }

  // True when the dialect limits rows with SELECT TOP n (T-SQL); its OFFSET is OFFSET n ROWS FETCH NEXT m ROWS.
  bool Top() const { return d_.limit_style == LimitStyle::kTop; }

  // True when a LIMIT can be written as T-SQL's TOP on this body.
  static bool TopCapable(const Query& q) {
    return q.body.kind == QueryBodyKind::kSelect && !q.body.select.top && !q.offset;
  }

  std::string QueryText(const Query& q) {
    std::string out;
    if (!q.with.empty()) {
      out += q.recursive && d_.recursive_keyword ? "WITH RECURSIVE " : "WITH ";
      for (size_t i = 0; i < q.with.size(); ++i) {
        const Cte& c = q.with[i];
        if (i) out += ", ";
        out += Ident(c.name);
        if (!c.columns.empty()) {
          std::vector<std::string> cols;
          for (const auto& col : c.columns) cols.push_back(Ident(col));
          out += "(" + Join(cols, ", ") + ")";
        }
        out += " AS ";
        if (c.materialized && d_.materialized_cte) out += *c.materialized ? "MATERIALIZED " : "NOT MATERIALIZED ";
        out += "(" + Sub(*c.query) + ")";
      }
      out += Break();
    }
    bool use_top = Top() && q.limit && TopCapable(q);
    out += Body(q.body, use_top ? q.limit.get() : nullptr, use_top && q.fetch_with_ties);
    if (!q.order_by.empty()) out += Break() + "ORDER BY " + OrderList(q.order_by);
    out += Limit(q, use_top);
    return out;
  }

  // FETCH takes a simple value; anything else is parenthesized (a fuzzer found "FETCH NEXT 33 & 33 ROWS").
  std::string FetchCount(const Expr& e) { return Operand(e, kPrecAtom); }

  std::string Limit(const Query& q, bool used_top) {
    // T-SQL TOP moved to LIMIT elsewhere, and LIMIT moved to TOP (or OFFSET/FETCH) for T-SQL.
    const Expr* limit = q.limit.get();
    bool ties = q.fetch_with_ties;
    const Select* s = q.body.kind == QueryBodyKind::kSelect ? &q.body.select : nullptr;
    if (!limit && s && s->top && !Top()) {
      limit = s->top.get();
      ties = s->top_with_ties;
    }
    if (Top()) {
      if (used_top || (!limit && !q.offset)) return {};
      std::string out;
      if (q.order_by.empty()) out += Break() + "ORDER BY (SELECT NULL)";
      out += Break() + "OFFSET " + (q.offset ? ExprText(*q.offset) : "0") + " ROWS";
      if (limit) out += " FETCH NEXT " + FetchCount(*limit) + " ROWS " + (ties ? "WITH TIES" : "ONLY");
      return out;
    }
    if (!limit && !q.offset) return {};
    if (ties && d_.fetch_with_ties) {
      std::string out;
      if (q.offset) out += Break() + "OFFSET " + ExprText(*q.offset) + " ROWS";
      return out + Break() + "FETCH FIRST " + FetchCount(*limit) + " ROWS WITH TIES";
    }
    if (!limit && d_.offset_without_limit) return Break() + "OFFSET " + ExprText(*q.offset);
    std::string out = Break() + "LIMIT ";
    if (limit)
      out += ExprText(*limit);
    else
      out += d_.no_limit;  // OFFSET needs a LIMIT there: "no limit"
    if (q.offset) out += " OFFSET " + ExprText(*q.offset);
    return out;
  }

  std::string Body(const QueryBody& b, const Expr* top, bool top_ties) {
    switch (b.kind) {
      case QueryBodyKind::kSelect: return SelectText(b.select, top, top_ties);
      case QueryBodyKind::kValues: {
        std::string out = "VALUES ";
        for (size_t i = 0; i < b.rows.size(); ++i) {
          if (i) out += ", ";
          out += "(" + List(b.rows[i]) + ")";
        }
        return out;
      }
      case QueryBodyKind::kParenthesized: return Operand(*b.inner);
      case QueryBodyKind::kSetOp: {
        std::string out = SetOperand(*b.left);
        out += Break() + std::string(SetOpName(b.set_op)) + (b.set_all ? " ALL" : "") + Break();
        out += SetOperand(*b.right);
        return out;
      }
    }
    return {};
  }

  // A member of a compound query. Some engines (SQLite) allow no parentheses there: a plain parenthesized query is
  // unwrapped, and one with its own WITH, ORDER BY or LIMIT becomes SELECT * FROM (...).
  std::string SetOperand(const QueryBody& b) {
    if (b.kind != QueryBodyKind::kParenthesized) return Body(b, nullptr, false);
    const Query& q = *b.inner;
    if (d_.parenthesized_set_operands) return "(" + Sub(q) + ")";
    if (q.with.empty() && q.order_by.empty() && !q.limit && !q.offset) return Body(q.body, nullptr, false);
    return "SELECT * FROM (" + Sub(q) + ")";
  }

  std::string Operand(const Query& q) { return "(" + Sub(q) + ")"; }

  std::string SelectText(const Select& s, const Expr* top_from_limit, bool top_ties) {
    std::string out = "SELECT ";
    if (s.distinct) {
      out += "DISTINCT ";
      if (!s.distinct_on.empty()) out += "ON (" + List(s.distinct_on) + ") ";
    } else if (s.all) {
      out += "ALL ";
    }
    if (Top()) {
      const Expr* top = s.top ? s.top.get() : top_from_limit;
      if (top) {
        out += "TOP " + (top->kind == ExprKind::kLiteral ? ExprText(*top) : "(" + ExprText(*top) + ")") + " ";
        if (s.top_percent) out += "PERCENT ";
        if (s.top_with_ties || (!s.top && top_ties)) out += "WITH TIES ";
      }
    }
    for (size_t i = 0; i < s.items.size(); ++i) {
      if (i) out += ", ";
      out += ExprText(s.items[i].expr);
      if (s.items[i].alias) out += " AS " + Ident(*s.items[i].alias);
    }
    if (s.into) out += " INTO " + Name(*s.into);
    if (s.from) out += Break() + "FROM " + From(*s.from);
    if (s.where) out += Break() + "WHERE " + ExprText(*s.where);
    if (!s.group_by.empty()) out += Break() + "GROUP BY " + List(s.group_by);
    if (s.having) out += Break() + "HAVING " + ExprText(*s.having);
    if (!s.windows.empty()) {
      out += Break() + "WINDOW ";
      for (size_t i = 0; i < s.windows.size(); ++i) {
        if (i) out += ", ";
        out += Ident(s.windows[i].first) + " AS (" + Window(s.windows[i].second) + ")";
      }
    }
    return out;
  }

  std::string Alias(const TableRef& t) {
    if (!t.alias) return {};
    std::string out = " AS " + Ident(*t.alias);
    if (!t.column_aliases.empty()) {
      std::vector<std::string> cols;
      for (const auto& c : t.column_aliases) cols.push_back(Ident(c));
      out += "(" + Join(cols, ", ") + ")";
    }
    return out;
  }

  std::string From(const TableRef& t) {
    switch (t.kind) {
      case TableRefKind::kTable: return Name(t.name) + Alias(t);
      case TableRefKind::kSubquery:
      case TableRefKind::kValues:
        return std::string(t.lateral ? "LATERAL " : "") + "(" + Sub(*t.query) + ")" + Alias(t);
      case TableRefKind::kFunction:
        return std::string(t.lateral ? "LATERAL " : "") + ExprText(*t.function) +
               (t.with_ordinality ? " WITH ORDINALITY" : "") + Alias(t);
      case TableRefKind::kJoin: {
        std::string out = From(*t.left);
        const JoinSpec& j = t.join;
        if (j.comma) return out + ", " + JoinOperand(*t.right);
        out += o_.pretty ? Break() + "  " : " ";
        if (j.natural) out += "NATURAL ";
        switch (j.kind) {
          case JoinKind::kInner: out += j.written_inner ? "INNER JOIN " : "JOIN "; break;
          case JoinKind::kLeft: out += j.written_outer ? "LEFT OUTER JOIN " : "LEFT JOIN "; break;
          case JoinKind::kRight: out += j.written_outer ? "RIGHT OUTER JOIN " : "RIGHT JOIN "; break;
          case JoinKind::kFull: out += j.written_outer ? "FULL OUTER JOIN " : "FULL JOIN "; break;
          case JoinKind::kCross: out += "CROSS JOIN "; break;
        }
        out += JoinOperand(*t.right);
        if (j.on) out += " ON " + ExprText(*j.on);
        if (!j.using_columns.empty()) {
          std::vector<std::string> cols;
          for (const auto& c : j.using_columns) cols.push_back(Ident(c));
          out += " USING (" + Join(cols, ", ") + ")";
        }
        return out;
      }
    }
    return {};
  }

  // A join on the right of another join was parenthesized in the source; it keeps its parentheses.
  std::string JoinOperand(const TableRef& t) {
    if (t.kind == TableRefKind::kJoin) return "(" + From(t) + ")" + Alias(t);
    return From(t);
  }

 private:
  const Dialect& d_;
  const PrintOptions& o_;
  int indent_ = 0;
};

}  // namespace

std::string Print(const Query& query, const Dialect& dialect, const PrintOptions& options) {
  Printer p(dialect, options);
  return p.QueryText(query);
}

std::string PrintExpr(const Expr& expr, const Dialect& dialect) {
  PrintOptions o;
  Printer p(dialect, o);
  return p.ExprText(expr);
}

std::string PrintIdentifier(const Identifier& id, const Dialect& dialect) {
  PrintOptions o;
  Printer p(dialect, o);
  return p.Ident(id);
}

}  // namespace plainsql::sql
