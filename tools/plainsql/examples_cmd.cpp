// `plainsql examples ...` (see examples_cmd.h).
#include "examples_cmd.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <map>
#include <memory>
#include <optional>

#include "catalog/benchmark_schema.h"
#include "catalog/name_catalog.h"
#include "cli.h"
#include "common/strings.h"
#include "eval/benchmark.h"
#include "eval/worker.h"
#include "examples/benchmark_db.h"
#include "examples/mask.h"
#include "examples/schema_graph.h"
#include "examples/store.h"
#include "examples/wwl.h"
#include "exec/connection.h"
#include "pipeline/config.h"
#include "pipeline/examples_stage.h"
#include "pipeline/generators.h"
#include "retrieval/value_index.h"
#include "sql/parser.h"
#include "sql/resolver.h"

namespace plainsql::cli {

namespace {

// Ctrl-C asks a running build to stop after the batch it is writing.
std::atomic<bool> g_stop{false};
extern "C" void OnBuildInterrupt(int) { g_stop = true; }

using Clock = std::chrono::steady_clock;

// A progress bar on stderr (only on a terminal): one line per step, rewritten in place.
class ProgressLine {
 public:
  ProgressLine() : tty_(isatty(STDERR_FILENO) == 1), started_(Clock::now()) {}
  examples::StoreProgress Callback() {
    if (!tty_) return {};
    return [this](const std::string& step, size_t done, size_t total) {
      if (step != step_) {
        if (!step_.empty()) fmt::print(stderr, "\n");
        step_ = step;
        started_ = Clock::now();
        first_ = done;
      }
      eval::Progress p;
      p.done = done;
      p.total = total;
      p.elapsed_seconds = std::chrono::duration<double>(Clock::now() - started_).count();
      double rate = done > first_ ? static_cast<double>(done - first_) / std::max(1e-9, p.elapsed_seconds) : 0;
      p.eta_seconds = rate > 0 ? static_cast<double>(total - done) / rate : 0;
      fmt::print(stderr, "\r{:<10} {}", step, eval::ProgressBar(p));
      std::fflush(stderr);
    };
  }
  ~ProgressLine() {
    if (!step_.empty()) fmt::print(stderr, "\n");
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  bool tty_;
  Clock::time_point started_;
  std::string step_;
  size_t first_ = 0;
};

// The databases of a questions file: --tables and --db-dir (in the Spider layout).
examples::BenchmarkDatabases Databases(const catalog::BenchmarkSchemas& tables, const std::string& db_dir) {
  return {&tables, db_dir, eval::SqliteDatabasePath};
}

void PrintBuildSummary(const examples::BuildResult& r, const std::string& questions, const std::string& store) {
  std::string out = fmt::format("{}: {} of {} items done", questions, r.input.done, r.input.total);
  if (r.resumed_from > 0 && r.resumed_from >= r.input.total) {
    out += " (all by an earlier build)";
  } else if (r.resumed_from > 0) {
    out += fmt::format(" (resumed after {})", r.resumed_from);
  }
  out += fmt::format("; {} examples added, {} already stored, {} skipped\n", r.added, r.duplicates, r.skipped);
  for (const auto& why : r.skip_reasons) out += "  skipped " + why + "\n";
  out +=
      fmt::format("{} new databases, {} distances computed; store {}\n", r.new_databases, r.distances_computed, store);
  Write(out);
}

}  // namespace

ExamplesCommands::ExamplesCommands(CLI::App& app) {
  root_ = app.add_subcommand(
      "examples",
      "The example store few-shot prompts draw on: build it from solved questions, add your own, select examples "
      "for a question, compare schemas by WWL distance");
  root_->require_subcommand(1);
  root_->add_option("--store", store_, "The example store: a SQLite file, or a postgresql:// URL shared by processes");

  build_ = root_->add_subcommand(
      "build",
      "Add a benchmark's solved questions to a store (created when missing): masked questions and SQL, the databases' "
      "schema graphs and their WWL distances. Resumable: run it again after Ctrl-C or a crash; appending another "
      "input keeps what is there, and nothing is stored twice");
  build_
      ->add_option("--benchmark", benchmark_,
                   "spider | bird | custom (a JSON list or JSON Lines of {question, sql, db_id}, or CSV)")
      ->capture_default_str();
  build_->add_option("--questions", questions_, "The solved questions (e.g. spider/train_spider.json)")->required();
  build_->add_option("--tables", tables_, "tables.json with the databases' schemas (e.g. spider/tables.json)");
  build_->add_option("--db-dir", db_dir_,
                     "Folder of the SQLite databases (Spider layout): their values are masked in the questions too");
  build_->add_option("--batch", batch_, "Questions per transaction")->capture_default_str();
  build_->add_option("--threads", threads_, "Threads for the distances (0: one per core)")->capture_default_str();

  add_ = root_->add_subcommand("add", "Add one solved question of your own (its SQL must parse and be read-only)");
  add_->add_option("CONN", conn_, "The database it was asked of")->required();
  add_->add_option("QUESTION", question_, "The question")->required();
  add_->add_option("SQL", sql_, "The query that answers it")->required();
  add_->add_option("--db-id", db_id_, "The database's name in the store (default: the file stem or database name)");

  stats_ = root_->add_subcommand("stats", "What a store holds: examples, databases, sources, builds, distances");
  stats_->add_flag("--json", json_, "Print one JSON object");

  select_ = root_->add_subcommand(
      "select",
      "The examples the pipeline would put in the prompt: for one question (CONN QUESTION) or for each question of a "
      "file (--questions Q --tables T), best first");
  select_->add_option("CONN", conn_, "The database asked (with QUESTION)");
  select_->add_option("QUESTION", question_, "The question");
  select_->add_option("--questions", questions_, "A questions file (as for build), one selection per question");
  select_->add_option("--benchmark", benchmark_, "Format of --questions: spider | bird | custom")
      ->capture_default_str();
  select_->add_option("--tables", tables_, "With --questions: the schemas (tables.json)");
  select_->add_option("--db-dir", db_dir_,
                      "With --questions: the databases, for their values and the built-in translator's draft");
  select_->add_option("-k", k_, "Examples per question")->capture_default_str();
  select_->add_option("--draft", draft_,
                      "With CONN: the draft query to compare SQL with (default: the built-in "
                      "translator's answer)");
  select_->add_flag("--no-draft", no_draft_, "Select by masked question and schema only");
  select_->add_flag("--leave-out-same", leave_out_same_,
                    "Leave out examples with the same database and question (the Ground configuration)");
  select_->add_flag("--json", json_,
                    "One JSON line per question: {\"examples\": [{\"question\", \"sql\", \"db_id\", \"score\", "
                    "\"question_similarity\", \"sql_similarity\", \"schema_distance\"}]}");

  distances_ = root_->add_subcommand("distances", "WWL distances between the schemas of a tables.json");
  distances_->add_option("--tables", tables_, "tables.json")->required();
  distances_->add_option("--db", databases_, "Only these databases (repeatable; default all)");
  distances_->add_option("--threads", threads_, "Threads (0: one per core)")->capture_default_str();
  distances_->add_flag("--json", json_, "Print {\"dbs\": [...], \"distances\": [[...]]}");
}

int ExamplesCommands::Run() {
  if (*distances_) return Distances();
  if (store_.empty()) return Fail(MakeError(ErrorCode::kInvalidArgument, "give the example store: --store S"));
  if (*build_) return Build();
  if (*add_) return Add();
  if (*stats_) return Stats();
  return Select();
}

int ExamplesCommands::Build() {
  if (benchmark_ != "spider" && benchmark_ != "bird" && benchmark_ != "custom") {
    return Fail(MakeError(ErrorCode::kInvalidArgument,
                          fmt::format("--benchmark must be spider, bird or custom, not '{}'", benchmark_)));
  }
  if (tables_.empty() && db_dir_.empty()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "give --tables (the schemas) or --db-dir (the databases)"));
  }
  if (batch_ < 1) return Fail(MakeError(ErrorCode::kInvalidArgument, "--batch must be at least 1"));
  // The file is read once: the input's key is the hash of its items (BuildOptions::content_hash left empty), and the
  // questions move into the items.
  std::vector<examples::BuildItem> items;
  {
    auto benchmark = eval::LoadBenchmark(benchmark_, questions_);
    if (!benchmark) return Fail(benchmark.error());
    items.reserve(benchmark->questions.size());
    for (auto& q : benchmark->questions) {
      items.push_back({std::move(q.db_id), std::move(q.question), std::move(q.gold_sql)});
    }
  }
  auto tables = catalog::BenchmarkSchemas::Read(tables_);
  if (!tables) return Fail(tables.error());
  auto store = examples::ExampleStore::Open(store_);
  if (!store) return Fail(store.error());
  examples::DatabaseSource source = examples::BenchmarkDatabaseSource(Databases(*tables, db_dir_));
  ProgressLine progress;
  examples::BuildOptions options;
  options.benchmark = benchmark_;
  options.path = questions_;
  options.batch = batch_;
  options.progress = progress.Callback();
  options.cancel = &g_stop;
  options.distance_threads = threads_;
  g_stop = false;
  auto previous = std::signal(SIGINT, OnBuildInterrupt);
  auto result = examples::BuildStore(**store, items, source, options);
  std::signal(SIGINT, previous);
  if (!result) return Fail(result.error());
  PrintBuildSummary(*result, questions_, (*store)->Where());
  if (result->cancelled) {
    fmt::print(stderr, "plainsql: interrupted; everything above is stored. Resume with the same command.\n");
    return 130;
  }
  return 0;
}

