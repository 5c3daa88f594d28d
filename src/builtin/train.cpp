// Training the reading scorer (see train.h).
#include "builtin/train.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include "builtin/translator.h"
#include "catalog/introspect.h"
#include "common/hash.h"
#include "common/logistic.h"
#include "eval/metrics.h"
#include "retrieval/value_index.h"
#include "sql/parser.h"

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

// Every `foreign_every`-th question's database is also asked a question written for another database (picked by a
// fixed stride): whatever the translator reads of it is wrong. Spider has no unanswerable question; these show P(right)
// what a question about something else looks like ("what weather did the plants experience"). They come after the
// real questions (Collected::real_questions), and the ranking, fitted on right/wrong pairs of one question, never sees
// them.
// How training runs a question's readings: within ask's instruction budget, the wall clock only as a guard.
exec::Limits TrainingReadingLimits(const CollectOptions& options) {
  return {kTrainingReadingTimeout, options.limits.max_rows, kReadingRunLimits.max_steps};
}

// The skeletons and the shape model proposing them for a question of a database (null: none).
using SkeletonProposer = std::function<std::pair<const SkeletonLibrary*, const ShapeModel*>(const std::string& db_id)>;

// Translates `question` on `db` without a shape model (training sets the shape features itself, from models that have
// not seen the question), runs its first readings and appends a row for each to `out` under question number `id`,
// right when `right` says so of what it returned (nullopt: it failed).
Translation AddReadings(const std::string& question, Database& db, const CollectOptions& options,
                        retrieval::Stemmer& stemmer, size_t id,
                        const std::function<bool(const std::optional<exec::ResultSet>&)>& right, Collected& out,
                        const SkeletonProposer& proposer) {
  Translator translator(*db.schema, *db.index, db.values.get());
  translator.UseShapeModel(nullptr);
  const auto [skeletons, model] = proposer(db.schema->database);
  translator.UseSkeletons(skeletons, model);
  Translation t = translator.Translate(question, db.conn->dialect(), stemmer);
  const auto results = RunCandidates(t.candidates, *db.conn, TrainingReadingLimits(options), options.max_candidates);
  for (size_t i = 0; i < results.size(); ++i) {
    ScorerRow row;
    row.question = id;
    row.rank = i;
    row.features = t.candidates[i].features;
    if (t.candidates[i].query) row.shape = ShapeOf(*t.candidates[i].query);
    row.correct = right(results[i]);
    out.rows.push_back(row);
  }
  return t;
}

