// Reading a schema out of a live database (SQLite or PostgreSQL) through a read-only connection.
#pragma once

#include <functional>
#include <string>

#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"

namespace plainsql::catalog {

struct IntrospectOptions {
  int samples = 3;              // distinct non-null values to keep per column (0: none)
  int sample_scan_rows = 1000;  // rows read per table to find them (the first rows the database returns)
  bool row_counts = true;       // count rows of every table (views are not counted)
  std::string schema_filter;    // PostgreSQL: only this schema; "" = every user schema
  exec::Limits limits{std::chrono::milliseconds(60'000), 1'000'000};  // for each catalog query
  /// Called with (tables done, tables in all) while sampling and counting, for progress display. May be empty.
  std::function<void(size_t, size_t)> progress;
};

/// Introspects the connection's database.
Result<Schema> Introspect(exec::Connection& conn, const IntrospectOptions& options);
Result<Schema> IntrospectSqlite(exec::Connection& conn, const IntrospectOptions& options);
Result<Schema> IntrospectPostgres(exec::Connection& conn, const IntrospectOptions& options);

/// A cheap digest of the database's catalog (structure) and of a data-change indicator (file size and time on
/// SQLite, tuple counters on PostgreSQL): equal digests mean a cached snapshot is still valid. One or two queries.
Result<std::string> CatalogDigest(exec::Connection& conn, const IntrospectOptions& options);

/// The engine-specific halves of CatalogDigest.
Result<std::string> SqliteCatalogDigest(exec::Connection& conn, const IntrospectOptions& options);
Result<std::string> PostgresCatalogDigest(exec::Connection& conn, const IntrospectOptions& options);

/// Fills row counts and column samples of every table (shared by both engines).
Status CollectCountsAndSamples(exec::Connection& conn, const IntrospectOptions& options, Schema& schema);

}  // namespace plainsql::catalog
