// Schemas from Spider/BIRD tables.json entries: columns, composite primary keys, composite foreign keys regrouped.
#include <gtest/gtest.h>

#include <fstream>

#include "catalog/benchmark_schema.h"
#include "catalog/render.h"
#include "test_util.h"

namespace plainsql::catalog {
namespace {

// A small entry in the tables.json layout, derived by hand for this test (not copied from a data set).
constexpr const char* kEntry = R"json({
  "db_id": "shop",
  "table_names_original": ["Orders", "order_line", "product"],
  "table_names": ["orders", "order line", "product"],
  "column_names_original": [[-1, "*"], [0, "OrderID"], [0, "Site"], [0, "placed"], [1, "OrderID"], [1, "Site"],
                            [1, "prod_id"], [1, "qty"], [2, "prod_id"], [2, "name"]],
  "column_names": [[-1, "*"], [0, "order id"], [0, "site"], [0, "placed"], [1, "order id"], [1, "site"],
                   [1, "product id"], [1, "quantity"], [2, "product id"], [2, "name"]],
  "column_types": ["text", "number", "text", "time", "number", "text", "number", "number", "number", "text"],
  "primary_keys": [[1, 2], 8],
  "foreign_keys": [[4, 1], [6, 8], [5, 2]]
})json";

TEST(BenchmarkSchema, ConvertsAnEntry) {
  auto s = SchemaFromBenchmarkEntry(nlohmann::json::parse(kEntry));
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->database, "shop");
  ASSERT_EQ(s->tables.size(), 3u);
  const Table& orders = s->tables[0];
  EXPECT_EQ(orders.name, "Orders");
  EXPECT_EQ(orders.columns.size(), 3u);
  EXPECT_EQ(orders.primary_key, (std::vector<std::string>{"OrderID", "Site"}));
  EXPECT_EQ(orders.columns[2].type_class, TypeClass::kDatetime);
  EXPECT_EQ(orders.columns[0].label, "order id");
  EXPECT_EQ(s->tables[2].primary_key, std::vector<std::string>{"prod_id"});

  const Table& line = s->tables[1];
  ASSERT_EQ(line.foreign_keys.size(), 2u);
  // [4,1] and [5,2] reference the composite key of Orders: one foreign key, in the referenced key's order.
  EXPECT_EQ(line.foreign_keys[0].columns, (std::vector<std::string>{"OrderID", "Site"}));
  EXPECT_EQ(line.foreign_keys[0].ref_table, "Orders");
  EXPECT_EQ(line.foreign_keys[0].ref_columns, (std::vector<std::string>{"OrderID", "Site"}));
  EXPECT_EQ(line.foreign_keys[1].columns, std::vector<std::string>{"prod_id"});
  EXPECT_EQ(line.foreign_keys[1].ref_table, "product");
}

// An exporter that counted the columns without the "*" entry writes every key index one too low (the SNAILS schema
// file does, in its five schemas with keys). Read one column later, the keys join like-named columns of one type; read
// as written, they join unrelated ones: they are read later, with a warning. A file whose keys are right keeps them.
TEST(BenchmarkSchema, ReadsKeysWrittenOneColumnEarlyWhereTheyReadBetterSo) {
  auto early = nlohmann::json::parse(kEntry);
  early["db_id"] = "shop_early";
  early["primary_keys"] = nlohmann::json::parse("[[0, 1], 7]");
  early["foreign_keys"] = nlohmann::json::parse("[[3, 0], [5, 7], [4, 1]]");
  std::vector<std::string> warnings;
  auto s = SchemaFromBenchmarkEntry(early, &warnings);
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("shop_early: the keys index the columns as if there were no \"*\" entry"),
            std::string::npos)
      << warnings[0];
  auto right = SchemaFromBenchmarkEntry(nlohmann::json::parse(kEntry));
  ASSERT_TRUE(right.ok());
  for (size_t t = 0; t < right->tables.size(); ++t) {
    EXPECT_EQ(s->tables[t].primary_key, right->tables[t].primary_key) << t;
    ASSERT_EQ(s->tables[t].foreign_keys.size(), right->tables[t].foreign_keys.size()) << t;
    for (size_t k = 0; k < right->tables[t].foreign_keys.size(); ++k) {
      EXPECT_EQ(s->tables[t].foreign_keys[k].columns, right->tables[t].foreign_keys[k].columns);
      EXPECT_EQ(s->tables[t].foreign_keys[k].ref_columns, right->tables[t].foreign_keys[k].ref_columns);
    }
  }
  // Keys that read better on one count but worse on another stay as written: a reading that joins like-named columns
  // is not traded for one that only matches types.
  auto mixed = nlohmann::json::parse(kEntry);
  mixed["primary_keys"] = nlohmann::json::array();
  mixed["foreign_keys"] = nlohmann::json::parse("[[5, 2]]");  // Site -> Site; one later: prod_id -> placed
  mixed["column_types"][2] = "number";                        // as written: like names, unlike types
  mixed["column_types"][6] = "time";                          // one later: unlike names, like types
  std::vector<std::string> none;
  auto kept = SchemaFromBenchmarkEntry(mixed, &none);
  ASSERT_TRUE(kept.ok());
  EXPECT_TRUE(none.empty());
  ASSERT_EQ(kept->tables[1].foreign_keys.size(), 1u);
  EXPECT_EQ(kept->tables[1].foreign_keys[0].columns, std::vector<std::string>{"Site"});
}

