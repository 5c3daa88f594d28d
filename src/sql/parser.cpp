// Recursive-descent parser for queries, with precedence climbing for expressions. Parse failures inside are thrown as
// ParseFailure and turned into an Error at the entry points; nothing is thrown out of this file.
#include "sql/parser.h"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <unordered_set>

#include "common/strings.h"
#include "sql/precedence.h"
#include "sql/token.h"

namespace plainsql::sql {

namespace {

struct ParseFailure {
  uint32_t offset;
  std::string message;
};

// Words that end an expression or a FROM item, so they are never taken as an alias without AS.
const std::unordered_set<std::string>& ClauseWords() {
  static const std::unordered_set<std::string> kWords = {
      "FROM",        "WHERE",    "GROUP",   "ORDER",  "HAVING",  "LIMIT",   "OFFSET", "UNION",   "INTERSECT",
      "EXCEPT",      "MINUS",    "INTO",    "JOIN",   "INNER",   "LEFT",    "RIGHT",  "FULL",    "CROSS",
      "NATURAL",     "OUTER",    "ON",      "USING",  "WINDOW",  "FETCH",   "AND",    "OR",      "NOT",
      "AS",          "SELECT",   "WHEN",    "THEN",   "ELSE",    "END",     "CASE",   "IS",      "IN",
      "LIKE",        "ILIKE",    "BETWEEN", "ASC",    "DESC",    "FOR",     "WITH",   "VALUES",  "RETURNING",
      "LATERAL",     "ESCAPE",   "COLLATE", "ISNULL", "NOTNULL", "GLOB",    "REGEXP", "RLIKE",   "MATCH",
      "OVER",        "FILTER",   "NULLS",   "APPLY",  "PIVOT",   "UNPIVOT", "OPTION", "SIMILAR", "QUALIFY",
      "TABLESAMPLE", "DISTINCT", "ALL",     "TOP",    "BY",      "SET",     "NULL"};
  return kWords;
}

// Date-part words that T-SQL's DATEADD / DATEDIFF / DATEPART / DATENAME take as their first argument.
bool IsDatePartFunction(const std::string& upper) {
  return upper == "DATEADD" || upper == "DATEDIFF" || upper == "DATEDIFF_BIG" || upper == "DATEPART" ||
         upper == "DATENAME" || upper == "DATETRUNC" || upper == "DATE_BUCKET";
}

// Words that stand alone as values (no parentheses needed).
bool IsNiladicKeyword(const std::string& upper) {
  return upper == "CURRENT_DATE" || upper == "CURRENT_TIME" || upper == "CURRENT_TIMESTAMP" || upper == "LOCALTIME" ||
         upper == "LOCALTIMESTAMP" || upper == "CURRENT_USER" || upper == "SESSION_USER" || upper == "SYSTEM_USER" ||
         upper == "CURRENT_ROLE" || upper == "CURRENT_SCHEMA" || upper == "CURRENT_CATALOG";
}

class Parser {
 public:
  Parser(std::string_view src, const Dialect& d, std::vector<Token> tokens) : src_(src), d_(d), t_(std::move(tokens)) {}

  std::vector<Statement> Script() {
    std::vector<Statement> out;
    while (true) {
      while (Cur().kind == TokenKind::kSemicolon) ++i_;
      if (Cur().kind == TokenKind::kEnd) break;
      out.push_back(StatementAt());
      if (Cur().kind != TokenKind::kSemicolon && Cur().kind != TokenKind::kEnd) {
        Fail(fmt::format("expected ';' or the end of the statement, found {}", Describe(Cur())));
      }
    }
    return out;
  }

 private:
  // ---- tokens ----
  const Token& Cur() const { return t_[i_]; }
  const Token& Ahead(size_t k) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
  bool At(TokenKind k) const { return Cur().kind == k; }
  bool AtWord(std::string_view w) const { return Cur().IsWord(w); }
  bool AtOp(std::string_view op) const { return Cur().IsOp(op); }
  bool AcceptWord(std::string_view w) {
    if (!AtWord(w)) return false;
    ++i_;
    return true;
  }
  bool Accept(TokenKind k) {
    if (!At(k)) return false;
    ++i_;
    return true;
  }
  bool AcceptOp(std::string_view op) {
    if (!AtOp(op)) return false;
    ++i_;
    return true;
  }
  void ExpectWord(std::string_view w) {
    if (!AcceptWord(w)) Fail(fmt::format("expected {}, found {}", w, Describe(Cur())));
  }
  void Expect(TokenKind k, std::string_view what) {
    if (!Accept(k)) Fail(fmt::format("expected {}, found {}", what, Describe(Cur())));
  }
  static std::string Describe(const Token& t) {
    if (t.kind == TokenKind::kEnd) return "the end of the input";
    return fmt::format("'{}'", t.text.size() > 40 ? std::string(t.text.substr(0, 40)) + "..." : std::string(t.text));
  }
  [[noreturn]] void Fail(std::string message) const { throw ParseFailure{Cur().offset, std::move(message)}; }
  std::string Upper() const { return Cur().kind == TokenKind::kWord ? ToUpper(Cur().text) : std::string(); }

  struct DepthGuard {
    Parser* p;
    explicit DepthGuard(Parser* parser) : p(parser) {
      if (++p->depth_ > kMaxParseDepth) p->Fail("the query is nested too deeply");
    }
    ~DepthGuard() { --p->depth_; }
  };

  bool StartsQuery(size_t k = 0) const {
    const Token& t = Ahead(k);
    return t.IsWord("SELECT") || t.IsWord("WITH") || t.IsWord("VALUES") ||
           (t.kind == TokenKind::kLeftParen && StartsQuery(k + 1));
  }

  // ---- statements ----
  Statement StatementAt() {
    Statement st;
    st.offset = Cur().offset;
    std::string w = Upper();
    if (StartsQuery() || w == "TABLE") {
      StatementKind change = w == "WITH" ? WithDataChange(st.keyword) : StatementKind::kQuery;
      if (change != StatementKind::kQuery) {
        st.kind = change;
        SkipStatement(false);
      } else {
        st.kind = StatementKind::kQuery;
        st.keyword = w.empty() ? "(" : w;
        st.query = QueryAt();
      }
    } else {
      st.kind = Classify(st.keyword);
      bool trigger = false;
      for (size_t k = 1; k < 4 && st.kind == StatementKind::kCreate; ++k) trigger |= Ahead(k).IsWord("TRIGGER");
      SkipStatement(trigger);
    }
    st.end = i_ > 0 ? t_[i_ - 1].offset + static_cast<uint32_t>(t_[i_ - 1].text.size()) : st.offset;
    return st;
  }

