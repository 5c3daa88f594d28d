// The OpenAI-compatible client against the scripted server: the happy path, retries, every injected fault ending in
// a clear error within the configured time, the key kept out of messages; and LLM naming for `plainsql rename`.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include <chrono>
#include <cstdlib>

#include "catalog/introspect.h"
#include "exec/connection.h"
#include "llm/client.h"
#include "llm/fake_llm_server.h"
#include "naturalness/classifier.h"
#include "naturalness/llm_names.h"
#include "naturalness/namer.h"
#include "test_util.h"

namespace plainsql::llm {
namespace {

using namespace std::chrono_literals;
using test::FakeLlmServer;

Client Make(const FakeLlmServer& server, Config c = {}) {
  c.base_url = server.url();
  if (c.model.empty()) c.model = "test-model";
  if (c.backoff == Config{}.backoff) c.backoff = 10ms;
  auto client = Client::Create(c);
  EXPECT_TRUE(client.ok()) << client.error().message;
  return *client;
}

ChatRequest Ask(const std::string& text) {
  ChatRequest r;
  r.messages = {{"system", "Answer briefly."}, {"user", text}};
  return r;
}

TEST(LlmClient, HappyPathSendsTheRequestAndCountsTokens) {
  FakeLlmServer server;
  server.Script({{200, FakeLlmServer::Completion({"SELECT 1", "SELECT 2"}, 42, 7), {}, {}}});
  Config c;
  c.api_key = "sk-test-secret";
  ChatRequest r = Ask("hello");
  r.n = 2;
  r.temperature = 0.7;
  auto reply = Make(server, c).Chat(r);
  ASSERT_TRUE(reply.ok()) << reply.error().message;
  EXPECT_EQ(reply->choices, (std::vector<std::string>{"SELECT 1", "SELECT 2"}));
  EXPECT_EQ(reply->prompt_tokens, 42);
  EXPECT_EQ(reply->completion_tokens, 7);
  EXPECT_EQ(reply->attempts, 1);
  auto requests = server.Requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0]["model"], "test-model");
  EXPECT_EQ(requests[0]["n"], 2);
  EXPECT_DOUBLE_EQ(requests[0]["temperature"].get<double>(), 0.7);
  EXPECT_EQ(requests[0]["messages"][1]["content"], "hello");
  EXPECT_EQ(server.Authorizations()[0], "Bearer sk-test-secret");
}

TEST(LlmClient, RetriesA429AndA500ThenSucceeds) {
  FakeLlmServer server;
  server.Script({{429, R"({"error":{"message":"slow down"}})", {}, {{"Retry-After", "0"}}},
                 {500, "oops", {}, {}},
                 FakeLlmServer::Ok("fine")});
  auto reply = Make(server).Chat(Ask("x"));
  ASSERT_TRUE(reply.ok()) << reply.error().message;
  EXPECT_EQ(reply->choices.at(0), "fine");
  EXPECT_EQ(reply->attempts, 3);
  EXPECT_EQ(server.Requests().size(), 3u);
}

TEST(LlmClient, GivesUpAfterTheRetriesWithTheLastReason) {
  FakeLlmServer server;
  server.Script({{503, R"({"error":"model loading"})", {}, {}}});
  Config c;
  c.max_retries = 2;
  auto reply = Make(server, c).Chat(Ask("x"));
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error().code, ErrorCode::kConnection);
  EXPECT_NE(reply.error().message.find("HTTP 503: model loading"), std::string::npos) << reply.error().message;
  EXPECT_NE(reply.error().message.find("after 3 attempts"), std::string::npos);
  EXPECT_EQ(server.Requests().size(), 3u);
}

TEST(LlmClient, MalformedRepliesAreFormatErrors) {
  FakeLlmServer server;
  server.Script({{200, "<html>proxy error</html>", {}, {}}});
  auto a = Make(server).Chat(Ask("x"));
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().code, ErrorCode::kFormat);
  EXPECT_NE(a.error().message.find("not JSON"), std::string::npos);
  server.Script({{200, R"({"choices": []})", {}, {}}});
  auto b = Make(server).Chat(Ask("x"));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().code, ErrorCode::kFormat);
  EXPECT_NE(b.error().message.find("without choices"), std::string::npos);
  // A choice with a null content is an empty answer, not a crash.
  server.Script({{200, R"({"choices": [{"message": {"role": "assistant", "content": null}}]})", {}, {}}});
  auto c = Make(server).Chat(Ask("x"));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->choices, std::vector<std::string>{""});
}

TEST(LlmClient, ASlowServerStopsAtTheTimeoutWithoutRetrying) {
  FakeLlmServer server;
  server.Script({{200, FakeLlmServer::Completion({"late"}), 3000ms, {}}});
  Config c;
  c.timeout = 300ms;
  auto start = std::chrono::steady_clock::now();
  auto reply = Make(server, c).Chat(Ask("x"));
  auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error().code, ErrorCode::kTimeout);
  EXPECT_LT(waited, 2000ms);
  EXPECT_EQ(server.Requests().size(), 1u);
}

