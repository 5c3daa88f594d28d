// Features judged by a model (issue #20), against the scripted OpenAI-compatible server: which features are put to
// the model (what each needs), how replies read, the cache that makes a second pass free, and a failing server.
#include <gtest/gtest.h>

#include "features/judge.h"
#include "llm/fake_llm_server.h"
#include "test_util.h"

namespace plainsql::features {
namespace {

llm::Config ConfigFor(const test::FakeLlmServer& server) {
  llm::Config c;
  c.base_url = server.url();
  c.model = "judge";
  c.max_retries = 0;
  return c;
}

size_t ModelFeatures(Needs up_to) {
  size_t n = 0;
  for (const auto& f : Catalog()) n += f.source == Source::kModel && f.needs <= up_to ? 1 : 0;
  return n;
}

TEST(ModelJudge, AsksEachFeatureOnceAndCaches) {
  test::FakeLlmServer server;
  server.Script({test::FakeLlmServer::Ok("Yes.")});
  test::TempDir dir;
  auto judge = ModelJudge::Open(ConfigFor(server), dir.File("cache.tsv"));
  ASSERT_TRUE(judge) << judge.error().message;
  const Example example{"How many singers are there?", "", "SELECT count(*) FROM singer"};
  Values values = Unknown();
  ASSERT_TRUE(judge->Judge(example, "singer(singer_id, name)", values));
  EXPECT_EQ(judge->Asked(), ModelFeatures(Needs::kSql));
  for (size_t i = 0; i < Catalog().size(); ++i) {
    if (Catalog()[i].source == Source::kModel) {
      EXPECT_EQ(values[i], 1) << Catalog()[i].id;
    }
  }
  // The prompt names the property and shows what the feature needs.
  const auto requests = server.Requests();
  ASSERT_FALSE(requests.empty());
  const std::string first = requests.front()["messages"][1]["content"];
  EXPECT_NE(first.find("PROPERTY: the question"), std::string::npos) << first;
  bool saw_sql = false, saw_schema = false;
  for (const auto& r : requests) {
    const std::string user = r["messages"][1]["content"];
    saw_sql |= user.find("SQL: SELECT count(*) FROM singer") != std::string::npos;
    saw_schema |= user.find("SCHEMA:\nsinger(singer_id, name)") != std::string::npos;
  }
  EXPECT_TRUE(saw_sql);
  EXPECT_TRUE(saw_schema);
  // A second judge on the same cache file asks nothing.
  auto again = ModelJudge::Open(ConfigFor(server), dir.File("cache.tsv"));
  ASSERT_TRUE(again);
  Values second = Unknown();
  ASSERT_TRUE(again->Judge(example, "singer(singer_id, name)", second));
  EXPECT_EQ(again->Asked(), 0u);
  EXPECT_EQ(again->Cached(), ModelFeatures(Needs::kSql));
  EXPECT_EQ(second, values);
}

TEST(ModelJudge, NoAndUnclearRepliesReadAsNoAndNeedsAreRespected) {
  test::FakeLlmServer server;
  server.Script({test::FakeLlmServer::Ok("no"), test::FakeLlmServer::Ok("Maybe, it depends.")});
  test::TempDir dir;
  auto judge = ModelJudge::Open(ConfigFor(server), dir.File("cache.tsv"));
  ASSERT_TRUE(judge);
  Values values = Unknown();
  // No schema, no SQL: only the features that need the question alone are judged.
  ASSERT_TRUE(judge->Judge({"Which singers are older than 30?", "", ""}, "", values));
  EXPECT_EQ(judge->Asked(), ModelFeatures(Needs::kQuestion));
  EXPECT_EQ(judge->Unclear(), judge->Asked() - 1);
  for (size_t i = 0; i < Catalog().size(); ++i) {
    const auto& f = Catalog()[i];
    if (f.source != Source::kModel) continue;
    EXPECT_EQ(values[i], f.needs == Needs::kQuestion ? 0 : -1) << f.id;
  }
}

TEST(ModelJudge, AFailingServerIsAnError) {
  test::FakeLlmServer server;
  test::FakeLlmServer::Reply down;
  down.status = 500;
  down.body = "down";
  server.Script({down});
  test::TempDir dir;
  auto judge = ModelJudge::Open(ConfigFor(server), dir.File("cache.tsv"));
  ASSERT_TRUE(judge);
  Values values = Unknown();
  EXPECT_FALSE(judge->Judge({"How many singers?", "", ""}, "", values));
}

}  // namespace
}  // namespace plainsql::features
