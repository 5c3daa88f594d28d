// The ask pipeline end to end against the scripted OpenAI-compatible server and the sample database: the happy path,
// refinement repairing an execution error and a hallucinated column, voting, injected faults, natural names.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "builtin/generator.h"
#include "catalog/cache.h"
#include "catalog/introspect.h"
#include "exec/connection.h"
#include "llm/fake_llm_server.h"
#include "llm/generator.h"
#include "naturalness/crosswalk.h"
#include "pipeline/config.h"
#include "pipeline/pipeline.h"
#include "sql/parser.h"
#include "test_util.h"

namespace plainsql::pipeline {
namespace {

using namespace std::chrono_literals;
using test::FakeLlmServer;

std::string Sql(const std::string& sql) { return "Here you go:\n```sql\n" + sql + "\n```"; }

class Pipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = exec::Connect(test::SampleDb());
    ASSERT_TRUE(c.ok()) << c.error().message;
    conn_ = std::move(*c);
    auto s = catalog::Introspect(*conn_, {});
    ASSERT_TRUE(s.ok()) << s.error().message;
    schema_ = std::move(*s);
  }
  std::unique_ptr<Generator> Llm(llm::Config c = {}) {
    c.base_url = server_.url();
    c.model = "test-model";
    c.backoff = 10ms;
    if (c.timeout == llm::Config{}.timeout) c.timeout = 5s;
    auto g = llm::MakeLlmGenerator(c);
    EXPECT_TRUE(g.ok()) << g.error().message;
    return std::move(*g);
  }
  Result<Answer> Run(Generator* g, const std::string& q, Options o = {}) { return Ask(*conn_, schema_, {g}, q, o); }

  FakeLlmServer server_;
  std::unique_ptr<exec::Connection> conn_;
  catalog::Schema schema_;
};

TEST_F(Pipeline, HappyPath) {
  server_.Script({FakeLlmServer::Ok(Sql("SELECT count(*) FROM plant;"))});
  auto g = Llm();
  auto a = Run(g.get(), "How many plants are there?");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->sql, "SELECT count(*) FROM plant");
  ASSERT_EQ(a->result.rows.size(), 1u);
  ASSERT_EQ(a->candidates.size(), 1u);
  EXPECT_EQ(a->candidates[0].status, "ok");
  // The prompt carried the schema, the question and the dialect's instructions.
  auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 1u);
  std::string prompt = requests[0]["messages"].dump();
  EXPECT_NE(prompt.find("How many plants are there?"), std::string::npos);
  EXPECT_NE(prompt.find("CREATE TABLE TB_MO"), std::string::npos);
  EXPECT_NE(prompt.find("never TOP"), std::string::npos);
  // The trace names every stage and counts the tokens.
  auto j = AnswerToJson(*a);
  std::vector<std::string> stages;
  for (const auto& s : j["trace"]["stages"]) stages.push_back(s["stage"]);
  EXPECT_EQ(stages, (std::vector<std::string>{"catalog", "naturalness", "examples", "generate", "refine", "vote",
                                              "rewrite", "execute"}));
  EXPECT_EQ(j["trace"]["stages"][3]["prompt_tokens"], 10);
  EXPECT_EQ(j["columns"].size(), 1u);
}

TEST_F(Pipeline, AnEmptyQuestionIsRefusedBeforeAnyModelCall) {
  server_.Script({FakeLlmServer::Ok(Sql("SELECT count(*) FROM plant;"))});
  auto g = Llm();
  for (const std::string q : {"", "  \n\t "}) {
    auto a = Run(g.get(), q);
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(a.error().message, "the question is empty");
  }
  EXPECT_TRUE(server_.Requests().empty());
}

