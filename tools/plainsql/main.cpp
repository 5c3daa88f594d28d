// plainsql: the command-line program. It parses arguments, calls the library and prints; nothing else lives here.
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string_view>

#include "ask_cmd.h"
#include "catalog/benchmark_schema.h"
#include "catalog/cache.h"
#include "catalog/name_catalog.h"
#include "catalog/render.h"
#include "catalog/tokens.h"
#include "check_access_cmd.h"
#include "cli.h"
#include "common/status.h"
#include "common/version.h"
#include "eval_cmd.h"
#include "exec/connection.h"
#include "exec/render.h"
#include "naturalness/crosswalk.h"
#include "naturalness_cmd.h"
#include "pipeline/config.h"
#include "sql/parser.h"
#include "sql/resolver.h"
#include "sql/token.h"
#include "sql/transpile.h"
#include "views/middleware.h"
#include "views_cmd.h"

namespace {

using plainsql::ErrorCode;
using plainsql::cli::ArgumentOrStdin;
using plainsql::cli::Fail;
using plainsql::cli::SchemaFromArgs;
using plainsql::cli::Write;

struct SchemaArgs {
  std::string conn;
  std::string format = "ddl";
  std::string dialect;
  std::string schema_filter;
  std::string tables_file;
  std::string db_id;
  int samples = 3;
  bool no_cache = false;
  bool tokens = false;
  std::string crosswalk_file;
  std::string level = "N1";
};

int RunSchema(const SchemaArgs& a) {
  using namespace plainsql;
  auto format = catalog::SchemaFormatByName(a.format);
  if (!format) return Fail(MakeError(ErrorCode::kInvalidArgument, fmt::format("unknown --format '{}'", a.format)));
  if (a.samples < 0) return Fail(MakeError(ErrorCode::kInvalidArgument, "--samples must be 0 or more"));

  catalog::IntrospectOptions opts;
  opts.samples = a.samples;
  opts.schema_filter = a.schema_filter;
  auto target = SchemaFromArgs(a.conn, a.tables_file, a.db_id, opts, !a.no_cache);
  if (!target) return Fail(target.error());
  catalog::Schema& schema = target->schema;
  const sql::Dialect* dialect = target->dialect;
  if (!a.dialect.empty()) {
    auto d = sql::DialectByName(a.dialect);
    if (!d) return Fail(MakeError(ErrorCode::kInvalidArgument, fmt::format("unknown --dialect '{}'", a.dialect)));
    dialect = *d;
  }
  if (!a.crosswalk_file.empty()) {
    // The schema as an LLM should see it: natural names, without deploying views.
    auto level = naturalness::LevelByName(a.level);
    if (!level || *level == naturalness::Level::kNative) {
      return Fail(MakeError(ErrorCode::kInvalidArgument,
                            fmt::format("--level must be N1, N2 or N3 (Regular, Low, Least), not '{}'", a.level)));
    }
    auto cw = naturalness::LoadCrosswalk(a.crosswalk_file);
    if (!cw) return Fail(cw.error());
    schema = views::NaturalSchema(schema, *cw, *level);
  }
  if (a.tokens) {
    fmt::print("{:<14} {:>8} {:>8}\n", "format", "chars", "tokens~");
    for (auto f : {catalog::SchemaFormat::kList, catalog::SchemaFormat::kPromptSnails, catalog::SchemaFormat::kDdl,
                   catalog::SchemaFormat::kPromptDdl, catalog::SchemaFormat::kJson}) {
      std::string text = catalog::RenderSchema(schema, f, *dialect, a.samples);
      fmt::print("{:<14} {:>8} {:>8}\n", catalog::SchemaFormatName(f), text.size(), catalog::EstimateTokens(text));
    }
    return 0;
  }
  Write(catalog::RenderSchema(schema, *format, *dialect, a.samples));
  return 0;
}

struct SqlArgs {
  std::string conn;
  std::string query;
  std::string format = "table";
  int64_t timeout_ms = 30'000;
  int64_t max_rows = 10'000;
};

int RunSql(const SqlArgs& a) {
  using namespace plainsql;
  exec::ResultFormat format;
  if (a.format == "table")
    format = exec::ResultFormat::kTable;
  else if (a.format == "csv")
    format = exec::ResultFormat::kCsv;
  else if (a.format == "json")
    format = exec::ResultFormat::kJson;
  else
    return Fail(MakeError(ErrorCode::kInvalidArgument, fmt::format("unknown --format '{}'", a.format)));
  if (a.timeout_ms <= 0)
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--timeout must be a positive number of ms"));
  if (a.max_rows < 0) return Fail(MakeError(ErrorCode::kInvalidArgument, "--max-rows must be 0 or more"));
  std::string query = a.query;
  if (query == "-") query = ArgumentOrStdin(query);  // an empty QUERY is an error below, not a read of stdin

  auto conn = exec::Connect(a.conn);
  if (!conn) return Fail(conn.error());
  exec::Limits limits{std::chrono::milliseconds(a.timeout_ms), a.max_rows};
  auto rs = (*conn)->Query(query, limits);
  if (!rs) return Fail(rs.error());
  Write(exec::Render(*rs, format));
  if (rs->truncated && format != exec::ResultFormat::kTable) {
    fmt::print(stderr, "plainsql: note: result truncated at {} rows (raise --max-rows to see more)\n", a.max_rows);
  }
  return 0;
}

struct ParseArgs {
  std::string sql;
  std::string dialect = "sqlite";
  std::string to;
  bool pretty = false;
  bool lines = false;
  bool mask = false;
  bool skeleton = false;
  bool qualify = false;
  std::string conn;
  std::string tables_file;
  std::string db_id;
};

int RunParse(const ParseArgs& a) {
  using namespace plainsql;
  auto from = sql::DialectByName(a.dialect);
  if (!from) return Fail(MakeError(ErrorCode::kInvalidArgument, fmt::format("unknown --dialect '{}'", a.dialect)));
  auto to = sql::DialectByName(a.to.empty() ? a.dialect : a.to);
  if (!to) return Fail(MakeError(ErrorCode::kInvalidArgument, fmt::format("unknown --to '{}'", a.to)));
  sql::TranspileOptions options;
  options.print.pretty = a.pretty;
  options.mask = a.mask;
  options.skeleton = a.skeleton;
  if (a.mask && a.skeleton) return Fail(MakeError(ErrorCode::kInvalidArgument, "give --mask or --skeleton, not both"));
  bool has_schema = !a.conn.empty() || !a.tables_file.empty();
  bool sqlite_to_other = (*from)->name == "sqlite" && (*to)->name != "sqlite";
  if (a.qualify && !has_schema) {
    return Fail(
        MakeError(ErrorCode::kInvalidArgument, "--qualify needs a schema: --conn CONN, or --tables FILE --db ID"));
  }
  if (has_schema && !a.qualify && !sqlite_to_other) {
    return Fail(MakeError(ErrorCode::kInvalidArgument,
                          "--conn and --tables are only used with --qualify, or from SQLite to another dialect"));
  }
  sql::NameCatalog catalog;
  if (has_schema) {
    catalog::IntrospectOptions opts;
    opts.samples = 0;
    auto target = SchemaFromArgs(a.conn, a.tables_file, a.db_id, opts, true);
    if (!target) return Fail(target.error());
    catalog = catalog::ToNameCatalog(target->schema);
    if (a.qualify) options.qualify_with = &catalog;
    // SQLite reads "x" naming no column as the string 'x'; another dialect needs it written as a string.
    if (sqlite_to_other) options.fallbacks_with = &catalog;
  }
  if (a.lines) {
    sql::TranspileOptions line_options = options;
    line_options.print.pretty = false;
    // One output line per input line: the query re-generated, or "error: " and the message. Text after a TAB (the
    // db_id of Spider's gold files) is ignored.
    std::string line;
    int failures = 0, total = 0;
    while (std::getline(std::cin, line)) {
      ++total;
      std::string_view q = line;
      if (size_t tab = q.find('\t'); tab != std::string_view::npos) q = q.substr(0, tab);
      auto out = sql::Transpile(q, **from, **to, line_options);
      if (out) {
        fmt::print("{}\n", *out);
      } else {
        ++failures;
        fmt::print("error: {}\n", sql::OneLineMessage(out.error()));
      }
    }
    std::fflush(stdout);
    if (failures) {
      return Fail(MakeError(ErrorCode::kSql, fmt::format("{} of {} lines did not parse", failures, total)));
    }
    return 0;
  }
  std::string text = ArgumentOrStdin(a.sql);
  std::vector<sql::UnresolvedName> unresolved;
  options.unresolved = &unresolved;
  auto out = sql::Transpile(text, **from, **to, options);
  if (!out) return Fail(out.error());
  for (const auto& u : unresolved) {
    sql::SourcePosition p = sql::PositionOf(text, u.offset);
    fmt::print(stderr, "plainsql: warning: {} '{}' does not resolve (line {}, column {}); left as written\n", u.kind,
               u.name, p.line, p.column);
  }
  Write(*out + "\n");
  return 0;
}

struct IdentifiersArgs {
  std::string conn;
  std::string sql;
  std::string dialect;
  std::string tables_file;
  std::string db_id;
};

int RunIdentifiers(const IdentifiersArgs& a) {
  using namespace plainsql;
  // With --tables the connection argument is not needed, so a single positional argument is the query.
  std::string conn = a.conn, text = a.sql;
  if (!a.tables_file.empty() && text.empty()) std::swap(conn, text);
  catalog::IntrospectOptions opts;
  opts.samples = 0;
  auto target = SchemaFromArgs(conn, a.tables_file, a.db_id, opts, true);
  if (!target) return Fail(target.error());
  const catalog::Schema& schema = target->schema;
  const sql::Dialect* dialect = target->dialect;
  if (!a.dialect.empty()) {
    auto d = sql::DialectByName(a.dialect);
    if (!d) return Fail(MakeError(ErrorCode::kInvalidArgument, fmt::format("unknown --dialect '{}'", a.dialect)));
    dialect = *d;
  }
  text = ArgumentOrStdin(text);
  auto q = sql::ParseQuery(text, *dialect);
  if (!q) return Fail(q.error());
  sql::Resolution r = sql::Resolve(*q, catalog::ToNameCatalog(schema), *dialect);
  Write(sql::ResolutionToJson(r, text).dump(2) + "\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "plainsql: answer questions about a relational database in plain language, and measure how well it "
      "does.\n\nCONN is a SQLite file (a path or sqlite:PATH) or a postgresql://user@host/db URL.\n"
      "Exit codes: 0 ok, 2 bad usage or argument, 3 not found, 4 connection failed, 5 refused (not a "
      "read-only query), 6 SQL error, 7 timeout, 8 I/O error, 9 bad file format, 70 internal error.",
      "plainsql"};
  app.set_version_flag("--version", std::string("plainsql ") + plainsql::kVersion);
  app.require_subcommand(1);

  SchemaArgs schema_args;
  auto* schema = app.add_subcommand("schema", "Print a database's schema (tables, columns, keys, samples)");
  schema->add_option("CONN", schema_args.conn, "Database connection");
  schema->add_option("--format,-f", schema_args.format, "json | ddl | prompt-snails | prompt-ddl | list")
      ->capture_default_str();
  schema->add_option("--samples", schema_args.samples, "Distinct sample values to read per column")
      ->capture_default_str();
  schema->add_option("--dialect", schema_args.dialect,
                     "Dialect of DDL output: sqlite | postgres | tsql | mysql "
                     "(default: the connection's)");
  schema->add_option("--schema", schema_args.schema_filter, "PostgreSQL: read only this schema (default: all)");
  schema->add_option("--tables", schema_args.tables_file, "Read a Spider/BIRD tables.json file instead of a database");
  schema->add_option("--db", schema_args.db_id, "With --tables: the db_id to read");
  schema->add_flag("--no-cache", schema_args.no_cache, "Introspect even if a current snapshot is cached");
  schema->add_flag("--tokens", schema_args.tokens, "Print the size of every rendering (chars, approximate tokens)");
  schema->add_option("--crosswalk", schema_args.crosswalk_file,
                     "Show the names of a crosswalk instead of the native ones (no views needed)");
  schema->add_option("--level", schema_args.level, "With --crosswalk: N1, N2 or N3")->capture_default_str();

  SqlArgs sql_args;
  auto* sql = app.add_subcommand("sql", "Run one read-only query with a timeout and a row cap");
  sql->add_option("CONN", sql_args.conn, "Database connection")->required();
  sql->add_option("QUERY", sql_args.query, "The SQL query, or - to read it from standard input")->required();
  sql->add_option("--format,-f", sql_args.format, "table | csv | json")->capture_default_str();
  sql->add_option("--timeout", sql_args.timeout_ms, "Stop the query after this many milliseconds")
      ->capture_default_str();
  sql->add_option("--max-rows", sql_args.max_rows, "Return at most this many rows")->capture_default_str();

  ParseArgs parse_args;
  auto* parse = app.add_subcommand("parse", "Parse a query and print it again, in the same or another dialect");
  parse->add_option("SQL", parse_args.sql, "The query (default: read standard input)");
  parse->add_option("--dialect,-d", parse_args.dialect, "Dialect of the input: sqlite | postgres | tsql | mysql")
      ->capture_default_str();
  parse->add_option("--to", parse_args.to, "Dialect of the output (default: the input's)");
  parse->add_flag("--pretty", parse_args.pretty, "Clauses on their own lines");
  parse->add_flag("--lines", parse_args.lines,
                  "Read one query per standard-input line (text after a TAB is ignored) and print one line each");
  parse->add_flag("--mask", parse_args.mask, "Print the query with names as <mask> and values as <value>");
  parse->add_flag("--skeleton", parse_args.skeleton,
                  "Print the query's skeleton (DAIL-SQL style tokens: names and values as _, joins and lists folded)");
  parse->add_flag("--qualify", parse_args.qualify,
                  "Qualify every column with its table or alias (needs --conn or --tables/--db)");
  parse->add_option("--conn", parse_args.conn,
                    "The database whose schema names resolve against: for --qualify, and from SQLite to another "
                    "dialect to write SQLite's double-quoted strings as strings");
  parse->add_option("--tables", parse_args.tables_file, "As --conn, from a Spider/BIRD tables.json schema");
  parse->add_option("--db", parse_args.db_id, "With --tables: the db_id");

  IdentifiersArgs id_args;
  auto* identifiers = app.add_subcommand(
      "identifiers", "List the tables and columns a query reads, and the names that do not resolve (JSON)");
  identifiers->add_option("CONN", id_args.conn, "Database connection (not needed with --tables)");
  identifiers->add_option("SQL", id_args.sql, "The query (default: read standard input)");
  identifiers->add_option("--dialect,-d", id_args.dialect, "Dialect of the query (default: the connection's)");
  identifiers->add_option("--tables", id_args.tables_file, "Resolve against a Spider/BIRD tables.json schema");
  identifiers->add_option("--db", id_args.db_id, "With --tables: the db_id");

  plainsql::cli::NaturalnessCommands naturalness(app);
  plainsql::cli::ViewsCommands views(app);
  plainsql::cli::EvalCommands eval(app);
  plainsql::cli::AskCommands ask(app);
  plainsql::cli::CheckAccessCommand check_access(app);

  // An unknown command gets the list of the real ones (CLI11 alone would call it an extra argument).
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end()) {
    fmt::print(stderr, "plainsql: error: unknown command '{}'; commands are: {} (see plainsql --help)\n", argv[1],
               fmt::join(names, ", "));
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "plainsql: error: {}\nRun 'plainsql --help' or 'plainsql COMMAND --help' for usage.\n",
               e.what());
    return 2;
  }
  // The guard's extra names and the ceilings ([exec] of plainsql.toml) hold for every connection of every command.
  if (auto config = plainsql::pipeline::LoadConfig(); config) {
    plainsql::exec::SetDefaultExecSettings(config->exec);
  } else {
    return Fail(config.error());
  }
  try {
    if (*schema) return RunSchema(schema_args);
    if (*sql) return RunSql(sql_args);
    if (*parse) return RunParse(parse_args);
    if (*identifiers) return RunIdentifiers(id_args);
    if (naturalness.Selected()) return naturalness.Run();
    if (views.Selected()) return views.Run();
    if (eval.Selected()) return eval.Run();
    if (ask.Selected()) return ask.Run();
    if (check_access.Selected()) return check_access.Run();
  } catch (const std::exception& e) {
    // Reaching this is a bug: expected failures are returned as errors, not thrown.
    fmt::print(stderr, "plainsql: internal error: {}\n", e.what());
    return 70;
  }
  return 2;
}
