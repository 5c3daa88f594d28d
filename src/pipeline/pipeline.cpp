// The ask pipeline (see pipeline.h).
#include "pipeline/pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "builtin/translator.h"
#include "catalog/name_catalog.h"
#include "catalog/render.h"
#include "common/file.h"
#include "common/strings.h"
#include "exec/fingerprint.h"
#include "exec/render.h"
#include "linking/linker.h"
#include "llm/extract.h"
#include "llm/prompt.h"
#include "naturalness/classifier.h"
#include "naturalness/expander.h"
#include "retrieval/value_index.h"
#include "retrieval/wordnet.h"
#include "sql/dialect.h"
#include "sql/parser.h"
#include "sql/resolver.h"
#include "views/middleware.h"

namespace plainsql::pipeline {

namespace {

using Clock = std::chrono::steady_clock;
double MsSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::string DialectTitle(const std::string& d) {
  if (d == "postgres") return "PostgreSQL";
  if (d == "tsql") return "T-SQL (SQL Server)";
  return "SQLite";
}

class LlmGenerator final : public Generator {
 public:
  LlmGenerator(llm::Client client, std::string style) : client_(std::move(client)), style_(std::move(style)) {}
  std::string Name() const override { return "llm:" + client_.GetConfig().model; }
  bool CanRefine() const override { return true; }

  Result<Generation> Generate(const GenerationRequest& request) override {
    auto messages = BuildPrompt(request, request.previous_sql.empty() ? style_ : "refine");
    if (!messages) return messages.error();
    llm::ChatRequest chat;
    chat.messages = std::move(*messages);
    chat.n = std::max(1, request.n);
    chat.temperature = request.temperature;
    auto reply = client_.Chat(chat);
    if (!reply) return reply.error();
    Generation g;
    g.prompt_tokens = reply->prompt_tokens;
    g.completion_tokens = reply->completion_tokens;
    g.wait_ms = reply->elapsed_ms;
    // A server that ignores `n` gives one choice: ask again until there are enough (each counted).
    std::vector<std::string> choices = reply->choices;
    for (int extra = 0; static_cast<int>(choices.size()) < request.n && extra < request.n; ++extra) {
      chat.n = 1;
      auto more = client_.Chat(chat);
      if (!more) return more.error();
      g.prompt_tokens += more->prompt_tokens;
      g.completion_tokens += more->completion_tokens;
      g.wait_ms += more->elapsed_ms;
      choices.insert(choices.end(), more->choices.begin(), more->choices.end());
    }
    for (const auto& c : choices) g.candidates.push_back(llm::ExtractSql(c));
    return g;
  }

 private:
  llm::Client client_;
  std::string style_;
};

// The schema restricted to `tables` (lower-case names), keeping only foreign keys between kept tables.
catalog::Schema Slice(const catalog::Schema& schema, const std::set<std::string>& tables) {
  catalog::Schema out = schema;
  std::erase_if(out.tables, [&](const catalog::Table& t) { return !tables.count(ToLower(t.name)); });
  for (auto& t : out.tables) {
    std::erase_if(t.foreign_keys, [&](const catalog::ForeignKey& fk) { return !tables.count(ToLower(fk.ref_table)); });
  }
  return out;
}

class BuiltinGenerator final : public Generator {
 public:
  // The expander reads the classifier's word list, so the generator keeps the classifier.
  BuiltinGenerator(exec::Connection& conn, const catalog::Schema& schema, naturalness::Classifier classifier,
                   std::map<std::string, std::string> abbreviations, std::shared_ptr<const retrieval::WordNet> wordnet)
      : conn_(conn),
        schema_(schema),
        classifier_(std::move(classifier)),
        expander_(classifier_.Words(), std::move(abbreviations)),
        wordnet_(std::move(wordnet)) {}
  std::string Name() const override { return "builtin"; }
  bool CanRefine() const override { return false; }

