// PostgreSQL: introspection, read-only execution, limits and errors, against the throwaway cluster that the ctest
// fixture starts (tests/pg/pg_cluster.sh) with tests/pg/fixture.sql loaded.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <regex>
#include <set>

#include "catalog/cache.h"
#include "catalog/introspect.h"
#include "catalog/json_io.h"
#include "catalog/render.h"
#include "catalog/view_sources.h"
#include "eval/claims_check.h"
#include "exec/connection.h"
#include "exec/fingerprint.h"
#include "naturalness/classifier.h"
#include "naturalness/profile.h"
#include "test_util.h"

namespace plainsql {
namespace {

using namespace std::chrono_literals;

std::string Url() {
  std::ifstream in(PLAINSQL_PG_URL_FILE);
  std::string url;
  std::getline(in, url);
  return url;
}

// postgresql://postgres:pw@127.0.0.1:port/plainsql_test -> the same URL with another user, password or database.
std::string WithDatabase(const std::string& url, const std::string& db) {
  return url.substr(0, url.rfind('/') + 1) + db;
}

class Pg : public ::testing::Test {
 protected:
  void SetUp() override {
    url_ = Url();
    ASSERT_FALSE(url_.empty()) << "no cluster URL in " << PLAINSQL_PG_URL_FILE << " (the pg fixture did not start)";
    auto c = exec::Connect(url_);
    ASSERT_TRUE(c.ok()) << c.error().message;
    conn_ = std::move(*c);
  }

  // Runs SQL with full rights, bypassing plainsql (for setting up and for checksums).
  static void Admin(const std::string& url, const std::string& sql) {
    PGconn* c = PQconnectdb(url.c_str());
    ASSERT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
    PGresult* r = PQexec(c, sql.c_str());
    auto st = PQresultStatus(r);
    std::string err = PQresultErrorMessage(r);
    PQclear(r);
    PQfinish(c);
    ASSERT_TRUE(st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) << err;
  }

  // Checksum of every row of every fixture table, the sequence state and the catalog.
  std::string Checksum() {
    // plainsql's own catalog path: the guard would refuse pg_class and pg_roles to a query.
    auto rs = conn_->QueryInternal(
        "SELECT md5(concat_ws('|', (SELECT string_agg(t::text, ',' ORDER BY t::text) FROM plant t), "
        "(SELECT string_agg(t::text, ',' ORDER BY t::text) FROM \"TB_MO\" t), "
        "(SELECT string_agg(t::text, ',' ORDER BY t::text) FROM \"MoOperation\" t), "
        "(SELECT string_agg(t::text, ',' ORDER BY t::text) FROM opr_conf t), "
        "(SELECT string_agg(t::text, ',' ORDER BY t::text) FROM sales.\"Customer\" t), "
        "(SELECT string_agg(t::text, ',' ORDER BY t::text) FROM sales.sale t), "
        "(SELECT string_agg(t::text, ',' ORDER BY t::text) FROM typed t), "
        "(SELECT last_value::text || is_called::text FROM order_seq), "
        "(SELECT string_agg(c.relname || a.attname, ',' ORDER BY c.relname, a.attnum) FROM pg_class c "
        " JOIN pg_attribute a ON a.attrelid = c.oid JOIN pg_namespace n ON n.oid = c.relnamespace "
        " WHERE n.nspname IN ('public', 'sales')), "
        "(SELECT count(*)::text FROM pg_roles), (SELECT count(*)::text FROM pg_largeobject_metadata)))",
        exec::Limits{});
    EXPECT_TRUE(rs.ok()) << rs.error().message;
    return rs.ok() ? rs->rows[0][0].ToString() : "";
  }

  std::string url_;
  std::unique_ptr<exec::Connection> conn_;
};

TEST_F(Pg, IntrospectsEverySchemaExactly) {
  catalog::IntrospectOptions opts;
  auto s = catalog::Introspect(*conn_, opts);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->source, "postgres");
  EXPECT_EQ(s->database, "plainsql_test");
  EXPECT_EQ(s->namespaces, (std::vector<std::string>{"public", "sales"}));
  EXPECT_EQ(s->tables.size(), 9u);

