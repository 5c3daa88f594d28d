// PostgreSQL's types, errors, access policy and row ceiling, shared by the libpq connection and a host's (SPI).
#include "exec/postgres_common.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "sql/printer.h"
#include "sql/token.h"

namespace plainsql::exec {

namespace {

// Type OIDs from PostgreSQL's pg_type.dat, for converting text results to typed values.
constexpr uint32_t kBoolOid = 16, kByteaOid = 17, kInt8Oid = 20, kInt2Oid = 21, kInt4Oid = 23, kOidOid = 26,
                   kFloat4Oid = 700, kFloat8Oid = 701, kNumericOid = 1700;

Value DecodeBytea(std::string_view text) {
  // Hex format (the default since PostgreSQL 9.0): \x followed by two hex digits per byte.
  if (!text.starts_with("\\x")) return Value::MakeBlob(std::string(text));
  std::string out;
  auto nib = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
  for (size_t i = 2; i + 1 < text.size(); i += 2)
    out.push_back(static_cast<char>(nib(text[i]) * 16 + nib(text[i + 1])));
  return Value::MakeBlob(std::move(out));
}

// Schemas that are PostgreSQL's own: never part of the schema plainsql reads.
bool SystemSchema(std::string_view s) {
  return s == "pg_catalog" || s == "information_schema" || s.starts_with("pg_toast") || s.starts_with("pg_temp");
}

// The text without what follows its last token (a ';', comments), so that it can be put inside parentheses.
std::string_view WithoutTrailer(std::string_view sql) {
  auto tokens = sql::Tokenize(sql, sql::Postgres());
  if (!tokens) return sql;
  size_t end = 0;
  for (const sql::Token& t : *tokens) {
    if (t.kind != sql::TokenKind::kEnd && t.kind != sql::TokenKind::kSemicolon) end = t.offset + t.text.size();
  }
  return sql.substr(0, end);
}

}  // namespace

std::string PostgresTypeName(uint32_t oid) {
  switch (oid) {
    case kBoolOid: return "boolean";
    case kByteaOid: return "bytea";
    case kInt8Oid: return "bigint";
    case kInt2Oid: return "smallint";
    case kInt4Oid: return "integer";
    case kOidOid: return "oid";
    case kFloat4Oid: return "real";
    case kFloat8Oid: return "double precision";
    case kNumericOid: return "numeric";
    case 25: return "text";
    case 1042: return "character";
    case 1043: return "character varying";
    case 1082: return "date";
    case 1083: return "time";
    case 1114: return "timestamp";
    case 1184: return "timestamptz";
    case 114: return "json";
    case 3802: return "jsonb";
    case 2950: return "uuid";
    default: return "";
  }
}

Value PostgresValue(uint32_t oid, const char* text, size_t length) {
  if (text == nullptr) return Value::Null();
  switch (oid) {
    case kBoolOid: return Value::Integer(text[0] == 't' ? 1 : 0);
    case kInt2Oid:
    case kInt4Oid:
    case kInt8Oid:
    case kOidOid: return Value::Integer(std::strtoll(text, nullptr, 10));
    case kFloat4Oid:
    case kFloat8Oid:
    case kNumericOid: {
      // numeric may be "NaN"; strtod reads it as NaN. Integral numerics without a point stay integers if they fit.
      if (oid == kNumericOid && !std::strpbrk(text, ".eEN")) {
        errno = 0;
        long long v = std::strtoll(text, nullptr, 10);
        if (errno == 0) return Value::Integer(v);
      }
      return Value::Real(std::strtod(text, nullptr));
    }
    case kByteaOid: return DecodeBytea(std::string_view(text, length));
    default: return Value::Text(std::string(text, length));
  }
}

Result<AccessPolicy> LoadPostgresPolicy(Connection& conn, const ExecSettings& settings) {
  AccessPolicy p;
  p.dialect = &sql::Postgres();
  p.functions = DefaultAllowedFunctions(sql::Postgres());
  ApplyAccessOptions(p, settings.access);
  // The effective search path, implicit schemas included (pg_catalog is searched first unless the path names it).
  auto path = conn.QueryInternal("SELECT unnest(pg_catalog.current_schemas(true))::text", Limits{}, {});
  if (!path) return path.error();
  for (const Row& r : path->rows) p.search_path.push_back(r.at(0).ToString());
  Limits all;
  all.max_rows = 10'000'000;
  auto rels = conn.QueryInternal(
      "SELECT n.nspname::text, c.relname::text FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
      "ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p', 'S')",
      all, {});
  if (!rels) return rels.error();
  const auto& only = settings.access.schemas;
  for (const Row& r : rels->rows) {
    std::string schema = r.at(0).ToString(), name = r.at(1).ToString();
    bool allowed = !SystemSchema(schema) && (only.empty() || std::find(only.begin(), only.end(), schema) != only.end());
    p.relations.push_back({schema, name, allowed});
  }
  return p;
}

Result<ResultSet> PostgresFamilyConnection::Query(std::string_view sql, const Limits& limits,
                                                  const std::vector<Value>& params) {
  if (Status s = GuardQuery(sql, settings_.ceilings, Loader()); !s) return s.error();
  return Run(WrapForRowCeiling(sql, settings_.ceilings.max_value_bytes), limits, params);
}

Result<ResultSet> PostgresFamilyConnection::QueryParsed(const sql::Query& query, const Limits& limits) {
  std::string text = sql::Print(query, dialect());
  if (Status s = GuardParsedQuery(query, text, settings_.ceilings, Loader()); !s) return s.error();
  return Run(WrapForRowCeiling(text, settings_.ceilings.max_value_bytes), limits, {});
}

Result<ResultSet> PostgresFamilyConnection::QueryInternal(std::string_view sql, const Limits& limits,
                                                          const std::vector<Value>& params) {
  if (Status s = CheckSingleQuery(sql, dialect()); !s) return s.error();
  return Run(std::string(sql), limits, params);
}

Result<AccessPolicy> PostgresFamilyConnection::ReadPolicy() { return LoadPostgresPolicy(*this, settings_); }

// No row may pass max_value_bytes: the server checks each row's size before sending it, by failing a cast whose
// message plainsql recognises (libpq holds a whole row in memory, so the client cannot stop one on its way).
std::string WrapForRowCeiling(std::string_view sql, int64_t max_value_bytes) {
  return fmt::format(
      "SELECT plainsql_q.* FROM (\n{}\n) AS plainsql_q WHERE CASE WHEN pg_catalog.pg_column_size(plainsql_q.*) > {} "
      "THEN (pg_catalog.pg_column_size(plainsql_q.*)::text || ' bytes: plainsql max_value_bytes')::int ELSE 0 END = 0",
      WithoutTrailer(sql), max_value_bytes);
}

Error PostgresError(std::string_view sqlstate, const std::string& msg, const Limits& limits, const Ceilings& ceilings,
                    bool cancelled_for_timeout) {
  if (sqlstate == "57014" || cancelled_for_timeout) {  // query_canceled: statement_timeout or our cancel
    return MakeError(ErrorCode::kTimeout,
                     fmt::format("query stopped: it ran past the {} ms timeout", limits.timeout.count()));
  }
  if (sqlstate == "55P03") {  // lock_not_available: lock_timeout
    return MakeError(ErrorCode::kTimeout,
                     fmt::format("query stopped: it waited for a lock past the {} ms timeout", limits.timeout.count()));
  }
  if (sqlstate == "22P02" && msg.find("plainsql max_value_bytes") != std::string::npos) {
    return CeilingError("a row", "max_value_bytes", ceilings.max_value_bytes);
  }
  if (sqlstate.starts_with("53") || sqlstate == "54000") {  // insufficient resources, program limit exceeded
    return MakeError(ErrorCode::kResourceLimit, "query stopped by the server: " + msg);
  }
  if (sqlstate == "25006") {  // read_only_sql_transaction
    return MakeError(ErrorCode::kNotReadOnly, "refused: " + msg + "; plainsql runs read-only queries only");
  }
  return MakeError(ErrorCode::kSql, msg);
}

}  // namespace plainsql::exec
