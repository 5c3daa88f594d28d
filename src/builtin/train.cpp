// Training the reading scorer (see train.h).
#include "builtin/train.h"

#include <linear.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "builtin/translator.h"
#include "catalog/introspect.h"
#include "common/hash.h"
#include "eval/metrics.h"
#include "retrieval/value_index.h"

namespace plainsql::builtin {

namespace {

// One database's connection and indexes, built when its first question comes.
struct Database {
  std::unique_ptr<exec::Connection> conn;
  std::unique_ptr<catalog::Schema> schema;
  std::unique_ptr<linking::SchemaIndex> index;
  std::unique_ptr<retrieval::ValueIndex> values;
};

std::unique_ptr<Database> OpenDatabase(const std::string& db_dir, const std::string& db_id, retrieval::Stemmer& stemmer,
                                       const linking::LinkResources& resources) {
  auto opened = OpenTrainingDatabase(db_dir, db_id);
  if (!opened) return nullptr;
  auto db = std::make_unique<Database>();
  db->conn = std::move(opened->conn);
  db->schema = std::make_unique<catalog::Schema>(std::move(opened->schema));
  db->index =
      std::make_unique<linking::SchemaIndex>(*db->schema, stemmer, resources.expander.get(), resources.wordnet.get());
  auto values = retrieval::ValueIndex::Build(*db->conn, *db->schema);
  if (!values) return nullptr;
  db->values = std::make_unique<retrieval::ValueIndex>(std::move(*values));
  return db;
}

void Quiet(const char*) {}

}  // namespace

std::optional<TrainingDatabase> OpenTrainingDatabase(const std::string& db_dir, const std::string& db_id) {
  const std::string path = eval::SqliteDatabasePath(db_dir, db_id);
  if (path.empty()) return std::nullopt;
  auto conn = exec::Connect(path);
  if (!conn) return std::nullopt;
  auto schema = catalog::Introspect(**conn, {});
  if (!schema) return std::nullopt;
  return TrainingDatabase{std::move(*conn), std::move(*schema)};
}

Result<Collected> CollectReadings(const eval::Benchmark& bench, const CollectOptions& options,
                                  const linking::LinkResources& resources) {
  Collected out;
  out.db_of.assign(bench.questions.size(), "");
  retrieval::Stemmer stemmer;
  std::map<std::string, std::unique_ptr<Database>> dbs;
  for (size_t qi = 0; qi < bench.questions.size(); ++qi) {
    const eval::Question& q = bench.questions[qi];
    if (options.progress) options.progress(qi, bench.questions.size());
    auto it = dbs.find(q.db_id);
    if (it == dbs.end()) it = dbs.emplace(q.db_id, OpenDatabase(options.db_dir, q.db_id, stemmer, resources)).first;
    Database* db = it->second.get();
    auto gold =
        db ? db->conn->Query(q.gold_sql, options.limits) : Result<exec::ResultSet>(MakeError(ErrorCode::kNotFound, ""));
    if (!gold) {
      ++out.skipped;
      continue;
    }
    ++out.questions;
    out.db_of[qi] = q.db_id;
    Translator translator(*db->schema, *db->index, db->values.get());
    Translation t = translator.Translate(q.question, db->conn->dialect(), stemmer);
    const exec::Limits reading_limits{kReadingRunLimits.timeout, options.limits.max_rows};
    auto results = RunCandidates(t.candidates, *db->conn, reading_limits, options.max_candidates);
    const bool ordered = eval::OrderMatters(q.gold_sql);
    for (size_t i = 0; i < results.size(); ++i) {
      ScorerRow row;
      row.question = qi;
      row.rank = i;
      row.features = t.candidates[i].features;
      row.correct = results[i] && eval::ExStrict(*gold, *results[i], ordered);
      out.rows.push_back(row);
    }
  }
  if (options.progress) options.progress(bench.questions.size(), bench.questions.size());
  if (out.questions == 0) {
    return MakeError(ErrorCode::kNotFound, "no question could be used: no database under '" + options.db_dir +
                                               "' opened, or no gold query ran");
  }
  return out;
}

bool InValidation(const std::string& db_id, double share) {
  return static_cast<double>(Hash64(db_id) % 10'000) < share * 10'000.0;
}

namespace {

// liblinear's L2-regularised logistic regression on dense rows; returns the weights and the bias (0 without one).
std::pair<std::vector<double>, double> FitLogistic(const std::vector<ReadingFeatureVector>& rows,
                                                   const std::vector<double>& y, double c, bool bias) {
  // liblinear wants sparse rows ending in index -1; the bias is one more input, regularised like the weights.
  const int n = static_cast<int>(kReadingFeatureCount);
  std::vector<double> weights(kReadingFeatureCount, 0.0);
  const bool both = std::find(y.begin(), y.end(), 1.0) != y.end() && std::find(y.begin(), y.end(), -1.0) != y.end();
  if (!both) return {weights, 0.0};  // one class only: nothing to learn
  std::vector<std::vector<feature_node>> nodes;
  for (const auto& row : rows) {
    std::vector<feature_node> x;
    for (int f = 0; f < n; ++f) {
      if (row[static_cast<size_t>(f)] != 0) x.push_back({f + 1, row[static_cast<size_t>(f)]});
    }
    if (bias) x.push_back({n + 1, 1.0});
    x.push_back({-1, 0});
    nodes.push_back(std::move(x));
  }
  std::vector<feature_node*> x;
  x.reserve(nodes.size());
  for (auto& row : nodes) x.push_back(row.data());
  std::vector<double> labels_y = y;
  problem prob{};
  prob.l = static_cast<int>(nodes.size());
  prob.n = bias ? n + 1 : n;
  prob.y = labels_y.data();
  prob.x = x.data();
  prob.bias = -1;
  parameter param{};
  param.solver_type = L2R_LR;
  param.eps = 0.001;
  param.C = c;
  set_print_string_function(Quiet);
  model* lm = train(&prob, &param);
  std::vector<int> labels(2);
  get_labels(lm, labels.data());
  const double sign = labels[0] == 1 ? 1.0 : -1.0;  // liblinear's weights favour its first label
  for (int f = 1; f <= n; ++f) weights[static_cast<size_t>(f - 1)] = sign * get_decfun_coef(lm, f, 0);
  const double b = bias ? sign * get_decfun_coef(lm, n + 1, 0) : 0.0;
  free_and_destroy_model(&lm);
  return {weights, b};
}

}  // namespace

ReadingScorer FitReadingScorer(const std::vector<ScorerRow>& rows, double c) {
  ReadingScorer s;
  // The probability: each reading on its own, right or wrong.
  std::vector<ReadingFeatureVector> x;
  std::vector<double> y;
  for (const auto& row : rows) {
    x.push_back(row.features);
    y.push_back(row.correct ? 1 : -1);
  }
  std::tie(s.weights, s.bias) = FitLogistic(x, y, c, true);
  // The ranking: within a question, a right reading against a wrong one (the difference of their features, both
  // ways), so that what every reading of a question shares does not count.
  x.clear();
  y.clear();
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = i + 1; j < rows.size() && rows[j].question == rows[i].question; ++j) {
      if (rows[i].correct == rows[j].correct) continue;
      ReadingFeatureVector d{};
      for (size_t f = 0; f < d.size(); ++f) d[f] = rows[i].features[f] - rows[j].features[f];
      x.push_back(d);
      y.push_back(rows[i].correct ? 1 : -1);
      for (double& v : d) v = -v;
      x.push_back(d);
      y.push_back(rows[i].correct ? -1 : 1);
    }
  }
  s.rank_weights = FitLogistic(x, y, c, false).first;
  return s;
}