  const auto* plant = s->FindTable("plant", "public");
  ASSERT_NE(plant, nullptr);
  EXPECT_EQ(plant->comment, "Production sites");
  EXPECT_EQ(plant->FindColumn("city")->comment, "City where the plant is located");
  EXPECT_EQ(plant->FindColumn("city")->type, "character varying(40)");
  EXPECT_EQ(plant->FindColumn("opened")->type_class, catalog::TypeClass::kDatetime);
  EXPECT_EQ(plant->FindColumn("active")->type_class, catalog::TypeClass::kBoolean);
  EXPECT_EQ(plant->FindColumn("active")->default_value, "true");
  EXPECT_FALSE(plant->FindColumn("plant_name")->nullable);
  EXPECT_EQ(plant->primary_key, std::vector<std::string>{"plant_id"});
  ASSERT_EQ(plant->unique_keys.size(), 1u);
  EXPECT_EQ(plant->unique_keys[0].columns, std::vector<std::string>{"plant_name"});
  EXPECT_EQ(plant->row_count, 3);
  EXPECT_EQ(plant->FindColumn("city")->samples, (std::vector<std::string>{"Toledo", "Hamilton", "Savannah"}));

  const auto* mo = s->FindTable("TB_MO");
  ASSERT_NE(mo, nullptr);
  EXPECT_EQ(mo->name, "TB_MO");
  EXPECT_NE(mo->FindColumn("Reported By"), nullptr);
  EXPECT_NE(mo->FindColumn("select"), nullptr);
  EXPECT_NE(mo->FindColumn("Mixed\"Quote"), nullptr);
  EXPECT_EQ(mo->FindColumn("MO_ST")->comment, "Maintenance order status code");
  EXPECT_EQ(mo->FindColumn("select")->type, "numeric(10,2)");

  const auto* op = s->FindTable("MoOperation");
  EXPECT_EQ(op->primary_key, (std::vector<std::string>{"MO_ID", "OPR_NO"}));

  const auto* conf = s->FindTable("opr_conf");
  ASSERT_EQ(conf->foreign_keys.size(), 1u);
  EXPECT_EQ(conf->foreign_keys[0].name, "opr_conf_op_fk");
  EXPECT_EQ(conf->foreign_keys[0].columns, (std::vector<std::string>{"mo_id", "opr_no"}));
  EXPECT_EQ(conf->foreign_keys[0].ref_table, "MoOperation");
  EXPECT_EQ(conf->foreign_keys[0].ref_columns, (std::vector<std::string>{"MO_ID", "OPR_NO"}));
  EXPECT_TRUE(conf->unique_keys.empty()) << "expression and partial indexes are not keys";
  EXPECT_TRUE(conf->FindColumn("conf_id")->default_value->starts_with("nextval("));

  const auto* customer = s->FindTable("Customer", "sales");
  ASSERT_NE(customer, nullptr);
  ASSERT_EQ(customer->foreign_keys.size(), 1u);
  EXPECT_EQ(customer->foreign_keys[0].ref_schema, "public");
  EXPECT_EQ(customer->foreign_keys[0].ref_table, "plant");
  const auto* sale = s->FindTable("sale", "sales");
  EXPECT_EQ(sale->foreign_keys[0].ref_schema, "");  // same namespace
  const auto* view = s->FindTable("big_sales", "sales");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->kind, catalog::TableKind::kView);
  EXPECT_EQ(view->columns.size(), 2u);
  // Its definition (pg_get_viewdef: the query alone), and what its columns read.
  EXPECT_NE(view->definition.find("amount > "), std::string::npos) << view->definition;
  const catalog::ViewSourceMap sources = catalog::ViewSources(*s);
  using P = std::pair<std::string, std::string>;
  ASSERT_EQ(sources.count(P("big_sales", "amount")), 1u);
  EXPECT_EQ(sources.at(P("big_sales", "amount")), P("sale", "amount"));

  // JSON round trip of a PostgreSQL schema too.
  auto back = catalog::FromJson(nlohmann::json::parse(catalog::ToJson(*s).dump()));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, *s);
}

