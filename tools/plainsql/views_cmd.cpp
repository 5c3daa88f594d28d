// `plainsql views` and `plainsql translate` (see views_cmd.h).
#include "views_cmd.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <filesystem>
#include <optional>

#include "catalog/name_catalog.h"
#include "cli.h"
#include "common/file.h"
#include "exec/connection.h"
#include "llm/client.h"
#include "naturalness/classifier.h"
#include "naturalness/crosswalk.h"
#include "naturalness/dictionary.h"
#include "naturalness/expander.h"
#include "naturalness/llm_names.h"
#include "naturalness/namer.h"
#include "naturalness/translate_query.h"
#include "sql/token.h"
#include "views/deploy.h"
#include "views/views.h"

namespace plainsql::cli {

namespace {

Result<naturalness::Crosswalk> LoadCrosswalkArg(const std::string& path) {
  if (path.empty()) return MakeError(ErrorCode::kInvalidArgument, "--crosswalk FILE is required");
  return naturalness::LoadCrosswalk(path);
}

}  // namespace

ViewsCommands::ViewsCommands(CLI::App& app) {
  rename_ = app.add_subcommand("rename",
                               "Write a crosswalk (native -> readable N1, abbreviated N2 / N3 names) for a database; "
                               "rerun keeps your edits");
  rename_->add_option("CONN", conn_, "Database connection (not needed with --tables)");
  rename_->add_option("-o,--output", out_, "The crosswalk CSV to write (kept entries are read from it first)")
      ->required();
  rename_->add_option(
      "--dictionary", dictionaries_,
      "A data dictionary (CSV, text, XML or PDF) whose words and phrases explain the abbreviations; repeatable");
  rename_->add_option("--tables", tables_file_, "Name a Spider/BIRD tables.json schema instead of CONN");
  rename_->add_option("--db", db_id_, "With --tables: the db_id");
  rename_->add_option("--data-dir", data_dir_,
                      "Where words.tsv, naturalness.model, abbreviations.tsv and name_model.tsv are");
  rename_->add_option("--name-model", name_model_file_,
                      "The name model that reads cryptic words from what readable schemas name and what the columns "
                      "hold (default: DATA_DIR/name_model.tsv; none: the expander's rules alone)");
  rename_
      ->add_option("--min-posterior", min_posterior_,
                   "With the name model: leave a cryptic word as written unless its best reading has at least this "
                   "probability among the readings")
      ->capture_default_str();
  rename_
      ->add_option("--agreement", agreement_,
                   "With the name model: how much the readings of a cryptic piece in the schema's other names weigh "
                   "on each name's reading (one reading per piece across the schema: MO in TB_MO, MO_ID and MO_PART); "
                   "0 reads every name on its own")
      ->check(NonNegative())
      ->capture_default_str();
  rename_->add_option(
      "--llm", llm_url_,
      "An OpenAI-compatible endpoint (e.g. http://localhost:11434/v1) that proposes the readable names; "
      "none: no LLM (default: $PLAINSQL_LLM_URL if set, else none). The key comes from "
      "PLAINSQL_LLM_API_KEY or OPENAI_API_KEY");
  rename_->add_option("--model", llm_model_, "With --llm: the model (default: $PLAINSQL_LLM_MODEL)");

  views_ = app.add_subcommand(
      "views", "Natural views from a crosswalk: print their DDL, deploy them (--apply) or remove them (--drop)");
  views_->add_option("CONN", conn_, "Database connection (not needed with --tables when only printing DDL)");
  views_->add_option("--crosswalk", crosswalk_file_, "The crosswalk CSV (native -> N1/N2/N3 names)");
  views_->add_option("--level", level_, "N1 (Regular), N2 (Low) or N3 (Least)")->capture_default_str();
  views_->add_flag("--extended", extended_, "Add the columns of the tables each foreign key references");
  views_->add_flag("--strict", strict_,
                   "Refuse a crosswalk that gives two tables, or two columns of a table, one name (default: the later "
                   "gets name_2, with a warning)");
  AddInferKeysOption(*views_, infer_keys_);
  views_->add_option("--dialect", dialect_, "DDL to print: sqlite | postgres | tsql (default: the connection's)");
  views_->add_option("--namespace", namespace_, "PostgreSQL / T-SQL: the schema that holds the views")
      ->capture_default_str();
  views_->add_option("--companion", companion_,
                     "SQLite: deploy into this companion database (it attaches the original) instead of the file "
                     "itself; connect to it to see the views");
  views_->add_flag(
      "--apply", apply_,
      "Create the views (replacing plainsql's earlier ones): the one write plainsql makes; never on tables or data");
  views_->add_flag("--drop", drop_, "Remove plainsql's views from the database");
  views_->add_option("--tables", tables_file_, "Print DDL for a Spider/BIRD tables.json schema instead of CONN");
  views_->add_option("--db", db_id_, "With --tables: the db_id");

  translate_ = app.add_subcommand(
      "translate", "Rewrite a query between native names and a naturalness level's names (no views needed)");
  translate_->add_option("CONN", conn_, "Database connection (not needed with --tables)");
  translate_->add_option("SQL", sql_, "The query (default: read standard input)");
  translate_->add_option("--crosswalk", crosswalk_file_, "The crosswalk CSV")->required();
  translate_->add_option("--from", from_, "Names the query is written with: native | N1 | N2 | N3")->required();
  translate_->add_option("--to", to_, "Names to write it with: native | N1 | N2 | N3")->required();
  translate_->add_option("--dialect,-d", dialect_, "Dialect of the query (default: the connection's)");
  translate_->add_option("--tables", tables_file_, "Use a Spider/BIRD tables.json schema instead of CONN");
  translate_->add_flag("--strict", strict_,
                       "Refuse a crosswalk that gives two tables, or two columns of a table, one name (default: the "
                       "later gets name_2, with a warning)");
  translate_->add_option("--db", db_id_, "With --tables: the db_id");
}

int ViewsCommands::Run() {
  if (views_->parsed()) return Views();
  if (rename_->parsed()) return Rename();
  return Translate();
}

int ViewsCommands::Rename() {
  std::string dir = data_dir_.empty() ? naturalness::DefaultDataDir() : data_dir_;
  if (!(min_posterior_ >= 0 && min_posterior_ <= 1)) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--min-posterior must be between 0 and 1"));
  }
  if (!(agreement_ >= 0 && agreement_ <= 10)) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--agreement must be between 0 and 10"));
  }
  auto namer = naturalness::SchemaNamer::Load(dir, name_model_file_, min_posterior_);
  if (!namer) return Fail(namer.error());
  const naturalness::Classifier& classifier = (*namer)->classifier();
  naturalness::Expander& expander = (*namer)->expander();
  catalog::IntrospectOptions opts;
  opts.samples =
      (*namer)->has_name_model() ? naturalness::kShapeSamples : 0;  // what each column holds tells the model what it is
  opts.row_counts = false;
  auto target = SchemaFromArgs(conn_, tables_file_, db_id_, opts, true);
  if (!target) return Fail(target.error());
  NoteIfNoTables(target->schema);
  catalog::Schema schema = std::move(target->schema);
  if (!conn_.empty()) {
    auto c = exec::Connect(conn_);
    if (!c) return Fail(c.error());
    auto ours = views::DeployedViewNames(**c);
    if (!ours) return Fail(ours.error());
    schema = views::WithoutRelations(schema, *ours);
  }
  std::optional<naturalness::Crosswalk> previous;
  if (std::filesystem::exists(out_)) {
    auto loaded = naturalness::LoadCrosswalk(out_);
    if (!loaded) {
      return Fail(
          MakeError(loaded.error().code,
                    loaded.error().message + " (the output file exists and is read first, to keep its entries)"));
    }
    previous = std::move(*loaded);
  }
  std::vector<std::string> evidence;
  for (const auto& path : dictionaries_) {
    auto text = naturalness::DictionaryText(path);
    if (!text) return Fail(text.error());
    evidence.push_back(std::move(*text));
  }
  naturalness::NamingReport report;
  naturalness::NamingOptions options;
  options.agreement = agreement_;
  options.evidence = evidence;
  options.wordnet = (*namer)->wordnet();
  // An LLM only when one is configured: --llm URL, or PLAINSQL_LLM_URL.
  llm::Config llm_config = llm::ConfigFromEnvironment();
  if (!llm_url_.empty()) llm_config.base_url = llm_url_;
  if (!llm_model_.empty()) llm_config.model = llm_model_;
  if (!llm_config.base_url.empty() && llm_url_ != "none") {
    auto client = llm::Client::Create(llm_config);
    if (!client) return Fail(client.error());
    std::vector<naturalness::PendingName> pending =
        naturalness::PendingNames(schema, classifier, expander, previous ? &*previous : nullptr, options);
    std::vector<naturalness::LlmNameRequest> requests;
    requests.reserve(pending.size());
    for (const auto& p : pending) requests.push_back({p.identifier, p.table, p.guess});
    std::vector<std::string> names;
    for (const auto& t : schema.tables) {
      names.push_back(t.name);
      for (const auto& c : t.columns) names.push_back(c.name);
    }
    if (isatty(STDERR_FILENO)) {
      fmt::print(stderr, "asking {} ({}) for {} name{}\n", llm_config.base_url, llm_config.model, requests.size(),
                 requests.size() == 1 ? "" : "s");
    }
    // The names a user kept or edited in the earlier file are examples of this schema's style.
    naturalness::ValidatedNames validated;
    if (previous) {
      for (const auto& e : previous->entries) {
        if (!e.n1.empty() && e.n1 != e.native) validated.emplace_back(e.native, e.n1);
      }
    }
    naturalness::LlmNamingStats stats;
    auto named = naturalness::NameWithLlm(*client, schema.database, names, requests, evidence, &stats, 40, validated);
    if (!named) return Fail(named.error());
    for (const auto& [i, name] : *named) options.proposed[{requests[i].table, requests[i].identifier}] = name;
    fmt::print(stderr,
               "the LLM named {} of {} identifiers ({} request{}, {} prompt + {} completion tokens); the "
               "expander named the rest\n",
               stats.named, requests.size(), stats.requests, stats.requests == 1 ? "" : "s", stats.prompt_tokens,
               stats.completion_tokens);
  }
  auto crosswalk = (*namer)->Name(schema, previous ? &*previous : nullptr, options, &report);
  for (const auto& issue : naturalness::ValidateCrosswalk(crosswalk, nullptr)) {
    if (issue.error) fmt::print(stderr, "plainsql: warning: {}\n", issue.message);
  }
  if (Status s = naturalness::SaveCrosswalk(crosswalk, out_); !s) return Fail(s.error());
  std::string msg =
      fmt::format("wrote {}: {} entries ({} new, {} with a new N1 name, {} with other readings; {} kept from the file)",
                  out_, crosswalk.entries.size(), report.added, report.expanded, report.with_alternatives, report.kept);
  if (!report.stale.empty()) {
    msg += fmt::format("\n{} entr{} of the file name nothing in the database and {} kept: {}", report.stale.size(),
                       report.stale.size() == 1 ? "y" : "ies", report.stale.size() == 1 ? "was" : "were",
                       fmt::join(report.stale, ", "));
  }
  Write(msg + "\n");
  return 0;
}

