// The ask pipeline (see pipeline.h): one function per stage, in the order of ARCHITECTURE.md, handing typed values on.
#include "pipeline/pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "builtin/generator.h"
#include "catalog/name_catalog.h"
#include "catalog/render.h"
#include "catalog/restrict.h"
#include "catalog/tokens.h"
#include "common/strings.h"
#include "exec/fingerprint.h"
#include "exec/render.h"
#include "linking/subset_methods.h"
#include "llm/generator.h"
#include "naturalness/translate_query.h"
#include "pipeline/link_slice.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/resolver.h"

namespace plainsql::pipeline {

namespace {

using Clock = std::chrono::steady_clock;
double MsSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// What the stages of one question share. The naturalness stage fills the names once; the others only read them.
struct Context {
  Context(exec::Connection& c, const catalog::Schema& schema, const std::string& q, const Options& o)
      : conn(c),
        native(schema),
        dialect(c.dialect()),
        question(q),
        options(o),
        started(Clock::now()),
        deadline(started + o.deadline),
        // Model calls stop at 90% of the deadline: the rest is for the fallback and the query.
        model_deadline(started + o.deadline * 9 / 10) {}

  exec::Connection& conn;
  const catalog::Schema& native;
  const sql::Dialect& dialect;
  const std::string& question;
  const Options& options;
  Clock::time_point started, deadline, model_deadline;
  std::optional<naturalness::Crosswalk> crosswalk{};  // the options' crosswalk, its collisions on this schema resolved
  catalog::Schema natural{};                          // the schema under the crosswalk's names (with a crosswalk)
  const catalog::Schema* shown = nullptr;  // what generators see: `natural`, else the native schema (never copied)
  sql::NameCatalog shown_names{};          // candidates are resolved against these
  std::optional<naturalness::QueryTranslator> to_native{};  // shown names -> native names (with a crosswalk)
  std::optional<generate::NativeNames> native_names{};      // the same for generators (with a crosswalk)
  const catalog::Schema* slice = nullptr;                   // the schema sent with the question (linking)
  catalog::Schema sliced{};
  std::vector<std::pair<std::string, std::string>> drafts{};  // the linking stage's zero-shot drafts: generator, SQL
  std::vector<generate::PromptExample> examples{};            // the examples stage's selection, best first
  double db_wait = 0;                                         // database time of the stage being run
};

// The candidates of the generate stage and what became of them.
struct Pool {
  std::vector<Candidate> candidates;
  std::vector<std::optional<exec::ResultSet>> results;  // per candidate, when it ran
  std::set<std::string> ranked;                         // generators whose candidates are ranked readings
  std::vector<std::string> errors;                      // generators that failed, with why
  std::optional<Error> only_error;                      // the error of a lone generator that failed
};

GenerationRequest Request(const Context& ctx, const catalog::Schema* schema, int n, double temperature) {
  GenerationRequest r;
  r.question = ctx.question;
  r.evidence = ctx.options.evidence;
  r.schema = schema;
  r.dialect = &ctx.dialect;
  r.n = n;
  r.temperature = temperature;
  r.deadline = ctx.model_deadline;
  r.on_wait = ctx.options.on_wait;
  r.examples = ctx.examples;
  r.native_names = ctx.native_names ? &*ctx.native_names : nullptr;
  return r;
}

void CountGeneration(StageTrace& st, const Generation& g) {
  st.wait_ms += g.wait_ms;
  st.prompt_tokens += g.prompt_tokens;
  st.completion_tokens += g.completion_tokens;
}

// catalog: the snapshot is the caller's (introspected and cached once per database).
StageTrace CatalogStage(const Context& ctx) {
  return {"catalog", 0, 0, 0, 0, {{"tables", ctx.native.tables.size()}, {"note", "snapshot given by the caller"}}};
}

// naturalness: the names generators see, and the translator back to native names, once per question.
StageTrace NaturalnessStage(Context& ctx) {
  auto t0 = Clock::now();
  StageTrace st{"naturalness"};
  const sql::NameCatalog native_names = catalog::ToNameCatalog(ctx.native);
  if (ctx.options.crosswalk) {
    // Two names a crosswalk gives one name would make the translation back ambiguous: the later gets name_2.
    std::vector<std::string> collisions;
    ctx.crosswalk = naturalness::ResolveCollisions(*ctx.options.crosswalk, native_names, &collisions);
    const naturalness::Crosswalk& cw = *ctx.crosswalk;
    ctx.natural = naturalness::NaturalSchema(ctx.native, cw, ctx.options.level);
    ctx.shown = &ctx.natural;
    ctx.to_native.emplace(native_names, cw, ctx.options.level, naturalness::Level::kNative);
    ctx.shown_names = ctx.to_native->FromNames();
    if (!collisions.empty()) st.detail["collisions"] = collisions;
    const naturalness::Level level = ctx.options.level;
    ctx.native_names =
        generate::NativeNames{[&ctx](const sql::Query& q) { return ctx.to_native->Apply(q, ctx.dialect); },
                              [&cw, level](const std::string& table, const std::string& column) {
                                return std::optional<std::pair<std::string, std::string>>(
                                    std::pair(cw.TableName(table, level), cw.ColumnName(table, column, level)));
                              },
                              std::string(naturalness::LevelCode(level))};
    st.detail["names"] = "natural (crosswalk)";
  } else {
    ctx.shown = &ctx.native;
    ctx.shown_names = native_names;
    st.detail["names"] = "native";
  }
  ctx.slice = ctx.shown;
  st.ms = MsSince(t0);
  return st;
}

// The largest schema (in columns) the built-in subsetter drafts over when the pipeline builds it: a draft indexes the
// whole schema (about a second per 10,000 columns), more than a question on a very large schema can afford.
constexpr size_t kDraftLinkColumns = 2500;

// slice = link (or auto on a large schema): the subsetter's tables and columns, with their keys, are what every later
// stage sends. A subsetter that fails leaves the full schema, with the error in the trace.
void LinkSlice(Context& ctx, StageTrace& st) {
  std::unique_ptr<linking::Subsetter> owned;
  linking::Subsetter* subsetter = ctx.options.subsetter;
  if (subsetter == nullptr) {
    // Without a crosswalk, and on a schema small enough for the built-in translator to draft over quickly, the
    // subsetter reads the database (a draft as evidence); larger schemas are linked from their names alone.
    exec::Connection* conn =
        ctx.options.crosswalk || ctx.shown->ColumnCount() > kDraftLinkColumns ? nullptr : &ctx.conn;
    auto resources = builtin::SharedLinkResources();
    if (!resources) {
      st.detail["errors"].push_back("link: " + resources.error().message);
      return;
    }
    auto made = linking::MakeSubsetter("builtin", *ctx.shown, conn, nullptr, *resources);
    if (!made) {
      st.detail["errors"].push_back("link: " + made.error().message);
      return;
    }
    owned = std::move(*made);
    subsetter = owned.get();
  }
  auto subset = subsetter->Select(ctx.question, ctx.options.link);
  if (!subset) {
    st.detail["errors"].push_back("link (" + subsetter->Name() + "): " + subset.error().message);
    return;
  }
  ctx.sliced = catalog::RestrictSchema(*ctx.shown, SubsetEntries(*subset)).schema;
  ctx.slice = &ctx.sliced;
  const size_t columns = ctx.sliced.ColumnCount();
  nlohmann::ordered_json detail = {
      {"method", subsetter->Name()},
      {"tables", subset->tables},
      {"columns", columns},
      {"of_columns", ctx.shown->ColumnCount()},
      {"budget", ctx.options.link.budget},
      {"tokens", catalog::EstimateTokens(catalog::RenderPromptDdl(ctx.sliced, ctx.dialect, 0))},
      {"ms", subset->ms}};
  if (!subset->notes.empty()) detail["notes"] = subset->notes;
  st.detail["subset"] = std::move(detail);
}

// linking: with slice = link, the subset; with a draft, a zero-shot candidate per generator over the schema so far;
// with slice = referenced, the tables the drafts read.
std::optional<StageTrace> LinkingStage(Context& ctx, const std::vector<Generator*>& generators) {
  const bool link = LinksSchema(ctx.options.slice, ctx.shown->ColumnCount(), ctx.options.link_above);
  if (!ctx.options.draft && ctx.options.slice != "referenced" && !link) return std::nullopt;
  StageTrace st{"linking"};
  auto t0 = Clock::now();
  if (link) LinkSlice(ctx, st);
  std::set<std::string> tables;
  for (Generator* g : generators) {
    if (!ctx.options.draft && ctx.options.slice != "referenced") break;
    auto gen = g->Generate(Request(ctx, ctx.slice, 1, 0));
    if (!gen) {
      st.detail["errors"].push_back(g->Name() + ": " + gen.error().message);
      continue;
    }
    CountGeneration(st, *gen);
    for (size_t i = 0; i < gen->candidates.size(); ++i) {
      st.detail["drafts"].push_back(gen->candidates[i]);
      if (!Trim(gen->candidates[i]).empty()) ctx.drafts.emplace_back(g->Name(), gen->candidates[i]);
      std::shared_ptr<const sql::Query> tree = i < gen->queries.size() ? gen->queries[i] : nullptr;
      if (!tree) {
        auto parsed = sql::ParseQuery(gen->candidates[i], ctx.dialect);
        if (!parsed) continue;
        tree = std::make_shared<const sql::Query>(std::move(*parsed));
      }
      for (const auto& t : sql::Resolve(*tree, ctx.shown_names, ctx.dialect).tables) tables.insert(ToLower(t));
    }
  }
  if (ctx.options.slice == "referenced" && !tables.empty()) {
    ctx.sliced = SliceSchema(*ctx.shown, tables);
    ctx.slice = &ctx.sliced;
  }
  if (ctx.slice == ctx.shown) {
    st.detail["slice"] = "full schema";
  } else if (!link) {
    st.detail["slice"] = std::vector<std::string>(tables.begin(), tables.end());
  } else {
    st.detail["slice"] = "link";
  }
  st.ms = MsSince(t0);
  return st;
}

// The draft the examples are selected with: the linking stage's first, else a zero-shot answer of the first generator
// (the model's with an LLM, the built-in translator's offline), else the fallback's when that one failed.
std::pair<std::string, std::string> ExamplesDraft(Context& ctx, const std::vector<Generator*>& generators,
                                                  StageTrace& st) {
  if (!ctx.drafts.empty()) return ctx.drafts.front();
  std::vector<Generator*> drafters = {generators.front()};
  if (Generator* fb = ctx.options.fallback ? ctx.options.fallback_generator : nullptr; fb && fb != drafters.front()) {
    drafters.push_back(fb);
  }
  for (Generator* g : drafters) {
    auto gen = g->Generate(Request(ctx, ctx.slice, 1, 0));
    if (!gen) {
      st.detail["errors"].push_back(g->Name() + ": " + gen.error().message);
      continue;
    }
    CountGeneration(st, *gen);
    for (const auto& c : gen->candidates) {
      if (!Trim(c).empty()) return {g->Name(), c};
    }
  }
  return {};
}

// examples: with a store, the draft, then the selection (examples_stage.h); the examples go into every generation
// request from here on. Without a store, nothing.
StageTrace ExamplesStage(Context& ctx, const std::vector<Generator*>& generators) {
  StageTrace st{"examples"};
  const ExamplesOptions& eo = ctx.options.examples;
  if (!eo.library) {
    st.detail["note"] = "no example store configured: nothing selected (ask --examples STORE, or [pipeline] examples)";
    return st;
  }
  auto t0 = Clock::now();
  auto [by, draft] = ExamplesDraft(ctx, generators, st);
  auto t1 = Clock::now();
  ExampleSelection selection = SelectExamples(&ctx.conn, ctx.native, ctx.question, draft, by, ctx.dialect, eo);
  ctx.examples = selection.prompt;
  nlohmann::ordered_json detail = SelectionToJson(selection, eo);
  if (st.detail.contains("errors")) detail["errors"] = st.detail["errors"];
  st.detail = std::move(detail);
  st.detail["select_ms"] = MsSince(t1);
  st.ms = MsSince(t0);
  return st;
}

// generate: k candidates from every generator, each with its tree when the generator has one.
StageTrace GenerateStage(const Context& ctx, const std::vector<Generator*>& generators, Pool& pool) {
  StageTrace st{"generate"};
  auto t0 = Clock::now();
  int k = std::max(1, ctx.options.candidates);
  double temperature = ctx.options.temperature >= 0 ? ctx.options.temperature : (k > 1 ? 0.7 : 0.0);
  for (Generator* g : generators) {
    auto gen = g->Generate(Request(ctx, ctx.slice, k, temperature));
    if (!gen) {
      // One generator failing (a timeout, a refused request) leaves the others.
      st.detail["errors"].push_back(g->Name() + ": " + gen.error().message);
      pool.errors.push_back(g->Name() + ": " + gen.error().message);
      if (generators.size() == 1) pool.only_error = gen.error();
      continue;
    }
    CountGeneration(st, *gen);
    for (const auto& n : gen->notes) st.detail["notes"].push_back(g->Name() + ": " + n);
    for (size_t i = 0; i < gen->candidates.size(); ++i) {
      Candidate c;
      c.generator = g->Name();
      c.sql = gen->candidates[i];
      if (i < gen->queries.size()) c.query = gen->queries[i];
      if (i < gen->confidence.size()) c.confidence = gen->confidence[i];
      if (i < gen->caveats.size()) c.caveat = gen->caveats[i];
      if (i < gen->unsure.size()) c.unsure = gen->unsure[i];
      pool.candidates.push_back(std::move(c));
    }
    if (gen->ranked) pool.ranked.insert(g->Name());
  }
  pool.results.resize(pool.candidates.size());
  st.detail["candidates"] = pool.candidates.size();
  st.ms = MsSince(t0);
  return st;
}

// The candidate's tree at the names it was written with: the generator's, or its text parsed here, once. False (with
// status and problem set) when there is no query or it is not a single read-only query.
bool EnsureTree(const Context& ctx, Candidate& c) {
  if (c.query) return true;
  if (Trim(c.sql).empty()) {
    c.status = "no sql";
    c.problem = "the reply held no SQL query";
    return false;
  }
  auto parsed = sql::ParseQuery(c.sql, ctx.dialect);
  if (!parsed) {
    c.status = parsed.error().code == ErrorCode::kNotReadOnly ? "refused" : "error";
    c.problem = parsed.error().message;
    return false;
  }
  c.query = std::make_shared<const sql::Query>(std::move(*parsed));
  return true;
}

// Resolve, rewrite to native names and run one candidate, on its tree; sets status and problem, returns the result
// when it ran. The executor checks the tree (read-only, allowlists, ceilings) without parsing it again.
std::optional<exec::ResultSet> TryCandidate(Context& ctx, Candidate& c) {
  c.problem.clear();
  c.native.reset();
  if (!EnsureTree(ctx, c)) return std::nullopt;
  std::vector<sql::UnresolvedName> unresolved;
  if (ctx.to_native) {
    c.native = std::make_shared<const sql::Query>(ctx.to_native->Apply(*c.query, ctx.dialect, &unresolved));
  } else {
    unresolved = sql::Resolve(*c.query, ctx.shown_names, ctx.dialect).unresolved;
    c.native = c.query;
  }
  if (!unresolved.empty()) {
    std::vector<std::string> names;
    names.reserve(unresolved.size());
    for (const auto& u : unresolved) names.push_back(fmt::format("{} '{}'", u.kind, u.name));
    c.status = "unknown name";
    c.problem = "the schema has no " + Join(names, ", no ");
    return std::nullopt;
  }
  // No query outlives the question's deadline (at least a second, so that a fallback still gets to run).
  exec::Limits limits = ctx.options.limits;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(ctx.deadline - Clock::now());
  limits.timeout =
      std::clamp(left, std::chrono::milliseconds(1000), std::max(limits.timeout, std::chrono::milliseconds(1000)));
  auto t0 = Clock::now();
  auto rs = ctx.conn.QueryParsed(*c.native, limits);
  ctx.db_wait += MsSince(t0);
  if (!rs) {
    c.status = rs.error().code == ErrorCode::kNotReadOnly ? "refused" : "error";
    c.problem = rs.error().message;
    return std::nullopt;
  }
  c.status = rs->rows.empty() ? "empty" : "ok";
  if (rs->rows.empty()) c.problem = "the query returned no rows";
  return std::move(*rs);
}

int StatusRank(const std::string& s) { return s == "ok" ? 2 : s == "empty" ? 1 : 0; }

bool WorthRefining(const Options& o, const Candidate& c) {
  return c.status != "ok" && (c.status != "empty" || o.refine_empty) && c.status != "refused";
}

// Repairs one candidate with its generator, in bounded rounds, while the model deadline allows. Returns the rounds.
int RefineCandidate(Context& ctx, Generator* g, Candidate& c, std::optional<exec::ResultSet>& result, StageTrace& st) {
  int rounds = 0;
  while (ctx.options.refine && g && g->CanRefine() && c.refinements < ctx.options.max_refinements &&
         WorthRefining(ctx.options, c) && Clock::now() < ctx.model_deadline) {
    GenerationRequest r = Request(ctx, ctx.slice, 1, 0);
    r.previous_sql = c.sql;
    r.problem = c.problem;
    auto gen = g->Generate(r);
    if (!gen) {
      st.detail["errors"].push_back(g->Name() + ": " + gen.error().message);
      break;
    }
    CountGeneration(st, *gen);
    ++c.refinements;
    ++rounds;
    Candidate repaired = c;
    repaired.sql = gen->candidates.empty() ? "" : gen->candidates.front();
    repaired.query = gen->queries.empty() ? nullptr : gen->queries.front();
    auto rs = TryCandidate(ctx, repaired);
    bool repaired_empty = repaired.status == "empty";
    // Keep the repair when it is no worse: an empty result beats an error, a result beats both.
    if (StatusRank(repaired.status) >= StatusRank(c.status)) {
      c = std::move(repaired);
      result = std::move(rs);
    }
    if (c.status == "empty" && repaired_empty) break;  // still empty after a repair: it may be the answer
  }
  return rounds;
}

// refine: run every candidate; repair those that fail; a ranked generator is represented by its first reading that
// ran.
StageTrace RefineStage(Context& ctx, const std::vector<Generator*>& generators, Pool& pool) {
  StageTrace st{"refine"};
  auto t0 = Clock::now();
  ctx.db_wait = 0;
  std::map<std::string, Generator*> by_name;
  for (Generator* g : generators) by_name[g->Name()] = g;
  int rounds = 0;
  for (size_t i = 0; i < pool.candidates.size(); ++i) {
    Candidate& c = pool.candidates[i];
    pool.results[i] = TryCandidate(ctx, c);
    rounds += RefineCandidate(ctx, by_name[c.generator], c, pool.results[i], st);
  }
  std::set<std::string> represented;
  for (size_t i = 0; i < pool.candidates.size(); ++i) {
    Candidate& c = pool.candidates[i];
    if (!pool.ranked.count(c.generator) || !pool.results[i]) continue;
    if (represented.insert(c.generator).second) continue;
    pool.results[i].reset();
    c.status = "not needed";
    c.problem = "an earlier reading of " + c.generator + " ran";
  }
  st.wait_ms += ctx.db_wait;
  st.detail["refinements"] = rounds;
  st.ms = MsSince(t0);
  return st;
}

// vote: bucket the candidates that ran by result (order matters only when the query orders: ORDER BY read from the
// tree), largest bucket wins; ties go to the bucket whose first candidate came first. Results with rows beat empty
// ones. Returns the winner, or candidates.size() when none ran.
size_t VoteStage(const Options& options, Pool& pool, StageTrace& st) {
  auto t0 = Clock::now();
  std::vector<Candidate>& cs = pool.candidates;
  std::map<std::string, std::vector<size_t>> buckets;
  for (size_t i = 0; i < cs.size(); ++i) {
    if (!pool.results[i]) continue;
    bool ordered = cs[i].native && !cs[i].native->order_by.empty();
    cs[i].fingerprint =
        ordered ? exec::OrderedFingerprint(*pool.results[i]) : exec::MultisetFingerprint(*pool.results[i]);
    buckets[(cs[i].status == "ok" ? "1" : "0") + cs[i].fingerprint].push_back(i);
  }
  for (const auto& [key, members] : buckets) {
    for (size_t i : members) cs[i].votes = members.size();
  }
  auto better = [&](size_t a, size_t b) {  // is candidate a's bucket better than b's?
    if ((cs[a].status == "ok") != (cs[b].status == "ok")) return cs[a].status == "ok";
    if (options.vote && cs[a].votes != cs[b].votes) return cs[a].votes > cs[b].votes;
    return a < b;
  };
  size_t winner = cs.size();
  for (size_t i = 0; i < cs.size(); ++i) {
    if (pool.results[i] && (winner == cs.size() || better(i, winner))) winner = i;
  }
  st.detail["buckets"] = buckets.size();
  if (winner < cs.size()) st.detail["winner"] = winner;
  st.ms = MsSince(t0);
  return winner;
}

// Why the generators' candidates gave no answer, for messages and the fallback note.
std::string Problems(const Pool& pool) {
  std::vector<std::string> problems = pool.errors;
  for (const auto& c : pool.candidates) problems.push_back(fmt::format("{}: {}", c.generator, c.problem));
  return problems.empty() ? "none generated" : Join(problems, "; ");
}

// Appends a finished stage (its name with `suffix`) to the trace and tells Options::on_stage.
void Push(const Options& options, Answer& answer, StageTrace stage, const std::string& suffix = "") {
  stage.stage += suffix;
  answer.trace.push_back(std::move(stage));
  if (options.on_stage) options.on_stage(answer.trace.back());
}

// generate, refine and vote for one set of generators; the stages are appended to `answer`. Returns the winner's
// index in `pool`, or pool.candidates.size().
size_t Candidates(Context& ctx, const std::vector<Generator*>& generators, Pool& pool, Answer& answer,
                  const std::string& suffix) {
  Push(ctx.options, answer, GenerateStage(ctx, generators, pool), suffix);
  Push(ctx.options, answer, RefineStage(ctx, generators, pool), suffix);
  StageTrace vote{"vote"};
  size_t winner = VoteStage(ctx.options, pool, vote);
  Push(ctx.options, answer, std::move(vote), suffix);
  return winner;
}

// The generator that answers when every model failed: the configured fallback when it is not already among the
// generators that failed, else none.
Generator* FallbackFor(const Options& options, const std::vector<Generator*>& generators) {
  if (!options.fallback || !options.fallback_generator) return nullptr;
  for (Generator* g : generators) {
    if (g == options.fallback_generator || g->Offline()) return nullptr;  // it already had its say
  }
  return options.fallback_generator;
}

// rewrite, execute, answer: the winner's native tree printed once, its result, and the trace closed.
void AnswerStage(Context& ctx, Pool& pool, size_t winner, Answer& answer) {
  auto t0 = Clock::now();
  Candidate& won = pool.candidates[winner];
  won.native_sql = sql::Print(*won.native, ctx.dialect);
  Push(ctx.options, answer,
       {"rewrite",
        MsSince(t0),
        0,
        0,
        0,
        {{"names", ctx.to_native ? "natural -> native (on the tree, before each run)" : "native"}}});
  answer.sql = won.native_sql;
  answer.result = std::move(*pool.results[winner]);
  // The winner ran during refinement; its time is shown again here but was already counted as a wait there.
  Push(ctx.options, answer,
       {"execute",
        answer.result.elapsed_ms,
        answer.result.elapsed_ms,
        0,
        0,
        {{"rows", answer.result.rows.size()}, {"truncated", answer.result.truncated}}});
  answer.winner = answer.candidates.size() + winner;
  for (auto& c : pool.candidates) answer.candidates.push_back(std::move(c));
}

}  // namespace

Result<Answer> Ask(exec::Connection& conn, const catalog::Schema& schema, const std::vector<Generator*>& generators,
                   const std::string& question, const Options& options) {
  if (generators.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, "no generator: configure an LLM or the built-in translator");
  }
  // Checked here, not only by the CLI and the server: an embedding application's empty text would otherwise go to the
  // model and come back as a guess or a misleading "nothing links".
  if (Trim(question).empty()) return MakeError(ErrorCode::kInvalidArgument, "the question is empty");
  if (question.size() > kMaxQuestionBytes) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("the question is {} bytes long; plainsql takes questions of at most {} bytes",
                                 question.size(), kMaxQuestionBytes));
  }
  Context ctx(conn, schema, question, options);
  Answer answer;
  Push(options, answer, CatalogStage(ctx));
  Push(options, answer, NaturalnessStage(ctx));
  if (const auto& d = answer.trace.back().detail; d.contains("collisions")) {
    for (const auto& c : d["collisions"]) answer.notes.push_back("crosswalk: " + c.get<std::string>());
  }
  if (auto linking = LinkingStage(ctx, generators)) Push(options, answer, std::move(*linking));
  Push(options, answer, ExamplesStage(ctx, generators));
  Pool pool;
  size_t winner = Candidates(ctx, generators, pool, answer, "");
  if (winner == pool.candidates.size()) {
    Generator* fallback = FallbackFor(options, generators);
    if (!fallback) {
      if (pool.only_error && pool.candidates.empty()) return *pool.only_error;
      return MakeError(ErrorCode::kNotFound, fmt::format("no candidate query ran ({})", Problems(pool)));
    }
    answer.notes.push_back(fmt::format("the model gave no usable answer ({}); the {} translator answered instead",
                                       Problems(pool), fallback->Name() == "builtin" ? "built-in" : fallback->Name()));
    answer.fell_back = true;
    for (auto& c : pool.candidates) answer.candidates.push_back(std::move(c));
    pool = Pool{};
    winner = Candidates(ctx, {fallback}, pool, answer, " (fallback)");
    if (winner == pool.candidates.size()) {
      return MakeError(ErrorCode::kNotFound,
                       fmt::format("no candidate query ran ({}; and {})", answer.notes.back(), Problems(pool)));
    }
  }
  AnswerStage(ctx, pool, winner, answer);
  double waits = 0;
  for (const auto& st : answer.trace) waits += st.stage == "execute" ? 0 : st.wait_ms;
  answer.own_ms = std::max(0.0, MsSince(ctx.started) - waits);
  return answer;
}