void AddForeignQuestions(const eval::Benchmark& bench, const CollectOptions& options,
                         std::map<std::string, std::unique_ptr<Database>>& dbs, retrieval::Stemmer& stemmer,
                         Collected& out, const SkeletonProposer& proposer) {
  const size_t n = bench.questions.size();
  out.real_questions = n;
  if (options.foreign_every == 0) return;
  for (size_t qi = 0; qi < n; qi += options.foreign_every) {
    if (out.db_of[qi].empty()) continue;
    const std::string db_id = out.db_of[qi];  // a copy: db_of grows below
    const eval::Question& asked = bench.questions[(qi * 7919 + 104'729) % n];
    if (asked.db_id == db_id) continue;
    const size_t id = out.db_of.size();
    const size_t before = out.rows.size();
    Translation t = AddReadings(
        asked.question, *dbs.at(db_id), options, stemmer, id,
        [](const std::optional<exec::ResultSet>&) { return false; }, out, proposer);
    out.db_of.push_back(db_id);
    out.masked_words.push_back(std::move(t.masked_words));
    out.gold_shapes.emplace_back(std::nullopt);
    out.gold_skeletons.emplace_back(std::nullopt);
    out.db_asked.push_back(db_id);
    out.foreign_readings += out.rows.size() - before;
  }
}

// The gold skeleton, gold shape and masked words of every question whose database opens (before any reading is run, so
// that each question's skeletons can come from the others').
void ReadGoldSkeletons(const eval::Benchmark& bench, const CollectOptions& options,
                       std::map<std::string, std::unique_ptr<Database>>& dbs, retrieval::Stemmer& stemmer,
                       const linking::LinkResources& resources, Collected& out) {
  for (size_t qi = 0; qi < bench.questions.size(); ++qi) {
    const eval::Question& q = bench.questions[qi];
    auto it = dbs.find(q.db_id);
    if (it == dbs.end()) it = dbs.emplace(q.db_id, OpenDatabase(options.db_dir, q.db_id, stemmer, resources)).first;
    Database* db = it->second.get();
    if (!db) continue;
    out.db_asked[qi] = q.db_id;
    auto parsed = sql::ParseQuery(q.gold_sql, db->conn->dialect());
    if (!parsed) continue;
    out.gold_shapes[qi] = ShapeOf(*parsed);
    out.gold_skeletons[qi] = ExtractSkeleton(*parsed, *db->schema, db->conn->dialect());
  }
}

// Per fold of databases: the skeletons of the other folds' questions (held-out databases aside) and a shape model
// fitted on those questions to propose them.
struct FoldProposers {
  std::vector<SkeletonLibrary> libraries;
  std::vector<ShapeModel> models;
  size_t FoldOf(const std::string& db_id) const { return Hash64(db_id + "/skeleton") % libraries.size(); }
};

FoldProposers FitFoldProposers(const Collected& data, const CollectOptions& options) {
  FoldProposers out;
  out.libraries.resize(options.skeleton_folds);
  out.models.resize(options.skeleton_folds);
  for (size_t f = 0; f < options.skeleton_folds; ++f) {
    auto keep = [&](size_t q) {
      const std::string& db = data.db_asked[q];
      return !db.empty() && out.FoldOf(db) != f && !(options.held_out && options.held_out(db));
    };
    out.libraries[f] = BuildSkeletonLibrary(data, keep);
    std::vector<std::vector<std::string>> words;
    std::vector<Shape> shapes;
    for (size_t q = 0; q < data.db_asked.size(); ++q) {
      if (!keep(q) || !data.gold_shapes[q]) continue;
      words.push_back(data.masked_words[q]);
      shapes.push_back(*data.gold_shapes[q]);
    }
    out.models[f] = FitShapeModel(words, shapes, options.shape_c);
  }
  return out;
}

}  // namespace

SkeletonLibrary BuildSkeletonLibrary(const Collected& data, const std::function<bool(size_t question)>& keep) {
  std::map<std::string, Skeleton> by_key;
  std::map<std::string, std::set<std::string>> databases;
  std::map<std::string, bool> unbuilt;
  for (size_t q = 0; q < data.gold_skeletons.size(); ++q) {
    if (!data.gold_skeletons[q] || !keep(q)) continue;
    const Skeleton& s = *data.gold_skeletons[q];
    const std::string key = s.Key();
    auto [form, added] = unbuilt.emplace(key, false);
    if (added) form->second = IsUnbuiltForm(s);
    if (!form->second) continue;
    auto [it, first] = by_key.emplace(key, s);
    it->second.count = first ? 1 : it->second.count + 1;
    databases[key].insert(data.db_asked[q]);
  }
  std::vector<Skeleton> skeletons;
  for (auto& [key, s] : by_key) {
    s.databases = databases[key].size();
    skeletons.push_back(std::move(s));
  }
  return SkeletonLibrary::FromCounts(std::move(skeletons), kSkeletonMinCount, kSkeletonMinCount);
}

SkeletonReadings CountSkeletonReadings(const Collected& data) {
  const size_t flag = ReadingFeatureIndex("skeleton");
  SkeletonReadings out;
  std::map<size_t, std::pair<bool, bool>> by_question;  // (a rule reading right, a skeleton right)
  for (const ScorerRow& row : data.rows) {
    const bool skeleton = row.features[flag] > 0;
    out.readings += skeleton ? 1 : 0;
    out.right += skeleton && row.correct ? 1 : 0;
    auto& [rule_right, skeleton_right] = by_question[row.question];
    (skeleton ? skeleton_right : rule_right) |= row.correct;
  }
  for (const auto& [q, r] : by_question) out.only_skeleton_right += !r.first && r.second ? 1 : 0;
  return out;
}

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
  out.masked_words.assign(bench.questions.size(), {});
  out.gold_shapes.assign(bench.questions.size(), std::nullopt);
  out.gold_skeletons.assign(bench.questions.size(), std::nullopt);
  out.db_asked.assign(bench.questions.size(), "");
  retrieval::Stemmer stemmer;
  std::map<std::string, std::unique_ptr<Database>> dbs;
  ReadGoldSkeletons(bench, options, dbs, stemmer, resources, out);
  // The masked words the fold models are fitted on: each question translated once without skeletons (the first
  // reading, which gives them, does not depend on skeletons).
  for (size_t qi = 0; qi < bench.questions.size() && options.skeleton_folds > 0; ++qi) {
    const eval::Question& q = bench.questions[qi];
    Database* db = dbs.at(q.db_id).get();
    if (!db || !out.gold_shapes[qi]) continue;
    Translator translator(*db->schema, *db->index, db->values.get());
    translator.UseShapeModel(nullptr);
    translator.UseSkeletons(nullptr);
    out.masked_words[qi] = translator.Translate(q.question, db->conn->dialect(), stemmer).masked_words;
  }
  FoldProposers folds;
  if (options.skeleton_folds > 0) folds = FitFoldProposers(out, options);
  const SkeletonProposer proposer =
      [&](const std::string& db_id) -> std::pair<const SkeletonLibrary*, const ShapeModel*> {
    if (folds.libraries.empty()) return {nullptr, nullptr};
    const size_t f = folds.FoldOf(db_id);
    return {&folds.libraries[f], &folds.models[f]};
  };
  for (size_t qi = 0; qi < bench.questions.size(); ++qi) {
    const eval::Question& q = bench.questions[qi];
    if (options.progress) options.progress(qi, bench.questions.size());
    Database* db = dbs.at(q.db_id).get();
    auto gold =
        db ? db->conn->Query(q.gold_sql, options.limits) : Result<exec::ResultSet>(MakeError(ErrorCode::kNotFound, ""));
    if (!gold) {
      ++out.skipped;
      out.gold_shapes[qi].reset();
      continue;
    }
    ++out.questions;
    out.db_of[qi] = q.db_id;
    const bool ordered = eval::OrderMatters(q.gold_sql);
    Translation t = AddReadings(
        q.question, *db, options, stemmer, qi,
        [&](const std::optional<exec::ResultSet>& rs) { return rs && eval::ExStrict(*gold, *rs, ordered); }, out,
        proposer);
    out.masked_words[qi] = std::move(t.masked_words);
  }
  if (options.progress) options.progress(bench.questions.size(), bench.questions.size());
  AddForeignQuestions(bench, options, dbs, stemmer, out, proposer);
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

// liblinear's L2-regularised logistic regression on the feature vectors; the weights and the bias (0 without one).
std::pair<std::vector<double>, double> FitFeatures(const std::vector<ReadingFeatureVector>& rows,
                                                   const std::vector<double>& y, double c, bool bias) {
  std::vector<SparseRow> sparse;
  sparse.reserve(rows.size());
  for (const auto& row : rows) {
    SparseRow x;
    for (size_t f = 0; f < row.size(); ++f) {
      if (row[f] != 0) x.emplace_back(static_cast<int>(f) + 1, row[f]);
    }
    sparse.push_back(std::move(x));
  }
  LogisticFit fit = plainsql::FitLogistic(sparse, y, static_cast<int>(kReadingFeatureCount), {.c = c, .bias = bias});
  return {std::move(fit.weights), fit.bias};
}

}  // namespace

