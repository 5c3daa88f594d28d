// The linking stage's subset (see link_slice.h).
#include "pipeline/link_slice.h"

namespace plainsql::pipeline {

std::vector<std::string> SubsetEntries(const linking::Subset& subset) {
  std::vector<std::string> entries = subset.tables;
  entries.insert(entries.end(), subset.columns.begin(), subset.columns.end());
  return entries;
}

bool LinksSchema(const std::string& slice, size_t columns, size_t link_above) {
  return slice == "link" || (slice == "auto" && columns > link_above);
}

bool IsSliceName(const std::string& slice) {
  return slice == "full" || slice == "referenced" || slice == "link" || slice == "auto";
}

}  // namespace plainsql::pipeline
