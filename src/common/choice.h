// One of a fixed set of named values, read from an option ("--format json", "--level N2"): the parsers the stages give
// their options, so every program reports a bad value with the same clear message.
#pragma once

#include <fmt/format.h>

#include <span>
#include <string>
#include <string_view>

#include "common/status.h"

namespace plainsql {

template <typename T>
struct Choice {
  std::string_view name;
  T value;
};

/// "a", "a or b", "a, b or c": the names of `choices`, for messages.
template <typename T>
std::string ChoiceNames(std::span<const Choice<T>> choices) {
  std::string out;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) out += i + 1 == choices.size() ? " or " : ", ";
    out += choices[i].name;
  }
  return out;
}

/// The value `text` names among `choices` (exactly, case and all), or an invalid-argument error
/// "OPTION must be a, b or c, not 'TEXT'".
template <typename T>
Result<T> ParseChoice(std::string_view text, std::string_view option, std::span<const Choice<T>> choices) {
  for (const auto& c : choices) {
    if (c.name == text) return c.value;
  }
  return MakeError(ErrorCode::kInvalidArgument,
                   fmt::format("{} must be {}, not '{}'", option, ChoiceNames(choices), text));
}

}  // namespace plainsql
