// Fingerprints of query results, so that candidates can be bucketed by what they return (execution voting) and
// results compared cheaply. Column names do not count; values do. An integral real equals the same integer
// (1.0 == 1, as Python compares them in the Spider evaluator); text and blobs compare byte-wise.
#pragma once

#include <string>

#include "exec/value.h"

namespace plainsql::exec {

/// A value as a comparable string: equal keys for values that compare equal (an integral real and the same integer,
/// as Python compares them), different keys for different types otherwise.
std::string ValueKey(const Value& v);

/// Rows in order: two results match when they hold the same rows in the same order.
std::string OrderedFingerprint(const ResultSet& rs);
/// Rows as a multiset: the same rows with the same multiplicities, in any order.
std::string MultisetFingerprint(const ResultSet& rs);

}  // namespace plainsql::exec