  // A WITH statement that changes data: its main statement is INSERT / UPDATE / DELETE / MERGE / REPLACE, or one of
  // its common table expressions is (PostgreSQL's WITH d AS (DELETE ... RETURNING *) SELECT ...). Returns the kind
  // and sets `keyword`, or kQuery.
  StatementKind WithDataChange(std::string& keyword) const {
    int depth = 0;
    for (size_t k = i_; k < t_.size() && t_[k].kind != TokenKind::kEnd && t_[k].kind != TokenKind::kSemicolon; ++k) {
      const Token& t = t_[k];
      if (t.kind == TokenKind::kLeftParen) ++depth;
      if (t.kind == TokenKind::kRightParen) --depth;
      if (t.kind != TokenKind::kWord) continue;
      bool main = depth == 0;
      bool cte_body = depth == 1 && k >= 2 && t_[k - 1].kind == TokenKind::kLeftParen &&
                      (t_[k - 2].IsWord("AS") || t_[k - 2].IsWord("MATERIALIZED"));
      if (main && (t.IsWord("SELECT") || t.IsWord("VALUES"))) return StatementKind::kQuery;
      if (!main && !cte_body) continue;
      std::string w = ToUpper(t.text);
      StatementKind kind = w == "INSERT" || (w == "REPLACE" && main) ? StatementKind::kInsert
                           : w == "UPDATE"                           ? StatementKind::kUpdate
                           : w == "DELETE"                           ? StatementKind::kDelete
                           : w == "MERGE"                            ? StatementKind::kMerge
                                                                     : StatementKind::kQuery;
      if (kind != StatementKind::kQuery) {
        keyword = main ? w : w + " (in a common table expression)";
        return kind;
      }
    }
    return StatementKind::kQuery;
  }

  StatementKind Classify(std::string& keyword) {
    std::string w = Upper();
    keyword = w.empty() ? std::string(Cur().text) : w;
    static const std::array<std::pair<std::string_view, StatementKind>, 34> kKinds = {{
        {"INSERT", StatementKind::kInsert},
        {"REPLACE", StatementKind::kInsert},
        {"UPSERT", StatementKind::kInsert},
        {"UPDATE", StatementKind::kUpdate},
        {"DELETE", StatementKind::kDelete},
        {"MERGE", StatementKind::kMerge},
        {"CREATE", StatementKind::kCreate},
        {"DROP", StatementKind::kDrop},
        {"ALTER", StatementKind::kAlter},
        {"RENAME", StatementKind::kAlter},
        {"TRUNCATE", StatementKind::kTruncate},
        {"PRAGMA", StatementKind::kPragma},
        {"ATTACH", StatementKind::kAttach},
        {"DETACH", StatementKind::kDetach},
        {"BEGIN", StatementKind::kTransaction},
        {"COMMIT", StatementKind::kTransaction},
        {"END", StatementKind::kTransaction},
        {"ROLLBACK", StatementKind::kTransaction},
        {"SAVEPOINT", StatementKind::kTransaction},
        {"RELEASE", StatementKind::kTransaction},
        {"START", StatementKind::kTransaction},
        {"SET", StatementKind::kSet},
        {"RESET", StatementKind::kSet},
        {"COPY", StatementKind::kCopy},
        {"EXPLAIN", StatementKind::kExplain},
        {"VACUUM", StatementKind::kVacuum},
        {"ANALYZE", StatementKind::kAnalyze},
        {"REINDEX", StatementKind::kVacuum},
        {"GRANT", StatementKind::kGrant},
        {"REVOKE", StatementKind::kGrant},
        {"CALL", StatementKind::kCall},
        {"EXEC", StatementKind::kCall},
        {"DO", StatementKind::kDo},
        {"LOCK", StatementKind::kLock},
    }};
    for (auto& [word, kind] : kKinds) {
      if (w == word) {
        if (kind == StatementKind::kCreate || kind == StatementKind::kDrop || kind == StatementKind::kAlter) {
          if (Ahead(1).kind == TokenKind::kWord) keyword += " " + ToUpper(Ahead(1).text);
        }
        return kind;
      }
    }
    if (w == "EXECUTE") return StatementKind::kCall;
    if (w == "SHOW" || w == "DESCRIBE" || w == "DESC") return StatementKind::kShow;
    if (w == "USE") return StatementKind::kUse;
    return StatementKind::kOther;
  }

  // Skips to the ';' that ends the statement. A trigger's BEGIN ... END body holds semicolons of its own.
  void SkipStatement(bool trigger) {
    int depth = 0;
    while (!At(TokenKind::kEnd)) {
      if (trigger && AtWord("BEGIN")) ++depth;
      if (trigger && AtWord("END") && depth > 0) --depth;
      if (At(TokenKind::kSemicolon) && depth == 0) break;
      ++i_;
    }
  }

  // ---- queries ----
  Query QueryAt() {
    DepthGuard g(this);
    Query q;
    if (AcceptWord("WITH")) {
      q.recursive = AcceptWord("RECURSIVE");
      do {
        Cte cte;
        cte.name = IdentifierAt("a common table expression name");
        if (Accept(TokenKind::kLeftParen)) {
          do cte.columns.push_back(IdentifierAt("a column name"));
          while (Accept(TokenKind::kComma));
          Expect(TokenKind::kRightParen, "')'");
        }
        ExpectWord("AS");
        if (AcceptWord("NOT")) {
          ExpectWord("MATERIALIZED");
          cte.materialized = false;
        } else if (AcceptWord("MATERIALIZED")) {
          cte.materialized = true;
        }
        Expect(TokenKind::kLeftParen, "'(' before the common table expression's query");
        cte.query = QueryAt();
        Expect(TokenKind::kRightParen, "')' after the common table expression's query");
        q.with.push_back(std::move(cte));
      } while (Accept(TokenKind::kComma));
    }
    q.body = SetExpressionAt();
    if (AtWord("ORDER") && Ahead(1).IsWord("BY")) {
      i_ += 2;
      q.order_by = OrderListAt();
    }
    LimitClausesAt(q);
    return q;
  }

  void LimitClausesAt(Query& q) {
    if (AcceptWord("LIMIT")) {
      if (AcceptWord("ALL")) {
        // LIMIT ALL: no limit
      } else {
        Expr first = ExprAt(0);
        if (Accept(TokenKind::kComma)) {  // LIMIT offset, count (SQLite, MySQL)
          q.offset = std::move(first);
          q.limit = ExprAt(0);
        } else {
          q.limit = std::move(first);
        }
      }
      if (AcceptWord("OFFSET")) q.offset = ExprAt(0);
    }
    if (AcceptWord("OFFSET")) {
      q.offset = ExprAt(0);
      if (!AcceptWord("ROWS")) AcceptWord("ROW");
    }
    if (AcceptWord("FETCH")) {
      q.fetch_style = true;
      if (!AcceptWord("FIRST")) ExpectWord("NEXT");
      if (AtWord("ROW") || AtWord("ROWS")) {
        Expr one;
        one.kind = ExprKind::kLiteral;
        one.literal_kind = LiteralKind::kNumber;
        one.text = "1";
        q.limit = std::move(one);
      } else {
        q.limit = ExprAt(kPrecAdd);
      }
      if (!AcceptWord("ROWS")) ExpectWord("ROW");
      if (AcceptWord("WITH")) {
        ExpectWord("TIES");
        q.fetch_with_ties = true;
      } else {
        ExpectWord("ONLY");
      }
    }
  }

