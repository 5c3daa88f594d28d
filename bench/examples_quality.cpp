// Example selection quality (issue #17): with solved questions as the store, how often does selection find an example
// with the same skeleton as the gold query of a question it has not seen? Two definitions of "the same skeleton" are
// reported: the same examples::Skeleton (DAIL-SQL's coarse skeleton, the measure) and the same masked query
// (finer: the same columns counted, the same joins and conditions).
//
//   examples_quality --train train.json --tables tables.json --db-dir database [--dev dev.json --eval dev]
//                    [--cache DIR] [--sweep] [tuning flags, see --help]
//   examples_quality --train train.json --write-whitelist src/examples/whitelist.tsv
//
// --eval validation (the default) splits the training questions by database, 80/20 (a database is held out when the
// hash of its db_id is 0 mod 5): the store is the 80 %, the questions asked are the 20 %, and the masking whitelist is
// counted from the store's questions only. Every tuning choice was made this way. --eval dev uses every training
// question as the store (and the compiled-in whitelist, counted from all of them) and asks the dev questions.
// For each question asked: its masked question (examples::QuestionMasker on its own database, with the value index),
// the masked draft query (the built-in translator's first candidate; none when it finds none), and the WWL distance
// from its database to every store database (tables.json schemas). Reported: top-1 (the first example selected has the
// gold skeleton), any-of-5 (one of the first five has), mean-of-5 (the share of the five that have), for the method
// (SelectWeights as configured) and the baseline (plain TF-IDF over masked questions: single tokens, raw counts, no
// SQL, no schema, no diversity). --sweep runs the one-choice-at-a-time grid used to choose the defaults. Drafts are
// cached in --cache (they depend only on the translator).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "builtin/translator.h"
#include "catalog/benchmark_schema.h"
#include "catalog/introspect.h"
#include "common/file.h"
#include "common/hash.h"
#include "common/strings.h"
#include "eval/benchmark.h"
#include "examples/mask.h"
#include "examples/schema_graph.h"
#include "examples/select.h"
#include "examples/skeleton.h"
#include "examples/wwl.h"
#include "exec/connection.h"
#include "naturalness/classifier.h"
#include "naturalness/expander.h"
#include "retrieval/wordnet.h"
#include "sql/dialect.h"

using namespace plainsql;