TEST_F(Pg, ChosenSchemaOnly) {
  catalog::IntrospectOptions opts;
  opts.schema_filter = "sales";
  auto s = catalog::Introspect(*conn_, opts);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->namespaces, std::vector<std::string>{"sales"});
  EXPECT_EQ(s->tables.size(), 3u);
  opts.schema_filter = "nope";
  auto missing = catalog::Introspect(*conn_, opts);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
}

TEST_F(Pg, TypedValues) {
  auto rs = conn_->Query("SELECT * FROM typed ORDER BY i2 NULLS LAST", exec::Limits{});
  ASSERT_TRUE(rs.ok()) << rs.error().message;
  ASSERT_EQ(rs->rows.size(), 2u);
  const auto& r = rs->rows[0];
  EXPECT_EQ(r[0], exec::Value::Integer(-2));
  EXPECT_EQ(r[1], exec::Value::Integer(40000));
  EXPECT_EQ(r[2], exec::Value::Integer(9000000000));
  EXPECT_EQ(r[3], exec::Value::Real(1.5));
  EXPECT_EQ(r[4], exec::Value::Real(2.25));
  EXPECT_EQ(r[5].type(), exec::ValueType::kReal);  // too large for an integer
  EXPECT_EQ(r[6], exec::Value::Integer(1));        // booleans are 0/1
  EXPECT_EQ(r[7], exec::Value::Text("héllo"));
  EXPECT_EQ(r[8], exec::Value::MakeBlob(std::string("\x00\xff", 2)));
  EXPECT_EQ(r[9], exec::Value::Text("2024-02-29"));
  EXPECT_EQ(r[11], exec::Value::Text("{\"a\": 1}"));
  EXPECT_EQ(rs->column_types[0], "smallint");
  EXPECT_EQ(rs->column_types[8], "bytea");
  const auto& n = rs->rows[1];
  EXPECT_TRUE(n[0].is_null());
  EXPECT_EQ(n[5], exec::Value::Integer(42));  // an integral numeric stays an integer
  EXPECT_EQ(n[6], exec::Value::Integer(0));
}

TEST_F(Pg, BindsParameters) {
  auto rs = conn_->Query("SELECT plant_name FROM plant WHERE city = $1 AND plant_id > $2", exec::Limits{},
                         {exec::Value::Text("Toledo"), exec::Value::Integer(0)});
  ASSERT_TRUE(rs.ok()) << rs.error().message;
  ASSERT_EQ(rs->rows.size(), 1u);
  EXPECT_EQ(rs->rows[0][0].as_text(), "Riverside Works");
}

TEST_F(Pg, RefusesWritesAndChangesNothing) {
  std::string before = Checksum();
  ASSERT_FALSE(before.empty());
  const std::vector<std::string> statements = {
      "INSERT INTO plant VALUES (9, 'x', 'y', NULL, true)",
      "UPDATE plant SET city = 'x'",
      "DELETE FROM plant",
      "DROP TABLE opr_conf",
      "CREATE TABLE t (a int)",
      "TRUNCATE plant CASCADE",
      "ALTER TABLE plant ADD COLUMN x int",
      "COMMENT ON TABLE plant IS 'changed'",
      "GRANT ALL ON plant TO PUBLIC",
      "SELECT 1; DROP TABLE opr_conf",
      "SELECT 1; UPDATE plant SET city = 'x'",
      "WITH d AS (DELETE FROM opr_conf RETURNING *) SELECT * FROM d",
      "WITH u AS (UPDATE plant SET city = 'x' RETURNING *) SELECT count(*) FROM u",
      "WITH a AS (SELECT 1) INSERT INTO plant VALUES (9, 'x', 'y', NULL, true)",
      "SELECT nextval('order_seq')",
      "SELECT setval('order_seq', 100)",
      "SELECT lo_create(0)",
      "SELECT lo_import('/etc/hostname')",
      "SELECT pg_catalog.lo_export(1, '/tmp/plainsql-should-not-exist')",
      "SELECT \"lo_create\"(0)",
      "SELECT pg_read_file('/etc/hostname')",
      "SELECT pg_terminate_backend(pg_backend_pid())",
      "SELECT pg_advisory_lock(1)",
      "COPY plant TO STDOUT",
      "COPY plant FROM STDIN",
      "SET default_transaction_read_only = off",
      "SET TRANSACTION READ WRITE",
      "DO $$ BEGIN DELETE FROM plant; END $$",
      "COMMIT",
      "BEGIN",
      "VACUUM plant",
      "CREATE ROLE intruder",
      "SELECT set_config('default_transaction_read_only', 'off', false)",
      "ANALYZE plant",
      "REFRESH MATERIALIZED VIEW sales.big_sales",
      "LOCK TABLE plant",
      "EXPLAIN ANALYZE DELETE FROM plant",
  };
  for (const auto& sql : statements) {
    auto rs = conn_->Query(sql, exec::Limits{});
    ASSERT_FALSE(rs.ok()) << "was allowed: " << sql;
    EXPECT_TRUE(rs.error().code == ErrorCode::kNotReadOnly || rs.error().code == ErrorCode::kNotAllowed)
        << sql << " -> " << rs.error().message;
  }
  // After all that, a write attempt in the same session is still refused (no session state leaked).
  auto again = conn_->Query("WITH d AS (DELETE FROM plant RETURNING *) SELECT * FROM d", exec::Limits{});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, ErrorCode::kNotReadOnly);
  EXPECT_EQ(Checksum(), before);
}

