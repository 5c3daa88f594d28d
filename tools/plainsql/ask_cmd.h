// `plainsql ask` (a question in, SQL and its answer out, through the pipeline) and `plainsql prompt` (the exact prompt
// an LLM would get, for users with no LLM at hand).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "exec/render.h"
#include "pipeline/config.h"
#include "pipeline/pipeline.h"

namespace plainsql::features {
class Estimator;
}
namespace plainsql::catalog {
struct Schema;
}
namespace plainsql::exec {
class Connection;
}

namespace plainsql::cli {

class AskCommands {
 public:
  explicit AskCommands(CLI::App& app);
  bool Selected() const { return ask_->parsed() || prompt_->parsed(); }
  int Run();

 private:
  int Ask();
  std::string KeysToInfer() const;
  /// The correctness estimate of a question (--estimator): the probability, a note line, JSON, and the texts of the
  /// features that lower it most. None with --estimator none, on a large schema, or for an answer of another
  /// generator than the built-in translator unless an estimator was named, `always`, or --rewrite.
  struct EstimateOut {
    double probability = 0;
    std::string text;
    nlohmann::json json;
    std::vector<std::string> hurting;
  };
  std::optional<EstimateOut> Estimate(exec::Connection& conn, const catalog::Schema& schema,
                                      const std::string& question, const std::string& generator, bool always = false);
  /// --rewrite: the question rewritten by the model without the features that lower the estimate ("" when none does).
  Result<std::string> Rewrite(const pipeline::PipelineConfig& config, const catalog::Schema& schema,
                              const std::optional<EstimateOut>& estimate) const;
  /// An answer as `ask` prints it: the SQL and its result (with the trace under --explain), or, when the built-in
  /// translator is unsure, its two most probable readings.
  std::string AnswerText(const pipeline::Answer& answer, exec::ResultFormat format) const;
  int Prompt();
  /// The examples configuration after --examples, --examples-k and --no-examples.
  Result<pipeline::ExamplesConfig> Examples(const pipeline::PipelineConfig& config) const;

  CLI::App* ask_ = nullptr;
  CLI::App* prompt_ = nullptr;
  std::string conn_, question_, format_ = "table", llm_url_, model_, crosswalk_file_, level_ = "N1", style_;
  std::string slice_, evidence_, config_file_, examples_store_;
  std::string infer_keys_;             // --infer-keys: "" (isolated: KeysToInfer), "add", "replace" or "none"
  std::string descriptions_ = "auto";  // --descriptions: "auto", "none" or a data dictionary's path
  std::string estimator_;              // --estimator: a model file, "none", or "" (the shipped one, for builtin)
  std::optional<size_t> link_above_, link_budget_;
  int candidates_ = 0, max_rows_ = 0, examples_k_ = 0;  // 0: from the configuration
  int64_t timeout_ms_ = 0, deadline_ms_ = 0;
  bool force_ = false;  // --force: run and show an answer the reading scorer is unsure of
  bool explain_ = false, no_refine_ = false, no_vote_ = false, draft_ = false, builtin_ = false, no_fallback_ = false;
  bool no_examples_ = false;
  bool rewrite_ = false;  // --rewrite: a model rewrites the question without what lowers its estimate
  struct EstimateContext;
  std::shared_ptr<const features::Estimator> estimator_model_;  // --estimator MODEL, loaded before answering
  std::shared_ptr<EstimateContext> estimate_context_;           // made by the first Estimate
};

}  // namespace plainsql::cli
