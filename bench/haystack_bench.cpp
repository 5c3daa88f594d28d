// The haystack benchmark (issue #18, part 4): builds the merged XL / XXL schema and measures the built-in subsetter on
// it, the index build (time, memory) apart from the questions.
//
//   haystack_bench haystack --data-dir ../shared/data --out /tmp/hs            # = plainsql eval haystack
//   haystack_bench measure --tables /tmp/hs/tables.json --questions /tmp/hs/questions_spider_dev.json
//       [--subsets out.jsonl] [--budget N] [--threshold P] [--infer-keys isolated|none|add|replace]
//
// `measure` prints the index build time and the process's peak memory after it, then per question set: PerfRecall
// (PRe), mean proportion, mean attribute proportion (kept columns / schema columns), relation and attribute recall,
// and per-question p50 / p99 / max ms. The subsets it writes (--subsets) are the lines `plainsql link --json` writes,
// for `plainsql eval subsets`.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <fstream>

#include "../tools/plainsql/haystack_cmd.h"
#include "catalog/benchmark_schema.h"
#include "common/strings.h"
#include "eval/benchmark.h"
#include "eval/score.h"
#include "linking/infer_keys.h"
#include "linking/subset_builtin.h"

namespace {

using Clock = std::chrono::steady_clock;

double PeakRssMb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // kB on Linux
}

struct MeasureArgs {
  std::string tables, questions, subsets, benchmark = "spider";
  bool no_evidence = false;                 // the question alone
  size_t min_columns = 0, max_columns = 0;  // only the questions of schemas of this size (0: no upper bound)
  size_t budget = 0, limit = 0;
  std::optional<double> threshold;
  size_t misses = 0;   // print this many questions the subset misses something of
  bool stage = false;  // also score the first stage alone (every column of the tables it keeps)
  std::optional<size_t> narrow_tables, narrow_neighbours_of, narrow_min_columns, narrow_components, narrow_floored;
  std::optional<double> narrow_budget_share, narrow_component_share, narrow_component_weight, narrow_component_lead;
  // Keys inferred as `plainsql link --infer-keys` infers them (names and types alone: a haystack has no data).
  std::string infer_keys = "isolated";
};

