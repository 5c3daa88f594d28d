// The feature catalog. The aspects and the kinds of property follow SQLSpace's predicate list (its appendix); the
// features are the ones our own stages can decide exactly, worded here as what the code checks.
#include "features/catalog.h"

#include <unordered_map>

namespace plainsql::features {

std::string_view AspectName(Aspect a) {
  switch (a) {
    case Aspect::kQuestionSyntax: return "question_syntax";
    case Aspect::kSqlSyntax: return "sql_syntax";
    case Aspect::kSemantics: return "semantics";
    case Aspect::kPragmatics: return "pragmatics";
    case Aspect::kDatabase: return "database";
  }
  return "";
}

std::string_view NeedsName(Needs n) {
  switch (n) {
    case Needs::kQuestion: return "question";
    case Needs::kSchema: return "schema";
    case Needs::kSql: return "sql";
  }
  return "";
}

std::string_view SourceName(Source s) { return s == Source::kModel ? "model" : "derived"; }

namespace {

constexpr Aspect kQ = Aspect::kQuestionSyntax, kS = Aspect::kSqlSyntax, kM = Aspect::kSemantics,
                 kP = Aspect::kPragmatics, kD = Aspect::kDatabase;
constexpr Needs kText = Needs::kQuestion, kSchema = Needs::kSchema, kSql = Needs::kSql;

// The order is the order of feature vectors in memory; files (features --json, estimators) name features by id, so
// an id is never reused for another meaning.
const std::vector<Feature> kCatalog = {
    // Question syntax: from the question's tokens and the built-in translator's cue reader (builtin/intent.h).
    {"q.wh_question", kQ, kText, "begins with a wh-word (what, which, who, whose, when, where, how, why)"},
    {"q.yes_no_question", kQ, kText, "begins with an auxiliary verb, asking yes or no (is, are, does, did, was, ...)"},
    {"q.imperative", kQ, kText, "is a command: begins with a verb such as show, list, find, give, return or count"},
    {"q.statement", kQ, kText, "is neither a question nor a command: a phrase or a statement"},
    {"q.question_mark", kQ, kText, "ends with a question mark"},
    {"q.several_sentences", kQ, kText, "has more than one sentence"},
    {"q.long", kQ, kText, "has more than 20 words"},
    {"q.how_many", kQ, kText, "asks for a count (how many, the number of, count)"},
    {"q.aggregate_word", kQ, kText, "names an aggregate other than a count (average, total, sum, maximum, minimum)"},
    {"q.superlative", kQ, kText, "has a superlative (most, least, highest, oldest, ...)"},
    {"q.comparative", kQ, kText, "compares with a value (more than, at least, older than, before, ...)"},
    {"q.negation", kQ, kText, "has a negation (not, no, never, without, except, other than)"},
    {"q.number", kQ, kText, "writes a number (in digits or in words)"},
    {"q.year_or_date", kQ, kText, "writes a year or a date"},
    {"q.quoted", kQ, kText, "quotes a value"},
    {"q.and", kQ, kText, "coordinates with 'and'"},
    {"q.or", kQ, kText, "coordinates with 'or' (a disjunction)"},
    {"q.relative_clause", kQ, kText, "has a relative clause (who, whom, whose, which or that after a noun)"},
    {"q.subordinate_clause", kQ, kText,
     "has a subordinate clause (if, when, because, although, while, after, before, since, unless, until)"},
    {"q.passive", kQ, kText, "has a passive construction (a form of 'be' then a past participle)"},
    {"q.symbols", kQ, kText, "uses symbols or units within the words (%, <, >, =, +, $, /)"},
    {"q.parenthetical", kQ, kText, "has a parenthetical expression (words in brackets)"},
    {"q.per_group", kQ, kText, "asks for something per group (each, per, for every, by)"},
    {"q.order", kQ, kText, "asks for an order (sorted, ordered, ascending, descending, alphabetical)"},
    {"q.top_n", kQ, kText, "asks for a number of top or bottom items (top 3, the first five)"},
    {"q.distinct_word", kQ, kText, "asks for distinct values (different, distinct, unique)"},
    {"q.ratio_word", kQ, kText, "asks for a percentage, ratio, rate or proportion"},
    {"q.range", kQ, kText, "gives a range (between X and Y, from X to Y)"},
    {"q.short", kQ, kText, "has nine words or fewer"},
    {"q.medium_length", kQ, kText, "has more than 12 words"},
    {"q.over_16_words", kQ, kText, "has more than 16 words"},
    {"q.both", kQ, kText, "asks for two things at once (both, as well as, and also, but also)"},
    {"q.contrast", kQ, kText, "contrasts (but, however, yet, whereas)"},
    {"q.several_comparisons", kQ, kText, "compares with two values or more"},
    {"q.several_aggregates", kQ, kText, "names two aggregates or more"},
    // Pragmatics.
    {"p.brief", kP, kText, "is brief: six words or fewer"},
    {"p.polite", kP, kText, "is phrased politely (please, could you, would you, can you)"},
    {"p.vague_quantity", kP, kText, "uses a vague quantity (some, several, many, few, a lot)"},
    {"p.temporal_reference", kP, kText, "refers to time relative to now (recent, latest, current, today, ago)"},
    {"p.evidence", kP, kText, "comes with external knowledge or a hint beside the question"},
    {"p.first_person", kP, kText, "speaks in the first person (I, me, my, we, our)"},
    // Database reasoning: from the linker (linking/linker.h) against the schema.
    {"db.table_named", kD, kSchema, "names a table as written in the schema (or its expansion)"},
    {"db.column_named", kD, kSchema, "names a column as written in the schema (or its expansion)"},
    {"db.synonym_only", kD, kSchema, "reaches some schema element only through another word for it (WordNet, lexicon)"},
    {"db.value_mentioned", kD, kSchema, "mentions a value stored in the database (or quotes one)"},
    {"db.nothing_linked", kD, kSchema, "names no table or column of the schema at all"},
    {"db.cryptic_schema", kD, kSchema, "is asked of a schema where over a third of the names are not natural words"},
    {"db.large_schema", kD, kSchema, "is asked of a schema with 100 columns or more"},
    {"db.many_tables", kD, kSchema, "is asked of a schema with 8 tables or more"},
    {"db.unlinked_word", kD, kSchema,
     "has a content word that reaches no table, column or stored value (cue and command words aside)"},
    {"db.unlinked_words", kD, kSchema, "has two content words or more that reach nothing in the schema"},
    {"db.two_tables_reached", kD, kSchema, "reaches two tables or more (by their names or their columns)"},
    {"db.three_tables_reached", kD, kSchema, "reaches three tables or more"},
    {"db.ambiguous_word", kD, kSchema, "has words whose best matches are columns of two tables or more"},
    {"db.several_values", kD, kSchema, "mentions two stored values or more"},
    {"db.unlinked_words_3", kD, kSchema, "has three content words or more that reach nothing in the schema"},
    {"db.weak_word", kD, kSchema,
     "has a content word that reaches the schema only weakly (part of a name, or another word for it)"},
    {"db.weak_words", kD, kSchema, "has two content words or more that reach the schema only weakly"},
    {"db.four_tables_reached", kD, kSchema, "reaches four tables or more"},
    {"db.many_columns_reached", kD, kSchema, "reaches five columns or more"},
    {"db.value_not_stored", kD, kSchema,
     "quotes or capitalizes (inside the sentence) a name the database does not store (with a database at hand)"},
    {"db.gold_all_named", kD, kSql, "names every column the SQL reads (join keys aside)"},
    {"db.gold_unnamed_column", kD, kSql, "leaves a column the SQL reads (join keys aside) unnamed"},
    {"db.hidden_table", kD, kSql, "leaves a table the SQL reads unnamed (a table only the join path needs)"},
    {"db.gold_cryptic", kD, kSql, "the SQL reads a name that is not natural (low or least natural)"},
    // SQL syntax: from the syntax tree (sql/ast.h).
    {"sql.single_select", kS, kSql, "is one SELECT: no subquery, set operation or common table expression"},
    {"sql.select_from_where", kS, kSql,
     "is a plain SELECT from one table, filtered at most by WHERE (no join, grouping, aggregate, order, limit, "
     "DISTINCT)"},
    {"sql.subquery", kS, kSql, "has a subquery (in an expression, IN, EXISTS or FROM)"},
    {"sql.subquery_in_where", kS, kSql, "has a subquery in WHERE or HAVING"},
    {"sql.subquery_in_from", kS, kSql, "has a subquery in FROM (a derived table)"},
    {"sql.correlated_subquery", kS, kSql, "has a subquery that refers to a table of the query around it"},
    {"sql.nested_twice", kS, kSql, "nests subqueries two levels deep or more"},
    {"sql.set_operation", kS, kSql, "combines queries with UNION, INTERSECT or EXCEPT"},
    {"sql.union", kS, kSql, "uses UNION (without ALL)"},
    {"sql.union_all", kS, kSql, "uses UNION ALL"},
    {"sql.intersect", kS, kSql, "uses INTERSECT"},
    {"sql.except", kS, kSql, "uses EXCEPT"},
    {"sql.cte", kS, kSql, "has a common table expression (WITH)"},
    {"sql.recursive_cte", kS, kSql, "has a recursive common table expression"},
    {"sql.join", kS, kSql, "reads two tables or more in one FROM (a join)"},
    {"sql.multiple_joins", kS, kSql, "reads three tables or more in one FROM"},
    {"sql.outer_join", kS, kSql, "has an outer join (LEFT, RIGHT or FULL)"},
    {"sql.self_join", kS, kSql, "joins a table with itself"},
    {"sql.cross_join", kS, kSql, "has a CROSS JOIN or a comma-separated FROM list"},
    {"sql.aggregate", kS, kSql, "calls an aggregate function (COUNT, SUM, AVG, MIN, MAX, ...)"},
    {"sql.aggregate_in_select", kS, kSql, "has an aggregate in a SELECT list"},
    {"sql.count", kS, kSql, "counts (COUNT)"},
    {"sql.aggregate_distinct", kS, kSql, "aggregates distinct values (COUNT(DISTINCT x), ...)"},
    {"sql.several_aggregates", kS, kSql, "calls aggregate functions twice or more"},
    {"sql.group_by", kS, kSql, "groups (GROUP BY)"},
    {"sql.group_by_several", kS, kSql, "groups by two expressions or more"},
    {"sql.having", kS, kSql, "filters groups (HAVING)"},
    {"sql.order_by", kS, kSql, "orders (ORDER BY)"},
    {"sql.order_descending", kS, kSql, "orders descending"},
    {"sql.limit", kS, kSql, "limits the rows (LIMIT, TOP, FETCH)"},
    {"sql.order_limit", kS, kSql, "orders and limits in the same query (top k)"},
    {"sql.distinct", kS, kSql, "selects distinct rows (SELECT DISTINCT)"},
    {"sql.where", kS, kSql, "filters rows (WHERE)"},
    {"sql.where_single", kS, kSql, "filters rows by WHERE, every WHERE clause of one condition"},
    {"sql.where_several", kS, kSql, "has a WHERE clause of two conditions or more (joined by AND or OR)"},
    {"sql.and", kS, kSql, "joins conditions with AND"},
    {"sql.or", kS, kSql, "joins conditions with OR"},
    {"sql.negation", kS, kSql, "negates a condition (NOT, !=, <>, NOT IN, NOT LIKE, NOT EXISTS, IS NOT NULL)"},
    {"sql.inequality", kS, kSql, "compares with <, >, <= or >="},
    {"sql.between", kS, kSql, "uses BETWEEN"},
    {"sql.like", kS, kSql, "matches a pattern (LIKE, GLOB, ...)"},
    {"sql.in_list", kS, kSql, "tests membership in a list of values (IN (...))"},
    {"sql.in_subquery", kS, kSql, "tests membership in a subquery (IN (SELECT ...))"},
    {"sql.exists", kS, kSql, "uses EXISTS"},
    {"sql.null_test", kS, kSql, "tests for NULL (IS [NOT] NULL)"},
    {"sql.case", kS, kSql, "has a CASE expression"},
    {"sql.window", kS, kSql, "calls a window function (OVER)"},
    {"sql.cast", kS, kSql, "converts a type (CAST, CONVERT, ::)"},
    {"sql.arithmetic", kS, kSql, "computes with + - * / or %"},
    {"sql.scalar_function", kS, kSql, "calls a function that is not an aggregate (strftime, substr, iif, ...)"},
    {"sql.alias", kS, kSql, "names a table or column with an alias"},
    {"sql.star", kS, kSql, "selects * (every column)"},
    {"sql.several_columns", kS, kSql, "selects two expressions or more in its outer SELECT"},
    {"sql.string_literal", kS, kSql, "has a string literal"},
    {"sql.number_literal", kS, kSql, "has a number literal (a LIMIT's aside)"},
    // Semantics: the question against the SQL.
    {"sem.numbers_carried", kM, kSql, "every number the question writes appears in the SQL"},
    {"sem.value_unwritten", kM, kSql, "the SQL compares with a value the question does not write"},
    {"sem.distinct_unasked", kM, kSql, "the SQL removes duplicates the question does not ask to remove"},
    {"sem.superlative_by_order", kM, kSql, "a superlative of the question is an ORDER BY with a LIMIT"},
    {"sem.superlative_by_aggregate", kM, kSql, "a superlative of the question is MAX or MIN (or a subquery of one)"},
    {"sem.count_asked", kM, kSql, "the question asks for a count and the SQL counts"},
    {"sem.negation_agrees", kM, kSql, "the question and the SQL both negate"},
    {"sem.negation_implicit", kM, kSql, "the SQL negates where the question has no negation word"},
    {"sem.grouping_implicit", kM, kSql, "the SQL groups where the question has no per-group word"},
    {"sem.direct", kM, kSql,
     "maps directly: one SELECT, every column it reads named by the question, every value it compares written"},
    // Semantics expected from the question alone: the built-in translator's shape model (builtin/shape.h, learned on
    // Spider train from questions whose schema mentions and values are masked) over the linker's spans, P >= 0.5.
    {"sem.expects_where", kM, kSchema, "reads as asking for a condition (WHERE), by the shape model"},
    {"sem.expects_join", kM, kSchema, "reads as needing a join of two tables or more, by the shape model"},
    {"sem.expects_group", kM, kSchema, "reads as asking for grouping (GROUP BY), by the shape model"},
    {"sem.expects_having", kM, kSchema, "reads as asking for a condition on groups (HAVING), by the shape model"},
    {"sem.expects_order_limit", kM, kSchema,
     "reads as asking for the top or bottom rows (ORDER BY with LIMIT), by the shape model"},
    {"sem.expects_count", kM, kSchema, "reads as asking for a count, by the shape model"},
    {"sem.expects_aggregate", kM, kSchema,
     "reads as asking for an average, sum, minimum or maximum, by the shape model"},
    {"sem.expects_distinct", kM, kSchema, "reads as asking for distinct values, by the shape model"},
    {"sem.expects_set_operation", kM, kSchema, "reads as needing INTERSECT, UNION or EXCEPT, by the shape model"},
    {"sem.expects_subquery", kM, kSchema, "reads as needing a nested query, by the shape model"},
    {"sem.expects_outputs", kM, kSchema, "reads as asking for two things or more in each row, by the shape model"},
    {"sem.expects_negation", kM, kSchema, "reads as needing a negated condition (NOT IN, !=, ...), by the shape model"},
    {"sem.shape_unclear", kM, kSchema,
     "leaves the query's shape unclear: some property between P 0.3 and 0.7, by the shape model"},
    {"sem.expects_three_clauses", kM, kSchema,
     "reads as needing three or more of join, grouping, ordering, a nested query or a set operation"},
    {"db.value_ambiguous", kD, kSchema, "mentions a stored value held by columns of two tables or more"},
    // Judged by a language model (judge.h): the kinds of property of the paper's list no rule of ours decides, worded
    // here as the question put to the model. Unknown (-1) unless a model was asked.
    {"q.m_ellipsis", kQ, kText, "leaves out words the reader must supply (an ellipsis)", Source::kModel},
    {"q.m_complex_structure", kQ, kText, "has a complex sentence structure", Source::kModel},
    {"p.m_vague", kP, kText, "is vague or ambiguous: it can be read in more than one way", Source::kModel},
    {"p.m_underspecified", kP, kText, "leaves out information needed to answer it exactly", Source::kModel},
    {"p.m_implicature", kP, kText, "leaves part of what it asks to be inferred from context", Source::kModel},
    {"p.m_presupposition", kP, kText, "takes for granted facts it does not state", Source::kModel},
    {"p.m_jargon", kP, kText, "uses the technical terms of a field", Source::kModel},
    {"p.m_indirect", kP, kText, "asks indirectly (a statement, or a question about ability, instead of a request)",
     Source::kModel},
    {"db.m_commonsense", kD, kSchema, "needs commonsense reasoning to map its words to the schema", Source::kModel},
    {"db.m_paraphrase", kD, kSchema, "names schema elements by paraphrases rather than by their names", Source::kModel},
    {"db.m_implicit_subject", kD, kSchema, "leaves implicit which table's entries it is about", Source::kModel},
    {"db.m_direct_mapping", kD, kSchema, "maps directly onto the schema, with no reasoning needed", Source::kModel},
    {"sem.m_domain_knowledge", kM, kSql, "needs knowledge of the domain that neither the question nor the SQL states",
     Source::kModel},
    {"sem.m_stricter_sql", kM, kSql, "the SQL applies conditions the question does not state", Source::kModel},
    {"sem.m_missing_constraint", kM, kSql, "the SQL leaves out a condition the question states", Source::kModel},
    {"sem.m_temporal", kM, kSql, "needs reasoning about time (a present state against past events)", Source::kModel},
    {"sem.m_inference", kM, kSql, "needs logical inference beyond matching keywords", Source::kModel},
    {"sem.m_data_representation", kM, kSql, "depends on how the data is represented (codes, formats, units)",
     Source::kModel},
};

}  // namespace

const std::vector<Feature>& Catalog() { return kCatalog; }

std::optional<size_t> IndexOf(std::string_view id) {
  static const std::unordered_map<std::string_view, size_t> kById = [] {
    std::unordered_map<std::string_view, size_t> m;
    for (size_t i = 0; i < kCatalog.size(); ++i) m.emplace(kCatalog[i].id, i);
    return m;
  }();
  auto it = kById.find(id);
  if (it == kById.end()) return std::nullopt;
  return it->second;
}

}  // namespace plainsql::features
