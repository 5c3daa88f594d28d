// Scoring predictions (see score.h).
#include "eval/score.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>

#include "catalog/benchmark_schema.h"
#include "catalog/introspect.h"
#include "catalog/name_catalog.h"
#include "catalog/render.h"
#include "catalog/restrict.h"
#include "catalog/tokens.h"
#include "common/file.h"
#include "common/strings.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/resolver.h"

namespace plainsql::eval {

namespace {

std::string FirstLineOf(const std::string& message) {
  size_t nl = message.find('\n');
  return nl == std::string::npos ? message : message.substr(0, nl);
}

struct Database {
  std::unique_ptr<exec::Connection> conn;  // null without a database file
  catalog::Schema schema;                  // when has_names
  sql::NameCatalog names;
  bool has_names = false;
  bool missing = false;                 // --db-dir was given but holds no file for it
  std::optional<size_t> schema_tokens;  // of the whole schema's prompt text, computed once
};

Result<catalog::Schema> SchemaFromTables(const std::string& tables_file, const std::string& db_id) {
  auto all = catalog::ReadJsonFile(tables_file);
  if (!all) return all.error();
  for (const auto& entry : *all) {
    if (entry.contains("db_id") && entry["db_id"].is_string() &&
        EqualsIgnoreCase(entry["db_id"].get<std::string>(), db_id)) {
      return catalog::SchemaFromBenchmarkEntry(entry);
    }
  }
  return MakeError(ErrorCode::kNotFound, fmt::format("{} has no schema for database '{}'", tables_file, db_id));
}

std::string Difficulty(const Question& q, const std::optional<sql::Query>& gold) {
  if (!q.difficulty.empty()) return q.difficulty;
  if (!q.spider_sql_json.empty()) {
    if (auto h = HardnessFromSpiderJson(q.spider_sql_json)) return std::string(HardnessName(*h));
  }
  if (gold) return std::string(HardnessName(HardnessFromQuery(*gold)));
  return "";
}

}  // namespace

struct Scorer::Impl {
  const Benchmark* benchmark = nullptr;
  const sql::Dialect* dialect = nullptr;
  ScoreOptions options;
  std::map<std::string, Database> dbs;

  Result<Database*> Get(const std::string& db_id) {
    auto it = dbs.find(db_id);
    if (it != dbs.end()) return &it->second;
    Database db;
    std::string file = options.db_dir.empty() ? "" : SqliteDatabasePath(options.db_dir, db_id);
    if (!file.empty()) {
      auto conn = exec::Connect(file);
      if (!conn) return conn.error();
      catalog::IntrospectOptions io;
      io.samples = 0;
      io.row_counts = false;
      auto schema = catalog::Introspect(**conn, io);
      if (!schema) return schema.error();
      db.names = catalog::ToNameCatalog(*schema);
      db.schema = std::move(*schema);
      db.has_names = true;
      db.conn = std::move(*conn);
    } else {
      // A benchmark may name databases that are not at hand (Spider's release lacks some): those questions are
      // scored without execution, and counted.
      db.missing = !options.db_dir.empty();
      if (!options.tables_file.empty()) {
        auto schema = SchemaFromTables(options.tables_file, db_id);
        if (schema) {
          db.names = catalog::ToNameCatalog(*schema);
          db.schema = std::move(*schema);
          db.has_names = true;
        } else if (!db.missing) {
          return schema.error();
        }
      }
    }
    return &dbs.emplace(db_id, std::move(db)).first->second;
  }
};

Scorer::Scorer(const Benchmark& benchmark, ScoreOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->benchmark = &benchmark;
  auto d = sql::DialectByName(benchmark.dialect);
  impl_->dialect = d ? *d : &sql::Sqlite();
  impl_->options = std::move(options);
}
Scorer::~Scorer() = default;

nlohmann::ordered_json StagesToJson(const std::vector<StageCost>& stages) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& s : stages) {
    out.push_back({{"stage", s.stage},
                   {"ms", s.ms},
                   {"prompt_tokens", s.prompt_tokens},
                   {"completion_tokens", s.completion_tokens}});
  }
  return out;
}

