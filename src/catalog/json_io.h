// The JSON form of a Schema. ToJson then FromJson gives back an equal Schema.
#pragma once

#include <nlohmann/json.hpp>

#include "catalog/schema.h"
#include "common/status.h"

namespace plainsql::catalog {

/// Version of the JSON layout; FromJson refuses other versions.
inline constexpr int kSchemaJsonVersion = 1;

nlohmann::json ToJson(const Schema& schema);
Result<Schema> FromJson(const nlohmann::json& j);

}  // namespace plainsql::catalog
