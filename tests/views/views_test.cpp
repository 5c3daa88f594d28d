// Natural views on the sample database: plans, DDL, deployment in the file and in a companion database (idempotent,
// refusing collisions, never touching tables), translation without views, and the namer and abbreviator.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "catalog/introspect.h"
#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "exec/connection.h"
#include "exec/fingerprint.h"
#include "naturalness/classifier.h"
#include "naturalness/name_model.h"
#include "naturalness/namer.h"
#include "naturalness/translate_query.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/rewrite/walk.h"
#include "test_util.h"
#include "views/deploy.h"
#include "views/views.h"

namespace plainsql::views {
namespace {

namespace fs = std::filesystem;
using naturalness::Level;
using naturalness::NaturalSchema;  // natural names without views: naturalness/translate_query.h
using naturalness::Translate;

naturalness::Crosswalk Sample() {
  auto cw = naturalness::LoadCrosswalk(std::string(PLAINSQL_SOURCE_DIR) + "/tests/cli/fixtures/plant_natural.csv");
  EXPECT_TRUE(cw.ok()) << cw.error().message;
  return cw.ok() ? *cw : naturalness::Crosswalk{};
}

catalog::Schema SchemaOf(const std::string& db) {
  auto conn = exec::Connect(db);
  EXPECT_TRUE(conn.ok());
  catalog::IntrospectOptions o;
  o.samples = 0;
  auto s = catalog::Introspect(**conn, o);
  EXPECT_TRUE(s.ok());
  return *s;
}

std::string Rows(const std::string& db, const std::string& sql) {
  auto conn = exec::Connect(db);
  EXPECT_TRUE(conn.ok()) << conn.error().message;
  // Some checks read sqlite_schema: plainsql's own catalog path, not the guarded one.
  auto rs = sql.find("sqlite_schema") != std::string::npos ? (*conn)->QueryInternal(sql, {}) : (*conn)->Query(sql, {});
  EXPECT_TRUE(rs.ok()) << sql << ": " << rs.error().message;
  return rs.ok() ? exec::MultisetFingerprint(*rs) : "error";
}

TEST(Views, PlanRenamesEveryTableAndFollowsKeyForeignKeys) {
  catalog::Schema schema = SchemaOf(test::SampleDb());
  auto plan = PlanViews(schema, Sample(), ViewOptions{.level = Level::kRegular, .extended = true});
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan->views.size(), schema.tables.size());
  const View* mo = nullptr;
  for (const auto& v : plan->views) {
    if (v.name == "maintenance_order") mo = &v;
  }
  ASSERT_NE(mo, nullptr);
  EXPECT_EQ(schema.tables[mo->table].name, "TB_MO");
  ASSERT_FALSE(mo->joins.empty());  // TB_MO -> TB_EQUIP, TB_MO -> MO_ST_CD
  std::string ddl = CreateScript(*plan, schema, Target::kSqlite);
  EXPECT_NE(ddl.find("t.MO_ST AS maintenance_order_status"), std::string::npos) << ddl;
  EXPECT_NE(ddl.find("LEFT JOIN TB_EQUIP AS j"), std::string::npos) << ddl;
  EXPECT_NE(ddl.find("/* plainsql natural view (extended N1) of TB_MO */"), std::string::npos);
  std::string pg = CreateScript(*plan, schema, Target::kPostgres);
  EXPECT_NE(pg.find("CREATE SCHEMA IF NOT EXISTS db_nl;"), std::string::npos);
  EXPECT_NE(pg.find("CREATE VIEW db_nl.maintenance_order AS SELECT"), std::string::npos);
  EXPECT_NE(pg.find("\"TB_MO\" AS t"), std::string::npos);
  std::string tsql = CreateScript(*plan, schema, Target::kTSql);
  EXPECT_NE(tsql.find("\nGO\n"), std::string::npos);
  EXPECT_NE(tsql.find("[Reported By] AS reported_by"), std::string::npos) << tsql;
}

// Issue #16: a target is a dialect; its DDL comes from the dialect's fields, so DuckDB needs no code of its own.
TEST(Views, TargetsAreDialectsAndDuckDbNeedsNoCodeOfItsOwn) {
  EXPECT_EQ(*TargetFor(sql::Sqlite()), Target::kSqlite);
  EXPECT_EQ(*TargetFor(sql::Sqlite(), true), Target::kSqliteCompanion);
  EXPECT_EQ(*TargetFor(sql::Postgres()), Target::kPostgres);
  EXPECT_EQ(*TargetFor(sql::TSql()), Target::kTSql);
  EXPECT_FALSE(TargetFor(sql::Postgres(), true).ok());  // a companion database is for SQLite
  EXPECT_FALSE(TargetFor(sql::MySql()).ok());
  catalog::Schema schema = SchemaOf(test::SampleDb());
  auto plan = PlanViews(schema, Sample(), ViewOptions{.level = Level::kRegular, .extended = true});
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  auto duck = TargetFor(sql::DuckDb());
  ASSERT_TRUE(duck.ok());
  std::string ddl = CreateScript(*plan, schema, *duck);
  EXPECT_TRUE(ddl.starts_with("CREATE SCHEMA IF NOT EXISTS db_nl;\nCOMMENT ON SCHEMA db_nl IS")) << ddl;
  EXPECT_NE(ddl.find("CREATE VIEW db_nl.maintenance_order AS SELECT"), std::string::npos) << ddl;
  EXPECT_NE(ddl.find("TB_MO AS t"), std::string::npos) << ddl;  // DuckDB keeps case: no quotes needed
  EXPECT_NE(ddl.find("\"Reported By\" AS reported_by"), std::string::npos) << ddl;
  EXPECT_NE(ddl.find("COMMENT ON VIEW db_nl.maintenance_order IS 'plainsql natural view (extended N1) of TB_MO"),
            std::string::npos)
      << ddl;
  EXPECT_EQ(ddl.find("GO\n"), std::string::npos);
}

TEST(Views, PlanRefusesACrosswalkThatMergesTwoNames) {
  catalog::Schema schema = SchemaOf(test::SampleDb());
  naturalness::Crosswalk cw = Sample();
  for (auto& e : cw.entries) {
    if (e.native == "MO_TYP" && e.table == "TB_MO") e.n1 = "maintenance_order_status";
  }
  auto plan = PlanViews(schema, cw, ViewOptions{});
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().message.find("maintenance_order_status"), std::string::npos) << plan.error().message;
  // Other levels are still fine.
  EXPECT_TRUE(PlanViews(schema, cw, ViewOptions{.level = Level::kLow}).ok());
}