TEST_F(Pg, StopsAtTheTimeout) {
  exec::Limits limits{300ms, 10};
  auto start = std::chrono::steady_clock::now();
  auto rs = conn_->Query("SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b", limits);
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(rs.ok());
  EXPECT_EQ(rs.error().code, ErrorCode::kTimeout) << rs.error().message;
  EXPECT_LT(elapsed, 2 * limits.timeout);
  auto heavy_start = std::chrono::steady_clock::now();
  auto heavy = conn_->Query("SELECT count(*) FROM generate_series(1, 1000000000)", limits);
  EXPECT_EQ(heavy.error().code, ErrorCode::kTimeout);
  EXPECT_LT(std::chrono::steady_clock::now() - heavy_start, 2 * limits.timeout);
  auto after = conn_->Query("SELECT 1", exec::Limits{});
  EXPECT_TRUE(after.ok()) << "connection unusable after a timeout";
}

TEST_F(Pg, CapsRows) {
  auto start = std::chrono::steady_clock::now();
  auto rs = conn_->Query("SELECT generate_series(1, 50000000) AS g", exec::Limits{30s, 100});
  ASSERT_TRUE(rs.ok()) << rs.error().message;
  EXPECT_EQ(rs->rows.size(), 100u);
  EXPECT_TRUE(rs->truncated);
  EXPECT_EQ(rs->rows[99][0], exec::Value::Integer(100));
  // The rest was never fetched: stopping at the cap is quick, not a scan of fifty million rows.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  auto exact = conn_->Query("SELECT g FROM generate_series(1, 100) g", exec::Limits{30s, 100});
  ASSERT_TRUE(exact.ok());
  EXPECT_FALSE(exact->truncated);
  auto empty = conn_->Query("SELECT 1 WHERE false", exec::Limits{});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->columns.size(), 1u);
  EXPECT_TRUE(empty->rows.empty());
}

// The built-in translator's patterns on PostgreSQL (their text is checked in tests/builtin/builtin_test.cpp): ILIKE
// matches regardless of case, as the value index that found the text did, and ESCAPE '\' makes the question's own '_'
// a literal character.
TEST_F(Pg, PatternsOfTheBuiltinTranslator) {
  auto any_case = conn_->Query("SELECT plant_name FROM plant WHERE plant_name ILIKE '%works%'", exec::Limits{});
  ASSERT_TRUE(any_case.ok()) << any_case.error().message;
  ASSERT_EQ(any_case->rows.size(), 1u);
  EXPECT_EQ(any_case->rows[0][0].ToString(), "Riverside Works");
  auto wildcard = conn_->Query("SELECT plant_name FROM plant WHERE plant_name ILIKE '%r_ver%'", exec::Limits{});
  ASSERT_TRUE(wildcard.ok()) << wildcard.error().message;
  EXPECT_EQ(wildcard->rows.size(), 1u);
  auto literal =
      conn_->Query("SELECT plant_name FROM plant WHERE plant_name ILIKE '%r\\_ver%' ESCAPE '\\'", exec::Limits{});
  ASSERT_TRUE(literal.ok()) << literal.error().message;
  EXPECT_TRUE(literal->rows.empty());
}

