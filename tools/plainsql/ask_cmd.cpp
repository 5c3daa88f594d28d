// `plainsql ask` and `plainsql prompt` (see ask_cmd.h).
#include "ask_cmd.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <future>

#include "builtin/generator.h"
#include "catalog/render.h"
#include "cli.h"
#include "exec/access_check.h"
#include "exec/connection.h"
#include "exec/render.h"
#include "features/estimator.h"
#include "features/extract.h"
#include "features/rewrite.h"
#include "llm/client.h"
#include "llm/generator.h"
#include "llm/prompt.h"
#include "naturalness/crosswalk.h"
#include "naturalness/translate_query.h"
#include "pipeline/config.h"
#include "pipeline/generators.h"
#include "pipeline/link_slice.h"
#include "pipeline/pipeline.h"
#include "pipeline/schema_load.h"

namespace plainsql::cli {

namespace {

// On a terminal, one status line on stderr saying what `ask` waits for, rewritten in place and cleared at the end.
class WaitLine {
 public:
  WaitLine() : tty_(isatty(STDERR_FILENO) == 1) {}
  ~WaitLine() { Clear(); }
  WaitLine(const WaitLine&) = delete;
  WaitLine& operator=(const WaitLine&) = delete;
  generate::WaitCallback Callback() {
    if (!tty_) return {};
    return [this](const std::string& what, double seconds) {
      fmt::print(stderr, "\r\033[Kplainsql: waiting for {} ({:.0f} s)\u2026", what, seconds);
      std::fflush(stderr);
      shown_ = true;
    };
  }
  void Clear() {
    if (!shown_) return;
    fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
  }

