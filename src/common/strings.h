// String helpers shared by the stages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace plainsql {

std::string ToLower(std::string_view s);
std::string ToUpper(std::string_view s);
bool EqualsIgnoreCase(std::string_view a, std::string_view b);
std::string_view Trim(std::string_view s);
/// Trim(s) as a string of its own.
std::string TrimmedCopy(std::string_view s);
std::vector<std::string> Split(std::string_view s, char sep);
std::string Join(const std::vector<std::string>& parts, std::string_view sep);
/// Replaces every occurrence of `from` (non-empty) by `to`.
std::string ReplaceAll(std::string_view s, std::string_view from, std::string_view to);
/// The lower-case ASCII letters and digits of `s`, everything else dropped ("NumGE1500" -> "numge1500",
/// "Original Column Name" -> "originalcolumnname"): names compared without their separators.
std::string LowerAlnum(std::string_view s);
/// Whether every character of `s` is an ASCII capital letter ("NY", "AS"; true for an empty string).
bool InCapitals(std::string_view s);
/// Whether `piece` could abbreviate `word`: both non-empty, the same first character, and the piece's other characters
/// in the word in order ("cty" of "city", "ap" of "airport"). Case-sensitive; a piece as long as the word counts.
bool Abbreviates(std::string_view piece, std::string_view word);
/// Number of Unicode code points in a UTF-8 string (bytes that are not continuation bytes), for column alignment.
size_t Utf8Width(std::string_view s);
/// Whether `s` is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool IsUtf8(std::string_view s);
/// `s` read as Windows-1252 (the Latin-1 superset that spreadsheet exports on Windows write), as UTF-8; bytes that
/// code page leaves undefined become U+FFFD.
std::string Windows1252ToUtf8(std::string_view s);
/// Lowercase hexadecimal of bytes.
std::string ToHex(std::string_view bytes);

}  // namespace plainsql