TEST(Views, ApplyInTheFileIsIdempotentRefusesCollisionsAndDropRemovesOnlyItsViews) {
  test::TempDir tmp;
  std::string db = tmp.File("plant.db");
  fs::copy_file(test::SampleDb(), db);
  catalog::Schema schema = SchemaOf(db);
  std::string tables_before = Rows(db, "SELECT name FROM sqlite_schema WHERE type = 'table'");
  std::string orders_before = Rows(db, "SELECT * FROM TB_MO");

  // N1 keeps the name spare_part for a table whose column "Group" is renamed: the view would take the table's name.
  auto n1 = PlanViews(schema, Sample(), ViewOptions{});
  ASSERT_TRUE(n1.ok());
  std::string file_before = test::FileChecksum(db);
  auto refused = ApplyViews(db, *n1, schema);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("spare_part"), std::string::npos) << refused.error().message;
  EXPECT_EQ(test::FileChecksum(db), file_before);

  // N2 renames every table, so its views fit in the file.
  auto n2 = PlanViews(schema, Sample(), ViewOptions{.level = Level::kLow});
  ASSERT_TRUE(n2.ok());
  auto first = ApplyViews(db, *n2, schema);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->dropped, 0);
  int made = first->created;
  EXPECT_GT(made, 5);
  auto again = ApplyViews(db, *n2, schema);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->dropped, made);
  EXPECT_EQ(again->created, made);

  // The view answers as the table does.
  auto conn = exec::Connect(db);
  ASSERT_TRUE(conn.ok());
  auto ours = DeployedViewNames(**conn);
  ASSERT_TRUE(ours.ok());
  EXPECT_EQ(static_cast<int>(ours->size()), made);
  std::string mo = Sample().TableName("TB_MO", Level::kLow);
  std::string status = Sample().ColumnName("TB_MO", "MO_ST", Level::kLow);
  EXPECT_EQ(Rows(db, "SELECT " + status + ", count(*) FROM " + mo + " GROUP BY 1"),
            Rows(db, "SELECT MO_ST, count(*) FROM TB_MO GROUP BY 1"));

  auto dropped = DropViews(db);
  ASSERT_TRUE(dropped.ok());
  EXPECT_EQ(dropped->dropped, made);
  auto twice = DropViews(db);
  ASSERT_TRUE(twice.ok());
  EXPECT_EQ(twice->dropped, 0);
  // The native view open_orders and every table are untouched.
  EXPECT_EQ(Rows(db, "SELECT name FROM sqlite_schema WHERE type = 'table'"), tables_before);
  EXPECT_EQ(Rows(db, "SELECT * FROM TB_MO"), orders_before);
  EXPECT_EQ(Rows(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'open_orders'"), Rows(db, "SELECT 1"));
}

TEST(Views, CompanionDatabaseShowsTheViewsAndDropRemovesIt) {
  test::TempDir tmp;
  std::string db = tmp.File("plant.db"), companion = tmp.File("plant_nl.db");
  fs::copy_file(test::SampleDb(), db);
  catalog::Schema schema = SchemaOf(db);
  std::string file_before = test::FileChecksum(db);
  auto plan = PlanViews(schema, Sample(), ViewOptions{});
  ASSERT_TRUE(plan.ok());
  auto applied = ApplyViews(db, *plan, schema, companion);
  ASSERT_TRUE(applied.ok()) << applied.error().message;
  EXPECT_EQ(applied->created, static_cast<int>(schema.tables.size()));
  EXPECT_EQ(test::FileChecksum(db), file_before);  // the original is not written

  catalog::Schema natural = SchemaOf(companion);
  ASSERT_EQ(natural.tables.size(), schema.tables.size());
  EXPECT_NE(natural.FindTable("maintenance_order"), nullptr);
  EXPECT_EQ(natural.FindTable("plainsql_companion"), nullptr);
  EXPECT_EQ(Rows(companion, "SELECT spare_part_group, count(*) FROM spare_part GROUP BY 1"),
            Rows(db, "SELECT \"Group\", count(*) FROM spare_part GROUP BY 1"));
  // Still read-only.
  auto conn = exec::Connect(companion);
  ASSERT_TRUE(conn.ok());
  EXPECT_FALSE((*conn)->Query("DELETE FROM native.TB_MO", {}).ok());

  // The native keys under the views' names (a view declares none), and row counts as the tables have them.
  const catalog::Table* order = natural.FindTable("maintenance_order");
  ASSERT_NE(order, nullptr);
  EXPECT_EQ(order->primary_key, (std::vector<std::string>{"maintenance_order_identifier"}));
  bool to_equipment = false;
  for (const auto& fk : order->foreign_keys) {
    if (fk.ref_table == "equipment" && fk.columns == std::vector<std::string>{"equipment_identifier"})
      to_equipment = true;
  }
  EXPECT_TRUE(to_equipment) << "maintenance_order keeps no foreign key to equipment";
  ASSERT_NE(order->FindColumn("maintenance_order_identifier"), nullptr);
  EXPECT_FALSE(order->FindColumn("maintenance_order_identifier")->nullable);  // NOT NULL carried over
  const catalog::Table* plant = natural.FindTable("plant");
  ASSERT_NE(plant, nullptr);
  ASSERT_EQ(plant->unique_keys.size(), 1u);  // UNIQUE (plant_name)
  EXPECT_EQ(plant->unique_keys[0].columns, (std::vector<std::string>{"plant_name"}));
  catalog::IntrospectOptions counted;
  counted.samples = 0;
  auto with_counts = catalog::Introspect(**conn, counted);
  ASSERT_TRUE(with_counts.ok());
  const catalog::Table* native_order = schema.FindTable("TB_MO");
  ASSERT_NE(native_order, nullptr);
  EXPECT_EQ(with_counts->FindTable("maintenance_order")->row_count, native_order->row_count);
  // A natural view of a view of the original (open_orders reads TB_MO): its reads are the view's business.
  const catalog::Table* open = natural.FindTable("open_orders");
  ASSERT_NE(open, nullptr) << "the sample's view has no natural view";
  auto through = (*conn)->Query("SELECT count(*) FROM " + sql::QuoteIdentifier(sql::Sqlite(), open->name), {});
  EXPECT_TRUE(through.ok()) << through.error().message;
  EXPECT_FALSE((*conn)->Query("SELECT count(*) FROM native.open_orders", {}).ok());  // the original stays closed

  // Replacing and dropping.
  auto again = ApplyViews(db, *plan, schema, companion);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->dropped, applied->created);
  auto dropped = DropViews(db, "db_nl", companion);
  ASSERT_TRUE(dropped.ok());
  EXPECT_FALSE(fs::exists(companion));
  EXPECT_TRUE(DropViews(db, "db_nl", companion).ok());

  // A file that is not a companion is never changed or removed; the original cannot be its own companion.
  EXPECT_FALSE(ApplyViews(db, *plan, schema, db).ok());
  EXPECT_FALSE(ApplyViews(db, *plan, schema, test::SampleDb()).ok());
  EXPECT_FALSE(DropViews(db, "db_nl", test::SampleDb()).ok());
  EXPECT_TRUE(fs::exists(test::SampleDb()));
}

