// `plainsql identifiers` (see identifiers_cmd.h).
#include "identifiers_cmd.h"

#include "catalog/name_catalog.h"
#include "cli.h"
#include "sql/parser.h"
#include "sql/resolver.h"

namespace plainsql::cli {

IdentifiersCommand::IdentifiersCommand(CLI::App& app) {
  command_ = app.add_subcommand("identifiers",
                                "List the tables and columns a query reads, and the names that do not resolve (JSON)");
  command_->add_option("CONN", conn_, "Database connection (not needed with --tables)");
  command_->add_option("SQL", sql_, "The query (default: read standard input)");
  command_->add_option("--dialect,-d", dialect_, "Dialect of the query (default: the connection's)");
  command_->add_option("--tables", tables_file_, "Resolve against a Spider/BIRD tables.json schema");
  command_->add_option("--db", db_id_, "With --tables: the db_id");
}

int IdentifiersCommand::Run() {
  // With --tables the connection argument is not needed, so a single positional argument is the query.
  std::string conn = conn_, text = sql_;
  if (!tables_file_.empty() && text.empty()) std::swap(conn, text);
  catalog::IntrospectOptions opts;
  opts.samples = 0;
  auto target = SchemaFromArgs(conn, tables_file_, db_id_, opts, true);
  if (!target) return Fail(target.error());
  auto dialect = DialectOr(dialect_, "--dialect", target->dialect);
  if (!dialect) return Fail(dialect.error());
  text = ArgumentOrStdin(text);
  auto q = sql::ParseQuery(text, **dialect);
  if (!q) return Fail(q.error());
  sql::Resolution r = sql::Resolve(*q, catalog::ToNameCatalog(target->schema), **dialect);
  Write(sql::ResolutionToJson(r, text).dump(2) + "\n");
  return 0;
}

}  // namespace plainsql::cli
