// Parse-and-print (see transpile.h).
#include "sql/transpile.h"

#include "sql/parser.h"

namespace plainsql::sql {

Result<std::string> Transpile(std::string_view sql, const Dialect& from, const Dialect& to,
                              const PrintOptions& options) {
  auto q = ParseQuery(sql, from);
  if (!q) return q.error();
  return Print(*q, to, options);
}

std::string OneLineMessage(const Error& error) {
  const std::string& m = error.message;
  size_t nl = m.find('\n');
  std::string line = nl == std::string::npos ? m : m.substr(0, nl);
  if (!line.empty() && line.back() == ':') line.pop_back();
  return line;
}

}  // namespace plainsql::sql