ReadingScorer FitReadingScorer(const std::vector<ScorerRow>& rows, double c) {
  ReadingScorer s;
  // The ranking: within a question, a right reading against a wrong one (the difference of their features, both
  // ways), so that what every reading of a question shares does not count.
  std::vector<ReadingFeatureVector> x;
  std::vector<double> y;
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
  s.rank_weights = FitFeatures(x, y, c, false).first;
  // The probability: of the answer, the reading the ranking puts first in each question, right or wrong. (Fitted on
  // every reading instead, it learns from readings never shown, and each other reading a question offers shifts it.)
  x.clear();
  y.clear();
  for (size_t i = 0; i < rows.size();) {
    size_t end = i, best = i;
    for (; end < rows.size() && rows[end].question == rows[i].question; ++end) {
      if (s.RankScore(rows[end].features) > s.RankScore(rows[best].features)) best = end;
    }
    x.push_back(rows[best].features);
    y.push_back(rows[best].correct ? 1 : -1);
    i = end;
  }
  std::tie(s.weights, s.bias) = FitFeatures(x, y, c, true);
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
  // Within one standard error of the share: the accuracy below a threshold is flat around the share over a wide range
  // (held-out Spider train: 10-11% from 0.07 to 0.17), where the exact share would pick anywhere in that range from one
  // answer more or less; past the range it rises quickly, and that is where the threshold lands.
  double chosen = 0;
  for (int step = 1; step <= 99; ++step) {
    const double t = step / 100.0;
    size_t below = 0, right = 0;
    for (const auto& [p, ok] : answers) {
      if (p >= t) continue;
      ++below;
      right += ok ? 1 : 0;
    }
    const double n = static_cast<double>(below);
    const double allowed = max_accuracy * n + std::sqrt(n * max_accuracy * (1 - max_accuracy));
    if (below > 0 && static_cast<double>(right) <= allowed) chosen = t;
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

namespace {

// Trained::shape_accuracy and shape_majority.
void ReportShapeModel(const Collected& d, const std::function<bool(size_t)>& held_out, double c, Trained& out) {
  std::vector<size_t> tested;
  for (size_t q = 0; q < d.gold_shapes.size(); ++q) {
    if (d.gold_shapes[q] && held_out(q)) tested.push_back(q);
  }
  if (tested.empty()) return;
  const ShapeModel model = FitShapeModelOn(
      d, [&](size_t q) { return !held_out(q); }, c);
  std::array<size_t, kShapePropertyCount> right{}, positive{};
  for (size_t q : tested) {
    const ShapePrediction p = model.Predict(d.masked_words[q]);
    for (size_t k = 0; k < kShapePropertyCount; ++k) {
      const bool truth = (*d.gold_shapes[q])[k];
      right[k] += (p[k] >= 0.5) == truth ? 1 : 0;
      positive[k] += truth ? 1 : 0;
    }
  }
  const auto n = static_cast<double>(tested.size());
  for (size_t k = 0; k < kShapePropertyCount; ++k) {
    out.shape_accuracy[k] = static_cast<double>(right[k]) / n;
    out.shape_majority[k] = static_cast<double>(std::max(positive[k], tested.size() - positive[k])) / n;
  }
}

}  // namespace

Result<Trained> TrainReadingScorer(const eval::Benchmark& bench, const TrainOptions& options,
                                   const linking::LinkResources& resources) {
  CollectOptions collect = options.collect;
  collect.held_out = [&](const std::string& db_id) { return InValidation(db_id, options.validation); };
  collect.shape_c = options.shape_c;
  auto data = CollectReadings(bench, collect, resources);
  if (!data) return data.error();
  Trained out;
  out.data = std::move(*data);
  Collected& d = out.data;
  // Held out: the questions of the held-out databases, foreign ones included (they are not fitted on); reported: the
  // real ones among them.
  auto held_out = [&](size_t q) { return InValidation(d.db_of[q], options.validation); };
  auto reported = [&](size_t q) { return q < d.real_questions && held_out(q); };
  // The shape features: for the report, from models that saw neither the question's database nor the held-out ones;
  // for the model shipped, from models that did not see the question's database.
  const size_t folds = std::max<size_t>(2, options.shape_folds);
  auto fold = [&](size_t q, size_t k) { return static_cast<int>(Hash64(d.db_of[q] + "/shape") % k); };
  std::vector<int> report_folds(d.db_of.size()), ship_folds(d.db_of.size());
  for (size_t q = 0; q < d.db_of.size(); ++q) {
    report_folds[q] = held_out(q) ? -1 : fold(q, folds - 1);
    ship_folds[q] = fold(q, folds);
  }
  Collected report = d;
  SetOutOfFoldShapeFeatures(report, report_folds, options.shape_c);
  SetOutOfFoldShapeFeatures(d, ship_folds, options.shape_c);
  out.shape = FitShapeModelOn(
      d, [](size_t) { return true; }, options.shape_c);
  const auto shaped =
      std::count_if(d.gold_shapes.begin(), d.gold_shapes.end(), [](const auto& s) { return s.has_value(); });
  ReportShapeModel(d, reported, options.shape_c, out);
  out.shape_text = out.shape.Serialize(fmt::format(
      "Generated by `plainsql builtin train` (do not edit): the shape model of src/builtin/shape.h, one logistic\n"
      "regression per property (liblinear L1, C = {}) over the words and word pairs of {} masked questions ({}) that\n"
      "at least 2 of them have; {} inputs with a weight.",
      options.shape_c, shaped, options.source, out.shape.Inputs()));
  out.skeletons = BuildSkeletonLibrary(d, [&](size_t q) { return q < d.real_questions; });
  out.skeletons_text = out.skeletons.Serialize(fmt::format(
      "Generated by `plainsql builtin train` (do not edit): the skeletons of src/builtin/skeleton.h, the forms the\n"
      "passes do not build, of the gold queries of {} ({} questions), kept when at least {} questions of at least {}\n"
      "databases have them; {} skeletons. Fields: questions, databases, SQL, columns, values.",
      options.source, d.real_questions, kSkeletonMinCount, kSkeletonMinCount, out.skeletons.Size()));
  std::vector<ScorerRow> fit_rows;
  for (const auto& row : report.rows) {
    if (!held_out(row.question)) fit_rows.push_back(row);
  }
  const ReadingScorer held = FitReadingScorer(fit_rows, options.c);
  out.held_out = EvaluateScorer(report, held, reported);
  const auto answers = ScoredAnswers(report, held, reported);
  const double threshold = ChooseThreshold(answers, options.unsure_accuracy);
  // The coverage floor by the same rule, on the coverage of the reading ranked first: held-out answers covering less of
  // their question were seldom right, however probable the model found them.
  const size_t coverage = ReadingFeatureIndex("coverage");
  std::vector<std::pair<double, bool>> covered;
  ForEachQuestion(report, reported, [&](const ScorerRow* begin, const ScorerRow* end) {
    const ScorerRow* best = Best(begin, end, held);
    covered.emplace_back(best ? best->features[coverage] : 0.0, best && best->correct);
  });
  const double min_coverage = ChooseThreshold(covered, options.unsure_accuracy);
  // What `ask` would call unsure, by the rule's one home (ReadingScorer::Unsure); no reading at all is unsure too.
  ReadingScorer judged = held;
  judged.threshold = threshold;
  judged.min_coverage = min_coverage;
  const auto unsure_answer = [&](const ScorerRow* best) {
    return !best || !judged.Unsure(best->features, judged.Probability(best->features)).empty();
  };
  size_t answered = 0, unsure = 0, unsure_right = 0, below_floor = 0;
  ForEachQuestion(report, reported, [&](const ScorerRow* begin, const ScorerRow* end) {
    const ScorerRow* best = Best(begin, end, held);
    ++answered;
    below_floor += best && best->features[coverage] < min_coverage ? 1 : 0;
    if (!unsure_answer(best)) return;
    ++unsure;
    unsure_right += best && best->correct ? 1 : 0;
  });
  auto share_of = [](size_t n, size_t of) { return of ? static_cast<double>(n) / static_cast<double>(of) : 0.0; };
  out.below_floor_share = share_of(below_floor, answered);
  out.unsure_share = share_of(unsure, answered);
  out.unsure_accuracy = share_of(unsure_right, unsure);
  // The held-out databases' foreign questions that got a reading: how many of them `ask` would call unsure.
  size_t foreign = 0, foreign_unsure = 0;
  ForEachQuestion(
      report, [&](size_t q) { return q >= d.real_questions && held_out(q); },
      [&](const ScorerRow* begin, const ScorerRow* end) {
        const ScorerRow* best = Best(begin, end, held);
        if (!best) return;
        ++foreign;
        foreign_unsure += unsure_answer(best) ? 1 : 0;
      });
  out.foreign_answered = foreign;
  out.foreign_unsure = foreign ? static_cast<double>(foreign_unsure) / static_cast<double>(foreign) : 0;
  out.model = FitReadingScorer(d.rows, options.c);
  out.model.threshold = threshold;
  out.model.min_coverage = min_coverage;
  const RankingReport& r = out.held_out;
  auto share = [&](size_t n) { return r.questions ? static_cast<double>(n) / static_cast<double>(r.questions) : 0.0; };
  out.text = out.model.Serialize(fmt::format(
      "Generated by `plainsql builtin train` (do not edit): logistic regressions (liblinear L2, C = {}) over the\n"
      "features of src/builtin/scorer.h, fitted on {} readings of {} questions ({}), {} of them of questions asked of\n"
      "another database (wrong; one every {} questions): the weight (P(right), fitted on the reading ranked first in\n"
      "each question), then the ranking weight (pairs of a right and a wrong reading of one question).\n"
      "Held out ({} of the databases, {} questions): EX in the translator's order {:.4f}, ranked {:.4f}, best "
      "possible\n"
      "{:.4f}; ECE {:.4f}. Unsure threshold and coverage floor: at most {} of the held-out answers below each were\n"
      "right.",
      options.c, d.rows.size(), d.questions, options.source, d.foreign_readings, options.collect.foreign_every,
      options.validation, r.questions, share(r.translator_right), share(r.ranked_right), share(r.any_right), r.ece,
      options.unsure_accuracy));
  return out;
}

}  // namespace plainsql::builtin
