// Builders of syntax-tree nodes (see query_tree.h).
#include "builtin/query_tree.h"

#include "common/strings.h"

namespace plainsql::builtin::tree {

sql::Identifier Name(const sql::Dialect& d, std::string_view name) {
  sql::Identifier id;
  id.name = std::string(name);
  id.quote = sql::IsBareIdentifier(d, name) ? 0 : d.quote_open;
  return id;
}

sql::Expr Column(const sql::Dialect& d, const std::string& qualifier, const std::string& column) {
  sql::Expr e;
  e.kind = sql::ExprKind::kColumn;
  if (!qualifier.empty()) e.name.parts.push_back(sql::Identifier{qualifier, 0, 0});
  e.name.parts.push_back(Name(d, column));
  return e;
}

sql::TableRef Table(const sql::Dialect& d, const std::string& table, const std::string& alias) {
  sql::TableRef t;
  t.kind = sql::TableRefKind::kTable;
  t.name.parts.push_back(Name(d, table));
  if (!alias.empty()) t.alias = sql::Identifier{alias, 0, 0};
  return t;
}

sql::TableRef Join(sql::TableRef left, sql::TableRef right, sql::Expr on) {
  sql::TableRef j;
  j.kind = sql::TableRefKind::kJoin;
  j.left = std::move(left);
  j.right = std::move(right);
  j.join.on = std::move(on);
  return j;
}

sql::Expr Binary(std::string op, sql::Expr left, sql::Expr right) {
  sql::Expr e;
  e.kind = sql::ExprKind::kBinary;
  e.op = std::move(op);
  e.args.push_back(std::move(left));
  e.args.push_back(std::move(right));
  return e;
}

namespace {

sql::Expr Chain(const std::string& op, std::vector<sql::Expr> conditions) {
  sql::Expr out = std::move(conditions.front());
  for (size_t i = 1; i < conditions.size(); ++i) out = Binary(op, std::move(out), std::move(conditions[i]));
  return out;
}

sql::Expr Literal(sql::LiteralKind kind, std::string text) {
  sql::Expr e;
  e.kind = sql::ExprKind::kLiteral;
  e.literal_kind = kind;
  e.text = std::move(text);
  if (kind == sql::LiteralKind::kString) e.quote = '\'';
  return e;
}

}  // namespace

sql::Expr AllOf(std::vector<sql::Expr> conditions) { return Chain("AND", std::move(conditions)); }
sql::Expr AnyOf(std::vector<sql::Expr> conditions) { return Chain("OR", std::move(conditions)); }

sql::Expr Number(const std::string& text) {
  if (!text.empty() && text.front() == '-') {
    sql::Expr e;
    e.kind = sql::ExprKind::kUnary;
    e.op = "-";
    e.args.push_back(Number(text.substr(1)));
    return e;
  }
  // "2000-01-01" given as a number is a subtraction, as the parser reads it.
  if (size_t minus = text.rfind('-'); minus != std::string::npos && minus > 0) {
    return Binary("-", Number(text.substr(0, minus)), Literal(sql::LiteralKind::kNumber, text.substr(minus + 1)));
  }
  return Literal(sql::LiteralKind::kNumber, text);
}

sql::Expr String(const std::string& text) { return Literal(sql::LiteralKind::kString, text); }

sql::Expr Function(const std::string& name, std::vector<sql::Expr> args, bool distinct) {
  sql::Expr e;
  e.kind = sql::ExprKind::kFunction;
  e.name.parts.push_back(sql::Identifier{name, 0, 0});
  e.args = std::move(args);
  e.distinct = distinct;
  return e;
}

std::optional<sql::Expr> DatePart(const sql::Dialect& d, const std::string& part, sql::Expr date) {
  // The strftime pattern of the part, and the one of PostgreSQL's and T-SQL's.
  const std::string c = part == "month" ? "%Y-%m" : part == "month_of_year" ? "%m" : "%Y";
  const std::string pg = part == "month" ? "YYYY-MM" : part == "month_of_year" ? "MM" : "YYYY";
  const std::string ms = part == "month" ? "yyyy-MM" : part == "month_of_year" ? "MM" : "yyyy";
  if (d.name == "sqlite") return Function("strftime", {String(c), std::move(date)});
  if (d.name == "duckdb") return Function("strftime", {std::move(date), String(c)});
  if (d.name == "postgres") return Function("to_char", {std::move(date), String(pg)});
  if (d.name == "mysql") return Function("DATE_FORMAT", {std::move(date), String(c)});
  if (d.name == "tsql") return Function("FORMAT", {std::move(date), String(ms)});
  return std::nullopt;
}

bool HasDatePart(const sql::Dialect& d) { return DatePart(d, "year", sql::Expr{}).has_value(); }

sql::Expr Cast(sql::Expr e, std::string type) {
  sql::Expr c;
  c.kind = sql::ExprKind::kCast;
  c.args.push_back(std::move(e));
  c.type.name = std::move(type);
  return c;
}

sql::Expr CountStar() {
  sql::Expr e = Function("count", {});
  e.star_arg = true;
  return e;
}

sql::Expr Value(const sql::Dialect& d, const builtin::Literal& literal) {
  switch (literal.kind) {
    case builtin::Literal::Kind::kNumber: return Number(literal.text);
    case builtin::Literal::Kind::kString: return String(literal.text);
    case builtin::Literal::Kind::kTrue: {
      std::string word = ToUpper(d.true_literal);
      if (word == "TRUE") return Literal(sql::LiteralKind::kTrue, "");
      return Number(std::string(d.true_literal));
    }
    case builtin::Literal::Kind::kAggregate: {
      sql::Select s;
      const std::string function = literal.function.empty() ? "avg" : literal.function;
      s.items.push_back({Function(function, {Column(d, "", literal.of.column)}), std::nullopt});
      s.from = Table(d, literal.of.table, "");
      std::vector<sql::Expr> conditions;
      for (const auto& w : literal.where) {
        conditions.push_back(Binary(w.op, Column(d, "", w.col.column), w.number ? Number(w.text) : String(w.text)));
      }
      if (!conditions.empty()) s.where = AllOf(std::move(conditions));
      sql::Expr e;
      e.kind = sql::ExprKind::kSubquery;
      e.query = QueryOf(std::move(s));
      return e;
    }
    case builtin::Literal::Kind::kNone: break;
  }
  return Literal(sql::LiteralKind::kNull, "");
}

std::string ValueText(const sql::Dialect& d, const builtin::Literal& literal) {
  switch (literal.kind) {
    case builtin::Literal::Kind::kNumber: return literal.text;
    case builtin::Literal::Kind::kString: return "'";
    case builtin::Literal::Kind::kTrue: return std::string(d.true_literal);
    case builtin::Literal::Kind::kAggregate: return "(";
    case builtin::Literal::Kind::kNone: break;
  }
  return "";
}

sql::Expr Condition(const sql::Dialect& d, sql::Expr column, const Filter& f) {
  if (!f.part.empty()) {
    if (auto part = DatePart(d, f.part, column)) column = std::move(*part);
  }
  sql::Expr e;
  if (f.op == "BETWEEN") {
    e.kind = sql::ExprKind::kBetween;
    e.args.push_back(std::move(column));
    e.args.push_back(Value(d, f.value));
    e.args.push_back(Value(d, f.high));
    return e;
  }
  if (f.op == "LIKE" || f.op == "NOT LIKE") {
    // Case-insensitive, as the value index matches and as SQLite's LIKE is: ILIKE where the dialect has it.
    e.kind = sql::ExprKind::kLike;
    e.op = "ILIKE";
    e.negated = f.op == "NOT LIKE";
    e.args.push_back(std::move(column));
    e.args.push_back(Value(d, f.value));
    // The question's own '%' or '_' were escaped with a backslash (pass_values' PatternLiteral).
    if (f.value.text.find('\\') != std::string::npos) e.args.push_back(String("\\"));
    return e;
  }
  return Binary(f.op, std::move(column), Value(d, f.value));
}

sql::Query QueryOf(sql::Select select) {
  sql::Query q;
  q.body.kind = sql::QueryBodyKind::kSelect;
  q.body.select = std::move(select);
  return q;
}

}  // namespace plainsql::builtin::tree