std::vector<StageCost> StagesFromJson(const nlohmann::json& j) {
  std::vector<StageCost> out;
  if (!j.is_array()) return out;
  for (const auto& e : j) {
    if (!e.is_object() || !e.contains("stage") || !e["stage"].is_string()) continue;
    StageCost c;
    c.stage = e["stage"].get<std::string>();
    if (e.contains("ms") && e["ms"].is_number()) c.ms = e["ms"].get<double>();
    if (e.contains("prompt_tokens") && e["prompt_tokens"].is_number_integer()) {
      c.prompt_tokens = e["prompt_tokens"].get<int64_t>();
    }
    if (e.contains("completion_tokens") && e["completion_tokens"].is_number_integer()) {
      c.completion_tokens = e["completion_tokens"].get<int64_t>();
    }
    out.push_back(std::move(c));
  }
  return out;
}

Result<QuestionScore> Scorer::Score(const Question& q, const std::string& prediction) {
  auto started = std::chrono::steady_clock::now();
  double gold_ms = 0, prediction_ms = 0;
  auto ms_since = [](std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  const sql::Dialect& d = *impl_->dialect;
  const ScoreOptions& options = impl_->options;
  QuestionScore s;
  s.index = q.index;
  s.db_id = q.db_id;
  s.question = q.question;
  s.gold_sql = q.gold_sql;
  auto db = impl_->Get(q.db_id);
  if (!db) return db.error();
  s.predicted_sql = options.rewrite && (*db)->has_names ? options.rewrite(q, prediction, (*db)->names) : prediction;
  s.database_missing = (*db)->missing;
  auto gold = sql::ParseQuery(q.gold_sql, d);
  std::optional<sql::Query> gold_tree;
  if (gold) gold_tree = *gold;
  s.difficulty = Difficulty(q, gold_tree);
  auto pred = sql::ParseQuery(s.predicted_sql, d);
  if (Trim(s.predicted_sql).empty()) {
    s.error = "no prediction";
  } else if (!pred) {
    s.error = "does not parse: " + FirstLineOf(pred.error().message);
  }
  if (gold && pred) s.em = ExactMatch(*gold, *pred, d);
  if ((*db)->has_names && gold) {
    s.linked = true;
    std::set<std::string> gold_ids, pred_ids;
    gold_ids = QueryIdentifiers(sql::Resolve(*gold, (*db)->names, d));
    if (pred) pred_ids = QueryIdentifiers(sql::Resolve(*pred, (*db)->names, d));
    s.linking = QueryLinking(gold_ids, pred_ids);
    s.gold_identifiers.assign(gold_ids.begin(), gold_ids.end());
    s.predicted_identifiers.assign(pred_ids.begin(), pred_ids.end());
  }
  if ((*db)->conn) {
    exec::Connection& conn = *(*db)->conn;
    auto run = [&](const Result<sql::Query>& tree, const std::string& text) -> Result<exec::ResultSet> {
      if (!tree) return tree.error();
      std::string to_run = options.keep_distinct ? text : sql::Print(WithoutDistinct(*tree), d);
      return conn.Query(to_run, options.limits);
    };
    auto t0 = std::chrono::steady_clock::now();
    auto gold_rs = run(gold, q.gold_sql);
    gold_ms = ms_since(t0);
    if (!gold_rs) s.gold_error = FirstLineOf(gold_rs.error().message);
    Result<exec::ResultSet> pred_rs = MakeError(ErrorCode::kInvalidArgument, s.error);
    if (s.error.empty()) {
      t0 = std::chrono::steady_clock::now();
      pred_rs = run(pred, s.predicted_sql);
      prediction_ms = ms_since(t0);
      if (!pred_rs) s.error = FirstLineOf(pred_rs.error().message);
    }
    if (pred_rs) s.predicted_ms = pred_rs->elapsed_ms;
    // A gold query that does not run leaves nothing to compare with (the official evaluator stops on one): the
    // question is not scored by execution, and the gold error is reported.
    if (gold_rs) {
      bool both = static_cast<bool>(pred_rs);
      s.ex_strict = both && ExStrict(*gold_rs, *pred_rs, OrderMatters(q.gold_sql));
      s.ex_relaxed = both && ExRelaxed(*gold_rs, *pred_rs);
      s.jaccard = both ? ExJaccard(*gold_rs, *pred_rs) : 0.0;
      s.ex_jaccard = both && s.jaccard >= kJaccardThreshold;
    }
  }
  double total = ms_since(started);
  if ((*db)->conn) {
    s.stages.push_back({"execute gold", gold_ms, 0, 0});
    s.stages.push_back({"execute prediction", prediction_ms, 0, 0});
  }
  s.stages.push_back({"scoring", std::max(0.0, total - gold_ms - prediction_ms), 0, 0});
  return s;
}

Result<std::vector<QuestionScore>> ScorePredictions(const Benchmark& benchmark, const std::vector<Question>& questions,
                                                    const std::vector<std::string>& predictions,
                                                    const ScoreOptions& options) {
  if (predictions.size() != questions.size()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("{} predictions for {} questions: the predictions file needs one line per question",
                                 predictions.size(), questions.size()));
  }
  Scorer scorer(benchmark, options);
  std::vector<QuestionScore> out;
  out.reserve(questions.size());
  for (size_t i = 0; i < questions.size(); ++i) {
    auto s = scorer.Score(questions[i], predictions[i]);
    if (!s) return s.error();
    out.push_back(std::move(*s));
    if (options.progress) options.progress(i + 1, questions.size());
  }
  return out;
}

