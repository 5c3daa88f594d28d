// Key inference (issue #18) on a fixture database that declares no keys (tests/linking/data/infer_keys_fixture.sql):
// the keys inferred equal tests/linking/data/infer_keys_expected.txt, they are marked inferred in the schema and in
// its renderings, declared keys are kept (add) or replaced, and the database file is not changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "catalog/introspect.h"
#include "catalog/json_io.h"
#include "catalog/render.h"
#include "common/strings.h"
#include "exec/connection.h"
#include "linking/infer_keys.h"
#include "linking/joins.h"
#include "test_util.h"

namespace plainsql::linking {
namespace {

const std::string kData = std::string(PLAINSQL_SOURCE_DIR) + "/tests/linking/data/";

// Tables by name (introspection keeps the database's order).
std::string KeyLines(const catalog::Schema& schema) {
  std::vector<const catalog::Table*> tables;
  for (const auto& t : schema.tables) tables.push_back(&t);
  std::sort(tables.begin(), tables.end(), [](auto* a, auto* b) { return a->name < b->name; });
  std::string out;
  for (const catalog::Table* tp : tables) {
    const catalog::Table& t = *tp;
    if (!t.primary_key.empty()) out += "PK " + t.name + "(" + Join(t.primary_key, ", ") + ")\n";
    for (const auto& fk : t.foreign_keys) {
      out += "FK " + t.name + "(" + Join(fk.columns, ", ") + ") -> " + fk.ref_table + "(" + Join(fk.ref_columns, ", ") +
             ")\n";
    }
  }
  return out;
}

std::string Expected() {
  std::ifstream in(kData + "infer_keys_expected.txt");
  std::string line, out;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') out += line + "\n";
  }
  return out;
}

class InferKeysTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("shop.db");
    test::MakeSqliteDb(path_, test::ReadFile(kData + "infer_keys_fixture.sql"));
    auto conn = exec::Connect(path_);
    ASSERT_TRUE(conn.ok()) << conn.error().message;
    conn_ = std::move(*conn);
    auto schema = catalog::Introspect(*conn_, {});
    ASSERT_TRUE(schema.ok()) << schema.error().message;
    schema_ = std::move(*schema);
  }
  test::TempDir dir_;
  std::string path_;
  std::unique_ptr<exec::Connection> conn_;
  catalog::Schema schema_;
};

TEST_F(InferKeysTest, InfersTheExpectedKeysAndMarksThem) {
  std::string before = test::FileChecksum(path_);
  auto result = InferKeys(*conn_, schema_, {});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(KeyLines(schema_), Expected());
  for (const auto& t : schema_.tables) {
    EXPECT_EQ(t.primary_key_inferred, !t.primary_key.empty()) << t.name;
    for (const auto& fk : t.foreign_keys) EXPECT_TRUE(fk.inferred) << t.name;
  }
  EXPECT_EQ(test::FileChecksum(path_), before) << "inference must not write to the database";
  // The join paths use inferred keys like declared ones.
  auto tree = ConnectTables(schema_, {"customers", "products"});
  ASSERT_TRUE(tree.has_value());
  EXPECT_EQ(tree->Tables().size(), 4U);  // customers, orders, order_lines, products
}

TEST_F(InferKeysTest, RenderingsTellInferredKeysApart) {
  ASSERT_TRUE(InferKeys(*conn_, schema_, {}).ok());
  std::string ddl = catalog::RenderDdl(schema_, sql::Sqlite());
  EXPECT_NE(ddl.find("-- inferred key: FOREIGN KEY (customer_id) REFERENCES customers (customer_id)"),
            std::string::npos)
      << ddl;
  EXPECT_EQ(ddl.find("  FOREIGN KEY"), std::string::npos) << "an inferred key is no constraint of the DDL\n" << ddl;
  std::string prompt = catalog::RenderPromptDdl(schema_, sql::Sqlite());
  EXPECT_NE(prompt.find("REFERENCES staff (staff_id) -- inferred"), std::string::npos) << prompt;
  std::string list = catalog::RenderList(schema_);
  EXPECT_NE(list.find("inferred foreign key: orders(customer_id) -> customers(customer_id)"), std::string::npos);
  EXPECT_NE(catalog::RenderPromptSnails(schema_).find("# inferred primary key: staff(staff_id)"), std::string::npos);
  auto back = catalog::FromJson(catalog::ToJson(schema_));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, schema_) << "the inferred flags round-trip through JSON";
}

TEST_F(InferKeysTest, AddKeepsDeclaredKeysAndReplaceDropsThem) {
  catalog::Table* orders = nullptr;
  for (auto& t : schema_.tables) {
    if (t.name == "orders") orders = &t;
  }
  ASSERT_NE(orders, nullptr);
  orders->primary_key = {"order_id"};
  orders->foreign_keys.push_back({"", {"sold_by"}, "", "staff", {"staff_id"}, false});
  catalog::Schema copy = schema_;
  ASSERT_TRUE(InferKeys(*conn_, schema_, {}).ok());
  const catalog::Table* o = schema_.FindTable("orders");
  EXPECT_FALSE(o->primary_key_inferred);
  ASSERT_FALSE(o->foreign_keys.empty());
  EXPECT_FALSE(o->foreign_keys[0].inferred);
  EXPECT_EQ(o->foreign_keys[0].columns, std::vector<std::string>{"sold_by"});

  InferKeysOptions replace;
  replace.mode = KeyInferenceMode::kReplace;
  ASSERT_TRUE(InferKeys(*conn_, copy, replace).ok());
  EXPECT_EQ(KeyLines(copy), Expected()) << "the declared key was dropped and the keys inferred";
}

TEST(InferKeys, ModeNames) {
  EXPECT_EQ(KeyInferenceModeByName("add"), KeyInferenceMode::kAdd);
  EXPECT_EQ(KeyInferenceModeByName("replace"), KeyInferenceMode::kReplace);
  EXPECT_FALSE(KeyInferenceModeByName("yes").has_value());
}

}  // namespace
}  // namespace plainsql::linking
