// `plainsql features` (see features_cmd.h).
#include "features_cmd.h"

#include <fmt/format.h>

#include <chrono>

#include "catalog/render.h"
#include "cli.h"
#include "eval/benchmark.h"
#include "exec/connection.h"
#include "features/benchmark.h"
#include "features/extract.h"
#include "features/judge.h"
#include "linking/subset_builtin.h"
#include "llm/client.h"
#include "sql/parser.h"

namespace plainsql::cli {

FeaturesCommand::FeaturesCommand(CLI::App& app) {
  cmd_ = app.add_subcommand(
      "features",
      "Interpretable binary features of questions, their schema and their SQL (SQLSpace): --list for the catalog; "
      "CONN \"question\" [--sql SQL] for one question; --questions Q [--tables T] [--db-dir D] for a benchmark (each "
      "feature's share, or one JSON line per question with --json)");
  cmd_->add_option("conn", conn_, "The database (CONN)");
  cmd_->add_option("question", question_, "The question (\"-\" or none: standard input)");
  cmd_->add_option("--sql", sql_, "The question's SQL (for the SQL, semantic and gold features)");
  cmd_->add_flag("--list", list_, "Print the feature catalog: id, aspect, what it needs, source and text");
  cmd_->add_option("--questions", questions_, "A benchmark's questions (as for eval score)");
  cmd_->add_option("--benchmark", benchmark_, "spider | bird | snails | custom")->capture_default_str();
  cmd_->add_option("--tables", tables_, "tables.json, for the schemas");
  cmd_->add_option("--db-dir", db_dir_, "Folder of SQLite databases (Spider layout), for schemas and cell values");
  cmd_->add_flag("--no-sql", no_sql_, "Leave the gold SQL out: only the features a live question has");
  cmd_->add_flag("--judge", judge_,
                 "Also have a model judge the features only a model can (source model): one yes-or-no request per "
                 "feature and example, answers cached");
  cmd_->add_option("--llm", llm_url_, "--judge: OpenAI-compatible base URL (default: PLAINSQL_LLM_URL)");
  cmd_->add_option("--model", model_, "--judge: model name (default: PLAINSQL_LLM_MODEL)");
  cmd_->add_option("--judge-cache", judge_cache_,
                   "--judge: the answers' cache file (default: judgements.tsv in plainsql's cache folder)");
  cmd_->add_flag("--json", json_, "JSON: the catalog, or one object per question (features that hold, unknown ones)");
}

int FeaturesCommand::Run() {
  if (list_) return RunList();
  if (!questions_.empty()) {
    if (!conn_.empty()) {
      return Fail(MakeError(ErrorCode::kInvalidArgument, "give either CONN QUESTION or --questions, not both"));
    }
    return RunBenchmark();
  }
  if (conn_.empty()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, "give CONN QUESTION, --questions Q, or --list"));
  }
  return RunOne();
}

int FeaturesCommand::RunList() {
  nlohmann::json all = nlohmann::json::array();
  std::string text;
  for (const auto& f : features::Catalog()) {
    if (json_) {
      all.push_back({{"id", f.id},
                     {"aspect", features::AspectName(f.aspect)},
                     {"needs", features::NeedsName(f.needs)},
                     {"source", features::SourceName(f.source)},
                     {"text", f.text}});
    } else {
      text += fmt::format("{:<28} {:<16} {:<9} {}\n", f.id, features::AspectName(f.aspect),
                          features::NeedsName(f.needs), f.text);
    }
  }
  Write(json_ ? all.dump(2) + "\n" : text);
  return 0;
}

Result<std::unique_ptr<features::ModelJudge>> FeaturesCommand::Judge() const {
  if (!judge_) return std::unique_ptr<features::ModelJudge>();
  llm::Config config = llm::ConfigFromEnvironment();
  if (!llm_url_.empty()) config.base_url = llm_url_;
  if (!model_.empty()) config.model = model_;
  if (config.base_url.empty() || config.base_url == "none" || config.model.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "--judge needs a model: --llm URL --model NAME (or PLAINSQL_LLM_URL and PLAINSQL_LLM_MODEL)");
  }
  auto judge = features::ModelJudge::Open(config, judge_cache_);
  if (!judge) return judge.error();
  return std::make_unique<features::ModelJudge>(std::move(*judge));
}