  QueryBody SetExpressionAt() {
    QueryBody left = SetOperandAt();
    int chain = 0;
    while (AtWord("UNION") || AtWord("INTERSECT") || AtWord("EXCEPT") || AtWord("MINUS")) {
      if (depth_ + chain++ > kMaxParseDepth) Fail("the query has too many set operations");
      QueryBody node;
      node.kind = QueryBodyKind::kSetOp;
      std::string w = Upper();
      node.set_op = w == "UNION" ? SetOp::kUnion : w == "INTERSECT" ? SetOp::kIntersect : SetOp::kExcept;
      ++i_;
      if (AcceptWord("ALL"))
        node.set_all = true;
      else
        AcceptWord("DISTINCT");
      node.left = std::move(left);
      node.right = SetOperandAt();
      left = std::move(node);
    }
    return left;
  }

  QueryBody SetOperandAt() {
    QueryBody b;
    if (At(TokenKind::kLeftParen) && StartsQuery(1)) {
      ++i_;
      b.kind = QueryBodyKind::kParenthesized;
      b.inner = QueryAt();
      Expect(TokenKind::kRightParen, "')'");
      return b;
    }
    if (AcceptWord("VALUES")) {
      b.kind = QueryBodyKind::kValues;
      do {
        Expect(TokenKind::kLeftParen, "'(' before a row of VALUES");
        std::vector<Expr> row;
        do row.push_back(ExprAt(0));
        while (Accept(TokenKind::kComma));
        Expect(TokenKind::kRightParen, "')' after a row of VALUES");
        b.rows.push_back(std::move(row));
      } while (Accept(TokenKind::kComma));
      return b;
    }
    if (AcceptWord("TABLE")) {  // TABLE t is SELECT * FROM t
      b.kind = QueryBodyKind::kSelect;
      Expr star;
      star.kind = ExprKind::kStar;
      star.offset = Cur().offset;
      b.select.items.push_back(SelectItem{std::move(star), std::nullopt});
      TableRef t;
      t.kind = TableRefKind::kTable;
      t.offset = Cur().offset;
      t.name = QualifiedNameAt("a table name");
      b.select.from = std::move(t);
      return b;
    }
    if (!AtWord("SELECT")) Fail(fmt::format("expected SELECT, found {}", Describe(Cur())));
    b.kind = QueryBodyKind::kSelect;
    b.select = SelectAt();
    return b;
  }

  Select SelectAt() {
    ExpectWord("SELECT");
    Select s;
    if (AcceptWord("DISTINCT")) {
      s.distinct = true;
      if (AcceptWord("ON")) {
        Expect(TokenKind::kLeftParen, "'(' after DISTINCT ON");
        s.distinct_on = ExprListAt();
        Expect(TokenKind::kRightParen, "')'");
      }
    } else if (AcceptWord("ALL")) {
      s.all = true;
    }
    if (AcceptWord("TOP")) {
      if (Accept(TokenKind::kLeftParen)) {
        s.top = ExprAt(0);
        Expect(TokenKind::kRightParen, "')' after TOP (n");
      } else {
        s.top = PrimaryAt();
      }
      s.top_percent = AcceptWord("PERCENT");
      if (AtWord("WITH") && Ahead(1).IsWord("TIES")) {
        i_ += 2;
        s.top_with_ties = true;
      }
    }
    do s.items.push_back(SelectItemAt());
    while (Accept(TokenKind::kComma));
    if (AcceptWord("INTO")) s.into = QualifiedNameAt("a table name after INTO");
    if (AcceptWord("FROM")) s.from = FromListAt();
    if (AcceptWord("WHERE")) s.where = ExprAt(0);
    if (AtWord("GROUP") && Ahead(1).IsWord("BY")) {
      i_ += 2;
      AcceptWord("ALL");
      s.group_by = ExprListAt();
    }
    if (AcceptWord("HAVING")) s.having = ExprAt(0);
    if (AcceptWord("WINDOW")) {
      do {
        Identifier name = IdentifierAt("a window name");
        ExpectWord("AS");
        Expect(TokenKind::kLeftParen, "'('");
        s.windows.emplace_back(std::move(name), WindowSpecAt());
        Expect(TokenKind::kRightParen, "')'");
      } while (Accept(TokenKind::kComma));
    }
    return s;
  }

  SelectItem SelectItemAt() {
    SelectItem item;
    if (AtOp("*")) {
      item.expr.kind = ExprKind::kStar;
      item.expr.offset = Cur().offset;
      ++i_;
      return item;
    }
    item.expr = ExprAt(0);
    item.alias = AliasAt(/*allow_string=*/true);
    return item;
  }

  // [AS] alias. Without AS, a word that starts a clause is not an alias.
  std::optional<Identifier> AliasAt(bool allow_string) {
    if (AcceptWord("AS")) {
      if (allow_string && At(TokenKind::kString)) return StringAlias();
      return IdentifierAt("an alias after AS");
    }
    if (At(TokenKind::kQuotedIdentifier)) return IdentifierAt("an alias");
    if (allow_string && At(TokenKind::kString) && Cur().quote == '\'') return StringAlias();
    if (At(TokenKind::kWord) && !ClauseWords().count(Upper())) return IdentifierAt("an alias");
    return std::nullopt;
  }

  Identifier StringAlias() {
    Identifier id{Cur().value, '\'', Cur().offset};
    ++i_;
    return id;
  }

  Identifier IdentifierAt(std::string_view what) {
    const Token& t = Cur();
    if (t.kind == TokenKind::kWord) {
      ++i_;
      return Identifier{std::string(t.text), 0, t.offset};
    }
    if (t.kind == TokenKind::kQuotedIdentifier) {
      ++i_;
      return Identifier{t.value, t.quote, t.offset};
    }
    // SQLite accepts a string literal where a name is expected.
    if (t.kind == TokenKind::kString && &d_ == &Sqlite() && t.quote == '\'') {
      ++i_;
      return Identifier{t.value, '\'', t.offset};
    }
    Fail(fmt::format("expected {}, found {}", what, Describe(t)));
  }

