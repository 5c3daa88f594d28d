// The access guard: what a query may touch. Allowlists, not denylists: a query may read only the relations of the
// schema plainsql introspected for the connection (plus its own CTEs and derived tables) and call only functions
// known to be pure and bounded, listed per dialect in src/sql/dialects/<dialect>_functions.txt. Everything else is
// refused before the database sees the query, with a message naming the relation or function and the setting that
// would allow it. The engines add a second wall (SQLite's authorizer applies the same policy; PostgreSQL runs the
// query in a read-only transaction with timeouts).
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/ast.h"
#include "sql/dialect.h"

namespace plainsql::exec {

/// Names a user allows beyond the defaults (plainsql.toml `[exec] allow_functions`, `allow_relations`), and the
/// schemas whose relations a PostgreSQL connection may read.
struct AccessOptions {
  std::vector<std::string> allow_functions;  // "name" (any schema the dialect resolves it in) or "schema.name"
  std::vector<std::string> allow_relations;  // "name" or "schema.name"; matched like the database matches names
  std::vector<std::string> schemas;          // PostgreSQL: only these schemas (empty: every user schema)
};

/// A relation the database holds, and whether queries may read it.
struct KnownRelation {
  std::string schema;  // PostgreSQL: its schema; SQLite: "main", "temp" or an attached name
  std::string name;
  bool allowed = false;
};

/// What the guard checks a query against: built by the connection from the database's own catalog.
struct AccessPolicy {
  const sql::Dialect* dialect = &sql::Sqlite();
  /// Every relation of the database, allowed or not, so that an unqualified name is resolved as the database would
  /// resolve it (a user table never hides a catalog table of the same name, and vice versa).
  std::vector<KnownRelation> relations;
  /// Schemas searched for an unqualified relation name, in the order the database searches them.
  std::vector<std::string> search_path;
  /// Allowed functions, lower case: the dialect's default list plus the user's; "schema.name" for qualified extras.
  std::set<std::string> functions;
  /// Relations the user allowed by name (lower case, "name" or "schema.name").
  std::set<std::string> extra_relations;

  /// Finds the relation a FROM-clause name denotes, or nullptr when the database holds no such relation.
  const KnownRelation* Lookup(const sql::QualifiedName& name) const;
  bool FunctionAllowed(const sql::QualifiedName& name) const;
  bool RelationAllowed(const KnownRelation& relation) const;
};

/// The functions a dialect allows by default (lower case), read from the list compiled into the library.
const std::set<std::string>& DefaultAllowedFunctions(const sql::Dialect& dialect);

/// Adds the user's allowed functions and relations to a policy.
void ApplyAccessOptions(AccessPolicy& policy, const AccessOptions& options);

/// Checks every FROM-clause relation and every function call of a parsed query against the policy. The first name
/// that is not allowed is refused with ErrorCode::kNotAllowed and a message naming it and the setting to change.
/// `unknown_relation`, when given, tells whether the refusal was a name the policy does not know at all (a relation
/// created after the policy was read, or one that does not exist).
struct AccessedNames;
Status CheckAccess(const sql::Query& query, const AccessPolicy& policy, bool* unknown_relation = nullptr,
                   AccessedNames* names = nullptr);

/// Every relation (as written, joined with '.') and function (lower case) a query names outside its own CTEs: what
/// the guard decided on. Used by tests and the fuzzer to check the guard's view.
struct AccessedNames {
  std::vector<sql::QualifiedName> relations;
  std::vector<sql::QualifiedName> functions;
  std::vector<std::string> ctes;  // every CTE name the query defines, folded as the dialect folds it
};
AccessedNames CollectAccessedNames(const sql::Query& query, const sql::Dialect& dialect);

}  // namespace plainsql::exec
