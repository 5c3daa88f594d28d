// Catalog: SQLite introspection of the sample and of awkward names, JSON and DDL round trips, prompt renderings,
// token estimates, and the snapshot cache.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "catalog/binary_io.h"
#include "catalog/cache.h"
#include "catalog/introspect.h"
#include "catalog/json_io.h"
#include "catalog/render.h"
#include "catalog/tokens.h"
#include "catalog/view_sources.h"
#include "exec/connection.h"
#include "test_util.h"

namespace plainsql::catalog {
namespace {

Schema IntrospectFile(const std::string& path, IntrospectOptions opts = {}) {
  auto conn = exec::Connect(path);
  EXPECT_TRUE(conn.ok()) << (conn.ok() ? "" : conn.error().message);
  auto s = Introspect(**conn, opts);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? *s : Schema{};
}

// Structure only: drops row counts and samples, which a DDL round trip cannot carry.
Schema Structure(Schema s) {
  for (Table& t : s.tables) {
    t.row_count.reset();
    t.row_count_estimated = false;
    for (Column& c : t.columns) c.samples.clear();
  }
  return s;
}

constexpr const char* kAwkward = R"sql(
CREATE TABLE "my table" ("a b" INTEGER PRIMARY KEY, "select" TEXT NOT NULL DEFAULT 'x', "Mixed""Quote" REAL);
CREATE TABLE "Order" ("Id" INTEGER, "Group" VARCHAR(10), "from" INTEGER REFERENCES "my table" ("a b"),
                      PRIMARY KEY ("Id", "Group"), UNIQUE ("from"));
CREATE TABLE line ("order id" INTEGER, "grp" VARCHAR(10), qty INT,
                   FOREIGN KEY ("order id", grp) REFERENCES "Order" ("Id", "Group"));
CREATE TABLE implicit_ref (x INTEGER REFERENCES "my table");
INSERT INTO "my table" VALUES (1, 'a', 1.5), (2, 'b', NULL), (3, 'a', 2.5);
)sql";

TEST(Introspect, SampleDatabase) {
  Schema s = IntrospectFile(test::SampleDb());
  EXPECT_EQ(s.source, "sqlite");
  EXPECT_EQ(s.database, "plant");
  ASSERT_EQ(s.tables.size(), 11u);
  const Table* mo = s.FindTable("TB_MO");
  ASSERT_NE(mo, nullptr);
  EXPECT_EQ(mo->columns.size(), 10u);
  ASSERT_NE(mo->FindColumn("Reported By"), nullptr);
  EXPECT_EQ(mo->FindColumn("CRT_DT")->type_class, TypeClass::kDatetime);
  EXPECT_EQ(mo->FindColumn("EST_HRS")->type_class, TypeClass::kNumeric);
  EXPECT_EQ(mo->FindColumn("MO_ST")->type_class, TypeClass::kText);
  EXPECT_FALSE(mo->FindColumn("MO_ST")->nullable);
  EXPECT_TRUE(mo->FindColumn("CMPL_DT")->nullable);
  EXPECT_FALSE(mo->FindColumn("MO_ID")->nullable);  // INTEGER PRIMARY KEY is the rowid
  EXPECT_EQ(mo->primary_key, std::vector<std::string>{"MO_ID"});
  EXPECT_EQ(mo->row_count, 900);
  EXPECT_EQ(mo->foreign_keys.size(), 3u);

  const Table* op = s.FindTable("MoOperation");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->primary_key, (std::vector<std::string>{"MO_ID", "OPR_NO"}));

  const Table* conf = s.FindTable("opr_conf");
  ASSERT_NE(conf, nullptr);
  ASSERT_EQ(conf->foreign_keys.size(), 1u);
  EXPECT_EQ(conf->foreign_keys[0].columns, (std::vector<std::string>{"MO_ID", "OPR_NO"}));
  EXPECT_EQ(conf->foreign_keys[0].ref_table, "MoOperation");
  EXPECT_EQ(conf->foreign_keys[0].ref_columns, (std::vector<std::string>{"MO_ID", "OPR_NO"}));