namespace {

struct Settings {
  std::string train, dev, tables, db_dir, cache, eval = "validation", write_whitelist, dump;
  bool sweep = false;
  size_t scale = 0;  // > 0: measure speed on a store of this many examples (the store replicated, perturbed)
  // Tuning choices (defaults: the library's).
  size_t whitelist_size = examples::kWhitelistSize;
  bool partial_links = examples::MaskOptions{}.partial_links;
  bool mask_unlisted = examples::MaskOptions{}.mask_unlisted;
  bool use_wordnet = examples::MaskOptions{}.use_wordnet;
  bool mask_linked_whitelisted = examples::MaskOptions{}.mask_linked_whitelisted;
  bool expander = false;
  int max_ngram = retrieval::SparseOptions{}.max_ngram;
  bool sublinear = retrieval::SparseOptions{}.sublinear_tf;
  examples::SelectWeights weights;
  bool drafts = true;  // use the draft query's SQL similarity
  bool schema = true;  // use the WWL schema distance
  size_t k = 5;
};

// One database: its connection, introspected schema, value index, and WL labels of its tables.json schema.
struct Database {
  std::unique_ptr<exec::Connection> conn;
  std::unique_ptr<catalog::Schema> schema;
  std::unique_ptr<retrieval::ValueIndex> values;
  std::vector<examples::NodeLabels> labels;
};

struct Item {
  eval::Question q;
  std::string masked_gold;    // "" when the gold query does not parse
  std::string skeleton_gold;  // examples::Skeleton(masked_gold)
  std::string masked_draft;   // "" when the translator has no candidate
  std::string masked_question;
};

struct Context {
  Settings settings;
  std::map<std::string, Database> dbs;
  std::vector<Item> store, asked;
  std::unique_ptr<naturalness::Classifier> classifier;
  std::unique_ptr<naturalness::Expander> expander;
  std::map<std::pair<std::string, std::string>, double> distances;
  std::unordered_map<std::string, std::string> skeletons;  // masked query -> examples::Skeleton
};

bool HeldOut(const std::string& db_id) { return Hash64(db_id) % 5 == 0; }

Status OpenDatabase(Context& ctx, const std::string& db_id) {
  if (ctx.dbs.count(db_id)) return {};
  Database db;
  std::string path = eval::SqliteDatabasePath(ctx.settings.db_dir, db_id);
  if (!path.empty()) {
    auto conn = exec::Connect(path);
    if (!conn) return conn.error();
    catalog::IntrospectOptions io;
    io.samples = 0;
    auto schema = catalog::Introspect(**conn, io);
    if (!schema) return schema.error();
    db.conn = std::move(*conn);
    db.schema = std::make_unique<catalog::Schema>(std::move(*schema));
    auto values = retrieval::ValueIndex::Build(*db.conn, *db.schema);
    if (values) db.values = std::make_unique<retrieval::ValueIndex>(std::move(*values));
  }
  auto benchmark_schema = catalog::LoadBenchmarkSchema(ctx.settings.tables, db_id);
  if (benchmark_schema) {
    db.labels = examples::WlLabels(examples::BuildSchemaGraph(*benchmark_schema));
    if (!db.schema) db.schema = std::make_unique<catalog::Schema>(std::move(*benchmark_schema));
  }
  if (!db.schema) return MakeError(ErrorCode::kNotFound, "no schema for database " + db_id);
  ctx.dbs.emplace(db_id, std::move(db));
  return {};
}

// The translator's first candidate for every asked question, masked; cached in --cache by the question's hash.
void Drafts(Context& ctx) {
  std::map<std::string, std::string> cache;
  std::string cache_path = ctx.settings.cache.empty() ? "" : ctx.settings.cache + "/drafts-v2.tsv";
  if (!cache_path.empty()) {
    std::ifstream in(cache_path);
    for (std::string line; std::getline(in, line);) {
      auto tab = line.find('\t');
      if (tab != std::string::npos) cache[line.substr(0, tab)] = line.substr(tab + 1);
    }
  }
  auto wordnet = retrieval::WordNet::Open();
  retrieval::Stemmer stemmer;
  std::map<std::string, std::unique_ptr<linking::SchemaIndex>> indexes;
  std::ofstream out;
  if (!cache_path.empty()) out.open(cache_path, std::ios::app);
  size_t translated = 0;
  for (auto& item : ctx.asked) {
    std::string key = HashHex(item.q.db_id + "\n" + item.q.question);
    if (auto it = cache.find(key); it != cache.end()) {
      item.masked_draft = it->second;
      continue;
    }
    Database& db = ctx.dbs.at(item.q.db_id);
    auto& index = indexes[item.q.db_id];
    if (!index) {
      index = std::make_unique<linking::SchemaIndex>(*db.schema, stemmer, ctx.expander.get(),
                                                     wordnet ? wordnet->get() : nullptr);
    }
    builtin::Translator translator(*db.schema, *index, db.values.get());
    auto t = translator.Translate(item.q.question, sql::Sqlite(), stemmer);
    if (!t.candidates.empty()) {
      auto masked = examples::MaskSql(t.candidates.front().sql, sql::Sqlite(), db.schema.get());
      if (masked) item.masked_draft = *masked;
    }
    if (out.is_open()) out << key << '\t' << item.masked_draft << '\n';
    ++translated;
  }
  fmt::print(stderr, "drafts: {} translated, {} from the cache\n", translated, ctx.asked.size() - translated);
}

// Masks every question of `items` with the settings' masking choices and `whitelist`.
void MaskQuestions(Context& ctx, std::vector<Item>& items, const examples::Whitelist& whitelist) {
  std::map<std::string, std::unique_ptr<examples::QuestionMasker>> maskers;
  for (auto& item : items) {
    auto& masker = maskers[item.q.db_id];
    if (!masker) {
      const Database& db = ctx.dbs.at(item.q.db_id);
      examples::MaskOptions options;
      options.whitelist = &whitelist;
      options.partial_links = ctx.settings.partial_links;
      options.mask_unlisted = ctx.settings.mask_unlisted;
      options.use_wordnet = ctx.settings.use_wordnet;
      options.mask_linked_whitelisted = ctx.settings.mask_linked_whitelisted;
      options.expander = ctx.settings.expander ? ctx.expander.get() : nullptr;
      masker = std::make_unique<examples::QuestionMasker>(*db.schema, db.values.get(), options);
    }
    item.masked_question = masker->Mask(item.q.question);
  }
}

double Distance(Context& ctx, const std::string& a, const std::string& b) {
  auto key = std::minmax(a, b);
  auto it = ctx.distances.find({key.first, key.second});
  if (it != ctx.distances.end()) return it->second;
  double d = examples::WwlDistance(ctx.dbs.at(a).labels, ctx.dbs.at(b).labels);
  ctx.distances[{key.first, key.second}] = d;
  return d;
}

struct Score {
  size_t asked = 0, answered = 0;           // answered: at least one example selected
  size_t top1 = 0, any5 = 0;                // hits by examples::Skeleton
  size_t top1_masked = 0, any5_masked = 0;  // hits by the masked query
  double mean5 = 0;
  double p50_ms = 0, p99_ms = 0;
};

// examples::Skeleton of a masked query, computed once per distinct text.
const std::string& SkeletonOf(Context& ctx, const std::string& masked) {
  auto it = ctx.skeletons.find(masked);
  if (it == ctx.skeletons.end()) it = ctx.skeletons.emplace(masked, examples::Skeleton(masked)).first;
  return it->second;
}

// Selection for every asked question with a parsed gold query, scored against its skeleton.
Score Measure(Context& ctx, const examples::Selector& selector, bool drafts, bool schema, size_t k) {
  Score s;
  std::vector<double> ms;
  if (schema) {  // the distance index is computed once per store (examples::DistanceIndex), not timed with selection
    std::set<std::string> asked_dbs, store_dbs;
    for (const auto& item : ctx.asked) asked_dbs.insert(item.q.db_id);
    for (const auto& e : selector.Examples()) store_dbs.insert(e.db_id);
    for (const auto& a : asked_dbs) {
      for (const auto& b : store_dbs) Distance(ctx, a, b);
    }
  }
  for (const auto& item : ctx.asked) {
    if (item.masked_gold.empty()) continue;
    examples::SelectRequest r;
    r.masked_question = item.masked_question;
    r.masked_sql = drafts ? item.masked_draft : "";
    r.db_id = item.q.db_id;
    if (schema) r.schema_distance = [&](const std::string& db) { return Distance(ctx, item.q.db_id, db); };
    r.k = k;
    auto t0 = std::chrono::steady_clock::now();
    auto picks = selector.Select(r);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    ++s.asked;
    s.answered += picks.empty() ? 0 : 1;
    size_t hits = 0, hits_masked = 0;
    for (size_t i = 0; i < picks.size(); ++i) {
      const std::string& masked = selector.Examples()[picks[i].index].masked_sql;
      bool same = SkeletonOf(ctx, masked) == item.skeleton_gold;  // mean-of-5 counts these
      bool same_masked = masked == item.masked_gold;
      if (same && i == 0) ++s.top1;
      if (same_masked && i == 0) ++s.top1_masked;
      hits += same ? 1 : 0;
      hits_masked += same_masked ? 1 : 0;
    }
    s.any5 += hits > 0 ? 1 : 0;
    s.any5_masked += hits_masked > 0 ? 1 : 0;
    s.mean5 += static_cast<double>(hits) / static_cast<double>(k);
  }
  s.mean5 /= std::max<size_t>(1, s.asked);
  std::sort(ms.begin(), ms.end());
  if (!ms.empty()) {
    s.p50_ms = ms[ms.size() / 2];
    s.p99_ms = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
  }
  return s;
}

std::vector<examples::Example> StoreExamples(const std::vector<Item>& store) {
  std::vector<examples::Example> out;
  out.reserve(store.size());
  for (const auto& item : store) {
    if (item.masked_gold.empty()) continue;
    out.push_back({0, item.q.db_id, item.q.question, item.q.gold_sql, item.masked_question, item.masked_gold});
  }
  return out;
}

std::string Describe(const Score& s) {
  auto pct = [&](double x) { return 100.0 * x / static_cast<double>(std::max<size_t>(1, s.asked)); };
  return fmt::format(
      "skeleton: top-1 {:.1f} %  any-of-5 {:.1f} %  mean-of-5 {:.1f} %;  masked query: top-1 {:.1f} %  any-of-5 {:.1f} "
      "%  ({} questions, {} with examples; select p50 {:.2f} ms, p99 {:.2f} ms)",
      pct(static_cast<double>(s.top1)), pct(static_cast<double>(s.any5)), 100.0 * s.mean5,
      pct(static_cast<double>(s.top1_masked)), pct(static_cast<double>(s.any5_masked)), s.asked, s.answered, s.p50_ms,
      s.p99_ms);
}

// Masks the store and the asked questions with the current settings, then measures the method and the baseline.
Result<std::pair<Score, Score>> Run(Context& ctx, const examples::Whitelist& whitelist, bool with_baseline) {
  const Settings& st = ctx.settings;
  MaskQuestions(ctx, ctx.store, whitelist);
  MaskQuestions(ctx, ctx.asked, whitelist);
  retrieval::SparseOptions sparse;
  sparse.max_ngram = st.max_ngram;
  sparse.sublinear_tf = st.sublinear;
  auto selector =
      examples::Selector::Build(StoreExamples(ctx.store), retrieval::MakeSparseEmbedder(sparse), st.weights);
  if (!selector) return selector.error();
  Score method = Measure(ctx, *selector, st.drafts, st.schema, st.k);
  Score baseline;
  if (with_baseline) {
    retrieval::SparseOptions plain;
    plain.max_ngram = 1;
    plain.sublinear_tf = false;
    examples::SelectWeights only_question{1.0, 0.0, 1.0, 0.0, 0.0, false, false};
    auto b = examples::Selector::Build(StoreExamples(ctx.store), retrieval::MakeSparseEmbedder(plain), only_question);
    if (!b) return b.error();
    baseline = Measure(ctx, *b, false, false, st.k);
  }
  return std::make_pair(method, baseline);
}

}  // namespace