namespace {

// Calls `f(begin, end)` with the rows of each kept question whose database was usable (none for a question without a
// reading).
template <typename F>
void ForEachQuestion(const Collected& data, const std::function<bool(size_t)>& keep, F&& f) {
  size_t i = 0;
  for (size_t q = 0; q < data.db_of.size(); ++q) {
    const size_t begin = i;
    while (i < data.rows.size() && data.rows[i].question == q) ++i;
    if (data.db_of[q].empty() || !keep(q)) continue;
    f(data.rows.data() + begin, data.rows.data() + i);
  }
}

// The reading the scorer ranks first (the earliest of equals); null when there is none.
const ScorerRow* Best(const ScorerRow* begin, const ScorerRow* end, const ReadingScorer& scorer) {
  const ScorerRow* best = nullptr;
  double best_score = 0;
  for (const ScorerRow* row = begin; row != end; ++row) {
    const double score = scorer.RankScore(row->features);
    if (!best || score > best_score) best = row, best_score = score;
  }
  return best;
}

}  // namespace

std::vector<std::pair<double, bool>> ScoredAnswers(const Collected& data, const ReadingScorer& scorer,
                                                   const std::function<bool(size_t)>& keep) {
  std::vector<std::pair<double, bool>> out;
  ForEachQuestion(data, keep, [&](const ScorerRow* begin, const ScorerRow* end) {
    const ScorerRow* best = Best(begin, end, scorer);
    out.emplace_back(best ? scorer.Probability(best->features) : 0.0, best && best->correct);
  });
  return out;
}

double ChooseThreshold(const std::vector<std::pair<double, bool>>& answers, double max_accuracy) {
  double chosen = 0;
  for (int step = 1; step <= 99; ++step) {
    const double t = step / 100.0;
    size_t below = 0, right = 0;
    for (const auto& [p, ok] : answers) {
      if (p >= t) continue;
      ++below;
      right += ok ? 1 : 0;
    }
    if (below > 0 && static_cast<double>(right) <= max_accuracy * static_cast<double>(below)) chosen = t;
  }
  return chosen;
}

