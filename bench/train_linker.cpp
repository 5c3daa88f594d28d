// Trains the built-in subsetter's scorer (src/linking/subset_builtin.h, issue #18) and chooses its thresholds; also
// times it on a 90,000-column synthetic schema.
//
//   train_linker --questions train.json --tables tables.json --db-dir database --out src/linking/subset_model.tsv
//   train_linker --speed
//   train_linker --held-out --questions train.json     the held-out databases (bench/real_cryptic_questions.py)
//
// Training questions are split by database, 80/20 (a database is held out when the hash of its db_id is 0 mod 5, as
// examples_quality does). Each table and column of a question's database is one example for the table or column
// model, labelled by whether the gold query reads it (the identifiers `eval subsets` scores against: sql::Resolve +
// eval::QueryIdentifiers): gradient-boosted trees (XGBoost, --learner trees, the default) and the logistic regression
// over the features and their pairwise products (liblinear, L2, C = --c; it scores only when there are no trees).
// Trees were chosen on the held-out databases (a first test of four settings, depth 4 / 6 with and without monotone
// constraints, against the regression: depth 4 unconstrained ranked gold columns best). The models are fitted on the
// 80 %; on the held-out 20 % a grid of (table threshold, column threshold, whole-table size) is scored with
// eval::ScoreSubset, then a floor on the share of columns kept (SubsetCut::min_share) with the thresholds tried again
// around it, and the setting with the highest perfect recall whose mean proportion (of the schema's tables and columns
// kept; --proportion attribute: of its columns, the share issue #18's bars cap, tried in docs/BENCHMARKS.md's
// nineteenth part and not the default) stays under --max-proportion is written with the model; the bound must hold on
// the held-out questions over the smaller half of the schemas too
// (--small-schemas, the default: Spider train's held-out mix has larger schemas than many a user's set, and a small
// schema keeps the largest share). With --merged-every N the cut for a schema alone is also held to --merged-cap (0.15)
// on the held-out databases merged into schemas of at least --merged-columns (1,000) columns (0: one schema of about
// 1,300; the twentieth part of docs/BENCHMARKS.md says why), and counts its perfect recall there too (Spider train has
// no schema larger than a few dozen columns; the shipped model's options are in src/linking/README.md). With a merged
// schema the floor may also shrink with the schema's size (SubsetCut::min_share_decay), and
// --merged-cryptic merges the held-out databases' abbreviated copies instead (a large schema of cryptic names, where
// the scores are least sharp). With --medium-every N the cut is also held to --medium-cap on the held-out databases
// merged in groups of a few hundred columns (SKALPEL's M size), and the floor may stay whole up to a larger size and
// fall faster beyond it (SubsetCut::min_share_full_up_to; docs/BENCHMARKS.md, twentieth part), or rise to a share of
// its own at a few hundred columns and fall beyond (SubsetCut::min_share_points, the twenty-first). --model FILE takes
// a fitted model whole and only chooses the cuts again. With
// --wide-every N every Nth training question is also fitted, without a database, on a copy of its database whose most
// read table is widened to 64-192 columns (--wide-widths) by columns borrowed from the other training databases (Spider
// train has no table wider than 42 columns); every 8th question by default (docs/BENCHMARKS.md, thirteenth part: the
// refit that kept both the wide-table and the proper-noun behaviour of tests/linking/subset_test.cpp). The borrowed
// names carry no word of the database's questions, or with --wide-borrow distinct any word but none meaning what an
// own column means (tried: worse on the L-size stand-ins, thirty-third part). --cut-from FILE fits the scorer and takes
// FILE's cuts without a search. With
// --cryptic-every N every Nth training question is also fitted, without a database, on a copy of its database whose
// names are abbreviated (CrypticCopy); the held-out questions are always scored on such copies of their databases too
// ("validation on abbreviated copies"), a measure of cryptic names that reads no benchmark's cryptic schema. Each
// database is opened with its SQLite file, so every question has the built-in translator's draft and the cell values as
// evidence; each training question is also fitted as if no database were at hand (no draft, no cell values) and with
// the values but no draft, so the one model serves a schema alone as well, and the held-out score is printed both ways.
// Linking here reads a lexicon learned, as the shipped one is, from the questions of the databases not held out
// (--lexicon without-held-out, the default; the shipped one saw the held-out questions too). Nothing is keyed to a
// name of a benchmark's schemas or to its questions; dev is never read here.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>

#include "builtin/lexicon_train.h"
#include "catalog/benchmark_schema.h"
#include "catalog/name_catalog.h"
#include "common/boosting.h"
#include "common/hash.h"
#include "common/logistic.h"
#include "common/strings.h"
#include "eval/benchmark.h"
#include "eval/metrics.h"
#include "linking/subset_builtin.h"
#include "linking/subset_methods.h"
#include "naturalness/identifier.h"
#include "naturalness/namer.h"
#include "naturalness/translate_query.h"
#include "retrieval/text.h"
#include "sql/parser.h"
#include "sql/resolver.h"

