// `plainsql parse` (see parse_cmd.h).
#include "parse_cmd.h"

#include <fmt/format.h>

#include <cstdio>
#include <iostream>

#include "catalog/name_catalog.h"
#include "cli.h"
#include "eval/benchmark.h"
#include "sql/token.h"
#include "sql/transpile.h"

namespace plainsql::cli {

namespace {

// One output line per input line: the query re-generated, or "error: " and the message. A db_id after a TAB (Spider's
// gold files) is set aside; a TAB inside a query is an error that says so, never half a query parsed.
int TranspileLines(const sql::Dialect& from, const sql::Dialect& to, sql::TranspileOptions options) {
  options.print.pretty = false;
  std::string line;
  int failures = 0, total = 0;
  while (std::getline(std::cin, line)) {
    ++total;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // files with CR LF line ends
    eval::GoldLine gold = eval::SplitGoldLine(line);
    if (!gold.tab_inside.empty()) {
      ++failures;
      fmt::print("error: {} (a line is one query, optionally followed by a TAB and its db_id)\n", gold.tab_inside);
      continue;
    }
    auto out = sql::Transpile(gold.sql, from, to, options);
    if (out) {
      fmt::print("{}\n", *out);
      continue;
    }
    ++failures;
    std::string cut = gold.db_id.empty()
                          ? ""
                          : fmt::format(" (the word after the TAB, '{}', was set aside as the db_id)", gold.db_id);
    fmt::print("error: {}{}\n", sql::OneLineMessage(out.error()), cut);
  }
  std::fflush(stdout);
  if (failures) return Fail(MakeError(ErrorCode::kSql, fmt::format("{} of {} lines did not parse", failures, total)));
  return 0;
}

}  // namespace

ParseCommand::ParseCommand(CLI::App& app) {
  command_ = app.add_subcommand("parse", "Parse a query and print it again, in the same or another dialect");
  command_->add_option("SQL", sql_, "The query (default: read standard input)");
  command_->add_option("--dialect,-d", dialect_, "Dialect of the input: sqlite | postgres | tsql | mysql")
      ->capture_default_str();
  command_->add_option("--to", to_, "Dialect of the output (default: the input's)");
  command_->add_flag("--pretty", pretty_, "Clauses on their own lines");
  command_->add_flag(
      "--lines", lines_,
      "Read one query per standard-input line (a db_id after a TAB is set aside) and print one line each");
  command_->add_flag("--mask", mask_, "Print the query with names as <mask> and values as <value>");
  command_->add_flag(
      "--skeleton", skeleton_,
      "Print the query's skeleton (DAIL-SQL style tokens: names and values as _, joins and lists folded)");
  command_->add_flag("--qualify", qualify_,
                     "Qualify every column with its table or alias (needs --conn or --tables/--db)");
  command_->add_option("--conn", conn_,
                       "The database whose schema names resolve against: for --qualify, and from SQLite to another "
                       "dialect to write SQLite's double-quoted strings as strings");
  command_->add_option("--tables", tables_file_, "As --conn, from a Spider/BIRD tables.json schema");
  command_->add_option("--db", db_id_, "With --tables: the db_id");
}

int ParseCommand::Run() {
  auto from = DialectOr(dialect_, "--dialect", &sql::Sqlite());
  if (!from) return Fail(from.error());
  auto to = DialectOr(to_, "--to", *from);
  if (!to) return Fail(to.error());
  sql::TranspileOptions options;
  options.print.pretty = pretty_;
  options.mask = mask_;
  options.skeleton = skeleton_;
  if (mask_ && skeleton_) return Fail(MakeError(ErrorCode::kInvalidArgument, "give --mask or --skeleton, not both"));
  bool has_schema = !conn_.empty() || !tables_file_.empty();
  // Strings written in double quotes (SQLite reads an unknown "x" as text) are only rewritten across that divide.
  bool sqlite_to_other = (*from)->unknown_quoted_is_string && !(*to)->unknown_quoted_is_string;
  if (qualify_ && !has_schema) {
    return Fail(
        MakeError(ErrorCode::kInvalidArgument, "--qualify needs a schema: --conn CONN, or --tables FILE --db ID"));
  }
  if (has_schema && !qualify_ && !sqlite_to_other) {
    return Fail(MakeError(ErrorCode::kInvalidArgument,
                          "--conn and --tables are only used with --qualify, or from SQLite to another dialect"));
  }
  sql::NameCatalog catalog;
  if (has_schema) {
    catalog::IntrospectOptions opts;
    opts.samples = 0;
    auto target = SchemaFromArgs(conn_, tables_file_, db_id_, opts, true);
    if (!target) return Fail(target.error());
    catalog = catalog::ToNameCatalog(target->schema);
    if (qualify_) options.qualify_with = &catalog;
    // SQLite reads "x" naming no column as the string 'x'; another dialect needs it written as a string.
    if (sqlite_to_other) options.fallbacks_with = &catalog;
  }
  if (lines_) return TranspileLines(**from, **to, options);
  std::string text = ArgumentOrStdin(sql_);
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

}  // namespace plainsql::cli
