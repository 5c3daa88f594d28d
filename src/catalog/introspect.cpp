// Engine dispatch, and the per-table work both engines share: row counts and sampled distinct values.
#include "catalog/introspect.h"

#include <fmt/format.h>

#include <set>

#include "sql/dialect.h"

namespace plainsql::catalog {

namespace {

// Samples are for prompts and people: a value longer than this is cut (at a UTF-8 boundary) and marked with "...".
constexpr size_t kMaxSampleBytes = 120;

std::string Shorten(std::string s) {
  if (s.size() <= kMaxSampleBytes) return s;
  size_t cut = kMaxSampleBytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

std::string QualifiedName(const exec::Connection& conn, const Table& t) {
  const sql::Dialect& d = conn.dialect();
  std::string name = sql::AlwaysQuoteIdentifier(d, t.name);
  return t.schema.empty() ? name : sql::AlwaysQuoteIdentifier(d, t.schema) + "." + name;
}

}  // namespace

Result<Schema> Introspect(exec::Connection& conn, const IntrospectOptions& options,
                          std::vector<std::string>* warnings) {
  if (conn.engine() == exec::Engine::kPostgres) return IntrospectPostgres(conn, options, warnings);
  if (!options.schema_filter.empty() && options.schema_filter != "main") {
    return MakeError(
        ErrorCode::kInvalidArgument,
        fmt::format("a SQLite database has one schema, \"main\"; there is no \"{}\"", options.schema_filter));
  }
  return IntrospectSqlite(conn, options, warnings);
}

Result<std::string> CatalogDigest(exec::Connection& conn, const IntrospectOptions& options) {
  if (conn.engine() == exec::Engine::kPostgres) return PostgresCatalogDigest(conn, options);
  return SqliteCatalogDigest(conn, options);
}

void CollectCountsAndSamples(exec::Connection& conn, const IntrospectOptions& options, Schema& schema,
                             std::vector<std::string>* warnings, bool count_views) {
  auto warn = [&](const Table& t, const char* what, const Error& e) {
    if (warnings) warnings->push_back(fmt::format("{} {} skipped: {}", what, DisplayName(schema, t), e.message));
  };
  exec::Limits count_limits{options.per_table_timeout, 1};
  const size_t total = schema.tables.size();
  for (size_t ti = 0; ti < total; ++ti) {
    Table& t = schema.tables[ti];
    std::string from = QualifiedName(conn, t);
    if (options.row_counts && (t.kind == TableKind::kTable || count_views) && !t.row_count) {
      auto rs = conn.QueryInternal("SELECT count(*) FROM " + from, count_limits);
      if (rs)
        t.row_count = rs->rows.at(0).at(0).as_integer();
      else
        warn(t, "row count of", rs.error());
    }
    if (options.samples > 0 && !t.columns.empty() && t.row_count.value_or(1) != 0) {
      exec::Limits limits{options.per_table_timeout, options.sample_scan_rows};
      auto rs = conn.QueryInternal(fmt::format("SELECT * FROM {} LIMIT {}", from, options.sample_scan_rows), limits);
      if (!rs) {
        warn(t, "samples of", rs.error());
        if (options.progress) options.progress(ti + 1, total);
        continue;
      }
      size_t ncol = std::min(rs->columns.size(), t.columns.size());
      std::vector<std::set<std::string>> seen(ncol);
      for (const auto& row : rs->rows) {
        for (size_t c = 0; c < ncol; ++c) {
          const exec::Value& v = row[c];
          if (v.is_null() || v.type() == exec::ValueType::kBlob) continue;
          auto& col = t.columns[c];
          if (col.samples.size() >= static_cast<size_t>(options.samples)) continue;
          std::string s = Shorten(v.ToString());
          if (seen[c].insert(s).second) col.samples.push_back(std::move(s));
        }
      }
    }
    if (options.progress) options.progress(ti + 1, total);
  }
}

}  // namespace plainsql::catalog
