// Reading a schema out of a live database (SQLite or PostgreSQL) through a read-only connection.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"

namespace plainsql::catalog {

struct IntrospectOptions {
  int samples = 3;              // distinct non-null values to keep per column (0: none)
  int sample_scan_rows = 1000;  // rows read per table to find them (the first rows the database returns)
  bool row_counts = true;       // count rows of every table (views are not counted)
  std::string schema_filter;    // PostgreSQL: only this schema; "" = every user schema
  /// For each catalog query. No row cap: a truncated catalog would be a wrong schema.
  exec::Limits limits{std::chrono::milliseconds(60'000), std::numeric_limits<int64_t>::max()};
  /// For each per-table count or sampling query. One that fails or runs out of time leaves that table without a
  /// count or samples, with a warning; it does not fail the introspection.
  std::chrono::milliseconds per_table_timeout{5'000};
  /// Called with (tables done, tables in all) while sampling and counting, for progress display. May be empty.
  std::function<void(size_t, size_t)> progress;
};

/// Introspects the connection's database. Non-fatal problems (a table that could not be counted or sampled, for
/// example for lack of a privilege) are appended to `warnings` when it is given.
Result<Schema> Introspect(exec::Connection& conn, const IntrospectOptions& options,
                          std::vector<std::string>* warnings = nullptr);
Result<Schema> IntrospectSqlite(exec::Connection& conn, const IntrospectOptions& options,
                                std::vector<std::string>* warnings = nullptr);
Result<Schema> IntrospectPostgres(exec::Connection& conn, const IntrospectOptions& options,
                                  std::vector<std::string>* warnings = nullptr);

/// A cheap digest of the database's catalog (structure) and of a data-change indicator (file size and time on
/// SQLite, tuple counters on PostgreSQL): equal digests mean a cached snapshot is still valid. One or two queries.
Result<std::string> CatalogDigest(exec::Connection& conn, const IntrospectOptions& options);

/// The engine-specific halves of CatalogDigest.
Result<std::string> SqliteCatalogDigest(exec::Connection& conn, const IntrospectOptions& options);
Result<std::string> PostgresCatalogDigest(exec::Connection& conn, const IntrospectOptions& options);

/// Fills row counts and column samples of every table (shared by both engines); views are counted too with
/// `count_views` (a companion database's natural views: each has its native table's rows).
void CollectCountsAndSamples(exec::Connection& conn, const IntrospectOptions& options, Schema& schema,
                             std::vector<std::string>* warnings, bool count_views = false);

}  // namespace plainsql::catalog
