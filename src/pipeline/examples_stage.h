// The examples stage (issue #17): few-shot examples for the prompt, chosen from an example store (src/examples) as
// NATURAL's selection σ chooses them. The question is masked (schema mentions and values become placeholders), the
// draft — a zero-shot answer: the linking stage's when there is one, else the first generator's (the model's with an
// LLM, the built-in translator's offline) — is masked the same way, and the store's examples are scored by masked
// question and masked SQL similarity and by the WWL distance between the asked database's schema graph and each
// example's. The examples travel to the generators best first, each with the tables of its own database that its SQL
// reads, so a prompt shows it against its own schema. Without a store the stage does nothing and says so.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/schema.h"
#include "examples/mask.h"
#include "examples/store.h"
#include "exec/connection.h"
#include "generate/generator.h"

namespace plainsql::pipeline {

/// Where a question's examples come from and how many.
struct ExamplesOptions {
  /// The loaded store (examples::ExampleLibrary::Load); null: the examples stage is a no-op.
  std::shared_ptr<const examples::ExampleLibrary> library;
  size_t k = 5;
  /// Examples to leave out for this question (the Ground configuration leaves out the question being asked).
  std::function<bool(const examples::Example&)> exclude;
  /// The asked database's question masker, kept across questions (it is not thread-safe: one per connection). Null:
  /// one is built for the question over the native schema and the database's values (read with a short budget).
  examples::QuestionMasker* masker = nullptr;
};

/// What was selected for one question.
struct ExampleSelection {
  std::string masked_question;
  std::string draft, draft_by;  // the draft's SQL ("" when there was none) and who wrote it
  std::string masked_draft;
  std::vector<examples::ExampleLibrary::Pick> picks;  // best first
  std::vector<generate::PromptExample> prompt;        // the picks as generators get them
};

/// Selects examples for `question` asked of the database `conn` / `native` (its db_id is native.database), with the
/// SQL of a draft ("" for none) in `dialect`. Builds a masker when `options.masker` is null (reading the database's
/// values for at most `value_budget`).
ExampleSelection SelectExamples(exec::Connection* conn, const catalog::Schema& native, const std::string& question,
                                const std::string& draft, const std::string& draft_by, const sql::Dialect& dialect,
                                const ExamplesOptions& options,
                                std::chrono::milliseconds value_budget = std::chrono::milliseconds(2000));

/// An example as generators get it: its question, SQL, score, and the tables of its own database that the SQL reads
/// (every table when the SQL does not resolve against that schema).
generate::PromptExample ToPromptExample(const examples::ExampleLibrary::Pick& pick);

/// The selection as the trace shows it: {"store", "k", "masked_question", "draft", "draft_by", "masked_draft",
/// "examples": [{"question", "sql", "db_id", "score", "question_similarity", "sql_similarity", "schema_distance"}]}.
nlohmann::ordered_json SelectionToJson(const ExampleSelection& selection, const ExamplesOptions& options);
/// One pick as `plainsql examples select --json` and the trace show it.
nlohmann::ordered_json PickToJson(const examples::ExampleLibrary::Pick& pick);

/// The schema restricted to `tables` (lower-case names), keeping only foreign keys between kept tables.
catalog::Schema SliceSchema(const catalog::Schema& schema, const std::set<std::string>& tables);

}  // namespace plainsql::pipeline
