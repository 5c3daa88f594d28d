// The haystack benchmark (see haystack.h).
#include "linking/haystack.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>

#include "catalog/benchmark_schema.h"
#include "common/hash.h"
#include "common/strings.h"
#include "eval/benchmark.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/rewrite/walk.h"

namespace plainsql::linking {

namespace {

// The database's key in the maps: data set and db_id, the db_id lower-case (SNAILS pair files spell some db_ids in
// another case than its schema file).
std::string DbKey(const std::string& source, const std::string& db_id) { return source + "/" + ToLower(db_id); }

// The database train_linker holds out (bench/train_linker.cpp: hash of the db_id 0 mod 5).
bool HeldOut(const std::string& db_id) { return Hash64(db_id) % 5 == 0; }

// Names written in a query that are not tables: CTE names and aliases (lower-case).
struct LocalNames {
  std::set<std::string> ctes, aliases;
};

LocalNames CollectLocalNames(sql::Query& query) {
  LocalNames names;
  sql::Walker w;
  w.on_query = [&](sql::Query& q) {
    for (const auto& cte : q.with) names.ctes.insert(ToLower(cte.name.name));
  };
  w.on_alias = [&](sql::Identifier& id) { names.aliases.insert(ToLower(id.name)); };
  sql::Walk(query, w);
  return names;
}

}  // namespace

std::vector<HaystackSchemaFile> HaystackOptions::DefaultSchemaFiles() {
  return {{"spider", "spider/tables.json"},
          {"bird", "bird/dev_tables.json"},
          {"snails", "snails/schemas/snails_tables_Native.json"}};
}

std::vector<HaystackQuestionFile> HaystackOptions::DefaultQuestionFiles() {
  return {{"spider_dev", "spider", "spider", "spider/dev.json", false},
          {"spider_train", "spider", "spider", "spider/train.json", false},
          {"spider_train_heldout", "spider", "spider", "spider/train.json", true},
          {"bird_dev", "bird", "bird", "bird/dev.json", false},
          {"snails", "snails", "snails", "snails/pairs", false}};
}

std::string HaystackPrefix(const std::string& db_id) {
  std::string out;
  for (char ch : db_id) out += std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' ? ch : '_';
  return out + "__";
}

void AppendPrefixed(const catalog::Schema& schema, const std::string& prefix, catalog::Schema& merged) {
  for (const catalog::Table& t : schema.tables) {
    catalog::Table copy = t;
    copy.schema.clear();
    copy.name = prefix + t.name;
    for (auto& fk : copy.foreign_keys) {
      fk.ref_schema.clear();
      fk.ref_table = prefix + fk.ref_table;
    }
    merged.tables.push_back(std::move(copy));
  }
}

Result<std::string> MapGoldSql(const std::string& sql, const sql::Dialect& dialect, const catalog::Schema& schema,
                               const std::string& prefix) {
  auto parsed = sql::ParseQuery(sql, dialect);
  if (!parsed) return parsed.error();
  sql::Query query = std::move(*parsed);
  const LocalNames local = CollectLocalNames(query);
  // The schema's tables by lower-case name -> the prefixed name.
  std::map<std::string, std::string> renamed;
  for (const auto& t : schema.tables) renamed[ToLower(t.name)] = prefix + t.name;
  size_t tables = 0;
  sql::Walker w;
  w.on_table = [&](sql::TableRef& t) {
    if (t.kind != sql::TableRefKind::kTable || t.name.parts.empty()) return;
    const std::string lower = ToLower(t.name.last().name);
    if (t.name.parts.size() == 1 && local.ctes.count(lower)) return;
    auto it = renamed.find(lower);
    if (it == renamed.end()) return;
    sql::Identifier id = t.name.last();
    id.name = it->second;
    id.quote = 0;  // the printer quotes what needs quotes
    t.name.parts = {id};
    ++tables;
  };
  w.on_expr = [&](sql::Expr& e) {
    if (e.kind != sql::ExprKind::kColumn && e.kind != sql::ExprKind::kStar) return;
    const size_t qualifiers = e.kind == sql::ExprKind::kColumn ? e.name.parts.size() - 1 : e.name.parts.size();
    if (qualifiers == 0) return;
    const std::string lower = ToLower(e.name.parts[qualifiers - 1].name);
    if (local.aliases.count(lower) || local.ctes.count(lower)) return;
    auto it = renamed.find(lower);
    if (it == renamed.end()) return;
    sql::Identifier id = e.name.parts[qualifiers - 1];
    id.name = it->second;
    id.quote = 0;
    // dbo.t.c -> prefix_t.c: the namespace goes with the merge.
    e.name.parts.erase(e.name.parts.begin(), e.name.parts.begin() + static_cast<std::ptrdiff_t>(qualifiers - 1));
    e.name.parts[0] = id;
  };
  sql::Walk(query, w);
  if (tables == 0) return MakeError(ErrorCode::kNotFound, "the query reads no table of its schema");
  return sql::Print(query, sql::Sqlite());
}

Result<std::vector<std::string>> QueryTables(const std::string& sql, const sql::Dialect& dialect) {
  auto parsed = sql::ParseQuery(sql, dialect);
  if (!parsed) return parsed.error();
  sql::Query query = std::move(*parsed);
  const LocalNames local = CollectLocalNames(query);
  std::set<std::string> out;
  sql::Walker w;
  w.on_table = [&](sql::TableRef& t) {
    if (t.kind != sql::TableRefKind::kTable || t.name.parts.empty()) return;
    const std::string lower = ToLower(t.name.last().name);
    if (t.name.parts.size() == 1 && local.ctes.count(lower)) return;
    out.insert(lower);
  };
  sql::Walk(query, w);
  return std::vector<std::string>(out.begin(), out.end());
}

namespace {

// Reads the schema files into `h.schema` (all copies), recording each database's prefix under its source; `sources`
// gets each (source, db) key's schema, for mapping its questions.
Status MergeSchemaFiles(const HaystackOptions& options, Haystack& h, std::map<std::string, catalog::Schema>& sources) {
  std::set<std::string> used;  // prefixes taken (a db_id in two data sets: the later gets its data set's name)
  std::vector<std::pair<std::string, const catalog::Schema*>> order;
  for (const auto& file : options.schemas) {
    const std::string path = options.data_dir + "/" + file.path;
    auto tables = catalog::BenchmarkSchemas::Read(path);
    if (!tables) {
      h.notes.push_back(fmt::format("{}: {}", file.path, tables.error().message));
      continue;
    }
    for (const auto& id : tables->Ids()) {
      auto s = tables->Get(id);
      if (!s) {
        h.notes.push_back(fmt::format("{} {}: {}", file.path, id, s.error().message));
        continue;
      }
      std::string prefix = HaystackPrefix(id);
      if (!used.insert(ToLower(prefix)).second) prefix = HaystackPrefix(file.source + "_" + id);
      used.insert(ToLower(prefix));
      const std::string key = DbKey(file.source, id);
      h.prefixes[key] = prefix;
      sources[key] = std::move(*s);
      order.emplace_back(key, &sources[key]);
    }
  }
  if (order.empty()) return MakeError(ErrorCode::kNotFound, "no schema file could be read under " + options.data_dir);
  h.schema.database = options.db_id;
  h.schema.source = "spider";
  for (size_t copy = 1; copy <= std::max<size_t>(1, options.copies); ++copy) {
    const std::string copy_prefix = copy == 1 ? "" : fmt::format("k{}_", copy);
    for (const auto& [key, schema] : order) AppendPrefixed(*schema, copy_prefix + h.prefixes[key], h.schema);
  }
  return {};
}

// Maps one question file's questions into `h`.
void MapQuestionFile(const HaystackOptions& options, const HaystackQuestionFile& file,
                     const std::map<std::string, catalog::Schema>& sources, std::set<std::string>& haystack_tables,
                     Haystack& h) {
  auto benchmark = eval::LoadBenchmark(file.kind, options.data_dir + "/" + file.path);
  if (!benchmark) {
    h.notes.push_back(fmt::format("{}: {}", file.path, benchmark.error().message));
    return;
  }
  auto dialect = sql::DialectByName(benchmark->dialect);
  const sql::Dialect& d = dialect ? **dialect : sql::Sqlite();
  for (const auto& q : benchmark->questions) {
    if (file.held_out && !HeldOut(q.db_id)) continue;
    const std::string key = DbKey(file.source, q.db_id);
    auto schema = sources.find(key);
    if (schema == sources.end()) {
      ++h.skipped[file.set + ": no schema for the database"];
      continue;
    }
    auto mapped = MapGoldSql(q.gold_sql, d, schema->second, h.prefixes.at(key));
    if (!mapped) {
      ++h.skipped[file.set + (mapped.error().code == ErrorCode::kNotFound ? ": reads no table of its schema"
                                                                          : ": gold query does not parse")];
      continue;
    }
    // The mapped query must read haystack tables only (a name the schema file lacks would be scored as unknown).
    auto read = QueryTables(*mapped, sql::Sqlite());
    bool ok = static_cast<bool>(read);
    for (const auto& t : read ? *read : std::vector<std::string>{}) ok = ok && haystack_tables.count(t) > 0;
    if (!ok) {
      ++h.skipped[file.set + ": reads a table its schema file lacks (or does not re-parse)"];
      continue;
    }
    h.questions.push_back({file.set, schema->second.database, q.question, q.evidence, *mapped});
  }
}

}  // namespace

Result<Haystack> BuildHaystack(const HaystackOptions& options) {
  Haystack h;
  std::map<std::string, catalog::Schema> sources;
  if (auto st = MergeSchemaFiles(options, h, sources); !st) return st.error();
  std::set<std::string> haystack_tables;
  for (const auto& t : h.schema.tables) haystack_tables.insert(ToLower(t.name));
  for (const auto& file : options.questions) MapQuestionFile(options, file, sources, haystack_tables, h);
  return h;
}

nlohmann::ordered_json BenchmarkEntry(const catalog::Schema& schema, const std::string& db_id) {
  using nlohmann::ordered_json;
  ordered_json tnames = ordered_json::array(), tlabels = ordered_json::array();
  ordered_json cnames = ordered_json::array({ordered_json::array({-1, "*"})});
  ordered_json clabels = ordered_json::array({ordered_json::array({-1, "*"})});
  ordered_json types = ordered_json::array({"text"});
  ordered_json pks = ordered_json::array(), fks = ordered_json::array();
  // Column index in the file of (lower-case table, lower-case column).
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (size_t t = 0; t < schema.tables.size(); ++t) {
    const catalog::Table& table = schema.tables[t];
    tnames.push_back(table.name);
    tlabels.push_back(table.comment.empty() ? table.name : table.comment);
    for (const auto& c : table.columns) {
      index[{ToLower(table.name), ToLower(c.name)}] = cnames.size();
      cnames.push_back(ordered_json::array({t, c.name}));
      clabels.push_back(ordered_json::array({t, c.label.empty() ? c.name : c.label}));
      types.push_back(c.type.empty() ? "text" : c.type);
    }
  }
  auto at = [&](const std::string& table, const std::string& column) -> std::optional<size_t> {
    auto it = index.find({ToLower(table), ToLower(column)});
    if (it == index.end()) return std::nullopt;
    return it->second;
  };
  for (const auto& table : schema.tables) {
    ordered_json pk = ordered_json::array();
    for (const auto& c : table.primary_key) {
      if (auto i = at(table.name, c)) pk.push_back(*i);
    }
    if (pk.size() == 1) pks.push_back(pk[0]);
    if (pk.size() > 1) pks.push_back(pk);
    for (const auto& fk : table.foreign_keys) {
      const catalog::Table* ref = schema.FindTable(fk.ref_table);
      for (size_t k = 0; k < fk.columns.size(); ++k) {
        const std::string ref_col = k < fk.ref_columns.size()            ? fk.ref_columns[k]
                                    : ref && k < ref->primary_key.size() ? ref->primary_key[k]
                                                                         : "";
        auto from = at(table.name, fk.columns[k]);
        auto to = at(fk.ref_table, ref_col);
        if (from && to) fks.push_back(ordered_json::array({*from, *to}));
      }
    }
  }
  return {{"db_id", db_id},          {"table_names_original", tnames},
          {"table_names", tlabels},  {"column_names_original", cnames},
          {"column_names", clabels}, {"column_types", types},
          {"primary_keys", pks},     {"foreign_keys", fks}};
}

Result<nlohmann::ordered_json> WriteHaystack(const Haystack& h, const std::string& dir) {
  using nlohmann::ordered_json;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return MakeError(ErrorCode::kIo, fmt::format("cannot create {}: {}", dir, ec.message()));
  auto write = [&](const std::string& name, const ordered_json& j) -> Status {
    std::ofstream out(dir + "/" + name, std::ios::binary);
    out << j.dump(1) << "\n";
    if (!out) return MakeError(ErrorCode::kIo, fmt::format("cannot write {}/{}", dir, name));
    return {};
  };
  if (auto st = write("tables.json", ordered_json::array({BenchmarkEntry(h.schema, h.schema.database)})); !st) {
    return st.error();
  }
  std::map<std::string, ordered_json> sets;
  for (const auto& q : h.questions) {
    auto& set = sets[q.set];
    if (set.is_null()) set = ordered_json::array();
    set.push_back({{"db_id", h.schema.database},
                   {"question", q.question},
                   {"query", q.gold_sql},
                   {"evidence", q.evidence},
                   {"source_db", q.source_db}});
  }
  ordered_json counts = ordered_json::object();
  for (const auto& [name, questions] : sets) {
    if (auto st = write("questions_" + name + ".json", questions); !st) return st.error();
    counts[name] = questions.size();
  }
  ordered_json manifest = {{"db_id", h.schema.database}, {"tables", h.schema.tables.size()},
                           {"columns", h.ColumnCount()}, {"questions", counts},
                           {"skipped", h.skipped},       {"notes", h.notes},
                           {"prefixes", h.prefixes}};
  if (auto st = write("manifest.json", manifest); !st) return st.error();
  return manifest;
}

}  // namespace plainsql::linking
