// A PostgreSQL database reached through its host's own query function instead of libpq: the PostgreSQL extension
// (pg_extension/) runs plainsql's queries with SPI inside the server. Everything plainsql checks before a query runs
// (the single read-only query, the allowlists, the length ceiling) and after (the row cap, the result ceilings) is
// checked here as for any connection; the host runs the text it is given, read-only, for at most the time limit.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "common/status.h"
#include "exec/connection.h"

namespace plainsql::exec {

/// Where a host puts a result: its columns first, then every value row by row (as PostgreSQL's text output, NULL as
/// a null pointer). AddValue returns false when the host must stop reading: the row cap is reached (the result is
/// marked truncated) or a ceiling passed (error() says which).
class SourceRows {
 public:
  SourceRows(ResultSet& out, int64_t max_rows, const Ceilings& ceilings)
      : out_(out), max_rows_(max_rows), ceilings_(ceilings) {}
  void AddColumn(std::string name, uint32_t type_oid);
  bool AddValue(const char* text, size_t length);
  const std::optional<Error>& error() const { return error_; }

 private:
  ResultSet& out_;
  int64_t max_rows_;
  const Ceilings& ceilings_;
  std::vector<uint32_t> types_;
  int64_t bytes_ = 0;
  bool stopped_ = false;
  std::optional<Error> error_;
};

/// A failure the host reports: PostgreSQL's SQLSTATE ("" when none) and message; `timed_out` when the host stopped the
/// query at the time limit itself.
struct SourceFailure {
  std::string sqlstate, message;
  bool timed_out = false;
};

struct QuerySource {
  std::string identity;       // for caches, as Connection::identity
  std::string database_name;  // as Connection::database_name
  /// Runs `sql` (one read-only query, parameters already written in as literals; standard_conforming_strings must be
  /// on) within `limits.timeout`, putting its result in `rows`.
  std::function<std::optional<SourceFailure>(const std::string& sql, const Limits& limits, SourceRows& rows)> run;
  /// Runs one statement that may write, in the host's transaction (null: the host allows none).
  std::function<std::optional<SourceFailure>(const std::string& sql, SourceRows& rows)> write;
};

/// A connection over `source`, in PostgreSQL's dialect, with the default execution settings.
std::unique_ptr<Connection> OpenQuerySource(QuerySource source);

/// A write session over `source.write` (PostgreSQL's SQL): its statements join the host's transaction, which the host
/// commits or rolls back; Commit() does nothing. Refused when the source has no write function.
Result<std::unique_ptr<WriteSession>> OpenSourceWriteSession(const QuerySource& source);

/// `sql` with each parameter $1, $2, ... replaced by its value as a quoted literal (of unknown type, resolved by its
/// context as an untyped parameter is; a blob as bytea; NULL as NULL). Parameters inside strings are left alone.
Result<std::string> InlinePostgresParameters(std::string_view sql, const std::vector<Value>& params);

}  // namespace plainsql::exec
