// WWL schema distances over every pair of databases in a benchmark tables.json (issue #17): prints
// {"dbs": [...], "distances": [[...]]} on stdout and the time taken on stderr. bench/run_wwl.sh times it against the
// Python wwl package; tests/examples/wwl_spider_test compares its output with tests/examples/wwl_reference.py.
//   wwl_bench TABLES_JSON [THREADS]     (THREADS 0 or absent: the hardware's concurrency)
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "catalog/benchmark_schema.h"
#include "examples/wwl.h"

using namespace plainsql;

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    fmt::print(stderr, "usage: wwl_bench TABLES_JSON [THREADS]\n");
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  auto file = catalog::ReadJsonFile(argv[1]);
  if (!file || !file->is_array()) {
    fmt::print(stderr, "{}\n", file ? fmt::format("{}: expected a JSON array", argv[1]) : file.error().message);
    return 1;
  }
  nlohmann::json out = {{"dbs", nlohmann::json::array()}};
  std::vector<std::vector<examples::NodeLabels>> graphs;
  graphs.reserve(file->size());
  for (const auto& entry : *file) {
    auto schema = catalog::SchemaFromBenchmarkEntry(entry);
    if (!schema) {
      fmt::print(stderr, "{}\n", schema.error().message);
      return 1;
    }
    out["dbs"].push_back(schema->database);
    graphs.push_back(examples::WlLabels(examples::BuildSchemaGraph(*schema)));
  }
  auto labelled = std::chrono::steady_clock::now();
  int threads = argc == 3 ? std::atoi(argv[2]) : 0;
  out["distances"] = examples::WwlDistances(graphs, threads);
  auto end = std::chrono::steady_clock::now();
  std::cout << out.dump() << "\n";
  auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  size_t n = graphs.size();
  fmt::print(stderr, "wwl_bench: {} schemas, {} pairs: read and labelled in {:.3f} s, distances in {:.3f} s\n", n,
             n * (n - std::min<size_t>(n, 1)) / 2, seconds(start, labelled), seconds(labelled, end));
  return 0;
}