  const Table* part = s.FindTable("spare_part");
  ASSERT_EQ(part->unique_keys.size(), 1u);
  EXPECT_EQ(part->unique_keys[0].columns, std::vector<std::string>{"part_name"});
  EXPECT_EQ(part->FindColumn("stock_qty")->default_value, "0");
  EXPECT_EQ(s.FindTable("technician")->FindColumn("is_certified")->type_class, TypeClass::kBoolean);

  const Table* view = s.FindTable("open_orders");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->kind, TableKind::kView);
  EXPECT_FALSE(view->row_count.has_value());
  EXPECT_EQ(view->columns.size(), 6u);
  EXPECT_NE(view->definition.find("e.EQ_DESC AS equipment"), std::string::npos) << view->definition;
  EXPECT_TRUE(s.FindTable("plant")->definition.empty());

  // Samples: at most the requested number, distinct, non-null.
  const Column* city = s.FindTable("plant")->FindColumn("city");
  EXPECT_EQ(city->samples.size(), 3u);
  EXPECT_EQ(city->samples[0], "Toledo");
  EXPECT_TRUE(mo->FindColumn("CMPL_DT")->samples.size() <= 3);
}

// What a view's columns read: plain column references through aliases and joins; expressions, aggregates and stars
// read no one column; a definition that is only the query (PostgreSQL's pg_get_viewdef) reads as well.
TEST(ViewSources, PlainColumnsOfTheDefinition) {
  const ViewSourceMap sample = ViewSources(IntrospectFile(test::SampleDb()));
  using P = std::pair<std::string, std::string>;
  EXPECT_EQ(sample.at(P("open_orders", "equipment")), P("TB_EQUIP", "EQ_DESC"));
  EXPECT_EQ(sample.at(P("open_orders", "order_id")), P("TB_MO", "MO_ID"));
  EXPECT_EQ(sample.at(P("open_orders", "plant_name")), P("plant", "plant_name"));
  EXPECT_EQ(sample.size(), 6u);

  test::TempDir dir;
  const std::string db = dir.File("v.db");
  test::MakeSqliteDb(db, R"sql(
CREATE TABLE emp (EMP_NM TEXT, SAL REAL, DEPT_CD TEXT);
CREATE VIEW staff (name, pay, twice) AS SELECT EMP_NM, SAL, SAL * 2 FROM emp;
CREATE VIEW per_dept AS SELECT DEPT_CD AS department, count(*) AS staff FROM emp GROUP BY DEPT_CD;
CREATE VIEW everything AS SELECT * FROM emp;
)sql");
  Schema s = IntrospectFile(db);
  ViewSourceMap m = ViewSources(s);
  EXPECT_EQ(m.at(P("staff", "name")), P("emp", "EMP_NM"));
  EXPECT_EQ(m.at(P("staff", "pay")), P("emp", "SAL"));
  EXPECT_EQ(m.count(P("staff", "twice")), 0u);
  EXPECT_EQ(m.at(P("per_dept", "department")), P("emp", "DEPT_CD"));
  EXPECT_EQ(m.count(P("per_dept", "staff")), 0u);
  EXPECT_EQ(m.count(P("everything", "EMP_NM")), 0u);
  for (Table& t : s.tables) {
    if (t.name == "staff") t.definition = " SELECT emp.EMP_NM AS name, emp.SAL AS pay, emp.SAL * 2 AS twice FROM emp;";
    if (t.name == "per_dept") t.definition = "not a query";
  }
  m = ViewSources(s);
  EXPECT_EQ(m.at(P("staff", "name")), P("emp", "EMP_NM"));
  EXPECT_EQ(m.count(P("per_dept", "department")), 0u);
}

TEST(Introspect, SamplesAndCountsCanBeTurnedOff) {
  IntrospectOptions opts;
  opts.samples = 0;
  opts.row_counts = false;
  Schema s = IntrospectFile(test::SampleDb(), opts);
  for (const Table& t : s.tables) {
    EXPECT_FALSE(t.row_count.has_value());
    for (const Column& c : t.columns) EXPECT_TRUE(c.samples.empty());
  }
}

