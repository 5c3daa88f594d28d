// The endpoints of `plainsql serve` as functions (see service.h).
#include "server/service.h"

#include <fmt/format.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <list>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

#include "builtin/generator.h"
#include "catalog/cache.h"
#include "catalog/json_io.h"
#include "common/strings.h"
#include "eval/report.h"
#include "eval/runs.h"
#include "eval/score.h"
#include "exec/connection.h"
#include "exec/render.h"
#include "features/estimator.h"
#include "features/extract.h"
#include "linking/subset_methods.h"
#include "naturalness/namer.h"
#include "naturalness/profile.h"
#include "naturalness/report.h"
#include "pipeline/generators.h"
#include "pipeline/pipeline.h"
#include "retrieval/value_index.h"
#include "views/views.h"

namespace plainsql::server {

namespace {

using ojson = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// One thread's tools for a database: its own connection, its generators (made on first need) and the estimator's index
// of the schema.
struct Worker {
  std::unique_ptr<exec::Connection> conn;
  std::optional<pipeline::GeneratorSet> configured;  // the configuration's generators (the model, when one is set)
  std::optional<pipeline::GeneratorSet> offline;     // the built-in translator alone
  std::unique_ptr<features::Extractor> extractor;
  std::unique_ptr<features::Database> features;
};

// A built-in translation remembered: the SQL to run again, and the reply's JSON around the result, written once (the
// fields before "columns" without the closing brace, the fields after "truncated" without either brace): a hit only
// runs the query and writes its rows.
struct CachedAnswer {
  std::string sql;
  std::string head, tail;
};

// Least recently used translations, by key; thread-safe.
class TranslationCache {
 public:
  explicit TranslationCache(size_t capacity) : capacity_(capacity) {}
  std::optional<CachedAnswer> Get(const std::string& key) {
    if (capacity_ == 0) return std::nullopt;
    std::lock_guard lock(mu_);
    auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
  }
  void Put(const std::string& key, CachedAnswer value) {
    if (capacity_ == 0) return;
    std::lock_guard lock(mu_);
    if (auto it = index_.find(key); it != index_.end()) {
      it->second->second = std::move(value);
      order_.splice(order_.begin(), order_, it->second);
      return;
    }
    order_.emplace_front(key, std::move(value));
    index_[key] = order_.begin();
    if (order_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

 private:
  size_t capacity_;
  std::mutex mu_;
  std::list<std::pair<std::string, CachedAnswer>> order_;
  std::unordered_map<std::string, std::list<std::pair<std::string, CachedAnswer>>::iterator> index_;
};

struct Database {
  std::string name;
  std::string url;
  const sql::Dialect* dialect = nullptr;
  std::string database_name;
  catalog::Schema schema;
  size_t columns = 0;

  // The worker pool. A request that finds every worker busy waits in line: a worker given back goes straight to the
  // first in line, so under load requests are served in the order they came (a plain condition variable lets late
  // comers overtake, and the slowest requests wait many times the mean).
  struct Waiter {
    std::condition_variable cv;
    std::unique_ptr<Worker> handed;
  };
  std::mutex mu;
  std::deque<Waiter*> line;
  std::vector<std::unique_ptr<Worker>> idle;
  size_t made = 0, busy = 0;

  std::unique_ptr<TranslationCache> cache;
  std::atomic<uint64_t> asks{0}, hits{0}, queries{0};

  std::mutex link_mu;  // the linker's connection, value index and subsetter, made on first use
  std::unique_ptr<exec::Connection> link_conn;
  std::unique_ptr<retrieval::ValueIndex> values;
  std::unique_ptr<linking::Subsetter> subsetter;
};

// A worker of `db` for one request; given back when it goes out of scope.
class Lease {
 public:
  Lease(Database* db, std::unique_ptr<Worker> worker) : db_(db), worker_(std::move(worker)) {}
  Lease(Lease&&) = default;
  Lease& operator=(Lease&&) = delete;
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  ~Lease() {
    if (!worker_) return;
    std::lock_guard lock(db_->mu);
    if (!db_->line.empty()) {
      Database::Waiter* next = db_->line.front();
      db_->line.pop_front();
      next->handed = std::move(worker_);
      next->cv.notify_one();
      return;
    }
    db_->idle.push_back(std::move(worker_));
    --db_->busy;
  }
  Worker& operator*() const { return *worker_; }
  Worker* operator->() const { return worker_.get(); }

 private:
  Database* db_;
  std::unique_ptr<Worker> worker_;
};

// Bounds the requests that may wait on a model at once.
class Slots {
 public:
  explicit Slots(size_t n) : free_(n) {}
  bool Take(std::chrono::milliseconds wait) {
    std::unique_lock lock(mu_);
    if (!cv_.wait_for(lock, wait, [&] { return free_ > 0; })) return false;
    --free_;
    return true;
  }
  void Give() {
    {
      std::lock_guard lock(mu_);
      ++free_;
    }
    cv_.notify_one();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  size_t free_;
};

bool HasModel(const pipeline::PipelineConfig& config) {
  return !config.llm.base_url.empty() && config.llm.base_url != "none";
}

// A request's optional string field ("" when absent); nullopt with `error` set when it is there but not a string, or
// longer than `max_bytes`. (The router has checked that the whole body is UTF-8.)
std::optional<std::string> StringField(const nlohmann::json& request, const char* key, size_t max_bytes,
                                       std::optional<Reply>& error) {
  auto it = request.find(key);
  if (it == request.end() || it->is_null()) return std::string();
  if (!it->is_string()) {
    error = Reply::Failure(400, "invalid_argument", fmt::format("\"{}\" must be a string", key));
    return std::nullopt;
  }
  const auto& s = it->get_ref<const std::string&>();
  if (s.size() > max_bytes) {
    error = Reply::Failure(413, "too_large",
                           fmt::format("\"{}\" is {} bytes long; at most {} are taken", key, s.size(), max_bytes));
    return std::nullopt;
  }
  return s;
}

// A request's optional integer field in [lo, hi]; `fallback` when absent.
std::optional<int64_t> IntField(const nlohmann::json& request, const char* key, int64_t lo, int64_t hi,
                                int64_t fallback, std::optional<Reply>& error) {
  auto it = request.find(key);
  if (it == request.end() || it->is_null()) return fallback;
  if (!it->is_number_integer() || it->get<int64_t>() < lo || it->get<int64_t>() > hi) {
    error =
        Reply::Failure(400, "invalid_argument", fmt::format("\"{}\" must be an integer from {} to {}", key, lo, hi));
    return std::nullopt;
  }
  return it->get<int64_t>();
}

// A worker could not be had: every one busy past the wait (503 "busy"), or the database unreachable.
Reply LeaseFailure(const Error& e) {
  if (e.code == ErrorCode::kResourceLimit) return Reply::Failure(503, "busy", e.message);
  return Reply::Failure(e);
}

}  // namespace

std::string JsonText(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string Reply::Text() const { return text.empty() ? JsonText(body) : text; }

Reply Reply::Failure(int status, std::string_view code, std::string_view message) {
  Reply r;
  r.status = status;
  r.body = {{"error", {{"code", code}, {"message", message}}}};
  return r;
}

int HttpStatusFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kFormat: return 400;
    case ErrorCode::kNotReadOnly:
    case ErrorCode::kNotAllowed: return 403;
    case ErrorCode::kNotFound: return 404;
    case ErrorCode::kResourceLimit:
    case ErrorCode::kSql: return 422;
    case ErrorCode::kConnection: return 503;
    case ErrorCode::kTimeout: return 504;
    case ErrorCode::kIo:
    case ErrorCode::kInternal: return 500;
  }
  return 500;
}

Reply Reply::Failure(const Error& error) {
  return Failure(HttpStatusFor(error.code), ErrorCodeName(error.code), error.message);
}

struct Service::Impl {
  ServiceOptions options;
  std::vector<std::unique_ptr<Database>> databases;
  std::shared_ptr<const examples::ExampleLibrary> examples;
  Slots llm_slots{4};
  std::atomic<uint64_t> requests{0};

