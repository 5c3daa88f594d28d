// PostgreSQL connections through libpq: every query runs in its own READ ONLY transaction with statement_timeout,
// over the extended query protocol (one statement only), in single-row mode so the row cap bounds memory, and with a
// client-side cancel if the server does not stop the query itself.
#include <libpq-fe.h>
#include <poll.h>

#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "common/strings.h"
#include "exec/connection.h"
#include "exec/postgres_common.h"

namespace plainsql::exec {

namespace {

using Clock = std::chrono::steady_clock;

std::string FirstLine(const char* msg) {
  std::string s = msg ? msg : "";
  if (s.starts_with("ERROR:  ")) s = s.substr(8);
  size_t nl = s.find('\n');
  return std::string(Trim(nl == std::string::npos ? s : s.substr(0, nl)));
}

Value Convert(const PGresult* res, int row, int col) {
  if (PQgetisnull(res, row, col)) return Value::Null();
  return PostgresValue(PQftype(res, col), PQgetvalue(res, row, col), static_cast<size_t>(PQgetlength(res, row, col)));
}

struct ResultGuard {
  PGresult* res = nullptr;
  ~ResultGuard() { PQclear(res); }
};

class PostgresConnection final : public PostgresFamilyConnection {
 public:
  explicit PostgresConnection(PGconn* conn) : conn_(conn) {}
  ~PostgresConnection() override { PQfinish(conn_); }

  std::string identity() const override {
    return fmt::format("postgresql://{}@{}:{}/{}", PQuser(conn_), PQhost(conn_), PQport(conn_), PQdb(conn_));
  }
  std::string database_name() const override { return PQdb(conn_); }

 private:
  Result<ResultSet> Run(const std::string& sql, const Limits& limits, const std::vector<Value>& params) override;
  Status Exec(const char* command);
  Error ErrorFromResult(const PGresult* res, const Limits& limits, bool cancelled_timeout);
  void Cancel();
  void Drain();

