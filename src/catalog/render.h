// Renderings of a schema: DDL per dialect and the prompt formats of the papers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "catalog/schema.h"
#include "sql/dialect.h"

namespace plainsql::catalog {

enum class SchemaFormat {
  kJson,          // the JSON snapshot (see json_io.h)
  kDdl,           // CREATE TABLE statements with keys, in a dialect
  kPromptSnails,  // SNAILS zero-shot: "# Table(col type, ...)" lines
  kPromptDdl,     // OmniSQL style: DDL with comments and sample values as "-- example: [...]"
  kList,          // compact "table: col1, col2, ..." lines
};

std::optional<SchemaFormat> SchemaFormatByName(std::string_view name);
std::string_view SchemaFormatName(SchemaFormat f);

/// DDL for every table (views as comments listing their columns), quoted for `dialect`. Declared types are kept when
/// the schema was read from the same engine; otherwise each column gets the dialect's type for its type class.
std::string RenderDdl(const Schema& schema, const sql::Dialect& dialect);
/// SNAILS-style zero-shot schema lines: "# table(col type, col type, ...)".
std::string RenderPromptSnails(const Schema& schema);
/// OmniSQL-style DDL: one CREATE TABLE per table, each column followed by a comment with its description and up to
/// `max_samples` sample values.
std::string RenderPromptDdl(const Schema& schema, const sql::Dialect& dialect, int max_samples = 3);
/// "table: col1, col2, ..." one line per table.
std::string RenderList(const Schema& schema);

/// Any format; kJson is pretty-printed.
std::string RenderSchema(const Schema& schema, SchemaFormat format, const sql::Dialect& dialect, int max_samples = 3);

}  // namespace plainsql::catalog