  QualifiedName QualifiedNameAt(std::string_view what) {
    QualifiedName n;
    n.parts.push_back(IdentifierAt(what));
    while (At(TokenKind::kDot)) {
      ++i_;
      n.parts.push_back(IdentifierAt(what));
    }
    return n;
  }

  // FROM a, b JOIN c ON ... : commas bind loosest; joins nest to the left.
  Box<TableRef> FromListAt() {
    TableRef left = JoinChainAt();
    int chain = 0;
    while (Accept(TokenKind::kComma)) {
      if (depth_ + chain++ > kMaxParseDepth) Fail("the FROM clause has too many tables");
      TableRef j;
      j.kind = TableRefKind::kJoin;
      j.offset = left.offset;
      j.join.kind = JoinKind::kCross;
      j.join.comma = true;
      j.left = std::move(left);
      j.right = JoinChainAt();
      left = std::move(j);
    }
    return left;
  }

  TableRef JoinChainAt() {
    DepthGuard g(this);
    TableRef left = TablePrimaryAt();
    int chain = 0;
    while (true) {
      if (depth_ + chain++ > kMaxParseDepth) Fail("the FROM clause has too many joins");
      JoinSpec spec;
      size_t save = i_;
      if (AcceptWord("NATURAL")) spec.natural = true;
      if (AcceptWord("INNER")) {
        spec.written_inner = true;
      } else if (AcceptWord("LEFT")) {
        spec.kind = JoinKind::kLeft;
        spec.written_outer = AcceptWord("OUTER");
      } else if (AcceptWord("RIGHT")) {
        spec.kind = JoinKind::kRight;
        spec.written_outer = AcceptWord("OUTER");
      } else if (AcceptWord("FULL")) {
        spec.kind = JoinKind::kFull;
        spec.written_outer = AcceptWord("OUTER");
      } else if (AcceptWord("CROSS")) {
        spec.kind = JoinKind::kCross;
      }
      if (!AcceptWord("JOIN")) {
        i_ = save;
        break;
      }
      TableRef j;
      j.kind = TableRefKind::kJoin;
      j.offset = left.offset;
      j.right = TablePrimaryAt();
      if (AcceptWord("ON")) {
        spec.on = ExprAt(0);
      } else if (AcceptWord("USING")) {
        Expect(TokenKind::kLeftParen, "'(' after USING");
        do spec.using_columns.push_back(IdentifierAt("a column name"));
        while (Accept(TokenKind::kComma));
        Expect(TokenKind::kRightParen, "')'");
      }
      j.join = std::move(spec);
      j.left = std::move(left);
      left = std::move(j);
    }
    return left;
  }

  TableRef TablePrimaryAt() {
    TableRef t;
    t.offset = Cur().offset;
    if (AcceptWord("LATERAL")) t.lateral = true;
    if (At(TokenKind::kLeftParen)) {
      if (StartsQuery(1)) {
        ++i_;
        t.kind = TableRefKind::kSubquery;
        t.query = QueryAt();
        Expect(TokenKind::kRightParen, "')' after a subquery");
      } else {
        ++i_;
        Box<TableRef> boxed = FromListAt();
        TableRef inner = std::move(*boxed);
        Expect(TokenKind::kRightParen, "')'");
        inner.offset = t.offset;
        if (auto alias = AliasAt(false)) inner.alias = std::move(alias);
        return inner;
      }
    } else {
      t.kind = TableRefKind::kTable;
      t.name = QualifiedNameAt("a table name");
      if (At(TokenKind::kLeftParen)) {  // a table-valued function: json_each(x), generate_series(1, 3)
        Expr f = FunctionCallAt(std::move(t.name), t.offset);
        t.kind = TableRefKind::kFunction;
        t.name = QualifiedName{};
        t.function = std::move(f);
        if (AtWord("WITH") && Ahead(1).IsWord("ORDINALITY")) {
          i_ += 2;
          t.with_ordinality = true;
        }
      }
    }
    t.alias = AliasAt(false);
    if (t.alias && At(TokenKind::kLeftParen) && !StartsQuery(1)) {
      ++i_;
      do t.column_aliases.push_back(IdentifierAt("a column name"));
      while (Accept(TokenKind::kComma));
      Expect(TokenKind::kRightParen, "')'");
    }
    // T-SQL table hints: WITH (NOLOCK)
    if (AtWord("WITH") && Ahead(1).kind == TokenKind::kLeftParen && &d_ == &TSql()) {
      i_ += 2;
      while (!At(TokenKind::kRightParen) && !At(TokenKind::kEnd)) ++i_;
      Expect(TokenKind::kRightParen, "')'");
    }
    return t;
  }

  std::vector<OrderItem> OrderListAt() {
    std::vector<OrderItem> out;
    do {
      OrderItem item;
      item.expr = ExprAt(0);
      if (AcceptWord("ASC"))
        item.descending = false;
      else if (AcceptWord("DESC"))
        item.descending = true;
      if (AcceptWord("NULLS")) {
        if (AcceptWord("FIRST"))
          item.nulls = NullsOrder::kFirst;
        else {
          ExpectWord("LAST");
          item.nulls = NullsOrder::kLast;
        }
      }
      out.push_back(std::move(item));
    } while (Accept(TokenKind::kComma));
    return out;
  }

  std::vector<Expr> ExprListAt() {
    std::vector<Expr> out;
    do out.push_back(ExprAt(0));
    while (Accept(TokenKind::kComma));
    return out;
  }

  // ---- expressions ----
  static int BinaryPrecedence(const Token& t, std::string& op) {
    if (t.kind == TokenKind::kOperator) {
      std::string_view s = t.text;
      op = std::string(s);
      if (s == "=" || s == "==" || s == "!=" || s == "<>" || s == "<" || s == "<=" || s == ">" || s == ">=" ||
          s == "!<" || s == "!>")
        return kPrecCompare;
      if (s == "|" || s == "&" || s == "<<" || s == ">>" || s == "^") return kPrecBit;
      if (s == "+" || s == "-") return kPrecAdd;
      if (s == "*" || s == "/" || s == "%") return kPrecMul;
      if (s == "||" || s == "->" || s == "->>") return kPrecConcat;
      return 0;
    }
    if (t.kind == TokenKind::kWord) {
      op = ToUpper(t.text);
      if (op == "OR") return kPrecOr;
      if (op == "AND") return kPrecAnd;
      if (op == "DIV" || op == "MOD") return kPrecMul;
      if (op == "XOR") return kPrecOr;
    }
    return 0;
  }

