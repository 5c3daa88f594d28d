// The C API (include/plainsql/plainsql.h) over the library: a handle holds the connection, the schema and the
// generators; every C++ failure becomes a status and a message here, and no exception leaves a function.
#include "plainsql/plainsql.h"

#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "catalog/cache.h"
#include "common/file.h"
#include "common/interrupt.h"
#include "common/status.h"
#include "common/version.h"
#include "exec/connection.h"
#include "exec/source_connection.h"
#include "naturalness/classifier.h"
#include "naturalness/namer.h"
#include "naturalness/profile.h"
#include "naturalness/report.h"
#include "pipeline/config.h"
#include "pipeline/generators.h"
#include "pipeline/pipeline.h"
#include "pipeline/schema_load.h"
#include "views/deploy.h"
#include "views/views.h"

struct plainsql_db {
  std::string error;
  plainsql::pipeline::PipelineConfig config;
  std::unique_ptr<plainsql::exec::Connection> conn;
  plainsql::catalog::Schema schema;
  plainsql::pipeline::GeneratorSet generators;  // the configuration's: a model, the built-in translator, the fallback
  std::shared_ptr<const plainsql::examples::ExampleLibrary> examples;  // the configured store's, or null
  std::optional<plainsql::exec::QuerySource> source;                   // plainsql_open_source's, for its write function
  std::unique_ptr<plainsql::naturalness::SchemaNamer> namer;           // loaded on the first natural_views
  std::string text;                                                    // the last profile, DDL or summary handed out
};

struct plainsql_rows {
  plainsql::exec::SourceRows* rows;
};

struct plainsql_answer {
  std::string sql, json;
  plainsql::exec::ResultSet result;
  std::vector<std::string> texts;  // every cell as text, row-major, so the pointers handed out stay valid
};

namespace {

using plainsql::Error;
using plainsql::ErrorCode;

plainsql_status Fail(plainsql_db* db, const Error& e) {
  if (db != nullptr) db->error = e.message;
  return static_cast<plainsql_status>(plainsql::ExitCodeFor(e.code));
}

// Runs `body`, turning an escaping exception into a status: the C boundary must not unwind.
template <typename F>
plainsql_status Guarded(plainsql_db* db, F&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    if (db != nullptr) db->error = "out of memory";
    return PLAINSQL_ERROR;
  } catch (const std::exception& e) {
    if (db != nullptr) db->error = std::string("internal error: ") + e.what();
    return PLAINSQL_INTERNAL;
  }
}

plainsql_status Configure(plainsql_db* db, const plainsql_params& p) {
  auto config = plainsql::pipeline::LoadConfig(p.config_file != nullptr ? p.config_file : "");
  if (!config) return Fail(db, config.error());
  db->config = std::move(*config);
  if (p.llm_url != nullptr) db->config.llm.base_url = p.llm_url;
  if (p.model != nullptr) db->config.llm.model = p.model;
  if (p.api_key != nullptr) db->config.llm.api_key = p.api_key;
  if (p.examples_store != nullptr) db->config.examples.store = p.examples_store;
  if (p.timeout_ms < 0 || p.max_rows < 0) {
    return Fail(db, {ErrorCode::kInvalidArgument, "timeout_ms and max_rows must not be negative"});
  }
  if (p.timeout_ms > 0) db->config.options.limits.timeout = std::chrono::milliseconds(p.timeout_ms);
  if (p.max_rows > 0) db->config.options.limits.max_rows = p.max_rows;
  return PLAINSQL_OK;
}

