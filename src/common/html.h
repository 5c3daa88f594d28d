// Escaping text for HTML, for the self-contained reports (eval runs, naturalness profiles).
#pragma once

#include <string>
#include <string_view>

namespace plainsql {

/// `s` with &, <, > and " written as entities: safe in element content and in double-quoted attribute values.
std::string HtmlEscape(std::string_view s);

}  // namespace plainsql
