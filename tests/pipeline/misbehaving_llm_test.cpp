// `ask` against a misbehaving model server (issue #16): rate limits, 5xx, hangs, a slow drip, garbage, prose, a cut-off
// fence, a huge reply, injected writes. Scenarios are data (tests/pipeline/data/misbehaving_llm.jsonl). Each must end
// within its deadline plus a margin, give the built-in translator's result (through retries or the fallback), and
// leave the database file unchanged. The deadline is short here (PLAINSQL_TEST_DEADLINE_MS, default 4000) so that CI
// stays fast; docs/BENCHMARKS.md has the same scenarios through the CLI with the default 60 s. Peak memory is measured
// there (bench/run_misbehaving_ask.sh), not here: a sanitizer build's shadow memory would make any bound meaningless.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "catalog/introspect.h"
#include "exec/connection.h"
#include "exec/fingerprint.h"
#include "llm/fake_llm_server.h"
#include "pipeline/generators.h"
#include "pipeline/pipeline.h"
#include "test_util.h"

namespace plainsql::pipeline {
namespace {

using namespace std::chrono_literals;

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(MisbehavingModel, AskEndsInTimeAnswersAndNeverWrites) {
  std::chrono::milliseconds deadline{4000};
  if (const char* d = std::getenv("PLAINSQL_TEST_DEADLINE_MS")) deadline = std::chrono::milliseconds(std::atoll(d));
  test::TempDir tmp;
  std::string db = tmp.File("plant.db");
  std::filesystem::copy_file(test::SampleDb(), db);
  const std::string before = FileBytes(db);
  auto conn = exec::Connect(db);
  ASSERT_TRUE(conn.ok()) << conn.error().message;
  auto schema = catalog::Introspect(**conn, {});
  ASSERT_TRUE(schema.ok()) << schema.error().message;
  const std::string question = "How many plants are there?";

  // The reference: the built-in translator alone.
  PipelineConfig offline;
  offline.llm.base_url = "none";
  auto builtin = MakeGenerators(offline, **conn, *schema);
  ASSERT_TRUE(builtin.ok()) << builtin.error().message;
  auto expected = Ask(**conn, *schema, builtin->active, question, offline.options);
  ASSERT_TRUE(expected.ok()) << expected.error().message;
  const std::string expected_fp = exec::MultisetFingerprint(expected->result);

  std::ifstream in(std::string(PLAINSQL_TEST_DATA_DIR) + "/misbehaving_llm.jsonl");
  ASSERT_TRUE(in.good());
  int scenarios = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    SCOPED_TRACE(j["name"].get<std::string>());
    ++scenarios;
    test::FakeLlmServer server;
    std::vector<test::FakeLlmServer::Reply> replies;
    for (const auto& r : j["replies"]) replies.push_back(test::FakeLlmServer::ReplyFromJson(r));
    server.Script(replies);
    PipelineConfig config;
    config.llm.base_url = server.url();
    config.llm.model = "misbehaving";
    config.llm.backoff = 200ms;
    config.options.deadline = deadline;
    auto generators = MakeGenerators(config, **conn, *schema);
    ASSERT_TRUE(generators.ok()) << generators.error().message;
    auto t0 = std::chrono::steady_clock::now();
    auto answer = Ask(**conn, *schema, generators->active, question, generators->With(config.options));
    auto took = std::chrono::steady_clock::now() - t0;
    ASSERT_TRUE(answer.ok()) << answer.error().message;
    EXPECT_LT(took, deadline + 2s);
    EXPECT_EQ(exec::MultisetFingerprint(answer->result), expected_fp);
    bool by_builtin = answer->candidates[answer->winner].generator == "builtin";
    EXPECT_EQ(by_builtin ? "builtin" : "model", j["answered_by"].get<std::string>());
    EXPECT_EQ(answer->fell_back, by_builtin);
    EXPECT_EQ(answer->notes.empty(), !by_builtin);
  }
  EXPECT_GE(scenarios, 10);
  EXPECT_EQ(FileBytes(db), before) << "the database file changed";
}

}  // namespace
}  // namespace plainsql::pipeline