// Reads the schema of the connection db holds and makes the generators.
plainsql_status Load(plainsql_db* db, const plainsql_params& p) {
  db->conn->SetExecSettings(db->config.exec);
  // As `plainsql ask` reads it: keys inferred, a data dictionary beside a SQLite file (BIRD's database_description).
  // Warnings (a dictionary that cannot be read, a table not sampled) are left out: this API has no channel for them.
  plainsql::pipeline::SchemaLoadOptions load;
  load.cache.enabled = p.use_cache != 0;
  auto keys = plainsql::pipeline::AnswerKeyInference(p.infer_keys != nullptr ? p.infer_keys : "");
  if (!keys) return Fail(db, keys.error());
  load.infer_keys = *keys;
  auto loaded = plainsql::pipeline::LoadSchemaForAnswers(*db->conn, load);
  if (!loaded) return Fail(db, loaded.error());
  db->schema = std::move(loaded->schema);
  auto generators = plainsql::pipeline::MakeGenerators(db->config, *db->conn, db->schema);
  if (!generators) return Fail(db, generators.error());
  db->generators = std::move(*generators);
  if (plainsql::Status st = plainsql::pipeline::CheckExamples(db->config.examples); !st) return Fail(db, st.error());
  auto examples = plainsql::pipeline::LoadExamples(db->config.examples);
  if (!examples) return Fail(db, examples.error());
  db->examples = std::move(*examples);
  return PLAINSQL_OK;
}

plainsql_status Open(plainsql_db* db, const char* url, const plainsql_params& p) {
  if (plainsql_status s = Configure(db, p); s != PLAINSQL_OK) return s;
  auto conn = plainsql::exec::Connect(url);
  if (!conn) return Fail(db, conn.error());
  db->conn = std::move(*conn);
  return Load(db, p);
}

// The C source as the library's: its query function called with a result sink, its failure read back.
// Calls one of the source's functions (`call` gets the sink and the SQLSTATE and message buffers) and reads back what
// it reported: nothing when it succeeded.
template <typename Call>
std::optional<plainsql::exec::SourceFailure> CallSource(plainsql::exec::SourceRows& rows, const Call& call) {
  plainsql_rows sink{&rows};
  char sqlstate[6] = {0};
  char message[1024] = {0};
  int rc = call(&sink, sqlstate, message, sizeof message);
  if (rc == PLAINSQL_SOURCE_OK) return std::nullopt;
  message[sizeof message - 1] = 0;
  sqlstate[5] = 0;
  return plainsql::exec::SourceFailure{sqlstate, message[0] != 0 ? message : "the statement failed",
                                       rc == PLAINSQL_SOURCE_TIMED_OUT};
}

plainsql::exec::QuerySource SourceOf(const plainsql_source& c) {
  plainsql::exec::QuerySource source;
  source.identity = c.identity != nullptr ? c.identity : "";
  source.database_name = c.database_name != nullptr ? c.database_name : "";
  source.run = [query = c.query, context = c.context](const std::string& sql, const plainsql::exec::Limits& limits,
                                                      plainsql::exec::SourceRows& rows) {
    auto ms = static_cast<int32_t>(std::min<int64_t>(std::max<int64_t>(limits.timeout.count(), 1), INT32_MAX));
    return CallSource(rows, [&](plainsql_rows* sink, char* sqlstate, char* message, size_t size) {
      return query(context, sql.c_str(), ms, sink, sqlstate, message, size);
    });
  };
  if (c.write != nullptr) {
    source.write = [write = c.write, context = c.context](const std::string& sql, plainsql::exec::SourceRows& rows) {
      return CallSource(rows, [&](plainsql_rows* sink, char* sqlstate, char* message, size_t size) {
        return write(context, sql.c_str(), sink, sqlstate, message, size);
      });
    };
  }
  return source;
}

plainsql_status Ask(plainsql_db* db, const char* question, int32_t candidates, plainsql_answer** out) {
  plainsql::pipeline::Options options = db->config.options;
  if (candidates > 0) options.candidates = candidates;
  options.examples.library = db->examples;
  options.examples.k = static_cast<size_t>(db->config.examples.k);
  auto answer =
      plainsql::pipeline::Ask(*db->conn, db->schema, db->generators.active, question, db->generators.With(options));
  if (!answer) return Fail(db, answer.error());
  auto a = std::make_unique<plainsql_answer>();
  a->sql = answer->sql;
  a->json = plainsql::pipeline::AnswerToJson(*answer).dump();
  a->result = std::move(answer->result);
  for (const auto& row : a->result.rows) {
    for (const auto& v : row) a->texts.push_back(v.ToString());
  }
  *out = a.release();
  db->error.clear();
  return PLAINSQL_OK;
}

