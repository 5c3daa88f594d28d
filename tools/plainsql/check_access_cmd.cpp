// `plainsql check-access` (see check_access_cmd.h).
#include "check_access_cmd.h"

#include <array>

#include "cli.h"
#include "common/choice.h"
#include "exec/access_check.h"
#include "exec/connection.h"

namespace plainsql::cli {

CheckAccessCommand::CheckAccessCommand(CLI::App& app) {
  command_ = app.add_subcommand(
      "check-access",
      "Report what the connected role can do beyond reading the schema, and print the SQL for a minimal reader role");
  command_->add_option("CONN", conn_, "Database connection (a SQLite file, sqlite:PATH or postgresql://...)")
      ->required();
  command_->add_option("--format,-f", format_, "text | json")->capture_default_str();
  command_->add_option("--role-name", role_name_, "PostgreSQL: the reader role the printed SQL creates")
      ->capture_default_str();
}

int CheckAccessCommand::Run() {
  static constexpr std::array<Choice<bool>, 2> kFormats = {{{"text", false}, {"json", true}}};
  auto json = ParseChoice<bool>(format_, "--format", kFormats);
  if (!json) return Fail(json.error());
  if (role_name_.empty()) return Fail(MakeError(ErrorCode::kInvalidArgument, "--role-name must not be empty"));
  auto conn = exec::Connect(conn_);
  if (!conn) return Fail(conn.error());
  exec::AccessCheckOptions options;
  options.reader_role = role_name_;
  auto report = exec::CheckRoleAccess(**conn, options);
  if (!report) {
    return Fail(MakeError(report.error().code, exec::RedactConnectionString(conn_) + ": " + report.error().message));
  }
  Write(*json ? exec::RenderAccessReportJson(*report) : exec::RenderAccessReportText(*report));
  return 0;
}

}  // namespace plainsql::cli