TEST_F(Pipeline, RefinementRepairsAnErrorAndAHallucinatedColumn) {
  // An execution error (a function SQLite lacks), then a hallucinated column, then a good query.
  server_.Script({FakeLlmServer::Ok(Sql("SELECT no_such_function(plant_id) FROM plant")),
                  FakeLlmServer::Ok(Sql("SELECT plant_title FROM plant")),
                  FakeLlmServer::Ok(Sql("SELECT plant_name FROM plant ORDER BY plant_name"))});
  auto g = Llm();
  Options o;
  o.max_refinements = 2;
  auto a = Run(g.get(), "List the plant names.", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->sql, "SELECT plant_name FROM plant ORDER BY plant_name");
  EXPECT_EQ(a->candidates[0].refinements, 2);
  auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 3u);
  // The refine prompt showed the failing query and why it failed.
  std::string second = requests[1]["messages"].dump();
  EXPECT_NE(second.find("no_such_function"), std::string::npos);
  EXPECT_NE(second.find("not on plainsql's list of allowed SQLite functions"), std::string::npos) << second;
  std::string third = requests[2]["messages"].dump();
  EXPECT_NE(third.find("plant_title"), std::string::npos);
  EXPECT_NE(third.find("the schema has no column"), std::string::npos) << third;
  // With refinement off, the failure is reported with its reason.
  server_.Script({FakeLlmServer::Ok(Sql("SELECT plant_title FROM plant"))});
  o.refine = false;
  auto b = Run(g.get(), "List the plant names.", o);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("plant_title"), std::string::npos) << b.error().message;
}

TEST_F(Pipeline, VotingPicksTheMajorityResult) {
  server_.Script({{200,
                   FakeLlmServer::Completion({Sql("SELECT count(*) FROM technician"), Sql("SELECT 99"),
                                              Sql("SELECT count(technician_id) FROM technician")}),
                   {},
                   {}}});
  auto g = Llm();
  Options o;
  o.candidates = 3;
  auto a = Run(g.get(), "How many technicians?", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->sql, "SELECT count(*) FROM technician");  // the first of the two agreeing candidates
  EXPECT_EQ(a->candidates[0].votes, 2u);
  EXPECT_EQ(a->candidates[1].votes, 1u);
  EXPECT_EQ(server_.Requests()[0]["n"], 3);
  EXPECT_GT(server_.Requests()[0]["temperature"].get<double>(), 0.0);
  // Without voting the first candidate that runs wins, whatever the others say.
  server_.Script({{200,
                   FakeLlmServer::Completion({Sql("SELECT 99"), Sql("SELECT count(*) FROM technician"),
                                              Sql("SELECT count(*) FROM technician")}),
                   {},
                   {}}});
  o.vote = false;
  auto b = Run(g.get(), "How many technicians?", o);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->sql, "SELECT 99");
}

TEST_F(Pipeline, FaultsEndInARetryOrAClearError) {
  auto g = Llm();
  // 500 then a good reply: retried.
  server_.Script({{500, "oops", {}, {}}, FakeLlmServer::Ok(Sql("SELECT 1"))});
  auto a = Run(g.get(), "q");
  ASSERT_TRUE(a.ok()) << a.error().message;
  // Malformed JSON, and a reply without choices: format errors.
  server_.Script({{200, "{not json", {}, {}}});
  auto b = Run(g.get(), "q");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().code, ErrorCode::kFormat);
  server_.Script({{200, R"({"choices": []})", {}, {}}});
  EXPECT_FALSE(Run(g.get(), "q").ok());
  // Prose instead of SQL, every time: refinement tries, then a clear error.
  server_.Script({FakeLlmServer::Ok("I am sorry, I cannot help with that.")});
  auto c = Run(g.get(), "q");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("no SQL"), std::string::npos) << c.error().message;
  // A write is refused and never refined into running.
  server_.Script({FakeLlmServer::Ok(Sql("DELETE FROM plant"))});
  auto d = Run(g.get(), "q");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("refused"), std::string::npos) << d.error().message;
  // 2 (a retry) + 1 + 1 + 3 (two refinements of the prose) + 1 (a refusal is not refined).
  EXPECT_EQ(server_.Requests().size(), 8u);
  // A server slower than the timeout: the wait ends at the timeout.
  llm::Config slow;
  slow.timeout = 300ms;
  slow.max_retries = 0;
  auto gs = Llm(slow);
  server_.Script({{200, FakeLlmServer::Completion({Sql("SELECT 1")}), 5s, {}}});
  auto t0 = std::chrono::steady_clock::now();
  auto e = Run(gs.get(), "q");
  auto waited = std::chrono::steady_clock::now() - t0;
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code, ErrorCode::kTimeout);
  EXPECT_LT(waited, 3s);
}