namespace {

using plainsql::linking::BuiltinSubsetter;
using plainsql::linking::QuestionFeatures;
using plainsql::linking::SubsetModel;
using plainsql::linking::SubsetOptions;

bool HeldOut(const std::string& db_id) { return plainsql::Hash64(db_id) % 5 == 0; }

// The fold of a training database for --cross-fit-lexicon (independent of HeldOut's remainder).
size_t LexiconFold(const std::string& db_id) { return plainsql::Hash64(db_id) / 5 % 5; }

struct Example {
  std::string db_id, question;
  size_t db = 0;                     // the database's number (the cluster of the proportion's standard error)
  QuestionFeatures features, plain;  // with the database (draft, values), and without it
  plainsql::linking::QuestionScores scores, plain_scores;  // under the fitted weights
  std::set<std::string> gold;                              // lower-case tables and "table.column"
  BuiltinSubsetter* subsetter = nullptr;
  size_t schema_size = 0;  // tables and columns
  plainsql::eval::SchemaSize schema;
  bool held_out = false;
};

// Training rows: each the model's inputs (features and their products), sparse.
struct Rows {
  int n = 0;  // inputs per row
  std::vector<plainsql::SparseRow> x;
  std::vector<double> y;
  void Add(const std::vector<double>& features, bool label) {
    const std::vector<double> inputs = plainsql::linking::ModelInputs(features);
    n = static_cast<int>(inputs.size());
    plainsql::SparseRow row;
    for (size_t f = 0; f < inputs.size(); ++f) {
      if (inputs[f] != 0) row.emplace_back(static_cast<int>(f) + 1, inputs[f]);
    }
    x.push_back(std::move(row));
    y.push_back(label ? 1 : -1);
  }
};

// liblinear's L2 logistic regression; returns the weights and the bias (for label 1).
std::pair<std::vector<double>, double> Fit(const Rows& rows, double c) {
  plainsql::LogisticFit fit = plainsql::FitLogistic(rows.x, rows.y, rows.n, {.c = c});
  return {std::move(fit.weights), fit.bias};
}

// Sets the named features (table or column ones; a name may be both) to 0 in every row: an ablation.
void Drop(const std::vector<std::string>& names, QuestionFeatures& f) {
  auto clear = [&](const std::vector<std::string>& all, std::vector<double>& x) {
    for (const auto& name : names) {
      const auto i = static_cast<size_t>(std::find(all.begin(), all.end(), name) - all.begin());
      if (i < x.size()) x[i] = 0;
    }
  };
  for (auto& t : f.tables) clear(plainsql::linking::TableFeatureNames(), t);
  for (auto& table : f.columns) {
    for (auto& c : table) clear(plainsql::linking::ColumnFeatureNames(), c);
  }
}

std::set<std::string> Kept(const plainsql::linking::Subset& s) {
  std::set<std::string> out;
  for (const auto& t : s.tables) out.insert(plainsql::ToLower(t));
  for (const auto& c : s.columns) out.insert(plainsql::ToLower(c));
  return out;
}

// Which share of a schema the cuts are held to (--proportion): the attribute proportion, kept columns over the
// schema's columns (what issue #18's bars cap), or the proportion of tables and columns together.
bool g_attribute_proportion = false;

struct Totals {
  double perfect = 0, proportion = 0, relation_recall = 0, attribute_recall = 0, recall = 0;
  size_t n = 0;
  std::vector<std::pair<double, size_t>> by_db;  // per database: the sum of its questions' proportions, their number
  void Add(const plainsql::eval::SubsetScores& s, size_t db) {
    ++n;
    perfect += s.perfect ? 1 : 0;
    const double share = g_attribute_proportion ? s.attribute_proportion : s.proportion;
    proportion += share;
    if (by_db.size() <= db) by_db.resize(db + 1);
    by_db[db].first += share;
    ++by_db[db].second;
    relation_recall += s.relation_recall;
    attribute_recall += s.attribute_recall;
    recall += s.recall;
  }
  // The mean proportion plus `z` standard errors, the error clustered by database (questions of one database are
  // alike, so the mean over a new set of databases varies by database, not by question): the cap must hold on
  // databases the thresholds were not chosen on.
  double ProportionBound(double z) const {
    if (n == 0) return 0;
    const double mean = proportion / static_cast<double>(n);
    double ss = 0;
    for (const auto& [sum, k] : by_db)
      ss += (sum - static_cast<double>(k) * mean) * (sum - static_cast<double>(k) * mean);
    return mean + z * std::sqrt(ss) / static_cast<double>(n);
  }
  std::string Line() const {
    auto m = [&](double v) { return n ? v / static_cast<double>(n) : 0.0; };
    return fmt::format(
        "PRe {:.3f}  {} {:.3f}  relation recall {:.3f}  attribute recall {:.3f}  recall {:.3f}"
        "  ({} questions)",
        m(perfect), g_attribute_proportion ? "attribute proportion" : "proportion", m(proportion), m(relation_recall),
        m(attribute_recall), m(recall), n);
  }
};

// The subsets of the held-out (or the fitted) questions scored, with their drafts or without (`plain`); only those
// over schemas of at most `max_size` tables and columns.
Totals Score(const std::vector<Example>& examples, bool held_out, bool plain, size_t max_size = SIZE_MAX) {
  Totals t;
  for (const auto& e : examples) {
    if (e.held_out != held_out || e.schema_size > max_size) continue;
    const auto& scores = plain ? e.plain_scores : e.scores;
    t.Add(plainsql::eval::ScoreSubset(e.gold, Kept(e.subsetter->Choose(scores, {})), e.schema), e.db);
  }
  return t;
}

void SetModel(std::map<std::string, std::unique_ptr<plainsql::linking::SubsetDatabase>>& dbs, const SubsetModel& m) {
  for (auto& [id, db] : dbs) dynamic_cast<BuiltinSubsetter*>(db->subsetter.get())->SetModel(m);
}

// One cut, for questions with a draft and without, in every database's subsetter (the model stays).
void SetCut(std::map<std::string, std::unique_ptr<plainsql::linking::SubsetDatabase>>& dbs,
            const plainsql::linking::SubsetCut& cut) {
  for (auto& [id, db] : dbs) dynamic_cast<BuiltinSubsetter*>(db->subsetter.get())->SetCuts(cut, cut);
}

// Held-out databases merged into one larger schema (a table whose name another already took gets a suffix), and a
// sample of their questions asked of it without a database: the cut for a schema alone must also hold on a schema of
// hundreds of columns, which Spider train has none of (its largest has a few dozen).
struct Merged {
  plainsql::catalog::Schema schema;
  std::unique_ptr<BuiltinSubsetter> subsetter;
  struct Question {
    std::set<std::string> gold;
    plainsql::linking::QuestionScores scores;
    QuestionFeatures features;
  };
  std::vector<Question> questions;
  double cap = 0.15;  // the mean proportion a cut may keep of it
  Totals Score() const {
    Totals t;
    ScoreInto(t, 0);
    return t;
  }
  // Its questions' subsets added to `t` as those of one database (`db`).
  void ScoreInto(Totals& t, size_t db) const {
    for (const auto& q : questions) {
      t.Add(plainsql::eval::ScoreSubset(q.gold, Kept(subsetter->Choose(q.scores, {})),
                                        plainsql::eval::SchemaSize{schema.tables.size(), schema.ColumnCount()}),
            db);
    }
  }
};

// The schemas larger than Spider train's that the cut for a schema alone is also held on: the held-out databases
// merged in groups into schemas of a few hundred columns each (SKALPEL's M size, 100-999 columns: --medium-every,
// held to --medium-cap, pooled over the groups), and merged into schemas of at least --merged-columns columns
// (--merged-every, --merged-cap; 1,000 by default, the least of SKALPEL's L size: a share falls with the size, so a
// cap held at the least size of a class holds over the class). A floor that shrinks with the size from the first size
// on would keep as small a share of a few hundred columns as of thousands; held on both, it may stay whole longer and
// fall faster (SubsetCut::min_share_full_up_to). Held at the least size of the L class alone, a floor that falls fast
// beyond it keeps too little at its upper end: all the held-out databases padded with training databases to at least
// --upper-columns (2,400) columns are held to the L cap too, their perfect recall counted with the merged schemas'.
struct CrypticCopy;

struct LargeSchemas {
  std::vector<std::unique_ptr<Merged>> medium, merged, upper;
  double medium_cap = 0.5, merged_cap = 0.15;  // upper: merged_cap too
  // With --abbreviated-weight: the held-out databases' abbreviated copies, their questions' scores under the model, and
  // the weight their perfect recall has beside the held-out questions' in the objective of the cut without a database
  // (no cap of their own: they are as small as the held-out databases).
  const std::vector<CrypticCopy>* abbreviated = nullptr;
  std::vector<std::vector<plainsql::linking::QuestionScores>> abbreviated_scores;
  double abbreviated_weight = 0;
  double AbbreviatedPerfect(const plainsql::linking::SubsetCut& cut) const;  // defined after CrypticCopy
  bool Empty() const { return medium.empty() && merged.empty() && upper.empty(); }
  static Totals Pooled(const std::vector<std::unique_ptr<Merged>>& schemas) {
    Totals t;
    for (size_t g = 0; g < schemas.size(); ++g) schemas[g]->ScoreInto(t, g);
    return t;
  }
  void SetCut(const plainsql::linking::SubsetCut& cut) {
    for (auto* set : {&medium, &merged, &upper}) {
      for (auto& m : *set) m->subsetter->SetCuts(cut, cut);
    }
  }
  void SetModel(const SubsetModel& model) {
    for (auto* set : {&medium, &merged, &upper}) {
      for (auto& m : *set) m->subsetter->SetModel(model);
    }
  }
};

// One held-out database to merge: its schema and its questions with their gold in its names.
struct MergePart {
  std::string id;
  const plainsql::catalog::Schema* schema = nullptr;
  std::vector<std::pair<const std::string*, const std::set<std::string>*>> questions;
};

// The held-out databases as they are.
std::vector<MergePart> HeldOutParts(
    const std::map<std::string, std::unique_ptr<plainsql::linking::SubsetDatabase>>& dbs,
    const std::vector<Example>& examples) {
  std::map<std::string, MergePart> parts;
  for (const auto& e : examples) {
    if (!e.held_out) continue;
    MergePart& p = parts[e.db_id];
    p.id = e.db_id;
    p.schema = &dbs.at(e.db_id)->schema;
    p.questions.emplace_back(&e.question, &e.gold);
  }
  std::vector<MergePart> out;
  for (auto& [id, p] : parts) out.push_back(std::move(p));
  return out;
}

std::unique_ptr<Merged> MergeHeldOut(const std::vector<MergePart>& parts,
                                     std::shared_ptr<const plainsql::linking::LinkResources> resources, size_t every) {
  auto m = std::make_unique<Merged>();
  m->schema.database = "held-out databases merged";
  std::set<std::string> taken;
  std::map<std::string, std::map<std::string, std::string>> renamed;  // db -> lower table name -> its merged name
  for (const MergePart& part : parts) {
    auto& names = renamed[part.id];
    for (const auto& t : part.schema->tables) {
      std::string name = t.name;
      for (int k = 2; taken.count(plainsql::ToLower(name)); ++k) name = fmt::format("{}_{}", t.name, k);
      taken.insert(plainsql::ToLower(name));
      names[plainsql::ToLower(t.name)] = name;
    }
    for (auto t : part.schema->tables) {
      t.name = names[plainsql::ToLower(t.name)];
      for (auto& fk : t.foreign_keys) fk.ref_table = names[plainsql::ToLower(fk.ref_table)];
      m->schema.tables.push_back(std::move(t));
    }
  }
  m->subsetter = std::make_unique<BuiltinSubsetter>(m->schema, std::move(resources), nullptr);
  size_t k = 0;
  for (const MergePart& part : parts) {
    const auto& names = renamed[part.id];
    for (const auto& [question, gold] : part.questions) {
      if (k++ % every != 0) continue;
      Merged::Question q;
      for (const auto& g : *gold) {
        const size_t dot = g.find('.');
        const std::string table = plainsql::ToLower(names.at(g.substr(0, dot)));
        q.gold.insert(dot == std::string::npos ? table : table + g.substr(dot));
      }
      q.features = m->subsetter->Features(*question, false);
      m->questions.push_back(std::move(q));
    }
  }
  return m;
}

// The held-out databases in groups of at least `columns` columns (in their order; a last group of fewer than 100
// joins the one before), each group merged as MergeHeldOut merges them all.
std::vector<std::unique_ptr<Merged>> MergeMedium(
    const std::vector<MergePart>& parts, const std::shared_ptr<const plainsql::linking::LinkResources>& resources,
    size_t every, size_t columns) {
  std::vector<std::vector<MergePart>> groups;
  size_t in_last = columns;  // columns in the last group
  for (const MergePart& part : parts) {
    if (in_last >= columns) {
      groups.emplace_back();
      in_last = 0;
    }
    groups.back().push_back(part);
    in_last += part.schema->ColumnCount();
  }
  if (groups.size() > 1 && in_last < 100) {
    for (auto& part : groups.back()) groups[groups.size() - 2].push_back(std::move(part));
    groups.pop_back();
  }
  std::vector<std::unique_ptr<Merged>> out;
  for (const auto& group : groups) out.push_back(MergeHeldOut(group, resources, every));
  return out;
}

// The held-out databases merged into schemas of at least `columns` columns each (all of them in one when they hold
// fewer, or with `columns` 0): consecutive databases from the first until they hold that many, then again from the
// next one on, wrapping around, until every database is in one.
std::vector<std::unique_ptr<Merged>> MergeWindows(
    const std::vector<MergePart>& parts, const std::shared_ptr<const plainsql::linking::LinkResources>& resources,
    size_t every, size_t columns) {
  size_t all = 0;
  for (const MergePart& part : parts) all += part.schema->ColumnCount();
  std::vector<std::unique_ptr<Merged>> out;
  if (columns == 0 || all <= columns) {
    out.push_back(MergeHeldOut(parts, resources, every));
    return out;
  }
  for (size_t start = 0; start < parts.size();) {
    std::vector<MergePart> window;
    size_t in = 0, k = start;
    for (; in < columns; ++k) {
      window.push_back(parts[k % parts.size()]);
      in += parts[k % parts.size()].schema->ColumnCount();
    }
    out.push_back(MergeHeldOut(window, resources, every));
    start = k;
  }
  return out;
}

// All the held-out databases merged with training databases after them (`padding`, in their order, none of their
// questions asked) until the schema holds at least `columns` columns: a schema at the upper end of a size class, for a
// floor that falls with the size is otherwise held only at the class's least size and may keep too little above it.
std::unique_ptr<Merged> MergePadded(std::vector<MergePart> parts, const std::vector<MergePart>& padding,
                                    std::shared_ptr<const plainsql::linking::LinkResources> resources, size_t every,
                                    size_t columns) {
  size_t in = 0;
  for (const MergePart& part : parts) in += part.schema->ColumnCount();
  for (size_t k = 0; k < padding.size() && in < columns; ++k) {
    parts.push_back(MergePart{padding[k].id, padding[k].schema, {}});
    in += padding[k].schema->ColumnCount();
  }
  return MergeHeldOut(parts, std::move(resources), every);
}

// The size (tables and columns) of the schema of the held-out question at the middle when they are ordered by it: the
// questions at or below it are the small half.
size_t MedianHeldOutSize(const std::vector<Example>& examples) {
  std::vector<size_t> sizes;
  for (const auto& e : examples) {
    if (e.held_out) sizes.push_back(e.schema_size);
  }
  if (sizes.empty()) return 0;
  std::nth_element(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(sizes.size() / 2), sizes.end());
  return sizes[sizes.size() / 2];
}

// The floor's shapes with points (SubsetCut::min_share_points), each cut given to `try_cut`, around `best` (the best
// cut so far, updated by try_cut): first one point, then two.
void TryFloorPoints(const std::function<void(const plainsql::linking::SubsetCut&)>& try_cut,
                    const plainsql::linking::SubsetCut& best) {
  // A floor of its own for each size class: a share whole up to a small size, a point at a few hundred columns (an
  // M-size schema may spend its cap), and a decay beyond it (an L-size one may not).
  const plainsql::linking::SubsetCut single = best;  // a copy: try_cut changes best
  const std::vector<double> small_shares = {0.1, 0.15, 0.2, 0.25, 0.3}, small_sizes = {64, 128, 256};
  const std::vector<double> points = {384, 512, 768, 1024}, point_shares = {0.3, 0.4, 0.5, 0.6};
  const std::vector<double> beyond = {1, 2, 4, 8};
  const size_t shapes = small_shares.size() * small_sizes.size() * points.size() * point_shares.size();
  for (size_t variant = 0; variant < shapes * beyond.size(); ++variant) {
    size_t k = variant;
    plainsql::linking::SubsetCut cut = single;
    cut.min_share = small_shares[k % small_shares.size()];
    k /= small_shares.size();
    cut.min_share_full_up_to = small_sizes[k % small_sizes.size()];
    k /= small_sizes.size();
    const double point = points[k % points.size()];
    k /= points.size();
    cut.min_share_points = {{point, point_shares[k % point_shares.size()]}};
    cut.min_share_decay = beyond[k / point_shares.size()];
    try_cut(cut);
  }
  // A second point for the L class (a share held at its least size need not fall as fast above it), around the
  // best small share so far.
  const plainsql::linking::SubsetCut one_point = best;  // a copy, as above
  const std::vector<double> second = {1024, 1536, 2048}, second_shares = {0.05, 0.1, 0.15};
  const std::vector<double> gentle = {0.5, 1, 2};
  for (size_t variant = 0; variant < points.size() * point_shares.size() * second.size() * second_shares.size();
       ++variant) {
    size_t k = variant;
    const double point = points[k % points.size()];
    k /= points.size();
    const double point_share = point_shares[k % point_shares.size()];
    k /= point_shares.size();
    const double next = second[k % second.size()];
    const double next_share = second_shares[k / second.size()];
    if (next <= point) continue;
    for (double decay_beyond : gentle) {
      plainsql::linking::SubsetCut cut = one_point;
      cut.min_share_points = {{point, point_share}, {next, next_share}};
      cut.min_share_decay = decay_beyond;
      try_cut(cut);
    }
  }
}

// The cut with the highest held-out perfect recall whose mean proportion, plus `z` standard errors by database, stays
// under `max_proportion`, for questions with their drafts or without (`plain`); with `small_size`, the same bound must
// also hold on the held-out questions over schemas of at most that size (a user's databases may all be small, where a
// subset keeps the largest share). With `large` (the cut without a database) also under the caps of its larger
// schemas, the perfect recall counted the mean of the sets'. Prints the best perfect recall under a few caps (of the
// mean alone).
plainsql::linking::SubsetCut ChooseCut(std::map<std::string, std::unique_ptr<plainsql::linking::SubsetDatabase>>& dbs,
                                       const std::vector<Example>& examples, const SubsetModel& model, bool plain,
                                       double max_proportion, double z, size_t small_size, LargeSchemas* large) {
  const bool decay = large != nullptr && !large->Empty();
  const std::vector<double> grid = {0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.4, 0.6};
  const std::vector<double> lambdas = {0, 2, 4, 8, 16, 32};
  const std::vector<size_t> sizes = {0, 5, 8, 12};
  double best_perfect = -1, best_proportion = 1;
  plainsql::linking::SubsetCut best = model.cut;
  const std::vector<double> caps = {0.3, 0.35, 0.4, 0.45, 0.5, 0.55};
  std::vector<double> curve(caps.size(), 0.0);
  // Scores one cut on the held-out questions: the curve, and the best cut whose proportion bound stays under the cap.
  // With larger schemas (second stage only: they are slow to score), a cut must also keep its mean proportion under
  // each one's cap, and the perfect recall counted is the mean of the sets'.
  bool with_large = false;
  auto try_cut = [&](const plainsql::linking::SubsetCut& cut) {
    // A floor whose points are not beyond its whole size (a point tried around a best cut whose whole size has since
    // grown past it) is one the model file could not hold: the loader refuses it.
    if (!cut.Check()) return;
    SetCut(dbs, cut);
    Totals t = Score(examples, true, plain);
    double perfect = t.perfect / static_cast<double>(t.n), proportion = t.proportion / static_cast<double>(t.n);
    for (size_t i = 0; i < caps.size(); ++i) {
      if (proportion <= caps[i] && perfect > curve[i]) curve[i] = perfect;
    }
    if (t.ProportionBound(z) > max_proportion) return;
    if (small_size > 0 && Score(examples, true, plain, small_size).ProportionBound(z) > max_proportion) return;
    if (with_large) {
      large->SetCut(cut);
      double sum = perfect, sets = 1;
      // The padded schema is held to the L cap on its own and its questions count with the merged schemas' (one
      // size class, one set).
      const Totals upper = LargeSchemas::Pooled(large->upper);
      if (upper.n > 0 && upper.proportion / static_cast<double>(upper.n) > large->merged_cap) return;
      for (const auto& [schemas, cap] :
           {std::pair{&large->medium, large->medium_cap}, {&large->merged, large->merged_cap}}) {
        Totals mt = LargeSchemas::Pooled(*schemas);
        if (mt.n == 0) continue;  // not asked for, or no question asked of them
        if (mt.proportion / static_cast<double>(mt.n) > cap) return;
        if (schemas == &large->merged) {
          mt.perfect += upper.perfect;
          mt.n += upper.n;
        }
        sum += mt.perfect / static_cast<double>(mt.n);
        ++sets;
      }
      if (large->abbreviated_weight > 0) {
        sum += large->abbreviated_weight * large->AbbreviatedPerfect(cut);
        sets += large->abbreviated_weight;
      }
      perfect = sum / sets;
    }
    if (perfect > best_perfect || (perfect == best_perfect && proportion < best_proportion)) {
      best_perfect = perfect;
      best_proportion = proportion;
      best = cut;
    }
  };
  const size_t settings = grid.size() * grid.size() * lambdas.size() * lambdas.size() * sizes.size();
  for (size_t setting = 0; setting < settings; ++setting) {
    size_t k = setting;
    plainsql::linking::SubsetCut cut;
    cut.table_threshold = grid[k % grid.size()];
    k /= grid.size();
    cut.column_threshold = grid[k % grid.size()];
    k /= grid.size();
    cut.table_lambda = lambdas[k % lambdas.size()];
    k /= lambdas.size();
    cut.column_lambda = lambdas[k % lambdas.size()];
    k /= lambdas.size();
    cut.small_table = sizes[k % sizes.size()];
    try_cut(cut);
  }
  // Then a floor on the share of columns kept (SubsetCut::min_share) and many-to-many associations between kept tables
  // (SubsetCut::associations), with the thresholds tried again around them.
  const plainsql::linking::SubsetCut base = best;
  if (decay) {
    with_large = true;
    best_perfect = -1;
    best_proportion = 1;
    try_cut(base);
  }
  // A floor shrinking with the schema's size (SubsetCut::min_share_decay) only when asked: the schemas scored here are
  // as small as the training ones unless a merged schema is given.
  const std::vector<double> shares = {0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.4};
  const std::vector<double> decays = decay ? std::vector<double>{0, 0.25, 0.5, 1} : std::vector<double>{0};
  for (size_t variant = 0; variant < 2 * shares.size() * decays.size(); ++variant) {
    const double share = shares[variant % shares.size()];
    const double share_decay = decays[variant / shares.size() % decays.size()];
    if (share == 0 && share_decay > 0) continue;
    for (size_t setting = 0; setting < grid.size() * grid.size(); ++setting) {
      plainsql::linking::SubsetCut cut = base;
      cut.min_share = share;
      cut.min_share_decay = share_decay;
      cut.associations = variant >= shares.size() * decays.size();
      cut.table_threshold = grid[setting % grid.size()];
      cut.column_threshold = grid[setting / grid.size()];
      try_cut(cut);
    }
  }
  // Then, with larger schemas, a floor whole up to a larger size and falling faster beyond (a few hundred columns may
  // keep the share of a small schema), around the best thresholds and associations so far.
  if (decay) {
    const plainsql::linking::SubsetCut so_far = best;
    const std::vector<double> knees = {128, 256, 512, 1024};
    const std::vector<double> more_shares = {0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5};
    const std::vector<double> steeper = {0.25, 0.5, 1, 2};
    for (size_t variant = 0; variant < knees.size() * more_shares.size() * steeper.size(); ++variant) {
      for (double column_threshold : grid) {
        plainsql::linking::SubsetCut cut = so_far;
        cut.min_share_full_up_to = knees[variant % knees.size()];
        cut.min_share = more_shares[variant / knees.size() % more_shares.size()];
        cut.min_share_decay = steeper[variant / knees.size() / more_shares.size()];
        cut.column_threshold = column_threshold;
        try_cut(cut);
      }
    }
    TryFloorPoints(try_cut, best);  // then the column threshold again around the best
    const plainsql::linking::SubsetCut shaped = best;
    for (double column_threshold : grid) {
      plainsql::linking::SubsetCut cut = shaped;
      cut.column_threshold = column_threshold;
      try_cut(cut);
    }
  }
  for (size_t i = 0; i < caps.size(); ++i) {
    fmt::print("held-out{}: best PRe {:.3f} at mean proportion <= {:.2f}\n", plain ? " (no database)" : "", curve[i],
               caps[i]);
  }
  return best;
}

// A training database with one table widened by columns borrowed from the other training databases, and its
// questions' features on it without a database: Spider train's widest table has a few dozen columns, a user's may have
// hundreds (an ERP's documents), and a model fitted on narrow tables alone extrapolates a width it never saw (a refit
// kept most of a 160-column table). The borrowed columns are never gold, and none carries a word of the database's
// questions: they teach the model what width alone does to a column with no evidence, not new name matches.
struct WideCopy {
  std::unique_ptr<plainsql::catalog::Schema> schema;
  std::unique_ptr<BuiltinSubsetter> subsetter;
  std::vector<std::pair<QuestionFeatures, const Example*>> questions;
};

// The lower-case words of a name (SplitWords).
std::vector<std::string> LowerWords(std::string_view name) {
  std::vector<std::string> out;
  for (const auto w : plainsql::naturalness::SplitWords(name)) out.push_back(plainsql::ToLower(w));
  return out;
}

// Whether `short_name` (three letters or more, shorter than `long_name`) could be written for it: its first letter,
// then its other letters in order ("fname" for "firstname", "stuid" for "studentid").
bool Abbreviates(std::string_view short_name, std::string_view long_name) {
  return short_name.size() >= 3 && short_name.size() < long_name.size() && plainsql::Abbreviates(short_name, long_name);
}

// What a table's own columns mean, to tell whether a borrowed name says it again (as bench/l_standin.py tells it):
// per column (its name and its readable label), its letters, the WordNet synonyms of the whole name and those of each
// of its words. Generic words ("id", "name", "code", ...) are never a meaning of their own.
class OwnMeanings {
 public:
  OwnMeanings(const plainsql::catalog::Table& table, const plainsql::retrieval::WordNet* wordnet) {
    for (const auto& c : table.columns) {
      for (const std::string* name : {&c.name, &c.label}) {
        if (name->empty()) continue;
        Meaning m;
        const auto split = LowerWords(*name);
        for (const auto& w : split) {
          m.letters += w;
          m.near.insert(w);
          if (!wordnet) continue;
          for (const auto& r : wordnet->Related(w)) {
            if (r.relation == plainsql::retrieval::Relation::kSynonym) m.near.insert(r.word);
          }
        }
        if (wordnet && !split.empty()) {
          for (const auto& synonym : wordnet->NounSynonyms(split))
            m.whole_synonyms.insert(fmt::format("{}", fmt::join(synonym, "_")));
        }
        meanings_.push_back(std::move(m));
      }
    }
  }
  // One name's letters abbreviate the other's, the whole name is a synonym of a column's, or each of its words (but
  // generic ones) is one of a column's words or their synonyms.
  bool SaidAgain(std::string_view borrowed) const {
    static const std::set<std::string, std::less<>> kGeneric = {"id",     "name", "code", "type", "date",
                                                                "number", "num",  "no",   "of",   "the"};
    const auto split = LowerWords(borrowed);
    std::string letters;
    for (const auto& w : split) letters += w;
    const std::string whole = fmt::format("{}", fmt::join(split, "_"));
    std::vector<std::string> mine;
    for (const auto& w : split) {
      if (!kGeneric.count(w)) mine.push_back(w);
    }
    for (const auto& m : meanings_) {
      if (Abbreviates(m.letters, letters) || Abbreviates(letters, m.letters) || m.whole_synonyms.count(whole))
        return true;
      if (!mine.empty() && std::all_of(mine.begin(), mine.end(), [&](const auto& w) { return m.near.count(w) > 0; }))
        return true;
    }
    return false;
  }