TEST(Introspect, KeepsAwkwardNamesExactly) {
  test::TempDir dir;
  std::string db = dir.File("awkward.db");
  test::MakeSqliteDb(db, kAwkward);
  Schema s = IntrospectFile(db);
  const Table* t = s.FindTable("my table");
  ASSERT_NE(t, nullptr);
  EXPECT_NE(t->FindColumn("a b"), nullptr);
  EXPECT_NE(t->FindColumn("select"), nullptr);
  EXPECT_NE(t->FindColumn("Mixed\"Quote"), nullptr);
  EXPECT_EQ(t->FindColumn("select")->default_value, "'x'");
  const Table* order = s.FindTable("Order");
  ASSERT_NE(order, nullptr);
  EXPECT_EQ(order->primary_key, (std::vector<std::string>{"Id", "Group"}));
  ASSERT_EQ(order->unique_keys.size(), 1u);
  const Table* line = s.FindTable("line");
  ASSERT_EQ(line->foreign_keys.size(), 1u);
  EXPECT_EQ(line->foreign_keys[0].columns, (std::vector<std::string>{"order id", "grp"}));
  EXPECT_EQ(line->foreign_keys[0].ref_columns, (std::vector<std::string>{"Id", "Group"}));
  // REFERENCES "my table" with no column list means its primary key.
  const Table* implicit = s.FindTable("implicit_ref");
  ASSERT_EQ(implicit->foreign_keys.size(), 1u);
  EXPECT_EQ(implicit->foreign_keys[0].ref_columns, std::vector<std::string>{"a b"});
}

TEST(Introspect, RejectsOtherSchemasOnSqlite) {
  auto conn = exec::Connect(test::SampleDb());
  IntrospectOptions opts;
  opts.schema_filter = "sales";
  auto s = Introspect(**conn, opts);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
}

TEST(Json, RoundTrips) {
  for (const std::string& sql : {std::string(kAwkward), std::string()}) {
    test::TempDir dir;
    std::string db = sql.empty() ? test::SampleDb() : dir.File("a.db");
    if (!sql.empty()) test::MakeSqliteDb(db, sql);
    Schema s = IntrospectFile(db);
    auto back = FromJson(nlohmann::json::parse(ToJson(s).dump()));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, s);
    EXPECT_EQ(StructuralFingerprint(*back), StructuralFingerprint(s));
  }
}

// The snapshot cache's binary form: every field back, on introspected schemas and on one with each optional and flag
// set the other way; damaged or foreign bytes are refused, never read as a schema.
TEST(Binary, RoundTripsEveryField) {
  std::vector<Schema> schemas;
  for (const std::string& sql : {std::string(kAwkward), std::string()}) {
    test::TempDir dir;
    std::string db = sql.empty() ? test::SampleDb() : dir.File("a.db");
    if (!sql.empty()) test::MakeSqliteDb(db, sql);
    schemas.push_back(IntrospectFile(db));
  }
  Schema odd = schemas.back();
  odd.source = "postgres";
  odd.namespaces = {"public", "sales"};
  Table& t = odd.tables.front();
  t.schema = "sales";
  t.kind = TableKind::kView;
  t.comment = "a comment with\nnewline and \xc3\xa9";
  t.primary_key_inferred = true;
  t.row_count = -5'000'000'000;
  t.row_count_estimated = true;
  t.unique_keys.push_back({"uk", {"a", "b"}});
  t.foreign_keys.push_back({"fk", {"a"}, "public", "other", {"b"}, true});
  Column& c = t.columns.front();
  c.default_value = "";
  c.nullable = false;
  c.type_class = TypeClass::kBoolean;
  c.label = "a label";
  c.samples = {"", std::string("nul\0inside", 10)};
  schemas.push_back(odd);
  for (const Schema& s : schemas) {
    const std::string bytes = ToBinary(s);
    auto back = FromBinary(bytes);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, s);
    for (size_t cut : {size_t{0}, size_t{10}, bytes.size() / 2, bytes.size() - 1}) {
      EXPECT_EQ(FromBinary(std::string_view(bytes).substr(0, cut)).error().code, ErrorCode::kFormat) << cut;
    }
    EXPECT_FALSE(FromBinary(bytes + "x").ok());
  }
  EXPECT_FALSE(FromBinary(ToJson(odd).dump()).ok());
  std::string other = ToBinary(odd);
  other[16] = static_cast<char>(kSchemaBinaryVersion + 1);
  EXPECT_NE(FromBinary(other).error().message.find("another version"), std::string::npos);
}

