// Join paths for the built-in translator: the tables a question needs, connected through the foreign-key graph by a
// small tree (each needed table joined to the tree by a shortest path of foreign keys, nearest first), with the
// intermediate tables a path passes through. Among shortest paths, the one with the most keys whose two columns name
// the same thing (EQ_ID = EQ_ID, PLNT_ID = plant_id) rather than a role ("Reported By" = technician_id).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/schema.h"

namespace plainsql::linking {

struct JoinEdge {
  std::string left_table, right_table;  // right_table is the one this edge adds to the tree
  std::vector<std::string> left_columns, right_columns;
};

struct JoinTree {
  std::string root;             // the first table
  std::vector<JoinEdge> edges;  // in join order: each adds its right_table
  std::vector<std::string> Tables() const;
};

/// A tree joining `tables` (names as in the schema, matched case-insensitively; duplicates ignored); nullopt when
/// some table cannot be reached through foreign keys, or is not in the schema.
std::optional<JoinTree> ConnectTables(const catalog::Schema& schema, const std::vector<std::string>& tables);

}  // namespace plainsql::linking
