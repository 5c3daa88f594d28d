// Question rewriting (SQLSpace §6): a model rewrites a question without the features that lower its estimated chance
// of a right answer (data/prompts/rewrite.txt).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "llm/client.h"

namespace plainsql::features {

/// The rewritten question: `features` are the texts of the features to remove ("has more than 12 words"), `schema`
/// the schema as the prompt shows it. The reply's first non-empty line, without a "Question:" label or quotes; an
/// empty reply is an error (kFormat).
Result<std::string> RewriteQuestion(const llm::Client& client, const std::string& question, const std::string& schema,
                                    const std::vector<std::string>& features);

}  // namespace plainsql::features
