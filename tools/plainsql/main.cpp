// plainsql: the command-line program. main() registers the commands (each in its own *_cmd.cpp) and runs the one the
// arguments select; the commands parse arguments, call the library and print. Nothing else lives here.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>

#include "ask_cmd.h"
#include "builtin/relative_dates.h"
#include "builtin_cmd.h"
#include "check_access_cmd.h"
#include "cli.h"
#include "common/version.h"
#include "eval_cmd.h"
#include "examples_cmd.h"
#include "exec/connection.h"
#include "features_cmd.h"
#include "identifiers_cmd.h"
#include "link_cmd.h"
#include "linking/subset_builtin.h"
#include "naturalness_cmd.h"
#include "parse_cmd.h"
#include "pipeline/config.h"
#include "runs_cmd.h"
#include "schema_cmd.h"
#ifdef PLAINSQL_WITH_SERVER
#include "serve_cmd.h"
#endif
#include "space_cmd.h"
#include "sql_cmd.h"
#include "views_cmd.h"

int main(int argc, char** argv) {
  CLI::App app{
      "plainsql: answer questions about a relational database in plain language, and measure how well it "
      "does.\n\nCONN is a SQLite file (a path or sqlite:PATH) or a postgresql://user@host/db URL.\n"
      "Exit codes: 0 ok, 2 bad usage or argument, 3 not found, 4 connection failed, 5 refused (not a "
      "read-only query), 6 SQL error, 7 timeout, 8 I/O error, 9 bad file format, 10 not allowed (a relation "
      "or function outside the access policy), 11 a size ceiling passed, 70 internal error.",
      "plainsql"};
  app.set_version_flag("--version", std::string("plainsql ") + plainsql::kVersion);
  app.require_subcommand(1);

  plainsql::cli::SchemaCommand schema(app);
  plainsql::cli::SqlCommand sql(app);
  plainsql::cli::ParseCommand parse(app);
  plainsql::cli::IdentifiersCommand identifiers(app);
  plainsql::cli::NaturalnessCommands naturalness(app);
  plainsql::cli::ViewsCommands views(app);
  plainsql::cli::EvalCommands eval(app);
  plainsql::cli::RunsCommands runs(app);
  plainsql::cli::AskCommands ask(app);
  plainsql::cli::CheckAccessCommand check_access(app);
  plainsql::cli::ExamplesCommands examples(app);
  plainsql::cli::LinkCommand link(app);
  plainsql::cli::BuiltinCommands builtin(app);
  plainsql::cli::FeaturesCommand features(app);
  plainsql::cli::SpaceCommands space(app);
#ifdef PLAINSQL_WITH_SERVER
  plainsql::cli::ServeCommand serve(app);
#endif
  plainsql::cli::AllowGroupOptionsAfterSubcommands(app);

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
    return plainsql::cli::Fail(config.error());
  }
  // A model or lexicon file named in the environment that cannot be used stops every command before it starts.
  if (auto env = plainsql::linking::CheckModelEnvironment(); !env.ok()) return plainsql::cli::Fail(env.error());
  if (auto env = plainsql::builtin::CheckTodayEnvironment(); !env.ok()) return plainsql::cli::Fail(env.error());
  try {
#ifdef PLAINSQL_WITH_SERVER
    return plainsql::cli::RunSelected(schema, sql, parse, identifiers, naturalness, views, eval, runs, ask,
                                      check_access, examples, link, builtin, features, space, serve);
#else
    return plainsql::cli::RunSelected(schema, sql, parse, identifiers, naturalness, views, eval, runs, ask,
                                      check_access, examples, link, builtin, features, space);
#endif
  } catch (const std::exception& e) {
    // Reaching this is a bug: expected failures are returned as errors, not thrown.
    fmt::print(stderr, "plainsql: internal error: {}\n", e.what());
    return 70;
  }
}
