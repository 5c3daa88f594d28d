// A database's schema as a small labelled graph (issue #17 item 4), the input of the Wasserstein Weisfeiler-Lehman
// distance (wwl.h) that NATURAL's example selection uses to prefer examples from databases built like the one asked.
#pragma once

#include <cstdint>
#include <vector>

#include "catalog/schema.h"

namespace plainsql::examples {

/// Initial node labels. Label 2 is unused, as in the definition the thesis gives (it numbers the kinds of node).
inline constexpr int kTableNode = 1;
inline constexpr int kPrimaryKeyNode = 3;  // a column of its table's primary key
inline constexpr int kForeignKeyNode = 4;  // a referencing column of one of its table's foreign keys, not in the PK
inline constexpr int kTextNode = 5;        // any other column, by catalog::TypeClass: kText
inline constexpr int kNumberNode = 6;      // kNumeric
inline constexpr int kTimeNode = 7;        // kDatetime
inline constexpr int kBooleanNode = 8;     // kBoolean
inline constexpr int kOtherNode = 9;       // kOther

/// An undirected simple graph: no self loops, no duplicate edges. Node i has label labels[i] and the nodes
/// neighbours[i] (ascending, each edge listed at both ends).
struct SchemaGraph {
  std::vector<int> labels;
  std::vector<std::vector<uint32_t>> neighbours;
};

/// The schema graph: one node per table (in schema order), then one per column (table by table, in column order).
/// Edges: each table to each of its columns; each referencing column of a foreign key to the column it references
/// (every column pair of every key); and two different tables when a foreign key of one references the other. Names
/// resolve as Schema::FindTable and Table::FindColumn do. A referenced table that is not in `schema` (a namespace that
/// was not read) or a column it lacks adds no edge, but the referencing columns keep the label kForeignKeyNode.
SchemaGraph BuildSchemaGraph(const catalog::Schema& schema);

}  // namespace plainsql::examples
