// Pipeline configuration (see config.h).
#include "pipeline/config.h"

#include <fmt/format.h>

#include <toml++/toml.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "pipeline/link_slice.h"
#include "retrieval/embedder.h"

namespace plainsql::pipeline {

namespace {

Error Bad(const std::string& path, const std::string& what) {
  return MakeError(ErrorCode::kFormat, fmt::format("{}: {}", path, what));
}

}  // namespace

Status CheckExamples(const ExamplesConfig& e) {
  const examples::SelectWeights& w = e.weights;
  if (e.k < 1 || e.k > 50) return MakeError(ErrorCode::kInvalidArgument, "[pipeline] examples_k must be 1 to 50");
  for (double v : {w.question, w.sql, w.sample, w.schema}) {
    if (!(v >= 0 && v <= 1)) {
      return MakeError(ErrorCode::kInvalidArgument, "[examples] question, sql, sample and schema must be 0 to 1");
    }
  }
  if (w.question + w.sql <= 0 || w.sample + w.schema <= 0) {
    return MakeError(ErrorCode::kInvalidArgument, "[examples] question + sql and sample + schema must each be above 0");
  }
  if (!(w.threshold >= 0 && w.threshold <= 1)) {
    return MakeError(ErrorCode::kInvalidArgument, "[examples] threshold must be 0 to 1");
  }
  if (e.embedding_url.empty() != e.embedding_model.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, "[examples] embedding_url and embedding_model go together");
  }
  return Status::Ok();
}

Result<std::shared_ptr<const examples::ExampleLibrary>> LoadExamples(const ExamplesConfig& config,
                                                                     const examples::StoreProgress& progress) {
  if (config.store.empty()) return std::shared_ptr<const examples::ExampleLibrary>();
  examples::ExampleLibrary::LoadOptions o;
  o.weights = config.weights;
  o.progress = progress;
  if (!config.embedding_url.empty()) {
    // The key, when the endpoint needs one, comes from the environment as for the chat model.
    llm::Config c = llm::ConfigFromEnvironment();
    c.base_url = config.embedding_url;
    c.model = config.embedding_model;
    auto embedder = retrieval::MakeOpenAiEmbedder(c);
    if (!embedder) return embedder.error();
    o.embedder = *embedder;
  }
  return examples::ExampleLibrary::Load(config.store, o);
}

