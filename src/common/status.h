// Errors as values: every expected failure (bad input, unreachable server, refused statement, timeout) is returned
// as an Error with a code and a message a user can act on. Exceptions are kept for programmer errors.
#pragma once

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace plainsql {

/// What kind of failure an Error is. Programs map these to exit codes (see ExitCodeFor).
enum class ErrorCode {
  kInvalidArgument,  // malformed input from the caller: bad option value, bad connection string
  kNotFound,         // a named file, database, table or schema does not exist
  kConnection,       // could not open or reach the database, or authentication failed
  kNotReadOnly,      // a statement was refused because it is not a single read-only query
  kNotAllowed,       // a query names a relation or calls a function the access policy does not allow
  kResourceLimit,    // a query was stopped at a ceiling (value size, result size, memory)
  kSql,              // the database rejected the statement (syntax error, unknown column, ...)
  kTimeout,          // the statement ran past its time limit and was stopped
  kIo,               // a local file could not be read or written
  kFormat,           // a file was read but its content is not in the expected format
  kInternal,         // a bug: should not happen
};

/// A short stable name for an error code ("connection", "not_read_only", ...), used in JSON output.
std::string_view ErrorCodeName(ErrorCode code);

/// The process exit status a program should return for an error of this code. Documented in docs/CLI.md.
int ExitCodeFor(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
};

/// Either a value or an Error. Must be checked before use.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : data_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(data_); }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<T>(data_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<T>(data_);
  }
  T&& value() && {
    assert(ok());
    return std::get<T>(std::move(data_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const {
    assert(!ok());
    return std::get<Error>(data_);
  }

 private:
  std::variant<T, Error> data_;
};

/// Success or an Error, for operations that return nothing.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT(google-explicit-constructor)
  static Status Ok() { return Status(); }

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const {
    assert(!ok_);
    return error_;
  }

 private:
  Error error_;
  bool ok_ = true;
};

inline Error MakeError(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

}  // namespace plainsql