namespace {

examples::Whitelist DeriveWhitelist(const std::vector<Item>& items, size_t size) {
  std::vector<std::string> questions, dbs;
  for (const auto& item : items) {
    questions.push_back(item.q.question);
    dbs.push_back(item.q.db_id);
  }
  std::unordered_set<std::string> words;
  for (const auto& c : examples::CountWords(questions, dbs)) {
    if (words.size() >= size) break;
    words.insert(c.word);
  }
  return examples::Whitelist(std::move(words));
}

int WriteWhitelist(const Settings& st) {
  auto train = eval::LoadSpiderQuestions(st.train);
  if (!train) {
    fmt::print(stderr, "{}\n", train.error().message);
    return 1;
  }
  std::vector<std::string> questions, dbs;
  for (const auto& q : train->questions) {
    questions.push_back(q.question);
    dbs.push_back(q.db_id);
  }
  auto counts = examples::CountWords(questions, dbs);
  // Words of a single database say nothing about how questions are asked in general.
  std::erase_if(counts, [](const examples::WordCount& c) { return c.domains < 2; });
  std::string header = fmt::format(
      "The words of the Spider training questions ({} questions, {} databases), the most databases first, then the\n"
      "most frequent. Generated by: examples_quality --train train.json --write-whitelist whitelist.tsv\n"
      "Columns: word, occurrences, databases. Masking keeps the first examples::kWhitelistSize words.",
      questions.size(), std::set<std::string>(dbs.begin(), dbs.end()).size());
  std::ofstream out(st.write_whitelist);
  out << examples::FormatWhitelist(counts, header);
  return out ? 0 : 1;
}

// Loads the questions, opens their databases, splits store and asked, masks the gold queries, and drafts queries for
// the asked questions.
Status Load(Context& ctx) {
  const Settings& st = ctx.settings;
  auto train = eval::LoadSpiderQuestions(st.train);
  if (!train) return train.error();
  for (auto& q : train->questions) {
    bool held_out = st.eval == "validation" && HeldOut(q.db_id);
    (held_out ? ctx.asked : ctx.store).push_back({std::move(q), "", "", "", ""});
  }
  if (st.eval == "dev") {
    auto dev = eval::LoadSpiderQuestions(st.dev);
    if (!dev) return dev.error();
    for (auto& q : dev->questions) ctx.asked.push_back({std::move(q), "", "", "", ""});
  }
  auto classifier = naturalness::Classifier::Load(DataDir());
  auto abbreviations = naturalness::Expander::LoadAbbreviations(DataDir() + "/abbreviations.tsv");
  if (!classifier) return classifier.error();
  if (!abbreviations) return abbreviations.error();
  ctx.classifier = std::make_unique<naturalness::Classifier>(std::move(*classifier));
  ctx.expander = std::make_unique<naturalness::Expander>(ctx.classifier->Words(), std::move(*abbreviations));
  auto t0 = std::chrono::steady_clock::now();
  size_t unparsed = 0;
  for (auto* items : {&ctx.store, &ctx.asked}) {
    for (auto& item : *items) {
      Status opened = OpenDatabase(ctx, item.q.db_id);
      if (!opened.ok()) return opened.error();
      auto masked = examples::MaskSql(item.q.gold_sql, sql::Sqlite(), ctx.dbs.at(item.q.db_id).schema.get());
      if (masked) {
        item.masked_gold = *masked;
        item.skeleton_gold = examples::Skeleton(*masked);
      }
      unparsed += masked ? 0 : 1;
    }
  }
  std::set<std::string> store_dbs, asked_dbs;
  for (const auto& item : ctx.store) store_dbs.insert(item.q.db_id);
  for (const auto& item : ctx.asked) asked_dbs.insert(item.q.db_id);
  fmt::print(stderr,
             "store {} questions on {} databases; asked {} on {}; {} gold queries do not parse; databases "
             "opened in {:.1f} s\n",
             ctx.store.size(), store_dbs.size(), ctx.asked.size(), asked_dbs.size(), unparsed,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  Drafts(ctx);
  // What any selection is up against: how many asked questions' gold skeletons the store has at all, and how often the
  // draft already has the gold skeleton.
  std::set<std::string> skeletons, masked_golds;
  for (const auto& item : ctx.store) {
    skeletons.insert(item.skeleton_gold);
    masked_golds.insert(item.masked_gold);
  }
  size_t covered = 0, covered_masked = 0, drafted = 0, right = 0;
  for (const auto& item : ctx.asked) {
    if (item.masked_gold.empty()) continue;
    covered += skeletons.count(item.skeleton_gold);
    covered_masked += masked_golds.count(item.masked_gold);
    drafted += item.masked_draft.empty() ? 0 : 1;
    right += item.masked_draft == item.masked_gold ? 1 : 0;
  }
  fmt::print(stderr,
             "the store has the gold skeleton of {} asked questions (the gold masked query of {}); {} have a draft, {} "
             "with the gold masked query\n",
             covered, covered_masked, drafted, right);
  return {};
}

// The tuning grid: one choice changed at a time from the settings given.
std::vector<std::pair<std::string, std::function<void(Settings&)>>> Grid() {
  std::vector<std::pair<std::string, std::function<void(Settings&)>>> grid;
  grid.emplace_back("as configured", [](Settings&) {});
  for (size_t n : {0, 50, 100, 150, 200, 300, 400, 800}) {
    grid.emplace_back(fmt::format("whitelist {}", n), [n](Settings& s) { s.whitelist_size = n; });
  }
  grid.emplace_back("partial links flipped", [](Settings& s) { s.partial_links = !s.partial_links; });
  grid.emplace_back("mask unlisted flipped", [](Settings& s) { s.mask_unlisted = !s.mask_unlisted; });
  grid.emplace_back("mask linked whitelisted flipped",
                    [](Settings& s) { s.mask_linked_whitelisted = !s.mask_linked_whitelisted; });
  grid.emplace_back("wordnet flipped", [](Settings& s) { s.use_wordnet = !s.use_wordnet; });
  grid.emplace_back("expander flipped", [](Settings& s) { s.expander = !s.expander; });
  for (int n : {1, 2, 3, 4, 5}) {
    grid.emplace_back(fmt::format("max n-gram {}", n), [n](Settings& s) { s.max_ngram = n; });
  }
  grid.emplace_back("sublinear tf flipped", [](Settings& s) { s.sublinear = !s.sublinear; });
  grid.emplace_back("no draft SQL", [](Settings& s) { s.drafts = false; });
  grid.emplace_back("no schema distance", [](Settings& s) { s.schema = false; });
  grid.emplace_back("not diverse", [](Settings& s) { s.weights.diverse = false; });
  grid.emplace_back("coarse skeleton flipped",
                    [](Settings& s) { s.weights.coarse_skeleton = !s.weights.coarse_skeleton; });
  for (double v : {0.0, 0.3, 0.5, 2.0}) {
    grid.emplace_back(fmt::format("skeleton vote {}", v), [v](Settings& s) { s.weights.skeleton_vote = v; });
  }
  for (double t : {0.5, 0.6, 0.7, 0.8}) {
    grid.emplace_back(fmt::format("threshold {}", t), [t](Settings& s) { s.weights.threshold = t; });
  }
  for (double p : {0.02, 0.05, 0.1, 0.2}) {
    grid.emplace_back(fmt::format("repeat penalty {}", p), [p](Settings& s) { s.weights.repeat_penalty = p; });
  }
  return grid;
}

examples::Whitelist WhitelistFor(const Context& ctx) {
  // On dev the store is all of train, whose whitelist is the compiled-in one (the same count, see WriteWhitelist).
  if (ctx.settings.eval == "dev" && ctx.settings.whitelist_size == examples::kWhitelistSize) {
    return examples::DefaultWhitelist();
  }
  return DeriveWhitelist(ctx.store, ctx.settings.whitelist_size);
}

// The resident set's peak so far, in MiB (Linux: VmHWM in /proc/self/status).
double PeakMiB() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("VmHWM:")) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

// A store of `n` examples: the store's masked examples again and again, each copy's question perturbed (a word
// dropped, two neighbours swapped, or a common word put in) so that copies are distinct texts, as a large store of
// paraphrases would be; then Selector::Build and every asked question's selection are timed.
int Scale(Context& ctx) {
  MaskQuestions(ctx, ctx.store, WhitelistFor(ctx));
  MaskQuestions(ctx, ctx.asked, WhitelistFor(ctx));
  const std::vector<examples::Example> base = StoreExamples(ctx.store);
  std::vector<examples::Example> store;
  store.reserve(ctx.settings.scale);
  std::mt19937_64 rng(17);
  const std::vector<std::string> fillers = {"all", "the", "each", "please", "also", "different", "total", "those"};
  for (size_t i = 0; store.size() < ctx.settings.scale; ++i) {
    examples::Example e = base[i % base.size()];
    if (i >= base.size()) {
      auto words = Split(e.masked_question, ' ');
      size_t at = rng() % words.size();
      switch (rng() % 3) {
        case 0:
          if (words.size() > 2) words.erase(words.begin() + static_cast<std::ptrdiff_t>(at));
          break;
        case 1:
          if (at + 1 < words.size()) std::swap(words[at], words[at + 1]);
          break;
        default: words.insert(words.begin() + static_cast<std::ptrdiff_t>(at), fillers[rng() % fillers.size()]);
      }
      e.masked_question = Join(words, " ");
    }
    store.push_back(std::move(e));
  }
  double before = PeakMiB();
  auto t0 = std::chrono::steady_clock::now();
  auto selector = examples::Selector::Build(std::move(store), nullptr, ctx.settings.weights);
  double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!selector) {
    fmt::print(stderr, "{}\n", selector.error().message);
    return 1;
  }
  Score s = Measure(ctx, *selector, ctx.settings.drafts, ctx.settings.schema, ctx.settings.k);
  fmt::print(
      "{} examples: Selector::Build {:.1f} s; index {:.0f} MiB; peak RSS {:.0f} MiB ({:.0f} MiB before the "
      "build); {}\n",
      selector->Examples().size(), build_s, selector->IndexBytes() / 1048576.0, PeakMiB(), before, Describe(s));
  return 0;
}