  Expr ExprAt(int min_prec) {
    DepthGuard g(this);
    Expr left = UnaryAt(min_prec);
    // Each round of this loop nests the tree one level deeper without recursing here; the printer, the resolver and
    // the destructor do recurse, so the chain counts against the same depth limit.
    int chain = 0;
    while (true) {
      if (depth_ + chain++ > kMaxParseDepth) Fail("the query is nested too deeply");
      // Comparison-level predicates written with words: IS, IN, LIKE, BETWEEN, ... (and their NOT forms).
      if (min_prec <= kPrecCompare) {
        if (auto pred = PredicateAt(left)) {
          left = std::move(*pred);
          continue;
        }
      }
      std::string op;
      int prec = BinaryPrecedence(Cur(), op);
      if (prec == 0 || prec < min_prec) break;
      uint32_t at = Cur().offset;
      ++i_;
      if (d_.spaced_comparisons && (op == "<" || op == ">" || op == "!") && AtOp("=")) {
        op += "=";
        ++i_;
      } else if (d_.spaced_comparisons && op == "<" && AtOp(">")) {
        op = "<>";
        ++i_;
      }
      Expr right = ExprAt(prec + 1);  // left-associative
      Expr b;
      b.kind = ExprKind::kBinary;
      b.offset = at;
      b.op = op == "==" ? "==" : op;
      b.args.push_back(std::move(left));
      b.args.push_back(std::move(right));
      left = std::move(b);
    }
    return left;
  }

  std::optional<Expr> PredicateAt(Expr& left) {
    size_t save = i_;
    bool negated = false;
    uint32_t at = Cur().offset;
    if (AtWord("NOT") &&
        (Ahead(1).IsWord("IN") || Ahead(1).IsWord("LIKE") || Ahead(1).IsWord("ILIKE") || Ahead(1).IsWord("BETWEEN") ||
         Ahead(1).IsWord("GLOB") || Ahead(1).IsWord("REGEXP") || Ahead(1).IsWord("RLIKE") || Ahead(1).IsWord("MATCH") ||
         Ahead(1).IsWord("SIMILAR") || Ahead(1).IsWord("NULL"))) {
      ++i_;
      negated = true;
    }
    Expr e;
    e.offset = at;
    e.negated = negated;
    if (negated && AcceptWord("NULL")) {  // x NOT NULL (SQLite)
      e.kind = ExprKind::kIsNull;
      e.negated = true;
      e.args.push_back(std::move(left));
      return e;
    }
    if (!negated && AcceptWord("ISNULL")) {
      e.kind = ExprKind::kIsNull;
      e.args.push_back(std::move(left));
      return e;
    }
    if (!negated && AcceptWord("NOTNULL")) {
      e.kind = ExprKind::kIsNull;
      e.negated = true;
      e.args.push_back(std::move(left));
      return e;
    }
    if (!negated && AcceptWord("IS")) {
      e.negated = AcceptWord("NOT");
      if (AcceptWord("NULL")) {
        e.kind = ExprKind::kIsNull;
        e.args.push_back(std::move(left));
        return e;
      }
      e.kind = ExprKind::kIs;
      if (AcceptWord("DISTINCT")) {
        ExpectWord("FROM");
        e.distinct_from = true;
      }
      e.args.push_back(std::move(left));
      e.args.push_back(ExprAt(kPrecCompare + 1));
      return e;
    }
    if (AcceptWord("IN")) {
      e.args.push_back(std::move(left));
      if (Accept(TokenKind::kLeftParen)) {
        if (StartsQuery()) {
          e.kind = ExprKind::kInQuery;
          e.query = QueryAt();
        } else {
          e.kind = ExprKind::kInList;
          if (!At(TokenKind::kRightParen)) {
            for (Expr& x : ExprListAt()) e.args.push_back(std::move(x));
          }
        }
        Expect(TokenKind::kRightParen, "')' after the IN list");
      } else {  // SQLite: x IN table_name
        e.kind = ExprKind::kInQuery;
        Query q;
        q.body.kind = QueryBodyKind::kSelect;
        Expr star;
        star.kind = ExprKind::kStar;
        q.body.select.items.push_back(SelectItem{std::move(star), std::nullopt});
        TableRef t;
        t.offset = Cur().offset;
        t.name = QualifiedNameAt("a list or table after IN");
        q.body.select.from = std::move(t);
        e.query = std::move(q);
      }
      return e;
    }
    if (AcceptWord("BETWEEN")) {
      e.kind = ExprKind::kBetween;
      e.args.push_back(std::move(left));
      e.args.push_back(ExprAt(kPrecCompare + 1));
      ExpectWord("AND");
      e.args.push_back(ExprAt(kPrecCompare + 1));
      return e;
    }
    std::string w = Upper();
    if (w == "LIKE" || w == "ILIKE" || w == "GLOB" || w == "REGEXP" || w == "RLIKE" || w == "MATCH" || w == "SIMILAR") {
      ++i_;
      if (w == "SIMILAR") {
        ExpectWord("TO");
        w = "SIMILAR TO";
      }
      e.kind = ExprKind::kLike;
      e.op = w;
      e.args.push_back(std::move(left));
      e.args.push_back(ExprAt(kPrecCompare + 1));
      if (AcceptWord("ESCAPE")) e.args.push_back(ExprAt(kPrecCompare + 1));
      return e;
    }
    i_ = save;
    return std::nullopt;
  }

  Expr UnaryAt(int min_prec) {
    DepthGuard g(this);  // - - - - x recurses here
    uint32_t at = Cur().offset;
    if (AtWord("NOT") && !Ahead(1).IsWord("NULL")) {
      if (Ahead(1).IsWord("EXISTS")) {
        ++i_;
        Expr e = PrimaryAt();
        e.negated = true;
        e.offset = at;
        return e;
      }
      ++i_;
      Expr e;
      e.kind = ExprKind::kUnary;
      e.offset = at;
      e.op = "NOT";
      e.args.push_back(ExprAt(std::max(min_prec, static_cast<int>(kPrecNot))));
      return e;
    }
    if (AtOp("-") || AtOp("+") || AtOp("~") || (AtOp("!") && &d_ == &MySql())) {
      Expr e;
      e.kind = ExprKind::kUnary;
      e.offset = at;
      e.op = std::string(Cur().text);
      ++i_;
      e.args.push_back(UnaryAt(kPrecUnary));
      return e;
    }
    return PostfixAt(PrimaryAt());
  }

