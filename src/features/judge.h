// Features judged by a language model (the catalog's Source::kModel ones): each put to any OpenAI-compatible model as
// one yes-or-no question in SQLSpace's evaluator style (data/prompts/judge.txt), the answer cached by model and prompt
// so that a benchmark is judged once.
#pragma once

#include <string>
#include <unordered_map>

#include "common/status.h"
#include "features/extract.h"
#include "llm/client.h"

namespace plainsql::features {

class ModelJudge {
 public:
  /// `cache_file`: where answers are kept ("" = DefaultCacheDir()/judgements.tsv); read now, appended to as answers
  /// come.
  static Result<ModelJudge> Open(const llm::Config& config, const std::string& cache_file = "");

  /// Judges every model feature `example` has what it needs for (the schema as text, "" for none; its SQL) and sets
  /// it in `values` (1 for a yes; a no, or a reply that is neither, 0). Stops at the first failed request.
  Status Judge(const Example& example, const std::string& schema, Values& values);

  size_t Asked() const { return asked_; }      // requests sent
  size_t Cached() const { return cached_; }    // answers read from the cache
  size_t Unclear() const { return unclear_; }  // replies that were neither yes nor no (counted as no)
  const std::string& CacheFile() const { return cache_file_; }

 private:
  ModelJudge(llm::Client client, std::string model, std::string cache_file)
      : client_(std::move(client)), model_(std::move(model)), cache_file_(std::move(cache_file)) {}
  llm::Client client_;
  std::string model_, cache_file_;
  std::unordered_map<std::string, bool> cache_;
  size_t asked_ = 0, cached_ = 0, unclear_ = 0;
};

}  // namespace plainsql::features