  PGconn* conn_;
};

Status PostgresConnection::Exec(const char* command) {
  ResultGuard g{PQexec(conn_, command)};
  auto st = PQresultStatus(g.res);
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return Status::Ok();
  if (PQstatus(conn_) != CONNECTION_OK) {
    return MakeError(ErrorCode::kConnection, "lost the connection to PostgreSQL: " + FirstLine(PQerrorMessage(conn_)));
  }
  return MakeError(ErrorCode::kSql, FirstLine(PQresultErrorMessage(g.res)));
}

void PostgresConnection::Cancel() {
  PGcancel* c = PQgetCancel(conn_);
  if (!c) return;
  char err[256];
  PQcancel(c, err, sizeof err);
  PQfreeCancel(c);
}

void PostgresConnection::Drain() {
  while (PGresult* r = PQgetResult(conn_)) PQclear(r);
}

Error PostgresConnection::ErrorFromResult(const PGresult* res, const Limits& limits, bool cancelled_timeout) {
  const char* state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
  std::string msg = FirstLine(PQresultErrorMessage(res));
  if (PQstatus(conn_) != CONNECTION_OK) {
    return MakeError(ErrorCode::kConnection, "lost the connection to PostgreSQL: " + msg);
  }
  return PostgresError(state ? state : "", msg, limits, settings_.ceilings, cancelled_timeout);
}

Result<ResultSet> PostgresConnection::Run(const std::string& sql, const Limits& limits,
                                          const std::vector<Value>& params) {
  if (PQstatus(conn_) != CONNECTION_OK) PQreset(conn_);
  if (PQstatus(conn_) != CONNECTION_OK) {
    return MakeError(ErrorCode::kConnection, "lost the connection to PostgreSQL: " + FirstLine(PQerrorMessage(conn_)));
  }
  auto start = Clock::now();
  if (Status s = Exec("BEGIN TRANSACTION READ ONLY"); !s) return s.error();
  // A transaction that is left on any path below is rolled back; nothing it did can have been a write.
  struct Rollback {
    PostgresConnection* self;
    ~Rollback() {
      self->Drain();
      PGresult* r = PQexec(self->conn_, "ROLLBACK");
      PQclear(r);
    }
  } rollback{this};
  long long timeout_ms = std::max<long long>(1, limits.timeout.count());
  // Waiting for a lock counts against the same deadline, and a transaction left idle is ended by the server.
  // standard_conforming_strings: a backslash in '...' is a character, as plainsql's parser reads it; a server set to
  // the old behaviour would otherwise end a string where the guard does not.
  if (Status s = Exec(fmt::format("SET LOCAL statement_timeout = {0}; SET LOCAL lock_timeout = {0}; "
                                  "SET LOCAL idle_in_transaction_session_timeout = {1}; "
                                  "SET LOCAL standard_conforming_strings = on",
                                  timeout_ms, timeout_ms + 10'000)
                          .c_str());
      !s) {
    return s.error();
  }

  std::vector<std::string> texts;
  std::vector<const char*> values;
  std::vector<int> lengths, formats;
  texts.reserve(params.size());  // reserved up front: the pointers taken below stay valid
  for (const Value& v : params) {
    if (v.is_null()) {
      texts.emplace_back();
      values.push_back(nullptr);
      lengths.push_back(0);
      formats.push_back(0);
      continue;
    }
    bool blob = v.type() == ValueType::kBlob;
    texts.push_back(blob ? v.as_blob() : v.ToString());
    values.push_back(texts.back().c_str());
    lengths.push_back(static_cast<int>(texts.back().size()));
    formats.push_back(blob ? 1 : 0);
  }
  const std::string& query = sql;
  if (!PQsendQueryParams(conn_, query.c_str(), static_cast<int>(params.size()), nullptr, values.data(), lengths.data(),
                         formats.data(), 0)) {
    return MakeError(ErrorCode::kConnection, "could not send the query: " + FirstLine(PQerrorMessage(conn_)));
  }
  PQsetSingleRowMode(conn_);

  // The server enforces statement_timeout; the client cancels too, a little later, in case it cannot.
  auto client_deadline = start + limits.timeout +
                         std::min(limits.timeout / 2 + std::chrono::milliseconds(100), std::chrono::milliseconds(5000));
  bool cancelled_timeout = false, cancelled_for_rows = false;
  ResultSet rs;
  bool have_columns = false;
  int64_t bytes = 0;
  std::optional<Error> error;
  while (true) {
    while (PQisBusy(conn_)) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(client_deadline - Clock::now()).count();
      if (left <= 0 && !cancelled_timeout && !cancelled_for_rows) {
        cancelled_timeout = true;
        Cancel();
        client_deadline = Clock::now() + std::chrono::seconds(5);
        continue;
      }
      if (left <= 0) {
        return MakeError(ErrorCode::kConnection, "PostgreSQL did not answer a cancel request");
      }
      pollfd pfd{PQsocket(conn_), POLLIN, 0};
      int pr = poll(&pfd, 1, static_cast<int>(std::min<long long>(left, 1000)));
      if (pr < 0 && errno != EINTR) return MakeError(ErrorCode::kConnection, "poll failed on the PostgreSQL socket");
      if (!PQconsumeInput(conn_)) {
        return MakeError(ErrorCode::kConnection,
                         "lost the connection to PostgreSQL: " + FirstLine(PQerrorMessage(conn_)));
      }
    }
    ResultGuard g{PQgetResult(conn_)};
    if (!g.res) break;
    auto st = PQresultStatus(g.res);
    if (st == PGRES_SINGLE_TUPLE || st == PGRES_TUPLES_OK) {
      if (!have_columns) {
        int n = PQnfields(g.res);
        for (int i = 0; i < n; ++i) {
          rs.columns.emplace_back(PQfname(g.res, i));
          rs.column_types.push_back(PostgresTypeName(PQftype(g.res, i)));
        }
        have_columns = true;
      }
      for (int r = 0; r < PQntuples(g.res); ++r) {
        if (cancelled_for_rows) break;
        if (static_cast<int64_t>(rs.rows.size()) >= limits.max_rows) {
          rs.truncated = true;
          cancelled_for_rows = true;
          Cancel();
          // Rows the server sent before the cancel arrived are still to be read and dropped.
          client_deadline = std::max(client_deadline, Clock::now() + std::chrono::seconds(5));
          break;
        }
        Row row;
        row.reserve(rs.columns.size());
        for (int c = 0; c < PQnfields(g.res); ++c) {
          row.push_back(Convert(g.res, r, c));
          bytes += static_cast<int64_t>(sizeof(Value)) + PQgetlength(g.res, r, c);
        }
        rs.rows.push_back(std::move(row));
        if (bytes > settings_.ceilings.max_result_bytes && !error) {
          error = CeilingError("the result", "max_result_bytes", settings_.ceilings.max_result_bytes);
          cancelled_for_rows = true;
          Cancel();
          client_deadline = std::max(client_deadline, Clock::now() + std::chrono::seconds(5));
          break;
        }
      }
    } else if (st == PGRES_COMMAND_OK) {
      // Not a row-returning statement; the lexical guard makes this unreachable for plain queries.
    } else if (!error && !cancelled_for_rows) {
      error = ErrorFromResult(g.res, limits, cancelled_timeout);
    }
  }
  if (error) return *error;
  rs.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return rs;
}

}  // namespace

namespace {

// Connects with plainsql's application name and, unless the URL sets one, a 10 s connect timeout.
Result<PGconn*> ConnectPostgres(const std::string& url) {
  char* err = nullptr;
  PQconninfoOption* opts = PQconninfoParse(url.c_str(), &err);
  if (!opts) {
    std::string msg = err ? FirstLine(err) : "invalid connection URL";
    PQfreemem(err);
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("bad PostgreSQL URL {}: {}", RedactConnectionString(url), msg));
  }
  bool has_timeout = false;
  for (PQconninfoOption* o = opts; o->keyword; ++o) {
    if (std::strcmp(o->keyword, "connect_timeout") == 0 && o->val && *o->val) has_timeout = true;
  }
  PQconninfoFree(opts);
  // Keywords are applied in order, later ones winning: application_name comes first so a URL's own wins, and
  // connect_timeout is only added when the URL does not set one.
  std::vector<const char*> keys = {"application_name", "dbname"};
  std::vector<const char*> vals = {"plainsql", url.c_str()};
  if (!has_timeout) {
    keys.push_back("connect_timeout");
    vals.push_back("10");
  }
  keys.push_back(nullptr);
  vals.push_back(nullptr);
  PGconn* conn = PQconnectdbParams(keys.data(), vals.data(), /*expand_dbname=*/1);
  if (!conn) return MakeError(ErrorCode::kInternal, "out of memory creating a PostgreSQL connection");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string msg = FirstLine(PQerrorMessage(conn));
    PQfinish(conn);
    return MakeError(ErrorCode::kConnection, fmt::format("cannot connect to {}: {}", RedactConnectionString(url), msg));
  }
  // Server notices (such as "drop cascades to ...") are not plainsql's output; libpq would print them on stderr.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  return conn;
}