namespace {

struct Tally {
  size_t count = 0, executed = 0, errors = 0, gold_errors = 0, missing = 0, linked = 0;
  std::vector<double> ex_strict;
  double ex_relaxed = 0, ex_jaccard = 0, em = 0, recall = 0, precision = 0, f1 = 0;

  void Add(const QuestionScore& s) {
    ++count;
    if (!s.error.empty()) ++errors;
    if (!s.gold_error.empty()) ++gold_errors;
    if (s.database_missing) ++missing;
    if (s.ex_strict) {
      ++executed;
      ex_strict.push_back(*s.ex_strict ? 1 : 0);
      ex_relaxed += *s.ex_relaxed ? 1 : 0;
      ex_jaccard += *s.ex_jaccard ? 1 : 0;
    }
    em += s.em ? 1 : 0;
    if (s.linked) {
      ++linked;
      recall += s.linking.recall;
      precision += s.linking.precision;
      f1 += s.linking.f1;
    }
  }

  nlohmann::ordered_json Json() const {
    auto mean = [&](double sum, size_t n) -> nlohmann::ordered_json {
      if (n == 0) return nullptr;
      return sum / static_cast<double>(n);
    };
    nlohmann::ordered_json j = {{"count", count}};
    double strict = 0;
    for (double v : ex_strict) strict += v;
    j["executed"] = executed;
    j["ex_strict"] = mean(strict, executed);
    if (executed) {
      Interval ci = BootstrapInterval(ex_strict);
      j["ex_strict_ci95"] = {ci.low, ci.high};
    }
    j["ex_relaxed"] = mean(ex_relaxed, executed);
    j["ex_jaccard"] = mean(ex_jaccard, executed);
    j["em"] = mean(em, count);
    j["query_recall"] = mean(recall, linked);
    j["query_precision"] = mean(precision, linked);
    j["query_f1"] = mean(f1, linked);
    j["prediction_errors"] = errors;
    j["errors_per_100"] = mean(100.0 * static_cast<double>(errors), count);
    j["gold_errors"] = gold_errors;
    j["database_missing"] = missing;
    return j;
  }
};

}  // namespace

std::vector<IdentifierRecall> IdentifierRecalls(const std::vector<QuestionScore>& scores) {
  std::map<std::pair<std::string, std::string>, IdentifierRecall> by_id;
  for (const auto& s : scores) {
    if (!s.linked) continue;
    std::set<std::string> predicted(s.predicted_identifiers.begin(), s.predicted_identifiers.end());
    for (const auto& id : s.gold_identifiers) {
      IdentifierRecall& r = by_id[{s.db_id, id}];
      r.db_id = s.db_id;
      r.identifier = id;
      ++r.queries;
      r.recalled += predicted.count(id) ? 1 : 0;
    }
  }
  std::vector<IdentifierRecall> out;
  out.reserve(by_id.size());
  for (auto& [key, r] : by_id) out.push_back(std::move(r));
  return out;
}

