// The access guard (see guard.h): allowlists of relations and functions, checked over the syntax tree with the scoping
// rules of common table expressions, so that a CTE's name can never hide a catalog table from the check.
#include "exec/guard.h"

#include <fmt/format.h>

#include <map>
#include <optional>

#include "common/strings.h"

namespace plainsql::exec {

namespace internal {
extern const std::string_view kSqliteFunctionsText;
extern const std::string_view kPostgresFunctionsText;
}  // namespace internal

namespace {

std::set<std::string> ParseList(std::string_view text) {
  std::set<std::string> out;
  for (const std::string& raw : Split(text, '\n')) {
    std::string_view line = Trim(raw);
    if (line.empty() || line.front() == '#') continue;
    out.insert(ToLower(line));
  }
  return out;
}

bool FoldsToLower(const sql::Dialect& d) { return d.folding == sql::CaseFolding::kLower; }

// The name the database looks up: PostgreSQL folds unquoted names to lower case and keeps quoted ones; the other
// engines compare names case-insensitively, so both sides are compared in lower case.
std::string Folded(const sql::Identifier& id, const sql::Dialect& d) {
  if (FoldsToLower(d)) return id.quote ? id.name : ToLower(id.name);
  return ToLower(id.name);
}

std::string Key(std::string_view name, const sql::Dialect& d) {
  return FoldsToLower(d) ? std::string(name) : ToLower(name);
}

std::string Written(const sql::QualifiedName& n) {
  std::vector<std::string> parts;
  for (const auto& p : n.parts) parts.push_back(p.name);
  return Join(parts, ".");
}

std::string_view EngineName(const sql::Dialect& d) { return FoldsToLower(d) ? "PostgreSQL" : "SQLite"; }

}  // namespace

const std::set<std::string>& DefaultAllowedFunctions(const sql::Dialect& dialect) {
  static const std::set<std::string> kSqlite = ParseList(internal::kSqliteFunctionsText);
  static const std::set<std::string> kPostgres = ParseList(internal::kPostgresFunctionsText);
  static const std::set<std::string> kNone;
  if (&dialect == &sql::Sqlite()) return kSqlite;
  if (&dialect == &sql::Postgres()) return kPostgres;
  return kNone;
}

void ApplyAccessOptions(AccessPolicy& policy, const AccessOptions& options) {
  for (const std::string& f : options.allow_functions) policy.functions.insert(ToLower(Trim(f)));
  for (const std::string& r : options.allow_relations) policy.extra_relations.insert(ToLower(Trim(r)));
}

const KnownRelation* AccessPolicy::Lookup(const sql::QualifiedName& name) const {
  const sql::Dialect& d = *dialect;
  if (name.parts.empty() || name.parts.size() > 2) return nullptr;
  std::string table = Folded(name.last(), d);
  auto find_in = [&](std::string_view schema) -> const KnownRelation* {
    for (const KnownRelation& r : relations) {
      if (Key(r.schema, d) == schema && Key(r.name, d) == table) return &r;
    }
    return nullptr;
  };
  if (name.parts.size() == 2) return find_in(Folded(name.parts[0], d));
  for (const std::string& schema : search_path) {
    if (const KnownRelation* r = find_in(Key(schema, d))) return r;
  }
  return nullptr;
}

bool AccessPolicy::RelationAllowed(const KnownRelation& relation) const {
  if (relation.allowed) return true;
  return extra_relations.count(ToLower(relation.name)) > 0 ||
         extra_relations.count(ToLower(relation.schema + "." + relation.name)) > 0;
}

bool AccessPolicy::FunctionAllowed(const sql::QualifiedName& name) const {
  const sql::Dialect& d = *dialect;
  if (name.parts.empty() || name.parts.size() > 2) return false;
  std::string fn = Folded(name.last(), d);
  if (name.parts.size() == 2) {
    std::string schema = Folded(name.parts[0], d);
    // Built-ins live in pg_catalog; a name qualified with it is the same built-in. Any other schema must be allowed
    // by its qualified name.
    if (FoldsToLower(d) && schema == "pg_catalog" && functions.count(fn)) return true;
    return functions.count(schema + "." + fn) > 0;
  }
  return functions.count(fn) > 0;
}

namespace {

// Walks a query with the CTE names in scope at each point. Non-recursive WITH: a CTE sees only the CTEs before it;
// WITH RECURSIVE: every CTE of its list. A name that is not a CTE in scope is a relation of the database.
class AccessWalk {
 public:
  AccessWalk(const sql::Dialect& d, AccessedNames& out) : d_(d), out_(out) {}

  void QueryNode(const sql::Query& q) {
    size_t mark = scope_.size();
    if (q.recursive) {
      for (const sql::Cte& c : q.with) scope_.push_back(Folded(c.name, d_));
      for (const sql::Cte& c : q.with) out_.ctes.push_back(Folded(c.name, d_));
      for (const sql::Cte& c : q.with) QueryNode(*c.query);
    } else {
      for (const sql::Cte& c : q.with) {
        QueryNode(*c.query);
        scope_.push_back(Folded(c.name, d_));
        out_.ctes.push_back(scope_.back());
      }
    }
    Body(q.body);
    for (const sql::OrderItem& o : q.order_by) ExprNode(o.expr);
    if (q.limit) ExprNode(*q.limit);
    if (q.offset) ExprNode(*q.offset);
    scope_.resize(mark);
  }

