// The example store (issue #17): a round trip of examples, databases and distances; a build interrupted (cancelled,
// and killed outright) resumes where it stopped and ends with exactly what an uninterrupted build stores; nothing is
// stored twice, even by two builds at once; adding by hand; a database's distances computed once; the store loaded for
// selection; a benchmark's databases opened from tables.json or their files. Built twice: on SQLite files
// (examples_store_test) and, with PLAINSQL_STORE_PG=1, on databases of the throwaway PostgreSQL cluster
// (examples_store_pg_test, label postgres).
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fstream>
#include <set>
#include <thread>

#include "catalog/introspect.h"
#include "examples/benchmark_db.h"
#include "examples/schema_graph.h"
#include "examples/store.h"
#include "examples/wwl.h"
#include "exec/connection.h"
#include "test_util.h"

#ifndef PLAINSQL_STORE_PG
#define PLAINSQL_STORE_PG 0
#endif

namespace plainsql::examples {
namespace {

constexpr bool kPg = PLAINSQL_STORE_PG != 0;

// Where a store named `name` lives: a file in `dir`, or a fresh database of the test cluster (dropped and created).
std::string Location(const test::TempDir& dir, const std::string& name) {
  if (!kPg) return dir.File(name);
  std::ifstream in(PLAINSQL_PG_URL_FILE);
  std::string url;
  std::getline(in, url);
  EXPECT_FALSE(url.empty()) << "no cluster URL in " << PLAINSQL_PG_URL_FILE << " (the pg fixture did not start)";
  std::string db = "examples_" + name.substr(0, name.find('.'));
  auto admin = exec::OpenStoreSession(url.substr(0, url.rfind('/') + 1) + "postgres");
  EXPECT_TRUE(admin.ok()) << admin.error().message;
  if (admin.ok()) {
    EXPECT_TRUE((*admin)->Execute("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)").ok());
    EXPECT_TRUE((*admin)->Execute("CREATE DATABASE " + db).ok());
  }
  return url.substr(0, url.rfind('/') + 1) + db;
}

constexpr const char* kShopSql = R"(
CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer (customer_id),
                     placed DATE, total REAL);
INSERT INTO customer VALUES (1, 'Ada', 'Berlin'), (2, 'Bob', 'Paris');
INSERT INTO orders VALUES (1, 1, '2021-01-02', 10.5), (2, 2, '2022-03-04', 20);
)";

constexpr const char* kZooSql = R"(
CREATE TABLE animal (animal_id INTEGER PRIMARY KEY, species TEXT, born INTEGER);
)";

// The solved questions the tests build from: two databases, one query that does not parse, one repeated item.
std::vector<BuildItem> Items() {
  return {
      {"shop", "How many customers are there?", "SELECT count(*) FROM customer"},
      {"shop", "List the names of customers from Berlin.", "SELECT name FROM customer WHERE city = 'Berlin'"},
      {"shop", "What is the total of all orders?", "SELECT sum(total) FROM orders"},
      {"zoo", "How many animals are there?", "SELECT count(*) FROM animal"},
      {"zoo", "Which species were born after 2010?", "SELECT species FROM animal WHERE born > 2010"},
      {"shop", "Broken query", "SELEC name FROM"},
      {"shop", "Which customer placed the most orders?",
       "SELECT c.name FROM customer AS c JOIN orders AS o ON c.customer_id = o.customer_id GROUP BY c.name "
       "ORDER BY count(*) DESC LIMIT 1"},
      {"zoo", "How many animals are there?", "SELECT count(*) FROM animal"},
      {"zoo", "List every species.", "SELECT DISTINCT species FROM animal"},
  };
}

class StoreFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    test::MakeSqliteDb(tmp_.File("shop.db"), kShopSql);
    test::MakeSqliteDb(tmp_.File("zoo.db"), kZooSql);
    source_ = [this](const std::string& db_id) -> Result<BuildDatabase> {
      auto conn = exec::Connect(tmp_.File(db_id + ".db"));
      if (!conn) return conn.error();
      auto schema = catalog::Introspect(**conn, {});
      if (!schema) return schema.error();
      BuildDatabase db;
      db.schema = std::move(*schema);
      auto values = retrieval::ValueIndex::Build(**conn, db.schema);
      if (values) db.values = std::make_unique<retrieval::ValueIndex>(std::move(*values));
      return db;
    };
  }
  // Opens the store `name`, creating a fresh one the first time the test names it.
  std::unique_ptr<ExampleStore> Open(const std::string& name = "store.db") {
    if (!where_.count(name)) where_[name] = Location(tmp_, name);
    auto s = ExampleStore::Open(where_[name]);
    EXPECT_TRUE(s.ok()) << s.error().message;
    return s.ok() ? std::move(*s) : nullptr;
  }
  BuildOptions Options(size_t batch = 2) const {
    BuildOptions o;
    o.benchmark = "custom";
    o.path = "items.jsonl";
    o.content_hash = "hash-of-items";
    o.batch = batch;
    return o;
  }
  // (db_id, question, sql, masked_question, masked_sql) of every stored example, sorted.
  static std::vector<std::vector<std::string>> Rows(ExampleStore& store) {
    auto examples = store.Examples();
    EXPECT_TRUE(examples.ok()) << examples.error().message;
    std::vector<std::vector<std::string>> rows;
    for (const auto& e : *examples) rows.push_back({e.db_id, e.question, e.sql, e.masked_question, e.masked_sql});
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  test::TempDir tmp_;
  DatabaseSource source_;
  std::map<std::string, std::string> where_;  // store name -> file or URL
};

// The suite is named after the engine, so that both builds' tests can be told apart in ctest.
#if PLAINSQL_STORE_PG
using PgStore = StoreFixture;
#define STORE_TEST(name) TEST_F(PgStore, name)
#else
using Store = StoreFixture;
#define STORE_TEST(name) TEST_F(Store, name)
#endif

STORE_TEST(RoundTripOfExamplesDatabasesAndDistances) {
  auto store = Open();
  ASSERT_TRUE(store);
  auto built = BuildStore(*store, Items(), source_, Options());
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_EQ(built->added, 7);  // 9 items: one does not parse, one repeats another
  EXPECT_EQ(built->duplicates, 1);
  EXPECT_EQ(built->skipped, 1);
  ASSERT_EQ(built->skip_reasons.size(), 1u);
  EXPECT_NE(built->skip_reasons[0].find("item 6 (shop)"), std::string::npos) << built->skip_reasons[0];
  EXPECT_TRUE(built->input.finished);
  EXPECT_EQ(built->new_databases, 2);
  EXPECT_EQ(built->distances_computed, 1);

  // Read back through a second handle: the examples with their masks, in id order.
  auto again = Open();
  auto examples = again->Examples();
  ASSERT_TRUE(examples.ok()) << examples.error().message;
  ASSERT_EQ(examples->size(), 7u);
  EXPECT_EQ((*examples)[0].question, "How many customers are there?");
  EXPECT_EQ((*examples)[0].masked_sql, "SELECT count(*) FROM <mask>");
  EXPECT_NE((*examples)[1].masked_question.find("<value>"), std::string::npos)
      << "Berlin is a stored value: " << (*examples)[1].masked_question;
  for (size_t i = 1; i < examples->size(); ++i) EXPECT_LT((*examples)[i - 1].id, (*examples)[i].id);

  // Databases: the structure (no samples), the WL labels as computed from it, the dialect.
  auto dbs = again->Databases();
  ASSERT_TRUE(dbs.ok()) << dbs.error().message;
  ASSERT_EQ(dbs->size(), 2u);
  EXPECT_EQ((*dbs)[0].db_id, "shop");
  EXPECT_EQ((*dbs)[0].dialect, "sqlite");
  EXPECT_EQ((*dbs)[0].schema.tables.size(), 2u);
  EXPECT_EQ((*dbs)[0].labels, WlLabels(BuildSchemaGraph((*dbs)[0].schema)));
  EXPECT_TRUE((*dbs)[0].schema.tables[0].columns[1].samples.empty());

  auto index = again->Distances();
  ASSERT_TRUE(index.ok()) << index.error().message;
  EXPECT_EQ(index->dbs, (std::vector<std::string>{"shop", "zoo"}));
  EXPECT_DOUBLE_EQ(index->distances[0][1], WwlDistance((*dbs)[0].labels, (*dbs)[1].labels));
  EXPECT_DOUBLE_EQ(index->distances[1][0], index->distances[0][1]);
  EXPECT_GT(index->distances[0][1], 0.0);

  auto stats = again->Stats();
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->examples, 7);
  EXPECT_EQ(stats->databases, 2);
  EXPECT_EQ(stats->distance_pairs, 1);
  EXPECT_EQ(stats->distances_cached, 1);
  ASSERT_EQ(stats->by_source.size(), 1u);
  EXPECT_EQ(stats->by_source[0], (std::pair<std::string, int64_t>{"custom:items.jsonl", 7}));
  ASSERT_EQ(stats->inputs.size(), 1u);
  EXPECT_EQ(stats->inputs[0].done, 9);
  EXPECT_EQ(stats->inputs[0].added, 7);
  EXPECT_EQ(stats->meta["version"], std::to_string(kStoreVersion));
}

