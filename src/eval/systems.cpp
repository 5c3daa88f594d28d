// Systems for eval run (see systems.h).
#include "eval/systems.h"

#include <fmt/format.h>

#include "catalog/introspect.h"
#include "llm/generator.h"

namespace plainsql::eval {

Result<std::unique_ptr<PipelineSystem>> PipelineSystem::Create(const pipeline::PipelineConfig& config,
                                                               std::string db_dir, bool builtin) {
  if (db_dir.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, "a pipeline system needs the databases (--db-dir) to run queries");
  }
  std::unique_ptr<PipelineSystem> s(new PipelineSystem());
  s->config_ = config;
  s->db_dir_ = std::move(db_dir);
  // A measured system answers on its own: no fallback to another generator.
  s->config_.options.fallback = false;
  if (builtin) {
    s->config_.llm.base_url = "none";  // pipeline::MakeGenerators: the built-in translator only
    return s;
  }
  if (config.llm.base_url.empty() || config.llm.model.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "the pipeline has no generator: set [llm] url and model in plainsql.toml, or PLAINSQL_LLM_URL "
                     "and PLAINSQL_LLM_MODEL (or measure the built-in translator)");
  }
  // The model's configuration is checked now, before any question (the generators are built per database).
  if (auto g = llm::MakeLlmGenerator(config.llm, config.style); !g) return g.error();
  return s;
}

Result<SystemAnswer> PipelineSystem::Answer(const Question& q) {
  auto it = dbs_.find(q.db_id);
  if (it == dbs_.end()) {
    Db db;
    std::string path = SqliteDatabasePath(db_dir_, q.db_id);
    if (path.empty()) {
      SystemAnswer missing;
      missing.error = "no database file for " + q.db_id;
      missing.code = ErrorCode::kNotFound;
      return missing;
    }
    auto conn = exec::Connect(path);
    if (!conn) return conn.error();
    catalog::IntrospectOptions io;
    io.samples = 3;
    auto schema = catalog::Introspect(**conn, io);
    if (!schema) return schema.error();
    db.conn = std::move(*conn);
    db.schema = std::make_unique<catalog::Schema>(std::move(*schema));
    auto generators = pipeline::MakeGenerators(config_, *db.conn, *db.schema);
    if (!generators) return generators.error();
    db.generators = std::move(*generators);
    it = dbs_.emplace(q.db_id, std::move(db)).first;
  }
  pipeline::Options options = it->second.generators.With(config_.options);
  options.evidence = q.evidence;
  auto answer = pipeline::Ask(*it->second.conn, *it->second.schema, it->second.generators.active, q.question, options);
  SystemAnswer out;
  if (!answer) {
    out.error = answer.error().message;
    out.code = answer.error().code;
    return out;
  }
  out.sql = answer->sql;
  for (const auto& st : answer->trace) {
    out.stages.push_back({st.stage, st.ms, st.prompt_tokens, st.completion_tokens});
  }
  return out;
}

std::string PipelineSystemSpec(const pipeline::PipelineConfig& config) {
  return "pipeline:" + pipeline::ConfigToJson(config).dump();
}

Result<pipeline::PipelineConfig> PipelineConfigFromSpec(const std::string& spec) {
  if (!spec.starts_with("pipeline:{")) {
    return MakeError(ErrorCode::kFormat, fmt::format("'{}' is not a stored pipeline configuration", spec));
  }
  auto j = nlohmann::json::parse(spec.substr(9), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return MakeError(ErrorCode::kFormat, "the run's stored pipeline configuration is not JSON");
  auto c = pipeline::ConfigFromJson(j);
  if (!c) return c.error();
  c->llm = llm::ConfigFromEnvironment(c->llm);
  // The stored URL and model win over the environment: a resumed run asks the same model.
  c->llm.base_url = j["llm"].value("url", c->llm.base_url);
  c->llm.model = j["llm"].value("model", c->llm.model);
  return c;
}

std::string SystemLabel(const std::string& system) {
  auto c = PipelineConfigFromSpec(system);
  if (!c) return system;
  return fmt::format("pipeline {} ({}, k={})", c->llm.model, c->style, c->options.candidates);
}

}  // namespace plainsql::eval