  std::mutex namer_mu;  // naming reads and writes the expander's state: one request at a time
  std::unique_ptr<naturalness::SchemaNamer> namer;

  explicit Impl(ServiceOptions o) : options(std::move(o)), llm_slots(options.llm_slots) {}

  // The database a request names ("" : the first), or a 404 naming the ones there are.
  Database* Find(const std::string& name, std::optional<Reply>& error) {
    if (name.empty()) return databases.front().get();
    for (auto& db : databases) {
      if (db->name == name) return db.get();
    }
    std::vector<std::string> names;
    for (const auto& db : databases) names.push_back(db->name);
    error = Reply::Failure(404, "not_found",
                           fmt::format("no database named \"{}\"; this server has: {}", name, Join(names, ", ")));
    return nullptr;
  }

  Result<Lease> Acquire(Database& db) {
    std::unique_lock lock(db.mu);
    if (db.line.empty() && !db.idle.empty()) {
      auto w = std::move(db.idle.back());
      db.idle.pop_back();
      ++db.busy;
      return Lease(&db, std::move(w));
    }
    if (db.made >= options.max_workers) {
      Database::Waiter me;
      db.line.push_back(&me);
      if (!me.cv.wait_for(lock, options.wait_for_worker, [&] { return me.handed != nullptr; })) {
        std::erase(db.line, &me);
        return MakeError(ErrorCode::kResourceLimit,
                         fmt::format("busy: all {} workers of {} are in use", options.max_workers, db.name));
      }
      return Lease(&db, std::move(me.handed));  // handed over still counted busy
    }
    ++db.busy;
    ++db.made;
    lock.unlock();
    auto conn = exec::Connect(db.url);
    if (!conn) {
      std::lock_guard again(db.mu);
      --db.made;
      --db.busy;
      return conn.error();
    }
    (*conn)->SetExecSettings(options.config.exec);
    auto w = std::make_unique<Worker>();
    w->conn = std::move(*conn);
    return Lease(&db, std::move(w));
  }

