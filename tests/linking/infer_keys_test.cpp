// Key inference (issue #18) on a fixture database that declares no keys (tests/linking/data/infer_keys_fixture.sql):
// the keys inferred equal tests/linking/data/infer_keys_expected.txt, they are marked inferred in the schema and in
// its renderings, declared keys are kept (add) or replaced, and the database file is not changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "catalog/cache.h"
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

// A SQLite database made from `sql`, introspected, with keys inferred by `options`.
Result<catalog::Schema> InferredSchema(const std::string& sql, const InferKeysOptions& options = {}) {
  test::TempDir tmp;
  const std::string path = tmp.File("db.sqlite");
  test::MakeSqliteDb(path, sql);
  auto conn = exec::Connect(path);
  if (!conn) return conn.error();
  auto schema = catalog::Introspect(**conn, {});
  if (!schema) return schema.error();
  if (auto inferred = InferKeys(**conn, *schema, options); !inferred) return inferred.error();
  return schema;
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
    fixture_path = tmp.File("shop.db");
    test::MakeSqliteDb(fixture_path, test::ReadFile(kData + "infer_keys_fixture.sql"));
    auto opened = exec::Connect(fixture_path);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    fixture_conn = std::move(*opened);
    auto introspected = catalog::Introspect(*fixture_conn, {});
    ASSERT_TRUE(introspected.ok()) << introspected.error().message;
    fixture_schema = std::move(*introspected);
  }
  test::TempDir tmp;
  std::string fixture_path;
  std::unique_ptr<exec::Connection> fixture_conn;
  catalog::Schema fixture_schema;
};

TEST_F(InferKeysTest, InfersTheExpectedKeysAndMarksThem) {
  std::string before = test::FileChecksum(fixture_path);
  auto result = InferKeys(*fixture_conn, fixture_schema, {});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(KeyLines(fixture_schema), Expected());
  for (const auto& t : fixture_schema.tables) {
    EXPECT_EQ(t.primary_key_inferred, !t.primary_key.empty()) << t.name;
    for (const auto& fk : t.foreign_keys) EXPECT_TRUE(fk.inferred) << t.name;
  }
  EXPECT_EQ(test::FileChecksum(fixture_path), before) << "inference must not write to the database";
  // The join paths use inferred keys like declared ones.
  auto tree = ConnectTables(fixture_schema, {"customers", "products"});
  ASSERT_TRUE(tree.has_value());
  EXPECT_EQ(tree->Tables().size(), 4U);  // customers, orders, order_lines, products
}

TEST_F(InferKeysTest, RenderingsTellInferredKeysApart) {
  ASSERT_TRUE(InferKeys(*fixture_conn, fixture_schema, {}).ok());
  std::string ddl = catalog::RenderDdl(fixture_schema, sql::Sqlite());
  EXPECT_NE(ddl.find("-- inferred key: FOREIGN KEY (customer_id) REFERENCES customers (customer_id)"),
            std::string::npos)
      << ddl;
  EXPECT_EQ(ddl.find("  FOREIGN KEY"), std::string::npos) << "an inferred key is no constraint of the DDL\n" << ddl;
  std::string prompt = catalog::RenderPromptDdl(fixture_schema, sql::Sqlite());
  EXPECT_NE(prompt.find("REFERENCES staff (staff_id) -- inferred"), std::string::npos) << prompt;
  std::string list = catalog::RenderList(fixture_schema);
  EXPECT_NE(list.find("inferred foreign key: orders(customer_id) -> customers(customer_id)"), std::string::npos);
  EXPECT_NE(catalog::RenderPromptSnails(fixture_schema).find("# inferred primary key: staff(staff_id)"),
            std::string::npos);
  auto back = catalog::FromJson(catalog::ToJson(fixture_schema));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, fixture_schema) << "the inferred flags round-trip through JSON";
}

