// ask --slice link (issue #18): the pipeline sends only the subset (catalog::RestrictSchema, tested with eval's
// subset tests) to the model and the built-in translator, with the subset in the trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "builtin/generator.h"
#include "catalog/introspect.h"
#include "exec/connection.h"
#include "llm/fake_llm_server.h"
#include "llm/generator.h"
#include "pipeline/link_slice.h"
#include "pipeline/pipeline.h"
#include "test_util.h"

namespace plainsql::pipeline {
namespace {

using namespace std::chrono_literals;

TEST(LinkSliceNames, EntriesAreTablesThenColumns) {
  linking::Subset subset;
  subset.tables = {"orders", "customer"};
  subset.columns = {"orders.total", "customer.name"};
  EXPECT_EQ(SubsetEntries(subset), (std::vector<std::string>{"orders", "customer", "orders.total", "customer.name"}));
}

TEST(LinkSliceNames, SliceNames) {
  EXPECT_TRUE(LinksSchema("link", 3, 1000));
  EXPECT_TRUE(LinksSchema("auto", 1001, 1000));
  EXPECT_FALSE(LinksSchema("auto", 1000, 1000));
  EXPECT_FALSE(LinksSchema("full", 100000, 1000));
  EXPECT_FALSE(LinksSchema("referenced", 100000, 1000));
  for (const char* s : {"full", "referenced", "link", "auto"}) EXPECT_TRUE(IsSliceName(s)) << s;
  EXPECT_FALSE(IsSliceName("Link"));
  EXPECT_FALSE(IsSliceName(""));
}

class LinkSlice : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = exec::Connect(test::SampleDb());
    ASSERT_TRUE(c.ok()) << c.error().message;
    conn_ = std::move(*c);
    auto s = catalog::Introspect(*conn_, {});
    ASSERT_TRUE(s.ok()) << s.error().message;
    schema_ = std::move(*s);
  }
  const nlohmann::ordered_json* Linking(const Answer& a) {
    for (const auto& st : a.trace) {
      if (st.stage == "linking") return &st.detail;
    }
    return nullptr;
  }
  std::unique_ptr<exec::Connection> conn_;
  catalog::Schema schema_;
};

TEST_F(LinkSlice, TheBuiltinTranslatorAnswersFromTheSubset) {
  auto builtin = builtin::MakeBuiltinGenerator(*conn_, schema_);
  ASSERT_TRUE(builtin.ok()) << builtin.error().message;
  Options o;
  o.slice = "link";
  auto a = Ask(*conn_, schema_, {builtin->get()}, "How many plants are there?", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  const auto* linking = Linking(*a);
  ASSERT_NE(linking, nullptr);
  ASSERT_TRUE(linking->contains("subset")) << linking->dump();
  const auto& subset = (*linking)["subset"];
  EXPECT_EQ(subset["method"], "builtin");
  EXPECT_LT(subset["columns"].get<size_t>(), schema_.ColumnCount());
  EXPECT_EQ(subset["of_columns"].get<size_t>(), schema_.ColumnCount());
  EXPECT_GT(subset["tokens"].get<size_t>(), 0u);
  auto tables = subset["tables"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(tables.begin(), tables.end(), "plant"), tables.end()) << subset.dump();
  EXPECT_NE(a->sql.find("plant"), std::string::npos) << a->sql;
  ASSERT_EQ(a->result.rows.size(), 1u);
}

TEST_F(LinkSlice, TheBudgetCapsTheSlice) {
  auto builtin = builtin::MakeBuiltinGenerator(*conn_, schema_);
  ASSERT_TRUE(builtin.ok()) << builtin.error().message;
  Options o;
  EXPECT_EQ(o.link.budget, kDefaultLinkBudget);
  o.slice = "link";
  o.link.budget = 0;
  auto a = Ask(*conn_, schema_, {builtin->get()}, "Which plants are in each region and what do they produce?", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  const size_t uncapped = (*Linking(*a))["subset"]["columns"].get<size_t>();
  ASSERT_GT(uncapped, 2u) << Linking(*a)->dump();
  o.link.budget = 2;
  a = Ask(*conn_, schema_, {builtin->get()}, "Which plants are in each region and what do they produce?", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  const auto& subset = (*Linking(*a))["subset"];
  // Two columns of at most two tables, and the keys that join them.
  EXPECT_LE(subset["tables"].size(), 2u) << subset.dump();
  EXPECT_LT(subset["columns"].get<size_t>(), uncapped) << subset.dump();
  EXPECT_EQ(subset["budget"].get<size_t>(), 2u);
}

TEST_F(LinkSlice, AutoLinksOnlyAboveTheSize) {
  auto builtin = builtin::MakeBuiltinGenerator(*conn_, schema_);
  ASSERT_TRUE(builtin.ok()) << builtin.error().message;
  Options o;  // auto, 1000 columns: the sample database is far smaller
  auto a = Ask(*conn_, schema_, {builtin->get()}, "How many plants are there?", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(Linking(*a), nullptr);
  o.link_above = 5;
  a = Ask(*conn_, schema_, {builtin->get()}, "How many plants are there?", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_NE(Linking(*a), nullptr);
  EXPECT_TRUE(Linking(*a)->contains("subset"));
}

TEST_F(LinkSlice, TheModelSeesOnlyTheSubset) {
  test::FakeLlmServer server;
  server.Script({test::FakeLlmServer::Ok("```sql\nSELECT count(*) FROM plant;\n```")});
  llm::Config c;
  c.base_url = server.url();
  c.model = "test-model";
  c.timeout = 5s;
  auto g = llm::MakeLlmGenerator(c);
  ASSERT_TRUE(g.ok()) << g.error().message;
  Options o;
  o.slice = "link";
  auto a = Ask(*conn_, schema_, {g->get()}, "How many plants are there?", o);
  ASSERT_TRUE(a.ok()) << a.error().message;
  auto requests = server.Requests();
  ASSERT_FALSE(requests.empty());
  const std::string prompt = requests.front().dump();
  const auto& subset = (*Linking(*a))["subset"];
  ASSERT_FALSE(subset["tables"].empty());
  ASSERT_LT(subset["tables"].size(), schema_.tables.size());
  for (const auto& t : schema_.tables) {
    auto kept = subset["tables"].get<std::vector<std::string>>();
    bool in_subset = std::find(kept.begin(), kept.end(), t.name) != kept.end();
    // Every kept table or view is in the prompt; one left out is not (as "CREATE TABLE name", "CREATE VIEW name" or
    // "name(").
    bool in_prompt = false;
    for (const std::string kind : {"TABLE ", "VIEW "}) {
      in_prompt = in_prompt || prompt.find(kind + t.name + " ") != std::string::npos ||
                  prompt.find(kind + "\\\"" + t.name + "\\\"") != std::string::npos ||
                  prompt.find(kind + t.name + "(") != std::string::npos ||
                  prompt.find(kind + t.name + "\\n") != std::string::npos;
    }
    EXPECT_EQ(in_subset, in_prompt) << t.name << " in " << prompt.substr(0, 2000);
  }
}

}  // namespace
}  // namespace plainsql::pipeline