int ExamplesCommands::Add() {
  auto conn = exec::Connect(conn_);
  if (!conn) return Fail(conn.error());
  auto target = SchemaFromConnection(**conn, {}, true);
  if (!target) return Fail(target.error());
  const sql::Dialect& dialect = *target->dialect;
  // The query must be one read-only query over this schema.
  if (Status st = exec::CheckSingleQuery(sql_, dialect); !st) return Fail(st.error());
  auto parsed = sql::ParseQuery(sql_, dialect);
  if (!parsed) return Fail(parsed.error());
  auto resolution = sql::Resolve(*parsed, catalog::ToNameCatalog(target->schema), dialect);
  if (!resolution.unresolved.empty()) {
    const auto& u = resolution.unresolved.front();
    return Fail(MakeError(ErrorCode::kSql, fmt::format("the query names {} '{}', which {} does not have", u.kind,
                                                       u.name, exec::RedactConnectionString(conn_))));
  }
  if (auto checked = CheckQuestion(question_); !checked) return Fail(checked.error());
  std::string db_id = db_id_.empty() ? target->schema.database : db_id_;
  auto store = examples::ExampleStore::Open(store_);
  if (!store) return Fail(store.error());
  auto added_db = (*store)->AddDatabase(db_id, target->schema, dialect);
  if (!added_db) return Fail(added_db.error());
  auto values = retrieval::ValueIndex::Build(**conn, target->schema);
  examples::QuestionMasker masker(target->schema, values ? &*values : nullptr);
  auto masked_sql = examples::MaskSql(sql_, dialect);
  if (!masked_sql) return Fail(masked_sql.error());
  std::vector<examples::Example> one(1);
  one[0].db_id = db_id;
  one[0].question = question_;
  one[0].sql = sql_;
  one[0].masked_question = masker.Mask(question_);
  one[0].masked_sql = *masked_sql;
  auto added = (*store)->AddExamples(one, "user");
  if (!added) return Fail(added.error());
  auto distances = (*store)->UpdateDistances(threads_);
  if (!distances) return Fail(distances.error());
  Write(*added ? fmt::format("added example {} to {} (database {}{})\n", one[0].id, (*store)->Where(), db_id,
                             *added_db ? ", new" : "")
               : fmt::format("{} already has this example (database {})\n", (*store)->Where(), db_id));
  return 0;
}

