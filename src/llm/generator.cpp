// An OpenAI-compatible model as a generator (see generator.h).
#include "llm/generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "catalog/render.h"
#include "common/strings.h"
#include "llm/extract.h"
#include "llm/prompt.h"

namespace plainsql::llm {

namespace {

// How the prompt names the dialect (the dialect's own name is an identifier, not a title).
std::string DialectTitle(std::string_view name) {
  static const std::map<std::string_view, std::string_view> kTitles = {
      {"sqlite", "SQLite"}, {"postgres", "PostgreSQL"}, {"tsql", "T-SQL (SQL Server)"}, {"mysql", "MySQL"}};
  auto it = kTitles.find(name);
  return std::string(it == kTitles.end() ? name : it->second);
}

class LlmGenerator final : public generate::Generator {
 public:
  LlmGenerator(Client client, std::string style) : client_(std::move(client)), style_(std::move(style)) {}
  std::string Name() const override { return "llm:" + client_.GetConfig().model; }
  bool CanRefine() const override { return true; }

  Result<generate::Generation> Generate(const generate::GenerationRequest& request) override {
    auto messages = BuildPrompt(request, request.previous_sql.empty() ? style_ : "refine");
    if (!messages) return messages.error();
    ChatRequest chat;
    chat.messages = std::move(*messages);
    chat.n = std::max(1, request.n);
    chat.temperature = request.temperature;
    chat.deadline = request.deadline;
    if (request.on_wait) {
      std::string what = "model at " + client_.GetConfig().base_url;
      chat.on_wait = [what, cb = request.on_wait](double seconds) { cb(what, seconds); };
    }
    auto reply = client_.Chat(chat);
    if (!reply) return reply.error();
    generate::Generation g;
    g.prompt_tokens = reply->prompt_tokens;
    g.completion_tokens = reply->completion_tokens;
    g.wait_ms = reply->elapsed_ms;
    // A server that ignores `n` gives one choice: ask again until there are enough (each counted).
    std::vector<std::string> choices = reply->choices;
    for (int extra = 0; static_cast<int>(choices.size()) < request.n && extra < request.n; ++extra) {
      chat.n = 1;
      auto more = client_.Chat(chat);
      if (!more) break;  // the choices already received still count
      g.prompt_tokens += more->prompt_tokens;
      g.completion_tokens += more->completion_tokens;
      g.wait_ms += more->elapsed_ms;
      choices.insert(choices.end(), more->choices.begin(), more->choices.end());
    }
    for (const auto& c : choices) g.candidates.push_back(ExtractSql(c));
    g.queries.resize(g.candidates.size());  // text only: the pipeline parses each once
    return g;
  }

 private:
  Client client_;
  std::string style_;
};

}  // namespace

Result<std::vector<Message>> BuildPrompt(const generate::GenerationRequest& request, const std::string& style) {
  if (!request.schema) return MakeError(ErrorCode::kInvalidArgument, "no schema for the prompt");
  const sql::Dialect& d = request.dialect ? *request.dialect : sql::Sqlite();
  auto tmpl = PromptTemplate::Load(style);
  if (!tmpl) return tmpl.error();
  auto rules = DialectRules(std::string(d.name));
  if (!rules) return rules.error();
  std::map<std::string, std::string> vars = {
      {"dialect", DialectTitle(d.name)},
      {"dialect_rules", *rules},
      {"question", request.question},
      {"evidence", request.evidence.empty() ? "" : "Knowledge: " + request.evidence},
      {"sql", request.previous_sql},
      {"problem", request.problem},
      {"examples_dail", RenderExamplesDail(request.examples)},
      {"examples", RenderExamplesOmni(request.examples)},
  };
  // Only the renderings the template uses.
  for (const auto& key : tmpl->Placeholders()) {
    if (key == "schema_ddl") vars[key] = catalog::RenderPromptDdl(*request.schema, d);
    if (key == "schema_ddl_plain") vars[key] = catalog::RenderDdl(*request.schema, d);
    if (key == "schema_snails") vars[key] = catalog::RenderPromptSnails(*request.schema);
  }
  return tmpl->Render(vars);
}

Result<std::unique_ptr<generate::Generator>> MakeLlmGenerator(Config config, const std::string& style) {
  auto styles = PromptStyles();
  if (std::find(styles.begin(), styles.end(), style) == styles.end()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("unknown prompt style '{}': {}", style, Join(styles, ", ")));
  }
  if (auto t = PromptTemplate::Load(style); !t) return t.error();
  auto client = Client::Create(std::move(config));
  if (!client) return client.error();
  return std::unique_ptr<generate::Generator>(new LlmGenerator(std::move(*client), style));
}

}  // namespace plainsql::llm
