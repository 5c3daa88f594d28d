// Renderings of a result set for people (aligned table) and programs (CSV, JSON).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "exec/value.h"

namespace plainsql::exec {

enum class ResultFormat { kTable, kCsv, kJson };

/// Aligned columns with a header rule and a "(N rows)" footer; numbers right-aligned, NULL shown as NULL, control
/// characters inside text escaped so each row stays on one line.
std::string RenderTable(const ResultSet& rs);
/// RFC 4180 CSV with a header row; NULL is an empty field, blobs are \x<hex>.
std::string RenderCsv(const ResultSet& rs);
/// {"columns": [...], "column_types": [...], "rows": [[...]], "row_count": N, "truncated": bool}, keys in that order.
/// NULL is null, integers and reals are numbers (non-finite reals are null), blobs are "\x<hex>" strings.
nlohmann::ordered_json ResultToJson(const ResultSet& rs);
nlohmann::ordered_json ValueToJson(const Value& v);

std::string Render(const ResultSet& rs, ResultFormat format);

}  // namespace plainsql::exec