TEST(Views, CompanionWhoseStoredViewIsNotAQueryIsRefusedAtOpen) {
  test::TempDir tmp;
  std::string db = tmp.File("plant.db"), companion = tmp.File("bad.db");
  fs::copy_file(test::SampleDb(), db);
  test::MakeSqliteDb(companion,
                     "CREATE TABLE plainsql_companion (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                     "CREATE TABLE plainsql_views (seq INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, body TEXT);"
                     "INSERT INTO plainsql_companion VALUES ('native_path', '" +
                         db +
                         "');"
                         "INSERT INTO plainsql_views VALUES (1, 'x', 'SELECT 1; DELETE FROM native.TB_MO');");
  auto conn = exec::Connect(companion);
  ASSERT_FALSE(conn.ok());
  EXPECT_NE(conn.error().message.find("not a single query"), std::string::npos) << conn.error().message;
  EXPECT_EQ(Rows(db, "SELECT count(*) FROM TB_MO"), Rows(test::SampleDb(), "SELECT count(*) FROM TB_MO"));
}

TEST(Views, TranslateBetweenLevelsKeepsLiteralsAndAliases) {
  catalog::Schema schema = SchemaOf(test::SampleDb());
  sql::NameCatalog names = catalog::ToNameCatalog(schema);
  naturalness::Crosswalk cw = Sample();
  std::string natural =
      "SELECT o.maintenance_order_status AS maintenance_order_status, count(*) FROM maintenance_order AS o "
      "WHERE o.reported_by = 'maintenance_order' GROUP BY o.maintenance_order_status";
  auto native = Translate(natural, names, cw, Level::kRegular, Level::kNative, sql::Sqlite());
  ASSERT_TRUE(native.ok());
  EXPECT_TRUE(native->unresolved.empty());
  EXPECT_EQ(native->sql,
            "SELECT o.MO_ST AS maintenance_order_status, count(*) FROM TB_MO AS o WHERE o.\"Reported By\" = "
            "'maintenance_order' GROUP BY o.MO_ST");
  auto n3 = Translate(native->sql, names, cw, Level::kNative, Level::kLeast, sql::Sqlite());
  ASSERT_TRUE(n3.ok());
  auto back = Translate(n3->sql, names, cw, Level::kLeast, Level::kNative, sql::Sqlite());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->sql, native->sql);
  auto unknown =
      Translate("SELECT nothing FROM maintenance_order", names, cw, Level::kRegular, Level::kNative, sql::Sqlite());
  ASSERT_TRUE(unknown.ok());
  ASSERT_EQ(unknown->unresolved.size(), 1u);
  EXPECT_EQ(unknown->unresolved[0].name, "nothing");
}

