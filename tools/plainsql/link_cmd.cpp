// `plainsql link` (see link_cmd.h).
#include "link_cmd.h"

#include <fmt/format.h>

#include <map>
#include <memory>

#include "catalog/benchmark_schema.h"
#include "catalog/dictionary.h"
#include "cli.h"
#include "eval/benchmark.h"
#include "exec/connection.h"
#include "linking/subset_methods.h"
#include "pipeline/config.h"

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
                   "into a learned scorer) | draft (the tables a draft query of the built-in translator reads) | "
                   "skalpel (SKALPEL: an LLM decomposes the question and describes the tables, kept by embedding "
                   "distance)")
      ->capture_default_str();
  cmd_->add_option("--budget", budget_, "At most this many columns (0: no cap)")->capture_default_str();
  cmd_->add_option("--threshold", threshold_,
                   "The probability a table or column needs to be kept (default: the trained model's)")
      ->check(CLI::Range(0.0, 1.0));
  cmd_->add_option("--small-table", small_table_,
                   "Kept tables with at most this many columns are kept whole (default: the trained model's)");
  cmd_->add_option("--min-share", min_share_,
                   "Keep at least this share of the columns, most probable first (default: the trained model's)")
      ->check(CLI::Range(0.0, 1.0));
  cmd_->add_flag("--associations,!--no-associations", associations_,
                 "Also keep a table that references two kept tables, with its join columns (default: the trained "
                 "model's)");
  cmd_->add_flag("--infer-keys{add}", infer_keys_,
                 "Infer the keys the database does not declare, from names and sampled values (marked as inferred; "
                 "cached until the schema changes): without the option, those of the tables no declared foreign key "
                 "touches (isolated); --infer-keys (=add) every column a declared key does not cover; =replace drops "
                 "the declared keys and infers all; =none keeps the declared keys alone");
  cmd_->add_option("--questions", questions_, "A benchmark's questions (as for eval score): one subset per question");
  cmd_->add_option("--benchmark", benchmark_, "spider | bird | snails | custom")->capture_default_str();
  cmd_->add_option("--tables", tables_, "tables.json, for the schemas");
  cmd_->add_option("--db-dir", db_dir_, "Folder of SQLite databases (Spider layout), for cell values and schemas");
  AddDescriptionsOption(*cmd_, descriptions_);
  cmd_->add_flag("--json", json_, "One JSON object per question: tables, columns, scores, ms");
  cmd_->add_flag(
      "--no-evidence", no_evidence_,
      "Read the question alone, not its evidence (BIRD's external knowledge, SNAILS' hints; read by default, "
      "as a model is shown it)");
  cmd_->add_option("--llm", llm_url_, "skalpel: OpenAI-compatible base URL (default: PLAINSQL_LLM_URL)");
  cmd_->add_option("--model", model_, "skalpel: model name (default: PLAINSQL_LLM_MODEL)");
  cmd_->add_option(
      "--config", config_file_,
      "skalpel: configuration file (default: ./plainsql.toml, else ~/.config/plainsql/plainsql.toml, when present)");
  cmd_->add_option("--embedding-model", embedding_model_,
                   "skalpel: embedding model (default: [examples] embedding_model; none: the offline embedder)");
  cmd_->add_option("--embedding-url", embedding_url_,
                   "skalpel: base URL of the embedding model (default: [examples] embedding_url, else --llm)");
  cmd_->add_option("--max-distance", max_distance_,
                   "skalpel: the largest cosine distance of a kept table to the question or a phrase (default: 0.6 "
                   "with an embedding model, 0.75 with the offline embedder)")
      ->check(CLI::Range(0.0, 2.0));
  cmd_->add_option("--column-distance", column_distance_,
                   "skalpel: also filter columns by this cosine distance (names far from every phrase are left out "
                   "unless cryptic or keys; default: every column of a kept table)")
      ->check(CLI::Range(0.0, 2.0));
}