 private:
  struct Meaning {
    std::string letters;
    std::set<std::string> whole_synonyms, near;
  };
  std::vector<Meaning> meanings_;
};

std::vector<WideCopy> WideCopies(const std::map<std::string, std::unique_ptr<plainsql::linking::SubsetDatabase>>& dbs,
                                 const std::vector<Example>& examples,
                                 const std::shared_ptr<const plainsql::linking::LinkResources>& resources, size_t every,
                                 const std::vector<size_t>& widths, bool any_word) {
  // The pool: every training database's columns (name and type), in a fixed order.
  std::vector<const plainsql::catalog::Column*> pool;
  for (const auto& [id, db] : dbs) {
    if (HeldOut(id)) continue;
    for (const auto& t : db->schema.tables) {
      for (const auto& c : t.columns) pool.push_back(&c);
    }
  }
  std::map<std::string, std::vector<const Example*>> by_db;
  for (const auto& e : examples) {
    if (!e.held_out) by_db[e.db_id].push_back(&e);
  }
  plainsql::retrieval::Stemmer stemmer;
  std::vector<WideCopy> out;
  for (const auto& [id, questions] : by_db) {
    const auto& schema = dbs.at(id)->schema;
    // The table its questions read most, so that gold columns sit among the borrowed ones.
    std::map<std::string, size_t> reads;
    std::set<std::string> stems;  // of the words of its questions
    for (const Example* e : questions) {
      for (const auto& g : e->gold) {
        if (g.find('.') == std::string::npos) ++reads[g];
      }
      for (const auto& token : plainsql::retrieval::Tokenize(e->question, stemmer)) stems.insert(token.stem);
    }
    size_t widened = 0;
    for (size_t t = 0, best = 0; t < schema.tables.size(); ++t) {
      const size_t n = reads[plainsql::ToLower(schema.tables[t].name)];
      if (n > best) best = n, widened = t;
    }
    WideCopy copy;
    copy.schema = std::make_unique<plainsql::catalog::Schema>(schema);
    auto& table = copy.schema->tables[widened];
    if (table.columns.empty()) continue;
    std::set<std::string> names;
    for (const auto& c : table.columns) names.insert(plainsql::ToLower(c.name));
    const size_t own_columns = table.columns.size();
    // Read only when any word may be lent (it looks every own word up in WordNet).
    const std::optional<OwnMeanings> own_meanings =
        any_word ? std::optional<OwnMeanings>(std::in_place, table, resources->wordnet.get()) : std::nullopt;
    const uint64_t h = plainsql::Hash64(id);
    const size_t width = widths[h % widths.size()];
    for (size_t k = 0; k < pool.size() && table.columns.size() < width; ++k) {
      const auto& c = *pool[(h / widths.size() + k * 7919) % pool.size()];
      if (names.count(plainsql::ToLower(c.name))) continue;
      bool clean = true;
      if (any_word) {
        clean = !own_meanings->SaidAgain(c.name);
      } else {
        for (const auto w : plainsql::naturalness::SplitWords(c.name)) {
          clean &= stems.count(stemmer.Stem(plainsql::ToLower(w))) == 0;
        }
      }
      if (!clean) continue;
      names.insert(plainsql::ToLower(c.name));
      plainsql::catalog::Column borrowed;
      borrowed.name = c.name;
      borrowed.type = c.type;
      borrowed.type_class = c.type_class;
      table.columns.push_back(std::move(borrowed));
    }
    // The table's own columns spread among the borrowed ones, in their order (the first stays first): appended, the
    // borrowed ones would teach that a late place in a wide table is never read.
    std::vector<bool> own(table.columns.size(), false);
    std::fill(own.begin() + 1, own.begin() + static_cast<std::ptrdiff_t>(own_columns), true);
    std::mt19937_64 random(h);
    std::shuffle(own.begin() + 1, own.end(), random);
    std::vector<plainsql::catalog::Column> spread;
    size_t next_own = 1, next_borrowed = own_columns;
    spread.push_back(std::move(table.columns[0]));
    for (size_t k = 1; k < own.size(); ++k)
      spread.push_back(std::move(table.columns[own[k] ? next_own++ : next_borrowed++]));
    table.columns = std::move(spread);
    copy.subsetter = std::make_unique<BuiltinSubsetter>(*copy.schema, resources, nullptr);
    for (size_t q = 0; q < questions.size(); q += every) {
      copy.questions.emplace_back(copy.subsetter->Features(questions[q]->question, false), questions[q]);
    }
    out.push_back(std::move(copy));
  }
  return out;
}

// A training database with its names abbreviated as an old system's export writes them, and questions' features on
// it without a database: Spider train's names are mostly words, a user's may be CUSTNO and DBH, and a model fitted on
// words alone has never seen an abbreviation or an acronym link a gold column. Each name is chosen from a hash of the
// database and the name: kept (a quarter), or written in the abbreviator's Low or Least style
// (naturalness::Abbreviate: "stdnt_nm", "SN"), or Low squashed into capitals ("STDNTNM"). Labels and comments go (they
// would say the name). `gold` holds each question's gold in the copy's names.
struct CrypticCopy {
  std::unique_ptr<plainsql::catalog::Schema> schema;
  std::unique_ptr<BuiltinSubsetter> subsetter;
  std::vector<std::pair<QuestionFeatures, const Example*>> questions;
  std::vector<std::set<std::string>> gold;
  plainsql::linking::QuestionScores Scores(size_t q) const { return subsetter->Score(questions[q].first); }
};

// An ERP export's style ("SlsOrdNmbr", "CustGrpCode"): each word cut short, to its first letter and consonants or
// to its first three or four letters (by a hash chained over the name's words), and the words run together in
// CamelCase.
std::string CamelCut(std::string_view name, uint64_t h) {
  using plainsql::naturalness::Abbreviate;
  using plainsql::naturalness::Level;
  std::string out;
  for (std::string_view part : plainsql::naturalness::SplitWords(name)) {
    const std::string word = plainsql::ToLower(part);
    h = plainsql::Hash64(fmt::format("{}/{}", h, word));
    std::string cut =
        h % 2 == 0 ? Abbreviate(word, Level::kLow) : word.substr(0, std::min<size_t>(word.size(), 3 + h / 2 % 2));
    if (cut.empty()) continue;
    cut[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(cut[0])));
    out += cut;
  }
  return out;
}

