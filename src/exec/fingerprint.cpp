// Result fingerprints (see fingerprint.h).
#include "exec/fingerprint.h"

#include <algorithm>
#include <cmath>

#include "common/hash.h"

namespace plainsql::exec {

namespace {

// Type tags in the hashed stream; integral reals use the integer tag so 1.0 and 1 collide on purpose.
enum : int64_t { kTagNull = 0, kTagNumber = 1, kTagReal = 2, kTagText = 3, kTagBlob = 4 };

void HashValue(Hasher& h, const Value& v) {
  switch (v.type()) {
    case ValueType::kNull: h.Update(int64_t{kTagNull}); break;
    case ValueType::kInteger:
      h.Update(int64_t{kTagNumber});
      h.Update(v.as_integer());
      break;
    case ValueType::kReal: {
      double d = v.as_real();
      // Exactly integral and inside the int64 range (2^63 is exactly representable as a double).
      if (std::isfinite(d) && d == std::trunc(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
        h.Update(int64_t{kTagNumber});
        h.Update(static_cast<int64_t>(d));
      } else {
        h.Update(int64_t{kTagReal});
        h.UpdateDouble(d);
      }
      break;
    }
    case ValueType::kText:
      h.Update(int64_t{kTagText});
      h.Update(v.as_text());
      break;
    case ValueType::kBlob:
      h.Update(int64_t{kTagBlob});
      h.Update(v.as_blob());
      break;
  }
}

std::string RowHash(const Row& row) {
  Hasher h;
  h.Update(static_cast<int64_t>(row.size()));
  for (const Value& v : row) HashValue(h, v);
  return h.HexDigest();
}

}  // namespace

std::string ValueKey(const Value& v) {
  switch (v.type()) {
    case ValueType::kNull: return "n";
    case ValueType::kInteger: return "i" + std::to_string(v.as_integer());
    case ValueType::kReal: {
      double d = v.as_real();
      if (std::isfinite(d) && d == std::trunc(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
        return "i" + std::to_string(static_cast<int64_t>(d));
      }
      return "r" + v.ToString();
    }
    case ValueType::kText: return "t" + v.as_text();
    case ValueType::kBlob: return "b" + v.as_blob();
  }
  return "n";
}

std::string OrderedFingerprint(const ResultSet& rs) {
  Hasher h;
  h.Update("ordered");
  h.Update(static_cast<int64_t>(rs.columns.size()));
  for (const Row& row : rs.rows) h.Update(RowHash(row));
  return h.HexDigest();
}

std::string MultisetFingerprint(const ResultSet& rs) {
  std::vector<std::string> hashes;
  hashes.reserve(rs.rows.size());
  for (const Row& row : rs.rows) hashes.push_back(RowHash(row));
  std::sort(hashes.begin(), hashes.end());
  Hasher h;
  h.Update("multiset");
  h.Update(static_cast<int64_t>(rs.columns.size()));
  for (const auto& s : hashes) h.Update(s);
  return h.HexDigest();
}

}  // namespace plainsql::exec
