// SQL extraction from model replies (see extract.h).
#include "llm/extract.h"

#include "common/strings.h"

namespace plainsql::llm {

namespace {

bool StartsLikeQuery(std::string_view text) {
  std::string head = ToLower(TrimmedCopy(text).substr(0, 8));
  return head.starts_with("select") || head.starts_with("with") || head.starts_with("(select") ||
         head.starts_with("values");
}

std::string Clean(std::string_view sql) {
  std::string s = TrimmedCopy(sql);
  while (!s.empty() && (s.back() == ';' || s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) s.pop_back();
  return s;
}

}  // namespace

std::vector<std::string> ExtractSqlCandidates(std::string_view reply) {
  std::vector<std::string> out;
  // Fenced blocks: ``` or ~~~ at the start of a line, an optional language tag, up to the closing fence.
  std::vector<std::string> lines = Split(std::string(reply), '\n');
  bool in_block = false, sql_block = false, marked = false;
  std::string block;
  for (std::string line : lines) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string t = TrimmedCopy(line);
    bool fence = t.starts_with("```") || t.starts_with("~~~");
    if (fence && !in_block) {
      std::string lang = ToLower(TrimmedCopy(t.substr(3)));
      in_block = true;
      marked = !lang.empty();
      sql_block = lang.empty() || lang == "sql" || lang == "sqlite" || lang == "postgresql" || lang == "postgres" ||
                  lang == "tsql" || lang == "t-sql" || lang == "mysql";
      block.clear();
      continue;
    }
    if (fence && in_block) {
      in_block = false;
      std::string sql = Clean(block);
      // A block marked sql counts whatever it starts with (the parser judges it); an unmarked one only when it holds
      // a query, since models also fence prose, tables and JSON.
      if (sql_block && !sql.empty() && (marked || StartsLikeQuery(sql))) out.push_back(sql);
      continue;
    }
    if (in_block) block += line + "\n";
  }
  if (in_block && sql_block) {  // a reply cut off inside its block
    std::string sql = Clean(block);
    if (StartsLikeQuery(sql)) out.push_back(sql);
  }
  if (!out.empty()) return out;
  // Bare SQL: from the first line that starts a query to a blank line.
  std::string bare;
  bool collecting = false;
  for (std::string line : lines) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!collecting) {
      if (StartsLikeQuery(line)) {
        collecting = true;
        bare = line + "\n";
      }
      continue;
    }
    if (TrimmedCopy(line).empty()) break;
    bare += line + "\n";
  }
  if (collecting) {
    std::string sql = Clean(bare);
    if (!sql.empty()) out.push_back(sql);
  }
  return out;
}

std::string ExtractSql(std::string_view reply) {
  auto all = ExtractSqlCandidates(reply);
  return all.empty() ? std::string() : all.back();
}

}  // namespace plainsql::llm
