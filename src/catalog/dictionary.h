// Data dictionaries: what a database's columns hold, written down beside it by people (BIRD's
// `database_description/<table>.csv` files, a spreadsheet a DBA keeps). They fill the schema's comments and readable
// names where the database declares none, so that the linker, the prompts and the views read "region" for `A3`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"

namespace plainsql::catalog {

/// What a dictionary says of one column.
struct ColumnNote {
  std::string label;        // a readable name ("region" for A3); "" when it only repeats the column's name
  std::string description;  // what the column holds, then what its values mean, on one line
};

/// What a data dictionary describes: CSV files, read by their header's names (case and spaces ignored):
/// - a folder of one file per table, named after the table (BIRD's `database_description/`): `original_column_name`
///   (else `column` or `column_name`), then any of `column_name` (the readable name, when `original_column_name` is
///   there), `column_description` or `description`, `value_description` or `values`;
/// - or one file with a `table` (or `table_name`) field besides those: a row without a column describes its table.
/// Files that are not UTF-8 are read as Windows-1252 (spreadsheet exports). A description longer than
/// `kMaxDescriptionBytes` is cut at a character boundary: it goes into prompts.
class DataDictionary {
 public:
  static constexpr size_t kMaxDescriptionBytes = 600;

  /// Reads a folder or a file. Errors: kNotFound (no such path), kFormat (a file without a column field, or a folder
  /// without a CSV file), kIo.
  static Result<DataDictionary> Read(const std::string& path);

  /// Fills the empty comments and labels of the tables and columns the dictionary names (names compared without
  /// regard to case or surrounding spaces); declared comments are kept. Returns the number of columns it described.
  size_t Apply(Schema& schema) const;

  bool Empty() const { return columns_.empty() && tables_.empty(); }
  /// What the dictionary says of `table`.`column` (nullptr: nothing).
  const ColumnNote* Find(const std::string& table, const std::string& column) const;

 private:
  Status AddFile(const std::string& file, const std::string& table_from_name);

  std::map<std::string, std::map<std::string, ColumnNote>> columns_;  // lowercased table -> lowercased column -> note
  std::map<std::string, std::string> tables_;                         // lowercased table -> its description
};

/// BIRD's layout: the `database_description` folder beside a SQLite file, when there is one ("" otherwise).
std::string DataDictionaryBeside(const std::string& sqlite_file);

/// The same for an open connection: a SQLite database's file ("" for PostgreSQL).
std::string DataDictionaryBeside(const exec::Connection& conn);

/// Reads the dictionary at `path` (DataDictionary::Read) and applies it to `schema`: the number of columns described.
Result<size_t> ApplyDataDictionary(const std::string& path, Schema& schema);

/// BIRD's layout in a benchmark folder: `<db_dir>/<db_id>/database_description` ("" when absent).
std::string DataDictionaryIn(const std::string& db_dir, const std::string& db_id);

}  // namespace plainsql::catalog