TEST(Json, RejectsMalformedInput) {
  EXPECT_EQ(FromJson(nlohmann::json::array()).error().code, ErrorCode::kFormat);
  EXPECT_EQ(FromJson(nlohmann::json{{"tables", nlohmann::json::array()}}).error().code, ErrorCode::kFormat);
  auto bad =
      FromJson(nlohmann::json::parse(R"({"plainsql_schema": 1, "tables": [{"name": "t", "columns": [{"name": 3}]}]})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "tables[0](t).columns[0].name: expected a string");
  auto bad_key = FromJson(nlohmann::json::parse(
      R"({"plainsql_schema": 1, "tables": [{"name": "a", "columns": []}, {"name": "b", "columns": [{"name": "x"}],
          "foreign_keys": [{"columns": ["x"], "ref_columns": ["y"]}]}]})"));
  ASSERT_FALSE(bad_key.ok());
  EXPECT_EQ(bad_key.error().message, "tables[1](b).foreign_keys[0]: missing \"ref_table\"");
}

TEST(Fingerprint, IgnoresCountsAndSamplesButNotStructure) {
  Schema a = IntrospectFile(test::SampleDb());
  Schema b = a;
  b.tables[0].row_count = 12345;
  b.tables[0].columns[0].samples = {"zzz"};
  EXPECT_EQ(StructuralFingerprint(a), StructuralFingerprint(b));
  b.tables[0].columns[0].type = "TEXT";
  EXPECT_NE(StructuralFingerprint(a), StructuralFingerprint(b));
}

// DDL rendered for SQLite recreates the same structure: names, types, nullability, defaults, keys.
TEST(Ddl, SqliteRoundTrip) {
  for (const std::string& sql : {std::string(kAwkward), std::string()}) {
    test::TempDir dir;
    std::string db = sql.empty() ? test::SampleDb() : dir.File("a.db");
    if (!sql.empty()) test::MakeSqliteDb(db, sql);
    Schema s = Structure(IntrospectFile(db));
    std::string ddl = RenderDdl(s, sql::Sqlite());
    std::string copy = dir.File("copy.db");
    test::MakeSqliteDb(copy, ddl);
    Schema again = Structure(IntrospectFile(copy));
    // Views are rendered as comments (their defining query is not part of the model).
    std::erase_if(s.tables, [](const Table& t) { return t.kind == TableKind::kView; });
    again.database = s.database;
    for (Table& t : again.tables) {
      for (UniqueKey& u : t.unique_keys) u.name.clear();
    }
    for (Table& t : s.tables) {
      for (UniqueKey& u : t.unique_keys) u.name.clear();
    }
    EXPECT_EQ(ToJson(again).dump(1), ToJson(s).dump(1)) << ddl;
  }
}

TEST(Ddl, QuotesPerDialect) {
  Schema s = IntrospectFile(test::SampleDb());
  std::string pg = RenderDdl(s, sql::Postgres());
  EXPECT_NE(pg.find("CREATE TABLE \"TB_MO\" ("), std::string::npos);
  EXPECT_NE(pg.find("\"Reported By\""), std::string::npos);
  EXPECT_NE(pg.find("FOREIGN KEY (\"MO_ID\", \"OPR_NO\") REFERENCES \"MoOperation\" (\"MO_ID\", \"OPR_NO\")"),
            std::string::npos);
  std::string tsql = RenderDdl(s, sql::TSql());
  EXPECT_NE(tsql.find("[Reported By] BIGINT,"), std::string::npos) << tsql;
  EXPECT_NE(tsql.find("[Group] NVARCHAR(MAX) NOT NULL"), std::string::npos);
  EXPECT_NE(tsql.find("CRT_DT DATETIME2 NOT NULL"), std::string::npos);
}

// Issue #16: DuckDB's DDL comes from its dialect definition alone (types, quoting, no case folding).
TEST(Ddl, DuckDbFromItsDefinition) {
  Schema s = IntrospectFile(test::SampleDb());
  std::string duck = RenderDdl(s, sql::DuckDb());
  EXPECT_NE(duck.find("CREATE TABLE TB_MO ("), std::string::npos) << duck;
  EXPECT_NE(duck.find("\"Reported By\" BIGINT,"), std::string::npos) << duck;
  EXPECT_NE(duck.find("\"Group\" VARCHAR NOT NULL"), std::string::npos) << duck;
  EXPECT_NE(duck.find("CRT_DT TIMESTAMP NOT NULL"), std::string::npos) << duck;
}

