// Selection σ and the embedders (issue #17): the built-in sparse embedder and its exact index, the OpenAI-compatible
// /v1/embeddings embedder against the scripted server, and selection order, weights, threshold, diversity and exclusion
// on a handmade store (tests/examples/data/select_store.tsv, select_cases.txt), checked against a brute-force σ.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "common/strings.h"
#include "examples/select.h"
#include "examples/skeleton.h"
#include "llm/fake_llm_server.h"
#include "retrieval/embedder.h"
#include "test_util.h"

namespace plainsql::examples {
namespace {

using namespace std::chrono_literals;
using retrieval::Embedding;
using retrieval::Hit;

std::vector<Example> Store() {
  std::vector<Example> out;
  for (const auto& line : Split(test::ReadFile(test::DataFile("examples", "select_store.tsv")), '\n')) {
    if (line.empty() || line[0] == '#') continue;
    auto f = Split(line, '\t');
    EXPECT_EQ(f.size(), 3u) << line;
    if (f.size() != 3) continue;
    out.push_back({static_cast<int64_t>(out.size() + 1), f[0], "q" + std::to_string(out.size()), "", f[1], f[2]});
  }
  return out;
}

Selector Build(SelectWeights weights = {}, std::vector<Example> examples = Store()) {
  auto s = Selector::Build(std::move(examples), nullptr, weights);
  EXPECT_TRUE(s.ok()) << s.error().message;
  return std::move(*s);
}

std::vector<size_t> Indexes(const std::vector<Selected>& picks) {
  std::vector<size_t> out;
  for (const auto& p : picks) out.push_back(p.index);
  return out;
}

TEST(SparseEmbedder, FeaturesAreStemmedTokensAndNgrams) {
  EXPECT_EQ(retrieval::SparseFeatures("Counting <mask>s >= <value>", 2),
            (std::vector<std::string>{"count", "count <mask>", "<mask>", "<mask> s", "s", "s >=", ">=", ">= <value>",
                                      "<value>"}));
  EXPECT_EQ(retrieval::SparseFeatures("a(b)", 1), (std::vector<std::string>{"a", "(", "b", ")"}));
  EXPECT_TRUE(retrieval::SparseFeatures("  ", 3).empty());
}

TEST(SparseEmbedder, ExactSearchAgreesWithSimilarity) {
  std::vector<std::string> texts = {"how many <mask> are there", "how many <mask> have <mask> above <value>",
                                    "list the <mask> of all <mask>", "what is the average <mask>", ""};
  auto index = retrieval::MakeSparseEmbedder()->Index(texts);
  ASSERT_TRUE(index.ok()) << index.error().message;
  const auto& ix = **index;
  EXPECT_TRUE(ix.Exact());
  EXPECT_EQ(ix.Size(), texts.size());
  EXPECT_GT(ix.MemoryBytes(), 0u);
  auto q = ix.Embed("How many <mask> are there?");
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE(std::is_sorted(q->ids.begin(), q->ids.end()));
  double norm = 0;
  for (float w : q->weights) norm += static_cast<double>(w) * w;
  EXPECT_NEAR(norm, 1.0, 1e-5);
  auto all = ix.Search(*q, 0);
  std::map<uint32_t, float> by_id;
  for (const auto& h : all) by_id[h.id] = h.similarity;
  EXPECT_NEAR(by_id.at(0), 1.0, 1e-5);  // the same text ("?" is in no indexed text, so it does not count)
  EXPECT_EQ(by_id.count(4), 0u);        // the empty text shares nothing
  for (uint32_t id = 0; id < texts.size(); ++id) {
    float expected = by_id.count(id) ? by_id[id] : 0.0f;
    EXPECT_NEAR(ix.Similarity(*q, id), expected, 1e-6) << id;
  }
  auto best = ix.Search(*q, 2);
  ASSERT_EQ(best.size(), 2u);
  EXPECT_EQ(best[0].id, 0u);
  EXPECT_EQ(best[1].id, 1u);  // "how many <mask>" in common
  EXPECT_GE(best[0].similarity, best[1].similarity);
  auto nothing = ix.Embed("zebra");
  ASSERT_TRUE(nothing.ok());
  EXPECT_TRUE(nothing->ids.empty());
  EXPECT_TRUE(ix.Search(*nothing, 0).empty());
}

retrieval::DenseOptions Exactly(size_t exact_below) {
  retrieval::DenseOptions o;
  o.exact_below = exact_below;
  o.batch = 2;
  return o;
}

llm::Config FakeConfig(const test::FakeLlmServer& server) {
  llm::Config c;
  c.base_url = server.url();
  c.model = "test-model";
  c.max_retries = 0;
  c.timeout = 5s;
  return c;
}

TEST(OpenAiEmbedder, EmbedsThroughTheEndpointInBatches) {
  test::FakeLlmServer server;  // a text's vector: (its length, its spaces, 1)
  for (size_t exact_below : {size_t{100}, size_t{0}}) {
    auto embedder = retrieval::MakeOpenAiEmbedder(FakeConfig(server), Exactly(exact_below));
    ASSERT_TRUE(embedder.ok()) << embedder.error().message;
    EXPECT_EQ((*embedder)->Name(), "openai:test-model");
    const size_t before = server.Requests().size();
    std::vector<size_t> progress;
    auto index = (*embedder)->Index({"a b c", "hello", "x", "a b c d e f g"},
                                    [&](size_t done, size_t) { progress.push_back(done); });
    ASSERT_TRUE(index.ok()) << index.error().message;
    EXPECT_EQ(server.Requests().size() - before, 2u);  // two batches of two
    EXPECT_EQ(progress, (std::vector<size_t>{2, 4}));
    const auto& ix = **index;
    EXPECT_EQ(ix.Exact(), exact_below > 4);
    EXPECT_EQ(ix.Size(), 4u);
    auto q = ix.Embed("z y x");  // (5, 2, 1): the direction of "a b c"
    ASSERT_TRUE(q.ok()) << q.error().message;
    EXPECT_EQ(server.Requests().back()["input"], nlohmann::json::array({"z y x"}));
    EXPECT_NEAR(ix.Similarity(*q, 0), 1.0, 1e-5);
    EXPECT_LT(ix.Similarity(*q, 1), 0.99);
    auto best = ix.Search(*q, 2);
    ASSERT_EQ(best.size(), 2u);
    EXPECT_EQ(best[0].id, 0u);
    EXPECT_NEAR(best[0].similarity, 1.0, 1e-5);
    EXPECT_GE(best[0].similarity, best[1].similarity);
    // An exact index lists every positive similarity; the HNSW graph answers only searches with a limit.
    EXPECT_EQ(ix.Search(*q, 0).size(), ix.Exact() ? 4u : 0u);
  }
}

TEST(OpenAiEmbedder, ErrorsAreValues) {
  EXPECT_FALSE(retrieval::MakeOpenAiEmbedder(llm::Config{}).ok());  // no URL, no model
  llm::Config config;
  {
    test::FakeLlmServer server;
    config = FakeConfig(server);
  }  // the server is gone: nothing listens on its port
  config.connect_timeout = 2s;
  auto embedder = retrieval::MakeOpenAiEmbedder(config);
  ASSERT_TRUE(embedder.ok());
  auto index = (*embedder)->Index({"a"});
  ASSERT_FALSE(index.ok());
  EXPECT_EQ(index.error().code, ErrorCode::kConnection);
}

TEST(Selector, CasesOnTheHandmadeStore) {
  Selector diverse = Build();
  Selector plain = Build({.diverse = false});
  size_t cases = 0;
  for (const auto& line : Split(test::ReadFile(test::DataFile("examples", "select_cases.txt")), '\n')) {
    if (line.empty() || line[0] == '#') continue;
    auto f = Split(line, '\t');
    ASSERT_EQ(f.size(), 5u) << line;
    SelectRequest r;
    r.masked_question = f[0];
    r.masked_sql = f[1] == "-" ? "" : f[1];
    r.k = static_cast<size_t>(std::stoul(f[2]));
    ASSERT_TRUE(f[3] == "yes" || f[3] == "no") << line;
    std::vector<size_t> expected;
    for (const auto& i : Split(f[4], ' ')) {
      if (i != "X") expected.push_back(static_cast<size_t>(std::stoul(i)));
    }
    EXPECT_EQ(Indexes((f[3] == "yes" ? diverse : plain).Select(r)), expected) << line;
    ++cases;
  }
  EXPECT_GE(cases, 5u);
}

TEST(Selector, ScoresFollowTheWeights) {
  Selector s = Build();
  SelectRequest r;
  r.masked_question = "How many <mask> have <mask> above <value>?";
  r.masked_sql = "SELECT count(*) FROM <mask> WHERE <mask> > <value>";
  r.schema_distance = [](const std::string& db) { return db == "a" ? 0.5 : db == "b" ? 0.25 : 0.0; };
  r.k = 4;
  auto picks = s.Select(r);
  ASSERT_EQ(picks.size(), 4u);
  EXPECT_EQ(picks[0].index, 6u);  // the same question and skeleton, in the closest database
  EXPECT_NEAR(picks[0].question_similarity, 1.0, 1e-5);
  EXPECT_NEAR(picks[0].sql_similarity, 1.0, 1e-5);
  EXPECT_NEAR(picks[0].score, 1.0, 1e-5);
  for (const auto& p : picks) {
    const std::string& db = s.Examples()[p.index].db_id;
    EXPECT_NEAR(p.schema_distance, db == "a" ? 0.5 : db == "b" ? 0.25 : 0.0, 1e-6);
    double expected = 0.7 * (0.7 * p.question_similarity + 0.3 * p.sql_similarity) + 0.3 * (1 - p.schema_distance);
    EXPECT_NEAR(p.score, expected, 1e-5) << p.index;
  }
  // Without a draft, question similarity alone makes the sample similarity.
  r.masked_sql.clear();
  for (const auto& p : s.Select(r)) {
    EXPECT_EQ(p.sql_similarity, 0.0);
    EXPECT_NEAR(p.score, 0.7 * p.question_similarity + 0.3 * (1 - p.schema_distance), 1e-5);
  }
  // Weights are normalized at each level: doubling all of them changes nothing.
  Selector doubled = Build({.question = 1.4, .sql = 0.6, .sample = 1.4, .schema = 0.6});
  r.masked_sql = "SELECT count(*) FROM <mask>";
  auto a = s.Select(r), b = doubled.Select(r);
  ASSERT_EQ(Indexes(a), Indexes(b));
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i].score, b[i].score, 1e-6);
}

