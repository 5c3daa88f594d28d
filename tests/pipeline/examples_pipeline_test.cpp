// The examples stage end to end against the scripted OpenAI-compatible server (issue #17): with an example store, the
// model is asked for a zero-shot draft (no examples in that prompt), the store's examples are selected with it, and
// they reach the generation prompt best first, in the order and with the scores the trace reports, in both prompt
// styles that have an examples slot. Without a store the stage selects nothing and says so.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "catalog/introspect.h"
#include "eval/systems.h"
#include "examples/store.h"
#include "exec/connection.h"
#include "llm/fake_llm_server.h"
#include "llm/generator.h"
#include "pipeline/config.h"
#include "pipeline/generators.h"
#include "pipeline/pipeline.h"
#include "test_util.h"

namespace plainsql::pipeline {
namespace {

using namespace std::chrono_literals;
using test::FakeLlmServer;

std::string Sql(const std::string& sql) { return "```sql\n" + sql + "\n```"; }

class ExamplesPipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = exec::Connect(test::SampleDb());
    ASSERT_TRUE(c.ok()) << c.error().message;
    conn_ = std::move(*c);
    auto s = catalog::Introspect(*conn_, {});
    ASSERT_TRUE(s.ok()) << s.error().message;
    schema_ = std::move(*s);
    test::MakeSqliteDb(tmp_.File("shop.db"),
                       "CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, name TEXT, city TEXT);"
                       "CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer "
                       "(customer_id), total REAL);");
    auto store = examples::ExampleStore::Open(tmp_.File("store.db"));
    ASSERT_TRUE(store.ok()) << store.error().message;
    std::vector<examples::BuildItem> items = {
        {"shop", "List the names of customers from Berlin.", "SELECT name FROM customer WHERE city = 'Berlin'"},
        {"plant", "Which plant has the most technicians?",
         "SELECT p.plant_name FROM plant AS p JOIN technician AS t ON t.plant_id = p.plant_id GROUP BY p.plant_name "
         "ORDER BY count(*) DESC LIMIT 1"},
        {"shop", "How many customers are there?", "SELECT count(*) FROM customer"},
        {"plant", "How many technicians are there?", "SELECT count(*) FROM technician"},
        {"shop", "What is the average order total?", "SELECT avg(total) FROM orders"},
    };
    examples::DatabaseSource source = [this](const std::string& db_id) -> Result<examples::BuildDatabase> {
      auto conn = exec::Connect(db_id == "plant" ? test::SampleDb() : tmp_.File(db_id + ".db"));
      if (!conn) return conn.error();
      auto schema = catalog::Introspect(**conn, {});
      if (!schema) return schema.error();
      examples::BuildDatabase db;
      db.schema = std::move(*schema);
      return db;
    };
    examples::BuildOptions o;
    o.content_hash = "items";
    auto built = examples::BuildStore(**store, items, source, o);
    ASSERT_TRUE(built.ok()) << built.error().message;
    ASSERT_EQ(built->added, 5);
    auto library = examples::ExampleLibrary::Load(**store);
    ASSERT_TRUE(library.ok()) << library.error().message;
    library_ = *library;
  }

  std::unique_ptr<Generator> Llm(const std::string& style) {
    llm::Config c;
    c.base_url = server_.url();
    c.model = "test-model";
    c.backoff = 10ms;
    c.timeout = 5s;
    auto g = llm::MakeLlmGenerator(c, style);
    EXPECT_TRUE(g.ok()) << g.error().message;
    return std::move(*g);
  }

  test::TempDir tmp_;
  FakeLlmServer server_;
  std::unique_ptr<exec::Connection> conn_;
  catalog::Schema schema_;
  std::shared_ptr<const examples::ExampleLibrary> library_;
};

// The examples stage's trace entry.
nlohmann::ordered_json ExamplesTrace(const Answer& a) {
  for (const auto& st : a.trace) {
    if (st.stage == "examples") return st.detail;
  }
  return {};
}

