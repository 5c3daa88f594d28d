// `plainsql sql` (see sql_cmd.h).
#include "sql_cmd.h"

#include <fmt/format.h>

#include <array>

#include "cli.h"
#include "common/choice.h"
#include "exec/connection.h"
#include "exec/render.h"

namespace plainsql::cli {

namespace {

// exec::Render's formats by the names the option takes.
constexpr std::array<Choice<exec::ResultFormat>, 3> kResultFormats = {
    {{"table", exec::ResultFormat::kTable}, {"csv", exec::ResultFormat::kCsv}, {"json", exec::ResultFormat::kJson}}};

}  // namespace

SqlCommand::SqlCommand(CLI::App& app) {
  command_ = app.add_subcommand("sql", "Run one read-only query with a timeout and a row cap");
  command_->add_option("CONN", conn_, "Database connection")->required();
  command_->add_option("QUERY", query_, "The SQL query, or - to read it from standard input")->required();
  command_->add_option("--format,-f", format_, "table | csv | json")->capture_default_str();
  command_->add_option("--timeout", timeout_ms_, "Stop the query after this many milliseconds")->capture_default_str();
  command_->add_option("--max-rows", max_rows_, "Return at most this many rows")->capture_default_str();
}

int SqlCommand::Run() {
  auto format = ParseChoice<exec::ResultFormat>(format_, "--format", kResultFormats);
  if (!format) return Fail(format.error());
  if (timeout_ms_ <= 0)
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--timeout must be a positive number of ms"));
  if (max_rows_ < 0) return Fail(MakeError(ErrorCode::kInvalidArgument, "--max-rows must be 0 or more"));
  std::string query = query_;
  if (query == "-") query = ArgumentOrStdin(query);  // an empty QUERY is an error below, not a read of stdin

  auto conn = exec::Connect(conn_);
  if (!conn) return Fail(conn.error());
  exec::Limits limits{std::chrono::milliseconds(timeout_ms_), max_rows_};
  auto rs = (*conn)->Query(query, limits);
  if (!rs) return Fail(rs.error());
  Write(exec::Render(*rs, *format));
  if (rs->truncated && *format != exec::ResultFormat::kTable) {
    fmt::print(stderr, "plainsql: note: result truncated at {} rows (raise --max-rows to see more)\n", max_rows_);
  }
  return 0;
}

}  // namespace plainsql::cli