Result<linking::SkalpelOptions> LinkCommand::Skalpel() const {
  // The configuration file, then the environment (the API key only from PLAINSQL_LLM_API_KEY or OPENAI_API_KEY),
  // then the flags.
  auto config = pipeline::LoadConfig(config_file_);
  if (!config) return config.error();
  linking::SkalpelOptions o;
  o.chat = config->llm;
  if (!llm_url_.empty()) o.chat.base_url = llm_url_;
  if (!model_.empty()) o.chat.model = model_;
  o.embedding = o.chat;
  o.embedding.model = embedding_model_.empty() ? config->examples.embedding_model : embedding_model_;
  o.embedding.base_url = !embedding_url_.empty()                   ? embedding_url_
                         : !config->examples.embedding_url.empty() ? config->examples.embedding_url
                                                                   : o.chat.base_url;
  if (max_distance_) o.max_distance = o.sparse_max_distance = *max_distance_;
  o.column_max_distance = column_distance_;
  return o;
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
  auto read = QuestionArgumentOrStdin(question_);
  if (!read) return Fail(read.error());
  const std::string& question = *read;
  auto conn = exec::Connect(conn_);
  if (!conn) return Fail(conn.error());
  auto target = SchemaFromConnection(**conn, {}, true, infer_keys_ == "none" ? "" : infer_keys_, descriptions_);
  if (!target) return Fail(target.error());
  NoteIfNoTables(target->schema);
  std::unique_ptr<retrieval::ValueIndex> values;
  if (method_ == "builtin") {
    auto v = retrieval::ValueIndex::Build(**conn, target->schema);
    if (v) values = std::make_unique<retrieval::ValueIndex>(std::move(*v));
  }
  std::optional<linking::SkalpelOptions> skalpel;
  if (method_ == "skalpel") {
    auto o = Skalpel();
    if (!o) return Fail(o.error());
    skalpel = std::move(*o);
  }
  auto subsetter = linking::MakeSubsetter(method_, target->schema, conn->get(), values.get(), nullptr,
                                          skalpel ? &*skalpel : nullptr);
  if (!subsetter) return Fail(subsetter.error());
  linking::SubsetOptions options{budget_, threshold_, small_table_, min_share_, associations_};
  auto subset = (*subsetter)->Select(question, options);
  if (!subset) return Fail(subset.error());
  Write(json_ ? linking::SubsetToJson(*subset).dump() + "\n" : linking::SubsetText(*subset));
  return 0;
}

int LinkCommand::RunBenchmark() {
  if (tables_.empty() && db_dir_.empty()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "with --questions, give --tables (the schemas) or --db-dir"));
  }
  if (descriptions_ != "auto" && descriptions_ != "none") {
    return Fail(MakeError(ErrorCode::kInvalidArgument,
                          "with --questions, data dictionaries are read from --db-dir (<db_id>/database_description): "
                          "give --descriptions none or leave it out"));
  }
  auto benchmark = eval::LoadBenchmark(benchmark_, questions_);
  if (!benchmark) return Fail(benchmark.error());
  auto tables = catalog::BenchmarkSchemas::Read(tables_);
  if (!tables) return Fail(tables.error());
  std::shared_ptr<const linking::LinkResources> resources;
  std::optional<linking::SkalpelOptions> skalpel;
  if (method_ == "skalpel") {
    auto o = Skalpel();
    if (!o) return Fail(o.error());
    skalpel = std::move(*o);
  } else {
    auto r = linking::LinkResources::Load();
    if (!r) return Fail(r.error());
    resources = *r;
  }
  std::optional<linking::InferKeysOptions> infer;
  auto mode = linking::KeyInferenceModeOption(infer_keys_, true);
  if (!mode) return Fail(mode.error());
  if (*mode) {
    infer.emplace();
    infer->mode = **mode;
  }
  linking::SubsetOptions options{budget_, threshold_, small_table_, min_share_, associations_};
  std::map<std::string, std::unique_ptr<linking::SubsetDatabase>> dbs;
  for (const auto& q : benchmark->questions) {
    auto& db = dbs[q.db_id];
    if (!db) {
      std::string file = db_dir_.empty() ? "" : eval::SqliteDatabasePath(db_dir_, q.db_id);
      std::vector<std::string> notes;
      std::string dictionary = descriptions_ == "none" ? "" : catalog::DataDictionaryIn(db_dir_, q.db_id);
      auto opened = linking::OpenSubsetDatabase(*tables, q.db_id, file, dictionary, method_, resources,
                                                skalpel ? &*skalpel : nullptr, infer ? &*infer : nullptr, &notes);
      if (!opened) return Fail(opened.error());
      for (const auto& note : notes) fmt::print(stderr, "{}\n", note);
      db = std::move(*opened);
    }
    auto subset = db->subsetter->Select(
        no_evidence_ ? q.question : linking::QuestionWithEvidence(q.question, q.evidence), options);
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