std::string AbbreviatedName(std::string_view name, uint64_t h, bool camel) {
  using plainsql::naturalness::Abbreviate;
  using plainsql::naturalness::Level;
  const uint64_t style = h % 20;
  if (style < 5) return std::string(name);
  if (camel && style >= 15) return CamelCut(name, h);
  if (style < 12) return Abbreviate(name, Level::kLow);
  if (style < 17) return Abbreviate(name, Level::kLeast);
  std::string squashed = plainsql::LowerAlnum(Abbreviate(name, Level::kLow));
  std::transform(squashed.begin(), squashed.end(), squashed.begin(), [](unsigned char ch) { return std::toupper(ch); });
  return squashed;
}

CrypticCopy MakeCrypticCopy(const plainsql::catalog::Schema& schema, const std::string& id, bool camel) {
  // The abbreviations as a crosswalk's Least names, each unique among its table's columns (or the tables): the
  // abbreviation, or it with a number after it.
  auto unique = [](std::string name, std::set<std::string>& taken, std::string_view original) {
    if (name.empty()) name = std::string(original);
    std::string out = name;
    for (int k = 2; !taken.insert(plainsql::ToLower(out)).second; ++k) out = fmt::format("{}{}", name, k);
    return out;
  };
  plainsql::naturalness::Crosswalk cw;
  std::set<std::string> taken_tables;
  for (const auto& t : schema.tables) {
    plainsql::naturalness::CrosswalkEntry table;
    table.native = t.name;
    table.is_table = true;
    table.n3 = unique(AbbreviatedName(t.name, plainsql::Hash64(id + "/" + t.name), camel), taken_tables, t.name);
    cw.entries.push_back(std::move(table));
    std::set<std::string> taken;
    for (const auto& c : t.columns) {
      plainsql::naturalness::CrosswalkEntry column;
      column.native = c.name;
      column.table = t.name;
      column.n3 =
          unique(AbbreviatedName(c.name, plainsql::Hash64(id + "/" + t.name + "/" + c.name), camel), taken, c.name);
      cw.entries.push_back(std::move(column));
    }
  }
  CrypticCopy copy;
  copy.schema = std::make_unique<plainsql::catalog::Schema>(
      plainsql::naturalness::NaturalSchema(schema, cw, plainsql::naturalness::Level::kLeast));
  for (auto& t : copy.schema->tables) {
    t.comment.clear();
    for (auto& c : t.columns) {
      c.label.clear();
      c.comment.clear();
      c.samples.clear();
    }
  }
  return copy;
}

// The gold `gold` (lower-case "t" and "t.c" of `schema`) in the names of `copy`, whose tables are in `schema`'s order.
std::set<std::string> CopyGold(const plainsql::catalog::Schema& schema, const plainsql::catalog::Schema& copy,
                               const std::set<std::string>& gold) {
  std::map<std::string, std::string> renamed;
  for (size_t t = 0; t < schema.tables.size(); ++t) {
    const std::string old = plainsql::ToLower(schema.tables[t].name), now = plainsql::ToLower(copy.tables[t].name);
    renamed[old] = now;
    for (size_t c = 0; c < schema.tables[t].columns.size(); ++c) {
      renamed[old + "." + plainsql::ToLower(schema.tables[t].columns[c].name)] =
          now + "." + plainsql::ToLower(copy.tables[t].columns[c].name);
    }
  }
  std::set<std::string> out;
  for (const auto& g : gold) {
    auto it = renamed.find(g);
    out.insert(it == renamed.end() ? g : it->second);
  }
  return out;
}

// Cryptic copies of the training databases (every `every`th question of each: `held_out` false) or of the held-out
// ones (every question: `held_out` true).
std::vector<CrypticCopy> CrypticCopies(
    const std::map<std::string, std::unique_ptr<plainsql::linking::SubsetDatabase>>& dbs,
    const std::vector<Example>& examples, const std::shared_ptr<const plainsql::linking::LinkResources>& resources,
    size_t every, bool held_out, bool camel) {
  std::map<std::string, std::vector<const Example*>> by_db;
  for (const auto& e : examples) {
    if (e.held_out == held_out) by_db[e.db_id].push_back(&e);
  }
  std::vector<CrypticCopy> out;
  for (const auto& [id, questions] : by_db) {
    const auto& schema = dbs.at(id)->schema;
    CrypticCopy copy = MakeCrypticCopy(schema, id, camel);
    copy.subsetter = std::make_unique<BuiltinSubsetter>(*copy.schema, resources, nullptr);
    for (size_t q = 0; q < questions.size(); q += every) {
      copy.questions.emplace_back(copy.subsetter->Features(questions[q]->question, false), questions[q]);
      copy.gold.push_back(CopyGold(schema, *copy.schema, questions[q]->gold));
    }
    out.push_back(std::move(copy));
  }
  return out;
}

// The held-out databases' abbreviated copies, to merge.
std::vector<MergePart> CrypticParts(const std::vector<CrypticCopy>& copies) {
  std::vector<MergePart> out;
  for (const auto& copy : copies) {
    if (copy.questions.empty()) continue;
    MergePart p;
    p.id = copy.questions[0].second->db_id;
    p.schema = copy.schema.get();
    for (size_t q = 0; q < copy.questions.size(); ++q)
      p.questions.emplace_back(&copy.questions[q].second->question, &copy.gold[q]);
    out.push_back(std::move(p));
  }
  return out;
}

// The held-out questions asked of their databases' cryptic copies without a database, under the model's cut for a
// schema alone.
Totals ScoreCryptic(const std::vector<CrypticCopy>& copies, const SubsetModel& model) {
  Totals t;
  for (size_t c = 0; c < copies.size(); ++c) {
    copies[c].subsetter->SetModel(model);
    const plainsql::eval::SchemaSize size{copies[c].schema->tables.size(), copies[c].schema->ColumnCount()};
    for (size_t q = 0; q < copies[c].questions.size(); ++q) {
      const auto s = copies[c].subsetter->Choose(copies[c].Scores(q), {});
      t.Add(plainsql::eval::ScoreSubset(copies[c].gold[q], Kept(s), size), c);
    }
  }
  return t;
}

