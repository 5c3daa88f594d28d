// The built-in translator's time per question (translation alone, then with its readings run and ranked by the
// reading scorer, as the builtin generator does) once a database's indexes exist (the linker's schema index, with
// WordNet's related words, and the value index are built first and timed apart), over a Spider-format questions file.
//   builtin_bench QUESTIONS.json DATABASE_DIR [CANDIDATES.tsv]
// With a third argument, every question's candidates are written there (question number, rank, SQL), so two builds'
// translations can be compared line by line.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

#include "builtin/translator.h"
#include "catalog/introspect.h"
#include "common/file.h"
#include "eval/benchmark.h"
#include "exec/connection.h"
#include "naturalness/classifier.h"
#include "naturalness/expander.h"
#include "retrieval/wordnet.h"

using namespace plainsql;

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    fmt::print(stderr, "usage: builtin_bench QUESTIONS.json DATABASE_DIR [CANDIDATES.tsv]\n");
    return 2;
  }
  auto bench = eval::LoadBenchmark("spider", argv[1]);
  auto classifier = naturalness::Classifier::Load(DataDir());
  auto abbreviations = naturalness::Expander::LoadAbbreviations(DataDir() + "/abbreviations.tsv");
  if (!bench || !classifier || !abbreviations) {
    fmt::print(stderr, "cannot load the questions or the naturalness data\n");
    return 1;
  }
  naturalness::Expander expander(classifier->Words(), std::move(*abbreviations));
  auto t_wn = std::chrono::steady_clock::now();
  auto wordnet = retrieval::WordNet::Open();
  if (!wordnet) {
    fmt::print(stderr, "{}\n", wordnet.error().message);
    return 1;
  }
  double wordnet_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_wn).count();
  std::vector<double> index_ms;
  retrieval::Stemmer stemmer;
  struct Db {
    std::unique_ptr<exec::Connection> conn;
    std::unique_ptr<catalog::Schema> schema;
    std::unique_ptr<linking::SchemaIndex> index;
    std::unique_ptr<retrieval::ValueIndex> values;
  };
  std::map<std::string, Db> dbs;
  std::vector<double> ms, ranked_ms;
  std::FILE* dump = argc == 4 ? std::fopen(argv[3], "w") : nullptr;
  size_t number = 0;
  for (const auto& q : bench->questions) {
    ++number;
    auto it = dbs.find(q.db_id);
    if (it == dbs.end()) {
      std::string path = eval::SqliteDatabasePath(argv[2], q.db_id);
      if (path.empty()) continue;
      auto conn = exec::Connect(path);
      if (!conn) continue;
      auto schema = catalog::Introspect(**conn, {});
      if (!schema) continue;
      Db db;
      db.conn = std::move(*conn);
      db.schema = std::make_unique<catalog::Schema>(std::move(*schema));
      auto t_index = std::chrono::steady_clock::now();
      db.index = std::make_unique<linking::SchemaIndex>(*db.schema, stemmer, &expander, wordnet->get());
      index_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_index).count());
      auto values = retrieval::ValueIndex::Build(*db.conn, *db.schema);
      if (!values) continue;
      db.values = std::make_unique<retrieval::ValueIndex>(std::move(*values));
      it = dbs.emplace(q.db_id, std::move(db)).first;
    }
    builtin::Translator translator(*it->second.schema, *it->second.index, it->second.values.get());
    auto t0 = std::chrono::steady_clock::now();
    auto t = translator.Translate(q.question, it->second.conn->dialect(), stemmer);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    // Then as the builtin generator does: every reading run briefly and ranked by the reading scorer.
    builtin::RunCandidates(t.candidates, *it->second.conn, builtin::kReadingRunLimits, 8);
    builtin::RankCandidates(t.candidates, builtin::ReadingScorer::Builtin(), 8);
    ranked_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (dump) {
      if (t.candidates.empty()) fmt::print(dump, "{}\t-\t{}\n", number, t.reason);
      for (size_t r = 0; r < t.candidates.size(); ++r) {
        fmt::print(dump, "{}\t{}\t{:.4f}\t{}\n", number, r, t.candidates[r].score, t.candidates[r].sql);
      }
    }
  }
  if (dump) std::fclose(dump);
  std::sort(ms.begin(), ms.end());
  std::sort(ranked_ms.begin(), ranked_ms.end());
  auto pct = [](const std::vector<double>& v, double p) {
    return v.empty() ? 0.0 : v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
  };
  fmt::print("{} questions on {} databases: translation median {:.3f} ms, 90th percentile {:.3f} ms, max {:.3f} ms\n",
             ms.size(), dbs.size(), pct(ms, 0.5), pct(ms, 0.9), pct(ms, 1.0));
  fmt::print(
      "with the readings run and ranked by the scorer: median {:.3f} ms, 90th percentile {:.3f} ms, max {:.3f} ms\n",
      pct(ranked_ms, 0.5), pct(ranked_ms, 0.9), pct(ranked_ms, 1.0));
  std::sort(index_ms.begin(), index_ms.end());
  fmt::print(
      "WordNet opened in {:.1f} ms; schema index with related words per database: median {:.1f} ms, max {:.1f} ms\n",
      wordnet_ms, index_ms.empty() ? 0.0 : index_ms[index_ms.size() / 2], index_ms.empty() ? 0.0 : index_ms.back());
  return 0;
}
