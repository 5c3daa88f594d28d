// Data dictionaries (see dictionary.h).
#include "catalog/dictionary.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

#include "common/csv.h"
#include "common/file.h"
#include "common/strings.h"

namespace plainsql::catalog {

namespace fs = std::filesystem;

namespace {

// One line: runs of spaces become one space, line breaks "; " (a value description lists one code per line).
std::string OneLine(std::string_view s) {
  std::string out;
  bool space = false, brk = false;
  for (char c : Trim(s)) {
    if (c == '\n' || c == '\r') {
      brk = true;
    } else if (c == ' ' || c == '\t') {
      space = true;
    } else {
      if (brk && !out.empty() && out.back() != ';' && out.back() != '.' && out.back() != ':') out += ";";
      if ((brk || space) && !out.empty()) out += ' ';
      brk = space = false;
      out.push_back(c);
    }
  }
  return out;
}

// Cut to at most `max` bytes at a character boundary, marked with an ellipsis.
std::string Cut(std::string s, size_t max) {
  if (s.size() <= max) return s;
  size_t n = max - 3;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  s.resize(n);
  return s + "\xE2\x80\xA6";
}

// The place of each known field in a header row.
struct Fields {
  std::optional<size_t> table, column, label, description, values;
};

// Header fields and names are compared by their letters and digits (LowerAlnum: "Original Column Name" =
// "original_column_name"; "Account ID" repeats "account_id").
Fields ReadHeader(const std::vector<std::string>& header) {
  std::map<std::string, size_t> at;
  for (size_t i = 0; i < header.size(); ++i) at.emplace(LowerAlnum(header[i]), i);
  auto find = [&](std::initializer_list<const char*> names) -> std::optional<size_t> {
    for (const char* n : names) {
      auto it = at.find(n);
      if (it != at.end()) return it->second;
    }
    return std::nullopt;
  };
  Fields f;
  f.table = find({"table", "tablename"});
  f.column = find({"originalcolumnname", "column", "columnname"});
  if (f.column && header.size() > *f.column && LowerAlnum(header[*f.column]) == "originalcolumnname") {
    f.label = find({"columnname", "label"});
  } else {
    f.label = find({"label", "readablename"});
  }
  f.description = find({"columndescription", "description"});
  f.values = find({"valuedescription", "values"});
  return f;
}

std::string Field(const std::vector<std::string>& row, std::optional<size_t> at) {
  return at && *at < row.size() ? std::string(Trim(row[*at])) : std::string();
}

ColumnNote NoteOf(const std::string& column, const std::string& label, const std::string& description,
                  const std::string& values) {
  ColumnNote note;
  const std::string name = LowerAlnum(column);
  if (!label.empty() && LowerAlnum(label) != name) note.label = OneLine(label);
  std::string d = OneLine(description);
  if (LowerAlnum(d) == name || (!note.label.empty() && LowerAlnum(d) == LowerAlnum(note.label))) d.clear();
  std::string v = OneLine(values);
  if (!d.empty() && !v.empty()) d += (d.back() == '.' ? " " : ". ");
  note.description = Cut(d + v, DataDictionary::kMaxDescriptionBytes);
  return note;
}

}  // namespace

Status DataDictionary::AddFile(const std::string& file, const std::string& table_from_name) {
  auto text = ReadFileToString(file);
  if (!text) return text.error();
  if (!IsUtf8(*text)) *text = Windows1252ToUtf8(*text);
  std::vector<std::vector<std::string>> rows = ParseCsv(*text);
  if (rows.empty()) return Status::Ok();  // an empty file says nothing
  Fields f = ReadHeader(rows[0]);
  if (!f.column) {
    return MakeError(ErrorCode::kFormat,
                     file + ": no column field in the header (original_column_name, column or column_name)");
  }
  if (table_from_name.empty() && !f.table) {
    return MakeError(ErrorCode::kFormat, file + ": a dictionary file needs a table field (table or table_name)");
  }
  for (size_t r = 1; r < rows.size(); ++r) {
    const auto& row = rows[r];
    std::string table = table_from_name.empty() ? Field(row, f.table) : table_from_name;
    std::string column = Field(row, f.column);
    if (table.empty()) continue;
    if (column.empty()) {
      std::string d = OneLine(Field(row, f.description));
      if (!d.empty()) tables_[ToLower(table)] = Cut(d, kMaxDescriptionBytes);
      continue;
    }
    ColumnNote note = NoteOf(column, Field(row, f.label), Field(row, f.description), Field(row, f.values));
    if (note.label.empty() && note.description.empty()) continue;
    columns_[ToLower(table)].emplace(ToLower(column), std::move(note));  // the first row of a repeated column wins
  }
  return Status::Ok();
}

Result<DataDictionary> DataDictionary::Read(const std::string& path) {
  std::error_code ec;
  DataDictionary out;
  if (fs::is_directory(path, ec)) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
      if (entry.is_regular_file(ec) && ToLower(entry.path().extension().string()) == ".csv") {
        files.push_back(entry.path());
      }
    }
    if (ec) return MakeError(ErrorCode::kIo, path + ": " + ec.message());
    if (files.empty()) return MakeError(ErrorCode::kFormat, path + ": no .csv file in the dictionary folder");
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      if (Status st = out.AddFile(file.string(), TrimmedCopy(file.stem().string())); !st.ok()) return st.error();
    }
    return out;
  }
  if (!fs::exists(path, ec)) return MakeError(ErrorCode::kNotFound, "no data dictionary at " + path);
  if (Status st = out.AddFile(path, ""); !st.ok()) return st.error();
  return out;
}