// Where foreign keys must name existing tables, referenced tables come first and a cycle is closed by ALTER TABLE.
TEST(Ddl, DependencyOrderAndCycles) {
  Schema s;
  s.source = "json";
  auto table = [](std::string name, std::vector<std::pair<std::string, std::string>> fks) {
    Table t;
    t.name = std::move(name);
    for (const char* column_name : {"id", "ref"}) {
      Column c;
      c.name = column_name;
      c.type = "integer";
      c.type_class = TypeClass::kNumeric;
      t.columns.push_back(c);
    }
    t.primary_key = {"id"};
    for (auto& [col, ref] : fks) t.foreign_keys.push_back(ForeignKey{"", {col}, "", ref, {"id"}});
    return t;
  };
  s.tables = {table("a_child", {{"ref", "b_parent"}}), table("b_parent", {}), table("c_one", {{"ref", "d_two"}}),
              table("d_two", {{"ref", "c_one"}}), table("e_self", {{"ref", "e_self"}})};
  std::string pg = RenderDdl(s, sql::Postgres());
  EXPECT_LT(pg.find("CREATE TABLE b_parent"), pg.find("CREATE TABLE a_child")) << pg;
  EXPECT_LT(pg.find("CREATE TABLE c_one"), pg.find("CREATE TABLE d_two")) << pg;
  EXPECT_NE(pg.find("ALTER TABLE c_one ADD FOREIGN KEY (ref) REFERENCES d_two (id);"), std::string::npos) << pg;
  EXPECT_NE(pg.find("FOREIGN KEY (ref) REFERENCES e_self (id)\n);"), std::string::npos) << pg;  // self: inline
  std::string lite = RenderDdl(s, sql::Sqlite());
  EXPECT_LT(lite.find("CREATE TABLE a_child"), lite.find("CREATE TABLE b_parent"));  // SQLite keeps schema order
  EXPECT_EQ(lite.find("ALTER TABLE"), std::string::npos);
}

TEST(Prompt, Formats) {
  Schema s = IntrospectFile(test::SampleDb());
  std::string snails = RenderPromptSnails(s);
  EXPECT_NE(snails.find("# plant(plant_id integer, plant_name text, city text, country text, opened_year integer)\n"),
            std::string::npos)
      << snails;
  std::string list = RenderList(s);
  EXPECT_NE(list.find("MO_PART: MO_ID, PART_NO, QTY\n"), std::string::npos) << list;
  std::string ddl = RenderPromptDdl(s, sql::Sqlite(), 2);
  EXPECT_NE(ddl.find("    city TEXT, -- example: ['Toledo', 'Hamilton']\n"), std::string::npos) << ddl;
  EXPECT_NE(ddl.find("    opened_year INTEGER, -- example: [1968, 1979]\n"), std::string::npos) << ddl;
  EXPECT_NE(ddl.find("    FOREIGN KEY (MO_ID, OPR_NO) REFERENCES MoOperation (MO_ID, OPR_NO)\n);"), std::string::npos)
      << ddl;
  std::string none = RenderPromptDdl(s, sql::Sqlite(), 0);
  EXPECT_EQ(none.find("example:"), std::string::npos);
  for (auto f : {SchemaFormat::kJson, SchemaFormat::kDdl, SchemaFormat::kPromptSnails, SchemaFormat::kPromptDdl,
                 SchemaFormat::kList}) {
    EXPECT_EQ(SchemaFormatByName(SchemaFormatName(f)), f);
  }
}

TEST(Tokens, Estimate) {
  EXPECT_EQ(EstimateTokens(""), 0u);
  EXPECT_EQ(EstimateTokens("SELECT name FROM plant"), 6u);  // SEL|ECT| name| FROM... (caps cost more)
  EXPECT_EQ(EstimateTokens("the plant"), 2u);
  EXPECT_EQ(EstimateTokens("2024"), 2u);
  EXPECT_EQ(EstimateTokens("a, b"), 3u);
  Schema s = IntrospectFile(test::SampleDb());
  size_t list = EstimateTokens(RenderList(s));
  size_t ddl = EstimateTokens(RenderPromptDdl(s, sql::Sqlite(), 3));
  EXPECT_LT(list, ddl);  // the compact list is the cheapest rendering
}

