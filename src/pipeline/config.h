// Pipeline configuration: plainsql.toml, then the environment, then command-line flags, each overriding the one
// before. The API key is never read from a file: only from PLAINSQL_LLM_API_KEY or OPENAI_API_KEY.
//
//   [llm]
//   url = "http://localhost:11434/v1"   # OpenAI-compatible base URL
//   model = "qwen2.5-coder:7b"
//   timeout_ms = 120000                 # one attempt
//   max_retries = 3                     # after a 429, a 5xx or a connection failure
//   concurrency = 4                     # requests in flight to the server from this process; 0 = no limit
//   style = "omnisql"                   # omnisql | snails_zero_shot | dail_sql
//   max_reply_bytes = 1048576           # a larger reply is refused as it arrives
//
//   [pipeline]
//   candidates = 1
//   temperature = -1                    # < 0: 0 for one candidate, 0.7 for more
//   refine = true
//   max_refinements = 2
//   refine_empty = true
//   vote = true
//   draft = false
//   slice = "auto"                      # full | referenced | link | auto (link above link_above columns)
//   link_above = 1000                   # auto: schemas with more columns than this are linked (plainsql link)
//   link_budget = 600                   # a linked slice keeps at most this many columns; 0: no cap
//   timeout_ms = 30000                  # per query
//   max_rows = 1000
//   deadline_ms = 60000                 # the whole of `ask`: model calls, retries and refinements end by then
//   fallback = true                     # when the model fails, the built-in translator answers (with a note)
//   examples = "spider-train.examples"  # an example store (a file or a postgresql:// URL): few-shot examples
//   examples_k = 5                      # examples per question
//
//   [examples]                          # how the examples stage scores a store's examples (NATURAL's weights)
//   question = 0.7                      # masked-question similarity, against
//   sql = 0.3                           #   masked-SQL similarity to the draft: together the sample similarity
//   sample = 0.7                        # sample similarity, against
//   schema = 0.3                        #   schema closeness (1 - the WWL distance of the two databases)
//   threshold = 0.0                     # examples scoring below it are left out (a relevance threshold)
//   diverse = true                      # not k copies of one SQL skeleton
//   coarse_skeleton = true              # "one skeleton": DAIL-SQL's (examples::Skeleton), false: the masked query
//   embedding_url = "http://localhost:11434/v1"   # dense embeddings (default: the built-in sparse embedder)
//   embedding_model = "nomic-embed-text"
//
//   [exec]                              # the access guard and the ceilings, for every command
//   allow_functions = ["lpad"]          # beyond the dialect's list (src/sql/dialects/<dialect>_functions.txt)
//   allow_relations = ["pg_catalog.pg_stat_user_tables"]
//   schemas = ["sales"]                 # PostgreSQL: only these schemas' relations (default: every user schema)
//   max_value_bytes = 16777216          # one value or row
//   max_result_bytes = 67108864         # one result
//   max_memory_bytes = 1073741824       # SQLite's heap
//   max_query_bytes = 100000            # the query text
#pragma once

#include <string>

#include "common/status.h"
#include "examples/select.h"
#include "examples/store.h"
#include "exec/connection.h"
#include "llm/client.h"
#include "pipeline/pipeline.h"

namespace plainsql::pipeline {

/// The examples stage's configuration: which store, how many examples, how they are scored, and (for `eval run`) which
/// of the thesis's configurations a run measures.
struct ExamplesConfig {
  std::string store;  // a store file or postgresql:// URL; "" = no examples
  int k = 5;
  examples::SelectWeights weights;
  /// The dense embedder: an OpenAI-compatible /v1/embeddings endpoint and model ("" = the built-in sparse embedder).
  /// The store's examples are embedded when it is loaded (once per process).
  std::string embedding_url, embedding_model;
  std::string configuration;  // "" (as configured), baseline, zero-shot, train or ground (eval run)
};

struct PipelineConfig {
  llm::Config llm;
  std::string style = "omnisql";
  bool builtin = false;     // with a model: the built-in translator adds its candidates to the vote
  Options options;          // crosswalk and evidence are per call, not configured here
  exec::ExecSettings exec;  // [exec]: the guard's extra names and the ceilings
  ExamplesConfig examples;  // [pipeline] examples, examples_k and [examples]
  std::string source;       // the file it came from ("" = defaults and environment only)
};

/// Reads a plainsql.toml (unknown keys and wrong types are errors naming the key; an `api_key` key is refused).
Result<PipelineConfig> LoadConfigFile(const std::string& path, PipelineConfig base = {});

/// The configuration a command starts from: `path` when given (it must exist), else ./plainsql.toml, else
/// $XDG_CONFIG_HOME/plainsql/plainsql.toml (or ~/.config/...), when present; then the environment (PLAINSQL_LLM_URL,
/// PLAINSQL_LLM_MODEL, the API key).
Result<PipelineConfig> LoadConfig(const std::string& path = "");

/// Checks an examples configuration: k from 1 to 50, weights and threshold from 0 to 1, each pair of weights above 0.
Status CheckExamples(const ExamplesConfig& config);

/// The store `config.examples` names, loaded for selection (null when it names none).
Result<std::shared_ptr<const examples::ExampleLibrary>> LoadExamples(const ExamplesConfig& config,
                                                                     const examples::StoreProgress& progress = {});

/// Everything but the key, as JSON (what a run stores to be resumed the same way), and back (missing keys keep their
/// defaults; the key is not read).
nlohmann::ordered_json ConfigToJson(const PipelineConfig& config);
Result<PipelineConfig> ConfigFromJson(const nlohmann::json& j);

}  // namespace plainsql::pipeline
