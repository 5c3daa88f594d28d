// The SQL lexer: one pass over the text, driven by the dialect's quoting and comment rules.
#include <fmt/format.h>

#include <cctype>

#include "common/strings.h"
#include "sql/token.h"

namespace plainsql::sql {

bool Token::IsWord(std::string_view upper) const { return kind == TokenKind::kWord && EqualsIgnoreCase(text, upper); }

SourcePosition PositionOf(std::string_view source, uint32_t offset) {
  SourcePosition p;
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < source.size(); ++i) {
    if (source[i] == '\n') {
      ++p.line;
      line_start = i + 1;
    }
  }
  p.column = static_cast<int>(offset - line_start) + 1;
  size_t line_end = source.find('\n', line_start);
  std::string_view line =
      source.substr(line_start, line_end == std::string_view::npos ? std::string_view::npos : line_end - line_start);
  // Keep long lines readable: show at most 60 characters either side of the caret.
  size_t col = offset - line_start, from = col > 60 ? col - 60 : 0;
  std::string shown(line.substr(from, 120));
  for (char& c : shown) {
    if (c == '\t' || c == '\r') c = ' ';
  }
  p.excerpt = shown + "\n" + std::string(col - from, ' ') + "^";
  return p;
}

Error SyntaxError(std::string_view source, uint32_t offset, std::string_view message) {
  SourcePosition p = PositionOf(source, offset);
  return MakeError(ErrorCode::kSql, fmt::format("{} at line {}, column {}:\n{}", message, p.line, p.column, p.excerpt));
}

namespace {

bool IsWordStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || static_cast<unsigned char>(c) >= 0x80;
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Two- and three-character operators, longest first.
constexpr std::string_view kOperators[] = {
    "->>", "||", "::", "<>", "!=", "<=", ">=", "==", "<<", ">>", "->", "!<", "!>"};

class Lexer {
 public:
  Lexer(std::string_view sql, const Dialect& d) : s_(sql), d_(d) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> out;
    out.reserve(s_.size() / 4 + 2);
    while (true) {
      if (auto e = SkipSpaceAndComments()) return *e;
      if (i_ >= s_.size()) break;
      auto t = Next();
      if (!t) return t.error();
      out.push_back(std::move(*t));
    }
    Token end;
    end.kind = TokenKind::kEnd;
    end.offset = static_cast<uint32_t>(s_.size());
    out.push_back(end);
    return out;
  }

