// The translator's typed reading of one question: what each pass has found so far. A reading starts with the
// question's tokens, intent cues, schema links and stored values; each pass (passes.h) reads it and adds to it, in the
// order of one list, and the last pass turns it into syntax trees (sql::Query) and candidates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "builtin/intent.h"
#include "catalog/schema.h"
#include "linking/joins.h"
#include "linking/linker.h"
#include "retrieval/text.h"
#include "retrieval/value_index.h"
#include "sql/ast.h"
#include "sql/dialect.h"

namespace plainsql::builtin {

/// A column by its table's and its own name as in the schema.
struct ColumnRef {
  std::string table, column;
  bool operator==(const ColumnRef&) const = default;
};

/// A condition inside an aggregate's subquery ("all colleges in the FL state": state = 'FL').
struct InnerCondition {
  ColumnRef col;
  std::string op;
  bool number = false;  // `text` is a number, else a string
  std::string text;
  bool operator==(const InnerCondition&) const = default;
};

/// A value a condition compares with, as the build pass writes it.
struct Literal {
  enum class Kind {
    kNone,       // no value (BETWEEN's upper bound when there is no BETWEEN)
    kNumber,     // text: a number as the question wrote it
    kString,     // text: the string, unquoted
    kTrue,       // the dialect's true literal
    kAggregate,  // an aggregate of `of` over its table: (SELECT avg(column) FROM table [WHERE where]); the average
                 // ("above the average") unless `function` says otherwise
  };
  Literal() = default;
  // (A constructor, not aggregate initialization, so that the subquery's fields below may be left out.)
  Literal(Kind k, std::string t, ColumnRef o = {}) : kind(k), text(std::move(t)), of(std::move(o)) {}
  Kind kind = Kind::kNone;
  std::string text;
  ColumnRef of;
  std::string function;               // kAggregate: "" (avg), "max" or "min" ("greater than all": the largest)
  std::vector<InnerCondition> where;  // kAggregate: the subquery's conditions on `of`'s table
};

/// One condition on a column: "=", "!=", ">", "<", ">=", "<=", "BETWEEN", "LIKE", "NOT LIKE".
struct Filter {
  ColumnRef col;
  std::string op;
  Literal value;
  Literal high;          // BETWEEN's upper bound
  size_t at = SIZE_MAX;  // the question token it comes from
  bool denied = false;   // `op` denies the comparison as written ("not over 800": <=; DeniedOp). A denied "=" (now
                         // "!=") is not marked: the skeletons have always seen it as "!=".
  std::string part{};    // "": the column's value; a part of a date column's (tree::DatePart: "month_of_year")
};

/// A table or column the question names: a linked span of tokens.
struct Mention {
  size_t element = 0, begin = 0, end = 0;  // an index into the schema index's elements; tokens [begin, end)
  bool whole = true;                       // every word of a name matched, not just its head word
  double score = 0;                        // the link's score (linking::LinkMatch)
};

/// "names containing the word 'court'", "starting with 'A'": a LIKE on a text column.
struct Pattern {
  size_t cue = 0, value = 0;  // the cue word's and the pattern's tokens
  std::string like;           // the LIKE pattern
  bool negated = false;       // "does not contain the letter M" → NOT LIKE
};

/// A count per group compared with a number: "more than 100 tracks".
struct Having {
  std::string op, value;
  std::string counted;  // the table whose rows are counted ("" when only "times" says so)
};

/// One item of the select list.
struct Output {
  enum class Kind {
    kColumn,         // col
    kAggregate,      // function(col): function is "avg", "sum", "max" or "min"
    kCount,          // count(*)
    kCountDistinct,  // count(DISTINCT col)
    kStar,           // *
  };
  Kind kind = Kind::kColumn;
  ColumnRef col;
  std::string function;
  bool operator==(const Output&) const = default;
};

/// How the select list is chosen: the columns named and not used otherwise (as read), only the first of them, or every
/// column named, those a condition, the grouping or the ordering uses included.
enum class OutputChoice { kAsRead, kFirstOnly, kWithUsed };

/// Which of the columns holding a stored value a reading uses, and how its select list is chosen; set by the caller,
/// filled in by the passes.
struct Choices {
  OutputChoice outputs = OutputChoice::kAsRead;
  bool used_tables_only = false;    // join only the tables a column of the reading needs, not those merely named
  size_t value_choice = 0;          // which column holds the varied value (0: the preferred one)
  size_t link_choice = 0;           // which other link a mention takes (0: none, as linked; see LinkSchema)
  bool group_by_shown = false;      // a count per group groups by the column shown, not the subject's key
  bool value_seen = false;          // set by the passes: the varied value was met
  size_t value_alternatives = 0;    // set by the passes: how many other columns hold it
  std::string varied_table;         // set by the passes: the table of the column chosen for it
  bool lost = false;                // set by the passes: that table was dropped (no join to the subject)
  bool outputs_vary = false;        // set by the passes: another output choice would give another select list
  size_t link_alternatives = 0;     // set by the passes: how many other links LinkSchema offers
  bool group_varies = false;        // set by the passes: group_by_shown would group by another column
  double link_gap = 0;              // set by the passes: how much lower the link taken by link_choice scored
  size_t named_only_tables = 0;     // set by the passes: tables joined only because the question names them
  size_t named_only_as_column = 0;  // set by the passes: of those, named by words that also name a column of a table
                                    // the reading needs ("department 80": departments, or employees.department_id)
};

/// One candidate the build pass made: the tree, its printed SQL and why it reads so.
struct BuiltReading {
  sql::Query query;
  std::string sql;
  std::string note;           // "" for the first reading; else what makes it another reading
  bool counted_once = false;  // a count over a join as count(DISTINCT subject key): see the build pass
};

/// What the translator knows about the database, for every pass.
struct Context {
  const catalog::Schema& schema;
  const linking::SchemaIndex& index;
  const retrieval::ValueIndex* values;  // may be null
  const sql::Dialect& dialect;
};

struct Reading {
  explicit Reading(const Context& c) : ctx(c) {}
  const Context& ctx;
  Choices choices;
  // Read from the question before the passes run.
  std::vector<retrieval::Token> tokens;
  std::vector<bool> comma_before;  // per token: a comma between it and the token before (the tokenizer drops commas)
  Intent intent;
  std::vector<linking::LinkMatch> links;
  std::vector<retrieval::ValueMatch> values;
  // What the passes found.
  std::vector<bool> used;  // per token: accounted for by the reading
  std::vector<std::string> notes;
  bool stopped = false;  // a pass found that there is no query: `reason` says why, later passes do nothing
  std::string reason;
  std::vector<std::string> unlinked;  // set when stopped, and by the build pass
  // Linking.
  std::vector<Mention> mentions;        // in question order
  std::set<std::string> linked_tables;  // lower case
  // Values and patterns.
  std::vector<Pattern> patterns;
  std::set<size_t> pattern_negations;  // negating words a pattern took
  std::vector<Filter> filters;
  std::string subject;
  std::set<size_t> consumed_tokens;  // column words the filters use up ("whose name contains": not shown)
  // Negation.
  std::optional<size_t> neg_at;
  std::set<std::string> negated_tables;  // lower case
  // Tables joined though no column of theirs is used: negated ones, the table of a key that only says which rows.
  std::vector<std::string> need_tables_extra;
  std::vector<Filter> negated_filters;  // conditions of the NOT IN subquery
  std::vector<Filter> except_filters;  // "locations where no cinema has capacity over 800": the conditions the negation
                                       // denies of every subject row, as written, for the EXCEPT reading
  std::optional<sql::Query> not_in;    // the subquery the subject's `not_in_column` is NOT IN
  ColumnRef not_in_column;
  // Comparisons.
  std::set<size_t> consumed;  // mentions (indexes) used by filters, grouping or ordering
  std::optional<Having> having;
  std::vector<std::string> years;
  std::optional<ColumnRef> year_column;
  // Grouping, aggregates and order.
  std::optional<ColumnRef> group;
  std::string group_part;           // "year" / "month": the group is that part of the date column `group`
  std::vector<ColumnRef> selected;  // columns the aggregates read
  std::vector<Output> aggregates;
  std::vector<size_t> aggregate_cues;     // per aggregate: the token of its cue word
  std::optional<Output> order_aggregate;  // "the grape with the highest average price": ordered by avg(price) per row
  bool counting = false;
  std::optional<size_t> count_at;
  std::optional<ColumnRef> count_distinct;  // "how many different countries": count(DISTINCT country), not count(*)
  std::optional<ColumnRef> order_column;
  bool order_desc = false;
  bool group_by_count = false;
  bool by_shown = false;      // group by the column shown, not the subject's key
  bool by_frequency = false;  // by_shown from a frequency word: "the most common", "most often"
  bool order_first_shown = false;
  std::string limit;
  std::vector<ColumnRef> shown;
  std::vector<Output> select;
  // Joins.
  std::vector<std::string> tables;
  std::optional<linking::JoinTree> tree;
  // The result.
  double score = 0;
  std::vector<BuiltReading> built;
};

// Questions the passes ask of the reading and the schema (reading.cpp).

/// The schema element a mention names.
const linking::SchemaElement& ElementOf(const Reading& r, const Mention& m);
bool IsNumericColumn(const catalog::Schema& schema, const ColumnRef& c);
/// The comparison that denies `op`: "=" and "!=", ">" and "<=", "<" and ">=" (each other's); "" for any other.
std::string_view DeniedOp(std::string_view op);
/// A column of the boolean type (a yes/no flag).
bool IsYesNoColumn(const catalog::Schema& schema, const ColumnRef& c);
/// What a yes/no column stores for yes: the dialect's true literal for a boolean column; for a text column of two
/// answers ('Yes' / 'No', 'T' / 'F'; retrieval::ValueIndex::YesValue, only with a value index) the stored one; else
/// none.
std::optional<Literal> YesLiteral(const Context& ctx, const ColumnRef& c);
/// A column of dates: of a date or time type, or a column not of numbers whose name says date (created_on DATE in a
/// view, `date_of_birth` TEXT).
bool HoldsDates(const catalog::Schema& schema, const ColumnRef& c);
/// A month as the tokenizer writes "March 2023": "2023-03" (a four-digit year, a month 01 to 12).
bool IsMonth(std::string_view v);
/// A day as the tokenizer writes it: "2023-03-05" (a real one).
bool IsDay(std::string_view v);
/// The first day of a period, a year ("2023" → "2023-01-01"), a month ("2023-03" → "2023-03-01") or a day (itself),
/// and the first day after it ("2024-01-01", "2023-04-01", "2023-03-06").
std::string FirstDayOf(std::string_view period);
std::string FirstDayAfter(std::string_view period);
/// The days of the periods `first` to `last` (each a year, a month or a day) of date column `c`: BETWEEN the first day
/// of one and the last day of the other, that day's times included ('2023-12-31 23:59:59', '2023-02-28 23:59:59').
/// Whole dates, not the bare year: they compare right as text in SQLite (where '2023' against a DATE column's NUMERIC
/// affinity is the number 2023) and as dates in PostgreSQL.
Filter PeriodsOfDates(const ColumnRef& c, const std::string& first, const std::string& last, size_t at);
/// A column a comparison with a number or an average may name: a numeric one, or a text column whose stored values
/// are all numbers (retrieval::ValueIndex::HoldsNumbers; only with a value index).
bool HoldsQuantities(const Context& ctx, const ColumnRef& c);
/// A column of `table` whose name contains `word` (case-insensitive), numeric ones first.
std::optional<ColumnRef> ColumnNamed(const catalog::Schema& schema, const std::string& table, std::string_view word);
/// The first text column of `table` whose name contains `word`, if any.
std::optional<ColumnRef> TextColumnNamed(const catalog::Schema& schema, const std::string& table,
                                         std::string_view word);
/// Whether every used token of [b, e) is used by a mention weaker than a whole name written out (an abbreviation, a
/// WordNet relative, a part of a name), and at least one is.
bool OnlyWeakLinks(const Reading& r, size_t b, size_t e);
/// Whether `column` is in one of `t`'s foreign keys.
bool IsForeignKeyColumn(const catalog::Table& t, const std::string& column);
/// Whether `column` is in `t`'s primary key or one of its foreign keys.
bool IsKeyColumn(const catalog::Table& t, const std::string& column);
/// Whether a word of `column`'s name as written (split, any case) is the token's word or its stem ("rooms":
/// room_count).
bool NameWritesWord(std::string_view column, const retrieval::Token& t);
/// Whether `t` is a word of a column's name as written ("per" of pages_per_minute_color); false for a table.
bool ColumnNameHasWord(const linking::SchemaElement& el, const retrieval::Token& t);
/// The column a mention at `token` names.
std::optional<ColumnRef> ColumnAt(const Reading& r, size_t token);
/// Whether the question has a comma right before token `i` (the tokenizer drops commas; the reading records them).
bool CommaBefore(const Reading& r, size_t i);
/// The token a list continues at after an item ending before `end`: after "and" (end + 1), or at `end` after a comma;
/// nullopt when neither.
std::optional<size_t> NextListed(const Reading& r, size_t end);
/// The table a mention at `token` names.
std::optional<std::string> TableAt(const Reading& r, size_t token);
/// Marks the mentions at `token` as used by a filter, the grouping or the ordering.
void MarkMention(Reading& r, size_t token);
/// Marks the mentions of column `c` as used.
void MarkConsumed(Reading& r, const ColumnRef& c);
/// The subject's one column of quantities besides its keys (college.enr), when it has exactly one.
std::optional<ColumnRef> SubjectsOnlyQuantity(const Reading& r);
/// A column of quantities (no key) of the subject or a linked table with a word of its name at `token` or within
/// `reach` of it that no link took ("rooms": room_count), a word of the name before a part of one (marked used);
/// `ambiguous`, when given, is set when two columns have the word.
std::optional<ColumnRef> NumericByWord(Reading& r, size_t token, size_t reach = 4, bool* ambiguous = nullptr);
/// The numeric column named nearest to `token` (before it first), else one named after `hint` (marked used).
/// A hint lists words to try in turn ("date/year"); a word marked '-' ("oldest": "age/-date") counts the other way
/// (the oldest has the earliest date) and is tried only when `reversed` is given, which says whether it was the one.
std::optional<ColumnRef> NumericNear(Reading& r, size_t token, const std::string& hint, bool* reversed = nullptr);
/// The quantity an adjective or superlative names ("oldest" → age).
std::string QuantityOf(std::string_view word);
/// The quantity a unit at `at` names: "30 years old" → age, "10 lbs" → weight.
std::string QuantityOfUnit(const std::vector<retrieval::Token>& tokens, size_t at);
bool IsWord(const retrieval::Token& t, std::string_view word);

}  // namespace plainsql::builtin