STORE_TEST(CancelledBuildResumesWhereItStopped) {
  auto reference_store = Open("reference.db");
  ASSERT_TRUE(BuildStore(*reference_store, Items(), source_, Options()).ok());
  const auto reference = Rows(*reference_store);

  auto store = Open();
  std::atomic<bool> cancel{false};
  BuildOptions o = Options();
  // Stop after the second batch has been committed.
  o.progress = [&](const std::string& step, size_t done, size_t) {
    if (step == "examples" && done >= 4) cancel = true;
  };
  o.cancel = &cancel;
  auto first = BuildStore(*store, Items(), source_, o);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_TRUE(first->cancelled);
  EXPECT_EQ(first->input.done, 4);
  EXPECT_FALSE(first->input.finished);
  EXPECT_EQ(*store->CountExamples(), 4);

  auto second = BuildStore(*store, Items(), source_, Options());
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->resumed_from, 4);
  EXPECT_EQ(second->added, 3);
  EXPECT_TRUE(second->input.finished);
  EXPECT_EQ(second->input.added, 7);
  EXPECT_EQ(Rows(*store), reference);
}

STORE_TEST(KilledBuildLosesOnlyTheBatchItWasWriting) {
  auto reference_store = Open("reference.db");
  ASSERT_TRUE(BuildStore(*reference_store, Items(), source_, Options()).ok());
  const auto reference = Rows(*reference_store);
  // A child process is killed (no cleanup, no destructor) once the third batch has been committed.
  Open().reset();
  EXPECT_EXIT(
      {
        auto store = ExampleStore::Open(where_["store.db"]);
        if (!store) std::exit(1);
        BuildOptions o = Options();
        o.progress = [](const std::string& step, size_t done, size_t) {
          if (step == "examples" && done >= 6) raise(SIGKILL);
        };
        (void)BuildStore(**store, Items(), source_, o);
        std::exit(2);
      },
      ::testing::KilledBySignal(SIGKILL), "");
  auto store = Open();
  auto inputs = store->Stats();
  ASSERT_TRUE(inputs.ok()) << inputs.error().message;
  ASSERT_EQ(inputs->inputs.size(), 1u);
  EXPECT_EQ(inputs->inputs[0].done, 6);  // three batches of two, the sixth item skipped
  EXPECT_EQ(*store->CountExamples(), 5);
  auto resumed = BuildStore(*store, Items(), source_, Options());
  ASSERT_TRUE(resumed.ok()) << resumed.error().message;
  EXPECT_EQ(resumed->resumed_from, 6);
  EXPECT_EQ(Rows(*store), reference);
  EXPECT_EQ(resumed->input.added, 7);
  EXPECT_EQ(resumed->input.skipped, 1);
}