Result<PipelineConfig> LoadConfigFile(const std::string& path, PipelineConfig base) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return Bad(path, fmt::format("line {}, column {}: {}", where.line, where.column, e.description()));
  }
  PipelineConfig c = std::move(base);
  c.source = path;
  std::optional<Error> error;
  // Reads `key` of `table` into `out` when present, checking its type.
  auto get = [&](const toml::table& table, const std::string& section, const char* key, auto& out) {
    const toml::node* node = table.get(key);
    if (!node || error) return;
    using T = std::decay_t<decltype(out)>;
    if constexpr (std::is_same_v<T, std::string>) {
      if (auto v = node->value<std::string>()) {
        out = *v;
        return;
      }
    } else if constexpr (std::is_same_v<T, bool>) {
      if (auto v = node->value<bool>()) {
        out = *v;
        return;
      }
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      if (const toml::array* arr = node->as_array()) {
        std::vector<std::string> items;
        for (const toml::node& item : *arr) {
          auto v = item.value<std::string>();
          if (!v) break;
          items.push_back(*v);
        }
        if (items.size() == arr->size()) {
          out = std::move(items);
          return;
        }
      }
    } else if constexpr (std::is_same_v<T, double>) {
      if (auto v = node->value<double>()) {
        out = *v;
        return;
      }
    } else {
      if (auto v = node->value<int64_t>()) {
        out = static_cast<T>(*v);
        return;
      }
    }
    error = Bad(path, fmt::format("[{}] {} has the wrong type", section, key));
  };
  static const std::map<std::string, std::set<std::string>> kKeys = {
      {"llm", {"url", "model", "timeout_ms", "max_retries", "concurrency", "style", "max_reply_bytes"}},
      {"pipeline",
       {"candidates", "temperature", "refine", "max_refinements", "refine_empty", "vote", "draft", "slice",
        "link_above", "link_budget", "timeout_ms", "max_rows", "deadline_ms", "fallback", "examples", "examples_k"}},
      {"examples",
       {"question", "sql", "sample", "schema", "threshold", "diverse", "coarse_skeleton", "embedding_url",
        "embedding_model"}},
      {"exec",
       {"allow_functions", "allow_relations", "schemas", "max_value_bytes", "max_result_bytes", "max_memory_bytes",
        "max_query_bytes"}}};
  for (const auto& [name, node] : root) {
    std::string section(name.str());
    if (!kKeys.count(section) || !node.is_table()) {
      return Bad(path, fmt::format("unknown section '{}' (sections: [llm], [pipeline], [examples], [exec])", section));
    }
    for (const auto& [key, value] : *node.as_table()) {
      std::string k(key.str());
      if (k == "api_key") {
        return Bad(path, "an API key does not belong in a file: set PLAINSQL_LLM_API_KEY or OPENAI_API_KEY");
      }
      if (!kKeys.at(section).count(k)) return Bad(path, fmt::format("unknown key '{}' in [{}]", k, section));
    }
  }
  if (const toml::table* llm = root["llm"].as_table()) {
    get(*llm, "llm", "url", c.llm.base_url);
    get(*llm, "llm", "model", c.llm.model);
    int64_t timeout = c.llm.timeout.count();
    get(*llm, "llm", "timeout_ms", timeout);
    c.llm.timeout = std::chrono::milliseconds(timeout);
    get(*llm, "llm", "max_retries", c.llm.max_retries);
    get(*llm, "llm", "concurrency", c.llm.max_concurrency);
    get(*llm, "llm", "style", c.style);
    get(*llm, "llm", "max_reply_bytes", c.llm.max_reply_bytes);
  }
  if (const toml::table* p = root["pipeline"].as_table()) {
    Options& o = c.options;
    get(*p, "pipeline", "candidates", o.candidates);
    get(*p, "pipeline", "temperature", o.temperature);
    get(*p, "pipeline", "refine", o.refine);
    get(*p, "pipeline", "max_refinements", o.max_refinements);
    get(*p, "pipeline", "refine_empty", o.refine_empty);
    get(*p, "pipeline", "vote", o.vote);
    get(*p, "pipeline", "draft", o.draft);
    get(*p, "pipeline", "slice", o.slice);
    int64_t link_above = static_cast<int64_t>(o.link_above);
    get(*p, "pipeline", "link_above", link_above);
    if (link_above < 0) return Bad(path, "[pipeline] link_above must be a column count, 0 or more");
    o.link_above = static_cast<size_t>(link_above);
    int64_t link_budget = static_cast<int64_t>(o.link.budget);
    get(*p, "pipeline", "link_budget", link_budget);
    if (link_budget < 0) return Bad(path, "[pipeline] link_budget must be a column count, 0 (no cap) or more");
    o.link.budget = static_cast<size_t>(link_budget);
    int64_t timeout = o.limits.timeout.count();
    get(*p, "pipeline", "timeout_ms", timeout);
    o.limits.timeout = std::chrono::milliseconds(timeout);
    get(*p, "pipeline", "max_rows", o.limits.max_rows);
    int64_t deadline = o.deadline.count();
    get(*p, "pipeline", "deadline_ms", deadline);
    o.deadline = std::chrono::milliseconds(deadline);
    get(*p, "pipeline", "fallback", o.fallback);
    get(*p, "pipeline", "examples", c.examples.store);
    get(*p, "pipeline", "examples_k", c.examples.k);
  }
  if (const toml::table* x = root["examples"].as_table()) {
    examples::SelectWeights& w = c.examples.weights;
    get(*x, "examples", "question", w.question);
    get(*x, "examples", "sql", w.sql);
    get(*x, "examples", "sample", w.sample);
    get(*x, "examples", "schema", w.schema);
    get(*x, "examples", "threshold", w.threshold);
    get(*x, "examples", "diverse", w.diverse);
    get(*x, "examples", "coarse_skeleton", w.coarse_skeleton);
    get(*x, "examples", "embedding_url", c.examples.embedding_url);
    get(*x, "examples", "embedding_model", c.examples.embedding_model);
  }
  if (const toml::table* x = root["exec"].as_table()) {
    exec::ExecSettings& e = c.exec;
    get(*x, "exec", "allow_functions", e.access.allow_functions);
    get(*x, "exec", "allow_relations", e.access.allow_relations);
    get(*x, "exec", "schemas", e.access.schemas);
    get(*x, "exec", "max_value_bytes", e.ceilings.max_value_bytes);
    get(*x, "exec", "max_result_bytes", e.ceilings.max_result_bytes);
    get(*x, "exec", "max_memory_bytes", e.ceilings.max_memory_bytes);
    get(*x, "exec", "max_query_bytes", e.ceilings.max_query_bytes);
    if (!error && (e.ceilings.max_value_bytes < 1024 || e.ceilings.max_result_bytes < 1024 ||
                   e.ceilings.max_memory_bytes < (int64_t{16} << 20) ||
                   e.ceilings.max_value_bytes > int64_t{1'000'000'000} || e.ceilings.max_query_bytes < 1024 ||
                   e.ceilings.max_query_bytes > static_cast<int64_t>(exec::kMaxQueryBytes))) {
      return Bad(path,
                 "[exec] max_value_bytes must be 1024 to 1000000000, max_result_bytes at least 1024, "
                 "max_memory_bytes at least 16 MiB, max_query_bytes 1024 to 1000000");
    }
  }
  if (error) return *error;
  if (c.options.candidates < 1 || c.options.candidates > 32) return Bad(path, "[pipeline] candidates must be 1 to 32");
  if (!IsSliceName(c.options.slice)) {
    return Bad(path, "[pipeline] slice must be \"full\", \"referenced\", \"link\" or \"auto\"");
  }
  if (Status st = CheckExamples(c.examples); !st) return Bad(path, st.error().message);
  if (c.options.limits.timeout.count() <= 0 || c.options.limits.max_rows <= 0 || c.llm.timeout.count() <= 0 ||
      c.options.deadline.count() <= 0 || c.llm.max_reply_bytes <= 0) {
    return Bad(path, "timeouts, deadline_ms, max_rows and max_reply_bytes must be positive");
  }
  return c;
}

