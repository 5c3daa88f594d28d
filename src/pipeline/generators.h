// Which generators answer a question, decided in one place for `plainsql ask`, `plainsql eval run` and the
// benchmarks: the model a configuration names, the built-in translator, and the fallback when the model fails.
#pragma once

#include <memory>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "exec/connection.h"
#include "generate/generator.h"
#include "pipeline/config.h"
#include "pipeline/pipeline.h"

namespace plainsql::pipeline {

struct GeneratorSet {
  std::vector<std::unique_ptr<Generator>> owned;
  std::vector<Generator*> active;  // asked for candidates, in this order
  Generator* fallback = nullptr;   // answers when every model fails (the built-in translator, built on first use)

  /// `options` with the fallback generator filled in (options.fallback still decides whether it is used).
  Options With(Options options) const {
    options.fallback_generator = fallback;
    return options;
  }
};

/// The generators of `config` on `conn`, whose native schema is `schema` (both must outlive them): the model when
/// config.llm has a URL other than "none" (a model name is then required), the built-in translator when there is no
/// model or config.builtin is set, and, with a model, the built-in translator as the fallback (built only when
/// needed). Fails on an unknown prompt style, a URL without a model, or data the built-in translator cannot load.
Result<GeneratorSet> MakeGenerators(const PipelineConfig& config, exec::Connection& conn,
                                    const catalog::Schema& schema);

/// Whether MakeGenerators makes the built-in translator a generator (not only the fallback): no model configured
/// (or --llm none), or config.builtin.
bool UsesBuiltin(const PipelineConfig& config);

}  // namespace plainsql::pipeline