STORE_TEST(NothingIsStoredTwice) {
  auto store = Open();
  ASSERT_TRUE(BuildStore(*store, Items(), source_, Options()).ok());
  // The same input again: finished, nothing read again.
  auto same = BuildStore(*store, Items(), source_, Options());
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_EQ(same->resumed_from, 9);
  EXPECT_EQ(same->added, 0);
  // Another input that overlaps: only its new item is added.
  std::vector<BuildItem> more = {
      Items()[0], Items()[3], {"zoo", "What is the earliest birth year?", "SELECT min(born) FROM animal"}};
  BuildOptions o = Options();
  o.content_hash = "hash-of-more";
  auto appended = BuildStore(*store, more, source_, o);
  ASSERT_TRUE(appended.ok()) << appended.error().message;
  EXPECT_EQ(appended->added, 1);
  EXPECT_EQ(appended->duplicates, 2);
  EXPECT_EQ(*store->CountExamples(), 8);
  // By hand, twice.
  std::vector<Example> one(1);
  one[0].db_id = "zoo";
  one[0].question = "Count the animals.";
  one[0].sql = "SELECT count(*) FROM animal";
  one[0].masked_question = "Count the <mask>.";
  one[0].masked_sql = "SELECT count(*) FROM <mask>";
  auto added = store->AddExamples(one, "user");
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_EQ(*added, 1);
  EXPECT_GT(one[0].id, 0);
  one[0].id = 0;
  added = store->AddExamples(one, "user");
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_EQ(*added, 0);
  EXPECT_EQ(one[0].id, 0);
  EXPECT_EQ(*store->CountExamples(), 9);
  auto stats = store->Stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->by_source.back(), (std::pair<std::string, int64_t>{"user", 1}));
}

STORE_TEST(AnInputWithoutAHashIsKeyedByItsItems) {
  auto store = Open();
  std::atomic<bool> cancel{false};
  BuildOptions o = Options();
  o.content_hash.clear();
  o.progress = [&](const std::string& step, size_t done, size_t) {
    if (step == "examples" && done >= 4) cancel = true;
  };
  o.cancel = &cancel;
  auto first = BuildStore(*store, Items(), source_, o);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_TRUE(first->cancelled);
  // The same items from another path resume.
  BuildOptions again = Options();
  again.content_hash.clear();
  again.path = "elsewhere/items.json";
  auto second = BuildStore(*store, Items(), source_, again);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->resumed_from, 4);
  EXPECT_TRUE(second->input.finished);
  // One question changed: another input, read from its start.
  std::vector<BuildItem> changed = Items();
  changed[0].question = "Count the customers.";
  auto third = BuildStore(*store, changed, source_, again);
  ASSERT_TRUE(third.ok()) << third.error().message;
  EXPECT_EQ(third->resumed_from, 0);
  EXPECT_EQ(third->added, 1);
  auto stats = store->Stats();
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->inputs.size(), 2u);
}