nlohmann::ordered_json ScoreJson(const std::vector<QuestionScore>& scores) {
  Tally all;
  std::map<std::string, Tally> by_difficulty, by_db;
  nlohmann::ordered_json questions = nlohmann::ordered_json::array();
  for (const auto& s : scores) {
    all.Add(s);
    by_difficulty[s.difficulty.empty() ? "unknown" : s.difficulty].Add(s);
    by_db[s.db_id].Add(s);
    auto opt = [](const std::optional<bool>& b) -> nlohmann::ordered_json {
      if (!b) return nullptr;
      return *b;
    };
    questions.push_back(
        {{"index", s.index},
         {"db_id", s.db_id},
         {"difficulty", s.difficulty},
         {"ex_strict", opt(s.ex_strict)},
         {"ex_relaxed", opt(s.ex_relaxed)},
         {"ex_jaccard", opt(s.ex_jaccard)},
         {"jaccard", s.ex_strict ? nlohmann::ordered_json(s.jaccard) : nlohmann::ordered_json(nullptr)},
         {"em", s.em},
         {"query_recall", s.linked ? nlohmann::ordered_json(s.linking.recall) : nlohmann::ordered_json(nullptr)},
         {"query_precision", s.linked ? nlohmann::ordered_json(s.linking.precision) : nlohmann::ordered_json(nullptr)},
         {"query_f1", s.linked ? nlohmann::ordered_json(s.linking.f1) : nlohmann::ordered_json(nullptr)},
         {"predicted_sql", s.predicted_sql},
         {"gold_sql", s.gold_sql},
         {"error", s.error.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.error)},
         {"gold_error", s.gold_error.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.gold_error)},
         {"database_missing", s.database_missing},
         {"confidence", s.confidence ? nlohmann::ordered_json(*s.confidence) : nlohmann::ordered_json(nullptr)},
         {"estimated_correctness", s.estimated_correctness ? nlohmann::ordered_json(*s.estimated_correctness)
                                                           : nlohmann::ordered_json(nullptr)}});
  }
  nlohmann::ordered_json summary = all.Json();
  // IdentifierRecall: the mean over native identifiers (macro), as SNAILS reports it.
  std::vector<IdentifierRecall> ids = IdentifierRecalls(scores);
  double id_sum = 0;
  for (const auto& r : ids) id_sum += r.Recall();
  summary["identifier_recall"] =
      ids.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(id_sum / static_cast<double>(ids.size()));
  summary["identifiers"] = ids.size();
  summary["by_difficulty"] = nlohmann::ordered_json::object();
  for (const auto& [k, t] : by_difficulty) summary["by_difficulty"][k] = t.Json();
  summary["by_database"] = nlohmann::ordered_json::object();
  for (const auto& [k, t] : by_db) summary["by_database"][k] = t.Json();
  return {{"summary", summary}, {"questions", questions}};
}

std::string ScoreText(const std::vector<QuestionScore>& scores) {
  nlohmann::ordered_json j = ScoreJson(scores)["summary"];
  auto cell = [](const nlohmann::ordered_json& v) {
    return v.is_null() ? std::string("-") : fmt::format("{:.3f}", v.get<double>());
  };
  std::string out = fmt::format("{:<10} {:>6} {:>9} {:>10} {:>10} {:>6} {:>12} {:>8}\n", "", "count", "EX strict",
                                "EX relaxed", "EX Jaccard", "EM", "QueryRecall", "errors");
  auto line = [&](const std::string& name, const nlohmann::ordered_json& t) {
    out += fmt::format("{:<10} {:>6} {:>9} {:>10} {:>10} {:>6} {:>12} {:>8}\n", name, t["count"].get<size_t>(),
                       cell(t["ex_strict"]), cell(t["ex_relaxed"]), cell(t["ex_jaccard"]), cell(t["em"]),
                       cell(t["query_recall"]), t["prediction_errors"].get<size_t>());
  };
  line("all", j);
  for (const char* k : {"easy", "medium", "hard", "extra", "simple", "moderate", "challenging", "unknown"}) {
    if (j["by_difficulty"].contains(k)) line(k, j["by_difficulty"][k]);
  }
  if (j.contains("ex_strict_ci95")) {
    out += fmt::format("EX strict 95% bootstrap interval: [{:.3f}, {:.3f}]\n", j["ex_strict_ci95"][0].get<double>(),
                       j["ex_strict_ci95"][1].get<double>());
  }
  if (j["database_missing"].get<size_t>() > 0) {
    out += fmt::format("{} questions name a database that is not in the database folder: not executed\n",
                       j["database_missing"].get<size_t>());
  }
  if (j["gold_errors"].get<size_t>() > 0) {
    out += fmt::format("{} gold queries failed to run: those questions are not scored by execution\n",
                       j["gold_errors"].get<size_t>());
  }
  return out;
}