namespace {

nlohmann::ordered_json StatsJson(const examples::StoreStats& s, const std::string& where) {
  nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
  for (const auto& i : s.inputs) {
    inputs.push_back({{"path", i.path},
                      {"benchmark", i.benchmark},
                      {"total", i.total},
                      {"done", i.done},
                      {"added", i.added},
                      {"skipped", i.skipped},
                      {"finished", i.finished},
                      {"updated", i.updated}});
  }
  auto pairs = [](const std::vector<std::pair<std::string, int64_t>>& v) {
    nlohmann::ordered_json o = nlohmann::ordered_json::object();
    for (const auto& [k, n] : v) o[k] = n;
    return o;
  };
  nlohmann::ordered_json meta = nlohmann::ordered_json::object();
  for (const auto& [k, v] : s.meta) meta[k] = v;
  return {{"store", where},
          {"examples", s.examples},
          {"databases", s.databases},
          {"distances", {{"pairs", s.distance_pairs}, {"cached", s.distances_cached}}},
          {"by_source", pairs(s.by_source)},
          {"by_database", pairs(s.by_database)},
          {"inputs", inputs},
          {"meta", meta}};
}

std::string StatsText(const examples::StoreStats& s, const std::string& where) {
  auto meta = [&](const std::string& k) {
    auto it = s.meta.find(k);
    return it == s.meta.end() ? std::string("?") : it->second;
  };
  std::string out = fmt::format("example store {} (version {}, created {})\n", where, meta("version"), meta("created"));
  out += fmt::format("examples   {}\ndatabases  {}\ndistances  {} of {} pairs cached\n", s.examples, s.databases,
                     s.distances_cached, s.distance_pairs);
  if (!s.by_source.empty()) out += "\nsources\n";
  for (const auto& [source, n] : s.by_source) out += fmt::format("  {:<40} {:>8}\n", source, n);
  if (!s.inputs.empty()) out += "\nbuilds\n";
  for (const auto& i : s.inputs) {
    out += fmt::format("  {:<40} {:>8}/{:<8} {} ({} added, {} skipped)\n", i.path, i.done, i.total,
                       i.finished ? "done" : "stopped", i.added, i.skipped);
  }
  if (!s.by_database.empty()) out += "\nexamples per database (most first)\n";
  for (size_t i = 0; i < s.by_database.size() && i < 10; ++i) {
    out += fmt::format("  {:<40} {:>8}\n", s.by_database[i].first, s.by_database[i].second);
  }
  if (s.by_database.size() > 10) out += fmt::format("  ... and {} more\n", s.by_database.size() - 10);
  return out;
}

}  // namespace

