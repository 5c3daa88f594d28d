// Small builders of syntax-tree nodes (sql/ast.h) for the translator's build passes: the same trees the SQL parser
// makes of the text the translator used to write, so they print the same.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "builtin/reading.h"
#include "sql/ast.h"
#include "sql/dialect.h"

namespace plainsql::builtin::tree {

/// A name as the dialect needs it written: quoted when it cannot be written bare.
sql::Identifier Name(const sql::Dialect& d, std::string_view name);
/// `qualifier.column`, or `column` when `qualifier` is empty (the qualifier is an alias such as T1).
sql::Expr Column(const sql::Dialect& d, const std::string& qualifier, const std::string& column);
/// A table, with an alias when `alias` is not empty.
sql::TableRef Table(const sql::Dialect& d, const std::string& table, const std::string& alias);
/// left JOIN right ON on.
sql::TableRef Join(sql::TableRef left, sql::TableRef right, sql::Expr on);
sql::Expr Binary(std::string op, sql::Expr left, sql::Expr right);
/// The conditions joined by AND (or OR), nesting to the left as parsed; one condition is itself.
sql::Expr AllOf(std::vector<sql::Expr> conditions);
sql::Expr AnyOf(std::vector<sql::Expr> conditions);
/// A number as the question wrote it ("-2.5" is a minus applied to 2.5, as the parser reads it).
sql::Expr Number(const std::string& text);
sql::Expr String(const std::string& text);
/// function(args), function(DISTINCT arg), count(*).
sql::Expr Function(const std::string& name, std::vector<sql::Expr> args, bool distinct = false);
sql::Expr CountStar();
/// The year ("2020"), the month ("2020-06") or the month of the year ("06", part "month_of_year") of a date, as
/// text, in the dialect's own function (SQLite and DuckDB strftime, PostgreSQL to_char, MySQL DATE_FORMAT, T-SQL
/// FORMAT); nothing for a dialect with none of them.
std::optional<sql::Expr> DatePart(const sql::Dialect& d, const std::string& part, sql::Expr date);
/// Whether DatePart has a function for the dialect.
bool HasDatePart(const sql::Dialect& d);
/// CAST(e AS type).
sql::Expr Cast(sql::Expr e, std::string type);
/// A literal of a filter in the dialect (the true literal from `dialect.true_literal`).
sql::Expr Value(const sql::Dialect& d, const Literal& literal);
/// The literal's text as SQL, for deciding whether two conditions compare numbers.
std::string ValueText(const sql::Dialect& d, const Literal& literal);
/// `column op value`, `column BETWEEN value AND high`, `column [NOT] LIKE value`.
sql::Expr Condition(const sql::Dialect& d, sql::Expr column, const Filter& f);  // of f.part of `column` when set
sql::Query QueryOf(sql::Select select);

}  // namespace plainsql::builtin::tree