class PostgresWriteSession final : public WriteSession {
 public:
  explicit PostgresWriteSession(PGconn* conn) : conn_(conn) {}
  ~PostgresWriteSession() override {
    if (!committed_) PQclear(PQexec(conn_, "ROLLBACK"));
    PQfinish(conn_);
  }
  Engine engine() const override { return Engine::kPostgres; }

  Status Execute(std::string_view sql) override {
    std::string text(sql);
    ResultGuard g{PQexec(conn_, text.c_str())};
    ExecStatusType st = PQresultStatus(g.res);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
      return MakeError(ErrorCode::kSql, FirstLine(PQerrorMessage(conn_)));
    }
    return Status::Ok();
  }

  Result<std::vector<std::vector<std::string>>> Rows(std::string_view sql,
                                                     const std::vector<std::string>& params) override {
    std::string text(sql);
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const auto& p : params) values.push_back(p.c_str());
    ResultGuard g{PQexecParams(conn_, text.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                               nullptr, 0)};
    if (PQresultStatus(g.res) != PGRES_TUPLES_OK) return MakeError(ErrorCode::kSql, FirstLine(PQerrorMessage(conn_)));
    std::vector<std::vector<std::string>> out;
    for (int r = 0; r < PQntuples(g.res); ++r) {
      std::vector<std::string> row;
      row.reserve(static_cast<size_t>(PQnfields(g.res)));
      for (int c = 0; c < PQnfields(g.res); ++c) row.emplace_back(PQgetvalue(g.res, r, c));
      out.push_back(std::move(row));
    }
    return out;
  }

  Status Commit() override {
    if (Status s = Execute("COMMIT"); !s) return s;
    committed_ = true;
    return Status::Ok();
  }

 private:
  PGconn* conn_;
  bool committed_ = false;
};

}  // namespace

