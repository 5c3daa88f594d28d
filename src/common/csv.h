// CSV (RFC 4180): one record at a time, as the crosswalk, naturalness and report files use it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace plainsql {

/// The fields of one CSV record; `line` is without its line ending. Quoted fields may hold commas and doubled quotes
/// (not line breaks). Fields are returned as written, without trimming.
std::vector<std::string> ParseCsvRecord(std::string_view line);

/// Every record of a CSV document: quoted fields may hold line breaks; records end at LF or CRLF; a leading UTF-8
/// byte-order mark is skipped and blank lines give no record. Fields are returned as written, without trimming.
std::vector<std::vector<std::string>> ParseCsv(std::string_view text);

/// A field quoted for CSV when it needs to be (comma, quote, CR or LF inside).
std::string CsvField(std::string_view s);

}  // namespace plainsql
