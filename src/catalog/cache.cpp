// Schema snapshot cache (see cache.h).
#include "catalog/cache.h"

#include <unistd.h>

#include <fmt/format.h>
#include <cstdlib>
#include <filesystem>

#include "catalog/binary_io.h"
#include "common/file.h"
#include "common/hash.h"

namespace plainsql::catalog {

namespace fs = std::filesystem;

std::string DefaultCacheDir() {
  if (const char* d = std::getenv("PLAINSQL_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "plainsql").string();
  if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "plainsql").string();
  return (fs::temp_directory_path() / fmt::format("plainsql-cache-{}", getuid())).string();
}

Result<LoadedSchema> LoadSchema(exec::Connection& conn, const IntrospectOptions& options, const CacheOptions& cache) {
  LoadedSchema out;
  if (!cache.enabled) {
    auto s = Introspect(conn, options, &out.warnings);
    if (!s) return s.error();
    out.schema = std::move(*s);
    return out;
  }
  auto digest = CatalogDigest(conn, options);
  if (!digest) return digest.error();
  // What introspection reads, versioned apart from the layout: a snapshot made by an older reading is made again
  // (2: a companion database's views with their native keys and row counts; 3: PostgreSQL relations the role cannot
  // read left out).
  constexpr int64_t kIntrospectionVersion = 3;
  Hasher h;
  h.Update(int64_t{kSchemaBinaryVersion});
  h.Update(kIntrospectionVersion);
  h.Update(conn.identity());
  h.Update(*digest);
  h.Update(int64_t{options.samples});
  h.Update(int64_t{options.sample_scan_rows});
  h.Update(int64_t{options.row_counts});
  h.Update(options.schema_filter);
  fs::path file = fs::path(cache.dir.empty() ? DefaultCacheDir() : cache.dir) / "snapshots" / (h.HexDigest() + ".bin");
  out.cache_file = file.string();

  std::error_code ec;
  if (fs::exists(file, ec)) {
    auto bytes = ReadFileToString(file.string());
    if (bytes) {
      auto s = FromBinary(*bytes);
      if (s) {
        out.schema = std::move(*s);
        out.from_cache = true;
        return out;
      }
    }
    out.warnings.push_back(fmt::format("ignored an unreadable schema snapshot {}", file.string()));
  }
  auto s = Introspect(conn, options, &out.warnings);
  if (!s) return s.error();
  out.schema = std::move(*s);
  if (Status w = WriteFileAtomically(file.string(), ToBinary(out.schema)); !w) {
    out.warnings.push_back("schema snapshot not cached: " + w.error().message);
  }
  return out;
}

}  // namespace plainsql::catalog