TEST_F(InferKeysTest, AddKeepsDeclaredKeysAndReplaceDropsThem) {
  catalog::Table* orders = nullptr;
  for (auto& t : fixture_schema.tables) {
    if (t.name == "orders") orders = &t;
  }
  ASSERT_NE(orders, nullptr);
  orders->primary_key = {"order_id"};
  orders->foreign_keys.push_back({"", {"sold_by"}, "", "staff", {"staff_id"}, false});
  catalog::Schema copy = fixture_schema;
  ASSERT_TRUE(InferKeys(*fixture_conn, fixture_schema, {}).ok());
  const catalog::Table* o = fixture_schema.FindTable("orders");
  EXPECT_FALSE(o->primary_key_inferred);
  ASSERT_FALSE(o->foreign_keys.empty());
  EXPECT_FALSE(o->foreign_keys[0].inferred);
  EXPECT_EQ(o->foreign_keys[0].columns, std::vector<std::string>{"sold_by"});

  InferKeysOptions replace;
  replace.mode = KeyInferenceMode::kReplace;
  ASSERT_TRUE(InferKeys(*fixture_conn, copy, replace).ok());
  EXPECT_EQ(KeyLines(copy), Expected()) << "the declared key was dropped and the keys inferred";
}

// Isolated: only the tables no declared foreign key touches get keys (and the tables those keys reference, their
// primary key); a table the declared keys already join is left as declared.
TEST_F(InferKeysTest, IsolatedInfersOnlyWhereNoDeclaredKeyTouches) {
  catalog::Table* orders = nullptr;
  for (auto& t : fixture_schema.tables) {
    if (t.name == "orders") orders = &t;
  }
  ASSERT_NE(orders, nullptr);
  orders->primary_key = {"order_id"};
  orders->foreign_keys.push_back({"", {"customer_id"}, "", "customers", {"customer_id"}, false});
  InferKeysOptions isolated;
  isolated.mode = KeyInferenceMode::kIsolated;
  ASSERT_TRUE(InferKeys(*fixture_conn, fixture_schema, isolated).ok());
  EXPECT_EQ(KeyLines(fixture_schema),
            "PK order_lines(order_id, product_code)\n"
            "FK order_lines(order_id) -> orders(order_id)\n"
            "FK order_lines(product_code) -> products(code)\n"
            "PK orders(order_id)\n"
            "FK orders(customer_id) -> customers(customer_id)\n"
            "FK orders(handler_staff_id) -> staff(staff_id)\n"
            "PK products(code)\n"
            "PK reviews(review_id)\n"
            "PK staff(staff_id)\n");
  EXPECT_FALSE(fixture_schema.FindTable("orders")->foreign_keys[0].inferred);
}

// The keys file beside a snapshot: written on the first run, read (not inferred again) on the next, not read once the
// database has changed; with caching off the keys are inferred each time.
TEST_F(InferKeysTest, CachedBesideTheSnapshotUntilTheDatabaseChanges) {
  catalog::CacheOptions cache;
  cache.dir = tmp.File("cache");
  auto keys_files = [&] {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(cache.dir + "/snapshots")) {
      if (e.path().filename().string().find(".keys2-add-") != std::string::npos) out.push_back(e.path().string());
    }
    return out;
  };
  auto first = catalog::LoadSchema(*fixture_conn, {}, cache);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_TRUE(InferKeysCached(*fixture_conn, *first, {}).ok());
  EXPECT_EQ(KeyLines(first->schema), Expected());
  ASSERT_EQ(keys_files().size(), 1u);

  // Mark the cached schema: the next run must return it as it is.
  const std::string file = keys_files()[0];
  auto j = nlohmann::json::parse(test::ReadFile(file));
  j["schema"]["tables"][0]["comment"] = "read from the cache";
  std::ofstream(file) << j.dump();
  auto second = catalog::LoadSchema(*fixture_conn, {}, cache);
  ASSERT_TRUE(second.ok());
  ASSERT_TRUE(InferKeysCached(*fixture_conn, *second, {}).ok());
  EXPECT_EQ(second->schema.tables[0].comment, "read from the cache");
  EXPECT_EQ(KeyLines(second->schema), Expected());

  // A changed database has another snapshot key: inferred again, into a second file.
  test::MakeSqliteDb(fixture_path, "CREATE VIEW big_orders AS SELECT * FROM orders;");
  auto third = catalog::LoadSchema(*fixture_conn, {}, cache);
  ASSERT_TRUE(third.ok());
  ASSERT_TRUE(InferKeysCached(*fixture_conn, *third, {}).ok());
  EXPECT_NE(third->schema.tables[0].comment, "read from the cache");
  EXPECT_NE(third->schema.FindTable("big_orders"), nullptr);
  EXPECT_EQ(KeyLines(third->schema), Expected());
  EXPECT_EQ(keys_files().size(), 2u);

  // Caching off: no file, the keys inferred all the same.
  catalog::CacheOptions off;
  off.enabled = false;
  auto uncached = catalog::LoadSchema(*fixture_conn, {}, off);
  ASSERT_TRUE(uncached.ok());
  ASSERT_TRUE(InferKeysCached(*fixture_conn, *uncached, {}).ok());
  EXPECT_EQ(KeyLines(uncached->schema), Expected());
  EXPECT_EQ(keys_files().size(), 2u);
}