const ColumnNote* DataDictionary::Find(const std::string& table, const std::string& column) const {
  auto t = columns_.find(ToLower(Trim(table)));
  if (t == columns_.end()) return nullptr;
  auto c = t->second.find(ToLower(Trim(column)));
  return c == t->second.end() ? nullptr : &c->second;
}

size_t DataDictionary::Apply(Schema& schema) const {
  size_t described = 0;
  for (Table& table : schema.tables) {
    auto td = tables_.find(ToLower(table.name));
    if (table.comment.empty() && td != tables_.end()) table.comment = td->second;
    for (Column& column : table.columns) {
      const ColumnNote* note = Find(table.name, column.name);
      if (!note) continue;
      bool used = false;
      if (column.label.empty() && !note->label.empty()) {
        column.label = note->label;
        used = true;
      }
      if (column.comment.empty() && !note->description.empty()) {
        column.comment = note->description;
        used = true;
      }
      described += used ? 1 : 0;
    }
  }
  return described;
}

std::string DataDictionaryBeside(const std::string& sqlite_file) {
  if (sqlite_file.empty()) return "";
  std::error_code ec;
  fs::path dir = fs::path(sqlite_file).parent_path() / "database_description";
  return fs::is_directory(dir, ec) ? dir.string() : "";
}

std::string DataDictionaryBeside(const exec::Connection& conn) {
  if (conn.engine() != exec::Engine::kSqlite) return "";
  auto info = exec::ParseConnectionString(conn.identity());  // "sqlite:" and the absolute path
  return info ? DataDictionaryBeside(info->target) : "";
}

Result<size_t> ApplyDataDictionary(const std::string& path, Schema& schema) {
  auto dictionary = DataDictionary::Read(path);
  if (!dictionary) return dictionary.error();
  return dictionary->Apply(schema);
}

std::string DataDictionaryIn(const std::string& db_dir, const std::string& db_id) {
  if (db_dir.empty()) return "";
  std::error_code ec;
  fs::path dir = fs::path(db_dir) / db_id / "database_description";
  return fs::is_directory(dir, ec) ? dir.string() : "";
}

}  // namespace plainsql::catalog