// A tree built by code has no source offsets (every name at 0): the translator still renames each name by its own
// binding (it once renamed every column as the last one bound).
TEST(Views, TranslateATreeWithoutOffsets) {
  catalog::Schema schema = SchemaOf(test::SampleDb());
  const naturalness::QueryTranslator to_native(catalog::ToNameCatalog(schema), Sample(), Level::kRegular,
                                               Level::kNative);
  auto query = sql::ParseQuery(
      "SELECT maintenance_order_status, reported_by FROM maintenance_order WHERE maintenance_order_status = 'O'",
      sql::Sqlite());
  ASSERT_TRUE(query.ok());
  sql::Walker zero;
  zero.on_expr = [](sql::Expr& e) {
    e.offset = 0;
    for (auto& p : e.name.parts) p.offset = 0;
  };
  zero.on_table = [](sql::TableRef& t) {
    for (auto& p : t.name.parts) p.offset = 0;
  };
  sql::Walk(*query, zero);
  EXPECT_EQ(sql::Print(to_native.Apply(*query, sql::Sqlite()), sql::Sqlite()),
            "SELECT MO_ST, \"Reported By\" FROM TB_MO WHERE MO_ST = 'O'");
}

TEST(Views, NaturalSchemaRenamesKeys) {
  catalog::Schema natural = NaturalSchema(SchemaOf(test::SampleDb()), Sample(), Level::kRegular);
  const catalog::Table* t = natural.FindTable("maintenance_order");
  ASSERT_NE(t, nullptr);
  ASSERT_FALSE(t->foreign_keys.empty());
  EXPECT_EQ(t->primary_key, std::vector<std::string>{"maintenance_order_identifier"});
  bool to_equipment = false;
  for (const auto& fk : t->foreign_keys) to_equipment |= fk.ref_table == "equipment";
  EXPECT_TRUE(to_equipment);
}

