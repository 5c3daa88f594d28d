// Crosswalk files and the catalogs and rename maps derived from them (see crosswalk.h).
#include "naturalness/crosswalk.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>

#include "common/csv.h"
#include "common/file.h"
#include "common/strings.h"
#include "sql/dialect.h"

namespace plainsql::naturalness {

int LevelIndex(Level level) {
  switch (level) {
    case Level::kLow: return 1;
    case Level::kLeast: return 2;
    default: return 0;
  }
}

std::string_view LevelCode(Level level) {
  switch (level) {
    case Level::kLow: return "N2";
    case Level::kLeast: return "N3";
    default: return "N1";
  }
}

std::string_view LevelName(Level level) {
  switch (level) {
    case Level::kLow: return "Low";
    case Level::kLeast: return "Least";
    default: return "Regular";
  }
}

std::optional<Level> LevelByName(std::string_view name) {
  std::string n = ToLower(name);
  if (n == "native") return Level::kNative;
  if (n == "regular" || n == "n1") return Level::kRegular;
  if (n == "low" || n == "n2") return Level::kLow;
  if (n == "least" || n == "n3") return Level::kLeast;
  return std::nullopt;
}

Result<Level> ParseLevel(std::string_view name, std::string_view option, bool native_ok) {
  auto level = LevelByName(name);
  if (!level || (!native_ok && *level == Level::kNative)) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("{} must be N1, N2 or N3{} (Regular, Low, Least), not '{}'", option,
                                 native_ok ? " or native" : "", name));
  }
  return *level;
}

const std::string& CrosswalkEntry::At(Level level) const {
  switch (level) {
    case Level::kNative: return native;
    case Level::kRegular: return n1;
    case Level::kLow: return n2;
    case Level::kLeast: return n3;
  }
  return native;
}

const CrosswalkEntry* Crosswalk::TableEntry(const std::string& native_table, Level level) const {
  for (const auto& e : entries) {
    if (e.is_table && EqualsIgnoreCase(e.native, native_table) && !e.At(level).empty()) return &e;
  }
  return nullptr;
}

const CrosswalkEntry* Crosswalk::ColumnEntry(const std::string& native_table, const std::string& native_column,
                                             Level level) const {
  const CrosswalkEntry* any = nullptr;
  for (const auto& e : entries) {
    if (e.is_table || !EqualsIgnoreCase(e.native, native_column) || e.At(level).empty()) continue;
    if (!e.table.empty() && EqualsIgnoreCase(e.table, native_table)) return &e;  // table-specific wins
    if (e.table.empty() && !any) any = &e;
  }
  return any;
}

std::string Crosswalk::TableName(const std::string& native_table, Level level) const {
  const CrosswalkEntry* e = TableEntry(native_table, level);
  return e ? e->At(level) : native_table;
}

std::string Crosswalk::ColumnName(const std::string& native_table, const std::string& native_column,
                                  Level level) const {
  const CrosswalkEntry* e = ColumnEntry(native_table, native_column, level);
  return e ? e->At(level) : native_column;
}

namespace {

std::vector<std::string> CsvFields(const std::string& line) {
  std::vector<std::string> out = ParseCsvRecord(line);
  for (auto& f : out) f = std::string(Trim(f));
  return out;
}

}  // namespace

Result<Crosswalk> LoadCrosswalk(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read crosswalk {}", path));
  Crosswalk cw;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (n == 1 && line.starts_with("\xEF\xBB\xBF")) line = line.substr(3);  // a UTF-8 byte order mark
    if (Trim(line).empty()) continue;
    auto f = CsvFields(line);
    if (n == 1 && !f.empty() && EqualsIgnoreCase(f[0], "native_identifier")) continue;
    if (f.size() < 6) {
      return MakeError(ErrorCode::kFormat,
                       fmt::format("{}:{}: expected 6 to 8 fields (native_identifier, table_or_column, "
                                   "source_database, N1, N2, N3[, table[, N1_alternatives]]), found {}",
                                   path, n, f.size()));
    }
    CrosswalkEntry e;
    e.native = f[0];
    std::string kind = ToLower(f[1]);
    if (kind != "table" && kind != "column") {
      return MakeError(ErrorCode::kFormat,
                       fmt::format("{}:{}: table_or_column must be 'table' or 'column', not '{}'", path, n, f[1]));
    }
    e.is_table = kind == "table";
    e.database = f[2];
    e.n1 = f[3];
    e.n2 = f[4];
    e.n3 = f[5];
    if (f.size() > 6) e.table = f[6];
    if (f.size() > 7) {
      for (std::string_view a : Split(f[7], '|')) {
        if (!Trim(a).empty()) e.alternatives.emplace_back(Trim(a));
      }
    }
    cw.entries.push_back(std::move(e));
  }
  return cw;
}

