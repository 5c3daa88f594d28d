// The schema questions are answered on (see schema_load.h).
#include "pipeline/schema_load.h"

#include <fmt/format.h>

#include "catalog/dictionary.h"

namespace plainsql::pipeline {

Status ApplyDescriptions(catalog::Schema& schema, const std::string& descriptions, const std::string& beside,
                         std::vector<std::string>& warnings) {
  if (descriptions == "none") return Status::Ok();
  const bool automatic = descriptions == "auto" || descriptions.empty();
  const std::string& path = automatic ? beside : descriptions;
  if (path.empty()) return Status::Ok();
  if (auto applied = catalog::ApplyDataDictionary(path, schema); !applied) {
    if (!automatic) return applied.error();
    warnings.push_back(fmt::format("data dictionary not read: {}", applied.error().message));
  }
  return Status::Ok();
}

Result<std::optional<linking::KeyInferenceMode>> AnswerKeyInference(std::string_view value) {
  if (value.empty()) return SchemaLoadOptions().infer_keys;
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
  const std::string beside = options.descriptions == "none" ? "" : catalog::DataDictionaryBeside(conn);
  if (Status st = ApplyDescriptions(loaded->schema, options.descriptions, beside, loaded->warnings); !st.ok()) {
    return st.error();
  }
  return loaded;
}

}  // namespace plainsql::pipeline
