// Display text of values.
#include "exec/value.h"

#include <fmt/format.h>

#include "common/strings.h"

namespace plainsql::exec {

std::string Value::ToString() const {
  switch (type()) {
    case ValueType::kNull: return "NULL";
    case ValueType::kInteger: return std::to_string(as_integer());
    case ValueType::kReal: return fmt::format("{}", as_real());
    case ValueType::kText: return as_text();
    case ValueType::kBlob: return "\\x" + ToHex(as_blob());
  }
  return {};
}

}  // namespace plainsql::exec
