// What `plainsql serve` answers, without HTTP: named databases opened once (schema snapshot, a pool of workers each
// with its own connection and generators), and one function per endpoint taking and giving JSON. The HTTP layer
// (router.h, http.h) only parses, routes and writes; the web page and the tests call the same functions.
//
// Concurrency: any number of threads may call a Service at once. A request takes a worker of its database (made on
// first need, at most `max_workers` per database) and gives it back when done, so a connection and its generators are
// only ever used by one thread. Requests that may wait on a model also take one of `llm_slots` shared slots, so that a
// hung model holds at most that many workers and built-in requests always find one.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "pipeline/config.h"
#include "pipeline/schema_load.h"

namespace plainsql::server {

struct DatabaseSpec {
  std::string name;  // how requests name it ("conn"); the first database is the default
  std::string url;   // a SQLite path, sqlite:PATH or postgresql://... (never shown: it may hold a password)
};

struct ServiceOptions {
  std::vector<DatabaseSpec> databases;
  pipeline::PipelineConfig config;          // the model, the pipeline's options, [exec] settings, examples
  pipeline::SchemaLoadOptions schema_load;  // how each database's schema is read (keys inferred, a dictionary)
  std::string runs_db;         // the runs database of `plainsql runs` ("" : none, the runs endpoints say so)
  std::string data_dir;        // naturalness data ("" : the default)
  size_t max_workers = 16;     // per database
  size_t llm_slots = 4;        // requests that may wait on a model at once, all databases together
  size_t cache_entries = 512;  // built-in translations remembered per database (0: none)
  int64_t max_rows = 1000;     // rows a response holds at most (a request may ask for fewer)
  std::chrono::milliseconds deadline{60'000};         // a whole ask, model calls included
  std::chrono::milliseconds wait_for_worker{10'000};  // a request waiting longer for a worker gets 503
};

/// What an endpoint gives back: an HTTP status and a JSON body, or (for an HTML report) a text body with its type.
/// Errors are {"error": {"code", "message"}} with a 4xx or 5xx status.
struct Reply {
  int status = 200;
  nlohmann::ordered_json body;
  std::string text;          // when not empty, sent instead of `body`
  std::string content_type;  // of `text`

  static Reply Json(nlohmann::ordered_json body) { return {200, std::move(body), {}, {}}; }
  /// The body as sent: `text`, or `body` as JSON on one line (JsonText).
  std::string Text() const;
  static Reply Failure(int status, std::string_view code, std::string_view message);
  /// A library error, with the status its code maps to (HttpStatusFor).
  static Reply Failure(const Error& error);
  bool ok() const { return status < 400; }
  /// The body as JSON, whether it was built as JSON or written as text (a remembered answer is written as text).
  nlohmann::ordered_json Parsed() const { return text.empty() ? body : nlohmann::ordered_json::parse(text); }
};

/// `j` as JSON on one line. Values read from a database may hold bytes that are not UTF-8: they are written as U+FFFD,
/// never refused.
std::string JsonText(const nlohmann::ordered_json& j);

/// The HTTP status of a library error: bad input 400, refused by the guard 403, not found 404, the database's own
/// error or a ceiling 422, a timeout 504, an unreachable database 503, anything else 500.
int HttpStatusFor(ErrorCode code);

/// Told what an ask is doing while it runs: {"event": "stage", "stage", "ms"} as each stage ends, {"event": "wait",
/// "what", "seconds"} while it waits on a model.
using ProgressFn = std::function<void(const nlohmann::ordered_json& event)>;

class Service {
 public:
  /// Opens every database (connects, reads its schema, fills it from the data dictionary beside a SQLite file as
  /// `plainsql ask` does) and fails naming the first that cannot be opened. `notify` (may be empty) is told each
  /// database as it is opened, and what could not be read but does not stop it (a data dictionary).
  static Result<std::unique_ptr<Service>> Open(ServiceOptions options,
                                               const std::function<void(const std::string&)>& notify = {});
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  /// POST /api/ask {"question", "conn"?, "k"?, "generator"?: "auto"|"builtin"|"llm", "evidence"?, "max_rows"?}
  /// -> {"conn", "question", "sql", "columns", "rows", "truncated", "confidence", "unsure"?, "notes"?, "estimate"?,
  /// "candidates", "trace", "cached", "ms"}.
  Reply Ask(const nlohmann::json& request, const ProgressFn& progress);
  /// POST /api/sql {"sql", "conn"?, "max_rows"?} -> {"conn", "columns", "rows", "truncated", "ms"}: the same guard as
  /// every query (a single read-only query over the schema's relations and allowed functions).
  Reply Sql(const nlohmann::json& request);
  /// GET /api/databases -> [{"name", "engine", "database", "tables", "columns", "default"}].
  nlohmann::ordered_json Databases() const;
  /// GET /api/schema?conn= -> the catalog's JSON form of the schema.
  Reply Schema(const std::string& conn);
  /// GET /api/profile?conn= -> the naturalness profile (as `plainsql profile --format json`) and every name's level.
  Reply Profile(const std::string& conn);
  /// GET /api/rename?conn= -> the crosswalk `plainsql rename` would write: [{"table", "native", "n1", "n2", "n3"}].
  Reply Rename(const std::string& conn);
  /// GET /api/views?conn=&level=N1&extended=0 -> {"level", "ddl"}: the natural views' CREATE script (not applied).
  Reply Views(const std::string& conn, const std::string& level, bool extended);
  /// POST /api/link {"question", "conn"?, "budget"?} -> the subset (as `plainsql link --json`).
  Reply Link(const nlohmann::json& request);
  /// GET /api/runs -> the runs of the runs database; GET /api/runs/ID -> one run with its scores.
  Reply Runs();
  Reply Run(const std::string& id);
  /// GET /api/runs/ID/report -> the run's HTML report (as `plainsql runs report`).
  Reply RunReport(const std::string& id);
  /// GET /api/status -> requests answered, cache hits, workers made and busy per database.
  nlohmann::ordered_json Stats() const;

 private:
  struct Impl;
  explicit Service(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace plainsql::server
