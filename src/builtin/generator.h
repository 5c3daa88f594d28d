// The built-in offline translator (builtin/translator.h) as a generator (generate/generator.h): no model, so it can
// answer when a model fails. Each candidate carries its syntax tree.
#pragma once

#include <memory>

#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"
#include "generate/generator.h"

namespace plainsql::builtin {

/// The translator for `conn`, whose native schema is `schema`: links the question to the names of the schema it is
/// given (native or natural), matches stored values (native schema only), and fails with the reason when nothing
/// links. Loads the naturalness data (expander) now and builds the value index on first use; WordNet is read once per
/// process. `conn` and `schema` must outlive it.
Result<std::unique_ptr<generate::Generator>> MakeBuiltinGenerator(exec::Connection& conn,
                                                                  const catalog::Schema& schema);

}  // namespace plainsql::builtin