int ExamplesCommands::Stats() {
  auto store = examples::ExampleStore::OpenExisting(store_);
  if (!store) return Fail(store.error());
  auto stats = (*store)->Stats();
  if (!stats) return Fail(stats.error());
  Write(json_ ? StatsJson(*stats, (*store)->Where()).dump(2) + "\n" : StatsText(*stats, (*store)->Where()));
  return 0;
}

namespace {

// One question's selection: a JSON line, or readable lines.
std::string SelectionOutput(const pipeline::ExampleSelection& s, const std::string& question, const std::string& db_id,
                            bool json) {
  if (json) {
    nlohmann::ordered_json picks = nlohmann::ordered_json::array();
    for (const auto& p : s.picks) picks.push_back(pipeline::PickToJson(p));
    return nlohmann::ordered_json{{"examples", picks}}.dump() + "\n";
  }
  std::string out = fmt::format("{} ({})\n  masked: {}\n", question, db_id, s.masked_question);
  if (!s.draft.empty()) out += fmt::format("  draft ({}): {}\n", s.draft_by, s.draft);
  for (size_t i = 0; i < s.picks.size(); ++i) {
    const auto& p = s.picks[i];
    out += fmt::format("  {}. {:.3f} (question {:.3f}, sql {:.3f}, schema distance {:.3f}) {}: {}\n     {}\n", i + 1,
                       p.scores.score, p.scores.question_similarity, p.scores.sql_similarity, p.scores.schema_distance,
                       p.example->db_id, p.example->question, p.example->sql);
  }
  if (s.picks.empty()) out += "  no example selected\n";
  return out;
}

// The built-in translator for drafts on one database ("" drafts when it cannot be made).
std::unique_ptr<pipeline::GeneratorSet> BuiltinDrafter(exec::Connection& conn, const catalog::Schema& schema) {
  pipeline::PipelineConfig offline;
  offline.llm.base_url = "none";
  auto generators = pipeline::MakeGenerators(offline, conn, schema);
  if (!generators || generators->active.empty()) return nullptr;
  return std::make_unique<pipeline::GeneratorSet>(std::move(*generators));
}

// The drafter's answer to `question`, as the draft ("" when it gives none).
std::string Draft(pipeline::GeneratorSet* drafter, const exec::Connection& conn, const catalog::Schema& schema,
                  const std::string& question) {
  if (drafter == nullptr) return "";
  generate::GenerationRequest r;
  r.question = question;
  r.schema = &schema;
  r.dialect = &conn.dialect();
  auto g = drafter->active.front()->Generate(r);
  if (!g || g->candidates.empty()) return "";
  return g->candidates.front();
}

// Examples with the same database and question as the one asked (--leave-out-same).
std::function<bool(const examples::Example&)> SameQuestion(const std::string& db_id, const std::string& question) {
  return [db_id, question](const examples::Example& e) { return e.db_id == db_id && e.question == question; };
}

}  // namespace

int ExamplesCommands::Select() {
  if (k_ < 1 || k_ > 100) return Fail(MakeError(ErrorCode::kInvalidArgument, "-k must be 1 to 100"));
  if (!questions_.empty()) {
    if (!conn_.empty()) {
      return Fail(MakeError(ErrorCode::kInvalidArgument, "give either CONN QUESTION or --questions, not both"));
    }
    return SelectBenchmark();
  }
  if (conn_.empty() || question_.empty()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "give CONN QUESTION, or --questions Q --tables T"));
  }
  if (auto checked = CheckQuestion(question_); !checked) return Fail(checked.error());
  return SelectOne();
}