// The built-in translator's year and month of a date on PostgreSQL ("hired each year"; the text is checked in
// tests/builtin/builtin_test.cpp, QueryTree.DatePartInEachDialect): to_char runs read-only, grouped by itself.
TEST_F(Pg, DatePartsOfTheBuiltinTranslator) {
  for (const char* format : {"YYYY", "YYYY-MM"}) {
    const std::string sql = fmt::format(
        "SELECT to_char(opened, '{0}') AS year, count(*) FROM plant GROUP BY to_char(opened, '{0}')", format);
    auto parts = conn_->Query(sql, exec::Limits{});
    ASSERT_TRUE(parts.ok()) << parts.error().message;
    EXPECT_FALSE(parts->rows.empty());
  }
}

TEST_F(Pg, SqlErrors) {
  auto syntax = conn_->Query("SELECT FROM WHERE", exec::Limits{});
  EXPECT_EQ(syntax.error().code, ErrorCode::kSql);
  auto missing = conn_->Query("SELECT no_such_column FROM plant", exec::Limits{});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kSql);
  EXPECT_NE(missing.error().message.find("no_such_column"), std::string::npos) << missing.error().message;
  auto ok = conn_->Query("SELECT 1", exec::Limits{});
  EXPECT_TRUE(ok.ok()) << "connection unusable after an error";
}

TEST_F(Pg, ConnectionErrorsAreClearAndKeepSecretsOut) {
  std::smatch m;
  ASSERT_TRUE(std::regex_search(url_, m, std::regex(R"(@127\.0\.0\.1:(\d+)/)")));
  std::string port = m[1];
  auto wrong = exec::Connect("postgresql://reader:not-the-password@127.0.0.1:" + port + "/plainsql_test");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code, ErrorCode::kConnection);
  EXPECT_NE(wrong.error().message.find("password authentication failed"), std::string::npos) << wrong.error().message;
  EXPECT_EQ(wrong.error().message.find("not-the-password"), std::string::npos) << "password leaked into a message";

  auto reader = exec::Connect("postgresql://reader:reader-password@127.0.0.1:" + port + "/plainsql_test");
  ASSERT_TRUE(reader.ok()) << reader.error().message;
  auto rs = (*reader)->Query("SELECT count(*) FROM sales.sale", exec::Limits{});
  ASSERT_TRUE(rs.ok()) << rs.error().message;

  auto no_db = exec::Connect(WithDatabase(url_, "no_such_db"));
  ASSERT_FALSE(no_db.ok());
  EXPECT_EQ(no_db.error().code, ErrorCode::kConnection);
  EXPECT_NE(no_db.error().message.find("no_such_db"), std::string::npos);

  auto unreachable = exec::Connect("postgresql://postgres@127.0.0.1:1/x?connect_timeout=3");
  ASSERT_FALSE(unreachable.ok());
  EXPECT_EQ(unreachable.error().code, ErrorCode::kConnection);

  auto bad = exec::Connect("postgresql://h/db?no_such_option=1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument);
}

// A role that may not read a table still gets the schema; that table has no count or samples, and a warning says so.
// A relation the role may not read is no part of the schema it asks about (the generators would only pick it to fail);
// `plainsql check-access` lists such relations.
TEST_F(Pg, UnreadableTableIsLeftOut) {
  std::smatch m;
  ASSERT_TRUE(std::regex_search(url_, m, std::regex(R"(@127\.0\.0\.1:(\d+)/)")));
  auto reader = exec::Connect("postgresql://reader:reader-password@127.0.0.1:" + std::string(m[1]) + "/plainsql_test");
  ASSERT_TRUE(reader.ok()) << reader.error().message;
  std::vector<std::string> warnings;
  auto s = catalog::Introspect(**reader, {}, &warnings);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->FindTable("hidden_salary"), nullptr);
  EXPECT_TRUE(warnings.empty()) << warnings[0];
  EXPECT_EQ(s->FindTable("plant")->row_count, 3);
  auto all = catalog::Introspect(*conn_, {}, nullptr);
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_NE(all->FindTable("hidden_salary"), nullptr);
}

