// Helpers shared by the plainsql commands (see cli.h).
#include "cli.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <optional>

#include "catalog/benchmark_schema.h"
#include "catalog/cache.h"
#include "catalog/dictionary.h"
#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "exec/connection.h"
#include "linking/infer_keys.h"
#include "pipeline/schema_load.h"

namespace plainsql::cli {

int Fail(const Error& e) {
  fmt::print(stderr, "plainsql: error: {}\n", e.message);
  return ExitCodeFor(e.code);
}

void Write(const std::string& s) {
  std::fwrite(s.data(), 1, s.size(), stdout);
  std::fflush(stdout);
}

std::string ArgumentOrStdin(const std::string& text) {
  if (!text.empty() && text != "-") return text;
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

namespace {

CLI::Validator AtLeastZero(bool zero_allowed) {
  return CLI::Validator(
      [zero_allowed](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        const bool number = !text.empty() && end == text.c_str() + text.size() && std::isfinite(value);
        if (number && (zero_allowed ? value >= 0 : value > 0)) return "";
        return fmt::format("must be a number {} 0, not '{}'", zero_allowed ? "of at least" : "greater than", text);
      },
      zero_allowed ? "NONNEGATIVE" : "POSITIVE");
}

}  // namespace

CLI::Validator Positive() { return AtLeastZero(false); }
CLI::Validator NonNegative() { return AtLeastZero(true); }

Status CheckQuestion(std::string_view question) {
  if (Trim(question).empty()) return MakeError(ErrorCode::kInvalidArgument, "the question is empty");
  return Status::Ok();
}

Result<std::string> QuestionArgumentOrStdin(const std::string& text) {
  std::string question = ArgumentOrStdin(text);
  if (auto checked = CheckQuestion(question); !checked) return checked.error();
  return question;
}

void AddDescriptionsOption(CLI::App& command, std::string& path) {
  command.add_option("--descriptions", path,
                     "A data dictionary whose descriptions fill the comments and readable names the database does not "
                     "declare: a folder of one CSV per table (BIRD's database_description: original_column_name, "
                     "column_name, column_description, value_description) or one CSV with a table field; default: the "
                     "database_description folder beside a SQLite file, when there is one; none: no dictionary");
}

void NoteIfNoTables(const catalog::Schema& schema, const std::string& filter) {
  if (!schema.tables.empty()) return;
  fmt::print(stderr, "plainsql: note: {} has no tables{}\n", schema.database.empty() ? "the schema" : schema.database,
             filter.empty() ? "" : fmt::format(" in schema '{}'", filter));
}

Result<SchemaTarget> SchemaFromConnection(exec::Connection& conn, catalog::IntrospectOptions opts, bool use_cache,
                                          const std::string& infer_keys, const std::string& descriptions) {
  pipeline::SchemaLoadOptions load;
  load.infer_keys = std::nullopt;
  if (!infer_keys.empty()) {
    auto named = linking::KeyInferenceModeOption(infer_keys, /*none_allowed=*/true);
    if (!named) return named.error();
    load.infer_keys = *named;
  }
  if (isatty(STDERR_FILENO)) {
    opts.progress = [](size_t done, size_t total) {
      if (total >= 50 && (done % 25 == 0 || done == total)) {
        fmt::print(stderr, "\rreading tables: {}/{}{}", done, total, done == total ? "\n" : "");
      }
    };
  }
  load.introspect = std::move(opts);
  load.cache.enabled = use_cache;
  load.descriptions = descriptions;
  auto loaded = pipeline::LoadSchemaForAnswers(conn, load);
  if (!loaded) return loaded.error();
  for (const auto& w : loaded->warnings) fmt::print(stderr, "plainsql: warning: {}\n", w);
  SchemaTarget out;
  out.dialect = &conn.dialect();
  out.schema = std::move(loaded->schema);
  return out;
}

Result<SchemaTarget> SchemaFromArgs(const std::string& conn_string, const std::string& tables_file,
                                    const std::string& db_id, catalog::IntrospectOptions opts, bool use_cache,
                                    const std::string& infer_keys, const std::string& descriptions) {
  if (tables_file.empty()) {
    if (conn_string.empty()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "missing CONN (a SQLite file, sqlite:PATH or postgresql://...) or --tables FILE --db ID");
    }
    auto conn = exec::Connect(conn_string);
    if (!conn) return conn.error();
    return SchemaFromConnection(**conn, std::move(opts), use_cache, infer_keys, descriptions);
  }
  if (!infer_keys.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "--infer-keys checks values in the data: give a database connection, not --tables");
  }
  if (!conn_string.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, "give either CONN or --tables FILE --db ID, not both");
  }
  if (db_id.empty()) return MakeError(ErrorCode::kInvalidArgument, "--tables needs --db ID");
  std::vector<std::string> warnings;
  auto s = catalog::LoadBenchmarkSchema(tables_file, db_id, &warnings);
  if (!s) return s.error();
  for (const auto& w : warnings) fmt::print(stderr, "plainsql: warning: {}\n", w);
  std::vector<std::string> dictionary_warnings;
  if (Status st = pipeline::ApplyDescriptions(*s, descriptions, "", dictionary_warnings); !st.ok()) return st.error();
  for (const auto& w : dictionary_warnings) fmt::print(stderr, "plainsql: warning: {}\n", w);
  SchemaTarget out;
  out.schema = std::move(*s);
  return out;
}

void AddInferKeysOption(CLI::App& command, std::string& mode) {
  command.add_flag("--infer-keys{add}", mode,
                   "Infer the keys the database does not declare, from names and sampled values (marked as inferred; "
                   "cached until the schema changes); --infer-keys=replace drops the declared keys and infers all; "
                   "=isolated infers only the keys of tables no declared foreign key touches");
}

void AddAskInferKeysOption(CLI::App& command, std::string& mode) {
  command.add_flag("--infer-keys{add}", mode,
                   "Keys the database does not declare, inferred from names and sampled values (marked as inferred; "
                   "cached until the schema changes). Default `isolated`: only those of tables no declared foreign "
                   "key touches; --infer-keys (=add) for every column a declared key does not cover; =replace drops "
                   "the declared keys and infers all; =none the declared keys alone");
}

Result<const sql::Dialect*> DialectOr(const std::string& name, std::string_view option, const sql::Dialect* fallback) {
  if (name.empty()) return fallback;
  auto d = sql::DialectByName(name);
  if (!d) return MakeError(ErrorCode::kInvalidArgument, fmt::format("unknown {} '{}'", option, name));
  return *d;
}

void AllowGroupOptionsAfterSubcommands(CLI::App& app) {
  // Only below a group: a top-level command does not pass what it does not know on to the program, which would take a
  // stray argument for a command name.
  for (CLI::App* group : app.get_subcommands([](const CLI::App*) { return true; })) {
    for (CLI::App* sub : group->get_subcommands([](const CLI::App*) { return true; })) sub->fallthrough();
  }
}

naturalness::Crosswalk ResolvedCrosswalk(const naturalness::Crosswalk& crosswalk, const catalog::Schema& schema) {
  std::vector<std::string> warnings;
  naturalness::Crosswalk out = naturalness::ResolveCollisions(crosswalk, catalog::ToNameCatalog(schema), &warnings);
  for (const auto& w : warnings) fmt::print(stderr, "plainsql: warning: {}\n", w);
  return out;
}

}  // namespace plainsql::cli