nlohmann::ordered_json AnswerToJson(const Answer& answer) {
  nlohmann::ordered_json j = {{"sql", answer.sql}};
  nlohmann::ordered_json rs = exec::ResultToJson(answer.result);
  for (const auto& [k, v] : rs.items()) j[k] = v;
  if (!answer.notes.empty()) j["notes"] = answer.notes;
  nlohmann::ordered_json stages = nlohmann::ordered_json::array();
  for (const auto& s : answer.trace) {
    stages.push_back({{"stage", s.stage},
                      {"ms", s.ms},
                      {"wait_ms", s.wait_ms},
                      {"prompt_tokens", s.prompt_tokens},
                      {"completion_tokens", s.completion_tokens},
                      {"detail", s.detail}});
  }
  nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
  for (const auto& c : answer.candidates) {
    candidates.push_back({{"generator", c.generator},
                          {"sql", c.sql},
                          {"status", c.status},
                          {"problem", c.problem},
                          {"refinements", c.refinements},
                          {"votes", c.votes}});
    if (c.confidence >= 0) candidates.back()["confidence"] = c.confidence;
    if (!c.caveat.empty()) candidates.back()["caveat"] = c.caveat;
    if (!c.unsure.empty()) candidates.back()["unsure"] = c.unsure;
  }
  j["trace"] = {{"stages", stages}, {"candidates", candidates}, {"own_ms", answer.own_ms}};
  return j;
}

std::string TraceText(const Answer& answer) {
  std::string out;
  for (const auto& s : answer.trace) {
    out += fmt::format("{:<9} {:>9.2f} ms", s.stage, s.ms);
    if (s.prompt_tokens || s.completion_tokens) {
      out += fmt::format("  tokens {} + {}", s.prompt_tokens, s.completion_tokens);
    }
    if (!s.detail.empty()) out += "  " + s.detail.dump();
    out += "\n";
  }
  for (size_t i = 0; i < answer.candidates.size(); ++i) {
    const auto& c = answer.candidates[i];
    out += fmt::format("candidate {} [{}] {} votes={} refinements={}: {}{}\n", i + 1, c.generator, c.status, c.votes,
                       c.refinements, c.sql, c.problem.empty() ? "" : "  -- " + c.problem);
  }
  out += fmt::format("pipeline's own work: {:.2f} ms\n", answer.own_ms);
  return out;
}

}  // namespace plainsql::pipeline