TEST(Namer, AbbreviatorIsDeterministicAndKeepsTheStyle) {
  using naturalness::Abbreviate;
  EXPECT_EQ(Abbreviate("student", Level::kLow), "stdnt");
  EXPECT_EQ(Abbreviate("last_name", Level::kLow), "lst_nm");
  EXPECT_EQ(Abbreviate("PetType", Level::kLow), "PetTyp");  // "Pet" is under four letters
  EXPECT_EQ(Abbreviate("apartment_feature_1", Level::kLow), "aprtmnt_ftr_1");
  EXPECT_EQ(Abbreviate("last_name", Level::kLeast), "LN");
  EXPECT_EQ(Abbreviate("apartment_feature_1", Level::kLeast), "AF1");
  EXPECT_EQ(Abbreviate("Student", Level::kLeast), "Stu");
  EXPECT_EQ(Abbreviate("Age", Level::kLeast), "A");
  EXPECT_EQ(Abbreviate("Age", Level::kRegular), "Age");
}

// One reading per piece across the schema: with the name model, "MO" (TB_MO, MO_ST_CD, MoOperation, MO_PART, and
// opr_conf.MO_ID) is read alike in every name; read each on its own (agreement 0), the readings differ.
TEST(Namer, ACrypticPieceReadsAlikeAcrossTheSchema) {
  auto classifier = naturalness::Classifier::Load(naturalness::DefaultDataDir());
  ASSERT_TRUE(classifier.ok()) << classifier.error().message;
  auto abbreviations = naturalness::Expander::LoadAbbreviations(naturalness::DefaultDataDir() + "/abbreviations.tsv");
  ASSERT_TRUE(abbreviations.ok());
  auto model = naturalness::NameModel::Load(naturalness::DefaultDataDir() + "/name_model.tsv");
  ASSERT_TRUE(model.ok()) << model.error().message;
  auto conn = exec::Connect(test::SampleDb());
  ASSERT_TRUE(conn.ok());
  catalog::IntrospectOptions o;
  o.samples = naturalness::kShapeSamples;
  auto schema = catalog::Introspect(**conn, o);
  ASSERT_TRUE(schema.ok());
  auto read = [&](double agreement) {
    naturalness::Expander expander(classifier->Words(), *abbreviations);
    expander.SetNameModel(&*model);
    naturalness::NamingOptions options;
    options.agreement = agreement;
    naturalness::Crosswalk cw = naturalness::NameSchema(*schema, *classifier, expander, nullptr, options, nullptr);
    std::map<std::string, std::string> n1;
    for (const auto& e : cw.entries) n1[e.table + "." + e.native] = e.n1;
    return n1;
  };
  auto agreed = read(naturalness::NamingOptions::kDefaultAgreement);
  const std::string mo = agreed[".TB_MO"];
  ASSERT_FALSE(mo.empty());
  for (const char* name : {".MO_ST_CD", ".MoOperation", ".MO_PART", "opr_conf.MO_ID", "TB_MO.MO_ID"}) {
    EXPECT_TRUE(agreed[name].starts_with(mo + "_")) << name << " reads " << agreed[name] << ", TB_MO " << mo;
  }
  auto alone = read(0);
  bool differ = false;
  for (const char* name : {".MO_ST_CD", ".MoOperation", ".MO_PART", "opr_conf.MO_ID"}) {
    differ |= !alone[name].starts_with(alone[".TB_MO"] + "_");
  }
  EXPECT_TRUE(differ) << "read on their own, the names already agree: the test shows nothing";
}