 private:
  bool InScope(const sql::QualifiedName& name) const {
    if (name.parts.size() != 1) return false;
    std::string n = Folded(name.last(), d_);
    for (const std::string& s : scope_) {
      if (s == n) return true;
    }
    return false;
  }

  void Body(const sql::QueryBody& b) {
    switch (b.kind) {
      case sql::QueryBodyKind::kSelect: SelectNode(b.select); break;
      case sql::QueryBodyKind::kSetOp:
        Body(*b.left);
        Body(*b.right);
        break;
      case sql::QueryBodyKind::kValues:
        for (const auto& row : b.rows) {
          for (const sql::Expr& e : row) ExprNode(e);
        }
        break;
      case sql::QueryBodyKind::kParenthesized: QueryNode(*b.inner); break;
    }
  }

  void SelectNode(const sql::Select& s) {
    if (s.top) ExprNode(*s.top);
    for (const sql::Expr& e : s.distinct_on) ExprNode(e);
    for (const sql::SelectItem& item : s.items) ExprNode(item.expr);
    if (s.from) Table(*s.from);
    if (s.where) ExprNode(*s.where);
    for (const sql::Expr& e : s.group_by) ExprNode(e);
    if (s.having) ExprNode(*s.having);
    for (const auto& [name, w] : s.windows) Window(w);
  }

  void Table(const sql::TableRef& t) {
    switch (t.kind) {
      case sql::TableRefKind::kTable:
        if (!InScope(t.name)) out_.relations.push_back(t.name);
        break;
      case sql::TableRefKind::kSubquery:
      case sql::TableRefKind::kValues: QueryNode(*t.query); break;
      case sql::TableRefKind::kFunction: ExprNode(*t.function); break;
      case sql::TableRefKind::kJoin:
        Table(*t.left);
        Table(*t.right);
        if (t.join.on) ExprNode(*t.join.on);
        break;
    }
  }

  void Window(const sql::WindowSpec& w) {
    for (const sql::Expr& e : w.partition_by) ExprNode(e);
    for (const sql::OrderItem& o : w.order_by) ExprNode(o.expr);
    if (w.frame) {
      if (w.frame->start.offset) ExprNode(*w.frame->start.offset);
      if (w.frame->end && w.frame->end->offset) ExprNode(*w.frame->end->offset);
    }
  }

  void ExprNode(const sql::Expr& e) {
    if (e.kind == sql::ExprKind::kFunction) out_.functions.push_back(e.name);
    if (e.kind == sql::ExprKind::kLike && e.op != "LIKE" && e.op != "ILIKE" && e.op != "GLOB") {
      // REGEXP, RLIKE and MATCH call a function of that name; SIMILAR TO is a built-in operator of PostgreSQL.
      if (e.op != "SIMILAR TO")
        out_.functions.push_back(sql::QualifiedName{{sql::Identifier{ToLower(e.op), 0, e.offset}}});
    }
    for (const sql::Expr& a : e.args) ExprNode(a);
    if (e.query) QueryNode(*e.query);
    if (e.filter) ExprNode(*e.filter);
    if (e.over) Window(*e.over);
    for (const sql::OrderItem& o : e.within_group) ExprNode(o.expr);
    for (const sql::OrderItem& o : e.arg_order) ExprNode(o.expr);
  }

  const sql::Dialect& d_;
  AccessedNames& out_;
  std::vector<std::string> scope_;
};

}  // namespace

AccessedNames CollectAccessedNames(const sql::Query& query, const sql::Dialect& dialect) {
  AccessedNames out;
  AccessWalk(dialect, out).QueryNode(query);
  return out;
}

Status CheckAccess(const sql::Query& query, const AccessPolicy& policy, bool* unknown_relation,
                   AccessedNames* names_out) {
  if (unknown_relation) *unknown_relation = false;
  const sql::Dialect& d = *policy.dialect;
  AccessedNames local;
  AccessedNames& names = names_out ? *names_out : local;
  names = CollectAccessedNames(query, d);
  for (const sql::QualifiedName& f : names.functions) {
    if (policy.FunctionAllowed(f)) continue;
    std::string written = Written(f);
    return MakeError(ErrorCode::kNotAllowed,
                     fmt::format("refused: function {}() is not on plainsql's list of allowed {} functions; to allow "
                                 "it, add \"{}\" to allow_functions in the [exec] section of plainsql.toml",
                                 written, EngineName(d), ToLower(written)));
  }
  for (const sql::QualifiedName& r : names.relations) {
    std::string written = Written(r);
    const KnownRelation* known = policy.Lookup(r);
    if (!known) {
      if (unknown_relation) *unknown_relation = true;
      return MakeError(ErrorCode::kNotAllowed,
                       fmt::format("refused: unknown relation {}: it is not a table or view of the schema plainsql "
                                   "read for this connection",
                                   written));
    }
    if (policy.RelationAllowed(*known)) continue;
    std::string qualified = known->schema + "." + known->name;
    return MakeError(ErrorCode::kNotAllowed,
                     fmt::format("refused: relation {} ({}) is not part of the schema plainsql read for this "
                                 "connection; to allow it, add \"{}\" to allow_relations in the [exec] section of "
                                 "plainsql.toml",
                                 written, qualified, qualified));
  }
  return Status::Ok();
}

}  // namespace plainsql::exec