TEST(Selector, SchemaDistanceBreaksATieBetweenDatabases) {
  Selector s = Build({.diverse = false});
  SelectRequest r;
  r.masked_question = "How many <mask> are there?";
  r.k = 2;
  EXPECT_EQ(Indexes(s.Select(r)), (std::vector<size_t>{0, 1}));  // a tie: by index
  r.schema_distance = [](const std::string& db) { return db == "a" ? 0.8 : 0.1; };
  EXPECT_EQ(Indexes(s.Select(r)), (std::vector<size_t>{1, 0}));
  // A distance out of range or not a number counts as the farthest.
  r.schema_distance = [](const std::string& db) { return db == "b" ? std::nan("") : 7.0; };
  auto picks = s.Select(r);
  ASSERT_EQ(picks.size(), 2u);
  EXPECT_EQ(picks[0].schema_distance, 1.0);
  EXPECT_EQ(picks[1].schema_distance, 1.0);
}

TEST(Selector, ThresholdExcludeAndK) {
  SelectRequest r;
  r.masked_question = "Which <mask> has the most <mask>?";
  r.k = 20;
  Selector all = Build();
  auto everything = all.Select(r);
  EXPECT_EQ(everything.size(), all.Examples().size());  // k past the store: every example, distinct skeletons first
  std::set<std::string> first_seven;
  for (size_t i = 0; i < 7; ++i) first_seven.insert(all.Examples()[everything[i].index].masked_sql);
  EXPECT_EQ(first_seven.size(), 7u);
  Selector strict = Build({.threshold = 0.95});
  auto close = strict.Select(r);
  ASSERT_EQ(close.size(), 1u);  // only the question itself scores 0.7 · 1 + 0.3
  EXPECT_EQ(close[0].index, 8u);
  r.exclude = [](size_t i) { return i == 8; };
  EXPECT_TRUE(strict.Select(r).empty());
  r.k = 3;
  for (const auto& p : all.Select(r)) EXPECT_NE(p.index, 8u);
  r.k = 0;
  EXPECT_TRUE(all.Select(r).empty());
  auto empty = Selector::Build({});
  ASSERT_TRUE(empty.ok());
  r.k = 3;
  EXPECT_TRUE(empty->Select(r).empty());
}