  Expr PostfixAt(Expr e) {
    int chain = 0;
    while (true) {
      if (depth_ + chain++ > kMaxParseDepth) Fail("the query is nested too deeply");
      if (AtOp("[")) {  // PostgreSQL array subscript: a[1]
        ++i_;
        Expr s;
        s.kind = ExprKind::kSubscript;
        s.offset = e.offset;
        s.args.push_back(std::move(e));
        s.args.push_back(ExprAt(0));
        if (!AcceptOp("]")) Fail(fmt::format("expected ']', found {}", Describe(Cur())));
        e = std::move(s);
      } else if (AcceptOp("::")) {
        Expr c;
        c.kind = ExprKind::kCast;
        c.cast_style = CastStyle::kColons;
        c.offset = e.offset;
        c.args.push_back(std::move(e));
        c.type = TypeAt();
        e = std::move(c);
      } else if (AtWord("COLLATE")) {
        ++i_;
        Expr c;
        c.kind = ExprKind::kCollate;
        c.offset = e.offset;
        const Token& t = Cur();
        if (t.kind != TokenKind::kWord && t.kind != TokenKind::kQuotedIdentifier && t.kind != TokenKind::kString) {
          Fail("expected a collation name after COLLATE");
        }
        c.text = t.kind == TokenKind::kWord ? std::string(t.text) : t.value;
        c.quote = t.kind == TokenKind::kWord ? 0 : t.quote;
        ++i_;
        c.args.push_back(std::move(e));
        e = std::move(c);
      } else {
        return e;
      }
    }
  }

  DataType TypeAt() {
    DataType t;
    if (At(TokenKind::kQuotedIdentifier)) {
      t.name = Cur().value;
      t.quote = Cur().quote;
      ++i_;
    } else if (At(TokenKind::kWord)) {
      std::string first = Upper();
      t.name = std::string(Cur().text);
      ++i_;
      auto add = [&](std::string_view w) {
        t.name += " " + std::string(Cur().text);
        (void)w;
        ++i_;
      };
      if (first == "DOUBLE" && AtWord("PRECISION")) add("PRECISION");
      if ((first == "CHARACTER" || first == "CHAR" || first == "NATIONAL") && AtWord("VARYING")) add("VARYING");
      if ((first == "UNSIGNED" || first == "SIGNED") && (AtWord("INTEGER") || AtWord("INT"))) add("INTEGER");
      if (first == "LONG" && (AtWord("VARCHAR") || AtWord("TEXT"))) add("");
    } else {
      Fail(fmt::format("expected a type name, found {}", Describe(Cur())));
    }
    if (Accept(TokenKind::kLeftParen)) {
      do {
        const Token& p = Cur();
        if (p.kind != TokenKind::kNumber && p.kind != TokenKind::kWord && !(p.kind == TokenKind::kOperator)) {
          Fail(fmt::format("expected a type parameter, found {}", Describe(p)));
        }
        std::string param(p.text);
        ++i_;
        if (p.IsOp("-") && At(TokenKind::kNumber)) {
          param += std::string(Cur().text);
          ++i_;
        }
        t.params.push_back(std::move(param));
      } while (Accept(TokenKind::kComma));
      Expect(TokenKind::kRightParen, "')' after the type's parameters");
    }
    if ((AtWord("WITH") || AtWord("WITHOUT")) && Ahead(1).IsWord("TIME") && Ahead(2).IsWord("ZONE")) {
      t.name += " " + ToUpper(Cur().text) + " TIME ZONE";
      i_ += 3;
    }
    if (AtOp("[") && Ahead(1).IsOp("]")) {
      i_ += 2;
      t.array = true;
    }
    return t;
  }

  Expr PrimaryAt() {
    DepthGuard g(this);
    const Token& t = Cur();
    Expr e;
    e.offset = t.offset;
    switch (t.kind) {
      case TokenKind::kNumber:
        e.kind = ExprKind::kLiteral;
        e.literal_kind = LiteralKind::kNumber;
        e.text = t.value;
        ++i_;
        return e;
      case TokenKind::kString:
        e.kind = ExprKind::kLiteral;
        e.literal_kind = LiteralKind::kString;
        e.text = t.value;
        e.quote = t.quote;
        e.prefix = t.prefix;
        ++i_;
        return e;
      case TokenKind::kBlob:
        e.kind = ExprKind::kLiteral;
        e.literal_kind = LiteralKind::kBlob;
        e.text = t.value;
        ++i_;
        return e;
      case TokenKind::kParameter:
        e.kind = ExprKind::kParameter;
        e.text = std::string(t.text);
        ++i_;
        return e;
      case TokenKind::kLeftParen: {
        ++i_;
        if (StartsQuery()) {
          e.kind = ExprKind::kSubquery;
          e.query = QueryAt();
          Expect(TokenKind::kRightParen, "')' after a subquery");
          return e;
        }
        Expr first = ExprAt(0);
        if (Accept(TokenKind::kComma)) {
          e.kind = ExprKind::kTuple;
          e.args.push_back(std::move(first));
          for (Expr& x : ExprListAt()) e.args.push_back(std::move(x));
          Expect(TokenKind::kRightParen, "')'");
          return e;
        }
        Expect(TokenKind::kRightParen, "')'");
        return first;
      }
      case TokenKind::kQuotedIdentifier: return NameOrCallAt();
      case TokenKind::kWord: return WordAt();
      default: Fail(fmt::format("expected an expression, found {}", Describe(t)));
    }
  }