int ExamplesCommands::SelectOne() {
  auto conn = exec::Connect(conn_);
  if (!conn) return Fail(conn.error());
  auto target = SchemaFromConnection(**conn, {}, true);
  if (!target) return Fail(target.error());
  pipeline::ExamplesOptions options;
  options.k = k_;
  examples::ExampleLibrary::LoadOptions lo;
  auto library = examples::ExampleLibrary::Load(store_, lo);
  if (!library) return Fail(library.error());
  options.library = *library;
  std::string db_id = target->schema.database;
  if (leave_out_same_) options.exclude = SameQuestion(db_id, question_);
  std::string draft = draft_, by = draft_.empty() ? "builtin" : "--draft";
  if (no_draft_) {
    draft.clear();
  } else if (draft.empty()) {
    draft = Draft(BuiltinDrafter(**conn, target->schema).get(), **conn, target->schema, question_);
  }
  auto s = pipeline::SelectExamples(conn->get(), target->schema, question_, draft, draft.empty() ? "" : by,
                                    *target->dialect, options, std::chrono::milliseconds(10'000));
  Write(SelectionOutput(s, question_, db_id, json_));
  return 0;
}

namespace {

// What a selection over a questions file keeps per database: its schema and values, its masker and its drafter.
struct SelectDb {
  examples::BenchmarkDatabase db;
  std::unique_ptr<examples::QuestionMasker> masker;
  std::unique_ptr<pipeline::GeneratorSet> drafter;
};

}  // namespace

int ExamplesCommands::SelectBenchmark() {
  if (tables_.empty() && db_dir_.empty()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "with --questions, give --tables (the schemas) or --db-dir"));
  }
  auto benchmark = eval::LoadBenchmark(benchmark_, questions_);
  if (!benchmark) return Fail(benchmark.error());
  auto tables = catalog::BenchmarkSchemas::Read(tables_);
  if (!tables) return Fail(tables.error());
  ProgressLine progress;
  examples::ExampleLibrary::LoadOptions lo;
  lo.progress = progress.Callback();
  auto library = examples::ExampleLibrary::Load(store_, lo);
  if (!library) return Fail(library.error());
  std::map<std::string, std::unique_ptr<SelectDb>> dbs;
  for (const auto& q : benchmark->questions) {
    auto& slot = dbs[q.db_id];
    if (!slot) {
      auto db = examples::OpenBenchmarkDatabase(Databases(*tables, db_dir_), q.db_id);
      if (!db) return Fail(db.error());
      slot = std::make_unique<SelectDb>();
      slot->db = std::move(*db);
      slot->masker = std::make_unique<examples::QuestionMasker>(slot->db.schema, slot->db.values.get());
      if (!no_draft_ && slot->db.conn) slot->drafter = BuiltinDrafter(*slot->db.conn, slot->db.schema);
    }
    pipeline::ExamplesOptions options;
    options.library = *library;
    options.k = k_;
    options.masker = slot->masker.get();
    if (leave_out_same_) options.exclude = SameQuestion(q.db_id, q.question);
    std::string draft = slot->drafter ? Draft(slot->drafter.get(), *slot->db.conn, slot->db.schema, q.question) : "";
    auto s = pipeline::SelectExamples(slot->db.conn.get(), slot->db.schema, q.question, draft,
                                      draft.empty() ? "" : "builtin", sql::Sqlite(), options);
    Write(SelectionOutput(s, q.question, q.db_id, json_));
  }
  return 0;
}

int ExamplesCommands::Distances() {
  auto tables = catalog::BenchmarkSchemas::Read(tables_);
  if (!tables) return Fail(tables.error());
  std::vector<std::string> ids = databases_.empty() ? tables->Ids() : databases_;
  std::vector<std::vector<examples::NodeLabels>> labels;
  labels.reserve(ids.size());
  for (const auto& id : ids) {
    auto schema = tables->Get(id);
    if (!schema) return Fail(schema.error());
    labels.push_back(examples::WlLabels(examples::BuildSchemaGraph(*schema)));
  }
  ProgressLine progress;
  auto report = progress.Callback();
  auto matrix = examples::WwlDistances(labels, threads_, [&](size_t done, size_t total) {
    if (report) report("distances", done, total);
  });
  if (json_) {
    Write(nlohmann::ordered_json{{"dbs", ids}, {"distances", matrix}}.dump() + "\n");
    return 0;
  }
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    for (size_t j = i + 1; j < ids.size(); ++j) out += fmt::format("{}\t{}\t{:.6f}\n", ids[i], ids[j], matrix[i][j]);
  }
  Write(out);
  return 0;
}

}  // namespace plainsql::cli
