// Builds the built-in translator's value index for every SQLite database under a Spider-layout folder and reports
// the total and the slowest build, the values indexed and the columns skipped by the per-database time budget.
//   value_index_bench DATABASE_DIR
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "catalog/introspect.h"
#include "eval/benchmark.h"
#include "exec/connection.h"
#include "retrieval/value_index.h"

using namespace plainsql;

int main(int argc, char** argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: value_index_bench DATABASE_DIR\n");
    return 2;
  }
  namespace fs = std::filesystem;
  std::vector<std::string> ids;
  for (const auto& e : fs::directory_iterator(argv[1])) {
    if (e.is_directory()) ids.push_back(e.path().filename().string());
  }
  std::sort(ids.begin(), ids.end());
  double total = 0, slowest = 0;
  std::string slowest_db;
  size_t values = 0, skipped = 0, built = 0;
  auto start = std::chrono::steady_clock::now();
  for (const auto& id : ids) {
    std::string path = eval::SqliteDatabasePath(argv[1], id);
    if (path.empty()) continue;
    auto conn = exec::Connect(path);
    if (!conn) continue;
    catalog::IntrospectOptions io;
    io.samples = 0;
    auto schema = catalog::Introspect(**conn, io);
    if (!schema) continue;
    auto index = retrieval::ValueIndex::Build(**conn, *schema);
    if (!index) {
      fmt::print(stderr, "{}: {}\n", id, index.error().message);
      continue;
    }
    ++built;
    total += index->BuildMs();
    values += index->Values();
    skipped += index->ColumnsSkipped();
    if (index->BuildMs() > slowest) {
      slowest = index->BuildMs();
      slowest_db = id;
    }
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(
      "{} databases: value indexes built in {:.2f} s ({:.2f} s wall with introspection); slowest {} {:.0f} ms; "
      "{} values; {} columns skipped\n",
      built, total / 1000, wall, slowest_db, slowest, values, skipped);
  return 0;
}