// σ by its definition, over every example: scores from the indexes' similarities, then the greedy picks.
std::vector<size_t> BruteForce(const Selector& s, const SelectRequest& r) {
  const auto& ex = s.Examples();
  std::vector<std::string> questions, queries;
  std::map<std::string, uint32_t> question_id, query_id;
  for (const auto& e : ex) {
    if (question_id.emplace(e.masked_question, questions.size()).second) questions.push_back(e.masked_question);
    if (query_id.emplace(e.masked_sql, queries.size()).second) queries.push_back(e.masked_sql);
  }
  auto qi = retrieval::MakeSparseEmbedder()->Index(questions);
  auto si = retrieval::MakeSparseEmbedder()->Index(queries);
  auto qe = (*qi)->Embed(r.masked_question);
  auto se = (*si)->Embed(r.masked_sql);
  const SelectWeights& w = s.Weights();
  std::vector<std::pair<double, size_t>> scored;
  for (size_t i = 0; i < ex.size(); ++i) {
    if (r.exclude && r.exclude(i)) continue;
    double q = (*qi)->Similarity(*qe, question_id.at(ex[i].masked_question));
    double sql = r.masked_sql.empty() ? 0 : (*si)->Similarity(*se, query_id.at(ex[i].masked_sql));
    double sample = r.masked_sql.empty() ? q : (w.question * q + w.sql * sql) / (w.question + w.sql);
    double closeness = 1 - (r.schema_distance ? r.schema_distance(ex[i].db_id) : 0);
    double score = (w.sample * sample + w.schema * closeness) / (w.sample + w.schema);
    if (score >= w.threshold) scored.emplace_back(static_cast<float>(score), i);
  }
  std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  // What counts as one skeleton for diversity and the vote.
  auto group = [&](const Example& e) { return w.coarse_skeleton ? Skeleton(e.masked_sql) : e.masked_sql; };
  std::map<std::string, double> share;
  double total = 0;
  for (size_t i = 0; i < std::min<size_t>(20, scored.size()) && w.diverse; ++i) {
    share[group(ex[scored[i].second])] += scored[i].first;
    total += scored[i].first;
  }
  std::vector<size_t> out;
  std::map<std::string, int> uses;
  std::vector<char> taken(scored.size(), 0);
  while (out.size() < r.k) {
    size_t best = scored.size();
    double best_value = -1e300;
    for (size_t i = 0; i < scored.size(); ++i) {
      if (taken[i]) continue;
      const std::string sk = group(ex[scored[i].second]);
      double value = scored[i].first;
      if (w.diverse) value += w.skeleton_vote * (total > 0 ? share[sk] / total : 0) - w.repeat_penalty * uses[sk];
      if (value > best_value) best_value = value, best = i;
    }
    if (best == scored.size()) break;
    taken[best] = 1;
    ++uses[group(ex[scored[best].second])];
    out.push_back(scored[best].second);
  }
  return out;
}

