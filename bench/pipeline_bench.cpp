// The ask pipeline's own work per question (everything but waiting for the model and running SQL), on Spider dev
// databases, through the real LLM generator against the scripted server: each question's reply is its gold query in a
// fenced block, so prompts are built, replies parsed, candidates checked, resolved, executed and voted on as in use.
//   pipeline_bench SPIDER_DIR [QUESTIONS=300] [K=1]
// Prints the median, 90th percentile and maximum of Answer::own_ms, and the peak resident memory.
#include <sys/resource.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "catalog/introspect.h"
#include "eval/benchmark.h"
#include "exec/connection.h"
#include "llm/fake_llm_server.h"
#include "pipeline/generators.h"
#include "pipeline/pipeline.h"

using namespace plainsql;

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: pipeline_bench SPIDER_DIR [QUESTIONS] [K]\n");
    return 2;
  }
  std::string dir = argv[1];
  size_t limit = argc > 2 ? std::stoul(argv[2]) : 300;
  int k = argc > 3 ? std::stoi(argv[3]) : 1;
  auto bench = eval::LoadBenchmark("spider", dir + "/dev.json");
  if (!bench) {
    fmt::print(stderr, "{}\n", bench.error().message);
    return 1;
  }
  test::FakeLlmServer server;
  pipeline::PipelineConfig config;
  config.llm.base_url = server.url();
  config.llm.model = "replay";
  config.options.candidates = k;
  struct Db {
    std::unique_ptr<exec::Connection> conn;
    std::unique_ptr<catalog::Schema> schema;  // stable address: the generators keep a reference
    pipeline::GeneratorSet generators;
  };
  std::map<std::string, Db> dbs;
  std::vector<double> own;
  std::map<std::string, std::vector<double>> by_stage;
  size_t failed = 0;
  for (const auto& q : bench->questions) {
    if (own.size() >= limit) break;
    auto it = dbs.find(q.db_id);
    if (it == dbs.end()) {
      std::string path = eval::SqliteDatabasePath(dir + "/database", q.db_id);
      if (path.empty()) continue;
      auto conn = exec::Connect(path);
      if (!conn) continue;
      catalog::IntrospectOptions io;
      io.samples = 3;
      auto schema = catalog::Introspect(**conn, io);
      if (!schema) continue;
      Db db{std::move(*conn), std::make_unique<catalog::Schema>(std::move(*schema)), {}};
      auto generators = pipeline::MakeGenerators(config, *db.conn, *db.schema);
      if (!generators) {
        fmt::print(stderr, "{}\n", generators.error().message);
        return 1;
      }
      db.generators = std::move(*generators);
      it = dbs.emplace(q.db_id, std::move(db)).first;
    }
    std::string reply = "The query:\n```sql\n" + q.gold_sql + "\n```\n";
    server.Script(
        {{200, test::FakeLlmServer::Completion(std::vector<std::string>(static_cast<size_t>(k), reply)), {}, {}}});
    auto answer = pipeline::Ask(*it->second.conn, *it->second.schema, it->second.generators.active, q.question,
                                it->second.generators.With(config.options));
    if (!answer) {
      ++failed;
      continue;
    }
    own.push_back(answer->own_ms);
    for (const auto& st : answer->trace) by_stage[st.stage].push_back(st.ms - st.wait_ms);
  }
  auto pct = [](std::vector<double> v, double p) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
  };
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  fmt::print("{} questions on {} databases (k = {}; {} without a runnable answer)\n", own.size(), dbs.size(), k,
             failed);
  fmt::print("pipeline's own work per question: median {:.2f} ms, 90th percentile {:.2f} ms, max {:.2f} ms\n",
             pct(own, 0.5), pct(own, 0.9), pct(own, 1.0));
  for (const auto& [stage, v] : by_stage) {
    fmt::print("  {:<9} median {:.3f} ms, 90th percentile {:.3f} ms (stage time minus waits)\n", stage, pct(v, 0.5),
               pct(v, 0.9));
  }
  fmt::print("peak resident memory: {:.1f} MB\n", static_cast<double>(ru.ru_maxrss) / 1024.0);
  return 0;
}