  Result<pipeline::GeneratorSet*> Generators(Database& db, Worker& w, bool offline) {
    std::optional<pipeline::GeneratorSet>& set = offline ? w.offline : w.configured;
    if (!set) {
      pipeline::PipelineConfig config = options.config;
      if (offline) config.llm.base_url = "none";
      auto made = pipeline::MakeGenerators(config, *w.conn, db.schema);
      if (!made) return made.error();
      set = std::move(*made);
    }
    return &*set;
  }

  // For the naming endpoints: the database `conn` names and the namer (loaded on first use), one request at a time.
  template <class F>
  Reply WithNamer(const std::string& conn, F&& body) {
    ++requests;
    std::optional<Reply> error;
    Database* db = Find(conn, error);
    if (db == nullptr) return *error;
    std::lock_guard lock(namer_mu);
    if (Status st = LoadNamer(); !st) return Reply::Failure(st.error());
    return body(*db, *namer);
  }

  Status LoadNamer() {
    if (namer) return Status::Ok();
    auto loaded =
        naturalness::SchemaNamer::Load(options.data_dir.empty() ? naturalness::DefaultDataDir() : options.data_dir);
    if (!loaded) return loaded.error();
    namer = std::move(*loaded);
    return Status::Ok();
  }

  std::optional<ojson> Estimate(Database& db, Worker& w, const std::string& question, const std::string& evidence);
  Reply AskCached(Database& db, const CachedAnswer& cached, int64_t max_rows, Clock::time_point t0);
};

Service::Service(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Service::~Service() = default;

Result<std::unique_ptr<Service>> Service::Open(ServiceOptions options,
                                               const std::function<void(const std::string&)>& notify) {
  if (options.databases.empty()) return MakeError(ErrorCode::kInvalidArgument, "no database to serve");
  if (options.max_workers == 0 || options.llm_slots == 0) {
    return MakeError(ErrorCode::kInvalidArgument, "workers and model slots must be at least 1");
  }
  auto impl = std::make_unique<Impl>(std::move(options));
  if (Status st = pipeline::CheckExamples(impl->options.config.examples); !st) return st.error();
  auto examples = pipeline::LoadExamples(impl->options.config.examples);
  if (!examples) return examples.error();
  impl->examples = *examples;
  for (const auto& spec : impl->options.databases) {
    for (const auto& db : impl->databases) {
      if (db->name == spec.name) {
        return MakeError(ErrorCode::kInvalidArgument, fmt::format("two databases are named \"{}\"", spec.name));
      }
    }
    if (notify) notify("opening " + spec.name);
    auto conn = exec::Connect(spec.url);
    if (!conn) return Error{conn.error().code, fmt::format("database {}: {}", spec.name, conn.error().message)};
    (*conn)->SetExecSettings(impl->options.config.exec);
    auto loaded = pipeline::LoadSchemaForAnswers(**conn, impl->options.schema_load);
    if (!loaded) return Error{loaded.error().code, fmt::format("database {}: {}", spec.name, loaded.error().message)};
    for (const auto& w : loaded->warnings) {
      if (notify) notify(fmt::format("warning: {}: {}", spec.name, w));
    }
    auto db = std::make_unique<Database>();
    db->name = spec.name;
    db->url = spec.url;
    db->dialect = &(*conn)->dialect();
    db->database_name = (*conn)->database_name();
    db->schema = std::move(loaded->schema);
    db->columns = db->schema.ColumnCount();
    db->cache = std::make_unique<TranslationCache>(impl->options.cache_entries);
    // The connection that read the schema becomes the first worker.
    auto w = std::make_unique<Worker>();
    w->conn = std::move(*conn);
    db->idle.push_back(std::move(w));
    db->made = 1;
    impl->databases.push_back(std::move(db));
  }
  return std::unique_ptr<Service>(new Service(std::move(impl)));
}

std::optional<ojson> Service::Impl::Estimate(Database& db, Worker& w, const std::string& question,
                                             const std::string& evidence) {
  // As `plainsql ask`: the shipped estimator is fitted on schemas of benchmark size.
  if (db.columns > 1000) return std::nullopt;
  if (!w.extractor) {
    auto resources = builtin::SharedLinkResources();
    if (!resources) return std::nullopt;
    w.extractor = std::make_unique<features::Extractor>(*resources);
    w.features = w.extractor->Prepare(db.schema, w.conn.get());
  }
  const features::Estimator& model = features::Estimator::Shipped();
  auto got = w.extractor->Extract({question, evidence, ""}, w.features.get(), w.conn->dialect());
  return features::EstimateJson(model, got.values);
}

Reply Service::Impl::AskCached(Database& db, const CachedAnswer& cached, int64_t max_rows, Clock::time_point t0) {
  auto lease = Acquire(db);
  if (!lease) return LeaseFailure(lease.error());
  exec::Limits limits = options.config.options.limits;
  limits.max_rows = max_rows;
  auto rs = (*lease)->conn->Query(cached.sql, limits);
  if (!rs) return Reply::Failure(rs.error());
  ojson result = exec::ResultToJson(*rs);
  Reply r;
  r.content_type = "application/json";
  r.text = fmt::format("{},\"columns\":{},\"rows\":{},\"truncated\":{}{}{},\"cached\":true,\"ms\":{}}}", cached.head,
                       JsonText(result["columns"]), JsonText(result["rows"]), rs->truncated ? "true" : "false",
                       cached.tail.empty() ? "" : ",", cached.tail, MsSince(t0));
  return r;
}

namespace {

// The reply of an answer split around its result, for the cache.
CachedAnswer ToCached(const std::string& sql, const ojson& reply) {
  ojson head = ojson::object(), tail = ojson::object();
  bool after = false;
  for (const auto& [k, v] : reply.items()) {
    if (k == "columns" || k == "rows" || k == "cached" || k == "ms") continue;
    if (k == "truncated") {
      after = true;
      continue;
    }
    (after ? tail : head)[k] = v;
  }
  std::string h = JsonText(head), t = JsonText(tail);
  return {sql, h.substr(0, h.size() - 1), t.substr(1, t.size() - 2)};
}

// The reply of an answer: AnswerToJson's fields with the request's, the candidates at the top, the confidence.
ojson AnswerReply(const std::string& conn, const std::string& question, const pipeline::Answer& answer,
                  const std::optional<ojson>& estimate) {
  ojson a = pipeline::AnswerToJson(answer);
  const pipeline::Candidate& won = answer.candidates[answer.winner];
  ojson out = {{"conn", conn},      {"question", question},
               {"sql", a["sql"]},   {"columns", a["columns"]},
               {"rows", a["rows"]}, {"truncated", a.value("truncated", false)}};
  // The probability that the answer is right: the correctness estimate when there is one, else the generator's own.
  if (estimate && estimate->contains("probability")) {
    out["confidence"] = (*estimate)["probability"];
  } else if (won.confidence >= 0) {
    out["confidence"] = won.confidence;
  } else {
    out["confidence"] = nullptr;
  }
  out["generator"] = won.generator;
  if (!won.unsure.empty()) out["unsure"] = won.unsure;
  if (!won.caveat.empty()) out["caveat"] = won.caveat;
  if (a.contains("notes")) out["notes"] = a["notes"];
  if (estimate) out["estimate"] = *estimate;
  ojson trace = a["trace"];
  out["candidates"] = trace.contains("candidates") ? trace["candidates"] : ojson::array();
  trace.erase("candidates");
  out["trace"] = std::move(trace);
  return out;
}

}  // namespace

Reply Service::Ask(const nlohmann::json& request, const ProgressFn& progress) {
  auto t0 = Clock::now();
  ++impl_->requests;
  if (!request.is_object()) return Reply::Failure(400, "invalid_argument", "the body must be a JSON object");
  std::optional<Reply> error;
  auto question = StringField(request, "question", pipeline::kMaxQuestionBytes, error);
  auto conn = StringField(request, "conn", 200, error);
  auto evidence = StringField(request, "evidence", pipeline::kMaxQuestionBytes, error);
  auto generator = StringField(request, "generator", 20, error);
  auto k = IntField(request, "k", 1, 32, 0, error);
  auto max_rows = IntField(request, "max_rows", 1, impl_->options.max_rows, impl_->options.max_rows, error);
  if (error) return *error;
  if (Trim(*question).empty()) return Reply::Failure(400, "invalid_argument", "\"question\" is missing or empty");
  if (generator->empty()) *generator = "auto";
  if (*generator != "auto" && *generator != "builtin" && *generator != "llm") {
    return Reply::Failure(400, "invalid_argument", "\"generator\" must be auto, builtin or llm");
  }
  const bool model = HasModel(impl_->options.config);
  if (*generator == "llm" && !model) {
    return Reply::Failure(400, "invalid_argument",
                          "\"generator\": \"llm\" needs a model: start the server with --llm URL --model NAME");
  }
  Database* db = impl_->Find(*conn, error);
  if (db == nullptr) return *error;
  ++db->asks;
  const bool uses_model = model && *generator != "builtin";
  // A built-in translation depends only on the question, the options and the snapshot the workers hold.
  const std::string key = fmt::format("{}\x1f{}\x1f{}", *question, *evidence, *k);
  if (!uses_model) {
    if (auto hit = db->cache->Get(key)) {
      ++db->hits;
      return impl_->AskCached(*db, *hit, *max_rows, t0);
    }
  }
  if (uses_model && !impl_->llm_slots.Take(impl_->options.wait_for_worker)) {
    return Reply::Failure(503, "busy",
                          fmt::format("{} requests already wait on the model; ask again later, or ask with "
                                      "\"generator\": \"builtin\"",
                                      impl_->options.llm_slots));
  }
  struct SlotGuard {
    Slots* slots;
    ~SlotGuard() {
      if (slots != nullptr) slots->Give();
    }
  } slot_guard{uses_model ? &impl_->llm_slots : nullptr};
  auto lease = impl_->Acquire(*db);
  if (!lease) return LeaseFailure(lease.error());
  auto set = impl_->Generators(*db, **lease, !uses_model);
  if (!set) return Reply::Failure(set.error());
  pipeline::Options options = (*set)->With(impl_->options.config.options);
  if (*k > 0) options.candidates = static_cast<int>(*k);
  options.limits.max_rows = *max_rows;
  options.deadline = std::min(options.deadline, impl_->options.deadline);
  options.evidence = *evidence;
  options.examples.library = impl_->examples;
  options.examples.k = static_cast<size_t>(impl_->options.config.examples.k);
  if (progress) {
    options.on_stage = [&](const pipeline::StageTrace& st) {
      progress({{"event", "stage"}, {"stage", st.stage}, {"ms", st.ms}});
    };
    options.on_wait = [&](const std::string& what, double seconds) {
      progress({{"event", "wait"}, {"what", what}, {"seconds", seconds}});
    };
  }
  auto answer = pipeline::Ask(*(*lease)->conn, db->schema, (*set)->active, *question, options);
  if (!answer) return Reply::Failure(answer.error());
  const pipeline::Candidate& won = answer->candidates[answer->winner];
  std::optional<ojson> estimate;
  if (won.generator == "builtin") estimate = impl_->Estimate(*db, **lease, *question, *evidence);
  ojson out = AnswerReply(db->name, *question, *answer, estimate);
  out["cached"] = false;
  if (!uses_model && won.generator == "builtin" && !answer->fell_back) db->cache->Put(key, ToCached(answer->sql, out));
  out["ms"] = MsSince(t0);
  return Reply::Json(std::move(out));
}

Reply Service::Sql(const nlohmann::json& request) {
  auto t0 = Clock::now();
  ++impl_->requests;
  if (!request.is_object()) return Reply::Failure(400, "invalid_argument", "the body must be a JSON object");
  std::optional<Reply> error;
  auto sql = StringField(request, "sql", 100'000, error);
  auto conn = StringField(request, "conn", 200, error);
  auto max_rows = IntField(request, "max_rows", 1, impl_->options.max_rows, impl_->options.max_rows, error);
  if (error) return *error;
  if (Trim(*sql).empty()) return Reply::Failure(400, "invalid_argument", "\"sql\" is missing or empty");
  Database* db = impl_->Find(*conn, error);
  if (db == nullptr) return *error;
  ++db->queries;
  auto lease = impl_->Acquire(*db);
  if (!lease) return LeaseFailure(lease.error());
  exec::Limits limits = impl_->options.config.options.limits;
  limits.max_rows = *max_rows;
  auto rs = (*lease)->conn->Query(*sql, limits);
  if (!rs) return Reply::Failure(rs.error());
  ojson result = exec::ResultToJson(*rs);
  ojson out = {{"conn", db->name},
               {"columns", result["columns"]},
               {"rows", result["rows"]},
               {"truncated", rs->truncated},
               {"ms", MsSince(t0)}};
  return Reply::Json(std::move(out));
}

ojson Service::Databases() const {
  ojson out = ojson::array();
  for (const auto& db : impl_->databases) {
    out.push_back({{"name", db->name},
                   {"engine", db->dialect->name},
                   {"database", db->database_name},
                   {"tables", db->schema.tables.size()},
                   {"columns", db->columns},
                   {"default", db.get() == impl_->databases.front().get()}});
  }
  return out;
}

Reply Service::Schema(const std::string& conn) {
  ++impl_->requests;
  std::optional<Reply> error;
  Database* db = impl_->Find(conn, error);
  if (db == nullptr) return *error;
  // The catalog's own JSON, written as it is (not copied into an ordered object first).
  Reply r;
  r.content_type = "application/json";
  r.text = catalog::ToJson(db->schema).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return r;
}

namespace {

Reply RenameReply(Database& db, naturalness::SchemaNamer& namer) {
  naturalness::Crosswalk crosswalk = namer.Name(db.schema, nullptr, {}, nullptr);
  ojson entries = ojson::array();
  for (const auto& e : crosswalk.entries) {
    entries.push_back({{"table", e.is_table ? "" : e.table},
                       {"native", e.native},
                       {"is_table", e.is_table},
                       {"n1", e.n1},
                       {"n2", e.n2},
                       {"n3", e.n3},
                       {"alternatives", e.alternatives}});
  }
  return Reply::Json(
      {{"conn", db.name}, {"entries", std::move(entries)}, {"csv", naturalness::SerializeCrosswalk(crosswalk)}});
}

}  // namespace

Reply Service::Profile(const std::string& conn) {
  return impl_->WithNamer(conn, [](Database& db, naturalness::SchemaNamer& namer) {
    auto profile = naturalness::ProfileSchema(db.schema, namer.classifier());
    ojson out = ojson::parse(naturalness::RenderProfile(profile, naturalness::ProfileFormat::kJson));
    out["conn"] = db.name;
    return Reply::Json(std::move(out));
  });
}

Reply Service::Rename(const std::string& conn) {
  return impl_->WithNamer(conn, [](Database& db, naturalness::SchemaNamer& namer) { return RenameReply(db, namer); });
}

Reply Service::Views(const std::string& conn, const std::string& level_name, bool extended) {
  auto level = naturalness::ParseLevel(level_name.empty() ? "N1" : level_name, "level", false);
  if (!level) return Reply::Failure(level.error());
  return impl_->WithNamer(conn, [&](Database& db, naturalness::SchemaNamer& namer) {
    views::ViewOptions options;
    options.level = *level;
    options.extended = extended;
    catalog::Schema schema = db.schema;
    std::erase_if(schema.tables, [&](const auto& t) { return t.schema == options.schema_name; });
    auto crosswalk = namer.Name(schema, nullptr, {}, nullptr);
    auto plan = views::PlanViews(schema, crosswalk, options);
    if (!plan) return Reply::Failure(plan.error());
    auto target = views::TargetFor(*db.dialect);
    if (!target) return Reply::Failure(target.error());
    return Reply::Json({{"conn", db.name},
                        {"level", naturalness::LevelCode(*level)},
                        {"extended", extended},
                        {"views", plan->views.size()},
                        {"ddl", views::CreateScript(*plan, schema, *target)}});
  });
}

Reply Service::Link(const nlohmann::json& request) {
  ++impl_->requests;
  if (!request.is_object()) return Reply::Failure(400, "invalid_argument", "the body must be a JSON object");
  std::optional<Reply> error;
  auto question = StringField(request, "question", pipeline::kMaxQuestionBytes, error);
  auto conn = StringField(request, "conn", 200, error);
  auto budget = IntField(request, "budget", 0, 1'000'000, 0, error);
  if (error) return *error;
  if (Trim(*question).empty()) return Reply::Failure(400, "invalid_argument", "\"question\" is missing or empty");
  Database* db = impl_->Find(*conn, error);
  if (db == nullptr) return *error;
  std::lock_guard lock(db->link_mu);
  if (!db->subsetter) {
    auto c = exec::Connect(db->url);
    if (!c) return Reply::Failure(c.error());
    (*c)->SetExecSettings(impl_->options.config.exec);
    db->link_conn = std::move(*c);
    auto v = retrieval::ValueIndex::Build(*db->link_conn, db->schema);
    if (v) db->values = std::make_unique<retrieval::ValueIndex>(std::move(*v));
    auto s = linking::MakeSubsetter("builtin", db->schema, db->link_conn.get(), db->values.get(), nullptr);
    if (!s) return Reply::Failure(s.error());
    db->subsetter = std::move(*s);
  }
  linking::SubsetOptions options;
  options.budget = static_cast<size_t>(*budget);
  auto subset = db->subsetter->Select(*question, options);
  if (!subset) return Reply::Failure(subset.error());
  ojson out = linking::SubsetToJson(*subset);
  out["conn"] = db->name;
  out["of_columns"] = db->columns;
  out["notes"] = subset->notes;
  return Reply::Json(std::move(out));
}

namespace {

Result<std::unique_ptr<eval::RunStore>> OpenRuns(const std::string& path) {
  if (path.empty()) {
    return MakeError(ErrorCode::kNotFound, "this server has no runs database (plainsql serve --runs FILE)");
  }
  // A runs database is only read here: a missing file is not created.
  if (path.rfind("postgres", 0) != 0 && !std::filesystem::exists(path)) {
    return MakeError(ErrorCode::kNotFound, fmt::format("the runs database {} does not exist", path));
  }
  return eval::RunStore::Open(path);
}

ojson RunInfoJson(const eval::RunInfo& r) {
  return {{"id", r.id},
          {"name", r.spec.name},
          {"created", r.created},
          {"status", r.status},
          {"total", r.total},
          {"done", r.done},
          {"system", r.spec.system},
          {"benchmark", r.spec.benchmark},
          {"questions", r.spec.questions}};
}

}  // namespace

Reply Service::Runs() {
  ++impl_->requests;
  auto store = OpenRuns(impl_->options.runs_db);
  if (!store) return Reply::Failure(store.error());
  auto runs = (*store)->ListRuns();
  if (!runs) return Reply::Failure(runs.error());
  ojson out = ojson::array();
  for (const auto& r : *runs) out.push_back(RunInfoJson(r));
  return Reply::Json({{"runs", std::move(out)}});
}

Reply Service::Run(const std::string& id) {
  ++impl_->requests;
  auto store = OpenRuns(impl_->options.runs_db);
  if (!store) return Reply::Failure(store.error());
  auto run = (*store)->GetRun(id);
  if (!run) return Reply::Failure(run.error());
  auto scores = (*store)->Scores(run->id);
  if (!scores) return Reply::Failure(scores.error());
  ojson out = RunInfoJson(*run);
  out["scores"] = eval::ScoreJson(*scores);
  return Reply::Json(std::move(out));
}

Reply Service::RunReport(const std::string& id) {
  ++impl_->requests;
  auto store = OpenRuns(impl_->options.runs_db);
  if (!store) return Reply::Failure(store.error());
  std::lock_guard lock(impl_->namer_mu);
  if (Status st = impl_->LoadNamer(); !st) return Reply::Failure(st.error());
  auto html = eval::RunReportHtml(**store, id, "", impl_->namer->classifier());
  if (!html) return Reply::Failure(html.error());
  Reply r;
  r.text = std::move(*html);
  r.content_type = "text/html; charset=utf-8";
  return r;
}

ojson Service::Stats() const {
  ojson dbs = ojson::array();
  for (const auto& db : impl_->databases) {
    std::lock_guard lock(db->mu);
    dbs.push_back({{"name", db->name},
                   {"asks", db->asks.load()},
                   {"cache_hits", db->hits.load()},
                   {"queries", db->queries.load()},
                   {"workers", db->made},
                   {"busy", db->busy}});
  }
  return {{"requests", impl_->requests.load()}, {"databases", std::move(dbs)}};
}

}  // namespace plainsql::server