TEST(Selector, AgreesWithBruteForceOnRandomStores) {
  std::mt19937 rng(17);
  const std::vector<std::string> words = {"how",  "many", "<mask>", "<value>", "what", "average", "most",  "list",
                                          "each", "with", "not",    "than",    "the",  "of",      "count", "show"};
  const std::vector<std::string> skeletons = {"SELECT count(*) FROM <mask>", "SELECT <mask> FROM <mask>",
                                              "SELECT avg(<mask>) FROM <mask> WHERE <mask> > <value>",
                                              "SELECT <mask> FROM <mask> ORDER BY <mask> DESC LIMIT <value>",
                                              "SELECT <mask>, count(*) FROM <mask> GROUP BY <mask>",
                                              // the same skeleton as the second, not the same masked query
                                              "SELECT <mask>.<mask>, <mask>.<mask> FROM <mask> AS <mask> JOIN <mask> "
                                              "AS <mask> ON <mask>.<mask> = <mask>.<mask>"};
  auto sentence = [&](size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) out += (i ? " " : "") + words[rng() % words.size()];
    return out;
  };
  // The last rounds have thousands of distinct questions: candidates are then scored against a floor first.
  for (int round = 0; round < 24; ++round) {
    std::vector<Example> store;
    const size_t n = round < 20 ? 30 + rng() % 300 : 3000 + rng() % 2000;
    for (size_t i = 0; i < n; ++i) {
      store.push_back(
          {0, "db" + std::to_string(rng() % 7), "", "", sentence(1 + rng() % 6), skeletons[rng() % skeletons.size()]});
    }
    SelectWeights weights;
    weights.diverse = round % 2 == 0;
    weights.coarse_skeleton = round % 4 != 2;
    weights.threshold = round % 5 == 0 ? 0.5 : 0.0;
    if (round >= 20) {  // the question matters less: the best examples are often not those of the closest questions
      weights.question = 0.4;
      weights.sql = 0.6;
      weights.sample = 0.4;
      weights.schema = 0.6;
    }
    Selector s = Build(weights, store);
    for (int ask = 0; ask < 10; ++ask) {
      SelectRequest r;
      r.masked_question = sentence(rng() % 5);  // sometimes empty: every example scored on the rest alone
      r.masked_sql = ask % 3 == 0 ? "" : skeletons[rng() % skeletons.size()];
      std::vector<double> distance(7);
      for (auto& d : distance) d = static_cast<double>(rng() % 100) / 100.0;
      if (ask % 4 != 1) r.schema_distance = [distance](const std::string& db) { return distance[db[2] - '0']; };
      const size_t skip = rng() % n;
      if (ask % 2) r.exclude = [skip](size_t i) { return i == skip; };
      r.k = 1 + rng() % 8;
      EXPECT_EQ(Indexes(s.Select(r)), BruteForce(s, r))
          << "round " << round << ", question '" << r.masked_question << "', k " << r.k;
    }
  }
}

