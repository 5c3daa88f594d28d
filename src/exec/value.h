// Typed values and result sets returned by read-only execution.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace plainsql::exec {

enum class ValueType { kNull, kInteger, kReal, kText, kBlob };

/// Bytes of a BLOB (SQLite) or bytea (PostgreSQL) value.
struct Blob {
  std::string bytes;
  bool operator==(const Blob&) const = default;
};

/// One cell: NULL, a 64-bit integer, a double, UTF-8 text or a blob. Booleans are integers 0/1, as in SQLite.
class Value {
 public:
  Value() = default;
  static Value Null() { return Value(); }
  static Value Integer(int64_t v) { return Value(Data(v)); }
  static Value Real(double v) { return Value(Data(v)); }
  static Value Text(std::string v) { return Value(Data(std::move(v))); }
  static Value MakeBlob(std::string bytes) { return Value(Data(Blob{std::move(bytes)})); }

  ValueType type() const { return static_cast<ValueType>(data_.index()); }
  bool is_null() const { return type() == ValueType::kNull; }
  int64_t as_integer() const { return std::get<int64_t>(data_); }
  double as_real() const { return std::get<double>(data_); }
  const std::string& as_text() const { return std::get<std::string>(data_); }
  const std::string& as_blob() const { return std::get<Blob>(data_).bytes; }

  /// Display text: NULL as "NULL", reals in shortest round-trip form, blobs as \x<hex>.
  std::string ToString() const;
  /// ToString(), except that NULL gives "" (for reading catalog rows, where NULL means "none").
  std::string ToStringOrEmpty() const { return is_null() ? std::string() : ToString(); }

  bool operator==(const Value&) const = default;

 private:
  using Data = std::variant<std::monostate, int64_t, double, std::string, Blob>;
  explicit Value(Data d) : data_(std::move(d)) {}
  Data data_;
};

using Row = std::vector<Value>;

struct ResultSet {
  std::vector<std::string> columns;       // result column names, as the database reports them
  std::vector<std::string> column_types;  // declared or reported type of each column ("" if unknown)
  std::vector<Row> rows;
  bool truncated = false;  // more rows existed than the row cap allowed
  double elapsed_ms = 0;   // wall time of the query, including fetching
};

}  // namespace plainsql::exec