int ViewsCommands::Views() {
  if (apply_ && drop_) return Fail(MakeError(ErrorCode::kInvalidArgument, "give --apply or --drop, not both"));
  bool writes = apply_ || drop_;
  if (writes && !tables_file_.empty()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--apply and --drop need a database (CONN), not --tables"));
  }
  if (drop_) {
    if (conn_.empty()) return Fail(MakeError(ErrorCode::kInvalidArgument, "--drop needs CONN"));
    auto report = views::DropViews(conn_, namespace_, companion_);
    if (!report) return Fail(report.error());
    Write(fmt::format("dropped {} plainsql view{} from {}\n", report->dropped, report->dropped == 1 ? "" : "s",
                      companion_.empty() ? exec::RedactConnectionString(report->where) : report->where));
    return 0;
  }
  auto level = naturalness::ParseLevel(level_, "--level", false);
  if (!level) return Fail(level.error());
  auto crosswalk = LoadCrosswalkArg(crosswalk_file_);
  if (!crosswalk) return Fail(crosswalk.error());
  catalog::IntrospectOptions opts;
  opts.samples = 0;
  opts.row_counts = false;
  auto target = SchemaFromArgs(conn_, tables_file_, db_id_, opts, /*use_cache=*/!writes, infer_keys_);
  if (!target) return Fail(target.error());
  catalog::Schema schema = std::move(target->schema);
  if (!conn_.empty()) {
    // plainsql's own views already in a SQLite file are not tables to make views of.
    auto conn = exec::Connect(conn_);
    if (!conn) return Fail(conn.error());
    auto ours = views::DeployedViewNames(**conn);
    if (!ours) return Fail(ours.error());
    schema = views::WithoutRelations(schema, *ours);
  }
  auto where = views::TargetFor(*target->dialect, !companion_.empty());
  if (!where) return Fail(where.error());
  if (!dialect_.empty()) {
    if (writes) return Fail(MakeError(ErrorCode::kInvalidArgument, "--dialect only chooses the DDL to print"));
    auto d = sql::DialectByName(dialect_);
    if (!d) return Fail(MakeError(ErrorCode::kInvalidArgument, fmt::format("unknown --dialect '{}'", dialect_)));
    // A companion database is a SQLite arrangement; printing for another dialect drops it.
    bool companion = where->companion && (*d)->view_placement == sql::ViewPlacement::kBesideTables;
    where = views::TargetFor(**d, companion);
    if (!where) return Fail(where.error());
  }
  views::ViewOptions options;
  options.level = *level;
  options.extended = extended_;
  options.schema_name = namespace_;
  if (!strict_) *crosswalk = ResolvedCrosswalk(*crosswalk, schema);
  auto plan = views::PlanViews(schema, *crosswalk, options);
  if (!plan) return Fail(plan.error());
  for (const auto& note : plan->notes) fmt::print(stderr, "plainsql: note: {}\n", note);
  if (!apply_) {
    Write(views::CreateScript(*plan, schema, *where));
    return 0;
  }
  auto report = views::ApplyViews(conn_, *plan, schema, companion_);
  if (!report) return Fail(report.error());
  std::string place = companion_.empty() ? exec::RedactConnectionString(report->where) : report->where;
  std::string msg = fmt::format("created {} {}view{} ({}) in {}", report->created, extended_ ? "extended " : "",
                                report->created == 1 ? "" : "s", naturalness::LevelCode(*level), place);
  if (report->dropped)
    msg += fmt::format(", replacing {} earlier plainsql view{}", report->dropped, report->dropped == 1 ? "" : "s");
  if (!report->as_is.empty()) {
    msg += fmt::format("; {} table{} already natural, used as {} ({})", report->as_is.size(),
                       report->as_is.size() == 1 ? " is" : "s are", report->as_is.size() == 1 ? "it is" : "they are",
                       fmt::join(report->as_is, ", "));
  }
  if (where->companion) msg += fmt::format("\nconnect to {} to query them", place);
  if (where->dialect->view_placement == sql::ViewPlacement::kOwnNamespace) {
    msg += fmt::format("\nquery them with search_path={} (e.g. add ?options=-csearch_path%3D{} to the URL)",
                       report->where, report->where);
  }
  Write(msg + "\n");
  return 0;
}