// `n` distinct questions close to the one FarRequest asks, in a far database with another skeleton than its draft's.
std::vector<Example> FarStore(int n) {
  std::vector<Example> store;
  for (int i = 0; i < n; ++i) {
    store.push_back({0, "far", "", "", "how many <mask> are there w" + std::to_string(i), "SELECT <mask> FROM <mask>"});
  }
  return store;
}

SelectRequest FarRequest() {
  SelectRequest r;
  r.masked_question = "how many <mask> are there";
  r.masked_sql = "SELECT count(*) FROM <mask>";
  r.schema_distance = [](const std::string& db) { return db == "near" ? 0.0 : 1.0; };
  r.k = 3;
  return r;
}

TEST(Selector, ALessSimilarQuestionStillWinsOnTheRest) {
  // A thousand distinct questions close to the one asked, in a far database with another skeleton, and one barely
  // similar question in the database asked with the draft's skeleton: candidates are scored against a floor set by the
  // closest questions, and the far one must still be found.
  std::vector<Example> store = FarStore(1000);
  store.push_back({0, "near", "", "", "zebra <mask>", "SELECT count(*) FROM <mask>"});
  Selector s = Build({.question = 0.2, .sql = 0.8, .sample = 0.5, .schema = 0.5}, store);
  const SelectRequest r = FarRequest();
  auto picks = s.Select(r);
  ASSERT_EQ(picks.size(), 3u);
  EXPECT_EQ(picks[0].index, 1000u);
  EXPECT_GT(picks[0].question_similarity, 0.0);
  EXPECT_LT(picks[0].question_similarity, 0.5);
  EXPECT_EQ(Indexes(picks), BruteForce(s, r));
}

TEST(Selector, AnUnrelatedQuestionStillWinsOnTheRest) {
  // As above, with the winner's question sharing no word with the one asked (similarity 0: not among the index's
  // hits), and a second example of the same query and database with a similar question.
  std::vector<Example> store = FarStore(2000);
  store.push_back({0, "near", "", "", "zebra giraffe", "SELECT count(*) FROM <mask>"});
  store.push_back({0, "near", "", "", "how many <mask>", "SELECT count(*) FROM <mask>"});
  Selector s = Build({.question = 0.2, .sql = 0.8, .sample = 0.5, .schema = 0.5, .diverse = false}, store);
  const SelectRequest r = FarRequest();
  auto picks = s.Select(r);
  ASSERT_EQ(picks.size(), 3u);
  EXPECT_EQ(picks[0].index, 2001u);
  EXPECT_EQ(picks[1].index, 2000u);
  EXPECT_EQ(picks[1].question_similarity, 0.0);
  EXPECT_EQ(Indexes(picks), BruteForce(s, r));
}

TEST(Selector, WithTheDenseEmbedder) {
  auto make = [](const test::FakeLlmServer& server) {
    auto embedder = retrieval::MakeOpenAiEmbedder(FakeConfig(server), Exactly(100));
    EXPECT_TRUE(embedder.ok());
    auto s = Selector::Build(Store(), *embedder);
    EXPECT_TRUE(s.ok()) << s.error().message;
    return std::move(*s);
  };
  std::optional<Selector> gone;
  {
    test::FakeLlmServer server;
    Selector s = make(server);
    EXPECT_EQ(s.EmbedderName(), "openai:test-model");
    SelectRequest r;
    r.masked_question = "How many <mask> are there?";  // the fake's vector: (length, spaces, 1)
    r.k = 3;
    auto picks = s.TrySelect(r);
    ASSERT_TRUE(picks.ok()) << picks.error().message;
    ASSERT_EQ(picks->size(), 3u);
    EXPECT_EQ((*picks)[0].index, 0u);
    EXPECT_NEAR((*picks)[0].question_similarity, 1.0, 1e-5);
    gone = make(server);
  }
  SelectRequest r;
  r.masked_question = "anything";
  auto failed = gone->TrySelect(r);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().code, ErrorCode::kConnection);
  EXPECT_TRUE(gone->Select(r).empty());
}

}  // namespace
}  // namespace plainsql::examples
