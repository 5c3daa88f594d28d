// Systems for eval run (see systems.h).
#include "eval/systems.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <system_error>

#include "catalog/dictionary.h"
#include "catalog/introspect.h"
#include "catalog/name_catalog.h"
#include "catalog/restrict.h"
#include "llm/generator.h"
#include "naturalness/translate_query.h"
#include "retrieval/value_index.h"
#include "views/deploy.h"

namespace plainsql::eval {

std::vector<std::string> Configurations() { return {"baseline", "zero-shot", "train", "ground"}; }

Status ApplyConfiguration(pipeline::PipelineConfig& config, const std::string& name, const std::string& store) {
  if (name.empty()) {
    if (!store.empty()) config.examples.store = store;
    return Status::Ok();
  }
  auto known = Configurations();
  if (std::find(known.begin(), known.end(), name) == known.end()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("unknown --configuration '{}': baseline, zero-shot, train or ground", name));
  }
  bool with_examples = name == "train" || name == "ground";
  if (with_examples && store.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("the {} configuration needs --examples STORE ({})", name,
                                 name == "train" ? "a store built from another split, e.g. Spider train"
                                                 : "a store built from this benchmark's own questions"));
  }
  if (!with_examples && !store.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("the {} configuration uses no examples", name));
  }
  pipeline::Options& o = config.options;
  if (name == "baseline") {
    o.candidates = 1;
    o.draft = false;
    o.refine = false;
    o.vote = false;
    o.slice = "full";
  } else {
    o.draft = true;  // the zero-shot answer the examples are selected with (NATURAL's z)
  }
  config.examples.store = store;
  config.examples.configuration = name;
  return Status::Ok();
}

Result<std::unique_ptr<PipelineSystem>> PipelineSystem::Create(const pipeline::PipelineConfig& config,
                                                               std::string db_dir, bool builtin,
                                                               std::shared_ptr<const examples::ExampleLibrary> examples,
                                                               std::optional<linking::KeyInferenceMode> infer_keys) {
  if (db_dir.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, "a pipeline system needs the databases (--db-dir) to run queries");
  }
  std::unique_ptr<PipelineSystem> s(new PipelineSystem());
  s->config_ = config;
  s->db_dir_ = std::move(db_dir);
  s->examples_ = std::move(examples);
  s->infer_keys_ = infer_keys;
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

Result<PipelineSystem::Db*> PipelineSystem::Database(const std::string& db_id) {
  if (auto it = dbs_.find(db_id); it != dbs_.end()) return &it->second;
  Db db;
  std::string path = SqliteDatabasePath(db_dir_, db_id);
  if (path.empty()) return nullptr;
  auto conn = exec::Connect(path);
  if (!conn) return conn.error();
  catalog::IntrospectOptions io;
  io.samples = 3;
  auto schema = catalog::Introspect(**conn, io);
  if (!schema) return schema.error();
  // A data dictionary beside the database (BIRD's database_description) is shown to the model as a user's would be.
  if (std::string dir = catalog::DataDictionaryBeside(path); !dir.empty()) {
    if (auto applied = catalog::ApplyDataDictionary(dir, *schema); !applied) return applied.error();
  }
  if (names_) {
    const std::string file = CrosswalkPath(names_->crosswalk_dir, db_id);
    if (file.empty()) {
      return MakeError(ErrorCode::kNotFound,
                       fmt::format("no crosswalk for database {} in {}", db_id, names_->crosswalk_dir));
    }
    auto cw = naturalness::LoadCrosswalk(file);
    if (!cw) return MakeError(cw.error().code, file + ": " + cw.error().message);
    db.crosswalk = std::move(*cw);
  }
  db.conn = std::move(*conn);
  db.schema = std::make_unique<catalog::Schema>(std::move(*schema));
  if (names_ && names_->via_views) {
    if (auto st = SeeThroughViews(path, db_id, db); !st) return st.error();
  }
  if (infer_keys_) {
    // Through views, the keys are inferred on the views (which declare none).
    linking::InferKeysOptions ko;
    ko.mode = *infer_keys_;
    if (auto inferred = linking::InferKeys(*db.conn, *db.schema, ko); !inferred) return inferred.error();
  }
  db.schema->database = db_id;
  auto generators = pipeline::MakeGenerators(config_, *db.conn, *db.schema);
  if (!generators) return generators.error();
  db.generators = std::move(*generators);
  if (examples_) {
    // Questions are masked with the database's values, read once per database.
    if (auto v = retrieval::ValueIndex::Build(*db.conn, *db.schema)) {
      db.values = std::make_unique<retrieval::ValueIndex>(std::move(*v));
    }
    db.masker = std::make_unique<examples::QuestionMasker>(*db.schema, db.values.get());
  }
  return &dbs_.emplace(db_id, std::move(db)).first->second;
}

