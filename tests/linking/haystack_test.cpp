// The haystack benchmark's merge (issue #18, src/linking/haystack.h) on a tiny fixture laid out as the shared data
// folder (tests/linking/data/haystack/: two Spider databases, a BIRD database whose db_id Spider also has, a SNAILS
// database with spaces in its names and T-SQL pairs): tables prefixed by their database, keys rewritten, each gold
// query mapped as data/haystack_expected.tsv says (set, source database, mapped SQL), what cannot be mapped skipped;
// the written tables.json reads back as the same schema; the builtin subsetter, narrowed, finds a question's database
// in it; `eval haystack` (haystack_cmd.h) prints its manifest.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "../tools/plainsql/haystack_cmd.h"
#include "catalog/benchmark_schema.h"
#include "common/strings.h"
#include "linking/haystack.h"
#include "linking/subset_builtin.h"
#include "test_util.h"

namespace plainsql::linking {
namespace {

const std::string kData = std::string(PLAINSQL_SOURCE_DIR) + "/tests/linking/data/";

HaystackOptions FixtureOptions() {
  HaystackOptions o;
  o.data_dir = kData + "haystack";
  return o;
}

std::vector<std::string> TableNames(const catalog::Schema& s) {
  std::vector<std::string> out;
  for (const auto& t : s.tables) out.push_back(t.name);
  return out;
}

// A table of text columns ("...id" numeric) whose first column is its primary key.
catalog::Table MakeTable(const std::string& name, const std::vector<std::string>& columns) {
  catalog::Table t;
  t.name = name;
  for (const auto& c : columns) {
    catalog::Column col;
    col.name = c;
    col.type_class = c.ends_with("id") ? catalog::TypeClass::kNumeric : catalog::TypeClass::kText;
    t.columns.push_back(col);
  }
  t.primary_key = {t.columns[0].name};
  return t;
}

TEST(HaystackTest, PrefixesEveryTableByItsDatabase) {
  EXPECT_EQ(HaystackPrefix("SBODemoUS-Business Partners"), "SBODemoUS_Business_Partners__");
  auto h = BuildHaystack(FixtureOptions());
  ASSERT_TRUE(h) << h.error().message;
  EXPECT_EQ(h->schema.database, "haystack");
  // A db_id two data sets share gets its data set's name in the later one's prefix.
  EXPECT_EQ(TableNames(h->schema),
            (std::vector<std::string>{"shop__customer", "shop__orders", "school__student", "school__course",
                                      "bird_shop__customer", "Field_Data_1__Site Visits", "Field_Data_1__tblObs"}));
  EXPECT_EQ(h->ColumnCount(), 16u);
  EXPECT_EQ(h->prefixes.at("bird/shop"), "bird_shop__");
}

TEST(HaystackTest, RewritesKeysToThePrefixedTables) {
  auto h = BuildHaystack(FixtureOptions());
  ASSERT_TRUE(h);
  const catalog::Table* orders = h->schema.FindTable("shop__orders");
  ASSERT_NE(orders, nullptr);
  ASSERT_EQ(orders->foreign_keys.size(), 1u);
  EXPECT_EQ(orders->foreign_keys[0].ref_table, "shop__customer");
  EXPECT_EQ(orders->primary_key, std::vector<std::string>{"id"});
  const catalog::Table* obs = h->schema.FindTable("Field_Data_1__tblObs");
  ASSERT_NE(obs, nullptr);
  ASSERT_EQ(obs->foreign_keys.size(), 1u);
  EXPECT_EQ(obs->foreign_keys[0].ref_table, "Field_Data_1__Site Visits");
}

TEST(HaystackTest, MapsGoldQueriesAsTheExpectedFileSays) {
  auto h = BuildHaystack(FixtureOptions());
  ASSERT_TRUE(h);
  std::vector<std::string> got;
  for (const auto& q : h->questions) got.push_back(q.set + "\t" + q.source_db + "\t" + q.gold_sql);
  std::vector<std::string> want;
  for (const auto& line : Split(test::ReadFile(kData + "haystack_expected.tsv"), '\n')) {
    if (!line.empty() && line[0] != '#') want.push_back(line);
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(h->skipped.at("spider_dev: no schema for the database"), 1u);
  EXPECT_EQ(h->skipped.at("spider_dev: gold query does not parse"), 1u);
  // Every mapped query reads haystack tables only.
  for (const auto& q : h->questions) {
    auto tables = QueryTables(q.gold_sql, sql::Sqlite());
    ASSERT_TRUE(tables) << q.gold_sql;
    for (const auto& t : *tables) EXPECT_NE(h->schema.FindTable(t), nullptr) << t << " in " << q.gold_sql;
  }
}

TEST(HaystackTest, CopiesRepeatTheSchemasUnderTheirOwnPrefix) {
  HaystackOptions o = FixtureOptions();
  o.copies = 3;
  auto h = BuildHaystack(o);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->ColumnCount(), 48u);
  ASSERT_NE(h->schema.FindTable("k3_shop__orders"), nullptr);
  EXPECT_EQ(h->schema.FindTable("k3_shop__orders")->foreign_keys[0].ref_table, "k3_shop__customer");
  EXPECT_EQ(h->questions.size(), 6u);  // the questions target the first copy only
}

TEST(HaystackTest, WrittenTablesJsonReadsBackAsTheSameSchema) {
  auto h = BuildHaystack(FixtureOptions());
  ASSERT_TRUE(h);
  test::TempDir dir;
  auto manifest = WriteHaystack(*h, dir.path());
  ASSERT_TRUE(manifest) << manifest.error().message;
  EXPECT_EQ((*manifest)["columns"], 16);
  EXPECT_EQ((*manifest)["questions"]["spider_dev"], 4);
  auto back = catalog::LoadBenchmarkSchema(dir.File("tables.json"), "haystack");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(TableNames(*back), TableNames(h->schema));
  for (size_t t = 0; t < back->tables.size(); ++t) {
    EXPECT_EQ(back->tables[t].primary_key, h->schema.tables[t].primary_key) << back->tables[t].name;
    ASSERT_EQ(back->tables[t].foreign_keys.size(), h->schema.tables[t].foreign_keys.size());
    for (size_t k = 0; k < back->tables[t].foreign_keys.size(); ++k) {
      EXPECT_EQ(back->tables[t].foreign_keys[k].ref_table, h->schema.tables[t].foreign_keys[k].ref_table);
      EXPECT_EQ(back->tables[t].foreign_keys[k].columns, h->schema.tables[t].foreign_keys[k].columns);
    }
  }
  auto questions = catalog::ReadJsonFile(dir.File("questions_snails.json"));
  ASSERT_TRUE(questions);
  ASSERT_EQ(questions->size(), 1u);
  EXPECT_EQ((*questions)[0]["db_id"], "haystack");
  EXPECT_EQ((*questions)[0]["source_db"], "Field Data-1");
}

// The builtin subsetter narrows a schema past `narrow.min_columns` (here every schema): the question's database is
// found by the first stage and its foreign-key component scored as if it were the schema, its join kept.
TEST(HaystackTest, NarrowedSubsetterFindsTheQuestionsDatabase) {
  auto h = BuildHaystack(FixtureOptions());
  ASSERT_TRUE(h);
  auto resources = LinkResources::Load();
  ASSERT_TRUE(resources) << resources.error().message;
  SubsetModel model = SubsetModel::Shipped();
  model.narrow.min_columns = 1;
  BuiltinSubsetter subsetter(h->schema, *resources, nullptr, model);
  auto s = subsetter.Select("What is the total order amount of each customer name?", {});
  ASSERT_TRUE(s);
  std::set<std::string> kept(s->columns.begin(), s->columns.end());
  for (const char* c :
       {"shop__customer.name", "shop__orders.amount", "shop__orders.customer_id", "shop__customer.id"}) {
    EXPECT_TRUE(kept.count(c)) << c << " not in " << Join(s->columns, " ");
  }
  EXPECT_FALSE(kept.count("Field_Data_1__tblObs.ObsID"));
}

// The best component of a narrowed schema keeps the floor a schema of its size keeps (SubsetNarrow::floored): with a
// floor of every column, all of the question's database's columns; without it, only those the thresholds pass.
TEST(HaystackTest, BestComponentKeepsItsOwnFloor) {
  auto h = BuildHaystack(FixtureOptions());
  ASSERT_TRUE(h);
  auto resources = LinkResources::Load();
  ASSERT_TRUE(resources) << resources.error().message;
  size_t shop_columns = 0;
  for (const auto& t : h->schema.tables) {
    if (t.name.starts_with("shop__")) shop_columns += t.columns.size();
  }
  ASSERT_GT(shop_columns, 2u);
  auto kept_of_shop = [&](size_t floored) {
    SubsetModel model = SubsetModel::Shipped();
    model.narrow.min_columns = 1;
    model.narrow.floored = floored;
    model.plain_cut.min_share = 1.0;
    model.plain_cut.min_share_points.clear();
    model.plain_cut.min_share_full_up_to = 1e9;
    BuiltinSubsetter subsetter(h->schema, *resources, nullptr, model);
    auto s = subsetter.Select("What is the total order amount of each customer name?", {});
    EXPECT_TRUE(s);
    size_t n = 0;
    for (const auto& c : s ? s->columns : std::vector<std::string>{}) n += c.starts_with("shop__") ? 1 : 0;
    return n;
  };
  EXPECT_EQ(kept_of_shop(1), shop_columns);
  EXPECT_LT(kept_of_shop(0), shop_columns);
}

// A narrowed schema's components are ranked by how much of the question their tables cover together: a database
// whose two joined tables hold "customer", "city", "order" and "amount" ranks above one whose single table holds three
// of them, though that table matches better than either of the first database's.
TEST(HaystackTest, ComponentsRankByWhatTheirTablesCoverTogether) {
  catalog::Schema schema;
  schema.database = "two";
  schema.tables.push_back(MakeTable("shop__client", {"client_id", "label", "city"}));
  schema.tables.push_back(MakeTable("shop__order", {"order_id", "client_id", "amount"}));
  schema.tables.back().foreign_keys.push_back({"", {"client_id"}, "", "shop__client", {"client_id"}, false});
  schema.tables.push_back(MakeTable("log__customer_order_amount", {"entry_id", "note"}));
  for (size_t i = 0; i < 3; ++i)
    schema.tables.push_back(MakeTable("pad" + std::to_string(i) + "__misc", {"misc_id", "x"}));
  auto resources = LinkResources::Load();
  ASSERT_TRUE(resources) << resources.error().message;
  SubsetModel model = SubsetModel::Shipped();
  model.narrow.min_columns = 1;
  model.narrow.components = 1;  // only the best component
  BuiltinSubsetter subsetter(schema, *resources, nullptr, model);
  auto s = subsetter.Select("What is the order amount of each client in the city?", {});
  ASSERT_TRUE(s);
  std::set<std::string> kept(s->tables.begin(), s->tables.end());
  EXPECT_TRUE(kept.count("shop__order")) << Join(s->tables, " ");
  EXPECT_FALSE(kept.count("log__customer_order_amount")) << Join(s->tables, " ");
}

// The columns a narrowed Select keeps (`model` narrowing every schema), counted by their table's database prefix.
std::map<std::string, size_t> ColumnsByDatabase(const catalog::Schema& schema, SubsetModel model,
                                                const std::string& question, size_t budget) {
  auto resources = LinkResources::Load();
  EXPECT_TRUE(resources) << resources.error().message;
  if (!resources) return {};
  model.narrow.min_columns = 1;
  BuiltinSubsetter subsetter(schema, *resources, nullptr, model);
  SubsetOptions options;
  options.budget = budget;
  auto s = subsetter.Select(question, options);
  EXPECT_TRUE(s);
  std::map<std::string, size_t> by_database;
  for (const auto& c : s ? s->columns : std::vector<std::string>{}) ++by_database[c.substr(0, c.find("__"))];
  return by_database;
}

// A shop database for the merge's tests: clients, and orders with `attributes` more columns no question names (a wide
// table), joined by key; then `pads` one-table databases that share only "name" with the questions.
void AddShop(catalog::Schema& schema, const std::string& db, int attributes) {
  std::vector<std::string> order = {"order_id", "client_id", "amount", "placed_on", "status"};
  for (int i = 0; i < attributes; ++i) order.push_back("attr" + std::to_string(i));
  schema.tables.push_back(MakeTable(db + "__client", {"client_id", "name", "city"}));
  schema.tables.push_back(MakeTable(db + "__order", order));
  schema.tables.back().foreign_keys.push_back({"", {"client_id"}, "", db + "__client", {"client_id"}, false});
}
void AddPads(catalog::Schema& schema, int pads) {
  for (int i = 0; i < pads; ++i) {
    schema.tables.push_back(MakeTable("pad" + std::to_string(i) + "__person", {"person_id", "name", "town", "note"}));
  }
}
// What ColumnsByDatabase keeps of 40 columns for the shop question, merged with `weight` and no cap.
std::map<std::string, size_t> KeptAtWeight(const catalog::Schema& schema, double weight) {
  SubsetModel model = SubsetModel::Shipped();
  model.narrow.component_weight = weight;
  model.narrow.component_share = 0;
  return ColumnsByDatabase(schema, model, "What is the order amount of each client name?", 40);
}

// No component of a narrowed schema takes more than its share of the budget (SubsetNarrow::component_share): a wide
// table that matches the question first would otherwise fill the budget, and the database ranked after it, which the
// question is about as much, would be left out.
TEST(HaystackTest, EachComponentKeepsAtMostItsShareOfTheBudget) {
  catalog::Schema schema;
  schema.database = "merged";
  std::vector<std::string> wide = {"order_id", "order_amount", "client_name"};
  for (int i = 0; i < 77; ++i) wide.push_back("attr" + std::to_string(i));
  schema.tables.push_back(MakeTable("erp__client_order", wide));
  schema.tables.push_back(MakeTable("shop__client", {"client_id", "name", "city"}));
  schema.tables.push_back(MakeTable("shop__purchase", {"purchase_id", "client_id", "amount"}));
  schema.tables.back().foreign_keys.push_back({"", {"client_id"}, "", "shop__client", {"client_id"}, false});
  auto kept = [&](double share) {
    SubsetModel model = SubsetModel::Shipped();
    model.narrow.component_share = share;
    model.plain_cut.column_threshold = 0;  // every column passes: only the budget and the cap cut
    model.plain_cut.column_lambda = 0;
    return ColumnsByDatabase(schema, model, "What is the order amount of each client name?", 84);
  };
  auto capped = kept(0.35);  // 29 of the 84 columns
  EXPECT_LE(capped["erp"], 29u);
  EXPECT_GT(capped["shop"], 0u);
  auto uncapped = kept(0);
  EXPECT_GT(uncapped["erp"], 29u);
  EXPECT_EQ(uncapped["shop"], 0u);
}

// The joined subsets of a narrowed schema are spent again on the likeliest columns of the whole
// (SubsetNarrow::component_weight): the best component's columns that missed its cut (a wide table's, which the
// question does not name) outrank the best columns of components that match it far less, in as many columns as the
// subsets joined in order held.
TEST(HaystackTest, MergedSubsetsSpendTheBudgetOnTheBestComponent) {
  catalog::Schema schema;
  schema.database = "merged";
  AddShop(schema, "shop", 25);
  AddPads(schema, 12);
  auto joined = KeptAtWeight(schema, 0);
  auto merged = KeptAtWeight(schema, 2);
  size_t joined_total = 0, merged_total = 0;
  for (const auto& [db, n] : joined) joined_total += n;
  for (const auto& [db, n] : merged) merged_total += n;
  EXPECT_EQ(merged_total, joined_total);
  EXPECT_GT(merged["shop"], 2 * joined["shop"]);  // measured: 32 of the 40 columns, against 8 joined in order
  EXPECT_LT(merged["pad0"], joined["pad0"]);
}

// The larger the merge's weight, the less a weaker component's likeliest columns are worth beside the best
// component's unnamed ones: a database that shares the question's "client" and "name" but not its "order" or "amount"
// gives up columns to the best database's wide table as the weight grows (2 was shipped before the twenty-eighth part).
TEST(HaystackTest, AHeavierMergeWeightFavoursTheBestComponent) {
  catalog::Schema schema;
  schema.database = "merged";
  AddShop(schema, "shop", 40);
  schema.tables.push_back(MakeTable("crm__client", {"client_id", "name", "city", "phone", "email", "segment"}));
  schema.tables.push_back(MakeTable("crm__visit", {"visit_id", "client_id", "visited_on", "channel"}));
  schema.tables.back().foreign_keys.push_back({"", {"client_id"}, "", "crm__client", {"client_id"}, false});
  AddPads(schema, 12);
  auto light = KeptAtWeight(schema, 2), heavy = KeptAtWeight(schema, SubsetModel::Shipped().narrow.component_weight);
  // Measured: at 2, shop 32 of the 40 columns and crm 3; at the shipped 8, shop 37 and crm 0.
  EXPECT_GT(heavy["shop"], light["shop"]);
  EXPECT_LT(heavy["crm"], light["crm"]);
}

// The best component's cap grows with its lead over the second (SubsetNarrow::component_lead): a database that
// answers the question far better than any other may spend more than the cap on its wide table, while two look-alike
// databases, neither of which leads, are each held to the cap.
TEST(HaystackTest, TheBestComponentsCapGrowsWithItsLead) {
  catalog::Schema one;
  one.database = "merged";
  AddShop(one, "shop", 55);
  AddPads(one, 20);
  catalog::Schema two = one;
  AddShop(two, "store", 55);  // a look-alike of shop: neither leads
  auto kept = [&](const catalog::Schema& schema, double lead) {
    SubsetModel model = SubsetModel::Shipped();
    model.narrow.component_share = 0.35;  // 29 of the 84 columns
    model.narrow.component_lead = lead;
    return ColumnsByDatabase(schema, model, "What is the order amount of each client name?", 84);
  };
  EXPECT_LE(kept(one, 0)["shop"], 29u);
  EXPECT_GT(kept(one, 1)["shop"], 29u);  // measured: 63
  auto tied = kept(two, 1);
  EXPECT_LE(tied["shop"], 29u);
  EXPECT_LE(tied["store"], 29u);
}

// `eval haystack --json`: one JSON object, the manifest without the prefixes; the files in --out.
TEST(HaystackCommandTest, PrintsTheManifestAndWritesTheFiles) {
  test::TempDir dir;
  CLI::App app;
  cli::HaystackCommand command(app);
  app.parse("haystack --data-dir " + kData + "haystack --out " + dir.path() + " --json", false);
  ASSERT_TRUE(command.Selected());
  testing::internal::CaptureStdout();
  const int code = command.Run();
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_EQ(code, 0) << out;
  auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["db_id"], "haystack");
  EXPECT_EQ(j["tables"], 7);
  EXPECT_EQ(j["columns"], 16);
  EXPECT_EQ(j["questions"], nlohmann::json::parse(R"({"bird_dev": 1, "snails": 1, "spider_dev": 4})"));
  EXPECT_TRUE(j.contains("skipped"));
  EXPECT_TRUE(j.contains("notes"));
  EXPECT_FALSE(j.contains("prefixes"));
  for (const char* f : {"tables.json", "manifest.json", "questions_spider_dev.json", "questions_bird_dev.json"}) {
    EXPECT_TRUE(std::filesystem::exists(dir.File(f))) << f;
  }
}

}  // namespace
}  // namespace plainsql::linking
