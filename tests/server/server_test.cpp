// `plainsql serve` without sockets (issue #23): the requests of data/requests.jsonl through the Router, the token, the
// rate limit, CORS, the translation cache, concurrent asks, a hung model beside built-in asks, and the streamed ask.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "llm/fake_llm_server.h"
#include "server/router.h"
#include "server/service.h"
#include "test_util.h"

namespace plainsql::server {
namespace {

using nlohmann::json;

ServiceOptions SampleOptions() {
  ServiceOptions o;
  o.databases = {{"plant", test::SampleDb()}};
  o.config.llm.base_url = "none";
  o.config.options.limits.timeout = std::chrono::milliseconds(1000);
  o.max_rows = 1000;
  return o;
}

std::unique_ptr<Service> OpenSample(ServiceOptions o = SampleOptions()) {
  auto s = Service::Open(std::move(o));
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? std::move(*s) : nullptr;
}

HttpRequest Post(const std::string& path, const json& body, const std::string& remote = "127.0.0.1") {
  HttpRequest r;
  r.method = "POST";
  r.path = path;
  r.body = body.dump();
  r.remote = remote;
  return r;
}

HttpRequest Get(const std::string& path, const std::string& remote = "127.0.0.1") {
  HttpRequest r;
  r.method = "GET";
  r.remote = remote;
  size_t q = path.find('?');
  r.path = path.substr(0, q);
  if (q != std::string::npos) {
    std::string rest = path.substr(q + 1);
    size_t at = 0;
    while (at <= rest.size()) {
      size_t amp = rest.find('&', at);
      std::string kv = rest.substr(at, amp == std::string::npos ? std::string::npos : amp - at);
      size_t eq = kv.find('=');
      if (eq != std::string::npos) r.params.emplace(kv.substr(0, eq), kv.substr(eq + 1));
      if (amp == std::string::npos) break;
      at = amp + 1;
    }
  }
  return r;
}

std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

// Every case of data/requests.jsonl: the status (or one of "status_in"), the error code, the texts the body holds.
TEST(ServerRouter, RequestsFromTheCaseFile) {
  auto service = OpenSample();
  ASSERT_TRUE(service);
  Router router(*service, {});
  std::ifstream in(test::DataFile("server", "requests.jsonl"));
  ASSERT_TRUE(in) << "requests.jsonl";
  std::string line;
  int cases = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    json c = json::parse(line);
    const std::string name = c["name"];
    HttpRequest r = c["method"] == "GET" ? Get(c["path"]) : Post(c["path"], json::object());
    r.method = c["method"];
    if (c.contains("body")) r.body = c["body"].dump();
    if (c.contains("raw")) r.body = c["raw"];
    if (c.contains("raw_hex")) r.body = FromHex(c["raw_hex"]);
    if (c.contains("long_question"))
      r.body = json{{"question", std::string(c["long_question"].get<size_t>(), 'a')}}.dump();
    if (r.method != "POST" && !c.contains("raw")) r.body.clear();
    if (c.contains("headers")) {
      for (auto& [k, v] : c["headers"].items()) r.headers[k] = v;
    }
    HttpResponse res = router.Handle(r);
    SCOPED_TRACE(name + ": " + res.body.substr(0, 400));
    if (c.contains("status_in")) {
      std::set<int> ok = c["status_in"].get<std::set<int>>();
      EXPECT_TRUE(ok.count(res.status)) << res.status;
    } else {
      EXPECT_EQ(res.status, c["status"].get<int>());
    }
    if (c.contains("content_type")) {
      EXPECT_EQ(res.content_type, c["content_type"].get<std::string>());
    }
    if (res.content_type == "application/json") {
      json body = json::parse(res.body, nullptr, false);
      ASSERT_FALSE(body.is_discarded()) << "the body is not JSON";
      if (res.status >= 400) {
        ASSERT_TRUE(body.contains("error"));
        EXPECT_FALSE(body["error"]["message"].get<std::string>().empty());
      }
      if (c.contains("code")) {
        EXPECT_EQ(body["error"]["code"], c["code"]);
      }
    }
    for (const auto& text : c.value("contains", json::array())) {
      EXPECT_NE(res.body.find(text.get<std::string>()), std::string::npos) << "missing " << text;
    }
    ++cases;
  }
  EXPECT_GE(cases, 50);
}

// Every path and method of the OpenAPI document reaches an endpoint (no "no endpoint" 404, no 405), and every endpoint
// the router answers is in the document.
TEST(ServerRouter, OpenApiDocumentMatchesTheRoutes) {
  auto service = OpenSample();
  ASSERT_TRUE(service);
  Router router(*service, {});
  HttpResponse doc = router.Handle(Get("/openapi.json"));
  ASSERT_EQ(doc.status, 200);
  json api = json::parse(doc.body);
  EXPECT_EQ(api["openapi"].get<std::string>().substr(0, 2), "3.");
  std::set<std::string> documented;
  for (const auto& [path, methods] : api["paths"].items()) {
    for (const auto& [method, op] : methods.items()) {
      std::string concrete = path;
      if (size_t at = concrete.find("{id}"); at != std::string::npos) concrete.replace(at, 4, "no-such-run");
      HttpRequest r = method == "get" ? Get(concrete) : Post(concrete, {{"question", "How many plants are there?"}});
      if (method == "post" && path == "/api/sql") r.body = json{{"sql", "SELECT 1"}}.dump();
      if (router.IsStream(r)) continue;  // answered by Stream, tested below
      HttpResponse res = router.Handle(r);
      SCOPED_TRACE(method + " " + path + ": " + res.body.substr(0, 200));
      EXPECT_NE(res.status, 405);
      EXPECT_EQ(res.body.find("no endpoint"), std::string::npos);
      EXPECT_TRUE(op.contains("responses"));
      documented.insert(path);
    }
  }
  for (const char* path :
       {"/api/ask", "/api/sql", "/api/link", "/api/databases", "/api/status", "/api/schema", "/api/profile",
        "/api/rename", "/api/views", "/api/runs", "/api/runs/{id}", "/api/runs/{id}/report"}) {
    EXPECT_TRUE(documented.count(path)) << path << " is not in openapi.json";
  }
  EXPECT_TRUE(api["paths"].contains("/api/ask/stream"));
}

TEST(ServerRouter, TokenGuardsTheApiNotThePage) {
  auto service = OpenSample();
  ASSERT_TRUE(service);
  RouterOptions o;
  o.token = "0123456789abcdef0123";
  Router router(*service, o);
  HttpRequest r = Get("/api/databases");
  EXPECT_EQ(router.Handle(r).status, 401);
  r.headers["authorization"] = "Bearer wrong-token-of-twenty!";
  EXPECT_EQ(router.Handle(r).status, 401);
  r.headers["authorization"] = "Bearer 0123456789abcdef012";  // one character short
  EXPECT_EQ(router.Handle(r).status, 401);
  r.headers["authorization"] = "Bearer 0123456789abcdef0123";
  EXPECT_EQ(router.Handle(r).status, 200);
  EXPECT_EQ(router.Handle(Get("/")).status, 200);  // the page itself holds nothing secret
  EXPECT_EQ(router.Handle(Get("/openapi.json")).status, 401);
}

TEST(ServerRouter, RateLimitPerAddressAndLoopbackFree) {
  auto service = OpenSample();
  ASSERT_TRUE(service);
  RouterOptions o;
  o.rate = 5;  // a burst of 10, then 5 a second
  Router router(*service, o);
  int limited = 0;
  for (int i = 0; i < 30; ++i) limited += router.Handle(Get("/api/databases", "10.1.2.3")).status == 429;
  EXPECT_GE(limited, 15);
  EXPECT_LE(limited, 20);
  EXPECT_EQ(router.Handle(Get("/api/databases", "10.1.2.4")).status, 200);  // another client has its own bucket
  for (int i = 0; i < 30; ++i) ASSERT_EQ(router.Handle(Get("/api/databases", "127.0.0.1")).status, 200);
  HttpResponse res = router.Handle(Get("/api/databases", "10.1.2.3"));
  EXPECT_EQ(res.status, 429);
  EXPECT_NE(res.body.find("rate_limited"), std::string::npos);
}

TEST(ServerRouter, CorsOnlyForTheConfiguredOrigin) {
  auto service = OpenSample();
  ASSERT_TRUE(service);
  RouterOptions o;
  o.cors_origin = "https://app.example.com";
  Router router(*service, o);
  HttpRequest pre = Get("/api/ask");
  pre.method = "OPTIONS";
  pre.headers["origin"] = "https://app.example.com";
  HttpResponse ok = router.Handle(pre);
  EXPECT_EQ(ok.status, 204);
  auto has = [](const HttpResponse& r, const std::string& k, const std::string& v) {
    for (const auto& [hk, hv] : r.headers) {
      if (hk == k && hv == v) return true;
    }
    return false;
  };
  EXPECT_TRUE(has(ok, "Access-Control-Allow-Origin", "https://app.example.com"));
  pre.headers["origin"] = "https://evil.example";
  EXPECT_EQ(router.Handle(pre).status, 403);
  HttpRequest get = Get("/api/databases");
  get.headers["origin"] = "https://evil.example";
  EXPECT_FALSE(has(router.Handle(get), "Access-Control-Allow-Origin", "https://evil.example"));
}

TEST(ServerService, RemembersBuiltinTranslationsAndRunsThemAgain) {
  auto service = OpenSample();
  ASSERT_TRUE(service);
  Reply first = service->Ask({{"question", "Which plants have at least 8 technicians?"}}, {});
  ASSERT_EQ(first.status, 200) << first.body.dump();
  auto a = first.Parsed();
  EXPECT_FALSE(a["cached"].get<bool>());
  Reply again = service->Ask({{"question", "Which plants have at least 8 technicians?"}}, {});
  ASSERT_EQ(again.status, 200);
  auto b = again.Parsed();
  EXPECT_TRUE(b["cached"].get<bool>());
  // The same reply but for the flag and the time, field for field and in the same order.
  a.erase("cached");
  a.erase("ms");
  b.erase("cached");
  b.erase("ms");
  EXPECT_EQ(a.dump(), b.dump());
  Reply c = service->Ask({{"question", "Which plants have at least 8 technicians?"}, {"k", 2}}, {});
  EXPECT_FALSE(c.Parsed()["cached"].get<bool>());  // other options, another translation
  // With the cache off, nothing is remembered.
  ServiceOptions o = SampleOptions();
  o.cache_entries = 0;
  auto uncached = OpenSample(o);
  ASSERT_TRUE(uncached);
  uncached->Ask({{"question", "How many plants are there?"}}, {});
  EXPECT_FALSE(uncached->Ask({{"question", "How many plants are there?"}}, {}).Parsed()["cached"].get<bool>());
}

// The questions the sample database's README lists, asked from 16 threads at once: every answer is the one a single
// thread gets.
TEST(ServerService, ConcurrentAsksGiveTheSingleThreadAnswers) {
  const std::vector<std::string> questions = {"How many plants are there?",
                                              "Which plants are in Toledo?",
                                              "What is the average hourly rate of technicians?",
                                              "How many spare parts are there for each group?",
                                              "Which plant has the most technicians?",
                                              "How many certified technicians are there?",
                                              "List the first names of technicians who are not certified",
                                              "Which plants have at least 8 technicians?"};
  ServiceOptions o = SampleOptions();
  o.cache_entries = 0;  // every ask translates
  o.max_workers = 4;
  auto service = OpenSample(o);
  ASSERT_TRUE(service);
  std::vector<json> expected;
  for (const auto& q : questions) {
    Reply r = service->Ask({{"question", q}}, {});
    ASSERT_EQ(r.status, 200) << q;
    expected.push_back({r.body["sql"], r.body["rows"]});
  }
  std::atomic<int> wrong{0}, failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 12; ++i) {
        size_t k = static_cast<size_t>(t + i) % questions.size();
        Reply r = service->Ask({{"question", questions[k]}}, {});
        if (r.status != 200) {
          ++failed;
        } else if (json{r.body["sql"], r.body["rows"]} != expected[k]) {
          ++wrong;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(wrong.load(), 0);
  json stats = service->Stats();
  EXPECT_LE(stats["databases"][0]["workers"].get<size_t>(), 4u);
}

// A model that never answers holds at most llm_slots workers; built-in asks go on meanwhile, and a model ask beyond
// the slots is told the model is busy.
TEST(ServerService, HungModelDoesNotBlockBuiltinAsks) {
  test::FakeLlmServer llm;
  test::FakeLlmServer::Reply hung = test::FakeLlmServer::Ok("SELECT 1");
  hung.delay = std::chrono::milliseconds(8000);
  llm.Script({hung});
  ServiceOptions o = SampleOptions();
  o.config.llm.base_url = llm.url();
  o.config.llm.model = "test";
  o.config.llm.timeout = std::chrono::milliseconds(10'000);
  o.config.options.fallback = true;
  o.llm_slots = 2;
  o.max_workers = 4;
  o.wait_for_worker = std::chrono::milliseconds(200);
  auto service = OpenSample(o);
  ASSERT_TRUE(service);
  // The built-in translator's resources are loaded before the model is asked (slow under the sanitizers).
  ASSERT_EQ(service->Ask({{"question", "How many plants are there?"}, {"generator", "builtin"}}, {}).status, 200);
  std::atomic<int> model_done{0};
  std::vector<std::future<Reply>> model_asks;
  for (int i = 0; i < 2; ++i) {
    model_asks.push_back(std::async(std::launch::async, [&] {
      Reply r = service->Ask({{"question", "How many plants are there?"}}, {});
      ++model_done;
      return r;
    }));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // both model asks now wait on the model
  Reply third = service->Ask({{"question", "How many plants are there?"}, {"generator", "llm"}}, {});
  EXPECT_EQ(third.status, 503) << third.body.dump();
  EXPECT_EQ(third.body["error"]["code"], "busy");
  // Translated afresh (not remembered) and remembered, all while the model hangs.
  for (const char* q :
       {"How many plants are there?", "Which plants are in Toledo?", "How many certified technicians are there?",
        "Which plant has the most technicians?", "How many plants are there?"}) {
    Reply b = service->Ask({{"question", q}, {"generator", "builtin"}}, {});
    ASSERT_EQ(b.status, 200) << q << ": " << b.body.dump();
  }
  EXPECT_EQ(model_done.load(), 0) << "the built-in asks should have finished while the model was still hung";
  for (auto& f : model_asks) EXPECT_EQ(f.get().status, 200);
}

TEST(ServerRouter, StreamTellsTheStagesThenTheAnswer) {
  auto service = OpenSample();
  ASSERT_TRUE(service);
  Router router(*service, {});
  HttpRequest r = Post("/api/ask/stream", {{"question", "Which plant has the most technicians?"}});
  ASSERT_TRUE(router.IsStream(r));
  ASSERT_FALSE(router.Precheck(r).has_value());
  std::vector<std::string> events;
  std::string answer;
  router.Stream(r, [&](std::string_view chunk) {
    std::string s(chunk);
    events.push_back(s.substr(7, s.find('\n') - 7));
    if (events.back() == "answer") answer = s;
    return true;
  });
  ASSERT_GE(events.size(), 3u);
  EXPECT_EQ(events.front(), "stage");
  EXPECT_EQ(events.back(), "answer");
  EXPECT_NE(answer.find("\"rows\":"), std::string::npos);
  // A bad request streams one error event.
  events.clear();
  router.Stream(Post("/api/ask/stream", {{"question", 5}}), [&](std::string_view chunk) {
    events.emplace_back(chunk.substr(7, chunk.find('\n') - 7));
    return true;
  });
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0], "error");
}

// A data dictionary beside the SQLite file (BIRD's database_description folder) fills the schema, as in `plainsql
// ask`; one that cannot be read is said and the database is served anyway.
TEST(ServerService, ReadsTheDataDictionaryBesideTheDatabase) {
  test::TempDir dir;
  std::filesystem::copy_file(test::SampleDb(), dir.File("plant.db"));
  std::filesystem::create_directories(dir.File("database_description"));
  std::ofstream(dir.File("database_description/TB_EQUIP.csv"))
      << "original_column_name,column_name,column_description,value_description\n"
      << "MFR_NM,manufacturer name,the company that built the equipment,\n";
  ServiceOptions o = SampleOptions();
  o.databases = {{"plant", dir.File("plant.db")}};
  auto service = OpenSample(o);
  ASSERT_TRUE(service);
  Reply schema = service->Schema("");
  ASSERT_EQ(schema.status, 200);
  EXPECT_NE(schema.Text().find("the company that built the equipment"), std::string::npos);
  std::ofstream(dir.File("database_description/TB_MO.csv")) << "\"unclosed quote\n";
  std::vector<std::string> told;
  auto again = Service::Open(o, [&](const std::string& m) { told.push_back(m); });
  ASSERT_TRUE(again.ok());
  ASSERT_EQ(told.size(), 2u);
  EXPECT_EQ(told[0], "opening plant");
  EXPECT_NE(told[1].find("data dictionary not read"), std::string::npos) << told[1];
}

// A database that declares no foreign key is served on inferred keys, as `plainsql ask` answers it; `--infer-keys=none`
// (schema_load.infer_keys unset) serves the declared keys alone.
TEST(ServerService, InfersTheKeysADatabaseDoesNotDeclare) {
  test::TempDir dir;
  test::MakeSqliteDb(dir.File("shop.db"),
                     "CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, customer_name TEXT);"
                     "CREATE TABLE account (account_id INTEGER PRIMARY KEY, customer_id INTEGER, account_name TEXT);"
                     "INSERT INTO customer VALUES (1, 'Ann'), (2, 'Bo'), (3, 'Cy');"
                     "INSERT INTO account VALUES (10, 1, 'main'), (11, 1, 'savings'), (12, 3, 'main');");
  ServiceOptions o = SampleOptions();
  o.databases = {{"shop", dir.File("shop.db")}};
  o.schema_load.cache.dir = dir.File("cache");
  auto count = [](Service& service) {
    Reply r = service.Ask({{"question", "How many customers do not have an account?"}}, {});
    EXPECT_EQ(r.status, 200) << r.Text();
    auto rows = r.Parsed()["rows"];
    return rows.size() == 1 && rows[0].size() == 1 ? rows[0][0].dump() : r.Text();
  };
  auto inferred = OpenSample(o);
  ASSERT_TRUE(inferred);
  EXPECT_EQ(count(*inferred), "1");
  o.schema_load.infer_keys = std::nullopt;
  auto declared = OpenSample(o);
  ASSERT_TRUE(declared);
  EXPECT_EQ(count(*declared), "3");
}

TEST(ServerService, RefusesBadOptions) {
  ServiceOptions o = SampleOptions();
  o.databases.push_back({"plant", test::SampleDb()});
  EXPECT_FALSE(Service::Open(o).ok());  // two databases of one name
  o = SampleOptions();
  o.databases = {{"x", "/nonexistent/dir/file.db"}};
  auto s = Service::Open(o);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("database x"), std::string::npos) << s.error().message;
  EXPECT_FALSE(Service::Open(ServiceOptions{}).ok());  // nothing to serve
}

}  // namespace
}  // namespace plainsql::server