TEST(LlmClient, UnreachableUnauthorizedAndRejectedAreClear) {
  int closed_port;
  {
    FakeLlmServer gone;
    closed_port = gone.port();
  }
  Config c;
  c.base_url = "http://127.0.0.1:" + std::to_string(closed_port) + "/v1";
  c.model = "m";
  c.max_retries = 1;
  c.backoff = 10ms;
  auto client = Client::Create(c);
  ASSERT_TRUE(client.ok());
  auto unreachable = client->Chat(Ask("x"));
  ASSERT_FALSE(unreachable.ok());
  EXPECT_EQ(unreachable.error().code, ErrorCode::kConnection);
  EXPECT_NE(unreachable.error().message.find("cannot reach the LLM"), std::string::npos) << unreachable.error().message;

  FakeLlmServer server;
  server.Script({{401, R"({"error":{"message":"Incorrect API key provided: sk-test-secret"}})", {}, {}}});
  Config k;
  k.api_key = "sk-test-secret";
  auto unauthorized = Make(server, k).Chat(Ask("x"));
  ASSERT_FALSE(unauthorized.ok());
  EXPECT_EQ(unauthorized.error().code, ErrorCode::kConnection);
  EXPECT_NE(unauthorized.error().message.find("PLAINSQL_LLM_API_KEY"), std::string::npos);
  EXPECT_EQ(unauthorized.error().message.find("sk-test-secret"), std::string::npos) << unauthorized.error().message;
  EXPECT_EQ(server.Requests().size(), 1u);  // never retried

  server.Script({{404, R"({"error":{"message":"model 'nope' not found"}})", {}, {}}});
  auto rejected = Make(server).Chat(Ask("x"));
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(rejected.error().message.find("model 'nope' not found"), std::string::npos);
}

TEST(LlmClient, ConfigurationIsCheckedAndReadFromTheEnvironment) {
  Config bad_url;
  bad_url.base_url = "localhost:11434";
  bad_url.model = "m";
  EXPECT_FALSE(Client::Create(bad_url).ok());
  Config no_model;
  no_model.base_url = "http://localhost:11434/v1";
  EXPECT_FALSE(Client::Create(no_model).ok());
  setenv("PLAINSQL_LLM_URL", "http://example.invalid/v1", 1);
  setenv("PLAINSQL_LLM_MODEL", "llama3", 1);
  unsetenv("PLAINSQL_LLM_API_KEY");
  setenv("OPENAI_API_KEY", "sk-openai", 1);
  Config c = ConfigFromEnvironment();
  EXPECT_EQ(c.base_url, "http://example.invalid/v1");
  EXPECT_EQ(c.model, "llama3");
  EXPECT_EQ(c.api_key, "sk-openai");
  setenv("PLAINSQL_LLM_API_KEY", "sk-plainsql", 1);
  EXPECT_EQ(ConfigFromEnvironment().api_key, "sk-plainsql");
  for (const char* v : {"PLAINSQL_LLM_URL", "PLAINSQL_LLM_MODEL", "PLAINSQL_LLM_API_KEY", "OPENAI_API_KEY"})
    unsetenv(v);
}

TEST(LlmClient, EmbeddingsComeBackInInputOrder) {
  FakeLlmServer server;
  Client c = Make(server);
  auto e = c.Embed({"a b c", "hello"});
  ASSERT_TRUE(e.ok()) << e.error().message;
  ASSERT_EQ(e->vectors.size(), 2u);
  EXPECT_EQ(e->vectors[0], (std::vector<float>{5, 2, 1}));
  EXPECT_EQ(e->vectors[1], (std::vector<float>{5, 0, 1}));
  EXPECT_EQ(e->prompt_tokens, 7);
  EXPECT_EQ(server.Requests().back()["model"], "test-model");
  EXPECT_TRUE(c.Embed({})->vectors.empty());
}

TEST(LlmClient, ConcurrencyIsLimitedPerServer) {
  FakeLlmServer server;
  server.Script({{200, FakeLlmServer::Completion({"ok"}), 200ms, {}}});
  Config config;
  config.max_concurrency = 2;
  Client c = Make(server, config);
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  threads.reserve(4);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      ChatRequest request;
      request.messages = {{"user", "hi"}};
      ok += c.Chat(request).ok() ? 1 : 0;
    });
  }
  for (auto& t : threads) t.join();
  auto elapsed = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(ok, 4);
  // Four 200 ms requests, two at a time: at least two rounds.
  EXPECT_GE(elapsed, 400ms);
  config.max_concurrency = -1;
  config.base_url = server.url();
  config.model = "m";
  EXPECT_FALSE(Client::Create(config).ok());
}

}  // namespace
}  // namespace plainsql::llm