TEST(Cache, SecondLoadComesFromTheSnapshot) {
  test::TempDir dir;
  std::string db = dir.File("c.db");
  test::MakeSqliteDb(db, kAwkward);
  CacheOptions cache{true, dir.File("cache")};
  auto conn = exec::Connect(db);
  ASSERT_TRUE(conn.ok());
  auto first = LoadSchema(**conn, {}, cache);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_FALSE(first->from_cache);
  EXPECT_TRUE(first->warnings.empty());
  ASSERT_TRUE(std::filesystem::exists(first->cache_file));
  auto second = LoadSchema(**conn, {}, cache);
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(second->from_cache);
  EXPECT_EQ(second->schema, first->schema);

  // Different options are a different snapshot.
  IntrospectOptions no_samples;
  no_samples.samples = 0;
  auto third = LoadSchema(**conn, no_samples, cache);
  ASSERT_TRUE(third.ok());
  EXPECT_FALSE(third->from_cache);

  // A change to the database invalidates the snapshot.
  conn->reset();
  test::MakeSqliteDb(db, "ALTER TABLE line ADD COLUMN note TEXT;");
  auto conn2 = exec::Connect(db);
  auto fourth = LoadSchema(**conn2, {}, cache);
  ASSERT_TRUE(fourth.ok());
  EXPECT_FALSE(fourth->from_cache);
  EXPECT_NE(fourth->schema.FindTable("line")->FindColumn("note"), nullptr);

  // A corrupt snapshot is ignored with a warning, and replaced.
  { std::ofstream(fourth->cache_file) << "{not json"; }
  auto fifth = LoadSchema(**conn2, {}, cache);
  ASSERT_TRUE(fifth.ok());
  EXPECT_FALSE(fifth->from_cache);
  EXPECT_FALSE(fifth->warnings.empty());
  auto sixth = LoadSchema(**conn2, {}, cache);
  EXPECT_TRUE(sixth->from_cache);
}

TEST(Cache, UnwritableDirectoryIsAWarningNotAFailure) {
  test::TempDir dir;
  std::string blocker = dir.File("file");
  { std::ofstream(blocker) << "x"; }
  auto conn = exec::Connect(test::SampleDb());
  auto loaded = LoadSchema(**conn, {}, CacheOptions{true, blocker + "/sub"});
  ASSERT_TRUE(loaded.ok());
  EXPECT_FALSE(loaded->warnings.empty());
  EXPECT_EQ(loaded->schema.tables.size(), 11u);
}

TEST(TypeClass, Classifies) {
  EXPECT_EQ(ClassifyType("VARCHAR(20)"), TypeClass::kText);
  EXPECT_EQ(ClassifyType("character varying(20)"), TypeClass::kText);
  EXPECT_EQ(ClassifyType("int8"), TypeClass::kNumeric);
  EXPECT_EQ(ClassifyType("DECIMAL(10,2)"), TypeClass::kNumeric);
  EXPECT_EQ(ClassifyType("double precision"), TypeClass::kNumeric);
  EXPECT_EQ(ClassifyType("number"), TypeClass::kNumeric);
  EXPECT_EQ(ClassifyType("timestamp with time zone"), TypeClass::kDatetime);
  EXPECT_EQ(ClassifyType("DATETIME"), TypeClass::kDatetime);
  EXPECT_EQ(ClassifyType("time"), TypeClass::kDatetime);
  EXPECT_EQ(ClassifyType("boolean"), TypeClass::kBoolean);
  EXPECT_EQ(ClassifyType("bit"), TypeClass::kNumeric);
  EXPECT_EQ(ClassifyType("point"), TypeClass::kOther);
  EXPECT_EQ(ClassifyType("bytea"), TypeClass::kOther);
  EXPECT_EQ(ClassifyType(""), TypeClass::kOther);
  EXPECT_EQ(ClassifyType("others"), TypeClass::kOther);
}

}  // namespace
}  // namespace plainsql::catalog