namespace {

// One line per feature: its id and whether it holds (or is unknown).
std::string FeaturesText(const features::Values& values) {
  std::string out;
  const auto& catalog = features::Catalog();
  for (size_t i = 0; i < catalog.size(); ++i) {
    if (values[i] == 1) out += fmt::format("{:<28} {}\n", catalog[i].id, catalog[i].text);
  }
  return out;
}

}  // namespace

int FeaturesCommand::RunOne() {
  auto read = QuestionArgumentOrStdin(question_);
  if (!read) return Fail(read.error());
  const std::string& question = *read;
  auto conn = exec::Connect(conn_);
  if (!conn) return Fail(conn.error());
  auto target = SchemaFromConnection(**conn, {}, true);
  if (!target) return Fail(target.error());
  auto resources = linking::LinkResources::Load();
  if (!resources) return Fail(resources.error());
  features::Extractor extractor(*resources);
  auto db = extractor.Prepare(target->schema, conn->get());
  auto judge = Judge();
  if (!judge) return Fail(judge.error());
  auto got = extractor.Extract({question, "", sql_}, db.get(), (*conn)->dialect());
  if (!got.sql_error.empty()) return Fail(MakeError(ErrorCode::kInvalidArgument, "--sql: " + got.sql_error));
  if (*judge) {
    if (auto st = (*judge)->Judge({question, "", sql_}, catalog::RenderList(db->schema), got.values); !st) {
      return Fail(st.error());
    }
  }
  Write(json_ ? features::ToJson(got.values).dump() + "\n" : FeaturesText(got.values));
  return 0;
}

int FeaturesCommand::RunBenchmark() {
  auto benchmark = eval::LoadBenchmark(benchmark_, questions_);
  if (!benchmark) return Fail(benchmark.error());
  auto dialect = sql::DialectByName(benchmark->dialect);
  if (!dialect) return Fail(MakeError(ErrorCode::kInvalidArgument, "unknown dialect " + benchmark->dialect));
  auto resources = linking::LinkResources::Load();
  if (!resources) return Fail(resources.error());
  auto opened = features::BenchmarkFeatures::Open(tables_, db_dir_, *resources);
  if (!opened) return Fail(opened.error());
  auto judge = Judge();
  if (!judge) return Fail(judge.error());
  const auto& catalog = features::Catalog();
  std::vector<size_t> holds(catalog.size(), 0), known(catalog.size(), 0);
  size_t sql_errors = 0, done = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& q : benchmark->questions) {
    auto got = (*opened)->Extract(q, **dialect, !no_sql_);
    if (!got) return Fail(got.error());
    if (!got->sql_error.empty()) ++sql_errors;
    if (*judge) {
      const features::Example example{q.question, q.evidence, no_sql_ || !got->sql_error.empty() ? "" : q.gold_sql};
      if (auto st = (*judge)->Judge(example, (*opened)->SchemaText(q.db_id), got->values); !st) return Fail(st.error());
      if (done % 20 == 0) fmt::print(stderr, "\rjudged: {} questions", done + 1);
    }
    for (size_t i = 0; i < catalog.size(); ++i) {
      known[i] += got->values[i] >= 0 ? 1 : 0;
      holds[i] += got->values[i] == 1 ? 1 : 0;
    }
    if (json_) {
      nlohmann::json j = features::ToJson(got->values);
      j["index"] = q.index;
      j["db_id"] = q.db_id;
      if (!got->sql_error.empty()) j["sql_error"] = got->sql_error;
      Write(j.dump() + "\n");
    }
    ++done;
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const std::string summary = fmt::format("{} questions, {} databases, {:.0f} ms{}", done, (*opened)->Databases(), ms,
                                          sql_errors ? fmt::format(", {} gold queries did not parse", sql_errors) : "");
  if (*judge) {
    fmt::print(stderr, "\rjudged by the model: {} requests, {} answers from the cache ({}), {} unclear replies\n",
               (*judge)->Asked(), (*judge)->Cached(), (*judge)->CacheFile(), (*judge)->Unclear());
  }
  if (json_) {
    fmt::print(stderr, "features: {}\n", summary);
    return 0;
  }
  std::string out = summary + "\n";
  for (size_t i = 0; i < catalog.size(); ++i) {
    if (known[i] == 0) continue;
    out += fmt::format("{:<28} {:6.3f}  {}\n", catalog[i].id,
                       static_cast<double>(holds[i]) / static_cast<double>(known[i]), catalog[i].text);
  }
  Write(out);
  return 0;
}

}  // namespace plainsql::cli
