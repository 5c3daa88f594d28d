// Spider / BIRD / SNAILS tables.json entries -> Schema.
#include "catalog/benchmark_schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "common/strings.h"

namespace plainsql::catalog {

using nlohmann::json;

Result<json> ReadJsonFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read {}: no such file or not readable", path));
  std::stringstream buf;
  buf << in.rdbuf();
  json j = json::parse(buf.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return MakeError(ErrorCode::kFormat, fmt::format("{} is not valid JSON", path));
  return j;
}

namespace {

// How well the keys of an entry read when their indexes are taken `shift` columns later: foreign keys joining
// like-named columns and columns of one type class count for the reading; keys naming the "*" entry or a table's own
// column against it count against it.
struct KeyReading {
  size_t fks = 0, same_name = 0, same_type = 0, star = 0, self = 0;
  bool in_range = true;
};

KeyReading ReadKeysShifted(const json& e, const json& cnames, const json& types, size_t type_shift, size_t shift) {
  KeyReading r;
  const size_t n = cnames.size();
  auto index = [&](const json& idx) -> std::optional<size_t> {
    if (!idx.is_number_unsigned() && !idx.is_number_integer()) return std::nullopt;
    const auto i = idx.get<int64_t>();
    if (i < 0 || static_cast<size_t>(i) + shift >= n) return std::nullopt;
    return static_cast<size_t>(i) + shift;
  };
  auto type_of = [&](size_t i) {
    return i >= type_shift ? ClassifyType(types[i - type_shift].get<std::string>()) : TypeClass::kOther;
  };
  for (const auto& pk : e.at("primary_keys")) {
    for (const auto& p : pk.is_array() ? pk : json::array({pk})) {
      auto i = index(p);
      if (!i)
        r.in_range = false;
      else if (*i == 0)
        ++r.star;
    }
  }
  for (const auto& fk : e.at("foreign_keys")) {
    auto a = index(fk.at(0)), b = index(fk.at(1));
    if (!a || !b) {
      r.in_range = false;
      continue;
    }
    if (*a == 0 || *b == 0) {
      ++r.star;
      continue;
    }
    ++r.fks;
    const std::string x = LowerAlnum(cnames[*a].at(1).get<std::string>());
    const std::string y = LowerAlnum(cnames[*b].at(1).get<std::string>());
    if (!x.empty() && !y.empty() && (x.ends_with(y) || y.ends_with(x))) ++r.same_name;
    if (type_of(*a) == type_of(*b)) ++r.same_type;
    if (cnames[*a].at(0) == cnames[*b].at(0)) ++r.self;
  }
  return r;
}

// Whether the entry's keys index the columns as if the "*" entry were not there (an exporter's off-by-one: the SNAILS
// schema file does so in the five schemas that declare keys, as it does for its column types), and the two readings
// that say so. Read so only when that reading is at least as good on every count and better on one: a file whose keys
// are right keeps them.
struct KeyShift {
  size_t shift = 0;
  KeyReading as_written, shifted;
};

KeyShift KeyIndexShift(const json& e, const json& cnames, const json& types, size_t type_shift) {
  KeyShift k;
  if (cnames.empty() || cnames[0].at(0).get<int>() >= 0) return k;
  k.as_written = ReadKeysShifted(e, cnames, types, type_shift, 0);
  k.shifted = ReadKeysShifted(e, cnames, types, type_shift, 1);
  const KeyReading& a = k.as_written;
  const KeyReading& b = k.shifted;
  if (!a.in_range || !b.in_range) return k;
  const bool no_worse =
      b.same_name >= a.same_name && b.same_type >= a.same_type && b.star <= a.star && b.self <= a.self;
  const bool better = b.same_name > a.same_name || b.same_type > a.same_type || b.star < a.star || b.self < a.self;
  k.shift = no_worse && better ? 1 : 0;
  return k;
}

}  // namespace

Result<Schema> SchemaFromBenchmarkEntry(const json& e, std::vector<std::string>* warnings) {
  try {
    Schema s;
    s.database = e.at("db_id").get<std::string>();
    s.source = "spider";
    const json& tnames = e.at("table_names_original");
    const json& cnames = e.at("column_names_original");
    const json& types = e.at("column_types");
    const json* labels = e.contains("column_names") ? &e.at("column_names") : nullptr;
    // Spider and BIRD give the "*" pseudo-column a type too; SNAILS's file does not, so its types start one later.
    size_t type_shift = 0;
    if (types.size() + 1 == cnames.size() && !cnames.empty() && cnames[0].at(0).get<int>() < 0) {
      type_shift = 1;
    } else if (cnames.size() != types.size()) {
      return MakeError(ErrorCode::kFormat,
                       fmt::format("{}: column_names_original and column_types differ in length", s.database));
    }
    for (const auto& t : tnames) {
      Table table;
      table.name = t.get<std::string>();
      s.tables.push_back(std::move(table));
    }
    // Column i of the file -> (table index, column index in that table). Entry 0 is the "*" pseudo-column.
    std::vector<std::pair<int, int>> where(cnames.size(), {-1, -1});
    for (size_t i = 0; i < cnames.size(); ++i) {
      int ti = cnames[i].at(0).get<int>();
      if (ti < 0) continue;
      if (static_cast<size_t>(ti) >= s.tables.size()) {
        return MakeError(ErrorCode::kFormat,
                         fmt::format("{}: column {} names table {} of {}", s.database, i, ti, s.tables.size()));
      }
      Column c;
      c.name = cnames[i].at(1).get<std::string>();
      c.type = types[i - type_shift].get<std::string>();
      c.type_class = ClassifyType(c.type);
      if (labels && i < labels->size()) c.label = (*labels)[i].at(1).get<std::string>();
      where[i] = {ti, static_cast<int>(s.tables[static_cast<size_t>(ti)].columns.size())};
      s.tables[static_cast<size_t>(ti)].columns.push_back(std::move(c));
    }
    const KeyShift keys = KeyIndexShift(e, cnames, types, type_shift);
    const size_t key_shift = keys.shift;
    auto col = [&](const json& idx) -> std::pair<int, int> {
      size_t i = idx.get<size_t>() + key_shift;
      if (i >= where.size()) throw std::out_of_range(fmt::format("column index {} of {}", i, where.size()));
      return where[i];  // {-1, -1} for the "*" pseudo-column
    };
    auto is_star = [](std::pair<int, int> w) { return w.first < 0; };
    auto warn = [&](std::string message) {
      if (warnings) warnings->push_back(fmt::format("{}: {}", s.database, std::move(message)));
    };
    auto col_name = [&](std::pair<int, int> w) -> const std::string& {
      return s.tables[static_cast<size_t>(w.first)].columns[static_cast<size_t>(w.second)].name;
    };
    if (key_shift) {
      warn(fmt::format(
          "the keys index the columns as if there were no \"*\" entry: read one column later ({} of {} foreign keys "
          "then join like-named columns, {} as written; {} of one type, {} as written)",
          keys.shifted.same_name, keys.shifted.fks, keys.as_written.same_name, keys.shifted.same_type,
          keys.as_written.same_type));
    }
    // primary_keys: a column index, or a list of indexes for a composite key.
    for (const auto& pk : e.at("primary_keys")) {
      std::vector<json> parts = pk.is_array() ? std::vector<json>(pk.begin(), pk.end()) : std::vector<json>{pk};
      if (parts.empty()) continue;
      if (std::any_of(parts.begin(), parts.end(), [&](const json& p) { return is_star(col(p)); })) {
        warn(fmt::format("primary key {} names column 0, the \"*\" pseudo-column; skipped", pk.dump()));
        continue;
      }
      Table& t = s.tables[static_cast<size_t>(col(parts[0]).first)];
      t.primary_key.clear();
      for (const auto& p : parts) t.primary_key.push_back(col_name(col(p)));
    }
    // foreign_keys: [from, to] column pairs. Group pairs by (from table, to table) to rebuild composite keys.
    std::map<std::pair<int, int>, std::vector<std::pair<std::pair<int, int>, std::pair<int, int>>>> groups;
    std::vector<std::pair<int, int>> group_order;
    for (const auto& fk : e.at("foreign_keys")) {
      auto from = col(fk.at(0));
      auto to = col(fk.at(1));
      if (is_star(from) || is_star(to)) {
        warn(fmt::format("foreign key {} names column 0, the \"*\" pseudo-column; skipped", fk.dump()));
        continue;
      }
      auto key = std::make_pair(from.first, to.first);
      if (!groups.count(key)) group_order.push_back(key);
      groups[key].push_back({from, to});
    }
    for (const auto& key : group_order) {
      auto& pairs = groups[key];
      Table& from_table = s.tables[static_cast<size_t>(key.first)];
      const Table& to_table = s.tables[static_cast<size_t>(key.second)];
      std::set<std::string> ref_cols, from_cols;
      for (auto& [f, t] : pairs) {
        ref_cols.insert(col_name(t));
        from_cols.insert(col_name(f));
      }
      std::set<std::string> pk(to_table.primary_key.begin(), to_table.primary_key.end());
      bool composite =
          pairs.size() > 1 && pk.size() == pairs.size() && ref_cols == pk && from_cols.size() == pairs.size();
      if (composite) {
        ForeignKey fk;
        fk.ref_table = to_table.name;
        for (const auto& pk_col : to_table.primary_key) {  // in the referenced key's order
          for (auto& [f, t] : pairs) {
            if (col_name(t) == pk_col) {
              fk.columns.push_back(col_name(f));
              fk.ref_columns.push_back(pk_col);
            }
          }
        }
        from_table.foreign_keys.push_back(std::move(fk));
      } else {
        for (auto& [f, t] : pairs) {
          from_table.foreign_keys.push_back(ForeignKey{"", {col_name(f)}, "", to_table.name, {col_name(t)}});
        }
      }
    }
    return s;
  } catch (const std::exception& ex) {
    std::string id =
        e.is_object() && e.contains("db_id") && e["db_id"].is_string() ? e["db_id"].get<std::string>() : "?";
    return MakeError(ErrorCode::kFormat, fmt::format("tables.json entry {}: {}", id, ex.what()));
  }
}

Result<Schema> LoadBenchmarkSchema(const std::string& path, const std::string& db_id,
                                   std::vector<std::string>* warnings) {
  auto j = ReadJsonFile(path);
  if (!j) return j.error();
  if (!j->is_array()) return MakeError(ErrorCode::kFormat, fmt::format("{}: expected a JSON array of schemas", path));
  for (const auto& e : *j) {
    if (e.is_object() && e.value("db_id", "") == db_id) return SchemaFromBenchmarkEntry(e, warnings);
  }
  return MakeError(ErrorCode::kNotFound, fmt::format("{} has no database with db_id \"{}\"", path, db_id));
}

Result<std::vector<std::string>> ListBenchmarkDatabases(const std::string& path) {
  auto j = ReadJsonFile(path);
  if (!j) return j.error();
  if (!j->is_array()) return MakeError(ErrorCode::kFormat, fmt::format("{}: expected a JSON array of schemas", path));
  std::vector<std::string> ids;
  for (const auto& e : *j) {
    if (e.is_object() && e.contains("db_id") && e["db_id"].is_string()) ids.push_back(e["db_id"].get<std::string>());
  }
  return ids;
}

Result<BenchmarkSchemas> BenchmarkSchemas::Read(const std::string& path) {
  BenchmarkSchemas t;
  if (path.empty()) return t;
  auto j = ReadJsonFile(path);
  if (!j) return j.error();
  if (!j->is_array()) return MakeError(ErrorCode::kFormat, fmt::format("{} is not a tables.json (a JSON list)", path));
  for (auto& entry : *j) {
    if (entry.is_object() && entry.contains("db_id") && entry["db_id"].is_string()) {
      t.order_.push_back(entry["db_id"].get<std::string>());
      t.entries_[t.order_.back()] = std::move(entry);
    }
  }
  t.path_ = path;
  return t;
}

Result<Schema> BenchmarkSchemas::Get(const std::string& db_id, std::vector<std::string>* warnings) const {
  auto it = entries_.find(db_id);
  if (it == entries_.end()) {
    // A question file may spell a database's name in another case (SNAILS names one file
    // `pacificislandlandbirds.sql` for the schema `PacificIslandLandbirds`): a single match ignoring case is it.
    const std::string lower = ToLower(db_id);
    auto found = entries_.end();
    for (auto e = entries_.begin(); e != entries_.end(); ++e) {
      if (ToLower(e->first) != lower) continue;
      if (found != entries_.end()) {
        found = entries_.end();  // two names differing only in case: neither is chosen
        break;
      }
      found = e;
    }
    it = found;
  }
  if (it == entries_.end()) {
    return MakeError(ErrorCode::kNotFound,
                     path_.empty() ? "no --tables" : fmt::format("{} has no db_id '{}'", path_, db_id));
  }
  return SchemaFromBenchmarkEntry(it->second, warnings);
}

}  // namespace plainsql::catalog
