// Introspection speed on a synthetic 2,500-table x 35-column schema (the size of the SAP database in SNAILS), on
// SQLite and (with PLAINSQL_BENCH_PG_URL) on PostgreSQL. Bars of issue #2: under 1 s on SQLite, under 5 s on
// PostgreSQL.
#include <benchmark/benchmark.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include <fmt/format.h>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "catalog/introspect.h"
#include "exec/connection.h"

namespace {

constexpr int kTables = 2500;
constexpr int kColumns = 35;
constexpr int kRowsPerTable = 3;

// DDL and rows of the synthetic schema. Column types cycle through the type classes; table i references table i-1.
std::string SchemaSql(bool postgres) {
  std::string sql = "BEGIN;\n";
  for (int t = 0; t < kTables; ++t) {
    sql += fmt::format("CREATE TABLE t{:04d} (id integer PRIMARY KEY", t);
    for (int c = 1; c < kColumns; ++c) {
      const char* type = c % 4 == 0 ? "integer" : c % 4 == 1 ? "varchar(40)" : c % 4 == 2 ? "date" : "numeric(10,2)";
      if (c == 1 && t > 0) {
        sql += fmt::format(", parent_id integer REFERENCES t{:04d} (id)", t - 1);
      } else {
        sql += fmt::format(", col_{:02d}_{} {}", c, t % 7, type);
      }
    }
    sql += ");\n";
    for (int r = 1; r <= kRowsPerTable; ++r) {
      sql += fmt::format("INSERT INTO t{:04d} (id) VALUES ({});\n", t, r);
    }
  }
  sql += "COMMIT;\n";
  if (postgres) sql += "ANALYZE;\n";
  return sql;
}

std::string SqlitePath() {
  auto path = std::filesystem::temp_directory_path() / "plainsql-bench-2500x35.db";
  if (!std::filesystem::exists(path)) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    char* err = nullptr;
    if (sqlite3_exec(db, SchemaSql(false).c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::cerr << "building the SQLite schema failed: " << (err ? err : "?") << "\n";
      std::exit(1);
    }
    sqlite3_close(db);
  }
  return path.string();
}

std::string PgUrl() {
  const char* base = std::getenv("PLAINSQL_BENCH_PG_URL");
  if (!base || !*base) return "";
  static std::string url;
  if (!url.empty()) return url;
  std::string admin = base;
  PGconn* c = PQconnectdb(admin.c_str());
  if (PQstatus(c) != CONNECTION_OK) {
    std::cerr << "cannot connect to PLAINSQL_BENCH_PG_URL: " << PQerrorMessage(c);
    std::exit(1);
  }
  PQclear(PQexec(c, "DROP DATABASE IF EXISTS plainsql_bench"));
  PQclear(PQexec(c, "CREATE DATABASE plainsql_bench"));
  PQfinish(c);
  url = admin.substr(0, admin.rfind('/') + 1) + "plainsql_bench";
  c = PQconnectdb(url.c_str());
  PGresult* r = PQexec(c, SchemaSql(true).c_str());
  if (PQresultStatus(r) != PGRES_COMMAND_OK) {
    std::cerr << "building the PostgreSQL schema failed: " << PQresultErrorMessage(r);
    std::exit(1);
  }
  PQclear(r);
  PQfinish(c);
  return url;
}

void Introspect(benchmark::State& state, const std::string& target, bool samples) {
  if (target.empty()) {
    state.SkipWithError("PLAINSQL_BENCH_PG_URL is not set");
    return;
  }
  auto conn = plainsql::exec::Connect(target);
  if (!conn.ok()) {
    state.SkipWithError(conn.error().message.c_str());
    return;
  }
  plainsql::catalog::IntrospectOptions opts;
  if (!samples) {
    opts.samples = 0;
    opts.row_counts = false;
  }
  size_t columns = 0;
  for (auto _ : state) {
    auto s = plainsql::catalog::Introspect(**conn, opts);
    if (!s.ok()) {
      state.SkipWithError(s.error().message.c_str());
      return;
    }
    columns = s->ColumnCount();
  }
  state.counters["tables"] = kTables;
  state.counters["columns"] = static_cast<double>(columns);
}

void Digest(benchmark::State& state, const std::string& target) {
  if (target.empty()) {
    state.SkipWithError("PLAINSQL_BENCH_PG_URL is not set");
    return;
  }
  auto conn = plainsql::exec::Connect(target);
  for (auto _ : state) {
    auto d = plainsql::catalog::CatalogDigest(**conn, {});
    if (!d.ok()) {
      state.SkipWithError(d.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(d->data());
  }
}

void BM_SqliteIntrospect(benchmark::State& s) { Introspect(s, SqlitePath(), true); }
void BM_SqliteIntrospectStructureOnly(benchmark::State& s) { Introspect(s, SqlitePath(), false); }
void BM_SqliteCacheCheck(benchmark::State& s) { Digest(s, SqlitePath()); }
void BM_PostgresIntrospect(benchmark::State& s) { Introspect(s, PgUrl(), true); }
void BM_PostgresIntrospectStructureOnly(benchmark::State& s) { Introspect(s, PgUrl(), false); }
void BM_PostgresCacheCheck(benchmark::State& s) { Digest(s, PgUrl()); }

// Whole-schema runs take up to seconds: a fixed number of runs, reported as mean, median and spread.
BENCHMARK(BM_SqliteIntrospect)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5);
BENCHMARK(BM_SqliteIntrospectStructureOnly)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5);
BENCHMARK(BM_SqliteCacheCheck)->Unit(benchmark::kMillisecond)->Iterations(3)->Repetitions(5);
BENCHMARK(BM_PostgresIntrospect)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5);
BENCHMARK(BM_PostgresIntrospectStructureOnly)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5);
BENCHMARK(BM_PostgresCacheCheck)->Unit(benchmark::kMillisecond)->Iterations(3)->Repetitions(5);

}  // namespace

BENCHMARK_MAIN();