STORE_TEST(ADatabaseKeepsItsSchemaAndItsDistancesAreComputedOnce) {
  auto store = Open();
  ASSERT_TRUE(BuildStore(*store, Items(), source_, Options()).ok());
  // The same db_id with another schema is refused; with the same schema it is a no-op.
  auto shop = source_("shop");
  ASSERT_TRUE(shop.ok());
  auto same = store->AddDatabase("shop", shop->schema, sql::Sqlite());
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_FALSE(*same);
  auto zoo = source_("zoo");
  ASSERT_TRUE(zoo.ok());
  auto clash = store->AddDatabase("shop", zoo->schema, sql::Sqlite());
  ASSERT_FALSE(clash.ok());
  EXPECT_NE(clash.error().message.find("another schema"), std::string::npos) << clash.error().message;
  // A third database adds its two pairs only.
  test::MakeSqliteDb(tmp_.File("library.db"),
                     "CREATE TABLE book (book_id INTEGER PRIMARY KEY, title TEXT);"
                     "CREATE TABLE loan (loan_id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES book (book_id));");
  auto library = source_("library");
  ASSERT_TRUE(library.ok());
  auto added = store->AddDatabase("library", library->schema, sql::Sqlite());
  ASSERT_TRUE(added.ok() && *added);
  auto computed = store->UpdateDistances();
  ASSERT_TRUE(computed.ok()) << computed.error().message;
  EXPECT_EQ(*computed, 2);
  computed = store->UpdateDistances();
  ASSERT_TRUE(computed.ok());
  EXPECT_EQ(*computed, 0);
  auto index = store->Distances();
  ASSERT_TRUE(index.ok());
  for (size_t i = 0; i < 3; ++i) {
    for (size_t j = 0; j < 3; ++j) EXPECT_FALSE(std::isnan(index->distances[i][j])) << i << "," << j;
  }
}