int ViewsCommands::Translate() {
  auto from = naturalness::ParseLevel(from_, "--from", true);
  if (!from) return Fail(from.error());
  auto to = naturalness::ParseLevel(to_, "--to", true);
  if (!to) return Fail(to.error());
  auto crosswalk = LoadCrosswalkArg(crosswalk_file_);
  if (!crosswalk) return Fail(crosswalk.error());
  // With --tables the connection argument is not needed, so a single positional argument is the query.
  std::string conn = conn_, text = sql_;
  if (!tables_file_.empty() && text.empty()) std::swap(conn, text);
  catalog::IntrospectOptions opts;
  opts.samples = 0;
  opts.row_counts = false;
  auto target = SchemaFromArgs(conn, tables_file_, db_id_, opts, true);
  if (!target) return Fail(target.error());
  catalog::Schema schema = target->schema;
  if (!conn.empty()) {
    auto c = exec::Connect(conn);
    if (!c) return Fail(c.error());
    auto ours = views::DeployedViewNames(**c);
    if (!ours) return Fail(ours.error());
    schema = views::WithoutRelations(schema, *ours);
  }
  const sql::Dialect* dialect = target->dialect;
  if (!dialect_.empty()) {
    auto d = sql::DialectByName(dialect_);
    if (!d) return Fail(MakeError(ErrorCode::kInvalidArgument, fmt::format("unknown --dialect '{}'", dialect_)));
    dialect = *d;
  }
  text = ArgumentOrStdin(text);
  if (!strict_) *crosswalk = ResolvedCrosswalk(*crosswalk, schema);
  auto out = naturalness::Translate(text, catalog::ToNameCatalog(schema), *crosswalk, *from, *to, *dialect);
  if (!out) return Fail(out.error());
  for (const auto& u : out->unresolved) {
    sql::SourcePosition p = sql::PositionOf(text, u.offset);
    fmt::print(stderr, "plainsql: warning: {} '{}' does not resolve at {} (line {}, column {}); left as written\n",
               u.kind, u.name, from_, p.line, p.column);
  }
  Write(out->sql + "\n");
  return 0;
}

}  // namespace plainsql::cli