 private:
  bool tty_ = false;
  bool shown_ = false;
};

}  // namespace

AskCommands::AskCommands(CLI::App& app) {
  ask_ = app.add_subcommand("ask", "Answer a question in plain language: SQL and its result, through the pipeline");
  ask_->add_option("CONN", conn_, "Database connection (a SQLite file, sqlite:PATH or postgresql://...)")->required();
  ask_->add_option("QUESTION", question_, "The question")->required();
  ask_->add_option("--format,-f", format_, "table | csv | json (json: sql, columns, rows and the trace)")
      ->capture_default_str();
  ask_->add_flag("--force", force_,
                 "Show the answer even when the built-in translator is unsure of it (by default an answer below the "
                 "reading scorer's threshold is not run as the answer: the two most probable readings are shown)");
  ask_->add_option("--estimator", estimator_,
                   "A correctness estimator (plainsql space estimator train): the probability, from the question's "
                   "features before answering, that the answer is right, and when it is low the features that lower "
                   "it most; default: the shipped estimator for an answer of the built-in translator; none: no "
                   "estimate");
  ask_->add_flag("--rewrite", rewrite_,
                 "With a model: have it rewrite the question without the features that lower the correctness "
                 "estimate most, and answer the rewritten question too");
  ask_->add_flag("--explain", explain_, "Print the trace: every stage's time, tokens and decisions, every candidate");
  ask_->add_option("--llm", llm_url_,
                   "OpenAI-compatible base URL (e.g. http://localhost:11434/v1), or none for the built-in offline "
                   "translator (default: PLAINSQL_LLM_URL; without one, the built-in translator)");
  ask_->add_flag("--builtin", builtin_, "With an LLM: the built-in translator adds its candidates to the vote");
  ask_->add_option("--model", model_, "Model name (default: PLAINSQL_LLM_MODEL)");
  ask_->add_option(
      "--config", config_file_,
      "Configuration file (default: ./plainsql.toml, else ~/.config/plainsql/plainsql.toml, when present)");
  ask_->add_option("--candidates,-k", candidates_, "Candidates per generator (default 1)");
  ask_->add_flag("--no-refine", no_refine_, "Do not repair failing candidates");
  ask_->add_flag("--no-vote", no_vote_, "Take the first candidate that runs instead of the majority result");
  ask_->add_flag("--draft", draft_, "Ask for a zero-shot draft first (shown in the trace)");
  ask_->add_option("--slice", slice_,
                   "Schema sent with the question: full | referenced (the tables a draft reads) | link (the tables "
                   "and columns `plainsql link` keeps, with their keys) | auto (link above --link-above columns, "
                   "else full; the default)");
  ask_->add_option("--link-above", link_above_, "With --slice auto: link schemas of more columns than this (1000)");
  ask_->add_option("--link-budget", link_budget_, "A linked slice keeps at most this many columns (600; 0: no cap)");
  AddAskInferKeysOption(*ask_, infer_keys_);
  AddDescriptionsOption(*ask_, descriptions_);
  ask_->add_option("--style", style_, "Prompt style: omnisql | snails_zero_shot | dail_sql (default omnisql)");
  ask_->add_option("--crosswalk", crosswalk_file_, "Show the model natural names from this crosswalk");
  ask_->add_option("--level", level_, "With --crosswalk: N1 | N2 | N3")->capture_default_str();
  ask_->add_option("--evidence", evidence_, "Extra knowledge for the prompt");
  ask_->add_option("--timeout", timeout_ms_, "Per query, in milliseconds (default 30000)");
  ask_->add_option("--max-rows", max_rows_, "Rows returned at most (default 1000)");
  ask_->add_option("--deadline", deadline_ms_,
                   "The whole question, in milliseconds: model calls, retries and refinements end by then "
                   "(default 60000)");
  ask_->add_flag("--no-fallback", no_fallback_,
                 "When the model fails, report the error instead of the built-in translator's answer");
  ask_->add_option("--examples", examples_store_,
                   "Few-shot examples from this example store (plainsql examples build), selected by masked question, "
                   "draft and schema similarity (default: [pipeline] examples)");
  ask_->add_option("--examples-k", examples_k_, "Examples per question (default: [pipeline] examples_k, else 5)");
  ask_->add_flag("--no-examples", no_examples_, "No examples, even when plainsql.toml names a store");

  prompt_ = app.add_subcommand("prompt", "Print the exact prompt plainsql would send an LLM for a question");
  prompt_->add_option("CONN", conn_, "Database connection")->required();
  prompt_->add_option("QUESTION", question_, "The question")->required();
  prompt_->add_option("--style", style_, "omnisql | snails_zero_shot | dail_sql (default omnisql)");
  prompt_->add_option("--config", config_file_, "Configuration file (its [llm] style)");
  prompt_->add_option("--crosswalk", crosswalk_file_, "Show natural names from this crosswalk");
  prompt_->add_option("--level", level_, "With --crosswalk: N1 | N2 | N3")->capture_default_str();
  prompt_->add_option("--evidence", evidence_, "Extra knowledge for the prompt");
  prompt_->add_option("--format,-f", format_, "text | json (the messages as the API gets them)");
  prompt_->add_option("--examples", examples_store_,
                      "Put examples from this store in the prompt (the draft they are selected with is the built-in "
                      "translator's answer here; ask uses the model's)");
  prompt_->add_option("--examples-k", examples_k_, "Examples (default: [pipeline] examples_k, else 5)");
  prompt_->add_flag("--no-examples", no_examples_, "No examples, even when plainsql.toml names a store");
  AddAskInferKeysOption(*prompt_, infer_keys_);
  AddDescriptionsOption(*prompt_, descriptions_);
}

Result<pipeline::ExamplesConfig> AskCommands::Examples(const pipeline::PipelineConfig& config) const {
  pipeline::ExamplesConfig e = config.examples;
  if (!examples_store_.empty()) e.store = examples_store_;
  if (examples_k_ != 0) e.k = examples_k_;
  if (no_examples_) e.store.clear();
  if (Status st = pipeline::CheckExamples(e); !st) {
    return MakeError(ErrorCode::kInvalidArgument, "--examples-k must be 1 to 50");
  }
  return e;
}

// Without --infer-keys, the library's default for answering (pipeline::SchemaLoadOptions: the keys of the tables no
// declared foreign key touches, as `link` infers them); `--infer-keys=none` turns it off.
std::string AskCommands::KeysToInfer() const {
  if (!infer_keys_.empty()) return infer_keys_;
  const auto mode = pipeline::SchemaLoadOptions().infer_keys;
  return mode ? std::string(linking::KeyInferenceModeName(*mode)) : "none";
}

int AskCommands::Run() {
  if (auto checked = CheckQuestion(question_); !checked) return Fail(checked.error());
  return ask_->parsed() ? Ask() : Prompt();
}

int AskCommands::Prompt() {
  if (format_ != "text" && format_ != "json" && format_ != "table") {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--format must be text or json"));
  }
  auto target = SchemaFromArgs(conn_, "", "", {}, true, KeysToInfer(), descriptions_);
  if (!target) return Fail(target.error());
  NoteIfNoTables(target->schema);
  catalog::Schema shown = target->schema;
  if (!crosswalk_file_.empty()) {
    auto cw = naturalness::LoadCrosswalk(crosswalk_file_);
    if (!cw) return Fail(cw.error());
    auto level = naturalness::ParseLevel(level_);
    if (!level) return Fail(level.error());
    shown = naturalness::NaturalSchema(target->schema, ResolvedCrosswalk(*cw, target->schema), *level);
  }
  generate::GenerationRequest r;
  r.question = question_;
  r.evidence = evidence_;
  r.schema = &shown;
  r.dialect = target->dialect;
  auto config = pipeline::LoadConfig(config_file_);
  if (!config) return Fail(config.error());
  auto examples = Examples(*config);
  if (!examples) return Fail(examples.error());
  if (!examples->store.empty()) {
    // The examples ask would select, with the built-in translator's answer as the draft (no model is called here).
    auto library = pipeline::LoadExamples(*examples);
    if (!library) return Fail(library.error());
    auto conn = exec::Connect(conn_);
    if (!conn) return Fail(conn.error());
    pipeline::PipelineConfig offline;
    offline.llm.base_url = "none";
    auto generators = pipeline::MakeGenerators(offline, **conn, target->schema);
    if (!generators) return Fail(generators.error());
    generate::GenerationRequest zero_shot = r;
    zero_shot.schema = &target->schema;
    auto draft = generators->active.front()->Generate(zero_shot);
    pipeline::ExamplesOptions eo;
    eo.library = *library;
    eo.k = static_cast<size_t>(examples->k);
    std::string sql = draft && !draft->candidates.empty() ? draft->candidates.front() : "";
    auto selection = pipeline::SelectExamples(conn->get(), target->schema, question_, sql, sql.empty() ? "" : "builtin",
                                              *target->dialect, eo);
    r.examples = std::move(selection.prompt);
  }
  auto messages = llm::BuildPrompt(r, style_.empty() ? config->style : style_);
  if (!messages) return Fail(messages.error());
  if (format_ == "json") {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& m : *messages) j.push_back({{"role", m.role}, {"content", m.content}});
    Write(j.dump(2) + "\n");
  } else {
    Write(llm::MessagesText(*messages));
  }
  return 0;
}