  Expr WordAt() {
    const Token& t = Cur();
    std::string w = Upper();
    Expr e;
    e.offset = t.offset;
    bool call = Ahead(1).kind == TokenKind::kLeftParen;
    if (w == "NULL" || w == "TRUE" || w == "FALSE") {
      e.kind = ExprKind::kLiteral;
      e.literal_kind = w == "NULL" ? LiteralKind::kNull : w == "TRUE" ? LiteralKind::kTrue : LiteralKind::kFalse;
      e.text = w;
      ++i_;
      return e;
    }
    if (w == "CASE") return CaseAt();
    if (w == "EXISTS" && call) {
      ++i_;
      Expect(TokenKind::kLeftParen, "'(' after EXISTS");
      e.kind = ExprKind::kExists;
      e.query = QueryAt();
      Expect(TokenKind::kRightParen, "')' after the EXISTS subquery");
      return e;
    }
    if ((w == "CAST" || w == "TRY_CAST" || w == "SAFE_CAST") && call) {
      i_ += 2;
      e.kind = ExprKind::kCast;
      e.cast_style = w == "CAST" ? CastStyle::kCast : CastStyle::kTryCast;
      e.args.push_back(ExprAt(0));
      ExpectWord("AS");
      e.type = TypeAt();
      Expect(TokenKind::kRightParen, "')' after CAST");
      return e;
    }
    if (w == "CONVERT" && call && (&d_ == &TSql() || &d_ == &MySql())) {
      i_ += 2;
      e.kind = ExprKind::kCast;
      if (&d_ == &TSql()) {
        e.cast_style = CastStyle::kConvert;
        e.type = TypeAt();
        Expect(TokenKind::kComma, "',' after CONVERT's type");
        e.args.push_back(ExprAt(0));
        if (Accept(TokenKind::kComma)) e.args.push_back(ExprAt(0));
      } else {
        e.args.push_back(ExprAt(0));
        if (AcceptWord("USING")) {
          e.kind = ExprKind::kFunction;
          e.name.parts.push_back(Identifier{std::string(t.text), 0, t.offset});
          e.func_style = FuncStyle::kConvertUsing;
          e.text = std::string(IdentifierAt("a character set").name);
        } else {
          e.cast_style = CastStyle::kConvertMySql;
          Expect(TokenKind::kComma, "',' in CONVERT");
          e.type = TypeAt();
        }
      }
      Expect(TokenKind::kRightParen, "')' after CONVERT");
      return e;
    }
    if (w == "EXTRACT" && call) {
      i_ += 2;
      e.kind = ExprKind::kExtract;
      const Token& f = Cur();
      if (f.kind != TokenKind::kWord && f.kind != TokenKind::kString) Fail("expected a field name in EXTRACT");
      e.text = f.kind == TokenKind::kWord ? ToUpper(f.text) : f.value;
      ++i_;
      ExpectWord("FROM");
      e.args.push_back(ExprAt(0));
      Expect(TokenKind::kRightParen, "')' after EXTRACT");
      return e;
    }
    if (w == "INTERVAL" &&
        (Ahead(1).kind == TokenKind::kString || Ahead(1).kind == TokenKind::kNumber || (&d_ == &MySql() && !call))) {
      ++i_;
      e.kind = ExprKind::kInterval;
      e.args.push_back(UnaryAt(kPrecUnary));
      static const std::unordered_set<std::string> kUnits = {
          "YEAR",     "YEARS",      "MONTH",      "MONTHS",      "WEEK",        "WEEKS",
          "DAY",      "DAYS",       "HOUR",       "HOURS",       "MINUTE",      "MINUTES",
          "SECOND",   "SECONDS",    "QUARTER",    "MICROSECOND", "MILLISECOND", "YEAR_MONTH",
          "DAY_HOUR", "DAY_MINUTE", "DAY_SECOND", "HOUR_MINUTE", "HOUR_SECOND", "MINUTE_SECOND"};
      if (At(TokenKind::kWord) && kUnits.count(Upper())) {
        e.text = Upper();
        ++i_;
        if (AcceptWord("TO")) {
          e.text += " TO " + Upper();
          ++i_;
        }
      }
      return e;
    }
    if ((w == "DATE" || w == "TIME" || w == "TIMESTAMP" || w == "DATETIME") && Ahead(1).kind == TokenKind::kString) {
      ++i_;
      e.kind = ExprKind::kCast;
      e.cast_style = CastStyle::kTypedLiteral;
      e.type.name = std::string(t.text);
      e.args.push_back(PrimaryAt());
      return e;
    }
    // Words that end or join clauses cannot begin an expression (SELECT FROM t is an error, not a column "FROM").
    static const std::unordered_set<std::string> kNotAnExpression = {
        "FROM",  "WHERE",  "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "INTERSECT", "EXCEPT", "JOIN", "ON",
        "USING", "SELECT", "THEN",  "ELSE",  "END",    "WHEN",  "AS",    "INTO",      "AND",    "OR",   "BY"};
    if (kNotAnExpression.count(w) && !call) Fail(fmt::format("expected an expression, found {}", Describe(t)));
    if (IsNiladicKeyword(w) && !call) {
      e.kind = ExprKind::kKeyword;
      e.text = w;
      ++i_;
      return e;
    }
    return NameOrCallAt();
  }

  Expr CaseAt() {
    Expr e;
    e.kind = ExprKind::kCase;
    e.offset = Cur().offset;
    ExpectWord("CASE");
    if (!AtWord("WHEN")) {
      e.has_operand = true;
      e.args.push_back(ExprAt(0));
    }
    if (!AtWord("WHEN")) Fail(fmt::format("expected WHEN, found {}", Describe(Cur())));
    while (AcceptWord("WHEN")) {
      e.args.push_back(ExprAt(0));
      ExpectWord("THEN");
      e.args.push_back(ExprAt(0));
    }
    if (AcceptWord("ELSE")) {
      e.has_else = true;
      e.args.push_back(ExprAt(0));
    }
    ExpectWord("END");
    return e;
  }

  Expr NameOrCallAt() {
    uint32_t at = Cur().offset;
    QualifiedName name;
    name.parts.push_back(IdentifierAt("a name"));
    while (At(TokenKind::kDot)) {
      if (Ahead(1).IsOp("*")) {  // t.*
        i_ += 2;
        Expr star;
        star.kind = ExprKind::kStar;
        star.offset = at;
        star.name = std::move(name);
        return star;
      }
      ++i_;
      name.parts.push_back(IdentifierAt("a name after '.'"));
    }
    if (At(TokenKind::kLeftParen)) return FunctionCallAt(std::move(name), at);
    Expr e;
    e.kind = ExprKind::kColumn;
    e.offset = at;
    e.name = std::move(name);
    return e;
  }

  Expr FunctionCallAt(QualifiedName name, uint32_t at) {
    Expr e;
    e.kind = ExprKind::kFunction;
    e.offset = at;
    std::string upper = ToUpper(name.last().name);
    e.name = std::move(name);
    Expect(TokenKind::kLeftParen, "'('");
    if (AtOp("*") && Ahead(1).kind == TokenKind::kRightParen) {
      ++i_;
      e.star_arg = true;
    } else if (!At(TokenKind::kRightParen)) {
      if (AcceptWord("DISTINCT"))
        e.distinct = true;
      else
        AcceptWord("ALL");
      if (upper == "POSITION" && e.name.parts.size() == 1) {
        e.args.push_back(ExprAt(kPrecCompare + 1));
        if (AcceptWord("IN")) {
          e.func_style = FuncStyle::kPositionIn;
          e.args.push_back(ExprAt(0));
        } else {
          while (Accept(TokenKind::kComma)) e.args.push_back(ExprAt(0));
        }
      } else if (upper == "TRIM" && (AtWord("LEADING") || AtWord("TRAILING") || AtWord("BOTH") || TrimHasFrom())) {
        e.func_style = FuncStyle::kTrimFrom;
        if (AtWord("LEADING") || AtWord("TRAILING") || AtWord("BOTH")) {
          e.text = Upper();
          ++i_;
        }
        std::optional<Expr> chars;
        if (!AtWord("FROM")) chars = ExprAt(0);
        ExpectWord("FROM");
        e.args.push_back(ExprAt(0));
        if (chars) e.args.push_back(std::move(*chars));
      } else if ((upper == "SUBSTRING" || upper == "SUBSTR") && e.name.parts.size() == 1) {
        e.args.push_back(ExprAt(0));
        if (AcceptWord("FROM")) {
          e.func_style = FuncStyle::kSubstringFrom;
          e.args.push_back(ExprAt(0));
          if (AcceptWord("FOR")) e.args.push_back(ExprAt(0));
        } else {
          while (Accept(TokenKind::kComma)) e.args.push_back(ExprAt(0));
        }
      } else {
        bool date_part = IsDatePartFunction(upper) && At(TokenKind::kWord) && Ahead(1).kind == TokenKind::kComma;
        if (date_part) {
          Expr k;
          k.kind = ExprKind::kKeyword;
          k.offset = Cur().offset;
          k.text = std::string(Cur().text);
          ++i_;
          e.args.push_back(std::move(k));
          Expect(TokenKind::kComma, "','");
        }
        for (Expr& x : ExprListAt()) e.args.push_back(std::move(x));
        if (AtWord("ORDER") && Ahead(1).IsWord("BY")) {
          i_ += 2;
          e.arg_order = OrderListAt();
        }
        if (AtWord("SEPARATOR")) {  // MySQL GROUP_CONCAT(x SEPARATOR ',')
          ++i_;
          e.text = "SEPARATOR";
          e.args.push_back(PrimaryAt());
        }
      }
    }
    Expect(TokenKind::kRightParen, fmt::format("')' to close {}(", e.name.last().name));
    if (AtWord("WITHIN") && Ahead(1).IsWord("GROUP")) {
      i_ += 2;
      Expect(TokenKind::kLeftParen, "'('");
      ExpectWord("ORDER");
      ExpectWord("BY");
      e.within_group = OrderListAt();
      Expect(TokenKind::kRightParen, "')'");
    }
    if (AtWord("FILTER") && Ahead(1).kind == TokenKind::kLeftParen) {
      i_ += 2;
      ExpectWord("WHERE");
      e.filter = ExprAt(0);
      Expect(TokenKind::kRightParen, "')' after FILTER (WHERE ...");
    }
    if (AcceptWord("OVER")) {
      if (Accept(TokenKind::kLeftParen)) {
        e.over = WindowSpecAt();
        Expect(TokenKind::kRightParen, "')' after the window");
      } else {
        e.over_name = IdentifierAt("a window name after OVER");
      }
    }
    return e;
  }

