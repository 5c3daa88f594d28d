// A feature vector: one value per feature of the catalog, in its order.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "features/catalog.h"

namespace plainsql::features {

/// Per feature of Catalog(): 1 (holds), 0 (does not), -1 (not computed: its schema or SQL was not at hand).
using Values = std::vector<int8_t>;

/// A vector of Catalog().size() values, all -1.
inline Values Unknown() { return Values(Catalog().size(), -1); }

/// Sets a feature by id. An id not in the catalog is a programmer error (asserted; ignored in release builds).
void Set(Values& values, std::string_view id, bool holds);

/// The value of a feature by id (-1 for an unknown id).
int8_t Get(const Values& values, std::string_view id);

}  // namespace plainsql::features