TEST_F(Pipeline, ADraftFindsTheSchemaSlice) {
  server_.Script({FakeLlmServer::Ok(Sql("SELECT count(*) FROM technician")),
                  FakeLlmServer::Ok(Sql("SELECT count(*) FROM technician WHERE is_certified = 1"))});
  auto g = Llm();
  Options o;
  o.slice = "referenced";
  auto a = Run(g.get(), "How many certified technicians?", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->sql, "SELECT count(*) FROM technician WHERE is_certified = 1");
  auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 2u);
  std::string draft = requests[0]["messages"].dump(), sliced = requests[1]["messages"].dump();
  EXPECT_NE(draft.find("CREATE TABLE TB_MO"), std::string::npos);
  EXPECT_NE(sliced.find("CREATE TABLE technician"), std::string::npos);
  EXPECT_EQ(sliced.find("CREATE TABLE TB_MO"), std::string::npos);
  EXPECT_EQ(AnswerToJson(*a)["trace"]["stages"][2]["stage"], "linking");
}

TEST_F(Pipeline, NaturalNamesAreShownAndTranslatedBack) {
  naturalness::Crosswalk cw;
  cw.entries.push_back({"TB_MO", true, "plant", "maintenance_order", "mo", "mo", "", {}});
  cw.entries.push_back({"MO_ST", false, "plant", "status", "st", "st", "TB_MO", {}});
  server_.Script({FakeLlmServer::Ok(Sql("SELECT status, count(*) FROM maintenance_order GROUP BY status"))});
  auto g = Llm();
  Options o;
  o.crosswalk = &cw;
  auto a = Run(g.get(), "How many orders per status?", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->sql, "SELECT MO_ST, count(*) FROM TB_MO GROUP BY MO_ST");
  std::string prompt = server_.Requests()[0]["messages"].dump();
  EXPECT_NE(prompt.find("maintenance_order"), std::string::npos);
  EXPECT_EQ(prompt.find("TB_MO"), std::string::npos);
}

// A generator whose candidates are ranked readings (as the built-in translator's are).
class RankedReadings final : public Generator {
 public:
  explicit RankedReadings(std::vector<std::string> readings) : readings_(std::move(readings)) {}
  std::string Name() const override { return "ranked"; }
  bool CanRefine() const override { return false; }
  Result<Generation> Generate(const GenerationRequest&) override {
    Generation g;
    g.candidates = readings_;
    g.ranked = true;
    return g;
  }

 private:
  std::vector<std::string> readings_;
};

TEST_F(Pipeline, RankedReadingsFallBackOnlyWhenAnEarlierOneFails) {
  // The first reading runs (even with no rows): it stands; the later ones are not needed, whatever they return.
  RankedReadings empty_first({"SELECT plant_name FROM plant WHERE city = 'Nowhere'", "SELECT plant_name FROM plant",
                              "SELECT plant_name FROM plant"});
  auto a = Run(&empty_first, "q");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->sql, "SELECT plant_name FROM plant WHERE city = 'Nowhere'");
  EXPECT_EQ(a->candidates[0].status, "empty");
  EXPECT_EQ(a->candidates[1].status, "not needed");
  EXPECT_EQ(a->candidates[2].status, "not needed");
  // A failing first reading gives way to the next.
  RankedReadings failing_first({"SELECT nope FROM plant", "SELECT count(*) FROM plant"});
  auto b = Run(&failing_first, "q");
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->sql, "SELECT count(*) FROM plant");
  EXPECT_EQ(b->candidates[0].status, "unknown name");
  // Beside another generator, a ranked generator casts one vote: its two agreeing readings do not outvote an LLM.
  server_.Script({FakeLlmServer::Ok(Sql("SELECT count(*) FROM technician;"))});
  auto llm = Llm();
  RankedReadings agreeing({"SELECT count(*) FROM plant", "SELECT count(*) FROM plant"});
  Options o;
  auto c = Ask(*conn_, schema_, {llm.get(), &agreeing}, "q", o);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->sql, "SELECT count(*) FROM technician");  // one vote each: the earlier candidate wins the tie
}