Result<PipelineConfig> LoadConfig(const std::string& path) {
  namespace fs = std::filesystem;
  PipelineConfig c;
  std::string file = path;
  std::error_code ec;
  if (file.empty()) {
    std::string xdg;
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) {
      xdg = std::string(x) + "/plainsql/plainsql.toml";
    } else if (const char* h = std::getenv("HOME"); h && *h) {
      xdg = std::string(h) + "/.config/plainsql/plainsql.toml";
    }
    for (const std::string& candidate : {std::string("plainsql.toml"), xdg}) {
      if (!candidate.empty() && fs::is_regular_file(candidate, ec)) {
        file = candidate;
        break;
      }
    }
  } else if (!fs::is_regular_file(file, ec)) {
    return MakeError(ErrorCode::kNotFound, fmt::format("no configuration file {}", file));
  }
  if (!file.empty()) {
    auto loaded = LoadConfigFile(file, c);
    if (!loaded) return loaded.error();
    c = std::move(*loaded);
  }
  c.llm = llm::ConfigFromEnvironment(c.llm);
  return c;
}

nlohmann::ordered_json ConfigToJson(const PipelineConfig& c) {
  nlohmann::ordered_json j = {{"llm",
                               {{"url", c.llm.base_url},
                                {"model", c.llm.model},
                                {"timeout_ms", c.llm.timeout.count()},
                                {"max_retries", c.llm.max_retries},
                                {"concurrency", c.llm.max_concurrency},
                                {"style", c.style}}},
                              {"pipeline",
                               {{"candidates", c.options.candidates},
                                {"temperature", c.options.temperature},
                                {"refine", c.options.refine},
                                {"max_refinements", c.options.max_refinements},
                                {"refine_empty", c.options.refine_empty},
                                {"vote", c.options.vote},
                                {"draft", c.options.draft},
                                {"slice", c.options.slice},
                                {"link_above", c.options.link_above},
                                {"link_budget", c.options.link.budget},
                                {"timeout_ms", c.options.limits.timeout.count()},
                                {"max_rows", c.options.limits.max_rows}}}};
  // Only when examples are configured: a run without them stores what it always stored.
  const ExamplesConfig& e = c.examples;
  if (!e.store.empty() || !e.configuration.empty()) {
    j["examples"] = {{"store", e.store},
                     {"k", e.k},
                     {"question", e.weights.question},
                     {"sql", e.weights.sql},
                     {"sample", e.weights.sample},
                     {"schema", e.weights.schema},
                     {"threshold", e.weights.threshold},
                     {"diverse", e.weights.diverse},
                     {"coarse_skeleton", e.weights.coarse_skeleton},
                     {"embedding_url", e.embedding_url},
                     {"embedding_model", e.embedding_model},
                     {"configuration", e.configuration}};
  }
  return j;
}

