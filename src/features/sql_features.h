// The SQL-syntax features of a query, read off its syntax tree, and the facts about it the other aspects need.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "features/values.h"
#include "sql/ast.h"

namespace plainsql::features {

/// What the semantic and database features need from the SQL besides its syntax features.
struct SqlFacts {
  /// Values the query compares with (operands of =, <>, <, >, <=, >=, LIKE, IN lists and BETWEEN), as written; LIKE
  /// patterns without their % and _ wildcards at the ends.
  std::set<std::string> compared_values;
  std::set<std::string> numbers;  // every number literal (a LIMIT's, OFFSET's and TOP's aside), as written
  /// Byte offsets of column references that are one side of an equality between two columns (a join condition, in ON
  /// or WHERE): a column read only there is a join key.
  std::set<uint32_t> join_key_offsets;
  bool max_or_min = false;  // calls MAX or MIN as an aggregate
};

/// Sets every kSqlSyntax feature of `values` from `query`, and returns the facts.
SqlFacts ReadSql(const sql::Query& query, Values& values);

}  // namespace plainsql::features
