// Helpers shared by the plainsql commands: error reporting, output, reading input and the schema a command works on.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>

#include "catalog/introspect.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"
#include "naturalness/crosswalk.h"
#include "sql/dialect.h"

namespace plainsql::cli {

/// Prints "plainsql: error: MESSAGE" on stderr and returns the exit code for the error.
int Fail(const Error& e);

/// Writes `s` to stdout as it is and flushes.
void Write(const std::string& s);

/// Text from the command line, or standard input when it is empty or "-".
std::string ArgumentOrStdin(const std::string& text);

/// Option checks for a number greater than 0 (`Positive`) or at least 0 (`NonNegative`): CLI11's own name the largest
/// double as the upper bound in their message ("not in range 0.000000 to 179769...").
CLI::Validator Positive();
CLI::Validator NonNegative();

/// kInvalidArgument when a question is empty or only white space, which no command can answer, link or select for.
Status CheckQuestion(std::string_view question);

/// A question from the command line or standard input (as ArgumentOrStdin), checked by CheckQuestion.
Result<std::string> QuestionArgumentOrStdin(const std::string& text);

struct SchemaTarget {
  catalog::Schema schema;
  const sql::Dialect* dialect = &sql::Sqlite();  // the connection's; SQLite for tables.json
};

/// The schema a command works on: read from CONN (through the snapshot cache) or from a tables.json entry, with
/// warnings and progress on stderr. `infer_keys` ("" none, "add", "replace": --infer-keys) adds the keys the database
/// does not declare, inferred from names and sampled data (cached beside the snapshot); it needs CONN.
/// `descriptions` (--descriptions) names a data dictionary (catalog/dictionary.h) whose descriptions fill the comments
/// and readable names the database does not declare: "auto" reads the `database_description` folder beside a SQLite
/// file when there is one (BIRD's layout), "none" reads none, anything else is its path (an error when unreadable).
/// As SchemaFromArgs, through a connection already open (a command that also runs queries opens one, not two: opening
/// a SQLite database parses its whole schema).
Result<SchemaTarget> SchemaFromConnection(exec::Connection& conn, catalog::IntrospectOptions opts, bool use_cache,
                                          const std::string& infer_keys = "", const std::string& descriptions = "auto");
Result<SchemaTarget> SchemaFromArgs(const std::string& conn_string, const std::string& tables_file,
                                    const std::string& db_id, catalog::IntrospectOptions opts, bool use_cache,
                                    const std::string& infer_keys = "", const std::string& descriptions = "auto");

/// Says on stderr that `schema` has no tables (in the schema `filter` names, when one does): the output stays what the
/// command makes of no tables, and the user learns why it is empty.
void NoteIfNoTables(const catalog::Schema& schema, const std::string& filter = "");

/// Adds --descriptions PATH|none to `command`, stored in `path` (kept at "auto" when not given).
void AddDescriptionsOption(CLI::App& command, std::string& path);

/// Adds --infer-keys[=add|replace] to `command`, stored in `mode` ("" when not given).
void AddInferKeysOption(CLI::App& command, std::string& mode);
/// `ask` and `prompt`'s --infer-keys, whose default is `isolated` (AskCommands::KeysToInfer) and which takes `none`.
void AddAskInferKeysOption(CLI::App& command, std::string& mode);

/// The crosswalk with its collisions on `schema` resolved (naturalness::ResolveCollisions: a later name gets _2), each
/// said on stderr as a warning.
naturalness::Crosswalk ResolvedCrosswalk(const naturalness::Crosswalk& crosswalk, const catalog::Schema& schema);

/// The dialect an option names, or `fallback` when it is empty.
Result<const sql::Dialect*> DialectOr(const std::string& name, std::string_view option, const sql::Dialect* fallback);

/// Lets every group's options (`runs --runs F`, `naturalness --data-dir D`) be given after its subcommand too
/// (`runs report R --runs F`): an option a subcommand does not know falls through to its group. Call once every command
/// is registered.
void AllowGroupOptionsAfterSubcommands(CLI::App& app);

/// Runs the first selected command of `commands` (each with Selected() and Run()); 2 when none is.
template <typename... Commands>
int RunSelected(Commands&... commands) {
  int code = 2;
  bool done = false;
  auto one = [&](auto& c) {
    if (!done && c.Selected()) {
      code = c.Run();
      done = true;
    }
  };
  (one(commands), ...);
  return code;
}

}  // namespace plainsql::cli