namespace {

std::string& AtMutable(CrosswalkEntry& e, Level level) {
  return level == Level::kRegular ? e.n1 : level == Level::kLow ? e.n2 : e.n3;
}

// `name`, or name_2, name_3, ...: the first not in `taken` (lower case). Adds it.
std::string FreeName(const std::string& name, std::set<std::string>& taken) {
  std::string candidate = name;
  for (int k = 2; taken.count(ToLower(candidate)); ++k) candidate = fmt::format("{}_{}", name, k);
  taken.insert(ToLower(candidate));
  return candidate;
}

}  // namespace

Crosswalk ResolveCollisions(const Crosswalk& crosswalk, const sql::NameCatalog& native,
                            std::vector<std::string>* warnings) {
  Crosswalk out = crosswalk;
  auto warn = [&](std::string message) {
    if (warnings) warnings->push_back(std::move(message));
  };
  for (Level level : kLevels) {
    std::string code(LevelCode(level));
    std::set<std::string> tables;
    for (const auto& t : native.tables) {
      std::string name = out.TableName(t.name, level);
      std::string free = FreeName(name, tables);
      if (free == name) continue;
      auto it = std::find_if(out.entries.begin(), out.entries.end(),
                             [&](const CrosswalkEntry& e) { return e.is_table && EqualsIgnoreCase(e.native, t.name); });
      if (it == out.entries.end()) {
        CrosswalkEntry e;
        e.native = t.name;
        e.is_table = true;
        e.n1 = e.n2 = e.n3 = t.name;
        out.entries.push_back(std::move(e));
        it = out.entries.end() - 1;
      }
      AtMutable(*it, level) = free;
      warn(fmt::format("at {}, table {} would be named '{}' like another table: named '{}'", code, t.name, name, free));
    }
    for (const auto& t : native.tables) {
      std::set<std::string> columns;
      for (const auto& c : t.columns) {
        std::string name = out.ColumnName(t.name, c, level);
        std::string free = FreeName(name, columns);
        if (free == name) continue;
        auto own = std::find_if(out.entries.begin(), out.entries.end(), [&](const CrosswalkEntry& e) {
          return !e.is_table && EqualsIgnoreCase(e.native, c) && EqualsIgnoreCase(e.table, t.name);
        });
        if (own == out.entries.end()) {
          // A copy of the entry for any table (or of the native name), for this table alone.
          auto any = std::find_if(out.entries.begin(), out.entries.end(), [&](const CrosswalkEntry& e) {
            return !e.is_table && EqualsIgnoreCase(e.native, c) && e.table.empty();
          });
          CrosswalkEntry e;
          if (any != out.entries.end()) {
            e = *any;
          } else {
            e.native = c;
            e.n1 = e.n2 = e.n3 = c;
          }
          e.table = t.name;
          out.entries.push_back(std::move(e));
          own = out.entries.end() - 1;
        }
        AtMutable(*own, level) = free;
        warn(fmt::format("at {}, column {}.{} would be named '{}' like another column of its table: named '{}'", code,
                         t.name, c, name, free));
      }
    }
  }
  return out;
}

sql::NameCatalog NaturalCatalog(const sql::NameCatalog& native, const Crosswalk& cw, Level level) {
  sql::NameCatalog out;
  for (const auto& t : native.tables) {
    sql::CatalogTable n;
    n.schema = t.schema;
    n.name = cw.TableName(t.name, level);
    for (const auto& c : t.columns) n.columns.push_back(cw.ColumnName(t.name, c, level));
    out.tables.push_back(std::move(n));
  }
  return out;
}

sql::RenameMap ToNativeMap(const sql::NameCatalog& native, const Crosswalk& cw, Level level) {
  sql::RenameMap map;
  for (const auto& t : native.tables) {
    std::string natural_table = cw.TableName(t.name, level);
    map.tables[natural_table] = t.name;
    for (const auto& c : t.columns) map.columns[{natural_table, cw.ColumnName(t.name, c, level)}] = c;
  }
  return map;
}

std::string SerializeCrosswalk(const Crosswalk& cw) {
  const bool with_alternatives =
      std::any_of(cw.entries.begin(), cw.entries.end(), [](const auto& e) { return !e.alternatives.empty(); });
  const bool with_table = with_alternatives || std::any_of(cw.entries.begin(), cw.entries.end(),
                                                           [](const auto& e) { return !e.table.empty(); });
  std::string out = "native_identifier,table_or_column,source_database,N1_identifier,N2_identifier,N3_identifier";
  out += with_table ? ",table" : "";
  out += with_alternatives ? ",N1_alternatives\n" : "\n";
  for (const auto& e : cw.entries) {
    out += CsvField(e.native) + "," + (e.is_table ? "table" : "column") + "," + CsvField(e.database) + "," +
           CsvField(e.n1) + "," + CsvField(e.n2) + "," + CsvField(e.n3);
    if (with_table) out += "," + CsvField(e.table);
    if (with_alternatives) out += "," + CsvField(Join(e.alternatives, "|"));
    out += "\n";
  }
  return out;
}

