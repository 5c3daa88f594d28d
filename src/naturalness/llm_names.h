// Readable names from an LLM, for `plainsql rename --llm`: a few-shot prompt with the schema's names, excerpts of
// the data dictionaries that mention each identifier (the SNAILS approach: the lines around it), and the rule-based
// expander's guess; the reply ("identifier -> name" lines) is parsed leniently and every name checked. Names the
// reply lacks or spoils keep the rule-based guess.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "llm/client.h"

namespace plainsql::naturalness {

struct LlmNameRequest {
  std::string identifier;
  std::string table;  // for a column: its table; "" for a table
  std::string guess;  // the rule-based expansion, shown to the model as a hint
};

struct LlmNamingStats {
  int requests = 0;  // chat completions sent
  int named = 0;     // identifiers the model named
  int64_t prompt_tokens = 0, completion_tokens = 0;
};

/// The lines of `dictionaries` that mention `identifier` (as a whole word, case ignored), at most `max_lines`, each
/// cut to 200 characters.
std::vector<std::string> DictionaryContext(const std::vector<std::string>& dictionaries, const std::string& identifier,
                                           size_t max_lines = 3);

/// Names a user has already chosen for this schema (identifier, name): the entries of an earlier crosswalk whose N1
/// differs from the native name. The prompt shows them as examples of the schema's own style (SNAILS' interactive
/// builder fed validated names back the same way).
using ValidatedNames = std::vector<std::pair<std::string, std::string>>;

/// The prompt for one batch of identifiers; at most 20 of `validated` are shown, after the general examples.
std::vector<llm::Message> NamingPrompt(const std::string& database, const std::vector<std::string>& schema_names,
                                       const std::vector<LlmNameRequest>& batch,
                                       const std::vector<std::string>& dictionaries,
                                       const ValidatedNames& validated = {});

/// Reads "identifier -> name" lines (also "identifier: name", bullets and backticks) for the identifiers of `batch`;
/// the names are made snake_case; lines naming other identifiers, empty or over-long names are ignored.
/// Key: the position in `batch`.
std::map<size_t, std::string> ParseNamingReply(const std::string& reply, const std::vector<LlmNameRequest>& batch);

/// Names every request through the model, in batches of `batch_size`. Key: the position in `requests`. Fails only
/// when the model cannot be reached or answers with an error (the caller says so; nothing is written).
Result<std::map<size_t, std::string>> NameWithLlm(const llm::Client& client, const std::string& database,
                                                  const std::vector<std::string>& schema_names,
                                                  const std::vector<LlmNameRequest>& requests,
                                                  const std::vector<std::string>& dictionaries,
                                                  LlmNamingStats* stats = nullptr, size_t batch_size = 40,
                                                  const ValidatedNames& validated = {});

}  // namespace plainsql::naturalness