namespace plainsql::naturalness {
namespace {

using test::FakeLlmServer;

TEST(LlmNames, RepliesAreReadLenientlyAndChecked) {
  std::vector<LlmNameRequest> batch = {
      {"MO_ST", "TB_MO", ""}, {"TB_MO", "", ""}, {"CRT_DT", "TB_MO", ""}, {"QTY", "MO_PART", ""}};
  std::string reply =
      "Here are the names:\n"
      "1. MO_ST (column of TB_MO) -> `order_status`\n"
      "- **TB_MO** -> MaintenanceOrder\n"
      "CRT_DT: creation date\n"
      "NOT_ASKED -> whatever\n"
      "QTY -> \n";
  auto names = ParseNamingReply(reply, batch);
  EXPECT_EQ(names.size(), 3u);
  EXPECT_EQ(names[0], "order_status");
  EXPECT_EQ(names[1], "maintenance_order");
  EXPECT_EQ(names[2], "creation_date");
  EXPECT_FALSE(names.count(3));
}

TEST(LlmNames, DictionaryContextFindsWholeWords) {
  std::vector<std::string> dicts = {"TB_MO,MO_ST,Status of the order\nTB_MO,MO_STATUS_X,other\nMO_ST_CD,,codes\n"};
  auto lines = DictionaryContext(dicts, "MO_ST");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "TB_MO,MO_ST,Status of the order");
}

TEST(LlmNames, RenameTakesTheModelsNamesAndKeepsTheRestFromTheExpander) {
  auto classifier = Classifier::Load(DefaultDataDir());
  ASSERT_TRUE(classifier.ok());
  auto abbreviations = Expander::LoadAbbreviations(DefaultDataDir() + "/abbreviations.tsv");
  ASSERT_TRUE(abbreviations.ok());
  Expander expander(classifier->Words(), *abbreviations);
  auto conn = exec::Connect(test::SampleDb());
  ASSERT_TRUE(conn.ok());
  catalog::IntrospectOptions o;
  o.samples = 0;
  auto schema = catalog::Introspect(**conn, o);
  ASSERT_TRUE(schema.ok());

  NamingOptions options;
  options.evidence = {"TB_MO,MO_ST,Status of the maintenance order\n"};
  std::vector<PendingName> pending = PendingNames(*schema, *classifier, expander, nullptr, options);
  ASSERT_FALSE(pending.empty());
  std::vector<LlmNameRequest> requests;
  for (const auto& p : pending) requests.push_back({p.identifier, p.table, p.guess});

  FakeLlmServer server;
  // Two batches: the model names two identifiers in the first, a reserved word in the second, and a name that
  // collides with another column's.
  server.Script({FakeLlmServer::Ok("TB_MO -> work_order\nMO_ST -> order_status\nMO_TYP -> order_status\n"),
                 FakeLlmServer::Ok("Group -> group\n")});
  llm::Config c;
  c.base_url = server.url();
  c.model = "m";
  auto client = llm::Client::Create(c);
  ASSERT_TRUE(client.ok());
  LlmNamingStats stats;
  // Names a user validated in an earlier crosswalk are shown as examples of the schema's style.
  ValidatedNames validated = {{"EQ_TYP", "equipment_type"}};
  auto named = NameWithLlm(*client, "plant", {"TB_MO", "MO_ST"}, requests, options.evidence, &stats,
                           requests.size() / 2 + 1, validated);
  ASSERT_TRUE(named.ok()) << named.error().message;
  EXPECT_EQ(stats.requests, 2);
  EXPECT_GE(stats.named, 3);
  // The prompt showed the dictionary's line for MO_ST, and the validated names in both batches.
  std::string prompt = server.Requests().at(0)["messages"][1]["content"];
  EXPECT_NE(prompt.find("Status of the maintenance order"), std::string::npos) << prompt;
  for (size_t r = 0; r < 2; ++r) {
    std::string p = server.Requests().at(r)["messages"][1]["content"];
    EXPECT_NE(p.find("Names already chosen for this schema (follow their style):\nEQ_TYP -> equipment_type\n"),
              std::string::npos)
        << p;
  }
  EXPECT_EQ(NamingPrompt("plant", {}, {}, {}).at(1).content.find("already chosen"), std::string::npos);
  for (const auto& [i, name] : *named) options.proposed[{requests[i].table, requests[i].identifier}] = name;

  auto cw = NameSchema(*schema, *classifier, expander, nullptr, options, nullptr);
  EXPECT_EQ(cw.TableName("TB_MO", Level::kRegular), "work_order");
  // Two columns the model named alike: the first in table order keeps the name, the other is made unique.
  EXPECT_EQ(cw.ColumnName("TB_MO", "MO_TYP", Level::kRegular), "order_status");
  EXPECT_EQ(cw.ColumnName("TB_MO", "MO_ST", Level::kRegular), "order_status2");
  EXPECT_EQ(cw.ColumnName("spare_part", "Group", Level::kRegular), "spare_part_group");  // not a reserved word
  // Identifiers the model did not name keep the expander's name.
  EXPECT_EQ(cw.ColumnName("MO_PART", "QTY", Level::kRegular), "quantity");
}

}  // namespace
}  // namespace plainsql::naturalness