Result<SubsetResult> Scorer::ScoreSubset(const Question& q, const std::vector<std::string>& subset) {
  const sql::Dialect& d = *impl_->dialect;
  SubsetResult r;
  r.index = q.index;
  r.db_id = q.db_id;
  auto db = impl_->Get(q.db_id);
  if (!db) return db.error();
  auto gold = sql::ParseQuery(q.gold_sql, d);
  std::optional<sql::Query> gold_tree;
  if (gold) gold_tree = *gold;
  r.difficulty = Difficulty(q, gold_tree);
  if (!gold) {
    r.error = "the gold query does not parse: " + FirstLineOf(gold.error().message);
    return r;
  }
  if (!(*db)->has_names) {
    r.error = (*db)->missing ? "database missing" : "no schema for the database";
    return r;
  }
  // The schema's elements, lower-case, as QueryIdentifiers spells them.
  std::set<std::string> tables, columns;
  std::map<std::string, std::vector<std::string>> columns_of;
  for (const auto& t : (*db)->names.tables) {
    std::string table = ToLower(t.name);
    tables.insert(table);
    for (const auto& c : t.columns) {
      columns.insert(table + "." + ToLower(c));
      columns_of[table].push_back(table + "." + ToLower(c));
    }
  }
  std::set<std::string> kept;
  for (const auto& entry : subset) {
    std::string e = ToLower(Trim(entry));
    if (e.ends_with(".*") && columns_of.count(e.substr(0, e.size() - 2))) {
      for (const auto& c : columns_of[e.substr(0, e.size() - 2)]) kept.insert(c);
    } else if (tables.count(e) || columns.count(e)) {
      kept.insert(e);
    } else {
      r.unknown.push_back(entry);
    }
  }
  std::set<std::string> gold_ids = QueryIdentifiers(sql::Resolve(*gold, (*db)->names, d));
  r.scored = true;
  r.scores = eval::ScoreSubset(gold_ids, kept, SchemaSize{tables.size(), columns.size()});
  r.subset_size = kept.size();
  r.schema_size = tables.size() + columns.size();
  r.schema_tables = tables.size();
  r.schema_columns = columns.size();
  for (const auto& e : kept) (e.find('.') == std::string::npos ? r.subset_tables : r.subset_columns)++;
  r.size = SizeCategoryOf(r.schema_columns);
  for (const auto& g : gold_ids) {
    if (!kept.count(g)) r.missing.push_back(g);
  }
  // The prompt's schema text, without sample values (a benchmark schema file has none).
  auto tokens = [&](const catalog::Schema& schema) {
    return catalog::EstimateTokens(catalog::RenderPromptDdl(schema, d, /*max_samples=*/0));
  };
  if (!(*db)->schema_tokens) (*db)->schema_tokens = tokens((*db)->schema);
  r.schema_tokens = *(*db)->schema_tokens;
  r.tokens = tokens(catalog::RestrictSchema((*db)->schema, subset).schema);
  return r;
}

Result<std::vector<std::string>> LoadPredictions(const std::string& path) {
  auto text = ReadFileToString(path);
  if (!text) return text.error();
  std::vector<std::string> out = Split(*text, '\n');
  if (!out.empty() && out.back().empty()) out.pop_back();  // the final newline
  for (auto& line : out) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // "SQL<TAB>db_id" as in Spider's gold files; a TAB inside the query is kept (it is white space).
    line = std::string(SplitGoldLine(line).sql);
  }
  return out;
}

}  // namespace plainsql::eval
