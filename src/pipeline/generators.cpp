// Choosing the generators (see generators.h).
#include "pipeline/generators.h"

#include "builtin/generator.h"
#include "llm/generator.h"

namespace plainsql::pipeline {

namespace {

// The built-in translator, loaded on first use: a fallback that is never needed costs nothing.
class LazyBuiltin final : public Generator {
 public:
  LazyBuiltin(exec::Connection& conn, const catalog::Schema& schema) : conn_(conn), schema_(schema) {}
  std::string Name() const override { return "builtin"; }
  bool CanRefine() const override { return false; }
  bool Offline() const override { return true; }
  Result<Generation> Generate(const GenerationRequest& request) override {
    if (!inner_) {
      auto g = builtin::MakeBuiltinGenerator(conn_, schema_);
      if (!g) return g.error();
      inner_ = std::move(*g);
    }
    return inner_->Generate(request);
  }

 private:
  exec::Connection& conn_;
  const catalog::Schema& schema_;
  std::unique_ptr<Generator> inner_;
};

}  // namespace

bool UsesBuiltin(const PipelineConfig& config) {
  return config.builtin || config.llm.base_url.empty() || config.llm.base_url == "none";
}

Result<GeneratorSet> MakeGenerators(const PipelineConfig& config, exec::Connection& conn,
                                    const catalog::Schema& schema) {
  GeneratorSet set;
  const bool use_llm = !config.llm.base_url.empty() && config.llm.base_url != "none";
  if (use_llm) {
    if (config.llm.model.empty()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "an LLM URL is set but no model: give --model NAME, set PLAINSQL_LLM_MODEL, or put model in "
                       "the [llm] section of plainsql.toml (or --llm none for the built-in translator)");
    }
    auto g = llm::MakeLlmGenerator(config.llm, config.style);
    if (!g) return g.error();
    set.active.push_back(g->get());
    set.owned.push_back(std::move(*g));
  }
  if (UsesBuiltin(config)) {
    auto g = builtin::MakeBuiltinGenerator(conn, schema);
    if (!g) return g.error();
    set.active.push_back(g->get());
    set.owned.push_back(std::move(*g));
  } else {
    set.owned.push_back(std::make_unique<LazyBuiltin>(conn, schema));
    set.fallback = set.owned.back().get();
  }
  return set;
}

}  // namespace plainsql::pipeline