TEST_F(Pg, SnapshotCache) {
  test::TempDir dir;
  catalog::CacheOptions cache{true, dir.File("cache")};
  auto first = catalog::LoadSchema(*conn_, {}, cache);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_FALSE(first->from_cache);
  auto second = catalog::LoadSchema(*conn_, {}, cache);
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(second->from_cache);
  EXPECT_EQ(second->schema, first->schema);
  // A comment changed by someone else invalidates the snapshot.
  Admin(url_, "COMMENT ON TABLE sales.sale IS 'Sales lines'");
  auto third = catalog::LoadSchema(*conn_, {}, cache);
  ASSERT_TRUE(third.ok());
  EXPECT_FALSE(third->from_cache);
  EXPECT_EQ(third->schema.FindTable("sale", "sales")->comment, "Sales lines");
  Admin(url_, "COMMENT ON TABLE sales.sale IS NULL");
}

// DDL rendered for PostgreSQL from the SQLite sample database runs on PostgreSQL and recreates its keys.
TEST_F(Pg, DdlFromTheSampleRunsOnPostgres) {
  auto sqlite = exec::Connect(test::SampleDb());
  ASSERT_TRUE(sqlite.ok());
  auto sample = catalog::Introspect(**sqlite, {});
  ASSERT_TRUE(sample.ok());
  Admin(url_, "DROP DATABASE IF EXISTS ddl_roundtrip");
  Admin(url_, "CREATE DATABASE ddl_roundtrip");
  std::string target = WithDatabase(url_, "ddl_roundtrip");
  Admin(target, catalog::RenderDdl(*sample, sql::Postgres()));
  auto pg = exec::Connect(target);
  ASSERT_TRUE(pg.ok());
  auto copy = catalog::Introspect(**pg, {});
  ASSERT_TRUE(copy.ok()) << copy.error().message;
  size_t tables = 0;
  for (const auto& t : sample->tables) {
    if (t.kind == catalog::TableKind::kView) continue;
    ++tables;
    const auto* c = copy->FindTable(t.name);
    ASSERT_NE(c, nullptr) << t.name;
    EXPECT_EQ(c->name, t.name);
    ASSERT_EQ(c->columns.size(), t.columns.size()) << t.name;
    for (size_t i = 0; i < t.columns.size(); ++i) {
      EXPECT_EQ(c->columns[i].name, t.columns[i].name);
      EXPECT_EQ(c->columns[i].type_class, t.columns[i].type_class) << t.name << "." << t.columns[i].name;
      // SQLite lets a non-INTEGER primary key column hold NULL; PostgreSQL makes every key column NOT NULL.
      bool in_key = std::find(t.primary_key.begin(), t.primary_key.end(), t.columns[i].name) != t.primary_key.end();
      EXPECT_EQ(c->columns[i].nullable, t.columns[i].nullable && !in_key) << t.name << "." << t.columns[i].name;
    }
    EXPECT_EQ(c->primary_key, t.primary_key) << t.name;
    ASSERT_EQ(c->foreign_keys.size(), t.foreign_keys.size()) << t.name;
    EXPECT_EQ(c->unique_keys.size(), t.unique_keys.size()) << t.name;
  }
  EXPECT_EQ(copy->tables.size(), tables);
  pg->reset();
  Admin(url_, "DROP DATABASE ddl_roundtrip");
}