RankingReport EvaluateScorer(const Collected& data, const ReadingScorer& scorer,
                             const std::function<bool(size_t)>& keep) {
  RankingReport r;
  ForEachQuestion(data, keep, [&](const ScorerRow* begin, const ScorerRow* end) {
    ++r.questions;
    const ScorerRow* first_runs =
        std::find_if(begin, end, [](const ScorerRow& row) { return row.features[ReadingFeatureIndex("fails")] == 0; });
    const ScorerRow* best = Best(begin, end, scorer);
    r.any_right += std::any_of(begin, end, [](const ScorerRow& row) { return row.correct; }) ? 1 : 0;
    r.translator_right += first_runs != end && first_runs->correct ? 1 : 0;
    r.ranked_right += best && best->correct ? 1 : 0;
  });
  struct Answer {
    double confidence = 0;
    bool right = false;
  };
  std::vector<Answer> answers;
  for (const auto& [p, right] : ScoredAnswers(data, scorer, keep)) answers.push_back({p, right});
  // Calibration over the questions' answers (no candidate: confidence 0, wrong).
  std::array<double, 10> conf{}, acc{};
  std::array<size_t, 10> count{};
  for (const auto& a : answers) {
    const size_t bin = std::min<size_t>(9, static_cast<size_t>(a.confidence * 10));
    conf[bin] += a.confidence;
    acc[bin] += a.right ? 1 : 0;
    ++count[bin];
  }
  for (size_t b = 0; b < 10; ++b) {
    if (count[b] == 0) continue;
    r.ece += std::abs(conf[b] - acc[b]) / static_cast<double>(answers.size());
  }
  std::stable_sort(answers.begin(), answers.end(),
                   [](const Answer& a, const Answer& b) { return a.confidence > b.confidence; });
  const size_t half = answers.size() / 2;
  auto accuracy = [&](size_t from, size_t to) {
    if (to <= from) return 0.0;
    const auto right =
        std::count_if(answers.begin() + static_cast<std::ptrdiff_t>(from),
                      answers.begin() + static_cast<std::ptrdiff_t>(to), [](const Answer& a) { return a.right; });
    return static_cast<double>(right) / static_cast<double>(to - from);
  };
  r.top_half = accuracy(0, half);
  r.bottom_half = accuracy(half, answers.size());
  return r;
}

Result<Trained> TrainReadingScorer(const eval::Benchmark& bench, const TrainOptions& options,
                                   const linking::LinkResources& resources) {
  auto data = CollectReadings(bench, options.collect, resources);
  if (!data) return data.error();
  Trained out;
  out.data = std::move(*data);
  const Collected& d = out.data;
  auto held_out = [&](size_t q) { return InValidation(d.db_of[q], options.validation); };
  std::vector<ScorerRow> fit_rows;
  for (const auto& row : d.rows) {
    if (!held_out(row.question)) fit_rows.push_back(row);
  }
  const ReadingScorer held = FitReadingScorer(fit_rows, options.c);
  out.held_out = EvaluateScorer(d, held, held_out);
  const auto answers = ScoredAnswers(d, held, held_out);
  const double threshold = ChooseThreshold(answers, options.unsure_accuracy);
  size_t unsure = 0, unsure_right = 0;
  for (const auto& [p, right] : answers) {
    if (p >= threshold) continue;
    ++unsure;
    unsure_right += right ? 1 : 0;
  }
  out.unsure_share = answers.empty() ? 0 : static_cast<double>(unsure) / static_cast<double>(answers.size());
  out.unsure_accuracy = unsure ? static_cast<double>(unsure_right) / static_cast<double>(unsure) : 0;
  out.model = FitReadingScorer(d.rows, options.c);
  out.model.threshold = threshold;
  const RankingReport& r = out.held_out;
  auto share = [&](size_t n) { return r.questions ? static_cast<double>(n) / static_cast<double>(r.questions) : 0.0; };
  out.text = out.model.Serialize(fmt::format(
      "Generated by `plainsql builtin train` (do not edit): logistic regressions (liblinear L2, C = {}) over the\n"
      "features of src/builtin/scorer.h, fitted on {} readings of {} questions ({}): the weight (P(right)), then the\n"
      "ranking weight (pairs of a right and a wrong reading of one question).\n"
      "Held out ({} of the databases, {} questions): EX in the translator's order {:.4f}, ranked {:.4f}, best "
      "possible\n"
      "{:.4f}; ECE {:.4f}. Unsure threshold: at most {} of the held-out answers below it were right.",
      options.c, d.rows.size(), d.questions, options.source, options.validation, r.questions, share(r.translator_right),
      share(r.ranked_right), share(r.any_right), r.ece, options.unsure_accuracy));
  return out;
}

}  // namespace plainsql::builtin
