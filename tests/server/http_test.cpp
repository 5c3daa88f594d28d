// `plainsql serve` on a real loopback socket (issue #23): JSON over HTTP, server-sent events, what cpp-httplib refuses
// itself (an oversized body) answered as JSON, and a graceful stop that finishes the request in flight.
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "llm/fake_llm_server.h"
#include "server/http.h"
#include "server/router.h"
#include "server/service.h"
#include "server/settings.h"
#include "test_util.h"

namespace plainsql::server {
namespace {

using nlohmann::json;

struct Running {
  std::unique_ptr<Service> service;
  std::unique_ptr<Router> router;
  std::unique_ptr<HttpServer> http;
  std::thread thread;
  Status ran = Status::Ok();

  explicit Running(ServiceOptions so, size_t max_body = 1 << 20) {
    auto s = Service::Open(std::move(so));
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
    service = std::move(*s);
    RouterOptions ro;
    ro.max_body = max_body;
    router = std::make_unique<Router>(*service, ro);
    ListenOptions lo;
    lo.port = 0;
    lo.threads = 8;
    lo.max_body = max_body;
    lo.log = nullptr;
    http = std::make_unique<HttpServer>(*router, lo);
    EXPECT_TRUE(http->Bind().ok());
    thread = std::thread([this] { ran = http->Run(); });
  }
  ~Running() {
    http->Stop();
    thread.join();
  }
  httplib::Client Client() const {
    httplib::Client c("127.0.0.1", http->port());
    c.set_read_timeout(30, 0);
    return c;
  }
};

ServiceOptions Sample() {
  ServiceOptions o;
  o.databases = {{"plant", test::SampleDb()}};
  o.config.llm.base_url = "none";
  return o;
}

TEST(ServerHttp, AskAndErrorsOverTheWire) {
  Running s(Sample(), 64 * 1024);
  auto c = s.Client();
  auto res = c.Post("/api/ask", R"({"question": "How many plants are there?"})", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(res->get_header_value("X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(json::parse(res->body)["rows"], json::parse("[[6]]"));
  // A body over the limit is refused before it is read, as JSON.
  std::string big(200 * 1024, 'x');
  res = c.Post("/api/ask", big, "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 413);
  EXPECT_EQ(json::parse(res->body)["error"]["code"], "too_large");
  res = c.Get("/no/such/page");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 404);
  EXPECT_EQ(json::parse(res->body)["error"]["code"], "not_found");
  res = c.Get("/");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_NE(res->get_header_value("Content-Security-Policy").find("default-src 'self'"), std::string::npos);
}

TEST(ServerHttp, StreamedAskSendsEvents) {
  Running s(Sample());
  auto c = s.Client();
  auto res = c.Post("/api/ask/stream", R"({"question": "Which plants are in Toledo?"})", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Content-Type"), "text/event-stream");
  EXPECT_NE(res->body.find("event: stage\ndata: "), std::string::npos);
  size_t answer = res->body.find("event: answer\ndata: ");
  ASSERT_NE(answer, std::string::npos);
  json a = json::parse(res->body.substr(answer + 20, res->body.find("\n\n", answer) - answer - 20));
  EXPECT_FALSE(a["rows"].empty());
}

// Stop() while a request waits on a slow model: the request is answered, then Run returns.
TEST(ServerHttp, GracefulStopFinishesTheRequestInFlight) {
  test::FakeLlmServer llm;
  test::FakeLlmServer::Reply slow = test::FakeLlmServer::Ok("SELECT count(*) FROM plant");
  slow.delay = std::chrono::milliseconds(1500);
  llm.Script({slow});
  ServiceOptions o = Sample();
  o.config.llm.base_url = llm.url();
  o.config.llm.model = "test";
  auto s = std::make_unique<Running>(o);
  auto c = s->Client();
  auto pending = std::async(std::launch::async, [&] {
    return c.Post("/api/ask", R"({"question": "How many plants are there?"})", "application/json");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  s->http->Stop();
  auto res = pending.get();
  ASSERT_TRUE(res) << "the request in flight was dropped";
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(json::parse(res->body)["generator"].get<std::string>().rfind("llm", 0), 0u);
  s->thread.join();
  EXPECT_TRUE(s->ran.ok());
  s->thread = std::thread([] {});  // joined by the destructor
  // New connections are refused once stopped.
  httplib::Client late("127.0.0.1", s->http->port());
  late.set_connection_timeout(1, 0);
  EXPECT_FALSE(late.Get("/api/databases"));
}

TEST(ServerSettings, LoopbackHosts) {
  EXPECT_TRUE(IsLoopback("127.0.0.1"));
  EXPECT_TRUE(IsLoopback("127.1.2.3"));
  EXPECT_TRUE(IsLoopback("::1"));
  EXPECT_TRUE(IsLoopback("localhost"));
  EXPECT_FALSE(IsLoopback("0.0.0.0"));
  EXPECT_FALSE(IsLoopback("::"));
  EXPECT_FALSE(IsLoopback("192.168.1.10"));
  EXPECT_TRUE(IsLoopback("::ffff:127.0.0.1"));  // a client's address as an IPv6 socket reports it
  EXPECT_FALSE(IsLoopback("::ffff:10.0.0.1"));
}

TEST(ServerSettings, DatabasesListenAddressesTokensAndExposure) {
  EXPECT_EQ(ParseDatabaseSpec("sales=postgresql://u:p@h/db", 0).name, "sales");
  EXPECT_EQ(ParseDatabaseSpec("sales=postgresql://u:p@h/db", 0).url, "postgresql://u:p@h/db");
  EXPECT_EQ(ParseDatabaseSpec("postgresql://u@h/db?x=1", 0).name, "db");  // an '=' after the scheme is the URL's
  EXPECT_EQ(ParseDatabaseSpec("postgresql://u@h/db", 2).name, "db3");
  EXPECT_EQ(ParseDatabaseSpec("/data/plant.db", 1).name, "plant");
  auto a = ParseListenAddress("0.0.0.0:8080");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "0.0.0.0");
  EXPECT_EQ(a->port, 8080);
  auto v6 = ParseListenAddress("[::1]:0");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(ParseListenAddress("9000")->host, "127.0.0.1");
  EXPECT_FALSE(ParseListenAddress("host:port").ok());
  EXPECT_FALSE(ParseListenAddress("host:70000").ok());
  EXPECT_FALSE(ParseListenAddress(":80").ok());
  EXPECT_TRUE(CheckExposure({"127.0.0.1", 8080}, "").ok());
  EXPECT_FALSE(CheckExposure({"0.0.0.0", 8080}, "").ok());
  EXPECT_TRUE(CheckExposure({"0.0.0.0", 8080}, "0123456789abcdef").ok());
  test::TempDir dir;
  std::ofstream(dir.File("short")) << "short\n";
  std::ofstream(dir.File("good")) << "  0123456789abcdef0123\n";
  EXPECT_FALSE(ReadTokenFile(dir.File("short")).ok());
  EXPECT_FALSE(ReadTokenFile(dir.File("missing")).ok());
  ASSERT_TRUE(ReadTokenFile(dir.File("good")).ok());
  EXPECT_EQ(*ReadTokenFile(dir.File("good")), "0123456789abcdef0123");
}

}  // namespace
}  // namespace plainsql::server