int Main(Settings settings) {
  if (!settings.write_whitelist.empty()) return WriteWhitelist(settings);
  Context ctx;
  ctx.settings = std::move(settings);
  Status loaded = Load(ctx);
  if (!loaded.ok()) {
    fmt::print(stderr, "{}\n", loaded.error().message);
    return 1;
  }
  if (ctx.settings.scale > 0) return Scale(ctx);
  std::vector<std::pair<std::string, std::function<void(Settings&)>>> grid;
  if (ctx.settings.sweep) {
    grid = Grid();
  } else {
    grid.emplace_back("method", [](Settings&) {});
  }
  const Settings base = ctx.settings;
  bool first = true;
  for (const auto& [name, change] : grid) {
    ctx.settings = base;
    change(ctx.settings);
    auto result = Run(ctx, WhitelistFor(ctx), first);
    if (!result) {
      fmt::print(stderr, "{}\n", result.error().message);
      return 1;
    }
    if (!ctx.settings.dump.empty()) {
      std::ofstream out(ctx.settings.dump);
      for (const auto* items : {&ctx.store, &ctx.asked}) {
        for (const auto& it : *items) {
          nlohmann::json j = {{"set", items == &ctx.store ? "store" : "asked"},
                              {"db", it.q.db_id},
                              {"q", it.q.question},
                              {"mq", it.masked_question},
                              {"gold", it.masked_gold},
                              {"draft", it.masked_draft}};
          out << j.dump() << "\n";
        }
      }
    }
    if (first) fmt::print("{:<24} {}\n", "baseline (TF-IDF)", Describe(result->second));
    fmt::print("{:<24} {}\n", name, Describe(result->first));
    std::fflush(stdout);
    first = false;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Settings st;
  CLI::App app{"Example selection quality: does a selected example have the gold query's skeleton?"};
  app.add_option("--train", st.train, "Spider train.json (the store)")->required();
  app.add_option("--dev", st.dev, "Spider dev.json (asked with --eval dev)");
  app.add_option("--tables", st.tables, "tables.json (schemas for the WWL distance)");
  app.add_option("--db-dir", st.db_dir, "the databases (DIR/db/db.sqlite)");
  app.add_option("--eval", st.eval, "validation (80/20 split of train by database) or dev")
      ->check(CLI::IsMember({"validation", "dev"}));
  app.add_option("--cache", st.cache, "directory for the drafts cache");
  app.add_option("--write-whitelist", st.write_whitelist, "write the whitelist file counted from --train, and stop");
  app.add_option("--dump", st.dump, "write every question's masked question, gold and draft skeletons (JSON lines)");
  app.add_option("--scale", st.scale,
                 "time Selector::Build and Select on a store of N examples (replicated, perturbed)");
  app.add_flag("--sweep", st.sweep, "run the tuning grid");
  app.add_option("--whitelist-size", st.whitelist_size, "words never masked");
  app.add_option("--partial-links", st.partial_links, "mask a name's head word alone (true/false)");
  app.add_option("--mask-unlisted", st.mask_unlisted, "mask every word not whitelisted (true/false)");
  app.add_option("--mask-linked-whitelisted", st.mask_linked_whitelisted,
                 "mask whitelisted words that name a table or column (true/false)");
  app.add_option("--wordnet", st.use_wordnet, "link WordNet synonyms when masking (true/false)");
  app.add_option("--expander", st.expander, "read cryptic names with the expander when masking (true/false)");
  app.add_option("--max-ngram", st.max_ngram, "longest n-gram feature");
  app.add_option("--sublinear", st.sublinear, "1 + log(tf) (true/false)");
  app.add_option("--drafts", st.drafts, "use the draft query's SQL similarity (true/false)");
  app.add_option("--schema", st.schema, "use the WWL schema distance (true/false)");
  app.add_option("--diverse", st.weights.diverse, "prefer distinct skeletons (true/false)");
  app.add_option("--coarse-skeleton", st.weights.coarse_skeleton,
                 "diversity and the vote by examples::Skeleton, not the masked query (true/false)");
  app.add_option("--repeat-penalty", st.weights.repeat_penalty, "score taken off a repeated skeleton");
  app.add_option("--threshold", st.weights.threshold, "least score selected");
  app.add_option("--skeleton-vote", st.weights.skeleton_vote, "weight of the skeleton vote");
  app.add_option("-k", st.k, "examples selected");
  CLI11_PARSE(app, argc, argv);
  if (st.write_whitelist.empty() && (st.tables.empty() || st.db_dir.empty() || (st.eval == "dev" && st.dev.empty()))) {
    fmt::print(stderr, "--tables and --db-dir are needed (and --dev with --eval dev)\n");
    return 2;
  }
  return Main(std::move(st));
}