// The naming resources (and their classifier, which the profile reads), loaded on the handle's first use of them.
plainsql::Status LoadNamer(plainsql_db* db) {
  if (db->namer != nullptr) return plainsql::Status::Ok();
  auto namer = plainsql::naturalness::SchemaNamer::Load(plainsql::naturalness::DefaultDataDir());
  if (!namer) return namer.error();
  db->namer = std::move(*namer);
  return plainsql::Status::Ok();
}

// The views of the handle's schema at `level`, named offline; plainsql's own views (their schema) left out.
struct ViewsPlanned {
  plainsql::catalog::Schema schema;
  plainsql::views::ViewPlan plan;
};
plainsql::Result<ViewsPlanned> PlanNaturalViews(plainsql_db* db, const char* level_name, int extended) {
  auto level = plainsql::naturalness::ParseLevel(level_name != nullptr ? level_name : "", "level", false);
  if (!level) return level.error();
  if (plainsql::Status s = LoadNamer(db); !s) return s.error();
  plainsql::views::ViewOptions options;
  options.level = *level;
  options.extended = extended != 0;
  ViewsPlanned out;
  out.schema = db->schema;
  std::erase_if(out.schema.tables, [&](const auto& t) { return t.schema == options.schema_name; });
  auto crosswalk = db->namer->Name(out.schema, nullptr, {}, nullptr);
  auto plan = plainsql::views::PlanViews(out.schema, crosswalk, options);
  if (!plan) return plan.error();
  out.plan = std::move(*plan);
  return out;
}

plainsql_status Profile(plainsql_db* db, const char* schema_name, const char** json) {
  if (plainsql::Status s = LoadNamer(db); !s) return Fail(db, s.error());
  plainsql::catalog::Schema schema = db->schema;
  if (schema_name != nullptr && *schema_name != 0) {
    std::erase_if(schema.tables, [&](const auto& t) { return t.schema != schema_name; });
    if (schema.tables.empty()) {
      return Fail(db, {ErrorCode::kNotFound, std::string("no table or view in schema ") + schema_name});
    }
  }
  auto profile = plainsql::naturalness::ProfileSchema(schema, db->namer->classifier());
  db->text = plainsql::naturalness::RenderProfile(profile, plainsql::naturalness::ProfileFormat::kJson);
  *json = db->text.c_str();
  db->error.clear();
  return PLAINSQL_OK;
}

plainsql_status NaturalViews(plainsql_db* db, const char* level, int extended, bool apply, const char** out) {
  auto planned = PlanNaturalViews(db, level, extended);
  if (!planned) return Fail(db, planned.error());
  auto where = plainsql::views::TargetFor(db->conn->dialect());
  if (!where) return Fail(db, where.error());
  if (!apply) {
    db->text = plainsql::views::CreateScript(planned->plan, planned->schema, *where);
  } else {
    if (!db->source) return Fail(db, {ErrorCode::kNotAllowed, "views are applied through a source's write function"});
    auto session = plainsql::exec::OpenSourceWriteSession(*db->source);
    if (!session) return Fail(db, session.error());
    auto report = plainsql::views::ApplyViewsOn(**session, planned->plan, planned->schema);
    if (!report) return Fail(db, report.error());
    db->text = fmt::format("created {} view{} ({}) in schema {}", report->created, report->created == 1 ? "" : "s",
                           plainsql::naturalness::LevelCode(planned->plan.options.level), report->where);
    if (report->dropped > 0) {
      db->text +=
          fmt::format(", replacing {} earlier plainsql view{}", report->dropped, report->dropped == 1 ? "" : "s");
    }
  }
  *out = db->text.c_str();
  db->error.clear();
  return PLAINSQL_OK;
}