double LargeSchemas::AbbreviatedPerfect(const plainsql::linking::SubsetCut& cut) const {
  Totals t;
  for (size_t c = 0; abbreviated && c < abbreviated->size(); ++c) {
    const CrypticCopy& copy = (*abbreviated)[c];
    copy.subsetter->SetCuts(cut, cut);
    const plainsql::eval::SchemaSize size{copy.schema->tables.size(), copy.schema->ColumnCount()};
    for (size_t q = 0; q < copy.questions.size(); ++q) {
      t.Add(plainsql::eval::ScoreSubset(copy.gold[q], Kept(copy.subsetter->Choose(abbreviated_scores[c][q], {})), size),
            c);
    }
  }
  return t.n ? t.perfect / static_cast<double>(t.n) : 0;
}

// What the models are fitted on, from the questions of the databases not held out: each question with its draft,
// without a database, and with the values but no draft.
struct FitData {
  Rows trows, crows;                                         // for the logistic regressions (with products)
  std::vector<std::vector<double>> table_rows, column_rows;  // the same, dense and without products, for the trees
  std::vector<double> table_labels, column_labels;
  // The range of each feature in the fitting data: the model clamps into it (SubsetModel::table_ranges).
  std::vector<std::pair<double, double>> table_ranges, column_ranges;
};

FitData CollectFitData(const std::vector<Example>& examples, const std::vector<Example>& paraphrased,
                       std::map<std::string, std::unique_ptr<plainsql::linking::SubsetDatabase>>& dbs,
                       const std::vector<WideCopy>& wide, const std::vector<CrypticCopy>& cryptic, bool plain_copies,
                       bool trees) {
  FitData d;
  auto widen = [](std::vector<std::pair<double, double>>& ranges, const std::vector<double>& x) {
    if (ranges.empty()) ranges.assign(x.size(), {HUGE_VAL, -HUGE_VAL});
    for (size_t i = 0; i < x.size(); ++i) {
      ranges[i] = {std::min(ranges[i].first, x[i]), std::max(ranges[i].second, x[i])};
    }
  };
  // One question's rows over one schema.
  auto add = [&](const plainsql::catalog::Schema& schema, const QuestionFeatures& f,
                 const std::set<std::string>& gold) {
    for (size_t t = 0; t < schema.tables.size(); ++t) {
      const std::string table = plainsql::ToLower(schema.tables[t].name);
      const bool table_gold = gold.count(table) > 0;
      d.trows.Add(f.tables[t], table_gold);
      widen(d.table_ranges, f.tables[t]);
      if (trees) {
        d.table_rows.push_back(f.tables[t]);
        d.table_labels.push_back(table_gold ? 1 : 0);
      }
      for (size_t k = 0; k < schema.tables[t].columns.size(); ++k) {
        const bool column_gold = gold.count(table + "." + plainsql::ToLower(schema.tables[t].columns[k].name)) > 0;
        d.crows.Add(f.columns[t][k], column_gold);
        widen(d.column_ranges, f.columns[t][k]);
        if (trees) {
          d.column_rows.push_back(f.columns[t][k]);
          d.column_labels.push_back(column_gold ? 1 : 0);
        }
      }
    }
  };
  for (const auto* set : {&examples, &paraphrased}) {
    for (const auto& e : *set) {
      if (e.held_out) continue;
      const auto& schema = dbs[e.db_id]->schema;
      // A third copy with the cell values but no draft: the translator gives none for some questions, and a
      // subsetter may have a value index without a connection; unfitted, that mix was scored arbitrarily (a value
      // named in a product's title did not keep the product table).
      QuestionFeatures values_only = e.features;
      plainsql::linking::WithoutDraft(values_only);
      for (const QuestionFeatures* f :
           std::initializer_list<const QuestionFeatures*>{&e.features, &e.plain, &values_only}) {
        if (f != &e.features && !plain_copies) continue;
        add(schema, *f, e.gold);
      }
    }
  }
  for (const auto& copy : wide) {
    for (const auto& [f, e] : copy.questions) add(*copy.schema, f, e->gold);
  }
  for (const auto& copy : cryptic) {
    for (size_t q = 0; q < copy.questions.size(); ++q) add(*copy.schema, copy.questions[q].first, copy.gold[q]);
  }
  return d;
}

std::optional<SubsetModel> ReadModel(const std::string& path) {
  std::ifstream in(path);
  auto parsed = SubsetModel::Parse(std::string(std::istreambuf_iterator<char>(in), {}));
  if (!in || !parsed) {
    fmt::print(stderr, "cannot read the model file {}\n", path);
    return std::nullopt;
  }
  return std::move(*parsed);
}

