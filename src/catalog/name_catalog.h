// The names of a catalog schema in the form the SQL resolver reads (sql::NameCatalog).
#pragma once

#include "catalog/schema.h"
#include "exec/guard.h"
#include "sql/resolver.h"

namespace plainsql::catalog {

sql::NameCatalog ToNameCatalog(const Schema& schema);

/// The access policy of a schema read without a connection (a tables.json entry): every table and view allowed, the
/// dialect's default functions. Tables without a namespace are placed in the dialect's default one ("main" for
/// SQLite, "public" for PostgreSQL), searched as the engine would search it. What `Connection::Query` would check,
/// for benchmarks whose databases are not at hand.
exec::AccessPolicy AccessPolicyFor(const Schema& schema, const sql::Dialect& dialect);

}  // namespace plainsql::catalog