// Counts the parses a generator makes and keeps the trees it hands over.
class ParseCounting final : public Generator {
 public:
  explicit ParseCounting(Generator& inner) : inner_(inner) {}
  std::string Name() const override { return inner_.Name(); }
  bool CanRefine() const override { return inner_.CanRefine(); }
  bool Offline() const override { return inner_.Offline(); }
  Result<Generation> Generate(const GenerationRequest& r) override {
    uint64_t before = sql::ParseCount();
    auto g = inner_.Generate(r);
    inside += sql::ParseCount() - before;
    if (g) trees.insert(trees.end(), g->queries.begin(), g->queries.end());
    return g;
  }
  uint64_t inside = 0;
  std::vector<std::shared_ptr<const sql::Query>> trees;

 private:
  Generator& inner_;
};

// Issue #16: a built-in candidate is parsed once, at generation, and the executor runs that very tree: no stage
// between generation and execution (check, resolution, vote, execution) parses it again.
TEST_F(Pipeline, BuiltinCandidateIsParsedOnceBetweenGenerationAndExecution) {
  auto builtin = builtin::MakeBuiltinGenerator(*conn_, schema_);
  ASSERT_TRUE(builtin.ok()) << builtin.error().message;
  ParseCounting counting(**builtin);
  ASSERT_TRUE(conn_->Policy().ok());  // the access policy is read once per connection, before any question
  uint64_t before = sql::ParseCount();
  auto a = Run(&counting, "Which plant has the most technicians?");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(sql::ParseCount() - before - counting.inside, 0u);  // no parse outside generation
  const Candidate& won = a->candidates[a->winner];
  ASSERT_TRUE(won.query);
  EXPECT_EQ(won.native.get(), won.query.get());  // native names: the tree that ran is the generator's
  EXPECT_NE(std::find(counting.trees.begin(), counting.trees.end(), won.query), counting.trees.end());
}

// A crosswalk that keeps every table's name and renames a column: the built-in translator is not on native names, so
// it matches stored values under the shown names and runs its readings translated back (it once took such a schema
// for the native one: the value linked nothing and the readings, with the shown names, did not run).
TEST_F(Pipeline, BuiltinUnderRenamedColumnsOfKeptTablesMatchesValues) {
  auto builtin = builtin::MakeBuiltinGenerator(*conn_, schema_);
  ASSERT_TRUE(builtin.ok()) << builtin.error().message;
  naturalness::Crosswalk cw;
  cw.entries.push_back({"city", false, "plant", "town", "twn", "T", "plant", {}});
  Options o;
  o.crosswalk = &cw;
  auto a = Run(builtin->get(), "What is the name of the plant in Toledo?", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_NE(a->sql.find("city = 'Toledo'"), std::string::npos) << a->sql;
  auto native = Run(builtin->get(), "What is the name of the plant in Toledo?");
  ASSERT_TRUE(native.ok()) << native.error().message;
  EXPECT_EQ(a->sql, native->sql);
}

TEST(PipelineConfigFile, ReadsKeysRefusesKeysAndUnknownNames) {
  test::TempDir tmp;
  auto write = [&](const std::string& text) {
    std::ofstream(tmp.File("plainsql.toml")) << text;
    return tmp.File("plainsql.toml");
  };
  auto c =
      LoadConfigFile(write("[llm]\nurl = \"http://h:1/v1\"\nmodel = \"m\"\nstyle = \"dail_sql\"\n"
                           "[pipeline]\ncandidates = 5\nvote = false\ntimeout_ms = 1000\ntemperature = 0.3\n"));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->llm.base_url, "http://h:1/v1");
  EXPECT_EQ(c->style, "dail_sql");
  EXPECT_EQ(c->options.candidates, 5);
  EXPECT_FALSE(c->options.vote);
  EXPECT_EQ(c->options.limits.timeout, 1000ms);
  EXPECT_DOUBLE_EQ(c->options.temperature, 0.3);
  EXPECT_EQ(ConfigToJson(*c)["pipeline"]["candidates"], 5);
  EXPECT_EQ(ConfigToJson(*c).dump().find("key"), std::string::npos);
  auto key = LoadConfigFile(write("[llm]\napi_key = \"sk-secret\"\n"));
  ASSERT_FALSE(key.ok());
  EXPECT_EQ(key.error().message.find("sk-secret"), std::string::npos);
  EXPECT_NE(key.error().message.find("PLAINSQL_LLM_API_KEY"), std::string::npos);
  EXPECT_NE(LoadConfigFile(write("[llm]\nmodl = \"x\"\n")).error().message.find("modl"), std::string::npos);
  EXPECT_NE(LoadConfigFile(write("[pipeline]\ncandidates = \"five\"\n")).error().message.find("wrong type"),
            std::string::npos);
  EXPECT_FALSE(LoadConfigFile(write("[pipeline]\ncandidates = 0\n")).ok());
  EXPECT_FALSE(LoadConfigFile(write("[llm\n")).ok());
  EXPECT_FALSE(LoadConfig(tmp.File("missing.toml")).ok());
}