Result<std::unique_ptr<Connection>> OpenPostgres(const std::string& url) {
  auto conn = ConnectPostgres(url);
  if (!conn) return conn.error();
  return std::unique_ptr<Connection>(new PostgresConnection(*conn));
}

Result<std::unique_ptr<WriteSession>> OpenPostgresWriteSession(const std::string& url) {
  auto conn = ConnectPostgres(url);
  if (!conn) return conn.error();
  std::unique_ptr<WriteSession> session(new PostgresWriteSession(*conn));
  if (Status s = session->Execute("BEGIN; SET LOCAL statement_timeout = '60s'; SET LOCAL lock_timeout = '10s'"); !s) {
    return s.error();
  }
  return session;
}

}  // namespace plainsql::exec

namespace plainsql::exec {

namespace {

class PostgresStoreSession final : public StoreSession {
 public:
  PostgresStoreSession(PGconn* conn, std::string url) : conn_(conn), url_(std::move(url)) {}
  ~PostgresStoreSession() override { PQfinish(conn_); }
  Engine engine() const override { return Engine::kPostgres; }

  Status Execute(std::string_view sql) override {
    std::string text(sql);
    ResultGuard g{PQexec(conn_, text.c_str())};
    ExecStatusType st = PQresultStatus(g.res);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) return Fail();
    return Status::Ok();
  }

  Result<StoreRows> Query(std::string_view sql, const std::vector<StoreValue>& params) override {
    std::string text(sql);
    std::vector<std::string> texts(params.size());
    std::vector<const char*> values(params.size(), nullptr);
    for (size_t i = 0; i < params.size(); ++i) {
      const StoreValue& v = params[i];
      if (const auto* n = std::get_if<int64_t>(&v)) {
        texts[i] = std::to_string(*n);
      } else if (const auto* d = std::get_if<double>(&v)) {
        texts[i] = fmt::format("{}", *d);
      } else if (const auto* t = std::get_if<std::string>(&v)) {
        texts[i] = *t;
      } else {
        continue;  // NULL
      }
      values[i] = texts[i].c_str();
    }
    ResultGuard g{PQexecParams(conn_, text.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                               nullptr, 0)};
    ExecStatusType st = PQresultStatus(g.res);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) return Fail();
    StoreRows rows;
    rows.reserve(static_cast<size_t>(PQntuples(g.res)));
    for (int r = 0; r < PQntuples(g.res); ++r) {
      std::vector<std::optional<std::string>> row;
      row.reserve(static_cast<size_t>(PQnfields(g.res)));
      for (int c = 0; c < PQnfields(g.res); ++c) {
        if (PQgetisnull(g.res, r, c)) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(std::string(PQgetvalue(g.res, r, c), static_cast<size_t>(PQgetlength(g.res, r, c))));
        }
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

 private:
  Error Fail() const {
    return MakeError(ErrorCode::kIo,
                     fmt::format("{}: {}", RedactConnectionString(url_), FirstLine(PQerrorMessage(conn_))));
  }
  PGconn* conn_;
  std::string url_;
};

}  // namespace

Result<std::unique_ptr<StoreSession>> OpenPostgresStoreSession(const std::string& url) {
  auto conn = ConnectPostgres(url);
  if (!conn) return conn.error();
  std::unique_ptr<StoreSession> session(new PostgresStoreSession(*conn, url));
  // Floating-point values are sent back in their shortest exact form.
  if (Status s = session->Execute("SET statement_timeout = '60s'; SET extra_float_digits = 3"); !s) return s.error();
  return session;
}

}  // namespace plainsql::exec
