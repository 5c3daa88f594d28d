// Deploying natural views: the one write plainsql makes. It creates and drops views (and, on PostgreSQL, the schema
// that holds them; on SQLite, optionally a companion database file), in one transaction, and never touches tables or
// data. Both directions are idempotent: applying again replaces plainsql's views, dropping again does nothing.
#pragma once

#include <string>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"
#include "views/views.h"

namespace plainsql::views {

struct DeployReport {
  std::string where;               // the database file, companion file or PostgreSQL schema
  int created = 0;                 // views created
  int dropped = 0;                 // plainsql views dropped first (apply) or at all (drop)
  std::vector<std::string> as_is;  // SQLite in the database: tables that need no view (same name and columns)
};

/// Deploys the plan's views. `conn` names the native database (SQLite file or PostgreSQL URL); for SQLite,
/// `companion` is "" to deploy into the database file itself, or the path of a companion database to create or
/// replace. Views that would take the name of a table or of a view that is not plainsql's are refused, all of them
/// listed, before anything changes. Every view is queried once after creation; any failure rolls everything back.
Result<DeployReport> ApplyViews(const std::string& conn, const ViewPlan& plan, const catalog::Schema& schema,
                                const std::string& companion = "");

/// ApplyViews on PostgreSQL through a write session the caller opened (the extension's, inside the server): the
/// same checks and statements; the caller commits, or rolls back on an error.
Result<DeployReport> ApplyViewsOn(exec::WriteSession& session, const ViewPlan& plan, const catalog::Schema& schema);

/// Removes plainsql's views: on SQLite those whose SQL carries kMarker (or the companion file, after checking that
/// it is one); on PostgreSQL those in `schema_name` whose comment starts with kMarker, then the schema itself if
/// plainsql created it and it is empty.
Result<DeployReport> DropViews(const std::string& conn, const std::string& schema_name = "db_nl",
                               const std::string& companion = "");

/// The names of plainsql's views in a SQLite database (found by kMarker in their SQL), through a read-only
/// connection. Empty for PostgreSQL, where plainsql's views are recognised by their comment and schema.
Result<std::vector<std::string>> DeployedViewNames(exec::Connection& conn);

/// `schema` without the relations named in `names` (case-insensitive), for planning views over a database that
/// already holds some.
catalog::Schema WithoutRelations(const catalog::Schema& schema, const std::vector<std::string>& names);

}  // namespace plainsql::views