// The regressions' weights (or those of `weights`, a model file) and, for `learner` trees, the trees; with the ranges
// of the fitting data.
std::optional<SubsetModel> FitModel(const FitData& data, const std::string& weights, const std::string& learner,
                                    double c, const plainsql::BoostingOptions& boosting) {
  fmt::print(stderr, "fitting on {} table and {} column examples\n", data.trows.x.size(), data.crows.x.size());
  SubsetModel model;
  if (!weights.empty()) {
    auto read = ReadModel(weights);
    if (!read) return std::nullopt;
    model = std::move(*read);
  } else {
    std::tie(model.table_weights, model.table_bias) = Fit(data.trows, c);
    std::tie(model.column_weights, model.column_bias) = Fit(data.crows, c);
  }
  if (learner == "trees") {
    auto t1 = std::chrono::steady_clock::now();
    auto tables_fit = plainsql::FitBoostedTrees(data.table_rows, data.table_labels, boosting);
    auto columns_fit = plainsql::FitBoostedTrees(data.column_rows, data.column_labels, boosting);
    if (!tables_fit || !columns_fit) {
      fmt::print(stderr, "{}\n", (tables_fit ? columns_fit.error() : tables_fit.error()).message);
      return std::nullopt;
    }
    model.table_trees = std::move(*tables_fit);
    model.column_trees = std::move(*columns_fit);
    fmt::print(stderr, "trees fitted in {:.1f} s\n",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
  }
  model.table_ranges = data.table_ranges;
  model.column_ranges = data.column_ranges;
  return model;
}

// Counts the held-out questions whose subset misses something (a table, or only columns) and prints the first `misses`.
void PrintMisses(const std::vector<Example>& examples, size_t misses) {
  size_t shown = 0, miss_table = 0, miss_column_only = 0;
  for (const auto& e : examples) {
    if (!e.held_out) continue;
    plainsql::linking::Subset s = e.subsetter->Choose(e.scores, SubsetOptions{});
    std::set<std::string> kept = Kept(s);
    std::vector<std::string> missing;
    bool table_missing = false;
    for (const auto& g : e.gold) {
      if (kept.count(g)) continue;
      missing.push_back(g);
      table_missing |= g.find('.') == std::string::npos;
    }
    if (missing.empty()) continue;
    ++(table_missing ? miss_table : miss_column_only);
    if (shown++ < misses) {
      fmt::print("miss {}: {} | {}\n", e.db_id, e.question, plainsql::Join(missing, " "));
    }
  }
  fmt::print("held-out misses: {} with a table missing, {} with only columns missing\n", miss_table, miss_column_only);
}

std::string CutLine(const plainsql::linking::SubsetCut& c) {
  std::string points;
  for (const auto& [size, share] : c.min_share_points) points += fmt::format(", {:.2f} at {:g}", share, size);
  return fmt::format(
      "table {:.2f} (lambda {}), column {:.2f} (lambda {}), whole tables up to {} columns, at least {:.2f} of the "
      "columns (whole up to {:.0f} tables and columns{}, then decay {}), associations {}",
      c.table_threshold, c.table_lambda, c.column_threshold, c.column_lambda, c.small_table, c.min_share,
      c.min_share_full_up_to, points, c.min_share_decay, c.associations ? "kept" : "not kept");
}

// The gold identifiers of a question, or nothing when its query does not parse.
std::set<std::string> Gold(const std::string& sql, const plainsql::catalog::Schema& schema) {
  auto q = plainsql::sql::ParseQuery(sql, plainsql::sql::Sqlite());
  if (!q) return {};
  return plainsql::eval::QueryIdentifiers(
      plainsql::sql::Resolve(*q, plainsql::catalog::ToNameCatalog(schema), plainsql::sql::Sqlite()));
}

// Words for the synthetic schema's names: ordinary English, no benchmark's names.
const std::vector<std::string> kWords = {
    "account", "address",  "amount",  "balance",  "branch",    "budget",  "category", "city",     "client",
    "code",    "company",  "contact", "country",  "credit",    "date",    "customer", "delivery", "department",
    "device",  "discount", "email",   "employee", "event",     "invoice", "item",     "level",    "location",
    "manager", "member",   "name",    "note",     "number",    "order",   "owner",    "payment",  "period",
    "phone",   "price",    "product", "project",  "quantity",  "rate",    "region",   "report",   "salary",
    "service", "shipment", "status",  "store",    "supplier",  "task",    "tax",      "title",    "total",
    "type",    "unit",     "user",    "vendor",   "warehouse", "weight"};

int Speed() {
  plainsql::catalog::Schema schema;
  schema.database = "synthetic";
  const size_t nt = 2500, nc = 36, nw = kWords.size();
  for (size_t i = 0; i < nt; ++i) {
    plainsql::catalog::Table t;
    t.name = fmt::format("{}_{}_{}", kWords[i % nw], kWords[(i / nw) % nw], i);
    for (size_t j = 0; j < nc; ++j) {
      plainsql::catalog::Column c;
      c.name = j == 0 ? "id" : fmt::format("{}_{}", kWords[(i + j) % nw], kWords[(j * 7 + i / 3) % nw]);
      c.type_class = j % 3 == 0 ? plainsql::catalog::TypeClass::kNumeric : plainsql::catalog::TypeClass::kText;
      t.columns.push_back(c);
    }
    t.primary_key = {"id"};
    if (i > 0) t.foreign_keys.push_back({"", {t.columns[1].name}, "", schema.tables.back().name, {"id"}, false});
    schema.tables.push_back(std::move(t));
  }
  auto resources = plainsql::linking::LinkResources::Load();
  if (!resources) {
    fmt::print(stderr, "{}\n", resources.error().message);
    return 1;
  }
  auto t0 = std::chrono::steady_clock::now();
  BuiltinSubsetter subsetter(schema, *resources, nullptr);
  double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const std::vector<std::string> questions = {
      "What is the total amount of payments per customer?",
      "List the names of employees in each department with a salary above 5000.",
      "Which supplier delivers the most products to the warehouse in the north region?",
      "How many invoices have status paid?",
      "Show the email and phone of every contact of company Acme.",
      "What is the average price of items by category?",
      "Which manager owns the project with the largest budget?",
      "Count the shipments per country and city.",
  };
  std::vector<double> ms;
  size_t kept = 0;
  for (int round = 0; round < 5; ++round) {
    for (const auto& q : questions) {
      auto s = subsetter.Select(q, {});
      ms.push_back(s->ms);
      kept += s->columns.size();
    }
  }
  std::sort(ms.begin(), ms.end());
  fmt::print(
      "{} tables, {} columns: index built in {:.0f} ms; per question p50 {:.1f} ms, p99 {:.1f} ms, max {:.1f} ms; "
      "mean {:.0f} columns kept\n",
      nt, nt * nc, build_ms, ms[ms.size() / 2], ms[ms.size() * 99 / 100], ms.back(),
      static_cast<double>(kept) / static_cast<double>(ms.size()));
  return 0;
}

// The command's settings.
struct Options {
  std::string questions, tables_file, db_dir, out;
  double c = 1.0, max_proportion = 0.5, z = 1.645;
  bool speed = false, plain_copies = true, small_schemas = true, list_held_out = false;
  std::string proportion = "subset";
  std::string lexicon = "without-held-out";  // --lexicon
  std::string lexicon_note;                  // what linking read, for the model file's comment
  bool cross_fit_lexicon = false;            // --cross-fit-lexicon
  bool lexicon_learned = false;              // ChooseLexicon learned it (no PLAINSQL_LEXICON, not shipped)
  size_t misses = 0;
  std::vector<std::string> drop;
  // No inference by default: with `plainsql link`'s default (isolated) the held-out figures were the same to a few
  // questions (PRe 0.962 / 0.925 against 0.963 / 0.927): few Spider train tables are isolated.
  std::string weights, whole_model, cut_from, infer_keys = "none", learner = "trees";
  bool merged_cryptic = false, cryptic_camel = false;
  plainsql::BoostingOptions boosting;
  size_t merged_every = 0, wide_every = 8, cryptic_every = 0, medium_every = 0;
  std::vector<size_t> wide_widths = {64, 128, 192};
  std::string wide_borrow = "unasked";
  size_t paraphrase_every = 0;
  size_t merged_columns = 1000, upper_columns = 2400;
  double merged_cap = 0.15, medium_cap = 0.5;
  std::vector<size_t> medium_columns = {300};  // one set of groups per size
  double abbreviated_weight = 0;
};

void AddOptions(CLI::App& app, Options& o) {
  app.add_option("--questions", o.questions, "Spider train.json");
  app.add_option("--tables", o.tables_file, "tables.json");
  app.add_option("--db-dir", o.db_dir, "Spider's database folder (cell values)");
  app.add_option("--out", o.out, "Where to write the model (src/linking/subset_model.tsv)");
  app.add_option("--c", o.c, "liblinear's C")->capture_default_str();
  app.add_option("--max-proportion", o.max_proportion, "The mean proportion the thresholds must keep under")
      ->capture_default_str();
  app.add_option("--z", o.z,
                 "Standard errors (by database) the held-out mean proportion is raised by before the cap: the cap "
                 "must hold on other databases (1.645: one-sided 95 %; 0: the mean alone)")
      ->capture_default_str();
  app.add_option(
         "--proportion", o.proportion,
         "The share of a schema --max-proportion and --merged-cap bound: attribute (kept columns over the "
         "schema's columns, the share issue #18's bars cap; its cuts carried worse to BIRD and SNAILS) or subset "
         "(tables and columns together)")
      ->check(CLI::IsMember({"attribute", "subset"}))
      ->capture_default_str();
  app.add_flag("--small-schemas,!--no-small-schemas", o.small_schemas,
               "The proportion's bound must also hold on the held-out questions over the smaller half of the schemas "
               "(by the median held-out question's schema size)")
      ->capture_default_str();
  app.add_option("--misses", o.misses, "Print this many held-out questions the chosen setting misses");
  app.add_flag("--plain-copies,!--no-plain-copies", o.plain_copies,
               "Also fit each training question as if no database were at hand (no draft, no values), and with the "
               "values but no draft")
      ->capture_default_str();
  app.add_option("--weights", o.weights,
                 "Take the weights of this model file instead of fitting them (the cuts are chosen again; with "
                 "--learner trees the trees are fitted anew)");
  app.add_option("--drop", o.drop, "Features to leave out (set to 0 before fitting): an ablation")->delimiter(',');
  app.add_option("--merged-every", o.merged_every,
                 "The cut for a schema alone is also held to --merged-cap on the held-out databases merged into "
                 "schemas of at least --merged-columns columns, asked every Nth held-out question (0: not)")
      ->capture_default_str();
  app.add_option("--wide-every", o.wide_every,
                 "Also fit every Nth training question, without a database, on a copy of its database whose most read "
                 "table is widened to 64-192 columns by columns borrowed from the other training databases (0: not)")
      ->capture_default_str();
  app.add_option("--wide-widths", o.wide_widths,
                 "The widths (columns) a widened table is given, one per database by a hash")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--wide-borrow", o.wide_borrow,
                 "Which columns a widened table borrows: unasked (none with a word of its database's questions: "
                 "width alone) | distinct (any that does not mean what one of its own columns means: the same "
                 "words, a WordNet synonym, one name abbreviating the other; as bench/l_standin.py lends)")
      ->check(CLI::IsMember({"unasked", "distinct"}))
      ->capture_default_str();
  app.add_option("--cryptic-every", o.cryptic_every,
                 "Also fit every Nth training question, without a database, on a copy of its database whose names are "
                 "abbreviated (kept, or in the abbreviator's Low or Least style, by a hash of the name; 0: not). The "
                 "held-out questions are always also scored on such copies of their databases")
      ->capture_default_str();
  app.add_option("--paraphrase-every", o.paraphrase_every,
                 "Also fit every Nth training question in its other wording (question_syn: the schema's words "
                 "replaced by synonyms), and score the held-out questions' other wordings (printed; the cuts are not "
                 "chosen on them; 0: neither)")
      ->capture_default_str();
  app.add_flag("--cryptic-camel", o.cryptic_camel,
               "In the abbreviated copies, a third of the abbreviated names in an ERP export's style instead: each "
               "word cut short and the words run together in CamelCase (\"SlsOrdNmbr\"). They take the place of "
               "the squashed capitals and of part of the Least style");
  app.add_option("--abbreviated-weight", o.abbreviated_weight,
                 "With --merged-every or --medium-every: the cut without a database also counts the perfect recall of "
                 "the held-out databases' abbreviated copies, with this weight beside the held-out questions' (and the "
                 "merged schemas', weight 1 each), so that a cut chosen for natural names does not cost cryptic ones "
                 "(0: not counted, as before)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_flag("--merged-cryptic", o.merged_cryptic,
               "With --merged-every: merge the held-out databases' abbreviated copies (as --cryptic-every makes them) "
               "instead of the databases as they are");
  app.add_option("--cut-from", o.cut_from,
                 "Fit the scorer, then take the cuts of this model file instead of choosing them (no search: a "
                 "refit's scorer under the shipped cuts, in a minute rather than half an hour)");
  app.add_option("--model", o.whole_model,
                 "Take the whole model (weights and trees) of this file and only choose the cuts again: a quick way "
                 "to try cut settings on a fitted model");
  app.add_option("--merged-cap", o.merged_cap,
                 "The mean proportion the merged schemas' subsets must keep under, pooled over them")
      ->capture_default_str();
  app.add_option("--merged-columns", o.merged_columns,
                 "With --merged-every: merge the held-out databases into schemas of at least this many columns "
                 "(consecutive ones, wrapping around, until each is in one; 0: all into one schema)")
      ->capture_default_str();
  app.add_option("--upper-columns", o.upper_columns,
                 "With --merged-every: also hold the cut to --merged-cap on one schema of at least this many columns, "
                 "all the held-out databases and training databases after them (their abbreviated copies with "
                 "--merged-cryptic; none of their questions asked), its perfect recall counted too (0: not)")
      ->capture_default_str();
  app.add_option("--medium-every", o.medium_every,
                 "The cut for a schema alone is also held to --medium-cap on the held-out databases merged in groups "
                 "of at least --medium-columns columns (their abbreviated copies with --merged-cryptic), asked every "
                 "Nth held-out question (0: not)")
      ->capture_default_str();
  app.add_option("--medium-columns", o.medium_columns,
                 "The least columns of a --medium-every group; several sizes make a set of groups each, all held to "
                 "--medium-cap together (SKALPEL's M size runs from 100 to 999 columns)")
      ->capture_default_str();
  app.add_option("--medium-cap", o.medium_cap,
                 "The mean proportion the --medium-every groups' subsets must keep under, pooled over the groups")
      ->capture_default_str();
  app.add_option("--learner", o.learner,
                 "trees (gradient-boosted trees by XGBoost, scoring in place of the weights) or logistic (the weights "
                 "alone: a logistic regression over the features and their pairwise products)")
      ->check(CLI::IsMember({"trees", "logistic"}))
      ->capture_default_str();
  app.add_option("--rounds", o.boosting.rounds, "trees: how many")->capture_default_str();
  app.add_option("--depth", o.boosting.max_depth, "trees: their depth")->capture_default_str();
  app.add_option("--eta", o.boosting.eta, "trees: the learning rate")->capture_default_str();
  app.add_option("--seed", o.boosting.seed,
                 "trees: the seed of the rows' and inputs' sampling (another seed, other trees: how much a refit "
                 "moves by chance)")
      ->capture_default_str();
  app.add_flag("--speed", o.speed, "Time the shipped model on a 90,000-column synthetic schema");
  app.add_option(
         "--lexicon", o.lexicon,
         "The learned lexicon linking reads here: without-held-out (learned from the questions of the databases "
         "not held out, so that a held-out question meets no pair learned from itself, as a user's question "
         "would not) or shipped (data/lexicon.tsv, learned from all of Spider train); PLAINSQL_LEXICON, when "
         "set, wins")
      ->check(CLI::IsMember({"without-held-out", "shipped"}))
      ->capture_default_str();
  app.add_flag("--cross-fit-lexicon", o.cross_fit_lexicon,
               "With --lexicon without-held-out: each training database's questions are read with a lexicon learned "
               "without its fold too (five folds by a hash of db_id), so that the scorer is fitted on learned pairs "
               "as reliable as a new database's, not on pairs its own questions taught (the copies made from "
               "training databases still read the lexicon of all of them)");
  app.add_flag("--held-out", o.list_held_out,
               "Print the databases of --questions that are held out (one db_id per line, sorted) and exit");
  app.add_option("--infer-keys", o.infer_keys,
                 "Keys inferred before the features: none, isolated (`plainsql link`'s default), add or replace")
      ->capture_default_str();
}

