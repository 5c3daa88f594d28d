// What a view's columns read: the base column each one shows as it is stored, from the view's definition (parsed and
// resolved by the SQL front end). A view's column names are often the readable names of cryptic base columns
// (`open_orders.equipment` shows `TB_EQUIP.EQ_DESC`), which the linker reads as those columns' other names.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "catalog/schema.h"

namespace plainsql::catalog {

/// (view, view column) -> (table, column) for every view column that is a plain reference to one column of another
/// relation of `schema` (not an expression, an aggregate or a star). Views whose definition is missing or does not
/// parse as a single query are left out. Names are spelled as in `schema`.
using ViewSourceMap = std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>>;
ViewSourceMap ViewSources(const Schema& schema);

}  // namespace plainsql::catalog