int Measure(const MeasureArgs& a) {
  auto benchmark = plainsql::eval::LoadBenchmark(a.benchmark, a.questions);
  auto tables = plainsql::catalog::BenchmarkSchemas::Read(a.tables);
  auto resources = plainsql::linking::LinkResources::Load();
  if (!benchmark || !tables || tables->Ids().empty() || !resources) {
    fmt::print(stderr, "cannot read {}, {} or the naturalness data\n", a.questions, a.tables);
    return 1;
  }
  plainsql::linking::SubsetModel model = plainsql::linking::SubsetModel::Active();
  if (a.narrow_tables) model.narrow.tables = *a.narrow_tables;
  if (a.narrow_neighbours_of) model.narrow.neighbours_of = *a.narrow_neighbours_of;
  if (a.narrow_min_columns) model.narrow.min_columns = *a.narrow_min_columns;
  if (a.narrow_components) model.narrow.components = *a.narrow_components;
  if (a.narrow_budget_share) model.narrow.budget_share = *a.narrow_budget_share;
  if (a.narrow_floored) model.narrow.floored = *a.narrow_floored;
  if (a.narrow_component_share) model.narrow.component_share = *a.narrow_component_share;
  if (a.narrow_component_weight) model.narrow.component_weight = *a.narrow_component_weight;
  if (a.narrow_component_lead) model.narrow.component_lead = *a.narrow_component_lead;
  auto infer_mode = plainsql::linking::KeyInferenceModeOption(a.infer_keys, true);
  if (!infer_mode) {
    fmt::print(stderr, "{}\n", infer_mode.error().message);
    return 1;
  }
  // One subsetter per database (a haystack has one), its index built once, timed apart from the questions.
  struct Db {
    plainsql::catalog::Schema schema;
    std::unique_ptr<plainsql::linking::BuiltinSubsetter> subsetter;
  };
  std::map<std::string, std::unique_ptr<Db>> dbs;
  auto open = [&](const std::string& db_id) -> Db* {
    auto& db = dbs[db_id];
    if (db) return db.get();
    auto schema = tables->Get(db_id);
    if (!schema) return nullptr;
    db = std::make_unique<Db>();
    db->schema = std::move(*schema);
    const double rss_before = PeakRssMb();
    auto t0 = Clock::now();
    if (*infer_mode) {
      plainsql::linking::InferKeysOptions io;
      io.mode = **infer_mode;
      const auto inferred = plainsql::linking::InferKeysFromSamples(
          db->schema, std::vector<plainsql::linking::TableValues>(db->schema.tables.size()), io);
      fmt::print("{}: {} keys inferred from names\n", db_id, inferred.keys.size());
    }
    db->subsetter = std::make_unique<plainsql::linking::BuiltinSubsetter>(db->schema, *resources, nullptr, model);
    fmt::print("{}: {} tables, {} columns; index built in {:.0f} ms; peak RSS {:.0f} MB (before the index {:.0f} MB)\n",
               db_id, db->schema.tables.size(), db->schema.ColumnCount(),
               std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), PeakRssMb(), rss_before);
    return db.get();
  };
  plainsql::eval::ScoreOptions so;
  so.tables_file = a.tables;
  plainsql::eval::Scorer scorer(*benchmark, so);
  std::ofstream out;
  if (!a.subsets.empty()) out.open(a.subsets);
  std::vector<double> ms;
  size_t scored = 0, perfect = 0, stage_perfect = 0, shown = 0;
  double stage_columns = 0;
  double proportion = 0, attribute = 0, rel_recall = 0, att_recall = 0;
  plainsql::linking::SubsetOptions options{a.budget, a.threshold, std::nullopt, std::nullopt, std::nullopt};
  for (const auto& q : benchmark->questions) {
    if (a.limit && ms.size() >= a.limit) break;
    Db* db = open(q.db_id);
    if (db == nullptr) continue;
    const size_t ncols = db->schema.ColumnCount();
    if (ncols < a.min_columns || (a.max_columns && ncols > a.max_columns)) continue;
    const auto& schema = &db->schema;
    auto& subsetter = *db->subsetter;
    const std::string text =
        a.no_evidence ? q.question : plainsql::linking::QuestionWithEvidence(q.question, q.evidence);
    auto s = subsetter.Select(text, options);
    if (!s) continue;
    ms.push_back(s->ms);
    if (out) out << plainsql::linking::SubsetToJson(*s).dump() << "\n";
    std::vector<std::string> names = s->tables;
    names.insert(names.end(), s->columns.begin(), s->columns.end());
    auto r = scorer.ScoreSubset(q, names);
    if (!r || !r->scored) continue;
    if (a.stage) {
      // The first stage alone: every column of the tables it keeps.
      const plainsql::linking::QuestionFeatures f = subsetter.Features(q.question);
      std::vector<std::string> all;
      for (size_t t : f.table_ids) {
        all.push_back(schema->tables[t].name);
        for (const auto& c : schema->tables[t].columns) all.push_back(schema->tables[t].name + "." + c.name);
        stage_columns += static_cast<double>(schema->tables[t].columns.size());
      }
      auto st = scorer.ScoreSubset(q, all);
      stage_perfect += st && st->scores.perfect ? 1 : 0;
    }
    ++scored;
    perfect += r->scores.perfect ? 1 : 0;
    if (!r->scores.perfect && shown < a.misses) {
      ++shown;
      // Each missing item with its probability and its rank among the schema's tables or columns (threshold 0).
      plainsql::linking::SubsetOptions all = options;
      all.threshold = 0.0;
      all.budget = 0;
      std::vector<std::string> ranked;
      if (auto every = subsetter.Select(text, all)) {
        std::vector<std::pair<double, std::string>> order;
        for (const auto& [name, p] : every->scores) order.emplace_back(-p, plainsql::ToLower(name));
        std::sort(order.begin(), order.end());
        for (const auto& m : r->missing) {
          const bool column = m.find('.') != std::string::npos;
          size_t rank = 0;
          std::string shown_item = m + " (not scored)";
          for (const auto& [p, name] : order) {
            if ((name.find('.') != std::string::npos) != column) continue;
            ++rank;
            if (name == m) {
              shown_item = fmt::format("{} ({:.3f}, #{})", m, -p, rank);
              break;
            }
          }
          ranked.push_back(shown_item);
        }
      }
      fmt::print("miss: {} | missing {} | kept tables {}\n", q.question, fmt::join(ranked, " "),
                 fmt::join(s->tables, " "));
    }
    proportion += r->scores.proportion;
    attribute += static_cast<double>(s->columns.size()) / static_cast<double>(ncols);
    rel_recall += r->scores.relation_recall;
    att_recall += r->scores.attribute_recall;
  }
  if (ms.empty() || scored == 0) {
    fmt::print("no question scored\n");
    return 1;
  }
  std::sort(ms.begin(), ms.end());
  const auto n = static_cast<double>(scored);
  fmt::print(
      "{} questions ({} scored): PRe {:.3f}, proportion {:.4f}, attribute proportion {:.4f}, relation recall {:.3f}, "
      "attribute recall {:.3f}; per question p50 {:.1f} ms, p99 {:.1f} ms, max {:.1f} ms; peak RSS {:.0f} MB\n",
      ms.size(), scored, static_cast<double>(perfect) / n, proportion / n, attribute / n, rel_recall / n,
      att_recall / n, ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 99 / 100)], ms.back(), PeakRssMb());
  if (a.stage) {
    fmt::print("first stage: PRe {:.3f} keeping {:.0f} columns on average\n", static_cast<double>(stage_perfect) / n,
               stage_columns / n);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The haystack benchmark: build the merged schema (haystack), measure the builtin subsetter on it"};
  app.require_subcommand(1);
  plainsql::cli::HaystackCommand haystack(app);
  MeasureArgs a;
  CLI::App* measure = app.add_subcommand("measure", "Time and score `link --method builtin` on a haystack");
  measure->add_option("--tables", a.tables, "The haystack's tables.json")->required();
  measure->add_option("--questions", a.questions, "A questions_<set>.json of the haystack")->required();
  measure->add_option("--subsets", a.subsets, "Also write the subsets (JSON Lines, as `plainsql link --json`)");
  measure->add_option("--budget", a.budget, "At most this many columns (0: the model's cut)");
  measure->add_option("--threshold", a.threshold, "The probability kept (default: the model's)");
  measure->add_option("--limit", a.limit, "Only the first N questions");
  measure->add_flag("--no-evidence", a.no_evidence, "Read the question alone, not its evidence");
  measure->add_option("--benchmark", a.benchmark, "spider | bird | snails (the questions' format)");
  measure->add_option("--min-columns", a.min_columns, "Only questions on schemas with at least N columns");
  measure->add_option("--max-columns", a.max_columns, "... and at most N (0: no bound)");
  measure->add_option("--misses", a.misses,
                      "Print this many questions whose subset misses something (each missing table or column with "
                      "its probability and its rank in the schema)");
  measure->add_flag("--stage", a.stage, "Also score the first stage alone (every column of the tables it keeps)");
  measure->add_option("--narrow-tables", a.narrow_tables, "Tables the first stage keeps (default: the model's)");
  measure->add_option("--narrow-neighbours-of", a.narrow_neighbours_of, "... with the neighbours of its best N");
  measure->add_option("--narrow-components", a.narrow_components, "Components Select runs the model on");
  measure->add_option("--narrow-budget-share", a.narrow_budget_share, "... while they hold this share of the columns");
  measure->add_option("--narrow-min-columns", a.narrow_min_columns, "Narrow schemas with more columns (0: never)");
  measure->add_option("--narrow-floored", a.narrow_floored, "The best N components keep their own size's floor");
  measure->add_option("--infer-keys", a.infer_keys,
                      "Keys inferred from names first, as `plainsql link` infers them: isolated (the default, as "
                      "link's), none, add, replace");
  measure->add_option("--narrow-component-share", a.narrow_component_share,
                      "Each component's subset holds at most this share of the budget (0: no cap)");
  measure->add_option("--narrow-component-weight", a.narrow_component_weight,
                      "The joined subsets merged by column probability times (component score / best)^this (0: "
                      "joined in order)");
  measure->add_option("--narrow-component-lead", a.narrow_component_lead,
                      "In the merge, the best component's cap grows by this share of the budget times its lead over "
                      "the second (0: it does not grow)");
  CLI11_PARSE(app, argc, argv);
  if (auto env = plainsql::linking::CheckModelEnvironment(); !env.ok()) {
    fmt::print(stderr, "{}\n", env.error().message);
    return 1;
  }
  if (haystack.Selected()) return haystack.Run();
  return Measure(a);
}
