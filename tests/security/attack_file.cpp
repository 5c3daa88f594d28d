// Reading the attack files and expanding their macros (see attack_file.h).
#include "attack_file.h"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "common/strings.h"

namespace plainsql::security {

namespace {

constexpr size_t kMaxExpandedBytes = size_t{64} << 20;  // far above the largest attack (a 20 MB literal)
constexpr size_t kMaxShownBytes = 300;                  // of a leaked value, in a failure message

struct NamedExpect {
  std::string_view name;
  Expect expect;
};
constexpr NamedExpect kExpects[] = {{"ok", Expect::kOk},
                                    {"refused", Expect::kRefused},
                                    {"stopped", Expect::kStopped},
                                    {"blocked", Expect::kBlocked},
                                    {"bounded", Expect::kBounded}};

// Characters a data line cannot hold as such (the line and column separators) or should not (NUL, a lone CR).
constexpr std::pair<std::string_view, char> kCharMacros[] = {{"nl", '\n'}, {"cr", '\r'}, {"tab", '\t'}, {"nul", '\0'}};

bool IsKebabCase(std::string_view name) {
  if (name.empty() || name.front() == '-' || name.back() == '-') return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

// The end of the macro opened at `open` (the index just past its closing "}}"), counting nested "{{" ... "}}", or
// npos when it is not closed.
size_t MacroEnd(std::string_view s, size_t open) {
  int depth = 0;
  for (size_t i = open; i + 1 < s.size(); ++i) {
    if (s[i] == '{' && s[i + 1] == '{') {
      ++depth;
      ++i;
    } else if (s[i] == '}' && s[i + 1] == '}') {
      ++i;
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

// The macro name at `pos` (lower-case letters), or "" when there is none.
std::string_view MacroName(std::string_view s, size_t pos) {
  size_t end = pos;
  while (end < s.size() && s[end] >= 'a' && s[end] <= 'z') ++end;
  if (end == pos || end >= s.size() || (s[end] != ':' && s[end] != '}')) return {};
  return s.substr(pos, end - pos);
}

Status ExpandInto(std::string_view sql, std::string& out);

// One macro, `body` being the text between "{{" and "}}".
Status ExpandMacro(std::string_view name, std::string_view body, std::string& out) {
  for (const auto& [char_name, c] : kCharMacros) {
    if (name == char_name && body == name) {
      out.push_back(c);
      return Status::Ok();
    }
  }
  if (name != "repeat") return MakeError(ErrorCode::kFormat, fmt::format("unknown macro {{{{{}}}}}", name));
  // repeat:N:TEXT
  std::string_view rest = body.substr(name.size());
  size_t colon = rest.size() > 1 ? rest.find(':', 1) : std::string_view::npos;
  if (rest.empty() || rest[0] != ':' || colon == std::string_view::npos) {
    return MakeError(ErrorCode::kFormat, "{{repeat:N:TEXT}} needs a count and a text");
  }
  std::string_view count_text = rest.substr(1, colon - 1);
  size_t count = 0;
  auto [ptr, ec] = std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
  if (ec != std::errc() || ptr != count_text.data() + count_text.size()) {
    return MakeError(ErrorCode::kFormat, fmt::format("bad repeat count '{}'", count_text));
  }
  std::string unit;
  if (Status s = ExpandInto(rest.substr(colon + 1), unit); !s) return s;
  if (!unit.empty() && count > (kMaxExpandedBytes - out.size()) / unit.size()) {
    return MakeError(ErrorCode::kFormat, fmt::format("the expanded SQL would pass {} bytes", kMaxExpandedBytes));
  }
  out.reserve(out.size() + unit.size() * count);
  for (size_t i = 0; i < count; ++i) out += unit;
  return Status::Ok();
}

Status ExpandInto(std::string_view sql, std::string& out) {
  size_t i = 0;
  while (i < sql.size()) {
    size_t open = sql.find("{{", i);
    if (open == std::string_view::npos) {
      out.append(sql.substr(i));
      break;
    }
    out.append(sql.substr(i, open - i));
    std::string_view name = MacroName(sql, open + 2);
    if (name.empty()) {  // not a macro: "{{1,2},{3,4}}" and the like stay as written
      out.append("{{");
      i = open + 2;
      continue;
    }
    size_t end = MacroEnd(sql, open);
    if (end == std::string_view::npos) {
      return MakeError(ErrorCode::kFormat, fmt::format("macro {{{{{}... is not closed with }}}}", name));
    }
    if (Status s = ExpandMacro(name, sql.substr(open + 2, end - open - 4), out); !s) return s;
    i = end;
  }
  if (out.size() > kMaxExpandedBytes) {
    return MakeError(ErrorCode::kFormat, fmt::format("the expanded SQL passes {} bytes", kMaxExpandedBytes));
  }
  return Status::Ok();
}

// A result's first row, shortened, to show what an attack that should have failed got out.
std::string FirstRow(const exec::ResultSet& rs) {
  if (rs.rows.empty()) return "no rows";
  std::string row;
  for (const exec::Value& v : rs.rows[0]) {
    if (!row.empty()) row += " | ";
    row += v.ToString();
    if (row.size() > kMaxShownBytes) {
      row = row.substr(0, kMaxShownBytes) + "...";
      break;
    }
  }
  return fmt::format("{} row(s){}, first: {}", rs.rows.size(), rs.truncated ? " (truncated)" : "", row);
}

}  // namespace

std::string_view ExpectName(Expect expect) {
  for (const auto& e : kExpects) {
    if (e.expect == expect) return e.name;
  }
  return "?";
}

AttackFile ParseAttackFile(std::string_view text) {
  AttackFile file;
  std::set<std::string> names;
  int line_no = 0;
  for (std::string_view rest = text; !rest.empty();) {
    size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    ++line_no;
    if (Trim(line).empty() || line.front() == '#') continue;
    auto error = [&](const std::string& what) { file.errors.push_back(fmt::format("line {}: {}", line_no, what)); };
    size_t tab1 = line.find('\t');
    size_t tab2 = tab1 == std::string_view::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string_view::npos) {
      error("expected EXPECT<TAB>NAME<TAB>SQL");
      continue;
    }
    Attack a;
    a.line = line_no;
    a.name = std::string(line.substr(tab1 + 1, tab2 - tab1 - 1));
    a.sql = std::string(line.substr(tab2 + 1));
    std::string_view expect = line.substr(0, tab1);
    const NamedExpect* found = nullptr;
    for (const auto& e : kExpects) {
      if (e.name == expect) found = &e;
    }
    if (!found) {
      error(fmt::format("unknown expectation '{}' (ok, refused, stopped, blocked, bounded)", expect));
      continue;
    }
    a.expect = found->expect;
    if (!IsKebabCase(a.name)) {
      error(fmt::format("name '{}' is not kebab-case (a-z, 0-9, '-')", a.name));
      continue;
    }
    if (Trim(a.sql).empty()) {
      error(fmt::format("{}: no SQL", a.name));
      continue;
    }
    if (!names.insert(a.name).second) {
      error(fmt::format("{}: the name is used twice", a.name));
      continue;
    }
    file.attacks.push_back(std::move(a));
  }
  return file;
}

AttackFile LoadAttackFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    AttackFile file;
    file.errors.push_back(fmt::format("cannot read {}", path));
    return file;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseAttackFile(ss.str());
}

Result<std::string> ExpandMacros(std::string_view sql) {
  std::string out;
  if (Status s = ExpandInto(sql, out); !s) return s.error();
  return out;
}

std::string TestName(const Attack& attack) { return ReplaceAll(attack.name, "-", "_"); }

std::string OutcomeProblem(Expect expect, const Result<exec::ResultSet>& result) {
  if (expect == Expect::kBounded) return "";
  if (result.ok()) {
    if (expect == Expect::kOk) return "";
    return fmt::format("the attack SUCCEEDED ({}); expected {}", FirstRow(*result), ExpectName(expect));
  }
  const Error& e = result.error();
  std::string got = fmt::format("{}: {}", ErrorCodeName(e.code), e.message);
  switch (expect) {
    case Expect::kOk: return "expected success, got " + got;
    case Expect::kRefused:
      if (e.code == ErrorCode::kNotReadOnly || e.code == ErrorCode::kNotAllowed || e.code == ErrorCode::kSql ||
          e.code == ErrorCode::kInvalidArgument) {
        return "";
      }
      return "expected refused (not_read_only, not_allowed, or a syntax error), got " + got;
    case Expect::kStopped:
      if (e.code == ErrorCode::kTimeout || e.code == ErrorCode::kResourceLimit) return "";
      return "expected stopped (timeout or resource_limit), got " + got;
    case Expect::kBlocked:
    case Expect::kBounded: return "";
  }
  return "";
}

}  // namespace plainsql::security
