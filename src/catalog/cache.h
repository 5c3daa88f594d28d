// On-disk snapshots of introspected schemas, so that a second run does not introspect again.
//
// A snapshot is stored in the binary form (binary_io.h) under a key that hashes the database's identity, its catalog
// digest (a cheap one-query summary of its structure and of a data-change indicator, see introspect.h) and the options
// that shape the snapshot. A changed schema or changed data gives a new key, so stale snapshots are never served; they
// are simply not read.
#pragma once

#include <string>
#include <vector>

#include "catalog/introspect.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"

namespace plainsql::catalog {

struct CacheOptions {
  bool enabled = true;
  std::string dir;  // "" = DefaultCacheDir()
};

/// $PLAINSQL_CACHE_DIR, else $XDG_CACHE_HOME/plainsql, else $HOME/.cache/plainsql.
std::string DefaultCacheDir();

struct LoadedSchema {
  Schema schema;
  bool from_cache = false;
  std::string cache_file;             // where the snapshot is (or would be) stored; "" with caching off
  std::vector<std::string> warnings;  // non-fatal problems (an unwritable cache directory, a table not sampled)
};

/// The snapshot for `conn` from the cache when it is current, else introspected (and then stored).
Result<LoadedSchema> LoadSchema(exec::Connection& conn, const IntrospectOptions& options, const CacheOptions& cache);

}  // namespace plainsql::catalog
