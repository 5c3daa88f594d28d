// The features of a text-to-SQL example (SQLSpace, issue #20): binary, human-readable properties of a question, its
// schema and its SQL, each with a stable id, the aspect it describes, its text and where its value comes from. The
// catalog is the one list every other part of the stage (extraction, comparison, clustering, estimation) indexes by.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace plainsql::features {

/// The five aspects of SQLSpace's predicates.
enum class Aspect {
  kQuestionSyntax,  // the question's wording and structure
  kSqlSyntax,       // the SQL's constructs
  kSemantics,       // how the question and the SQL correspond
  kPragmatics,      // how the question asks: brevity, vagueness, what it leaves to the reader
  kDatabase,        // how the question reaches the schema: names written, synonyms, values, hidden tables
};
std::string_view AspectName(Aspect a);  // "question_syntax", "sql_syntax", "semantics", "pragmatics", "database"

/// What deciding a feature needs. A feature that needs only the question (and its schema) can be computed for a live
/// question, before any SQL exists: what the correctness estimator reads.
enum class Needs {
  kQuestion,  // the question's text (and its evidence)
  kSchema,    // the question and the schema it is asked of
  kSql,       // the gold (or any given) SQL too
};
std::string_view NeedsName(Needs n);  // "question", "schema", "sql"

/// Where a feature's value comes from: computed by this stage's code from the syntax tree, the question's tokens and
/// the linker (derived), or judged by a language model (model). Every feature of the catalog today is derived.
enum class Source { kDerived, kModel };
std::string_view SourceName(Source s);  // "derived", "model"

struct Feature {
  std::string_view id;  // stable: "sql.join", "q.negation", ... (ids are never reused for another meaning)
  Aspect aspect;
  Needs needs;
  std::string_view text;  // what holds when the feature is 1, as a predicate of the example
  Source source = Source::kDerived;
};

/// Every feature, in a fixed order (the order of feature vectors).
const std::vector<Feature>& Catalog();

/// A feature's position in Catalog(), or nullopt for an unknown id.
std::optional<size_t> IndexOf(std::string_view id);

}  // namespace plainsql::features
