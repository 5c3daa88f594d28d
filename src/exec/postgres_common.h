// What the two ways plainsql reaches PostgreSQL share: libpq from outside (postgres_connection.cpp) and a host's own
// query function from inside the server (source_connection.cpp, the extension's SPI). Internal to src/exec.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "exec/connection.h"
#include "sql/dialect.h"

namespace plainsql::exec {

/// The name plainsql gives a result column of PostgreSQL type `oid` ("" for a type it does not name).
std::string PostgresTypeName(uint32_t oid);

/// A value PostgreSQL sent as text, typed by its column's type: booleans and integer types as integers, floating and
/// numeric types as reals (an integral numeric that fits as an integer), bytea decoded, anything else as text.
Value PostgresValue(uint32_t oid, const char* text, size_t length);

/// The access policy of a PostgreSQL database, read from its catalog through `conn` (its internal queries): every
/// relation outside the system schemas (only those of `settings.access.schemas` when it names some), the effective
/// search path, the default function allowlist and the settings' additions.
Result<AccessPolicy> LoadPostgresPolicy(Connection& conn, const ExecSettings& settings);

/// What the two PostgreSQL connections share: the dialect, the access policy read from pg_catalog, and the guard every
/// query passes (read-only, allowlists, length, the row-size check around generated queries). They differ only in
/// how a checked text runs: over libpq, or through a host's query function (SPI).
class PostgresFamilyConnection : public PolicyCachingConnection {
 public:
  Engine engine() const override { return Engine::kPostgres; }
  const sql::Dialect& dialect() const override { return sql::Postgres(); }
  Result<ResultSet> Query(std::string_view sql, const Limits& limits, const std::vector<Value>& params) override;
  Result<ResultSet> QueryParsed(const sql::Query& query, const Limits& limits) override;
  Result<ResultSet> QueryInternal(std::string_view sql, const Limits& limits,
                                  const std::vector<Value>& params) override;

 protected:
  /// Runs a text the guard passed; `params` bind to $1, $2, ...
  virtual Result<ResultSet> Run(const std::string& sql, const Limits& limits, const std::vector<Value>& params) = 0;
  Result<AccessPolicy> ReadPolicy() override;
};

/// The query inside a check that fails, with a message plainsql recognises, on any row over `max_value_bytes`.
std::string WrapForRowCeiling(std::string_view sql, int64_t max_value_bytes);

/// The error plainsql reports for a PostgreSQL error with this SQLSTATE and first message line.
Error PostgresError(std::string_view sqlstate, const std::string& message, const Limits& limits,
                    const Ceilings& ceilings, bool cancelled_for_timeout = false);

}  // namespace plainsql::exec