TEST(Namer, NamesEveryIdentifierWithoutCollisionsAndKeepsEdits) {
  auto classifier = naturalness::Classifier::Load(naturalness::DefaultDataDir());
  ASSERT_TRUE(classifier.ok()) << classifier.error().message;
  auto abbreviations = naturalness::Expander::LoadAbbreviations(naturalness::DefaultDataDir() + "/abbreviations.tsv");
  ASSERT_TRUE(abbreviations.ok());
  naturalness::Expander expander(classifier->Words(), *abbreviations);
  catalog::Schema schema = SchemaOf(test::SampleDb());
  naturalness::NamingReport report;
  auto cw = naturalness::NameSchema(schema, *classifier, expander, nullptr, {}, &report);
  EXPECT_EQ(static_cast<int>(cw.entries.size()), static_cast<int>(schema.tables.size() + schema.ColumnCount()));
  EXPECT_EQ(report.kept, 0);
  sql::NameCatalog names = catalog::ToNameCatalog(schema);
  for (const auto& issue : naturalness::ValidateCrosswalk(cw, &names)) {
    EXPECT_FALSE(issue.error) << issue.message;
    EXPECT_FALSE(issue.message.find("reserved") != std::string::npos) << issue.message;
  }
  EXPECT_EQ(cw.TableName("plant", Level::kRegular), "plant");  // Regular names stay
  EXPECT_NE(cw.ColumnName("spare_part", "Group", Level::kRegular), "Group");
  EXPECT_EQ(cw.ColumnName("TB_MO", "Reported By", Level::kRegular), "reported_by");

  // A user's edit, and an entry for a table that no longer exists, survive a rerun.
  for (auto& e : cw.entries) {
    if (e.is_table && e.native == "TB_MO") e.n1 = "work_order";
  }
  cw.entries.push_back({"OLD_T", true, "plant", "old_table", "old_tbl", "OT", "", {}});
  naturalness::NamingReport rerun;
  auto again = naturalness::NameSchema(schema, *classifier, expander, &cw, {}, &rerun);
  EXPECT_EQ(again.TableName("TB_MO", Level::kRegular), "work_order");
  EXPECT_EQ(rerun.added, 0);
  EXPECT_EQ(rerun.stale, std::vector<std::string>{"OLD_T"});
  EXPECT_EQ(naturalness::SerializeCrosswalk(again), naturalness::SerializeCrosswalk(cw));
}

}  // namespace
}  // namespace plainsql::views
