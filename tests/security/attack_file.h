// The attack suite's data files (tests/security/*_attacks.txt): one attack a line with its expected outcome, and the
// small macro language that writes a megabyte of SQL in a few characters. Format in tests/security/README.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "exec/value.h"

namespace plainsql::security {

/// What an attack must end in. Every attack is also held to the bars (time, memory, nothing changed, no file).
enum class Expect {
  kOk,       // an ordinary query: must succeed (proves the guard does not refuse everything)
  kRefused,  // refused before execution: not_read_only, not_allowed, or sql / invalid_argument for text that does not
             // parse
  kStopped,  // stopped at a limit: timeout or resource_limit
  kBlocked,  // any failure at all: refused, stopped, or an error from the database
  kBounded,  // any outcome: only the bars are checked (a fast right answer is as good as a stop)
};

std::string_view ExpectName(Expect expect);

struct Attack {
  Expect expect = Expect::kBlocked;
  std::string name;  // kebab-case, unique in its file
  std::string sql;   // as written in the file: macros not yet expanded
  int line = 0;      // line number in the file, for messages
};

/// The attacks of a file, and one message per line that could not be read ("line N: ...").
struct AttackFile {
  std::vector<Attack> attacks;
  std::vector<std::string> errors;
};

/// Reads `EXPECT<TAB>NAME<TAB>SQL` lines; `#` lines and blank lines are skipped. A malformed line or a repeated name is
/// reported in `errors` and left out of `attacks`.
AttackFile ParseAttackFile(std::string_view text);
AttackFile LoadAttackFile(const std::string& path);

/// Expands the macros of an attack's SQL: {{repeat:N:TEXT}} (TEXT, itself expanded, N times), {{nl}}, {{cr}}, {{tab}},
/// {{nul}}. A `{{` not followed by a lower-case macro name is kept as written (PostgreSQL array literals). The result
/// is capped at 64 MB so that a typo cannot exhaust the test machine.
Result<std::string> ExpandMacros(std::string_view sql);

/// The gtest name of an attack: its NAME with '-' turned into '_'.
std::string TestName(const Attack& attack);

/// Whether a query's result is what the attack expects: "" when it is, else what happened (the error's code name and
/// message, or for an attack that succeeded, its first row).
std::string OutcomeProblem(Expect expect, const Result<exec::ResultSet>& result);

}  // namespace plainsql::security
