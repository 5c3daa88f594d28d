// Prompts as data files (data/prompts/NAME.txt): "### system" / "### user" / "### assistant" headers start messages,
// "# " lines before the first header are comments, and {{name}} placeholders are filled from a map. Dialect
// instructions come from data/prompts/dialects.tsv. Shipped templates: snails_zero_shot, omnisql, dail_sql, refine.
// Few-shot examples are rendered here for the slots of dail_sql ({{examples_dail}}) and omnisql ({{examples}}).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "generate/generator.h"
#include "llm/client.h"

namespace plainsql::llm {

class PromptTemplate {
 public:
  /// Parses a template's text; `name` is for messages. Errors: no message header, an unclosed placeholder.
  static Result<PromptTemplate> Parse(const std::string& name, const std::string& text);
  /// Loads DIR/prompts/NAME.txt (DIR: common DataDir() by default). NAME is a template name, not a path.
  static Result<PromptTemplate> Load(const std::string& name, const std::string& data_dir = "");

  /// The messages with every placeholder filled. A placeholder missing from `vars` is an error (kInvalidArgument)
  /// naming it; runs of three or more newlines left by empty values are reduced to two.
  Result<std::vector<Message>> Render(const std::map<std::string, std::string>& vars) const;
  /// The placeholders the template uses, sorted.
  std::vector<std::string> Placeholders() const;
  const std::string& Name() const { return name_; }

 private:
  std::string name_;
  std::vector<Message> messages_;  // contents with placeholders
};

/// The names of the shipped prompt styles for generation (refine is separate).
std::vector<std::string> PromptStyles();

/// The dialect instructions for `dialect` ("sqlite", "postgres", "tsql") from DIR/prompts/dialects.tsv; "" when the
/// file has no line for it.
Result<std::string> DialectRules(const std::string& dialect, const std::string& data_dir = "");

/// Few-shot examples for the DAIL-SQL prompt's {{examples_dail}} slot, in DAIL-SQL's code representation with the full
/// information of each example: its own schema (the tables its SQL reads, as CREATE TABLE statements in its dialect),
/// its question in a comment and its SQL, best first. "" when there are none.
std::string RenderExamplesDail(const std::vector<generate::PromptExample>& examples);

/// The same for the OmniSQL prompt's {{examples}} slot (NATURAL's adaptation): each example numbered, with its
/// database, its similarity score, its own schema, its question and its SQL in a code block. "" when there are none.
std::string RenderExamplesOmni(const std::vector<generate::PromptExample>& examples);

/// Messages as one readable text ("[system]\n...\n\n[user]\n..."), for `plainsql prompt`.
std::string MessagesText(const std::vector<Message>& messages);

}  // namespace plainsql::llm
