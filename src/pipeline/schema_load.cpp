// The schema questions are answered on (see schema_load.h).
#include "pipeline/schema_load.h"

#include <fmt/format.h>

#include "catalog/dictionary.h"

namespace plainsql::pipeline {

Result<std::optional<linking::KeyInferenceMode>> AnswerKeyInference(std::string_view value) {
  if (value.empty()) return std::optional<linking::KeyInferenceMode>(linking::KeyInferenceMode::kIsolated);
  if (value == "none") return std::optional<linking::KeyInferenceMode>();
  if (auto mode = linking::KeyInferenceModeByName(value)) return std::optional<linking::KeyInferenceMode>(*mode);
  return MakeError(ErrorCode::kInvalidArgument,
                   fmt::format("key inference takes isolated (the default), add, replace or none, not '{}'", value));
}

Result<catalog::LoadedSchema> LoadSchemaForAnswers(exec::Connection& conn, const SchemaLoadOptions& options) {
  auto loaded = catalog::LoadSchema(conn, options.introspect, options.cache);
  if (!loaded) return loaded.error();
  if (options.infer_keys) {
    linking::InferKeysOptions ko;
    ko.mode = *options.infer_keys;
    if (Status st = linking::InferKeysCached(conn, *loaded, ko); !st.ok()) return st.error();
  }
  if (options.descriptions == "none") return loaded;
  const bool automatic = options.descriptions == "auto" || options.descriptions.empty();
  const std::string path = automatic ? catalog::DataDictionaryBeside(conn) : options.descriptions;
  if (path.empty()) return loaded;
  if (auto applied = catalog::ApplyDataDictionary(path, loaded->schema); !applied) {
    if (!automatic) return applied.error();
    loaded->warnings.push_back(fmt::format("data dictionary not read: {}", applied.error().message));
  }
  return loaded;
}

}  // namespace plainsql::pipeline