const plainsql::exec::Value* Cell(const plainsql_answer* a, size_t row, size_t column) {
  if (a == nullptr || row >= a->result.rows.size() || column >= a->result.rows[row].size()) return nullptr;
  return &a->result.rows[row][column];
}

}  // namespace

extern "C" {

const char* plainsql_version(void) { return plainsql::kVersion; }

plainsql_params plainsql_default_params(void) {
  plainsql_params p{};
  p.use_cache = 1;
  return p;
}

plainsql_status plainsql_open(const char* url, const plainsql_params* params, plainsql_db** out) {
  if (out == nullptr) return PLAINSQL_INVALID_ARGUMENT;
  *out = new (std::nothrow) plainsql_db();
  if (*out == nullptr) return PLAINSQL_ERROR;
  plainsql_db* db = *out;
  if (url == nullptr) return Fail(db, {ErrorCode::kInvalidArgument, "url is NULL"});
  plainsql_params p = params != nullptr ? *params : plainsql_default_params();
  return Guarded(db, [&] { return Open(db, url, p); });
}

plainsql_status plainsql_open_source(const plainsql_source* source, const plainsql_params* params, plainsql_db** out) {
  if (out == nullptr) return PLAINSQL_INVALID_ARGUMENT;
  *out = new (std::nothrow) plainsql_db();
  if (*out == nullptr) return PLAINSQL_ERROR;
  plainsql_db* db = *out;
  if (source == nullptr || source->query == nullptr) {
    return Fail(db, {ErrorCode::kInvalidArgument, "the source or its query function is NULL"});
  }
  plainsql_params p = params != nullptr ? *params : plainsql_default_params();
  return Guarded(db, [&] {
    if (plainsql_status s = Configure(db, p); s != PLAINSQL_OK) return s;
    db->source = SourceOf(*source);
    db->conn = plainsql::exec::OpenQuerySource(*db->source);
    return Load(db, p);
  });
}

void plainsql_rows_column(plainsql_rows* rows, const char* name, uint32_t type_oid) {
  if (rows != nullptr) rows->rows->AddColumn(name != nullptr ? name : "", type_oid);
}

int plainsql_rows_value(plainsql_rows* rows, const char* text, size_t length) {
  return rows != nullptr && rows->rows->AddValue(text, length) ? 1 : 0;
}

void plainsql_set_data_dir(const char* dir) { plainsql::SetDataDir(dir != nullptr ? dir : ""); }

void plainsql_set_interrupt_check(int (*check)(void* context), void* context) {
  // The library's check returns bool; the C one is kept here and called through a fixed adapter.
  static std::atomic<int (*)(void*)> c_check{nullptr};
  c_check.store(check);
  if (check == nullptr) {
    plainsql::SetInterruptCheck(nullptr, nullptr);
    return;
  }
  plainsql::SetInterruptCheck([](void* ctx) { return c_check.load()(ctx) != 0; }, context);
}

void plainsql_close(plainsql_db* db) { delete db; }

const char* plainsql_errmsg(const plainsql_db* db) {
  return db == nullptr ? "no database handle (plainsql_open failed to allocate one, or NULL was passed)"
                       : db->error.c_str();
}

plainsql_status plainsql_ask(plainsql_db* db, const char* question, plainsql_answer** out) {
  if (db == nullptr) return PLAINSQL_INVALID_ARGUMENT;
  if (out == nullptr || question == nullptr) {
    return Fail(db, {ErrorCode::kInvalidArgument, "question and out must not be NULL"});
  }
  *out = nullptr;
  if (db->conn == nullptr) return Fail(db, {ErrorCode::kInvalidArgument, "the database is not open"});
  return Guarded(db, [&] { return Ask(db, question, 0, out); });
}

plainsql_status plainsql_ask_k(plainsql_db* db, const char* question, int32_t candidates, plainsql_answer** out) {
  if (db == nullptr) return PLAINSQL_INVALID_ARGUMENT;
  if (out == nullptr || question == nullptr) {
    return Fail(db, {ErrorCode::kInvalidArgument, "question and out must not be NULL"});
  }
  *out = nullptr;
  if (candidates < 0 || candidates > 20) {
    return Fail(db, {ErrorCode::kInvalidArgument, "candidates must be from 1 to 20 (0: the configuration's)"});
  }
  if (db->conn == nullptr) return Fail(db, {ErrorCode::kInvalidArgument, "the database is not open"});
  return Guarded(db, [&] { return Ask(db, question, candidates, out); });
}

plainsql_status plainsql_profile(plainsql_db* db, const char* schema, const char** json) {
  if (db == nullptr) return PLAINSQL_INVALID_ARGUMENT;
  if (json == nullptr) return Fail(db, {ErrorCode::kInvalidArgument, "json must not be NULL"});
  *json = nullptr;
  return Guarded(db, [&] { return Profile(db, schema, json); });
}

plainsql_status plainsql_natural_views(plainsql_db* db, const char* level, int extended, const char** ddl) {
  if (db == nullptr) return PLAINSQL_INVALID_ARGUMENT;
  if (ddl == nullptr) return Fail(db, {ErrorCode::kInvalidArgument, "ddl must not be NULL"});
  *ddl = nullptr;
  if (db->conn == nullptr) return Fail(db, {ErrorCode::kInvalidArgument, "the database is not open"});
  return Guarded(db, [&] { return NaturalViews(db, level, extended, false, ddl); });
}

plainsql_status plainsql_apply_views(plainsql_db* db, const char* level, int extended, const char** summary) {
  if (db == nullptr) return PLAINSQL_INVALID_ARGUMENT;
  if (summary == nullptr) return Fail(db, {ErrorCode::kInvalidArgument, "summary must not be NULL"});
  *summary = nullptr;
  if (db->conn == nullptr) return Fail(db, {ErrorCode::kInvalidArgument, "the database is not open"});
  return Guarded(db, [&] { return NaturalViews(db, level, extended, true, summary); });
}

const char* plainsql_answer_sql(const plainsql_answer* a) { return a == nullptr ? nullptr : a->sql.c_str(); }
const char* plainsql_answer_json(const plainsql_answer* a) { return a == nullptr ? nullptr : a->json.c_str(); }
size_t plainsql_answer_column_count(const plainsql_answer* a) { return a == nullptr ? 0 : a->result.columns.size(); }

const char* plainsql_answer_column_name(const plainsql_answer* a, size_t column) {
  if (a == nullptr || column >= a->result.columns.size()) return nullptr;
  return a->result.columns[column].c_str();
}

size_t plainsql_answer_row_count(const plainsql_answer* a) { return a == nullptr ? 0 : a->result.rows.size(); }
int plainsql_answer_truncated(const plainsql_answer* a) { return a != nullptr && a->result.truncated ? 1 : 0; }

plainsql_type plainsql_answer_type(const plainsql_answer* a, size_t row, size_t column) {
  const auto* v = Cell(a, row, column);
  return v == nullptr ? PLAINSQL_NULL : static_cast<plainsql_type>(v->type());
}

const char* plainsql_answer_text(const plainsql_answer* a, size_t row, size_t column) {
  if (Cell(a, row, column) == nullptr) return nullptr;
  return a->texts[row * a->result.columns.size() + column].c_str();
}

int64_t plainsql_answer_int64(const plainsql_answer* a, size_t row, size_t column) {
  const auto* v = Cell(a, row, column);
  if (v == nullptr) return 0;
  if (v->type() == plainsql::exec::ValueType::kInteger) return v->as_integer();
  if (v->type() == plainsql::exec::ValueType::kReal) return static_cast<int64_t>(v->as_real());
  return 0;
}

double plainsql_answer_double(const plainsql_answer* a, size_t row, size_t column) {
  const auto* v = Cell(a, row, column);
  if (v == nullptr) return 0;
  if (v->type() == plainsql::exec::ValueType::kReal) return v->as_real();
  if (v->type() == plainsql::exec::ValueType::kInteger) return static_cast<double>(v->as_integer());
  return 0;
}

void plainsql_answer_free(plainsql_answer* a) { delete a; }

}  // extern "C"
