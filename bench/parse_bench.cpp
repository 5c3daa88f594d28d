// Parse + print speed on the 8,659 Spider train gold queries (issue #3's bar: the whole file in under 0.3 s on one
// core, ten times sqlglot). Reads ../shared/data/spider/train_gold.sql, or the file named by PLAINSQL_BENCH_GOLD.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "sql/parser.h"
#include "sql/printer.h"

namespace {

const std::vector<std::string>& Queries() {
  static std::vector<std::string> queries = [] {
    const char* env = std::getenv("PLAINSQL_BENCH_GOLD");
    std::string path = env && *env ? env : std::string(PLAINSQL_SOURCE_DIR) + "/../shared/data/spider/train_gold.sql";
    std::ifstream in(path);
    if (!in) {
      std::cerr << "cannot read " << path << " (set PLAINSQL_BENCH_GOLD)\n";
      std::exit(1);
    }
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) out.push_back(line.substr(0, line.find('\t')));
    return out;
  }();
  return queries;
}

void BM_ParseSpiderTrain(benchmark::State& state) {
  const auto& qs = Queries();
  for (auto _ : state) {
    size_t ok = 0;
    for (const auto& q : qs) ok += plainsql::sql::ParseQuery(q, plainsql::sql::Sqlite()).ok();
    benchmark::DoNotOptimize(ok);
  }
  state.counters["queries/s"] =
      benchmark::Counter(static_cast<double>(qs.size()) * state.iterations(), benchmark::Counter::kIsRate);
}

void BM_ParsePrintSpiderTrain(benchmark::State& state) {
  const auto& qs = Queries();
  for (auto _ : state) {
    size_t bytes = 0;
    for (const auto& q : qs) {
      auto parsed = plainsql::sql::ParseQuery(q, plainsql::sql::Sqlite());
      if (parsed.ok()) bytes += plainsql::sql::Print(*parsed, plainsql::sql::Sqlite()).size();
    }
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["queries/s"] =
      benchmark::Counter(static_cast<double>(qs.size()) * state.iterations(), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_ParseSpiderTrain)->Unit(benchmark::kMillisecond)->Repetitions(5)->MinTime(1.0);
BENCHMARK(BM_ParsePrintSpiderTrain)->Unit(benchmark::kMillisecond)->Repetitions(5)->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
