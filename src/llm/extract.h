// Getting SQL out of a model's reply: models wrap it in fenced code blocks, add prose around it, give several
// candidates, or answer with bare SQL. The extraction is lenient about form and strict about content: what it returns
// still has to parse and pass the read-only check before anything runs it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace plainsql::llm {

/// Every SQL candidate in a reply, in order: the contents of fenced code blocks marked sql (or unmarked blocks that
/// start like a query); without fences, the bare query — from the first line that starts with SELECT or WITH to a
/// blank line or the end. Trailing semicolons and surrounding whitespace are removed; empty blocks are skipped.
std::vector<std::string> ExtractSqlCandidates(std::string_view reply);

/// The answer of a reply: its last candidate ("" when there is none), since models that reason first give the final
/// query last.
std::string ExtractSql(std::string_view reply);

}  // namespace plainsql::llm
