// Crosswalks: native identifier <-> its Regular (N1), Low (N2) and Least (N3) forms, in the SNAILS CSV layout
// (native_identifier, table_or_column, source_database, N1_identifier, N2_identifier, N3_identifier), optionally
// with a seventh column `table` so that a column can map differently in two tables, and an eighth, `N1_alternatives`:
// other readings of a cryptic name, separated by '|', that `plainsql rename` was less sure of. They are not names (the
// schema is shown under N1): the built-in translator's linker matches a question against them too, below the name.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "sql/resolver.h"
#include "sql/rewrite/rename.h"

namespace plainsql::naturalness {

enum class Level { kNative, kRegular, kLow, kLeast };

/// The three naturalness levels, in LevelIndex order (the order of the classifier's probabilities).
inline constexpr std::array<Level, 3> kLevels = {Level::kRegular, Level::kLow, Level::kLeast};

std::optional<Level> LevelByName(std::string_view name);  // "Native", "Regular"/"N1", "Low"/"N2", "Least"/"N3"
/// An option's level (as LevelByName reads it), or an invalid-argument error naming `option` and the values it takes:
/// N1, N2 or N3, and native when `native_ok`.
Result<Level> ParseLevel(std::string_view name, std::string_view option = "--level", bool native_ok = false);
int LevelIndex(Level level);              // Regular 0, Low 1, Least 2 (Native counts as Regular)
std::string_view LevelCode(Level level);  // "N1", "N2", "N3"
std::string_view LevelName(Level level);  // "Regular", "Low", "Least"

struct CrosswalkEntry {
  std::string native;
  bool is_table = false;
  std::string database;
  std::string n1, n2, n3;
  std::string table;                      // for a column: the table it belongs to, "" = any table
  std::vector<std::string> alternatives;  // other readings of the name at N1, best first (see above)

  const std::string& At(Level level) const;
};

struct Crosswalk {
  std::vector<CrosswalkEntry> entries;

  /// The entry of a native table with a name at `level` (null when none).
  const CrosswalkEntry* TableEntry(const std::string& native_table, Level level) const;
  /// The entry of a native column of `native_table` with a name at `level`: its table's own entry first, then one for
  /// any table (null when none).
  const CrosswalkEntry* ColumnEntry(const std::string& native_table, const std::string& native_column,
                                    Level level) const;
  /// The name of a native table at `level` (the native name when the crosswalk has no entry).
  std::string TableName(const std::string& native_table, Level level) const;
  /// The name of a native column of `native_table` at `level`.
  std::string ColumnName(const std::string& native_table, const std::string& native_column, Level level) const;
};

/// Reads a crosswalk CSV. Errors name the file and line.
Result<Crosswalk> LoadCrosswalk(const std::string& path);

/// The crosswalk as a CSV file LoadCrosswalk reads back: the SNAILS header, plus a `table` column when any entry has
/// one.
std::string SerializeCrosswalk(const Crosswalk& crosswalk);
/// Writes SerializeCrosswalk to `path` atomically (WriteFileAtomically).
Status SaveCrosswalk(const Crosswalk& crosswalk, const std::string& path);

/// A problem found in a crosswalk. Errors make the crosswalk unusable for views and translation (two names would
/// become one); warnings make it awkward (a name that must be quoted).
struct CrosswalkIssue {
  bool error = false;
  std::string level;   // "N1", "N2", "N3" or "" (the entry itself)
  std::string native;  // the native identifier concerned (table, or table.column)
  std::string message;
};

/// Checks every level: empty names, duplicate entries, names that collide (two tables, or two columns of one table,
/// with the same name compared case-insensitively), reserved words, names that need quoting or exceed 63 bytes
/// (PostgreSQL's limit). With `native`, collisions are checked on the real schema (an entry without a table applies to
/// every table that has the column) and entries naming nothing in it are reported; without it, two columns with no
/// table that share a name are only a warning, since they may live in different tables.
std::vector<CrosswalkIssue> ValidateCrosswalk(const Crosswalk& crosswalk, const sql::NameCatalog* native = nullptr);

/// The crosswalk with every collision on `native` resolved: at each level, a table whose name an earlier table already
/// takes, or a column whose name an earlier column of its table takes (case ignored), gets the first free name of
/// name_2, name_3, ...; a column entry that applies to every table is copied for that table only. One warning per
/// renamed name. A crosswalk without collisions comes back unchanged (and no warnings).
Crosswalk ResolveCollisions(const Crosswalk& crosswalk, const sql::NameCatalog& native,
                            std::vector<std::string>* warnings = nullptr);

/// The schema as it looks at `level`: every table and column renamed through the crosswalk.
sql::NameCatalog NaturalCatalog(const sql::NameCatalog& native, const Crosswalk& crosswalk, Level level);

/// The mapping from the names at `level` back to the native names, for sql::RenameIdentifiers applied to a query
/// resolved against NaturalCatalog(native, crosswalk, level).
sql::RenameMap ToNativeMap(const sql::NameCatalog& native, const Crosswalk& crosswalk, Level level);

}  // namespace plainsql::naturalness