// The comment the model file starts with: how it was fitted and chosen, and what it scored on the held-out databases.
std::string ModelComment(const Options& o, size_t small_size, const std::string& held_line,
                         const std::string& plain_line, const std::string& merged_line, const std::string& medium_line,
                         const std::string& upper_line, const std::string& cryptic_line) {
  std::string out = fmt::format(
      "Generated by bench/train_linker (do not edit): {} fitted on Spider\n"
      "train's databases not held out; thresholds chosen on the held-out 20 % (hash of db_id 0 mod 5) for the\n"
      "highest perfect recall with a mean {} of at most {} after adding {} standard errors (clustered by\n"
      "database){}, then a floor on the share of columns kept.\nFeatures include the built-in translator's draft and "
      "the cell values (each training question also fitted as if no\ndatabase were at hand: no draft, no values).\n",
      o.learner == "trees" ? fmt::format("gradient-boosted trees (XGBoost, {} of depth {}, eta {})", o.boosting.rounds,
                                         o.boosting.max_depth, o.boosting.eta)
                           : fmt::format("logistic regressions (liblinear L2, C = {})", o.c),
      o.proportion == "attribute" ? "attribute proportion (columns kept)" : "proportion (tables and columns kept)",
      o.max_proportion, o.z,
      o.small_schemas ? fmt::format("; the bound also held on the questions over\nthe smaller half of the schemas (at "
                                    "most {} tables and columns)",
                                    small_size)
                      : "");
  if (!o.whole_model.empty()) {
    out +=
        fmt::format("The scorer was taken whole from {} (--model): only the cuts were chosen here.\n", o.whole_model);
  } else {
    out += fmt::format(
        "Also fitted, without a database: every {}th training question on a copy of its database with one table "
        "widened\n(--wide-every; 0: none; to {} columns, borrowing {} names), every {}th on a copy with abbreviated "
        "names (--cryptic-every;\n0: none){}.\n",
        o.wide_every, fmt::join(o.wide_widths, " / "), o.wide_borrow, o.cryptic_every,
        o.cryptic_camel ? ",\na third of them cut short in CamelCase (--cryptic-camel)" : "");
  }
  if (!o.lexicon_note.empty()) out += fmt::format("Linking read {}.\n", o.lexicon_note);
  if (o.abbreviated_weight > 0) {
    out += fmt::format(
        "The cut without a database also counted the held-out abbreviated copies' perfect recall, weight {} "
        "(--abbreviated-weight).\n",
        o.abbreviated_weight);
  }
  out += fmt::format(
      "validation: {}\nvalidation without a database: {}\nvalidation on abbreviated copies, no database: {}", held_line,
      plain_line, cryptic_line);
  if (!merged_line.empty()) {
    out += fmt::format(
        "\nthe cut without a database also kept a mean proportion of at most {} on the held-out\ndatabases{} merged "
        "into {} (every {}th question), the floor allowed to shrink with the size: {}",
        o.merged_cap, o.merged_cryptic ? "' abbreviated copies" : "",
        o.merged_columns == 0 ? "one schema" : fmt::format("schemas of at least {} columns", o.merged_columns),
        o.merged_every, merged_line);
  }
  if (!medium_line.empty()) {
    out += fmt::format(
        "\nand at most {} (pooled) on them merged in groups of at least {} columns{} (every {}th question): {}",
        o.medium_cap, fmt::join(o.medium_columns, ", "), o.merged_cryptic ? ", abbreviated" : "", o.medium_every,
        medium_line);
  }
  if (!upper_line.empty()) {
    out += fmt::format(
        "\nand at most {} on all of them with training databases' copies added up to at least {} columns (none of "
        "their questions asked), every {}th question: {}",
        o.merged_cap, o.upper_columns, o.merged_every, upper_line);
  }
  return out;
}

