// The binary form of a Schema (see binary_io.h). Layout: the magic "plainsql-schema\n", the version (4 bytes, little
// endian), then the fields in declaration order: a string or list as its length (LEB128) then its bytes or elements,
// a bool or enum as one byte, an optional as a presence byte then the value, an int64 as 8 bytes little endian.
// Written by hand: the format is a few dozen lines, where a serialization library (protobuf, flatbuffers) would add a
// schema compiler and a second definition of these structs to keep in step with schema.h.
#include "catalog/binary_io.h"

#include <cstring>

namespace plainsql::catalog {
namespace {

constexpr std::string_view kMagic = "plainsql-schema\n";

class Writer {
 public:
  void Size(uint64_t v) {
    do {
      auto byte = static_cast<unsigned char>(v & 0x7f);
      v >>= 7;
      out_.push_back(static_cast<char>(v ? byte | 0x80 : byte));
    } while (v);
  }
  void Str(std::string_view s) {
    Size(s.size());
    out_.append(s);
  }
  void Strs(const std::vector<std::string>& v) {
    Size(v.size());
    for (const auto& s : v) Str(s);
  }
  void Byte(unsigned v) { out_.push_back(static_cast<char>(v)); }
  void Fixed(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what Writer wrote; any overrun or bad value marks the reader failed (and reads zeros from then on).
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool AtEnd() const { return at_ == in_.size(); }
  uint64_t Size() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ >= in_.size()) return Fail();
      const auto byte = static_cast<unsigned char>(in_[at_++]);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return v;
    }
    return Fail();
  }
  std::string Str() {
    const uint64_t n = Size();
    if (n > in_.size() - at_) {
      Fail();
      return {};
    }
    std::string s(in_.substr(at_, n));
    at_ += n;
    return s;
  }
  std::vector<std::string> Strs() {
    std::vector<std::string> v(Count());
    for (auto& s : v) s = Str();
    return v;
  }
  // A list's length, refused when it could not fit in what is left (each element takes a byte at least).
  size_t Count() {
    const uint64_t n = Size();
    if (n > in_.size() - at_) return Fail();
    return n;
  }
  unsigned Byte(unsigned max) {
    if (at_ >= in_.size()) return Fail();
    const auto v = static_cast<unsigned char>(in_[at_++]);
    if (v > max) return Fail();
    return v;
  }
  uint64_t Fixed(int bytes) {
    if (in_.size() - at_ < static_cast<size_t>(bytes)) return Fail();
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(in_[at_++])) << (8 * i);
    return v;
  }

 private:
  uint64_t Fail() {
    ok_ = false;
    at_ = in_.size();
    return 0;
  }
  std::string_view in_;
  size_t at_ = 0;
  bool ok_ = true;
};

void WriteColumn(Writer& w, const Column& c) {
  w.Str(c.name);
  w.Str(c.type);
  w.Byte(static_cast<unsigned>(c.type_class));
  w.Byte(c.nullable);
  w.Byte(c.default_value.has_value());
  if (c.default_value) w.Str(*c.default_value);
  w.Str(c.comment);
  w.Str(c.label);
  w.Strs(c.samples);
}

Column ReadColumn(Reader& r) {
  Column c;
  c.name = r.Str();
  c.type = r.Str();
  c.type_class = static_cast<TypeClass>(r.Byte(static_cast<unsigned>(TypeClass::kOther)));
  c.nullable = r.Byte(1) != 0;
  if (r.Byte(1)) c.default_value = r.Str();
  c.comment = r.Str();
  c.label = r.Str();
  c.samples = r.Strs();
  return c;
}

void WriteTable(Writer& w, const Table& t) {
  w.Str(t.schema);
  w.Str(t.name);
  w.Byte(static_cast<unsigned>(t.kind));
  w.Str(t.comment);
  w.Size(t.columns.size());
  for (const auto& c : t.columns) WriteColumn(w, c);
  w.Strs(t.primary_key);
  w.Byte(t.primary_key_inferred);
  w.Size(t.foreign_keys.size());
  for (const auto& fk : t.foreign_keys) {
    w.Str(fk.name);
    w.Strs(fk.columns);
    w.Str(fk.ref_schema);
    w.Str(fk.ref_table);
    w.Strs(fk.ref_columns);
    w.Byte(fk.inferred);
  }
  w.Size(t.unique_keys.size());
  for (const auto& uk : t.unique_keys) {
    w.Str(uk.name);
    w.Strs(uk.columns);
  }
  w.Byte(t.row_count.has_value());
  if (t.row_count) w.Fixed(static_cast<uint64_t>(*t.row_count), 8);
  w.Byte(t.row_count_estimated);
  w.Str(t.definition);
}

Table ReadTable(Reader& r) {
  Table t;
  t.schema = r.Str();
  t.name = r.Str();
  t.kind = static_cast<TableKind>(r.Byte(static_cast<unsigned>(TableKind::kView)));
  t.comment = r.Str();
  t.columns.resize(r.Count());
  for (auto& c : t.columns) c = ReadColumn(r);
  t.primary_key = r.Strs();
  t.primary_key_inferred = r.Byte(1) != 0;
  t.foreign_keys.resize(r.Count());
  for (auto& fk : t.foreign_keys) {
    fk.name = r.Str();
    fk.columns = r.Strs();
    fk.ref_schema = r.Str();
    fk.ref_table = r.Str();
    fk.ref_columns = r.Strs();
    fk.inferred = r.Byte(1) != 0;
  }
  t.unique_keys.resize(r.Count());
  for (auto& uk : t.unique_keys) {
    uk.name = r.Str();
    uk.columns = r.Strs();
  }
  if (r.Byte(1)) t.row_count = static_cast<int64_t>(r.Fixed(8));
  t.row_count_estimated = r.Byte(1) != 0;
  t.definition = r.Str();
  return t;
}

}  // namespace

std::string ToBinary(const Schema& schema) {
  Writer w;
  for (char c : kMagic) w.Byte(static_cast<unsigned char>(c));
  w.Fixed(kSchemaBinaryVersion, 4);
  w.Str(schema.database);
  w.Str(schema.source);
  w.Strs(schema.namespaces);
  w.Size(schema.tables.size());
  for (const auto& t : schema.tables) WriteTable(w, t);
  return w.Take();
}

Result<Schema> FromBinary(std::string_view bytes) {
  if (bytes.size() < kMagic.size() + 4 || bytes.substr(0, kMagic.size()) != kMagic) {
    return MakeError(ErrorCode::kFormat, "not a plainsql binary schema");
  }
  Reader r(bytes.substr(kMagic.size()));
  if (r.Fixed(4) != kSchemaBinaryVersion) {
    return MakeError(ErrorCode::kFormat, "a plainsql binary schema of another version");
  }
  Schema s;
  s.database = r.Str();
  s.source = r.Str();
  s.namespaces = r.Strs();
  s.tables.resize(r.Count());
  for (auto& t : s.tables) t = ReadTable(r);
  if (!r.ok() || !r.AtEnd()) return MakeError(ErrorCode::kFormat, "a truncated or damaged plainsql binary schema");
  return s;
}

}  // namespace plainsql::catalog
