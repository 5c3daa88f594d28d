// Lexical statement classification (see classify.h).
#include "sql/classify.h"

#include <cctype>

#include "common/strings.h"

namespace plainsql::sql {

namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// Skips a quoted run starting at sql[i] == open, where a doubled close character stands for itself.
// Returns the index after the closing quote, or npos if unterminated.
size_t SkipQuoted(std::string_view sql, size_t i, char close, bool backslash_escapes) {
  for (size_t j = i + 1; j < sql.size(); ++j) {
    if (backslash_escapes && sql[j] == '\\') {
      ++j;
      continue;
    }
    if (sql[j] == close) {
      if (j + 1 < sql.size() && sql[j + 1] == close) {
        ++j;
        continue;
      }
      return j + 1;
    }
  }
  return std::string_view::npos;
}

}  // namespace

Classification ClassifyStatement(std::string_view sql) {
  Classification out;
  bool statement_has_content = false;
  int depth = 0;          // parenthesis depth in the first statement
  bool saw_main = false;  // the main keyword after a WITH clause has been seen
  size_t i = 0;
  const size_t n = sql.size();
  auto mark_content = [&] {
    if (!statement_has_content) {
      statement_has_content = true;
      ++out.statement_count;
    }
  };
  while (i < n) {
    char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
      size_t e = sql.find('\n', i);
      i = e == std::string_view::npos ? n : e + 1;
    } else if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      size_t e = sql.find("*/", i + 2);
      if (e == std::string_view::npos) {
        out.unterminated = true;
        break;
      }
      i = e + 2;
    } else if (c == ';') {
      statement_has_content = false;
      ++i;
    } else if (c == '\'' || c == '"' || c == '`' || c == '[') {
      mark_content();
      if (out.first_keyword.empty() && out.kind == LexicalKind::kEmpty) out.kind = LexicalKind::kOther;
      char close = c == '[' ? ']' : c;
      // E'...' strings (PostgreSQL) allow backslash escapes; the E was consumed as an identifier below.
      bool backslash = c == '\'' && i > 0 && (sql[i - 1] == 'E' || sql[i - 1] == 'e');
      size_t e = SkipQuoted(sql, i, close, backslash);
      if (e == std::string_view::npos) {
        out.unterminated = true;
        break;
      }
      i = e;
    } else if (c == '$' && i + 1 < n && (sql[i + 1] == '$' || IsIdentStart(sql[i + 1]))) {
      // PostgreSQL dollar quoting: $tag$ ... $tag$. A $1 parameter does not start with a letter and is not a quote.
      size_t tag_end = sql.find('$', i + 1);
      bool is_tag = tag_end != std::string_view::npos;
      for (size_t k = i + 1; is_tag && k < tag_end; ++k) is_tag = IsIdentChar(sql[k]) && sql[k] != '$';
      mark_content();
      if (!is_tag) {
        ++i;
        continue;
      }
      std::string_view tag = sql.substr(i, tag_end - i + 1);
      size_t e = sql.find(tag, tag_end + 1);
      if (e == std::string_view::npos) {
        out.unterminated = true;
        break;
      }
      if (out.kind == LexicalKind::kEmpty) out.kind = LexicalKind::kOther;
      i = e + tag.size();
    } else if (IsIdentStart(c)) {
      size_t e = i;
      while (e < n && IsIdentChar(sql[e])) ++e;
      mark_content();
      if (out.statement_count == 1 && out.kind == LexicalKind::kEmpty) {
        out.first_keyword = ToUpper(sql.substr(i, e - i));
        const std::string& k = out.first_keyword;
        out.kind =
            (k == "SELECT" || k == "WITH" || k == "VALUES" || k == "TABLE") ? LexicalKind::kQuery : LexicalKind::kOther;
      } else if (out.statement_count == 1 && out.first_keyword == "WITH" && depth == 0 && !saw_main) {
        // After WITH's common table expressions, the first statement keyword outside parentheses is the statement.
        std::string k = ToUpper(sql.substr(i, e - i));
        if (k == "SELECT" || k == "VALUES" || k == "TABLE") {
          saw_main = true;
        } else if (k == "INSERT" || k == "UPDATE" || k == "DELETE" || k == "REPLACE" || k == "MERGE") {
          saw_main = true;
          out.kind = LexicalKind::kOther;
          out.first_keyword = k;
        }
      }
      i = e;
    } else {
      mark_content();
      if (c == '(') ++depth;
      if (c == ')' && depth > 0) --depth;
      if (out.statement_count == 1 && out.kind == LexicalKind::kEmpty) {
        out.kind = c == '(' ? LexicalKind::kQuery : LexicalKind::kOther;
        if (c == '(') out.first_keyword = "(";
      }
      ++i;
    }
  }
  return out;
}

}  // namespace plainsql::sql