Result<PipelineConfig> ConfigFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return MakeError(ErrorCode::kFormat, "a pipeline configuration is a JSON object");
  PipelineConfig c;
  try {
    if (j.contains("llm")) {
      const auto& l = j["llm"];
      c.llm.base_url = l.value("url", c.llm.base_url);
      c.llm.model = l.value("model", c.llm.model);
      c.llm.timeout = std::chrono::milliseconds(l.value("timeout_ms", c.llm.timeout.count()));
      c.llm.max_retries = l.value("max_retries", c.llm.max_retries);
      c.llm.max_concurrency = l.value("concurrency", c.llm.max_concurrency);
      c.style = l.value("style", c.style);
    }
    if (j.contains("pipeline")) {
      const auto& p = j["pipeline"];
      Options& o = c.options;
      o.candidates = p.value("candidates", o.candidates);
      o.temperature = p.value("temperature", o.temperature);
      o.refine = p.value("refine", o.refine);
      o.max_refinements = p.value("max_refinements", o.max_refinements);
      o.refine_empty = p.value("refine_empty", o.refine_empty);
      o.vote = p.value("vote", o.vote);
      o.draft = p.value("draft", o.draft);
      o.slice = p.value("slice", o.slice);
      o.link_above = p.value("link_above", o.link_above);
      // A run stored before the budget existed linked without a cap: resumed, it goes on as it began.
      o.link.budget = p.value("link_budget", size_t{0});
      o.limits.timeout = std::chrono::milliseconds(p.value("timeout_ms", o.limits.timeout.count()));
      o.limits.max_rows = p.value("max_rows", o.limits.max_rows);
    }
    if (j.contains("examples")) {
      const auto& x = j["examples"];
      ExamplesConfig& e = c.examples;
      e.store = x.value("store", e.store);
      e.k = x.value("k", e.k);
      e.weights.question = x.value("question", e.weights.question);
      e.weights.sql = x.value("sql", e.weights.sql);
      e.weights.sample = x.value("sample", e.weights.sample);
      e.weights.schema = x.value("schema", e.weights.schema);
      e.weights.threshold = x.value("threshold", e.weights.threshold);
      e.weights.diverse = x.value("diverse", e.weights.diverse);
      e.weights.coarse_skeleton = x.value("coarse_skeleton", e.weights.coarse_skeleton);
      e.embedding_url = x.value("embedding_url", e.embedding_url);
      e.embedding_model = x.value("embedding_model", e.embedding_model);
      e.configuration = x.value("configuration", e.configuration);
    }
  } catch (const nlohmann::json::exception& e) {
    return MakeError(ErrorCode::kFormat, fmt::format("pipeline configuration: {}", e.what()));
  }
  return c;
}

}  // namespace plainsql::pipeline