int AskCommands::Ask() {
  exec::ResultFormat format;
  if (format_ == "table") {
    format = exec::ResultFormat::kTable;
  } else if (format_ == "csv") {
    format = exec::ResultFormat::kCsv;
  } else if (format_ == "json") {
    format = exec::ResultFormat::kJson;
  } else {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--format must be table, csv or json"));
  }
  // The configuration file, then the environment, then these flags.
  auto config = pipeline::LoadConfig(config_file_);
  if (!config) return Fail(config.error());
  exec::SetDefaultExecSettings(config->exec);
  pipeline::Options options = config->options;
  if (candidates_ != 0) options.candidates = candidates_;
  if (!slice_.empty()) options.slice = slice_;
  if (link_above_) options.link_above = *link_above_;
  if (link_budget_) options.link.budget = *link_budget_;
  if (timeout_ms_ != 0) options.limits.timeout = std::chrono::milliseconds(timeout_ms_);
  if (max_rows_ != 0) options.limits.max_rows = max_rows_;
  if (no_refine_) options.refine = false;
  if (no_vote_) options.vote = false;
  if (draft_) options.draft = true;
  if (deadline_ms_ != 0) options.deadline = std::chrono::milliseconds(deadline_ms_);
  if (no_fallback_) options.fallback = false;
  options.evidence = evidence_;
  if (options.candidates < 1 || options.candidates > 32) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--candidates must be between 1 and 32"));
  }
  if (!pipeline::IsSliceName(options.slice)) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--slice must be full, referenced, link or auto"));
  }
  if (options.limits.timeout.count() <= 0 || options.limits.max_rows <= 0 || options.deadline.count() <= 0) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "--timeout, --deadline and --max-rows must be positive"));
  }
  // Generators (pipeline::MakeGenerators): the LLM when one is configured (and --llm is not none), the built-in
  // translator otherwise or with --builtin, and as the fallback when the model fails.
  if (!llm_url_.empty()) config->llm.base_url = llm_url_;
  if (!model_.empty()) config->llm.model = model_;
  if (!style_.empty()) config->style = style_;
  config->builtin = builtin_;
  if (!estimator_.empty() && estimator_ != "none") {
    auto m = features::Estimator::Load(estimator_);
    if (!m) return Fail(m.error());
    estimator_model_ = std::make_shared<const features::Estimator>(std::move(*m));
  }
  if (rewrite_ && (config->llm.base_url.empty() || config->llm.base_url == "none")) {
    return Fail(
        MakeError(ErrorCode::kInvalidArgument,
                  "--rewrite needs a model: --llm URL --model NAME (or PLAINSQL_LLM_URL and PLAINSQL_LLM_MODEL)"));
  }
  auto examples = Examples(*config);
  if (!examples) return Fail(examples.error());
  auto library = pipeline::LoadExamples(*examples);
  if (!library) return Fail(library.error());
  options.examples.library = *library;
  options.examples.k = static_cast<size_t>(examples->k);

  std::optional<naturalness::Crosswalk> crosswalk;
  if (!crosswalk_file_.empty()) {
    auto cw = naturalness::LoadCrosswalk(crosswalk_file_);
    if (!cw) return Fail(cw.error());
    auto level = naturalness::ParseLevel(level_);
    if (!level) return Fail(level.error());
    crosswalk = std::move(*cw);
    options.crosswalk = &*crosswalk;
    options.level = *level;
  }
  // The built-in translator's word lists and WordNet load on a second thread while the schema is read (on a large
  // schema each takes a good part of a question's time).
  std::future<void> resources;
  if (pipeline::UsesBuiltin(*config)) {
    resources = std::async(std::launch::async, [] { (void)builtin::SharedLinkResources(); });
  }
  auto conn = exec::Connect(conn_);
  if (!conn) return Fail(conn.error());
  if (auto warning = exec::PrivilegeWarningOnce(**conn)) fmt::print(stderr, "plainsql: warning: {}\n", *warning);
  auto target = SchemaFromConnection(**conn, {}, true, KeysToInfer(), descriptions_);
  if (!target) return Fail(target.error());
  NoteIfNoTables(target->schema);
  auto generators = pipeline::MakeGenerators(*config, **conn, target->schema);
  if (!generators) return Fail(generators.error());
  options = generators->With(std::move(options));
  WaitLine wait_line;
  options.on_wait = wait_line.Callback();
  auto answer = pipeline::Ask(**conn, target->schema, generators->active, question_, options);
  wait_line.Clear();
  if (!answer) return Fail(answer.error());
  for (const auto& note : answer->notes) fmt::print(stderr, "plainsql: note: {}\n", note);
  auto estimate = Estimate(**conn, target->schema, question_, answer->candidates[answer->winner].generator);
  // --rewrite: the model rewrites the question without the features that lower its estimate, and it is answered too.
  std::optional<std::pair<std::string, Result<pipeline::Answer>>> rewritten;
  if (rewrite_) {
    auto r = Rewrite(*config, target->schema, estimate);
    if (!r) return Fail(r.error());
    if (!r->empty()) rewritten.emplace(*r, pipeline::Ask(**conn, target->schema, generators->active, *r, options));
    if (rewritten && !rewritten->second) return Fail(rewritten->second.error());
  }
  if (format == exec::ResultFormat::kJson) {
    auto j = pipeline::AnswerToJson(*answer);
    if (estimate) j["estimate"] = estimate->json;
    if (rewritten) {
      auto again = Estimate(**conn, target->schema, rewritten->first, "", true);
      j["rewrite"] = {{"question", rewritten->first}, {"answer", pipeline::AnswerToJson(*rewritten->second)}};
      if (again) j["rewrite"]["estimate"] = again->json;
    }
    Write(j.dump(2) + "\n");
    return 0;
  }
  // A low estimate is said on stderr (the result on stdout stays clean for csv); --explain shows it always.
  if (estimate && estimate->probability < 0.5 && !explain_) {
    fmt::print(stderr, "plainsql: note: {}\n", estimate->text);
  }
  std::string out = AnswerText(*answer, format);
  if (explain_ && estimate) out += "\ncorrectness estimate: " + estimate->text + "\n";
  if (rewritten) {
    out += "\n-- rewritten without what lowers the estimate: " + rewritten->first + "\n" +
           AnswerText(*rewritten->second, format);
  }
  Write(out);
  return 0;
}