// The larger schemas the cut without a database is held on (--medium-every, --merged-every), scored by `model`.
LargeSchemas MakeLargeSchemas(const Options& o,
                              const std::map<std::string, std::unique_ptr<plainsql::linking::SubsetDatabase>>& dbs,
                              const std::vector<Example>& examples, const std::vector<CrypticCopy>& cryptic_held_out,
                              const std::shared_ptr<const plainsql::linking::LinkResources>& resources,
                              const SubsetModel& model) {
  LargeSchemas large;
  const auto parts = o.merged_cryptic ? CrypticParts(cryptic_held_out) : HeldOutParts(dbs, examples);
  auto t0 = std::chrono::steady_clock::now();
  if (o.merged_every > 0) {
    large.merged = MergeWindows(parts, resources, o.merged_every, o.merged_columns);
    large.merged_cap = o.merged_cap;
  }
  if (o.merged_every > 0 && o.upper_columns > 0) {
    std::vector<CrypticCopy> copies;  // the padding's abbreviated copies, alive until merged
    std::vector<MergePart> padding;
    for (const auto& [id, db] : dbs) {
      if (HeldOut(id)) continue;
      if (o.merged_cryptic) copies.push_back(MakeCrypticCopy(db->schema, id, o.cryptic_camel));
      padding.push_back(MergePart{id, o.merged_cryptic ? copies.back().schema.get() : &db->schema, {}});
    }
    large.upper.push_back(MergePadded(parts, padding, resources, o.merged_every, o.upper_columns));
  }
  if (o.medium_every > 0) {
    for (size_t columns : o.medium_columns) {
      for (auto& group : MergeMedium(parts, resources, o.medium_every, columns))
        large.medium.push_back(std::move(group));
    }
    large.medium_cap = o.medium_cap;
  }
  large.SetModel(model);
  for (const auto* set : {&large.medium, &large.merged, &large.upper}) {
    for (const auto& m : *set) {
      for (auto& q : m->questions) q.scores = m->subsetter->Score(q.features);
      fmt::print(stderr, "{} held-out schema: {} tables, {} columns, {} questions\n",
                 set == &large.medium   ? "medium"
                 : set == &large.merged ? "merged"
                                        : "padded",
                 m->schema.tables.size(), m->schema.ColumnCount(), m->questions.size());
    }
  }
  if (!large.Empty()) {
    fmt::print(stderr, "merged schemas scored in {:.1f} s\n",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return large;
}

// --list-held-out: the held-out databases' names, one a line.
int ListHeldOut(const Options& o) {
  auto questions = plainsql::eval::LoadBenchmark("spider", o.questions);
  if (!questions) {
    fmt::print(stderr, "cannot read the questions: {}\n", questions.error().message);
    return 1;
  }
  std::set<std::string> held;
  for (const auto& q : questions->questions) {
    if (HeldOut(q.db_id)) held.insert(q.db_id);
  }
  for (const auto& id : held) fmt::print("{}\n", id);
  return 0;
}

// The training questions with their features, and the databases they were asked of.
struct Loaded {
  std::map<std::string, std::unique_ptr<plainsql::linking::SubsetDatabase>> dbs;
  std::vector<Example> examples;
  std::vector<Example> paraphrased;  // questions in their other wording (--paraphrase-every)
};

// Opens every database of the questions and computes each question's features, with and without the database.
bool LoadExamples(const Options& o, const plainsql::linking::InferKeysOptions* infer,
                  const std::shared_ptr<const plainsql::linking::LinkResources>& resources,
                  const std::vector<std::shared_ptr<const plainsql::linking::LinkResources>>& folds, Loaded& out) {
  auto benchmark = plainsql::eval::LoadBenchmark("spider", o.questions);
  auto tables = plainsql::catalog::BenchmarkSchemas::Read(o.tables_file);
  if (!benchmark || !tables) {
    fmt::print(stderr, "cannot read the questions or the tables\n");
    return false;
  }
  auto& dbs = out.dbs;
  auto& examples = out.examples;
  auto& paraphrased = out.paraphrased;
  size_t paraphrase_seen = 0;
  std::map<std::string, size_t> db_number;
  auto t0 = std::chrono::steady_clock::now();
  for (const auto& q : benchmark->questions) {
    auto& db = dbs[q.db_id];
    if (!db) {
      auto opened = plainsql::linking::OpenSubsetDatabase(
          *tables, q.db_id, o.db_dir.empty() ? "" : plainsql::eval::SqliteDatabasePath(o.db_dir, q.db_id), "",
          "builtin", folds.empty() || HeldOut(q.db_id) ? resources : folds[LexiconFold(q.db_id)], nullptr, infer);
      if (!opened) {
        fmt::print(stderr, "{}: {}\n", q.db_id, opened.error().message);
        return false;
      }
      db = std::move(*opened);
    }
    auto make = [&](const std::string& question) {
      Example e;
      e.db_id = q.db_id;
      e.db = db_number.try_emplace(q.db_id, db_number.size()).first->second;
      e.question = question;
      e.gold = Gold(q.gold_sql, db->schema);
      if (e.gold.empty()) return e;
      e.subsetter = dynamic_cast<BuiltinSubsetter*>(db->subsetter.get());
      e.features = e.subsetter->Features(question);
      e.plain = e.subsetter->Features(question, false);  // no database: no cell values, no draft
      for (QuestionFeatures* f : {&e.features, &e.plain}) Drop(o.drop, *f);
      e.schema_size = db->schema.tables.size() + db->schema.ColumnCount();
      e.schema = {db->schema.tables.size(), db->schema.ColumnCount()};
      e.held_out = HeldOut(q.db_id);
      return e;
    };
    Example e = make(q.question);
    if (e.gold.empty()) continue;
    // The other wording: every held-out one (scored), every Nth of training (fitted).
    if (o.paraphrase_every > 0 && !q.paraphrase.empty() && q.paraphrase != q.question &&
        (e.held_out || paraphrase_seen++ % o.paraphrase_every == 0)) {
      paraphrased.push_back(make(q.paraphrase));
    }
    examples.push_back(std::move(e));
  }
  if (o.paraphrase_every > 0) {
    const size_t fitted =
        std::count_if(paraphrased.begin(), paraphrased.end(), [](const Example& e) { return !e.held_out; });
    fmt::print(stderr, "{} training questions also in their other wording, {} held-out ones scored so\n", fitted,
               paraphrased.size() - fitted);
  }
  fmt::print(stderr, "{} questions, {} databases, features in {:.1f} s\n", examples.size(), dbs.size(),
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return true;
}

// The lexicon `plainsql builtin lexicon` would learn (its settings) from the questions of the databases `use` keeps.
std::optional<std::vector<plainsql::linking::LexiconEntry>> LearnLexiconOf(
    const Options& o, std::function<bool(const std::string&)> use) {
  auto bench = plainsql::eval::LoadSpiderQuestions(o.questions);
  auto resources = plainsql::linking::LinkResources::Load();
  if (!bench || !resources) {
    fmt::print(stderr, "cannot read the questions or the naturalness data\n");
    return std::nullopt;
  }
  plainsql::builtin::LexiconOptions options;
  options.db_dir = o.db_dir;
  options.use = std::move(use);
  auto entries = plainsql::builtin::LearnLexicon(*bench, options, **resources);
  if (!entries) {
    fmt::print(stderr, "cannot learn the lexicon: {}\n", entries.error().message);
    return std::nullopt;
  }
  return std::move(*entries);
}

// With --cross-fit-lexicon: for each fold, linking resources whose lexicon was learned from the training databases
// outside that fold (and outside the held-out ones).
bool CrossFitResources(const Options& o, std::vector<std::shared_ptr<const plainsql::linking::LinkResources>>& out) {
  for (size_t fold = 0; fold < 5; ++fold) {
    auto entries =
        LearnLexiconOf(o, [fold](const std::string& db_id) { return !HeldOut(db_id) && LexiconFold(db_id) != fold; });
    if (!entries) return false;
    auto lexicon = plainsql::linking::Lexicon::Parse(plainsql::linking::Lexicon::Format(*entries, ""));
    if (!lexicon) {
      fmt::print(stderr, "the lexicon of fold {} does not read back: {}\n", fold, lexicon.error().message);
      return false;
    }
    fmt::print(stderr, "lexicon without fold {}: {} pairs\n", fold, entries->size());
    auto r =
        plainsql::linking::LinkResources::Load(std::make_shared<const plainsql::linking::Lexicon>(std::move(*lexicon)));
    if (!r) return false;
    out.push_back(*r);
  }
  return true;
}

// With --lexicon without-held-out, learns the lexicon from the questions (and their paraphrases) of the databases not
// held out, writes it to `file` and points PLAINSQL_LEXICON at it before any schema is indexed (Lexicon::Active reads
// it once). The shipped lexicon was learned from all of Spider train: with it, a held-out question meets the pairs its
// own wording taught, and the cuts are chosen on evidence stronger than a new database gives (docs/BENCHMARKS.md, #18
// thirty-ninth part). A PLAINSQL_LEXICON already set is left as it is.
bool ChooseLexicon(Options& o, const std::filesystem::path& file) {
  if (const char* given = std::getenv("PLAINSQL_LEXICON"); given != nullptr && *given != '\0') {
    o.lexicon_note = fmt::format("the lexicon PLAINSQL_LEXICON named ({})", given);
    return true;
  }
  if (o.lexicon == "shipped") {
    o.lexicon_note = "the shipped lexicon (data/lexicon.tsv, learned from all of Spider train)";
    return true;
  }
  auto entries = LearnLexiconOf(o, [](const std::string& db_id) { return !HeldOut(db_id); });
  if (!entries) return false;
  const std::string text = plainsql::linking::Lexicon::Format(
      *entries, "Learned by bench/train_linker from the databases it does not hold out (temporary).");
  std::ofstream out(file, std::ios::binary);
  if (!(out << text) || !out.flush()) {
    fmt::print(stderr, "cannot write {}\n", file.string());
    return false;
  }
  setenv("PLAINSQL_LEXICON", file.c_str(), 1);
  o.lexicon_note = fmt::format(
      "a lexicon learned as the shipped one is, without the held-out databases' questions ({} pairs; --lexicon)",
      entries->size());
  fmt::print(stderr, "lexicon learned without the held-out databases: {} pairs\n", entries->size());
  o.lexicon_learned = true;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Train the built-in subsetter's scorer and choose its thresholds (issue #18)"};
  Options o;
  AddOptions(app, o);
  CLI11_PARSE(app, argc, argv);
  g_attribute_proportion = o.proportion == "attribute";
  if (o.speed) return Speed();
  if (o.list_held_out) return ListHeldOut(o);
  if (o.abbreviated_weight > 0 && o.merged_every == 0 && o.medium_every == 0) {
    // The weight enters only the stage that scores larger schemas; without them it would be silently ignored.
    fmt::print(stderr, "--abbreviated-weight needs --merged-every or --medium-every\n");
    return 2;
  }
  std::optional<plainsql::linking::InferKeysOptions> infer;
  auto mode = plainsql::linking::KeyInferenceModeOption(o.infer_keys, true);
  if (!mode) {
    fmt::print(stderr, "{}\n", mode.error().message);
    return 1;
  }
  if (*mode) {
    infer.emplace();
    infer->mode = **mode;
  }
  // The lexicon's file lives as long as the run: linking reads it lazily, and the resources' version hashes it.
  struct RemoveOnExit {
    std::filesystem::path path;
    ~RemoveOnExit() {
      std::error_code ec;
      std::filesystem::remove(path, ec);
    }
  } lexicon_file{
      std::filesystem::temp_directory_path() /
      fmt::format("train_linker_lexicon_{}.tsv", std::chrono::steady_clock::now().time_since_epoch().count())};
  if (!ChooseLexicon(o, lexicon_file.path)) return 1;
  // A model or lexicon file the environment names and the loader would refuse stops the run (a refit measured
  // against the compiled-in model by mistake looks like no change).
  if (auto env = plainsql::linking::CheckModelEnvironment(); !env.ok()) {
    fmt::print(stderr, "{}\n", env.error().message);
    return 1;
  }
  auto resources = plainsql::linking::LinkResources::Load();
  if (!resources) {
    fmt::print(stderr, "cannot read the naturalness data\n");
    return 1;
  }
  std::vector<std::shared_ptr<const plainsql::linking::LinkResources>> folds;
  if (o.cross_fit_lexicon) {
    if (!o.lexicon_learned) {
      fmt::print(stderr, "--cross-fit-lexicon needs --lexicon without-held-out and no PLAINSQL_LEXICON\n");
      return 2;
    }
    if (!CrossFitResources(o, folds)) return 1;
    o.lexicon_note +=
        "; each training database's questions read with a lexicon learned without its fold too "
        "(--cross-fit-lexicon)";
  }
  Loaded loaded;
  if (!LoadExamples(o, infer ? &*infer : nullptr, *resources, folds, loaded)) return 1;
  auto& dbs = loaded.dbs;
  auto& examples = loaded.examples;
  auto& paraphrased = loaded.paraphrased;
  std::vector<WideCopy> wide;
  if (o.wide_every > 0 && o.whole_model.empty()) {  // copies to fit on: none with --model
    auto t1 = std::chrono::steady_clock::now();
    wide = WideCopies(dbs, examples, *resources, o.wide_every, o.wide_widths, o.wide_borrow == "distinct");
    size_t n = 0;
    for (const auto& copy : wide) n += copy.questions.size();
    fmt::print(stderr, "{} training databases with a widened table, {} questions asked of them ({:.1f} s)\n",
               wide.size(), n, std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
  }
  std::vector<CrypticCopy> cryptic, cryptic_held_out;
  {
    auto t1 = std::chrono::steady_clock::now();
    if (o.cryptic_every > 0 && o.whole_model.empty())
      cryptic = CrypticCopies(dbs, examples, *resources, o.cryptic_every, false, o.cryptic_camel);
    cryptic_held_out = CrypticCopies(dbs, examples, *resources, 1, true, o.cryptic_camel);
    size_t n = 0;
    for (const auto& copy : cryptic) n += copy.questions.size();
    fmt::print(stderr, "{} training databases abbreviated, {} questions asked of them; held-out copies ({:.1f} s)\n",
               cryptic.size(), n, std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
    // One copied table and one question's gold, to show what the copies look like.
    if (!cryptic_held_out.empty() && !cryptic_held_out[0].schema->tables.empty()) {
      const auto& copy = cryptic_held_out[0];
      std::vector<std::string> names;
      for (const auto& column : copy.schema->tables[0].columns) names.push_back(column.name);
      fmt::print(stderr, "e.g. {}({}); gold {}\n", copy.schema->tables[0].name, plainsql::Join(names, ", "),
                 copy.gold.empty()
                     ? ""
                     : plainsql::Join(std::vector<std::string>(copy.gold[0].begin(), copy.gold[0].end()), " "));
    }
  }
  SubsetModel model;
  if (!o.whole_model.empty()) {
    auto read = ReadModel(o.whole_model);
    if (!read) return 1;
    model = std::move(*read);
    fmt::print(stderr, "the model of {} taken whole: only the cuts are chosen\n", o.whole_model);
  } else {
    auto fitted =
        FitModel(CollectFitData(examples, paraphrased, dbs, wide, cryptic, o.plain_copies, o.learner == "trees"),
                 o.weights, o.learner, o.c, o.boosting);
    if (!fitted) return 1;
    model = std::move(*fitted);
  }
  if (!o.cut_from.empty()) {  // the cuts of another model file: no search (a quick look at a refit's scorer)
    auto read = ReadModel(o.cut_from);
    if (!read) return 1;
    model.cut = read->cut;
    model.plain_cut = read->plain_cut;
    model.narrow = read->narrow;
  }
  SetModel(dbs, model);
  for (auto& e : examples) {
    e.scores = e.subsetter->Score(e.features);
    e.plain_scores = e.subsetter->Score(e.plain);
  }
  if (!o.cut_from.empty()) {
    const std::string held = Score(examples, true, false).Line(), plain = Score(examples, true, true).Line();
    const std::string cryptic_line = ScoreCryptic(cryptic_held_out, model).Line();
    fmt::print(
        "the cuts of {}:\nvalidation (20 %): {}\nvalidation, no database: {}\n"
        "validation on abbreviated copies, no database: {}\n",
        o.cut_from, held, plain, cryptic_line);
    if (!o.out.empty()) {
      std::ofstream f(o.out);
      f << model.Serialize(
          ModelComment(o, 0, held, plain, "", "", "", cryptic_line) +
          fmt::format("\nThe cuts were taken from {} (--cut-from): none was chosen here.", o.cut_from));
    }
    return 0;
  }
  // The cuts, on the held-out 20 %: one for questions with a draft, one for those without.
  SubsetModel best = model;
  LargeSchemas large = MakeLargeSchemas(o, dbs, examples, cryptic_held_out, *resources, model);
  if (o.abbreviated_weight > 0 && !cryptic_held_out.empty()) {
    large.abbreviated = &cryptic_held_out;
    large.abbreviated_weight = o.abbreviated_weight;
    for (const auto& copy : cryptic_held_out) {
      copy.subsetter->SetModel(model);
      auto& scores = large.abbreviated_scores.emplace_back();
      for (size_t q = 0; q < copy.questions.size(); ++q) scores.push_back(copy.Scores(q));
    }
  }
  const size_t median = MedianHeldOutSize(examples);
  const size_t small_size = o.small_schemas ? median : 0;
  best.cut = ChooseCut(dbs, examples, model, false, o.max_proportion, o.z, small_size, nullptr);
  best.plain_cut = ChooseCut(dbs, examples, model, true, o.max_proportion, o.z, small_size, &large);
  SetModel(dbs, best);
  std::string train_line = Score(examples, false, false).Line(), held_line = Score(examples, true, false).Line();
  std::string plain_line = Score(examples, true, true).Line();
  std::string merged_line, medium_line, upper_line;
  large.SetModel(best);
  if (!large.upper.empty()) {
    upper_line = LargeSchemas::Pooled(large.upper).Line();
    fmt::print("held-out databases padded to {} columns, no database: {}\n", large.upper[0]->schema.ColumnCount(),
               upper_line);
  }
  if (!large.merged.empty()) {
    merged_line = LargeSchemas::Pooled(large.merged).Line();
    fmt::print("held-out databases merged into {} schemas, no database: {}\n", large.merged.size(), merged_line);
  }
  if (!large.medium.empty()) {
    medium_line = LargeSchemas::Pooled(large.medium).Line();
    fmt::print("held-out databases merged in {} groups, no database: {}\n", large.medium.size(), medium_line);
  }
  const std::string cryptic_line = ScoreCryptic(cryptic_held_out, best).Line();
  fmt::print("validation on abbreviated copies, no database: {}\n", cryptic_line);
  fmt::print("validation proportion + {} standard errors (by database): {:.3f} with a draft, {:.3f} without\n", o.z,
             Score(examples, true, false).ProportionBound(o.z), Score(examples, true, true).ProportionBound(o.z));
  fmt::print(
      "validation, schemas of at most {} tables and columns (the smaller half{}): {}\n  without a database: {}\n"
      "  proportion + {} standard errors: {:.3f} with a draft, {:.3f} without\n",
      median, o.small_schemas ? ", held to the bound too" : ", not held to the bound",
      Score(examples, true, false, median).Line(), Score(examples, true, true, median).Line(), o.z,
      Score(examples, true, false, median).ProportionBound(o.z),
      Score(examples, true, true, median).ProportionBound(o.z));
  if (!paraphrased.empty()) {
    for (auto& e : paraphrased) {
      e.scores = e.subsetter->Score(e.features);
      e.plain_scores = e.subsetter->Score(e.plain);
    }
    fmt::print("validation, other wording (question_syn): {}\n  without a database: {}\n",
               Score(paraphrased, true, false).Line(), Score(paraphrased, true, true).Line());
  }
  PrintMisses(examples, o.misses);
  fmt::print("thresholds: {}\nwithout a database: {}\n", CutLine(best.cut), CutLine(best.plain_cut));
  fmt::print("train (80 %):      {}\nvalidation (20 %): {}\nvalidation, no database: {}\n", train_line, held_line,
             plain_line);
  if (!o.out.empty()) {
    std::ofstream f(o.out);
    f << best.Serialize(
        ModelComment(o, small_size, held_line, plain_line, merged_line, medium_line, upper_line, cryptic_line));
  }
  return 0;
}
