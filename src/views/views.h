// Natural views: one view per native table with every table and column renamed through a crosswalk (conceptual
// views), optionally extended with the columns reached through each foreign key (partially extended views), as DDL
// per dialect. Deploying them is in deploy.h; translating SQL without views is in middleware.h.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "naturalness/crosswalk.h"
#include "sql/dialect.h"

namespace plainsql::views {

/// Where the views go: the dialect of their DDL, whose fields (view_placement, create_schema, comment_statements,
/// batch_end, folding) decide its form, and whether they go in a companion database.
struct Target {
  const sql::Dialect* dialect = nullptr;
  bool companion = false;  // a companion database that attaches the original as `native` and creates TEMP views
                           // (a kBesideTables dialect: SQLite)

  bool operator==(const Target& other) const = default;

  // The targets plainsql deploys to or prints.
  static const Target kSqlite;           // in the database file itself, next to the tables (names must not collide)
  static const Target kSqliteCompanion;  // SQLite, in a companion database
  static const Target kPostgres;         // in their own schema (db_nl), comments carried over
  static const Target kTSql;             // SQL Server, as text only
};

/// The target for DDL in `dialect` (`companion`: in a companion database). Fails for a dialect plainsql writes no
/// views for (view_placement kNone), and for a companion database on a dialect whose views do not sit beside the
/// tables.
Result<Target> TargetFor(const sql::Dialect& dialect, bool companion = false);

/// The text that marks a view as plainsql's: in the SQLite view's SQL, and at the start of the PostgreSQL comment.
inline constexpr std::string_view kMarker = "plainsql natural view";
/// The attached name of the original database inside a companion database.
inline constexpr std::string_view kCompanionAlias = "native";

struct ViewOptions {
  naturalness::Level level = naturalness::Level::kRegular;
  bool extended = false;              // add the columns reached through each foreign key
  std::string schema_name = "db_nl";  // PostgreSQL and T-SQL: the schema that holds the views
};

/// A column of a view: `column` of the base table (source 0) or of the table of join `source` (1-based).
struct ViewColumn {
  std::string name;
  size_t source = 0;
  std::string column;
  std::string comment;
};

/// A foreign key followed by an extended view: LEFT JOIN `table` ON each (base column = referenced column).
struct ViewJoin {
  size_t table = 0;  // index into Schema::tables
  std::vector<std::pair<std::string, std::string>> on;
  std::string path;  // the prefix of the columns it adds
};

struct View {
  std::string name;
  size_t table = 0;  // index into Schema::tables: the native table or view it renames
  std::vector<ViewJoin> joins;
  std::vector<ViewColumn> columns;
  std::string comment;  // the native table's comment
};

struct ViewPlan {
  ViewOptions options;
  std::vector<View> views;
  std::vector<std::string> notes;  // foreign keys an extended view does not follow, and why
};

/// The views for every table and view of `schema` (except plainsql's own views, found by kMarker in a PostgreSQL
/// comment or by living in the views' namespace). Fails when the crosswalk has errors for this schema (two names
/// would become one, an empty name).
Result<ViewPlan> PlanViews(const catalog::Schema& schema, const naturalness::Crosswalk& crosswalk,
                           const ViewOptions& options);

/// How `name` is written in the views' DDL for `target`. Where the dialect folds unquoted names (PostgreSQL: to lower
/// case) names are folded the same way (and quoted only when they must be), so that queries written with the natural
/// names unquoted, in any case, find them as they find the tables, and so that a name that must be quoted is spelled as
/// plainsql's printer spells it.
std::string ViewIdentifier(Target target, std::string_view name);

/// The dialect of `target`.
const sql::Dialect& TargetDialect(Target target);

/// The view's SELECT (no CREATE), as stored in a companion database or printed after AS.
std::string ViewSelect(const ViewPlan& plan, const View& view, const catalog::Schema& schema, Target target);

/// The DDL that creates every view of the plan on `target`, one statement per view plus comments (PostgreSQL) and
/// the schema (PostgreSQL, T-SQL); T-SQL batches are separated by GO. Statements end with ";\n".
std::vector<std::string> CreateStatements(const ViewPlan& plan, const catalog::Schema& schema, Target target);

/// CreateStatements as one script.
std::string CreateScript(const ViewPlan& plan, const catalog::Schema& schema, Target target);

/// A constraint of a view, carried over from its native table: the primary key, a foreign key to another view of the
/// plan (`ref_view`, `ref_columns`), a unique key, or a column that is NOT NULL. A view declares none of its own; a
/// companion database stores these so that a connection to it shows the views with the native keys (join paths, key
/// columns) and nullability under their natural names.
struct ViewKey {
  enum class Kind { kPrimary, kForeign, kUnique, kNotNull };
  std::string view;
  Kind kind = Kind::kPrimary;
  std::vector<std::string> columns;
  std::string ref_view;
  std::vector<std::string> ref_columns;
};
/// "primary", "foreign", "unique", "not_null", as a companion stores them (catalog/introspect_sqlite.cpp reads these
/// names: the catalog sits below views and cannot call back).
std::string_view ViewKeyKindName(ViewKey::Kind kind);

/// Every constraint of the native tables whose columns (and, for a foreign key, referenced table and columns) all have
/// a plain column in the plan's views (an extended view's joined columns carry none), under the views' names.
std::vector<ViewKey> ViewKeys(const ViewPlan& plan, const catalog::Schema& schema);

/// Whether a native table needs no view on SQLite: the view would have the table's own name and columns.
bool ViewIsIdentity(const View& view, const catalog::Schema& schema);

}  // namespace plainsql::views