TEST_F(ExamplesPipeline, ExamplesReachThePromptInScoreOrder) {
  for (const std::string style : {"omnisql", "dail_sql"}) {
    SCOPED_TRACE(style);
    server_.Script(
        {FakeLlmServer::Ok(Sql("SELECT count(*) FROM plant")), FakeLlmServer::Ok(Sql("SELECT count(*) FROM plant"))});
    size_t before = server_.Requests().size();
    auto g = Llm(style);
    Options o;
    o.examples.library = library_;
    o.examples.k = 4;
    auto a = Ask(*conn_, schema_, {g.get()}, "How many plants are there?", o);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->sql, "SELECT count(*) FROM plant");

    // The trace: the model's draft, then four examples, best first, with their scores.
    auto detail = ExamplesTrace(*a);
    EXPECT_EQ(detail["draft"], "SELECT count(*) FROM plant");
    EXPECT_EQ(detail["draft_by"], "llm:test-model");
    EXPECT_EQ(detail["masked_draft"], "SELECT count(*) FROM <mask>");
    const auto& picks = detail["examples"];
    ASSERT_EQ(picks.size(), 4u) << detail.dump();
    for (size_t i = 1; i < picks.size(); ++i) {
      EXPECT_GE(picks[i - 1]["score"].get<double>(), picks[i]["score"].get<double>()) << detail.dump();
    }
    EXPECT_GT(picks.front()["score"].get<double>(), picks.back()["score"].get<double>()) << detail.dump();

    // Two requests: the zero-shot draft (no examples), then the generation with the examples in score order.
    auto requests = server_.Requests();
    ASSERT_EQ(requests.size(), before + 2);
    std::string draft_prompt = requests[before]["messages"].dump();
    std::string prompt = requests[before + 1]["messages"].back()["content"].get<std::string>();
    size_t last = 0;
    for (const auto& p : picks) {
      std::string question = p["question"].get<std::string>();
      EXPECT_EQ(draft_prompt.find(question), std::string::npos) << question;
      size_t at = prompt.find(question);
      ASSERT_NE(at, std::string::npos) << question << " is not in the prompt:\n" << prompt;
      EXPECT_GT(at, last) << question << " is out of score order in:\n" << prompt;
      last = at;
      EXPECT_NE(prompt.find(p["sql"].get<std::string>()), std::string::npos) << p["sql"];
    }
    // Each example is shown against its own database's tables: the shop examples with CREATE TABLE customer.
    EXPECT_NE(prompt.find("CREATE TABLE customer"), std::string::npos) << prompt;
    if (style == "omnisql") {
      EXPECT_NE(prompt.find(fmt::format("Example 1 (database {}, similarity {:.2f})",
                                        picks[0]["db_id"].get<std::string>(), picks[0]["score"].get<double>())),
                std::string::npos)
          << prompt;
    } else {
      EXPECT_NE(prompt.find("/* Answer the following: " + picks[0]["question"].get<std::string>() + " */"),
                std::string::npos)
          << prompt;
    }
  }
}

TEST_F(ExamplesPipeline, WithoutAStoreTheStageSaysSoAndThePromptHasNoExamples) {
  server_.Script({FakeLlmServer::Ok(Sql("SELECT count(*) FROM plant"))});
  auto g = Llm("omnisql");
  auto a = Ask(*conn_, schema_, {g.get()}, "How many plants are there?", {});
  ASSERT_TRUE(a.ok()) << a.error().message;
  auto detail = ExamplesTrace(*a);
  EXPECT_NE(detail["note"].get<std::string>().find("no example store"), std::string::npos) << detail.dump();
  auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 1u);  // no draft is asked for
  EXPECT_EQ(requests[0]["messages"].dump().find("Example 1"), std::string::npos);
}

