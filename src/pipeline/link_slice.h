// The linking stage's subset (ask --slice link, issue #18): a schema too large to send whole is cut to the tables and
// columns a subsetter (linking/subset.h) keeps for the question, with the keys that join them (catalog/restrict.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "linking/subset.h"

namespace plainsql::pipeline {

/// The entries catalog::RestrictSchema reads for `subset`: its tables ("t") and its columns ("t.c").
std::vector<std::string> SubsetEntries(const linking::Subset& subset);

/// Whether `slice` ("full", "referenced", "link", "auto") links a schema of `columns` columns: "link" always, "auto"
/// above `link_above` columns.
bool LinksSchema(const std::string& slice, size_t columns, size_t link_above);

/// Whether `slice` is one of "full", "referenced", "link", "auto".
bool IsSliceName(const std::string& slice);

}  // namespace plainsql::pipeline
