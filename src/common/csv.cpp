// CSV records (see csv.h).
#include "common/csv.h"

#include "common/strings.h"

namespace plainsql {

std::vector<std::vector<std::string>> ParseCsv(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record(1);
  bool quoted = false, any = false;  // `any`: the record has a character or a separator
  auto end_record = [&] {
    if (any) records.push_back(std::move(record));
    record.assign(1, std::string());
    any = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        record.back().push_back('"');
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        record.back().push_back(c);
      }
      continue;
    }
    if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;  // CRLF ends the record at its LF
    if (c == '\n') {
      end_record();
      continue;
    }
    any = true;
    if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.emplace_back();
    } else {
      record.back().push_back(c);
    }
  }
  end_record();
  return records;
}

std::vector<std::string> ParseCsvRecord(std::string_view line) {
  auto records = ParseCsv(line);
  if (records.empty()) return {std::string()};  // an empty line: one empty field
  return std::move(records[0]);
}

std::string CsvField(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  return "\"" + ReplaceAll(s, "\"", "\"\"") + "\"";
}

}  // namespace plainsql