 private:
  std::optional<Error> SkipSpaceAndComments() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
      } else if (c == '-' && Peek(1) == '-') {
        while (i_ < s_.size() && s_[i_] != '\n' && !(s_[i_] == '\r' && d_.cr_ends_line_comment)) ++i_;
      } else if (c == '#' && d_.hash_comments) {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (c == '/' && Peek(1) == '*') {
        // Where comments nest, the engine reads "/* /* */ ... */" as one comment; reading it otherwise would show
        // the guard a different query than the one the database runs.
        size_t start = i_;
        int depth = 0;
        while (i_ < s_.size()) {
          if (s_[i_] == '/' && Peek(1) == '*' && (depth == 0 || d_.nested_comments)) {
            ++depth;
            i_ += 2;
          } else if (s_[i_] == '*' && Peek(1) == '/') {
            --depth;
            i_ += 2;
            if (depth == 0) break;
          } else {
            ++i_;
          }
        }
        if (depth != 0) return Fail(start, "unterminated /* comment");
      } else {
        break;
      }
    }
    return std::nullopt;
  }

  char Peek(size_t k) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }

  Error Fail(size_t at, std::string_view message) const { return SyntaxError(s_, static_cast<uint32_t>(at), message); }

  Token Make(TokenKind kind, size_t start, std::string value = {}) {
    Token t;
    t.kind = kind;
    t.text = s_.substr(start, i_ - start);
    t.value = std::move(value);
    t.offset = static_cast<uint32_t>(start);
    return t;
  }

  // Reads a run quoted by `open`...`close` where a doubled `close` stands for itself (and, with `backslash`, \x
  // escapes). i_ is at the opening quote; on return it is after the closing one.
  Result<std::string> Quoted(char close, bool backslash, std::string_view what) {
    size_t start = i_;
    std::string value;
    ++i_;
    while (true) {
      if (i_ >= s_.size()) return Fail(start, fmt::format("unterminated {}", what));
      char c = s_[i_];
      if (backslash && c == '\\' && i_ + 1 < s_.size()) {
        char n = s_[i_ + 1];
        switch (n) {
          case 'n': value.push_back('\n'); break;
          case 't': value.push_back('\t'); break;
          case 'r': value.push_back('\r'); break;
          case '0': value.push_back('\0'); break;
          default: value.push_back(n);
        }
        i_ += 2;
        continue;
      }
      if (c == close) {
        if (Peek(1) == close) {
          value.push_back(close);
          i_ += 2;
          continue;
        }
        ++i_;
        return value;
      }
      value.push_back(c);
      ++i_;
    }
  }

  Result<Token> Next() {
    size_t start = i_;
    char c = s_[i_];
    // Prefixed strings: N'..' (national), E'..' (escapes), X'..' (blob), B'..' (bits).
    if ((c == 'N' || c == 'n' || c == 'E' || c == 'e' || c == 'X' || c == 'x' || c == 'B' || c == 'b') &&
        Peek(1) == '\'') {
      char prefix = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      ++i_;
      auto v = Quoted('\'', prefix == 'E' || d_.backslash_escapes, "string literal");
      if (!v) return v.error();
      Token t = Make(prefix == 'X' ? TokenKind::kBlob : TokenKind::kString, start, std::move(*v));
      t.quote = '\'';
      t.prefix = prefix;
      return t;
    }
    if (IsWordStart(c)) {
      while (i_ < s_.size() && IsWordChar(s_[i_])) ++i_;
      return Make(TokenKind::kWord, start);
    }
    if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) return Number(start);
    if (c == '\'') {
      auto v = Quoted('\'', d_.backslash_escapes, "string literal");
      if (!v) return v.error();
      Token t = Make(TokenKind::kString, start, std::move(*v));
      t.quote = '\'';
      return t;
    }
    if (c == '"' && d_.double_quote_is_string) {
      auto v = Quoted('"', d_.backslash_escapes, "string literal");
      if (!v) return v.error();
      Token t = Make(TokenKind::kString, start, std::move(*v));
      t.quote = '"';
      return t;
    }
    if (d_.identifier_quotes.find(c) != std::string_view::npos) {
      char close = c == '[' ? ']' : c;
      auto v = Quoted(close, false, "quoted identifier");
      if (!v) return v.error();
      Token t = Make(TokenKind::kQuotedIdentifier, start, std::move(*v));
      t.quote = c;
      return t;
    }
    if (c == '$' && d_.dollar_quotes && (Peek(1) == '$' || IsWordStart(Peek(1)))) {
      size_t tag_end = s_.find('$', i_ + 1);
      bool is_tag = tag_end != std::string_view::npos;
      for (size_t k = i_ + 1; is_tag && k < tag_end; ++k) is_tag = IsWordChar(s_[k]) && s_[k] != '$';
      if (is_tag) {
        std::string_view tag = s_.substr(i_, tag_end - i_ + 1);
        size_t close = s_.find(tag, tag_end + 1);
        if (close == std::string_view::npos) return Fail(start, "unterminated dollar-quoted string");
        std::string value(s_.substr(tag_end + 1, close - tag_end - 1));
        i_ = close + tag.size();
        Token t = Make(TokenKind::kString, start, std::move(value));
        t.quote = '$';
        return t;
      }
    }
    // Parameters: ?, ?NNN, $NNN, :name, @name (T-SQL variables, @@ROWCOUNT).
    if (c == '?' || (c == '$' && IsDigit(Peek(1))) || (c == ':' && IsWordStart(Peek(1))) || c == '@') {
      ++i_;
      while (i_ < s_.size() && (IsWordChar(s_[i_]) || s_[i_] == '@')) ++i_;
      return Make(TokenKind::kParameter, start);
    }
    if (c == '#') {  // T-SQL temporary table names: #t, ##t
      while (i_ < s_.size() && (IsWordChar(s_[i_]) || s_[i_] == '#')) ++i_;
      return Make(TokenKind::kWord, start);
    }
    switch (c) {
      case '(': ++i_; return Make(TokenKind::kLeftParen, start);
      case ')': ++i_; return Make(TokenKind::kRightParen, start);
      case ',': ++i_; return Make(TokenKind::kComma, start);
      case '.': ++i_; return Make(TokenKind::kDot, start);
      case ';': ++i_; return Make(TokenKind::kSemicolon, start);
      default: break;
    }
    for (std::string_view op : kOperators) {
      if (s_.substr(i_, op.size()) == op) {
        i_ += op.size();
        return Make(TokenKind::kOperator, start);
      }
    }
    // '[' and ']' reach here only where they do not quote identifiers (PostgreSQL arrays: int[], a[1]).
    if (std::string_view("+-*/%=<>|&^~![]").find(c) != std::string_view::npos) {
      ++i_;
      return Make(TokenKind::kOperator, start);
    }
    return Fail(start, fmt::format("unexpected character '{}'", c));
  }

  Result<Token> Number(size_t start) {
    if (s_[i_] == '0' && (Peek(1) == 'x' || Peek(1) == 'X') && std::isxdigit(static_cast<unsigned char>(Peek(2)))) {
      i_ += 2;
      while (i_ < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
      return Make(TokenKind::kNumber, start, std::string(s_.substr(start, i_ - start)));
    }
    while (i_ < s_.size() && IsDigit(s_[i_])) ++i_;
    if (i_ < s_.size() && s_[i_] == '.' && !(Peek(1) == '.')) {
      ++i_;
      while (i_ < s_.size() && IsDigit(s_[i_])) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      size_t k = i_ + 1;
      if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
      if (k < s_.size() && IsDigit(s_[k])) {
        i_ = k;
        while (i_ < s_.size() && IsDigit(s_[i_])) ++i_;
      }
    }
    if (i_ < s_.size() && IsWordStart(s_[i_])) {
      // 123abc is not a number; SQLite calls it an unrecognized token.
      size_t end = i_;
      while (end < s_.size() && IsWordChar(s_[end])) ++end;
      return Fail(start, fmt::format("bad number '{}'", s_.substr(start, end - start)));
    }
    return Make(TokenKind::kNumber, start, std::string(s_.substr(start, i_ - start)));
  }

  std::string_view s_;
  const Dialect& d_;
  size_t i_ = 0;
};

}  // namespace

Result<std::vector<Token>> Tokenize(std::string_view sql, const Dialect& dialect) { return Lexer(sql, dialect).Run(); }

}  // namespace plainsql::sql