Status SaveCrosswalk(const Crosswalk& cw, const std::string& path) {
  return WriteFileAtomically(path, SerializeCrosswalk(cw));
}

namespace {

// Whether `name` can be written bare in every dialect: a letter or '_' first, then letters, digits and '_'.
bool PlainName(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    unsigned char u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_';
  });
}

std::string Where(const CrosswalkEntry& e) {
  return e.is_table || e.table.empty() ? e.native : e.table + "." + e.native;
}

}  // namespace

std::vector<CrosswalkIssue> ValidateCrosswalk(const Crosswalk& cw, const sql::NameCatalog* native) {
  std::vector<CrosswalkIssue> out;
  // Duplicate entries: the same identifier listed twice for the same scope.
  std::map<std::string, int> seen;
  for (const auto& e : cw.entries) {
    std::string key = (e.is_table ? "t:" : "c:") + ToLower(e.table) + ":" + ToLower(e.native);
    if (++seen[key] == 2) {
      out.push_back({true, "", Where(e), fmt::format("'{}' is listed more than once", Where(e))});
    }
  }
  for (Level level : kLevels) {
    std::string code(LevelCode(level));
    for (const auto& e : cw.entries) {
      const std::string& name = e.At(level);
      if (Trim(name).empty()) {
        out.push_back({true, code, Where(e), fmt::format("'{}' has no {} name", Where(e), code)});
        continue;
      }
      if (sql::IsKeyword(name)) {
        out.push_back(
            {false, code, Where(e), fmt::format("{} name '{}' of '{}' is an SQL reserved word", code, name, Where(e))});
      } else if (!PlainName(name)) {
        out.push_back(
            {false, code, Where(e), fmt::format("{} name '{}' of '{}' must be quoted in SQL", code, name, Where(e))});
      }
      if (name.size() > 63) {
        out.push_back({false, code, Where(e),
                       fmt::format("{} name of '{}' is {} bytes; PostgreSQL keeps 63", code, Where(e), name.size())});
      }
    }
    // Collisions, on the real schema when there is one, else among the entries.
    // Without the schema, columns with no table may live in different tables: a shared name is then only a risk.
    auto collide = [&](const std::string& scope, std::map<std::string, std::vector<std::string>>& by_name,
                       bool certain) {
      for (auto& [lower, natives] : by_name) {
        std::set<std::string> distinct;  // a duplicate entry is reported above, not as a collision with itself
        for (const auto& n : natives) distinct.insert(ToLower(n));
        if (distinct.size() < 2) continue;
        out.push_back({certain, code, natives[0],
                       fmt::format("at {}, {} {} '{}'{}", code, "'" + Join(natives, "', '") + "'",
                                   certain ? "all become" : "would collide if in one table: all become", lower,
                                   scope.empty() ? "" : " in table " + scope)});
      }
    };
    std::map<std::string, std::vector<std::string>> tables;
    if (native) {
      for (const auto& t : native->tables) tables[ToLower(cw.TableName(t.name, level))].push_back(t.name);
      collide("", tables, true);
      for (const auto& t : native->tables) {
        std::map<std::string, std::vector<std::string>> columns;
        for (const auto& c : t.columns) columns[ToLower(cw.ColumnName(t.name, c, level))].push_back(t.name + "." + c);
        collide(t.name, columns, true);
      }
    } else {
      std::map<std::string, std::map<std::string, std::vector<std::string>>> columns;  // table scope -> name -> natives
      for (const auto& e : cw.entries) {
        if (Trim(e.At(level)).empty()) continue;
        if (e.is_table) {
          tables[ToLower(e.At(level))].push_back(e.native);
        } else {
          columns[ToLower(e.table)][ToLower(e.At(level))].push_back(Where(e));
        }
      }
      collide("", tables, true);
      for (auto& [scope, by_name] : columns) collide(scope, by_name, !scope.empty());
    }
  }
  if (native) {
    for (const auto& e : cw.entries) {
      bool found = false;
      for (const auto& t : native->tables) {
        if (e.is_table) {
          found |= EqualsIgnoreCase(t.name, e.native);
        } else if (e.table.empty() || EqualsIgnoreCase(e.table, t.name)) {
          found |= std::any_of(t.columns.begin(), t.columns.end(),
                               [&](const std::string& c) { return EqualsIgnoreCase(c, e.native); });
        }
      }
      if (!found) {
        out.push_back({false, "", Where(e),
                       fmt::format("'{}' ({}) is not in the schema", Where(e), e.is_table ? "table" : "column")});
      }
    }
  }
  return out;
}

}  // namespace plainsql::naturalness