TEST_F(ExamplesPipeline, OfflineTheBuiltinTranslatorsAnswerIsTheDraft) {
  PipelineConfig offline;
  offline.llm.base_url = "none";
  auto generators = MakeGenerators(offline, *conn_, schema_);
  ASSERT_TRUE(generators.ok()) << generators.error().message;
  Options o = generators->With(offline.options);
  o.examples.library = library_;
  o.examples.k = 2;
  auto a = Ask(*conn_, schema_, generators->active, "How many plants are there?", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  auto detail = ExamplesTrace(*a);
  EXPECT_EQ(detail["draft_by"], "builtin");
  EXPECT_EQ(detail["masked_draft"], "SELECT count(*) FROM <mask>") << detail.dump();
  ASSERT_EQ(detail["examples"].size(), 2u);
  EXPECT_EQ(server_.Requests().size(), 0u);
}

// The thesis's configurations: what each turns on, and Ground leaving out the question being asked.
TEST_F(ExamplesPipeline, ConfigurationsAndGroundLeavesTheQuestionOut) {
  PipelineConfig base;
  base.options.candidates = 3;
  PipelineConfig baseline = base;
  ASSERT_TRUE(eval::ApplyConfiguration(baseline, "baseline", "").ok());
  EXPECT_EQ(baseline.options.candidates, 1);
  EXPECT_FALSE(baseline.options.draft || baseline.options.refine || baseline.options.vote);
  EXPECT_EQ(baseline.examples.store, "");
  PipelineConfig zero = base;
  ASSERT_TRUE(eval::ApplyConfiguration(zero, "zero-shot", "").ok());
  EXPECT_TRUE(zero.options.draft && zero.options.refine && zero.options.vote);
  EXPECT_EQ(zero.options.candidates, 3);
  EXPECT_FALSE(eval::ApplyConfiguration(zero, "train", "").ok());         // needs a store
  EXPECT_FALSE(eval::ApplyConfiguration(zero, "baseline", "s.db").ok());  // takes none
  EXPECT_FALSE(eval::ApplyConfiguration(zero, "fancy", "").ok());

  // Ground on the sample database: the store holds the question asked; the prompt shows the others only.
  std::filesystem::create_directory(tmp_.File("dbs"));
  std::filesystem::copy_file(test::SampleDb(), tmp_.File("dbs/plant.db"));
  PipelineConfig ground;
  ground.llm.base_url = server_.url();
  ground.llm.model = "test-model";
  ground.llm.backoff = 10ms;
  ASSERT_TRUE(eval::ApplyConfiguration(ground, "ground", tmp_.File("store.db")).ok());
  ground.examples.k = 5;
  auto library = LoadExamples(ground.examples);
  ASSERT_TRUE(library.ok()) << library.error().message;
  auto system = eval::PipelineSystem::Create(ground, tmp_.File("dbs"), false, *library);
  ASSERT_TRUE(system.ok()) << system.error().message;
  server_.Script({FakeLlmServer::Ok(Sql("SELECT count(*) FROM technician"))});
  eval::Question q;
  q.db_id = "plant";
  q.question = "How many technicians are there?";
  q.gold_sql = "SELECT count(*) FROM technician";
  auto answer = (*system)->Answer(q);
  ASSERT_TRUE(answer.ok()) << answer.error().message;
  EXPECT_EQ(answer->sql, "SELECT count(*) FROM technician") << answer->error;
  auto requests = server_.Requests();
  ASSERT_GE(requests.size(), 2u);  // the draft, then the generation
  std::string prompt = requests.back()["messages"].back()["content"].get<std::string>();
  size_t asked = prompt.find(q.question);
  ASSERT_NE(asked, std::string::npos);
  EXPECT_EQ(prompt.find(q.question, asked + 1), std::string::npos) << "the question asked is shown as an example";
  EXPECT_NE(prompt.find("How many customers are there?"), std::string::npos) << prompt;
  EXPECT_NE(prompt.find("Which plant has the most technicians?"), std::string::npos) << prompt;
}

// plainsql.toml: [pipeline] examples and examples_k, [examples] weights; checked, and kept by a run's stored JSON.
TEST(ExamplesConfig, ReadCheckedAndStoredWithARun) {
  test::TempDir tmp;
  auto write = [&](const std::string& text) {
    std::ofstream(tmp.File("plainsql.toml")) << text;
    return LoadConfigFile(tmp.File("plainsql.toml"));
  };
  auto c = write(
      "[pipeline]\nexamples = \"train.examples\"\nexamples_k = 3\n"
      "[examples]\nquestion = 0.6\nsql = 0.4\nsample = 0.8\nschema = 0.2\nthreshold = 0.1\ndiverse = false\n"
      "coarse_skeleton = false\n");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->examples.store, "train.examples");
  EXPECT_EQ(c->examples.k, 3);
  EXPECT_DOUBLE_EQ(c->examples.weights.question, 0.6);
  EXPECT_DOUBLE_EQ(c->examples.weights.schema, 0.2);
  EXPECT_DOUBLE_EQ(c->examples.weights.threshold, 0.1);
  EXPECT_FALSE(c->examples.weights.diverse);
  EXPECT_FALSE(c->examples.weights.coarse_skeleton);
  c->examples.configuration = "train";
  auto back = ConfigFromJson(nlohmann::json::parse(ConfigToJson(*c).dump()));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->examples.store, "train.examples");
  EXPECT_EQ(back->examples.k, 3);
  EXPECT_DOUBLE_EQ(back->examples.weights.sample, 0.8);
  EXPECT_FALSE(back->examples.weights.coarse_skeleton);
  EXPECT_EQ(back->examples.configuration, "train");
  // Without examples, a run stores what it always stored.
  EXPECT_FALSE(ConfigToJson(PipelineConfig{}).contains("examples"));
  for (const std::string bad :
       {"[pipeline]\nexamples_k = 0\n", "[examples]\nquestion = 1.5\n", "[examples]\nweight = 1\n",
        "[examples]\nembedding_url = \"http://x/v1\"\n", "[examples]\nsample = 0\nschema = 0\n"}) {
    auto r = write(bad);
    EXPECT_FALSE(r.ok()) << bad;
  }
}

}  // namespace
}  // namespace plainsql::pipeline