TEST(BenchmarkSchema, RendersWithDialectTypes) {
  auto s = SchemaFromBenchmarkEntry(nlohmann::json::parse(kEntry));
  ASSERT_TRUE(s.ok());
  std::string ddl = RenderDdl(*s, sql::Postgres());
  EXPECT_NE(ddl.find("\"OrderID\" numeric"), std::string::npos) << ddl;
  EXPECT_NE(ddl.find("placed timestamp"), std::string::npos) << ddl;
}

TEST(BenchmarkSchema, ReportsBadEntries) {
  auto j = nlohmann::json::parse(kEntry);
  j["foreign_keys"].push_back({4, 99});
  auto s = SchemaFromBenchmarkEntry(j);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kFormat);
  EXPECT_NE(s.error().message.find("shop"), std::string::npos);
  // Keys naming column 0, the "*" pseudo-column, are skipped with a warning.
  auto star = nlohmann::json::parse(kEntry);
  star["foreign_keys"].push_back({7, 0});
  star["primary_keys"].push_back(0);
  std::vector<std::string> warnings;
  auto skipped = SchemaFromBenchmarkEntry(star, &warnings);
  ASSERT_TRUE(skipped.ok()) << skipped.error().message;
  EXPECT_EQ(warnings.size(), 2u);
  EXPECT_EQ(skipped->tables[1].foreign_keys.size(), 2u);
  auto missing = LoadBenchmarkSchema("/nonexistent/tables.json", "x");
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
}

// A question file may spell a database's id in another case (SNAILS has `pacificislandlandbirds.sql` for the schema
// `PacificIslandLandbirds`): one match ignoring case is taken; two ids differing only in case are not guessed between.
TEST(BenchmarkSchema, GetMatchesAnIdInAnotherCaseWhenOnlyOneFits) {
  test::TempDir dir;
  auto entry = nlohmann::json::parse(kEntry);
  entry["db_id"] = "ShopFloor";
  auto twin = entry;
  twin["db_id"] = "Twin";
  auto twin_lower = entry;
  twin_lower["db_id"] = "twin";
  std::ofstream(dir.File("tables.json")) << nlohmann::json::array({entry, twin, twin_lower}).dump();
  auto schemas = BenchmarkSchemas::Read(dir.File("tables.json"));
  ASSERT_TRUE(schemas.ok()) << schemas.error().message;
  auto exact = schemas->Get("ShopFloor");
  ASSERT_TRUE(exact.ok());
  auto other_case = schemas->Get("shopfloor");
  ASSERT_TRUE(other_case.ok()) << other_case.error().message;
  EXPECT_EQ(other_case->database, "ShopFloor");
  EXPECT_TRUE(schemas->Get("twin").ok());  // exact
  auto ambiguous = schemas->Get("TWIN");
  ASSERT_FALSE(ambiguous.ok());
  EXPECT_EQ(ambiguous.error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(schemas->Get("nothing").ok());
}

}  // namespace
}  // namespace plainsql::catalog
