// `plainsql link` (see link_cmd.h).
#include "link_cmd.h"

#include <fmt/format.h>

#include <map>
#include <memory>

#include "catalog/benchmark_schema.h"
#include "cli.h"
#include "eval/benchmark.h"
#include "exec/connection.h"
#include "linking/subset_methods.h"

namespace plainsql::cli {

LinkCommand::LinkCommand(CLI::App& app) {
  cmd_ = app.add_subcommand(
      "link",
      "The schema subset a question needs: the tables and columns to show a model, ranked by a score. CONN "
      "\"question\" for one question; --questions Q --tables T [--db-dir D] --json for a benchmark (one JSON line per "
      "question, the file `plainsql eval subsets --subsets` scores)");
  cmd_->add_option("conn", conn_, "The database (CONN)");
  cmd_->add_option("question", question_, "The question (\"-\" or none: standard input)");
  cmd_->add_option("--method", method_,
                   "builtin (linker, values, foreign keys and, with the database, the built-in translator's draft, "
                   "into a learned scorer) | draft (the tables a draft query of the built-in translator reads)")
      ->capture_default_str();
  cmd_->add_option("--budget", budget_, "At most this many columns (0: no cap)")->capture_default_str();
  cmd_->add_option("--threshold", threshold_,
                   "The probability a table or column needs to be kept (default: the trained model's)");
  cmd_->add_option("--small-table", small_table_,
                   "Kept tables with at most this many columns are kept whole (default: the trained model's)");
  cmd_->add_option("--questions", questions_, "A benchmark's questions (as for eval score): one subset per question");
  cmd_->add_option("--benchmark", benchmark_, "spider | bird | snails | custom")->capture_default_str();
  cmd_->add_option("--tables", tables_, "tables.json, for the schemas");
  cmd_->add_option("--db-dir", db_dir_, "Folder of SQLite databases (Spider layout), for cell values and schemas");
  cmd_->add_flag("--json", json_, "One JSON object per question: tables, columns, scores, ms");
}

int LinkCommand::Run() {
  if (!questions_.empty()) {
    if (!conn_.empty()) {
      return Fail(MakeError(ErrorCode::kInvalidArgument, "give either CONN QUESTION or --questions, not both"));
    }
    return RunBenchmark();
  }
  if (conn_.empty()) return Fail(MakeError(ErrorCode::kInvalidArgument, "give CONN QUESTION, or --questions Q"));
  return RunOne();
}

int LinkCommand::RunOne() {
  auto target = SchemaFromArgs(conn_, "", "", {}, true);
  if (!target) return Fail(target.error());
  auto conn = exec::Connect(conn_);
  if (!conn) return Fail(conn.error());
  std::string question = ArgumentOrStdin(question_);
  std::unique_ptr<retrieval::ValueIndex> values;
  if (method_ == "builtin") {
    auto v = retrieval::ValueIndex::Build(**conn, target->schema);
    if (v) values = std::make_unique<retrieval::ValueIndex>(std::move(*v));
  }
  auto subsetter = linking::MakeSubsetter(method_, target->schema, conn->get(), values.get(), nullptr);
  if (!subsetter) return Fail(subsetter.error());
  linking::SubsetOptions options{budget_, threshold_, small_table_};
  auto subset = (*subsetter)->Select(question, options);
  if (!subset) return Fail(subset.error());
  Write(json_ ? linking::SubsetToJson(*subset).dump() + "\n" : linking::SubsetText(*subset));
  return 0;
}

int LinkCommand::RunBenchmark() {
  if (tables_.empty() && db_dir_.empty()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "with --questions, give --tables (the schemas) or --db-dir"));
  }
  auto benchmark = eval::LoadBenchmark(benchmark_, questions_);
  if (!benchmark) return Fail(benchmark.error());
  auto tables = catalog::BenchmarkSchemas::Read(tables_);
  if (!tables) return Fail(tables.error());
  auto resources = linking::LinkResources::Load();
  if (!resources) return Fail(resources.error());
  linking::SubsetOptions options{budget_, threshold_, small_table_};
  std::map<std::string, std::unique_ptr<linking::SubsetDatabase>> dbs;
  for (const auto& q : benchmark->questions) {
    auto& db = dbs[q.db_id];
    if (!db) {
      std::string file = db_dir_.empty() ? "" : eval::SqliteDatabasePath(db_dir_, q.db_id);
      auto opened = linking::OpenSubsetDatabase(*tables, q.db_id, file, method_, *resources);
      if (!opened) return Fail(opened.error());
      db = std::move(*opened);
    }
    auto subset = db->subsetter->Select(q.question, options);
    if (!subset) return Fail(subset.error());
    if (json_) {
      Write(linking::SubsetToJson(*subset).dump() + "\n");
    } else {
      Write(fmt::format("{} ({})\n", q.question, q.db_id) + linking::SubsetText(*subset) + "\n");
    }
  }
  return 0;
}

}  // namespace plainsql::cli
