// Connections over a host's query function (the PostgreSQL extension's SPI): the guard and ceilings of
// postgres_connection.cpp without libpq; the host runs the checked text.
#include "exec/source_connection.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <utility>

#include "exec/postgres_common.h"
#include "sql/token.h"

namespace plainsql::exec {

void SourceRows::AddColumn(std::string name, uint32_t type_oid) {
  out_.columns.push_back(std::move(name));
  out_.column_types.push_back(PostgresTypeName(type_oid));
  types_.push_back(type_oid);
}

bool SourceRows::AddValue(const char* text, size_t length) {
  if (stopped_ || types_.empty()) return false;
  if (out_.rows.empty() || out_.rows.back().size() == types_.size()) {
    if (static_cast<int64_t>(out_.rows.size()) >= max_rows_) {
      out_.truncated = true;
      stopped_ = true;
      return false;
    }
    out_.rows.emplace_back();
    out_.rows.back().reserve(types_.size());
  }
  Row& row = out_.rows.back();
  if (text != nullptr && static_cast<int64_t>(length) > ceilings_.max_value_bytes) {
    error_ = CeilingError("a value", "max_value_bytes", ceilings_.max_value_bytes);
    stopped_ = true;
    return false;
  }
  row.push_back(PostgresValue(types_[row.size()], text, length));
  bytes_ += static_cast<int64_t>(sizeof(Value) + (text != nullptr ? length : 0));
  if (bytes_ > ceilings_.max_result_bytes) {
    error_ = CeilingError("the result", "max_result_bytes", ceilings_.max_result_bytes);
    stopped_ = true;
    return false;
  }
  return true;
}

namespace {

std::string Literal(const Value& v) {
  switch (v.type()) {
    case ValueType::kNull: return "NULL";
    case ValueType::kBlob: {
      std::string hex = "'\\x";
      for (unsigned char c : v.as_blob()) hex += fmt::format("{:02x}", c);
      return hex + "'::bytea";
    }
    case ValueType::kReal:
      if (std::isnan(v.as_real())) return "'NaN'";
      if (std::isinf(v.as_real())) return v.as_real() > 0 ? "'Infinity'" : "'-Infinity'";
      return "'" + v.ToString() + "'";
    default: {
      std::string text = v.ToString(), out = "'";
      for (char c : text) {
        out += c;
        if (c == '\'') out += '\'';
      }
      return out + "'";
    }
  }
}

class SourceConnection final : public PostgresFamilyConnection {
 public:
  explicit SourceConnection(QuerySource source) : source_(std::move(source)) {}

  std::string identity() const override { return source_.identity; }
  std::string database_name() const override { return source_.database_name; }

 private:
  Result<ResultSet> Run(const std::string& sql, const Limits& limits, const std::vector<Value>& params) override {
    auto text = InlinePostgresParameters(sql, params);
    if (!text) return text.error();
    auto start = std::chrono::steady_clock::now();
    ResultSet rs;
    SourceRows rows(rs, limits.max_rows, settings_.ceilings);
    std::optional<SourceFailure> failure = source_.run(*text, limits, rows);
    if (rows.error()) return *rows.error();
    if (failure) {
      return PostgresError(failure->sqlstate, failure->message, limits, settings_.ceilings, failure->timed_out);
    }
    rs.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return rs;
  }

  QuerySource source_;
};

class SourceWriteSession final : public WriteSession {
 public:
  explicit SourceWriteSession(QuerySource source) : source_(std::move(source)) {}
  Engine engine() const override { return Engine::kPostgres; }
  Status Execute(std::string_view sql) override {
    auto rs = Run(std::string(sql), {});
    if (!rs) return rs.error();
    return Status::Ok();
  }
  Result<std::vector<std::vector<std::string>>> Rows(std::string_view sql,
                                                     const std::vector<std::string>& params) override {
    std::vector<Value> values;
    values.reserve(params.size());
    for (const auto& p : params) values.push_back(Value::Text(p));
    auto rs = Run(sql, values);
    if (!rs) return rs.error();
    std::vector<std::vector<std::string>> out;
    out.reserve(rs->rows.size());
    for (const Row& r : rs->rows) {
      std::vector<std::string> row;
      row.reserve(r.size());
      for (const Value& v : r) row.push_back(v.ToStringOrEmpty());
      out.push_back(std::move(row));
    }
    return out;
  }
  Status Commit() override { return Status::Ok(); }

 private:
  Result<ResultSet> Run(std::string_view sql, const std::vector<Value>& params) {
    auto text = InlinePostgresParameters(sql, params);
    if (!text) return text.error();
    ResultSet rs;
    Ceilings ceilings;
    SourceRows rows(rs, 10'000'000, ceilings);
    if (auto failure = source_.write(*text, rows)) {
      return PostgresError(failure->sqlstate, failure->message, Limits{}, ceilings, failure->timed_out);
    }
    if (rows.error()) return *rows.error();
    return rs;
  }
  QuerySource source_;
};

}  // namespace

Result<std::unique_ptr<WriteSession>> OpenSourceWriteSession(const QuerySource& source) {
  if (!source.write) return MakeError(ErrorCode::kNotAllowed, "this database connection cannot write");
  return std::unique_ptr<WriteSession>(new SourceWriteSession(source));
}

std::unique_ptr<Connection> OpenQuerySource(QuerySource source) {
  return std::make_unique<SourceConnection>(std::move(source));
}

Result<std::string> InlinePostgresParameters(std::string_view sql, const std::vector<Value>& params) {
  if (params.empty()) return std::string(sql);
  auto tokens = sql::Tokenize(sql, sql::Postgres());
  if (!tokens) return tokens.error();
  std::string out;
  size_t at = 0;
  for (const sql::Token& t : *tokens) {
    if (t.kind != sql::TokenKind::kParameter || !t.text.starts_with("$")) continue;
    size_t n = 0;
    bool digits = t.text.size() > 1 && t.text.size() < 8;
    for (char c : t.text.substr(1)) {
      digits = digits && c >= '0' && c <= '9';
      n = n * 10 + static_cast<size_t>(c - '0');
    }
    if (!digits || n == 0 || n > params.size()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("the query names parameter {} but {} were given", t.text, params.size()));
    }
    out.append(sql.substr(at, t.offset - at));
    out += Literal(params[n - 1]);
    at = t.offset + t.text.size();
  }
  out.append(sql.substr(at));
  return out;
}

}  // namespace plainsql::exec