  Result<Generation> Generate(const GenerationRequest& request) override {
    const catalog::Schema& shown = request.schema ? *request.schema : schema_;
    // The value index reads the database once; values name native tables, so they help only with native names.
    bool native = shown.tables.size() == schema_.tables.size() &&
                  std::equal(shown.tables.begin(), shown.tables.end(), schema_.tables.begin(),
                             [](const catalog::Table& a, const catalog::Table& b) { return a.name == b.name; });
    if (native && !values_) {
      auto v = retrieval::ValueIndex::Build(conn_, schema_);
      if (!v) return v.error();
      values_ = std::make_unique<retrieval::ValueIndex>(std::move(*v));
    }
    auto& index = indexes_[&shown];
    if (!index) index = std::make_unique<linking::SchemaIndex>(shown, stemmer_, &expander_, wordnet_.get());
    builtin::Translator translator(shown, *index, native ? values_.get() : nullptr);
    auto dialect = sql::DialectByName(request.dialect);
    builtin::Translation t = translator.Translate(request.question, dialect ? **dialect : sql::Sqlite(), stemmer_);
    if (t.candidates.empty()) {
      std::string unlinked = t.unlinked.empty() ? "" : " (not linked: " + Join(t.unlinked, ", ") + ")";
      return MakeError(ErrorCode::kNotFound, "the built-in translator cannot answer this: " + t.reason + unlinked);
    }
    // Its readings are alternatives, best first, not samples: all of them go to the vote (at least three), where a
    // reading that runs and returns rows beats one that fails or returns nothing.
    Generation g;
    g.ranked = true;
    for (const auto& c : t.candidates) {
      if (static_cast<int>(g.candidates.size()) >= std::max(3, request.n)) break;
      g.candidates.push_back(c.sql);
      g.confidence.push_back(c.score);
      g.caveats.push_back(t.unlinked.empty() ? "" : "not linked: " + Join(t.unlinked, ", "));
      for (const auto& n : c.notes) g.notes.push_back(n);
      g.notes.push_back(fmt::format("score {:.2f}", c.score));
    }
    if (!t.unlinked.empty()) g.notes.push_back("not linked: " + Join(t.unlinked, ", "));
    if (!wordnet_) {
      g.notes.emplace_back("WordNet not found (package wordnet-base): names linked as written, no synonyms");
    }
    return g;
  }

 private:
  exec::Connection& conn_;
  const catalog::Schema& schema_;
  naturalness::Classifier classifier_;
  naturalness::Expander expander_;
  std::shared_ptr<const retrieval::WordNet> wordnet_;  // null when WordNet is not installed: no synonyms
  retrieval::Stemmer stemmer_;
  std::unique_ptr<retrieval::ValueIndex> values_;
  std::map<const catalog::Schema*, std::unique_ptr<linking::SchemaIndex>> indexes_;
};

}  // namespace

Result<std::unique_ptr<Generator>> MakeBuiltinGenerator(exec::Connection& conn, const catalog::Schema& schema) {
  auto classifier = naturalness::Classifier::Load(DataDir());
  if (!classifier) return classifier.error();
  auto abbreviations = naturalness::Expander::LoadAbbreviations(DataDir() + "/abbreviations.tsv");
  if (!abbreviations) return abbreviations.error();
  // WordNet is read once per process and shared; without it the translator links names as written only.
  static const std::shared_ptr<const retrieval::WordNet> kWordNet = [] {
    auto wn = retrieval::WordNet::Open();
    return wn ? *wn : nullptr;
  }();
  return std::unique_ptr<Generator>(
      new BuiltinGenerator(conn, schema, std::move(*classifier), std::move(*abbreviations), kWordNet));
}

Result<std::vector<llm::Message>> BuildPrompt(const GenerationRequest& request, const std::string& style) {
  if (!request.schema) return MakeError(ErrorCode::kInvalidArgument, "no schema for the prompt");
  auto tmpl = llm::PromptTemplate::Load(style);
  if (!tmpl) return tmpl.error();
  auto rules = llm::DialectRules(request.dialect);
  if (!rules) return rules.error();
  auto dialect = sql::DialectByName(request.dialect);
  const sql::Dialect& d = dialect ? **dialect : sql::Sqlite();
  std::map<std::string, std::string> vars = {
      {"dialect", DialectTitle(request.dialect)},
      {"dialect_rules", *rules},
      {"question", request.question},
      {"evidence", request.evidence.empty() ? "" : "Knowledge: " + request.evidence},
      {"sql", request.previous_sql},
      {"problem", request.problem},
      {"examples_dail", ""},
  };
  // Only the renderings the template uses.
  for (const auto& key : tmpl->Placeholders()) {
    if (key == "schema_ddl") vars[key] = catalog::RenderPromptDdl(*request.schema, d);
    if (key == "schema_ddl_plain") vars[key] = catalog::RenderDdl(*request.schema, d);
    if (key == "schema_snails") vars[key] = catalog::RenderPromptSnails(*request.schema);
  }
  return tmpl->Render(vars);
}

Result<std::unique_ptr<Generator>> MakeLlmGenerator(llm::Config config, const std::string& style) {
  auto styles = llm::PromptStyles();
  if (std::find(styles.begin(), styles.end(), style) == styles.end()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("unknown prompt style '{}': {}", style, Join(styles, ", ")));
  }
  if (auto t = llm::PromptTemplate::Load(style); !t) return t.error();
  auto client = llm::Client::Create(std::move(config));
  if (!client) return client.error();
  return std::unique_ptr<Generator>(new LlmGenerator(std::move(*client), style));
}

