// A compact binary form of a Schema, for the snapshot cache: reading a 90,000-column schema's JSON builds a document
// tree of millions of nodes first (about a third of a question's time on such a schema), while this form is read in
// one pass straight into the Schema. FromBinary(ToBinary(s)) == s. Not an interchange format: the JSON form is
// (json_io.h); a file of another version is refused and the snapshot is simply made again.
#pragma once

#include <string>
#include <string_view>

#include "catalog/schema.h"
#include "common/status.h"

namespace plainsql::catalog {

/// Version of the binary layout (in its header); bump it with any change to Schema's fields.
inline constexpr uint32_t kSchemaBinaryVersion = 2;

std::string ToBinary(const Schema& schema);
/// kFormat for anything but a whole ToBinary of this version.
Result<Schema> FromBinary(std::string_view bytes);

}  // namespace plainsql::catalog
