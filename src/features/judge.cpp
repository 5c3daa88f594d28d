// Features judged by a language model.
#include "features/judge.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <fstream>

#include "catalog/cache.h"
#include "common/hash.h"
#include "common/strings.h"
#include "llm/prompt.h"

namespace plainsql::features {

Result<ModelJudge> ModelJudge::Open(const llm::Config& config, const std::string& cache_file) {
  auto client = llm::Client::Create(config);
  if (!client) return client.error();
  std::string path = cache_file.empty() ? catalog::DefaultCacheDir() + "/judgements.tsv" : cache_file;
  ModelJudge judge(std::move(*client), config.model, path);
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    auto f = Split(line, '\t');
    if (f.size() == 2 && (f[1] == "yes" || f[1] == "no")) judge.cache_[f[0]] = f[1] == "yes";
  }
  return judge;
}

namespace {

// The example as the judge sees it: the question, with the schema or the SQL when the feature needs them.
std::string ExampleText(const Example& example, const std::string& schema, Needs needs) {
  std::string out;
  if (needs == Needs::kSchema) out += "SCHEMA:\n" + schema + "\n\n";
  out += "QUESTION: " + example.question;
  if (!example.evidence.empty()) out += "\nHINT: " + example.evidence;
  if (needs == Needs::kSql) out += "\nSQL: " + example.sql;
  return out;
}

}  // namespace

Status ModelJudge::Judge(const Example& example, const std::string& schema, Values& values) {
  auto prompt = llm::PromptTemplate::Load("judge");
  if (!prompt) return prompt.error();
  const auto& catalog = Catalog();
  for (size_t i = 0; i < catalog.size(); ++i) {
    const Feature& f = catalog[i];
    if (f.source != Source::kModel) continue;
    if ((f.needs == Needs::kSchema && schema.empty()) || (f.needs == Needs::kSql && example.sql.empty())) continue;
    const std::string property =
        (f.aspect == Aspect::kSemantics ? "the question and its SQL: " : "the question ") + std::string(f.text);
    auto messages = prompt->Render({{"example", ExampleText(example, schema, f.needs)}, {"property", property}});
    if (!messages) return messages.error();
    Hasher key;
    key.Update(model_);
    for (const auto& m : *messages) {
      key.Update(m.role);
      key.Update(m.content);
    }
    const std::string digest = key.HexDigest();
    if (auto it = cache_.find(digest); it != cache_.end()) {
      values[i] = it->second ? 1 : 0;
      ++cached_;
      continue;
    }
    llm::ChatRequest request;
    request.messages = std::move(*messages);
    request.max_tokens = 5;
    auto reply = client_.Chat(request);
    if (!reply) return reply.error();
    ++asked_;
    std::string word;
    for (char c : reply->choices.empty() ? std::string() : reply->choices.front()) {
      if (std::isalpha(static_cast<unsigned char>(c))) {
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      } else if (!word.empty()) {
        break;
      }
    }
    const bool yes = word == "yes";
    if (word != "yes" && word != "no") ++unclear_;
    values[i] = yes ? 1 : 0;
    cache_[digest] = yes;
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(cache_file_).parent_path(), ec);
    std::ofstream(cache_file_, std::ios::app) << digest << '\t' << (yes ? "yes" : "no") << '\n';
  }
  return Status::Ok();
}

}  // namespace plainsql::features