STORE_TEST(AnotherVersionIsRefusedAndAMissingStoreIsNotCreated) {
  auto store = Open();
  ASSERT_TRUE(store->SetMeta("version", "999").ok());
  store.reset();
  auto old = ExampleStore::Open(where_["store.db"]);
  ASSERT_FALSE(old.ok());
  EXPECT_NE(old.error().message.find("version 999"), std::string::npos) << old.error().message;
  if (kPg) return;  // the rest is about files
  auto missing = ExampleStore::OpenExisting(tmp_.File("none.db"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  test::MakeSqliteDb(tmp_.File("other.db"), "CREATE TABLE examples (x INTEGER);");
  auto other = ExampleStore::Open(tmp_.File("other.db"));
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().code, ErrorCode::kFormat);
}

STORE_TEST(TwoBuildsAtOnceStoreEachExampleOnce) {
  auto reference_store = Open("reference.db");
  ASSERT_TRUE(BuildStore(*reference_store, Items(), source_, Options()).ok());
  const auto reference = Rows(*reference_store);
  Open().reset();
  // Two processes' worth of handles on one store, building the same input with batches of one.
  std::vector<std::thread> builders;
  std::vector<Result<BuildResult>> results(2, MakeError(ErrorCode::kInternal, "not run"));
  for (size_t i = 0; i < 2; ++i) {
    builders.emplace_back([&, i]() {
      auto store = ExampleStore::Open(where_["store.db"]);
      if (!store) {
        results[i] = store.error();
        return;
      }
      results[i] = BuildStore(**store, Items(), source_, Options(1));
    });
  }
  for (auto& t : builders) t.join();
  for (const auto& r : results) ASSERT_TRUE(r.ok()) << r.error().message;
  auto store = Open();
  EXPECT_EQ(Rows(*store), reference);
  auto index = store->Distances();
  ASSERT_TRUE(index.ok()) << index.error().message;
  EXPECT_FALSE(std::isnan(index->distances[0][1]));
}

STORE_TEST(LibrarySelectsBestFirstWithDistancesAndExclusions) {
  auto store = Open();
  ASSERT_TRUE(BuildStore(*store, Items(), source_, Options()).ok());
  auto library = ExampleLibrary::Load(*store);
  ASSERT_TRUE(library.ok()) << library.error().message;
  ASSERT_EQ((*library)->Examples().size(), 7u);
  auto zoo = source_("zoo");
  ASSERT_TRUE(zoo.ok());
  ExampleLibrary::Query q;
  q.schema = &zoo->schema;
  q.db_id = "zoo";
  q.masked_question = "How many <mask> are there?";
  q.masked_sql = "SELECT count(*) FROM <mask>";
  q.k = 3;
  auto picks = (*library)->Select(q);
  ASSERT_FALSE(picks.empty());
  EXPECT_EQ(picks[0].example->question, "How many animals are there?");
  EXPECT_DOUBLE_EQ(picks[0].scores.schema_distance, 0.0);  // its own database
  for (size_t i = 1; i < picks.size(); ++i) EXPECT_GE(picks[i - 1].scores.score, picks[i].scores.score);
  for (const auto& p : picks) {
    ASSERT_NE(p.database, nullptr);
    EXPECT_EQ(p.database->db_id, p.example->db_id);
  }
  // Leaving out the question asked (Ground), and a database outside the store: its distances are computed.
  q.exclude = [](const Example& e) { return e.question == "How many animals are there?"; };
  catalog::Schema renamed = zoo->schema;
  q.schema = &renamed;
  q.db_id = "zoo2";
  picks = (*library)->Select(q);
  ASSERT_FALSE(picks.empty());
  for (const auto& p : picks) EXPECT_NE(p.example->question, "How many animals are there?");
  auto from_zoo2 = (*library)->DistancesFrom(renamed, "zoo2");
  ASSERT_EQ(from_zoo2->size(), 2u);
  EXPECT_DOUBLE_EQ((*from_zoo2)[1], 0.0);  // the same structure as zoo
  EXPECT_GT((*from_zoo2)[0], 0.0);
}

#if !PLAINSQL_STORE_PG
// A database by db_id: tables.json's schema when it has the db_id (no file needed), else the file's own; the values
// whenever there is a file; an error naming the folder when neither has it.
TEST(BenchmarkDatabase, OpensFromTablesJsonOrItsFile) {
  test::TempDir tmp;
  test::MakeSqliteDb(tmp.File("shop.db"), kShopSql);
  {
    std::ofstream out(tmp.File("tables.json"));
    out << R"([{"db_id": "shelf", "table_names_original": ["book"], "table_names": ["book"],
                "column_names_original": [[-1, "*"], [0, "book_id"], [0, "title"]],
                "column_names": [[-1, "*"], [0, "book id"], [0, "title"]],
                "column_types": ["text", "number", "text"], "primary_keys": [1], "foreign_keys": []}])";
  }
  auto tables = catalog::BenchmarkSchemas::Read(tmp.File("tables.json"));
  ASSERT_TRUE(tables.ok()) << tables.error().message;
  BenchmarkDatabases where{&*tables, tmp.path(), [](const std::string& dir, const std::string& db_id) {
                             std::string path = dir + "/" + db_id + ".db";
                             return std::ifstream(path).good() ? path : std::string();
                           }};
  auto shelf = OpenBenchmarkDatabase(where, "shelf");
  ASSERT_TRUE(shelf.ok()) << shelf.error().message;
  EXPECT_EQ(shelf->schema.database, "shelf");
  ASSERT_EQ(shelf->schema.tables.size(), 1u);
  EXPECT_EQ(shelf->schema.tables[0].name, "book");
  EXPECT_EQ(shelf->conn, nullptr);
  EXPECT_EQ(shelf->values, nullptr);

  auto shop = OpenBenchmarkDatabase(where, "shop");
  ASSERT_TRUE(shop.ok()) << shop.error().message;
  EXPECT_EQ(shop->schema.database, "shop");
  EXPECT_EQ(shop->schema.tables.size(), 2u);
  EXPECT_NE(shop->conn, nullptr);
  EXPECT_NE(shop->values, nullptr);

  auto none = OpenBenchmarkDatabase(where, "none");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "no schema for database 'none' (not in --tables, no file in " + tmp.path() + ")");
  auto no_tables = OpenBenchmarkDatabase(BenchmarkDatabases{}, "shop");
  ASSERT_FALSE(no_tables.ok());
  EXPECT_EQ(no_tables.error().message, "no schema for database 'shop' (no --tables)");

  // As BuildStore's source: the schema and the values, SQLite SQL.
  auto built = BenchmarkDatabaseSource(where)("shop");
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_EQ(built->schema.database, "shop");
  EXPECT_NE(built->values, nullptr);
  EXPECT_EQ(built->dialect, &sql::Sqlite());
}
#endif

}  // namespace
}  // namespace plainsql::examples
