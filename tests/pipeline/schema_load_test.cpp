// The schema questions are answered on (pipeline/schema_load.h): keys inferred by default for tables no declared key
// touches, none with inference off, a data dictionary applied after the keys, its failures an error or a warning.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "exec/connection.h"
#include "pipeline/schema_load.h"
#include "test_util.h"

namespace plainsql::pipeline {
namespace {

// Two tables that declare no foreign key: account.customer_id refers to customer by its name and its values.
std::string KeylessDb(const test::TempDir& dir) {
  const std::string path = dir.File("shop.db");
  test::MakeSqliteDb(path,
                     "CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, customer_name TEXT);"
                     "CREATE TABLE account (account_id INTEGER PRIMARY KEY, customer_id INTEGER, account_name TEXT);"
                     "INSERT INTO customer VALUES (1, 'Ann'), (2, 'Bo'), (3, 'Cy');"
                     "INSERT INTO account VALUES (10, 1, 'main'), (11, 1, 'savings'), (12, 3, 'main');");
  return path;
}

const catalog::Table& TableNamed(const catalog::Schema& schema, const std::string& name) {
  for (const auto& t : schema.tables) {
    if (t.name == name) return t;
  }
  ADD_FAILURE() << "no table " << name;
  return schema.tables.front();
}

TEST(SchemaLoad, KeyInferenceSettings) {
  auto isolated = AnswerKeyInference("");
  ASSERT_TRUE(isolated.ok());
  ASSERT_TRUE(isolated->has_value());
  EXPECT_EQ(**isolated, linking::KeyInferenceMode::kIsolated);
  EXPECT_EQ(SchemaLoadOptions().infer_keys, linking::KeyInferenceMode::kIsolated);
  auto add = AnswerKeyInference("add");
  ASSERT_TRUE(add.ok());
  EXPECT_EQ(**add, linking::KeyInferenceMode::kAdd);
  auto none = AnswerKeyInference("none");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  auto bad = AnswerKeyInference("Isolated");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("isolated (the default), add, replace or none"), std::string::npos);
}

TEST(SchemaLoad, InfersTheKeysOfTablesNoDeclaredKeyTouchesByDefault) {
  test::TempDir dir;
  auto conn = exec::Connect(KeylessDb(dir));
  ASSERT_TRUE(conn.ok()) << conn.error().message;
  SchemaLoadOptions options;
  options.cache.dir = dir.File("cache");
  auto loaded = LoadSchemaForAnswers(**conn, options);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  const auto& account = TableNamed(loaded->schema, "account");
  ASSERT_EQ(account.foreign_keys.size(), 1u);
  EXPECT_TRUE(account.foreign_keys[0].inferred);
  EXPECT_EQ(account.foreign_keys[0].ref_table, "customer");
  // Read again: the cached inference gives the same key.
  auto again = LoadSchemaForAnswers(**conn, options);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(TableNamed(again->schema, "account").foreign_keys.size(), 1u);

  options.infer_keys = std::nullopt;
  auto plain = LoadSchemaForAnswers(**conn, options);
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_TRUE(TableNamed(plain->schema, "account").foreign_keys.empty());
}

TEST(SchemaLoad, AppliesADictionaryAfterTheKeys) {
  test::TempDir dir;
  auto conn = exec::Connect(KeylessDb(dir));
  ASSERT_TRUE(conn.ok()) << conn.error().message;
  std::filesystem::create_directories(dir.File("dict"));
  std::ofstream(dir.File("dict/account.csv"))
      << "original_column_name,column_name,column_description,value_description\n"
      << "account_name,account name,what the customer calls the account,\n";
  SchemaLoadOptions options;
  options.cache.enabled = false;
  options.descriptions = dir.File("dict");
  auto loaded = LoadSchemaForAnswers(**conn, options);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  const auto& account = TableNamed(loaded->schema, "account");
  EXPECT_EQ(account.foreign_keys.size(), 1u);
  bool described = false;
  for (const auto& c : account.columns) described |= c.comment.find("what the customer calls") != std::string::npos;
  EXPECT_TRUE(described);

  // Named and unreadable: an error. Found beside the file and unreadable: a warning, the schema read anyway.
  std::ofstream(dir.File("dict/customer.csv")) << "\"unclosed quote\n";
  EXPECT_FALSE(LoadSchemaForAnswers(**conn, options).ok());
  std::filesystem::rename(dir.File("dict"), dir.File("database_description"));
  options.descriptions = "auto";
  auto beside = LoadSchemaForAnswers(**conn, options);
  ASSERT_TRUE(beside.ok()) << beside.error().message;
  ASSERT_FALSE(beside->warnings.empty());
  EXPECT_NE(beside->warnings.back().find("data dictionary not read"), std::string::npos) << beside->warnings.back();
  options.descriptions = "none";
  auto without = LoadSchemaForAnswers(**conn, options);
  ASSERT_TRUE(without.ok()) << without.error().message;
  EXPECT_TRUE(without->warnings.empty());
}

}  // namespace
}  // namespace plainsql::pipeline