TEST(PipelineConfigFile, LinkBudgetIsReadStoredAndKeptForOldRuns) {
  test::TempDir tmp;
  auto write = [&](const std::string& text) {
    std::ofstream(tmp.File("plainsql.toml")) << text;
    return tmp.File("plainsql.toml");
  };
  auto c = LoadConfigFile(write("[pipeline]\nslice = \"link\"\n"));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->options.link.budget, kDefaultLinkBudget);
  c = LoadConfigFile(write("[pipeline]\nlink_budget = 250\n"));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->options.link.budget, 250u);
  auto stored = ConfigToJson(*c);
  EXPECT_EQ(stored["pipeline"]["link_budget"], 250);
  auto back = ConfigFromJson(stored);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->options.link.budget, 250u);
  // A run stored before the budget existed linked without a cap, and resumes so.
  stored["pipeline"].erase("link_budget");
  back = ConfigFromJson(stored);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->options.link.budget, 0u);
  c = LoadConfigFile(write("[pipeline]\nlink_budget = 0\n"));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->options.link.budget, 0u);
  auto bad = LoadConfigFile(write("[pipeline]\nlink_budget = -5\n"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("link_budget"), std::string::npos) << bad.error().message;
}

TEST(PipelineConfigFile, ExecSectionSetsTheGuardAndTheCeilings) {
  test::TempDir tmp;
  auto write = [&](const std::string& text) {
    std::ofstream(tmp.File("plainsql.toml")) << text;
    return tmp.File("plainsql.toml");
  };
  auto c =
      LoadConfigFile(write("[exec]\nallow_functions = [\"randomblob\"]\nallow_relations = [\"main.sqlite_master\"]\n"
                           "max_value_bytes = 1048576\nmax_query_bytes = 5000\n"));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->exec.access.allow_functions, std::vector<std::string>{"randomblob"});
  EXPECT_EQ(c->exec.ceilings.max_value_bytes, 1 << 20);
  EXPECT_EQ(c->exec.ceilings.max_query_bytes, 5000);
  // The settings reach a connection: what was refused now runs, and the new ceiling holds.
  auto conn = exec::Connect(test::SampleDb());
  ASSERT_TRUE(conn.ok()) << conn.error().message;
  EXPECT_FALSE((*conn)->Query("SELECT length(randomblob(4))", {}).ok());
  (*conn)->SetExecSettings(c->exec);
  EXPECT_TRUE((*conn)->Query("SELECT length(randomblob(4))", {}).ok());
  EXPECT_TRUE((*conn)->Query("SELECT count(*) FROM sqlite_master", {}).ok());
  auto long_text = (*conn)->Query("SELECT 1 -- " + std::string(6000, 'x'), {});
  ASSERT_FALSE(long_text.ok());
  EXPECT_EQ(long_text.error().code, ErrorCode::kResourceLimit);
  EXPECT_NE(long_text.error().message.find("max_query_bytes"), std::string::npos);
  EXPECT_FALSE(LoadConfigFile(write("[exec]\nallow_functions = \"randomblob\"\n")).ok());  // a list, not a string
  EXPECT_FALSE(LoadConfigFile(write("[exec]\nmax_value_bytes = 10\n")).ok());
  EXPECT_NE(LoadConfigFile(write("[exec]\nallow_function = []\n")).error().message.find("allow_function"),
            std::string::npos);
}

}  // namespace
}  // namespace plainsql::pipeline