Result<SystemAnswer> PipelineSystem::Answer(const Question& q) {
  auto db = Database(q.db_id);
  if (!db) return db.error();
  if (!*db) {
    SystemAnswer missing;
    missing.error = "no database file for " + q.db_id;
    missing.code = ErrorCode::kNotFound;
    return missing;
  }
  Db& d = **db;
  SystemAnswer out;
  // With subsets: the question's own restricted schema, with generators built on it (they keep a reference).
  std::optional<catalog::Schema> restricted;
  pipeline::GeneratorSet restricted_generators;
  if (subsets_) {
    auto ms_since = [](std::chrono::steady_clock::time_point t0) {
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    auto t0 = std::chrono::steady_clock::now();
    auto names = subsets_->For(q, *d.schema);
    if (!names) return names.error();
    out.stages.push_back({"subset", ms_since(t0), 0, 0});
    if (*names) {
      // Restricting and building the generators on the result are timed apart from choosing the subset: the
      // subset stage is the method's own time.
      t0 = std::chrono::steady_clock::now();
      restricted = catalog::RestrictSchema(*d.schema, **names).schema;
      auto g = pipeline::MakeGenerators(config_, *d.conn, *restricted);
      if (!g) return g.error();
      restricted_generators = std::move(*g);
      out.stages.push_back({"restrict", ms_since(t0), 0, 0});
    }
  }
  const catalog::Schema& schema = restricted ? *restricted : *d.schema;
  const pipeline::GeneratorSet& generators = restricted ? restricted_generators : d.generators;
  pipeline::Options options = generators.With(config_.options);
  if (restricted) options.slice = "full";  // the subset is the slice
  options.evidence = q.evidence;
  if (d.crosswalk && !d.native) {
    options.crosswalk = &*d.crosswalk;
    options.level = names_->level;
  }
  if (examples_) {
    options.examples.library = examples_;
    options.examples.k = static_cast<size_t>(config_.examples.k);
    options.examples.masker = d.masker.get();
    if (config_.examples.configuration == "ground") {
      // Ground: the benchmark's own questions, but never the one being asked.
      options.examples.exclude = [db_id = q.db_id, question = q.question](const examples::Example& e) {
        return e.db_id == db_id && e.question == question;
      };
    }
  }
  auto answer = pipeline::Ask(*d.conn, schema, generators.active, q.question, options);
  if (!answer) {
    out.error = answer.error().message;
    out.code = answer.error().code;
    return out;
  }
  out.sql = answer->sql;
  if (d.native && !Trim(out.sql).empty()) {
    // Through views: the answer names the views; scored (and stored) with the native names they rename.
    auto back = naturalness::Translate(out.sql, *d.native, *d.crosswalk, names_->level, naturalness::Level::kNative,
                                       sql::Sqlite());
    if (back) out.sql = std::move(back->sql);
  }
  if (answer->winner < answer->candidates.size() && answer->candidates[answer->winner].confidence >= 0) {
    out.confidence = answer->candidates[answer->winner].confidence;
  }
  for (const auto& st : answer->trace) {
    out.stages.push_back({st.stage, st.ms, st.prompt_tokens, st.completion_tokens});
  }
  return out;
}

PipelineSystem::~PipelineSystem() {
  dbs_.clear();  // the connections to the companion databases close before their files go
  if (!views_dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(views_dir_, ec);
  }
}

Status PipelineSystem::SeeThroughViews(const std::string& path, const std::string& db_id, Db& d) {
  namespace fs = std::filesystem;
  if (views_dir_.empty()) {
    std::error_code ec;
    std::string dir = (fs::temp_directory_path(ec) / "plainsql-views-XXXXXX").string();
    if (ec || mkdtemp(dir.data()) == nullptr) {
      return MakeError(ErrorCode::kIo, "cannot make a temporary directory for the natural views (--via views)");
    }
    views_dir_ = std::move(dir);
  }
  const catalog::Schema& native = *d.schema;
  sql::NameCatalog native_names = catalog::ToNameCatalog(native);
  // As `views` does: two names the crosswalk gives one name get name_2, so every view and column is unique.
  d.crosswalk = naturalness::ResolveCollisions(*d.crosswalk, native_names);
  views::ViewOptions vo;
  vo.level = names_->level;
  auto plan = views::PlanViews(native, *d.crosswalk, vo);
  if (!plan) return MakeError(plan.error().code, db_id + ": " + plan.error().message);
  // Numbered, not named after db_id: a database id is not necessarily a file name.
  const std::string companion = (fs::path(views_dir_) / fmt::format("{}.db", dbs_.size())).string();
  if (auto deployed = views::ApplyViews(path, *plan, native, companion); !deployed) {
    return MakeError(deployed.error().code, db_id + ": " + deployed.error().message);
  }
  auto conn = exec::Connect(companion);
  if (!conn) return conn.error();
  catalog::IntrospectOptions io;
  io.samples = 3;
  auto shown = catalog::Introspect(**conn, io);
  if (!shown) return shown.error();
  // SQLite keeps no comments; the natural views carry the native ones (a data dictionary's), as on PostgreSQL.
  for (const views::View& v : plan->views) {
    auto t = std::find_if(shown->tables.begin(), shown->tables.end(),
                          [&v](const catalog::Table& x) { return EqualsIgnoreCase(x.name, v.name); });
    if (t == shown->tables.end()) continue;
    if (t->comment.empty()) t->comment = v.comment;
    for (const views::ViewColumn& vc : v.columns) {
      for (catalog::Column& c : t->columns) {
        if (EqualsIgnoreCase(c.name, vc.name) && c.comment.empty()) c.comment = vc.comment;
      }
    }
  }
  d.native = std::move(native_names);
  d.conn = std::move(*conn);
  d.schema = std::make_unique<catalog::Schema>(std::move(*shown));
  return Status::Ok();
}

std::string BuiltinSystemSpec(std::optional<linking::KeyInferenceMode> infer_keys) {
  if (!infer_keys) return "builtin";
  return fmt::format("builtin:infer-keys={}", linking::KeyInferenceModeName(*infer_keys));
}

std::optional<Result<std::optional<linking::KeyInferenceMode>>> ParseBuiltinSystem(const std::string& system) {
  using Mode = std::optional<linking::KeyInferenceMode>;
  if (system == "builtin") return Result<Mode>(Mode());
  constexpr std::string_view kPrefix = "builtin:infer-keys=";
  if (!system.starts_with(kPrefix)) return std::nullopt;
  auto mode = linking::KeyInferenceModeByName(std::string_view(system).substr(kPrefix.size()));
  if (!mode) {
    return Result<Mode>(MakeError(ErrorCode::kInvalidArgument,
                                  fmt::format("unknown key inference in '{}': add, replace or isolated", system)));
  }
  return Result<Mode>(Mode(*mode));
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

std::string SystemLabel(const std::string& stored) {
  if (auto [unnamed, names] = SplitNames(stored); names) {
    return SystemLabel(unnamed) + " [names " + names->Label() + "]";
  }
  auto [system, subset] = SplitSubset(stored);
  if (!subset.empty()) return SystemLabel(system) + " [subset " + subset + "]";
  auto c = PipelineConfigFromSpec(system);
  if (!c) return system;
  std::string extra;
  if (!c->examples.configuration.empty()) {
    extra = ", " + c->examples.configuration;
  } else if (!c->examples.store.empty()) {
    extra = ", examples";
  }
  return fmt::format("pipeline {} ({}, k={}{})", c->llm.model, c->style, c->options.candidates, extra);
}

}  // namespace plainsql::eval