// DDL rendered from the fixture itself (two namespaces, a cross-namespace key, keys to tables that sort later,
// comments) replays on PostgreSQL and gives back the same structure.
TEST_F(Pg, DdlOfTheFixtureReplays) {
  auto original = catalog::Introspect(*conn_, {});
  ASSERT_TRUE(original.ok());
  std::string ddl = catalog::RenderDdl(*original, sql::Postgres());
  Admin(url_, "DROP DATABASE IF EXISTS ddl_replay");
  Admin(url_, "CREATE DATABASE ddl_replay");
  std::string target = WithDatabase(url_, "ddl_replay");
  Admin(target, ddl);
  auto pg = exec::Connect(target);
  ASSERT_TRUE(pg.ok());
  auto copy = catalog::Introspect(**pg, {});
  ASSERT_TRUE(copy.ok()) << copy.error().message;
  pg->reset();
  Admin(url_, "DROP DATABASE ddl_replay");
  // What DDL for tables cannot carry: views, sequence defaults, data (counts and samples), index names.
  auto comparable = [](catalog::Schema s) {
    std::erase_if(s.tables, [](const catalog::Table& t) { return t.kind == catalog::TableKind::kView; });
    for (auto& t : s.tables) {
      t.row_count.reset();
      t.row_count_estimated = false;
      for (auto& u : t.unique_keys) u.name.clear();
      for (auto& c : t.columns) {
        c.samples.clear();
        if (c.default_value && c.default_value->find("nextval(") != std::string::npos) c.default_value.reset();
      }
    }
    s.database.clear();
    return s;
  };
  EXPECT_EQ(catalog::ToJson(comparable(*copy)).dump(1), catalog::ToJson(comparable(*original)).dump(1)) << ddl;
}

TEST_F(Pg, FingerprintsAgreeAcrossEngines) {
  auto sqlite = exec::Connect(test::SampleDb());
  ASSERT_TRUE(sqlite.ok());
  const char* q = "SELECT 1, 'a', 2.5 UNION ALL SELECT 2, 'b', NULL UNION ALL SELECT 3, 'c', 4.0";
  auto a = (*sqlite)->Query(q, exec::Limits{});
  auto b = conn_->Query(q, exec::Limits{});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(exec::MultisetFingerprint(*a), exec::MultisetFingerprint(*b));
}

}  // namespace
}  // namespace plainsql

namespace plainsql {
namespace {

// `plainsql profile` on PostgreSQL: names from several schemas, quoted names with spaces, quotes and reserved words.
TEST_F(Pg, ProfilesTheFixtureSchema) {
  auto classifier = naturalness::Classifier::Load(std::string(PLAINSQL_SOURCE_DIR) + "/data");
  ASSERT_TRUE(classifier.ok()) << classifier.error().message;
  catalog::IntrospectOptions opts;
  opts.samples = 0;
  auto s = catalog::Introspect(*conn_, opts);
  ASSERT_TRUE(s.ok()) << s.error().message;
  naturalness::SchemaProfile p = naturalness::ProfileSchema(*s, *classifier);
  EXPECT_EQ(p.columns.Total(), static_cast<int>(s->ColumnCount()));
  std::set<std::string> kinds;
  for (const auto& w : p.warnings) kinds.insert(w.kind);
  EXPECT_TRUE(kinds.count("whitespace"));     // "Reported By"
  EXPECT_TRUE(kinds.count("reserved word"));  // "select"
  bool found = false;
  for (const auto& t : p.table_profiles) {
    if (t.table_name.name == "TB_MO") {
      found = true;
      EXPECT_EQ(t.table_name.prediction.level, naturalness::Level::kLeast);
    }
  }
  EXPECT_TRUE(found);
}

// The runs database on PostgreSQL: concurrent workers claim with FOR UPDATE SKIP LOCKED and never share a question.
TEST_F(Pg, RunsDatabaseClaimsAreExclusive) {
  Admin(url_, "DROP DATABASE IF EXISTS plainsql_runs");
  Admin(url_, "CREATE DATABASE plainsql_runs");
  test::CheckConcurrentClaims(WithDatabase(url_, "plainsql_runs"));
  // Opening again (tables present) and opening a database that is not a runs database.
  EXPECT_TRUE(eval::RunStore::Open(WithDatabase(url_, "plainsql_runs")).ok());
  auto missing = eval::RunStore::Open(WithDatabase(url_, "no_such_database"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("runs database: cannot connect"), std::string::npos)
      << missing.error().message;
  std::string password = url_.substr(url_.find("postgres:") + 9, url_.find('@') - url_.find("postgres:") - 9);
  ASSERT_FALSE(password.empty());
  EXPECT_EQ(missing.error().message.find(password), std::string::npos);  // no password in messages
}

}  // namespace
}  // namespace plainsql