// A table without rows gets a primary key from its name only when the name says key ("note_id"), not from a first
// column that shares the table's word ("note_text").
TEST(InferKeys, EmptyTablesNeedAKeyWord) {
  auto schema = InferredSchema(
      "CREATE TABLE notes (note_text TEXT, written DATE); CREATE TABLE memos (memo_id INTEGER, body TEXT);");
  ASSERT_TRUE(schema.ok()) << schema.error().message;
  EXPECT_TRUE(schema->FindTable("notes")->primary_key.empty());
  EXPECT_EQ(schema->FindTable("memos")->primary_key, std::vector<std::string>{"memo_id"});
}

// Names alone (tables without rows, keys declared, foreign keys not): a key column whose name runs an abbreviation of a
// table's name into a key word ("dst_apid" for airport, "alid" for airline) references that table's key; a column
// with the same letters and no key word does not.
TEST(InferKeys, AnAbbreviationBeforeAKeyWordNamesTheTable) {
  auto schema = InferredSchema(
      "CREATE TABLE airports (apid INTEGER PRIMARY KEY, name TEXT); CREATE TABLE airlines (alid INTEGER PRIMARY KEY, "
      "name TEXT); CREATE TABLE routes (rid INTEGER PRIMARY KEY, dst_apid INTEGER, src_apid INTEGER, alid INTEGER, "
      "dst_ap TEXT);");
  ASSERT_TRUE(schema.ok()) << schema.error().message;
  std::set<std::string> found;
  for (const auto& fk : schema->FindTable("routes")->foreign_keys) {
    found.insert(Join(fk.columns, ",") + " -> " + fk.ref_table + "." + Join(fk.ref_columns, ","));
  }
  EXPECT_EQ(found,
            (std::set<std::string>{"alid -> airlines.alid", "dst_apid -> airports.apid", "src_apid -> airports.apid"}));
}

// In a merged schema (tables prefixed by the database they come from, more tables than InferKeysOptions::
// exhaustive_tables), a key column points into its own database: "Event_ID" of parks_north's nests at parks_north's
// events, not at parks_south's look-alike table, and a database's own "people" key is not a reference to another's.
TEST(InferKeys, MergedSchemasKeepKeysInsideTheirDatabase) {
  InferKeysOptions options;
  options.exhaustive_tables = 4;  // the large-schema path, as on a haystack of thousands of tables
  auto schema = InferredSchema(test::ReadFile(kData + "infer_keys_merged.sql"), options);
  ASSERT_TRUE(schema.ok()) << schema.error().message;
  std::ifstream in(kData + "infer_keys_merged_expected.txt");
  std::string line, expected;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') expected += line + "\n";
  }
  EXPECT_EQ(KeyLines(*schema), expected);
}

TEST(InferKeys, ModeNames) {
  EXPECT_EQ(KeyInferenceModeByName("add"), KeyInferenceMode::kAdd);
  EXPECT_EQ(KeyInferenceModeByName("replace"), KeyInferenceMode::kReplace);
  EXPECT_EQ(KeyInferenceModeByName("isolated"), KeyInferenceMode::kIsolated);
  EXPECT_FALSE(KeyInferenceModeByName("yes").has_value());
}

// One reading of an --infer-keys value for every command: a mode's name, "none" where inference is on by default, and
// an error that lists the modes.
TEST(InferKeys, ModeOptionNamesTheModes) {
  auto add = KeyInferenceModeOption("add");
  ASSERT_TRUE(add);
  EXPECT_EQ(**add, KeyInferenceMode::kAdd);
  auto none = KeyInferenceModeOption("none", true);
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());
  auto refused = KeyInferenceModeOption("none");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(refused.error().message.find("isolated"), std::string::npos);
  EXPECT_TRUE(KeyInferenceModeOption("isolated", true));
  EXPECT_FALSE(KeyInferenceModeOption("sometimes", true));
}

}  // namespace
}  // namespace plainsql::linking
