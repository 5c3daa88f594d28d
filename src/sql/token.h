// Tokens of SQL text, as the lexer produces them for the parser.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/dialect.h"

namespace plainsql::sql {

enum class TokenKind {
  kEnd,               // end of input
  kWord,              // a bare word: keyword or unquoted identifier (the parser decides which)
  kQuotedIdentifier,  // "x", [x] or `x`; `value` holds the name with quotes removed and doubled quotes undone
  kString,            // '...' (and N'...', E'...', $$...$$, MySQL "..."); `value` holds the unescaped text
  kBlob,              // X'0A1B'; `value` holds the hex digits
  kNumber,            // 12, 1.5, .5, 1e-3, 0x1F; `value` as written
  kParameter,         // ?, ?1, $1, :name, @name
  kOperator,          // + - * / % = == != <> < <= > >= || | & ^ ~ << >> :: -> ->> !
  kLeftParen,
  kRightParen,
  kComma,
  kDot,
  kSemicolon,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string_view text;  // the token as written in the source
  std::string value;      // see TokenKind
  uint32_t offset = 0;    // byte offset of the token in the source
  char quote = 0;         // opening quote of a quoted identifier or string; prefix letter (N, E) is in `prefix`
  char prefix = 0;        // 'N' for N'...', 'E' for E'...', 0 otherwise

  bool IsWord(std::string_view upper) const;  // a bare word equal to `upper`, case-insensitively
  bool IsOp(std::string_view op) const { return kind == TokenKind::kOperator && text == op; }
};

/// Where something is in the source: 1-based line and column (in bytes), and the offending line with a caret.
struct SourcePosition {
  int line = 1;
  int column = 1;
  std::string excerpt;  // the source line, then a line with '^' under the column
};
SourcePosition PositionOf(std::string_view source, uint32_t offset);

/// An error with its position, formatted "message at line L, column C:\n<excerpt>".
Error SyntaxError(std::string_view source, uint32_t offset, std::string_view message);

/// Splits SQL text into tokens; comments and white space are dropped. The last token is kEnd.
Result<std::vector<Token>> Tokenize(std::string_view sql, const Dialect& dialect);

}  // namespace plainsql::sql
