// The examples stage's selection (see examples_stage.h).
#include "pipeline/examples_stage.h"

#include <optional>

#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "retrieval/value_index.h"
#include "sql/parser.h"
#include "sql/resolver.h"

namespace plainsql::pipeline {

catalog::Schema SliceSchema(const catalog::Schema& schema, const std::set<std::string>& tables) {
  catalog::Schema out = schema;
  std::erase_if(out.tables, [&](const catalog::Table& t) { return !tables.count(ToLower(t.name)); });
  for (auto& t : out.tables) {
    std::erase_if(t.foreign_keys, [&](const catalog::ForeignKey& fk) { return !tables.count(ToLower(fk.ref_table)); });
  }
  return out;
}

generate::PromptExample ToPromptExample(const examples::ExampleLibrary::Pick& pick) {
  generate::PromptExample p;
  p.db_id = pick.example->db_id;
  p.question = pick.example->question;
  p.sql = pick.example->sql;
  p.score = pick.scores.score;
  if (!pick.database) return p;
  const sql::Dialect* dialect = sql::DialectByName(pick.database->dialect).value_or(&sql::Sqlite());
  p.dialect = dialect;
  std::set<std::string> tables;
  if (auto parsed = sql::ParseQuery(pick.example->sql, *dialect)) {
    auto resolution = sql::Resolve(*parsed, catalog::ToNameCatalog(pick.database->schema), *dialect);
    for (const auto& t : resolution.tables) tables.insert(ToLower(t));
  }
  p.schema = std::make_shared<const catalog::Schema>(tables.empty() ? pick.database->schema
                                                                    : SliceSchema(pick.database->schema, tables));
  return p;
}

ExampleSelection SelectExamples(exec::Connection* conn, const catalog::Schema& native, const std::string& question,
                                const std::string& draft, const std::string& draft_by, const sql::Dialect& dialect,
                                const ExamplesOptions& options, std::chrono::milliseconds value_budget) {
  ExampleSelection s;
  s.draft = draft;
  s.draft_by = draft_by;
  if (!options.library) return s;
  // The masker: the caller's, or one over the native schema and (when the database is at hand) its values.
  std::optional<retrieval::ValueIndex> values;
  std::optional<examples::QuestionMasker> own;
  examples::QuestionMasker* masker = options.masker;
  if (!masker) {
    if (conn) {
      retrieval::ValueIndexOptions vo;
      vo.budget = value_budget;
      if (auto v = retrieval::ValueIndex::Build(*conn, native, vo)) values.emplace(std::move(*v));
    }
    own.emplace(native, values ? &*values : nullptr);
    masker = &*own;
  }
  s.masked_question = masker->Mask(question);
  if (!Trim(draft).empty()) {
    if (auto m = examples::MaskSql(draft, dialect)) s.masked_draft = std::move(*m);
  }
  examples::ExampleLibrary::Query q;
  q.schema = &native;
  q.db_id = native.database;
  q.masked_question = s.masked_question;
  q.masked_sql = s.masked_draft;
  q.k = options.k;
  q.exclude = options.exclude;
  s.picks = options.library->Select(q);
  s.prompt.reserve(s.picks.size());
  for (const auto& pick : s.picks) s.prompt.push_back(ToPromptExample(pick));
  return s;
}

nlohmann::ordered_json PickToJson(const examples::ExampleLibrary::Pick& pick) {
  return {{"question", pick.example->question},
          {"sql", pick.example->sql},
          {"db_id", pick.example->db_id},
          {"score", pick.scores.score},
          {"question_similarity", pick.scores.question_similarity},
          {"sql_similarity", pick.scores.sql_similarity},
          {"schema_distance", pick.scores.schema_distance}};
}

nlohmann::ordered_json SelectionToJson(const ExampleSelection& selection, const ExamplesOptions& options) {
  nlohmann::ordered_json picks = nlohmann::ordered_json::array();
  for (const auto& p : selection.picks) picks.push_back(PickToJson(p));
  return {{"store", options.library ? options.library->Where() : ""},
          {"k", options.k},
          {"masked_question", selection.masked_question},
          {"draft", selection.draft},
          {"draft_by", selection.draft_by},
          {"masked_draft", selection.masked_draft},
          {"examples", picks}};
}

}  // namespace plainsql::pipeline
