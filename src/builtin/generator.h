// The built-in offline translator (builtin/translator.h) as a generator (generate/generator.h): no model, so it can
// answer when a model fails. Each candidate carries its syntax tree.
#pragma once

#include <memory>

#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"
#include "generate/generator.h"
#include "linking/subset_builtin.h"

namespace plainsql::builtin {

/// The translator for `conn`, whose native schema is `schema`: links the question to the names of the schema it is
/// given (native or natural, or a slice of either), matches stored values (native names only), and fails with the
/// reason when nothing links. Uses `resources` (the expander and WordNet; null: SharedLinkResources()) and builds the
/// value index on first use. `conn` and `schema` must outlive it.
Result<std::unique_ptr<generate::Generator>> MakeBuiltinGenerator(
    exec::Connection& conn, const catalog::Schema& schema,
    std::shared_ptr<const linking::LinkResources> resources = nullptr);

/// The naturalness data and WordNet the built-in translator and the built-in subsetter read, loaded once per process.
Result<std::shared_ptr<const linking::LinkResources>> SharedLinkResources();

}  // namespace plainsql::builtin