std::string AskCommands::AnswerText(const pipeline::Answer& answer, exec::ResultFormat format) const {
  // Honesty: an answer the built-in translator's reading scorer finds unlikely is not presented as the answer; the
  // two most probable readings are shown instead, each with its probability.
  const pipeline::Candidate& won = answer.candidates[answer.winner];
  if (!won.unsure.empty() && !force_) {
    std::string out = "-- unsure: " + won.unsure;
    if (!won.caveat.empty()) out += "; " + won.caveat;
    out += "\n-- the two most probable readings (run one with `plainsql sql`, or ask again with --force):\n";
    std::vector<size_t> readings = {answer.winner};
    for (size_t i = 0; i < answer.candidates.size() && readings.size() < 2; ++i) {
      if (i != answer.winner && answer.candidates[i].generator == "builtin") readings.push_back(i);
    }
    for (size_t n = 0; n < readings.size(); ++n) {
      const pipeline::Candidate& c = answer.candidates[readings[n]];
      out += fmt::format("-- {}. P(right) {:.2f}\n{}\n", n + 1, std::max(0.0, c.confidence), c.sql);
    }
    return out;
  }
  std::string out = answer.sql + "\n\n" + exec::Render(answer.result, format);
  if (explain_) out += "\n" + pipeline::TraceText(answer);
  return out;
}