Result<Answer> Ask(exec::Connection& conn, const catalog::Schema& schema, const std::vector<Generator*>& generators,
                   const std::string& question, const Options& options) {
  auto started = Clock::now();
  if (generators.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, "no generator: configure an LLM or the built-in translator");
  }
  const sql::Dialect& dialect = conn.dialect();
  const std::string dialect_name(dialect.name);
  const sql::NameCatalog native_names = catalog::ToNameCatalog(schema);
  // What the generators see: natural names when a crosswalk is active.
  const catalog::Schema shown =
      options.crosswalk ? views::NaturalSchema(schema, *options.crosswalk, options.level) : schema;
  const sql::NameCatalog shown_names = catalog::ToNameCatalog(shown);
  Answer answer;
  double waits = 0;
  auto add_stage = [&](StageTrace t) {
    waits += t.wait_ms;
    answer.trace.push_back(std::move(t));
  };

  // Draft and slice.
  const catalog::Schema* slice = &shown;
  catalog::Schema sliced;
  if (options.draft || options.slice == "referenced") {
    StageTrace st{"draft"};
    auto t0 = Clock::now();
    std::set<std::string> tables;
    for (Generator* g : generators) {
      GenerationRequest r{question, options.evidence, &shown, dialect_name, 1, 0, "", ""};
      auto gen = g->Generate(r);
      if (!gen) {
        st.detail["errors"].push_back(g->Name() + ": " + gen.error().message);
        continue;
      }
      st.wait_ms += gen->wait_ms;
      st.prompt_tokens += gen->prompt_tokens;
      st.completion_tokens += gen->completion_tokens;
      for (const auto& sql : gen->candidates) {
        st.detail["drafts"].push_back(sql);
        auto tree = sql::ParseQuery(sql, dialect);
        if (!tree) continue;
        for (const auto& t : sql::Resolve(*tree, shown_names, dialect).tables) tables.insert(ToLower(t));
      }
    }
    if (options.slice == "referenced" && !tables.empty()) {
      sliced = Slice(shown, tables);
      slice = &sliced;
    }
    st.detail["slice"] = slice == &shown
                             ? nlohmann::ordered_json("full schema")
                             : nlohmann::ordered_json(std::vector<std::string>(tables.begin(), tables.end()));
    st.ms = MsSince(t0);
    add_stage(std::move(st));
  }
  add_stage({"examples", 0, 0, 0, 0, {{"note", "no example store yet: nothing selected"}}});

  // Generate.
  std::set<std::string> ranked;  // generators whose candidates are ranked readings
  {
    StageTrace st{"generate"};
    auto t0 = Clock::now();
    int k = std::max(1, options.candidates);
    double temperature = options.temperature >= 0 ? options.temperature : (k > 1 ? 0.7 : 0.0);
    for (Generator* g : generators) {
      GenerationRequest r{question, options.evidence, slice, dialect_name, k, temperature, "", ""};
      auto gen = g->Generate(r);
      if (!gen) {
        // One generator failing (a timeout, a refused request) leaves the others; with none left, the error stands.
        st.detail["errors"].push_back(g->Name() + ": " + gen.error().message);
        if (generators.size() == 1) return gen.error();
        continue;
      }
      st.wait_ms += gen->wait_ms;
      st.prompt_tokens += gen->prompt_tokens;
      st.completion_tokens += gen->completion_tokens;
      for (const auto& n : gen->notes) st.detail["notes"].push_back(g->Name() + ": " + n);
      for (size_t i = 0; i < gen->candidates.size(); ++i) {
        Candidate c{g->Name(), gen->candidates[i], "", "", "", 0, "", 0, -1, ""};
        if (i < gen->confidence.size()) c.confidence = gen->confidence[i];
        if (i < gen->caveats.size()) c.caveat = gen->caveats[i];
        answer.candidates.push_back(std::move(c));
      }
      if (gen->ranked) ranked.insert(g->Name());
    }
    st.detail["candidates"] = answer.candidates.size();
    st.ms = MsSince(t0);
    add_stage(std::move(st));
  }

  // Check, translate and run one candidate; sets status and problem, returns the result when it ran.
  double db_wait = 0;
  auto try_candidate = [&](Candidate& c) -> std::optional<exec::ResultSet> {
    c.problem.clear();
    if (Trim(c.sql).empty()) {
      c.status = "no sql";
      c.problem = "the reply held no SQL query";
      return std::nullopt;
    }
    if (Status s = exec::CheckSingleQuery(c.sql, dialect); !s) {
      c.status = s.error().code == ErrorCode::kNotReadOnly ? "refused" : "error";
      c.problem = s.error().message;
      return std::nullopt;
    }
    auto tree = sql::ParseQuery(c.sql, dialect);
    auto resolution = sql::Resolve(*tree, shown_names, dialect);
    if (!resolution.unresolved.empty()) {
      std::vector<std::string> names;
      for (const auto& u : resolution.unresolved) names.push_back(fmt::format("{} '{}'", u.kind, u.name));
      c.status = "unknown name";
      c.problem = "the schema has no " + Join(names, ", no ");
      return std::nullopt;
    }
    c.native_sql = c.sql;
    if (options.crosswalk) {
      auto t = views::Translate(c.sql, native_names, *options.crosswalk, options.level, naturalness::Level::kNative,
                                dialect);
      if (!t) {
        c.status = "error";
        c.problem = t.error().message;
        return std::nullopt;
      }
      c.native_sql = t->sql;
    }
    auto t0 = Clock::now();
    auto rs = conn.Query(c.native_sql, options.limits);
    db_wait += MsSince(t0);
    if (!rs) {
      c.status = rs.error().code == ErrorCode::kNotReadOnly ? "refused" : "error";
      c.problem = rs.error().message;
      return std::nullopt;
    }
    c.status = rs->rows.empty() ? "empty" : "ok";
    if (rs->rows.empty()) c.problem = "the query returned no rows";
    return std::move(*rs);
  };

  // Refine.
  std::vector<std::optional<exec::ResultSet>> results(answer.candidates.size());
  {
    StageTrace st{"refine"};
    auto t0 = Clock::now();
    db_wait = 0;
    std::map<std::string, Generator*> by_name;
    for (Generator* g : generators) by_name[g->Name()] = g;
    int rounds_used = 0;
    for (size_t i = 0; i < answer.candidates.size(); ++i) {
      Candidate& c = answer.candidates[i];
      results[i] = try_candidate(c);
      Generator* g = by_name[c.generator];
      while (options.refine && g && g->CanRefine() && c.refinements < options.max_refinements &&
             (c.status != "ok" && (c.status != "empty" || options.refine_empty)) && c.status != "refused") {
        GenerationRequest r{question, options.evidence, slice, dialect_name, 1, 0, c.sql, c.problem};
        auto gen = g->Generate(r);
        if (!gen) {
          st.detail["errors"].push_back(g->Name() + ": " + gen.error().message);
          break;
        }
        st.wait_ms += gen->wait_ms;
        st.prompt_tokens += gen->prompt_tokens;
        st.completion_tokens += gen->completion_tokens;
        ++c.refinements;
        ++rounds_used;
        Candidate repaired = c;
        repaired.sql = gen->candidates.empty() ? "" : gen->candidates.front();
        auto rs = try_candidate(repaired);
        // Keep the repair when it is no worse: an empty result beats an error, a result beats both.
        auto rank = [](const std::string& s) { return s == "ok" ? 2 : s == "empty" ? 1 : 0; };
        if (rank(repaired.status) >= rank(c.status)) {
          c = repaired;
          results[i] = std::move(rs);
        }
        if (c.status == "empty" && rank(repaired.status) == 1) break;  // still empty: it may be the answer
      }
    }
    // A ranked generator is represented by its first reading that ran.
    std::set<std::string> represented;
    for (size_t i = 0; i < answer.candidates.size(); ++i) {
      Candidate& c = answer.candidates[i];
      if (!ranked.count(c.generator) || !results[i]) continue;
      if (represented.insert(c.generator).second) continue;
      results[i].reset();
      c.status = "not needed";
      c.problem = "an earlier reading of " + c.generator + " ran";
    }
    st.wait_ms += db_wait;
    st.detail["refinements"] = rounds_used;
    st.ms = MsSince(t0);
    add_stage(std::move(st));
  }

  // Vote: bucket the candidates that ran by result (order matters only when the query orders), largest bucket wins;
  // ties go to the bucket whose first candidate came first. Results with rows beat empty ones.
  size_t winner = answer.candidates.size();
  {
    StageTrace st{"vote"};
    auto t0 = Clock::now();
    std::map<std::string, std::vector<size_t>> buckets;
    for (size_t i = 0; i < answer.candidates.size(); ++i) {
      if (!results[i]) continue;
      Candidate& c = answer.candidates[i];
      bool ordered = ToLower(c.native_sql).find("order by") != std::string::npos;
      c.fingerprint = ordered ? exec::OrderedFingerprint(*results[i]) : exec::MultisetFingerprint(*results[i]);
      buckets[(c.status == "ok" ? "1" : "0") + c.fingerprint].push_back(i);
    }
    for (const auto& [key, members] : buckets) {
      for (size_t i : members) answer.candidates[i].votes = members.size();
    }
    auto better = [&](size_t a, size_t b) {  // is candidate a's bucket better than b's?
      const Candidate &ca = answer.candidates[a], &cb = answer.candidates[b];
      if ((ca.status == "ok") != (cb.status == "ok")) return ca.status == "ok";
      if (options.vote && ca.votes != cb.votes) return ca.votes > cb.votes;
      return a < b;
    };
    for (size_t i = 0; i < answer.candidates.size(); ++i) {
      if (!results[i]) continue;
      if (winner == answer.candidates.size() || better(i, winner)) winner = i;
    }
    st.detail["buckets"] = buckets.size();
    if (winner < answer.candidates.size()) st.detail["winner"] = winner;
    st.ms = MsSince(t0);
    add_stage(std::move(st));
  }
  if (winner == answer.candidates.size()) {
    std::vector<std::string> problems;
    for (const auto& c : answer.candidates) problems.push_back(fmt::format("{}: {}", c.generator, c.problem));
    return MakeError(ErrorCode::kNotFound, fmt::format("no candidate query ran ({})",
                                                       problems.empty() ? "none generated" : Join(problems, "; ")));
  }
  answer.winner = winner;
  answer.sql = answer.candidates[winner].native_sql;
  answer.result = std::move(*results[winner]);
  // The winner ran during refinement; its time is shown again here but was already counted as a wait there.
  answer.trace.push_back({"execute",
                          answer.result.elapsed_ms,
                          answer.result.elapsed_ms,
                          0,
                          0,
                          {{"rows", answer.result.rows.size()}, {"truncated", answer.result.truncated}}});
  double total = MsSince(started);
  answer.own_ms = std::max(0.0, total - waits);
  return answer;
}

nlohmann::ordered_json AnswerToJson(const Answer& answer) {
  nlohmann::ordered_json j = {{"sql", answer.sql}};
  nlohmann::ordered_json rs = exec::ResultToJson(answer.result);
  for (const auto& [k, v] : rs.items()) j[k] = v;
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
