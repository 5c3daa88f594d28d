// `plainsql schema` (see schema_cmd.h).
#include "schema_cmd.h"

#include <fmt/format.h>

#include "catalog/render.h"
#include "catalog/tokens.h"
#include "cli.h"
#include "exec/connection.h"
#include "linking/infer_keys.h"
#include "naturalness/crosswalk.h"
#include "naturalness/translate_query.h"

namespace plainsql::cli {

SchemaCommand::SchemaCommand(CLI::App& app) {
  command_ = app.add_subcommand("schema", "Print a database's schema (tables, columns, keys, samples)");
  command_->add_option("CONN", conn_, "Database connection");
  command_->add_option("--format,-f", format_, "json | ddl | prompt-snails | prompt-ddl | list")->capture_default_str();
  command_->add_option("--samples", samples_, "Distinct sample values to read per column")->capture_default_str();
  command_->add_option("--dialect", dialect_,
                       "Dialect of DDL output: sqlite | postgres | tsql | mysql (default: the connection's)");
  command_->add_option("--schema", schema_filter_, "PostgreSQL: read only this schema (default: all)");
  command_->add_option("--tables", tables_file_, "Read a Spider/BIRD tables.json file instead of a database");
  command_->add_option("--db", db_id_, "With --tables: the db_id to read");
  command_->add_flag("--no-cache", no_cache_, "Introspect even if a current snapshot is cached");
  command_->add_flag("--tokens", tokens_, "Print the size of every rendering (chars, approximate tokens)");
  command_->add_option("--crosswalk", crosswalk_file_,
                       "Show the names of a crosswalk instead of the native ones (no views needed)");
  command_->add_option("--level", level_, "With --crosswalk: N1, N2 or N3")->capture_default_str();
  AddInferKeysOption(*command_, infer_keys_);
  AddDescriptionsOption(*command_, descriptions_);
}

int SchemaCommand::Run() {
  auto format = catalog::SchemaFormatByName(format_);
  if (!format) {
    return Fail(
        MakeError(ErrorCode::kInvalidArgument,
                  fmt::format("--format must be json, ddl, prompt-snails, prompt-ddl or list, not '{}'", format_)));
  }
  if (samples_ < 0) return Fail(MakeError(ErrorCode::kInvalidArgument, "--samples must be 0 or more"));
  auto level = naturalness::ParseLevel(level_);
  if (!crosswalk_file_.empty() && !level) return Fail(level.error());
  catalog::IntrospectOptions opts;
  opts.samples = samples_;
  opts.schema_filter = schema_filter_;
  auto target = SchemaFromArgs(conn_, tables_file_, db_id_, opts, !no_cache_, infer_keys_, descriptions_);
  if (!target) return Fail(target.error());
  catalog::Schema& schema = target->schema;
  auto dialect = DialectOr(dialect_, "--dialect", target->dialect);
  if (!dialect) return Fail(dialect.error());
  if (!crosswalk_file_.empty()) {
    // The schema as an LLM should see it: natural names, without deploying views.
    auto cw = naturalness::LoadCrosswalk(crosswalk_file_);
    if (!cw) return Fail(cw.error());
    schema = naturalness::NaturalSchema(schema, ResolvedCrosswalk(*cw, schema), *level);
  }
  NoteIfNoTables(schema, schema_filter_);  // the output stays what the format makes of no tables (nothing for DDL)
  if (tokens_) {
    std::string out = fmt::format("{:<14} {:>8} {:>8}\n", "format", "chars", "tokens~");
    for (auto f : {catalog::SchemaFormat::kList, catalog::SchemaFormat::kPromptSnails, catalog::SchemaFormat::kDdl,
                   catalog::SchemaFormat::kPromptDdl, catalog::SchemaFormat::kJson}) {
      std::string text = catalog::RenderSchema(schema, f, **dialect, samples_);
      out +=
          fmt::format("{:<14} {:>8} {:>8}\n", catalog::SchemaFormatName(f), text.size(), catalog::EstimateTokens(text));
    }
    Write(out);
    return 0;
  }
  Write(catalog::RenderSchema(schema, *format, **dialect, samples_));
  return 0;
}

}  // namespace plainsql::cli