Result<std::string> AskCommands::Rewrite(const pipeline::PipelineConfig& config, const catalog::Schema& schema,
                                         const std::optional<EstimateOut>& estimate) const {
  if (config.llm.base_url.empty() || config.llm.base_url == "none") {
    return MakeError(ErrorCode::kInvalidArgument,
                     "--rewrite needs a model: --llm URL --model NAME (or PLAINSQL_LLM_URL and PLAINSQL_LLM_MODEL)");
  }
  if (!estimate || estimate->hurting.empty()) {
    fmt::print(stderr, "plainsql: note: nothing to rewrite: no feature of the question lowers its estimate\n");
    return std::string();
  }
  auto client = llm::Client::Create(config.llm);
  if (!client) return client.error();
  return features::RewriteQuestion(*client, question_, catalog::RenderList(schema), estimate->hurting);
}

// What estimates need, made once per `ask`: the model, and the schema indexed for its features.
struct AskCommands::EstimateContext {
  std::shared_ptr<const features::Estimator> model;
  std::unique_ptr<features::Extractor> extractor;
  std::unique_ptr<features::Database> db;
};

std::optional<AskCommands::EstimateOut> AskCommands::Estimate(exec::Connection& conn, const catalog::Schema& schema,
                                                              const std::string& question, const std::string& generator,
                                                              bool always) {
  if (estimator_ == "none") return std::nullopt;
  if (estimator_.empty() && generator != "builtin" && !always && !rewrite_) return std::nullopt;
  // The estimators are fitted on schemas of benchmark size; a schema that ask links rather than shows whole gets none
  // (indexing it whole again would cost what the slice saved).
  if (schema.ColumnCount() > 1000) return std::nullopt;
  if (!estimate_context_) {
    auto resources = builtin::SharedLinkResources();
    if (!resources) return std::nullopt;
    auto context = std::make_shared<EstimateContext>();
    // The shipped model lives as long as the program: an aliasing pointer that owns nothing.
    context->model = estimator_model_ ? estimator_model_
                                      : std::shared_ptr<const features::Estimator>(std::shared_ptr<void>(),
                                                                                   &features::Estimator::Shipped());
    context->extractor = std::make_unique<features::Extractor>(*resources);
    context->db = context->extractor->Prepare(schema, &conn);
    estimate_context_ = std::move(context);
  }
  const features::Estimator& model = *estimate_context_->model;
  auto got =
      estimate_context_->extractor->Extract({question, evidence_, ""}, estimate_context_->db.get(), conn.dialect());
  EstimateOut out;
  out.probability = model.Probability(got.values);
  out.text = features::EstimateText(model, got.values);
  out.json = features::EstimateJson(model, got.values);
  for (const auto& [f, gain] : model.Hurting(got.values)) out.hurting.emplace_back(features::Catalog()[f].text);
  return out;
}

}  // namespace plainsql::cli
