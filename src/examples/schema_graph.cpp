// Schema -> labelled graph (see schema_graph.h).
#include "examples/schema_graph.h"

#include <algorithm>
#include <string>
#include <string_view>

namespace plainsql::examples {

namespace {

int TypeLabel(catalog::TypeClass type) {
  switch (type) {
    case catalog::TypeClass::kText: return kTextNode;
    case catalog::TypeClass::kNumeric: return kNumberNode;
    case catalog::TypeClass::kDatetime: return kTimeNode;
    case catalog::TypeClass::kBoolean: return kBooleanNode;
    case catalog::TypeClass::kOther: return kOtherNode;
  }
  return kOtherNode;
}

bool Contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Node numbers: tables first, then the columns of each table in order.
class NodeNumbers {
 public:
  explicit NodeNumbers(const catalog::Schema& schema) : schema_(schema) {
    first_column_.reserve(schema.tables.size());
    auto next = static_cast<uint32_t>(schema.tables.size());
    for (const auto& t : schema.tables) {
      first_column_.push_back(next);
      next += static_cast<uint32_t>(t.columns.size());
    }
    size_ = next;
  }

  uint32_t Size() const { return size_; }
  uint32_t Column(size_t table, size_t column) const { return first_column_[table] + static_cast<uint32_t>(column); }

  // The table's index, or -1 when the schema has no such table.
  int64_t FindTable(std::string_view name, std::string_view schema_name) const {
    const catalog::Table* t = schema_.FindTable(name, schema_name);
    return t ? t - schema_.tables.data() : -1;
  }

  // The column's node, or -1 when the table has no such column.
  int64_t FindColumn(size_t table, std::string_view name) const {
    const catalog::Table& t = schema_.tables[table];
    const catalog::Column* c = t.FindColumn(name);
    return c ? static_cast<int64_t>(Column(table, static_cast<size_t>(c - t.columns.data()))) : -1;
  }

 private:
  const catalog::Schema& schema_;
  std::vector<uint32_t> first_column_;
  uint32_t size_ = 0;
};

void AddEdge(SchemaGraph& g, int64_t a, int64_t b) {
  if (a < 0 || b < 0 || a == b) return;
  g.neighbours[static_cast<size_t>(a)].push_back(static_cast<uint32_t>(b));
  g.neighbours[static_cast<size_t>(b)].push_back(static_cast<uint32_t>(a));
}

// The edges one foreign key of table `t` adds.
void AddForeignKeyEdges(SchemaGraph& g, const NodeNumbers& nodes, const catalog::Schema& schema, size_t t,
                        const catalog::ForeignKey& fk) {
  const catalog::Table& table = schema.tables[t];
  int64_t ref = nodes.FindTable(fk.ref_table, fk.ref_schema.empty() ? std::string_view(table.schema) : fk.ref_schema);
  if (ref < 0) return;
  AddEdge(g, static_cast<int64_t>(t), ref);
  for (size_t i = 0; i < fk.columns.size() && i < fk.ref_columns.size(); ++i) {
    AddEdge(g, nodes.FindColumn(t, fk.columns[i]), nodes.FindColumn(static_cast<size_t>(ref), fk.ref_columns[i]));
  }
}

}  // namespace

SchemaGraph BuildSchemaGraph(const catalog::Schema& schema) {
  NodeNumbers nodes(schema);
  SchemaGraph g;
  g.labels.assign(nodes.Size(), kTableNode);
  g.neighbours.resize(nodes.Size());
  for (size_t t = 0; t < schema.tables.size(); ++t) {
    const catalog::Table& table = schema.tables[t];
    std::vector<std::string> fk_columns;
    for (const auto& fk : table.foreign_keys) fk_columns.insert(fk_columns.end(), fk.columns.begin(), fk.columns.end());
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const catalog::Column& column = table.columns[c];
      uint32_t node = nodes.Column(t, c);
      if (Contains(table.primary_key, column.name)) {
        g.labels[node] = kPrimaryKeyNode;
      } else if (Contains(fk_columns, column.name)) {
        g.labels[node] = kForeignKeyNode;
      } else {
        g.labels[node] = TypeLabel(column.type_class);
      }
      AddEdge(g, static_cast<int64_t>(t), node);
    }
    for (const auto& fk : table.foreign_keys) AddForeignKeyEdges(g, nodes, schema, t, fk);
  }
  for (auto& n : g.neighbours) {
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
  }
  return g;
}

}  // namespace plainsql::examples