  bool TrimHasFrom() const {
    int depth = 0;
    for (size_t k = i_; k < t_.size(); ++k) {
      if (t_[k].kind == TokenKind::kLeftParen) ++depth;
      if (t_[k].kind == TokenKind::kRightParen && depth-- == 0) return false;
      if (depth == 0 && t_[k].IsWord("FROM")) return true;
      if (t_[k].kind == TokenKind::kEnd) return false;
    }
    return false;
  }

  WindowSpec WindowSpecAt() {
    WindowSpec w;
    if (At(TokenKind::kQuotedIdentifier) || (At(TokenKind::kWord) && !AtWord("PARTITION") && !AtWord("ORDER") &&
                                             !AtWord("ROWS") && !AtWord("RANGE") && !AtWord("GROUPS"))) {
      w.base = IdentifierAt("a window name");
    }
    if (AtWord("PARTITION") && Ahead(1).IsWord("BY")) {
      i_ += 2;
      w.partition_by = ExprListAt();
    }
    if (AtWord("ORDER") && Ahead(1).IsWord("BY")) {
      i_ += 2;
      w.order_by = OrderListAt();
    }
    if (AtWord("ROWS") || AtWord("RANGE") || AtWord("GROUPS")) {
      WindowFrame f;
      std::string u = Upper();
      f.unit = u == "ROWS" ? FrameUnit::kRows : u == "RANGE" ? FrameUnit::kRange : FrameUnit::kGroups;
      ++i_;
      if (AcceptWord("BETWEEN")) {
        f.start = BoundAt();
        ExpectWord("AND");
        f.end = BoundAt();
      } else {
        f.start = BoundAt();
      }
      if (AcceptWord("EXCLUDE")) {
        if (AcceptWord("CURRENT")) {
          ExpectWord("ROW");
          f.exclude = "CURRENT ROW";
        } else if (AcceptWord("NO")) {
          ExpectWord("OTHERS");
          f.exclude = "NO OTHERS";
        } else if (AcceptWord("GROUP")) {
          f.exclude = "GROUP";
        } else {
          ExpectWord("TIES");
          f.exclude = "TIES";
        }
      }
      w.frame = std::move(f);
    }
    return w;
  }

  FrameBound BoundAt() {
    FrameBound b;
    if (AcceptWord("UNBOUNDED")) {
      if (AcceptWord("PRECEDING"))
        b.kind = BoundKind::kUnboundedPreceding;
      else {
        ExpectWord("FOLLOWING");
        b.kind = BoundKind::kUnboundedFollowing;
      }
      return b;
    }
    if (AcceptWord("CURRENT")) {
      ExpectWord("ROW");
      b.kind = BoundKind::kCurrentRow;
      return b;
    }
    b.offset = ExprAt(kPrecAdd);
    if (AcceptWord("PRECEDING"))
      b.kind = BoundKind::kPreceding;
    else {
      ExpectWord("FOLLOWING");
      b.kind = BoundKind::kFollowing;
    }
    return b;
  }

  std::string_view src_;
  const Dialect& d_;
  std::vector<Token> t_;
  size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

namespace {
std::atomic<uint64_t> g_parse_count{0};  // ParseCount(); relaxed: a statistic, not a synchronisation point
}  // namespace

uint64_t ParseCount() { return g_parse_count.load(std::memory_order_relaxed); }

Result<std::vector<Statement>> ParseScript(std::string_view sql, const Dialect& dialect) {
  g_parse_count.fetch_add(1, std::memory_order_relaxed);
  auto tokens = Tokenize(sql, dialect);
  if (!tokens) return tokens.error();
  Parser p(sql, dialect, std::move(*tokens));
  try {
    return p.Script();
  } catch (const ParseFailure& f) {
    return SyntaxError(sql, f.offset, f.message);
  }
}

Result<Query> ParseQuery(std::string_view sql, const Dialect& dialect) {
  auto statements = ParseScript(sql, dialect);
  if (!statements) return statements.error();
  if (statements->empty()) return MakeError(ErrorCode::kInvalidArgument, "empty SQL statement");
  if (statements->size() > 1) {
    return MakeError(
        ErrorCode::kNotReadOnly,
        fmt::format("refused: the text holds {} statements; a single read-only query is allowed", statements->size()));
  }
  Statement& st = (*statements)[0];
  if (st.kind != StatementKind::kQuery) {
    return MakeError(ErrorCode::kNotReadOnly, fmt::format("refused: {} is not a read-only query ({} statement)",
                                                          st.keyword, StatementKindName(st.kind)));
  }
  if (st.query->body.kind == QueryBodyKind::kSelect && st.query->body.select.into) {
    return MakeError(ErrorCode::kNotReadOnly, "refused: SELECT ... INTO creates a table; it is not a read-only query");
  }
  return std::move(*st.query);
}

}  // namespace plainsql::sql
