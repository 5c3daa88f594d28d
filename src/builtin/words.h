// The translator's word tables (cue words, units, quantities, number words, ...), read from src/builtin/words/*.txt.
// The files are compiled into the library at build time (src/builtin/CMakeLists.txt, words_data.cpp.in), so nothing is
// read at run time. Each file has a comment header (lines starting with '#') and one entry a line: a word, or a word
// and its value separated by spaces.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace plainsql::builtin::words {

using WordSet = std::set<std::string, std::less<>>;
using WordMap = std::map<std::string, std::string, std::less<>>;

/// The words of words/<name>.txt. Aborts when there is no such file (a name in code without its file).
const WordSet& List(std::string_view name);
/// The entries of words/<name>.txt: the first word of a line, and the rest of it.
const WordMap& Pairs(std::string_view name);
/// The names of every embedded file, for tests.
std::set<std::string> Names();

}  // namespace plainsql::builtin::words
