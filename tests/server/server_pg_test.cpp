// `plainsql serve` over PostgreSQL (issue #23): the pg fixture's cluster (tests/pg/fixture.sql) served by name; asks
// and queries run read-only through the same guard, and nothing the server says holds the URL or its password.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "server/router.h"
#include "server/service.h"

namespace plainsql::server {
namespace {

std::string Url() {
  std::ifstream in(PLAINSQL_PG_URL_FILE);
  std::string url;
  std::getline(in, url);
  return url;
}

TEST(ServerPg, AsksAndQueriesThroughTheGuardWithoutShowingTheUrl) {
  const std::string url = Url();
  ASSERT_FALSE(url.empty()) << "no cluster URL in " << PLAINSQL_PG_URL_FILE << " (the pg fixture did not start)";
  const std::string password = url.substr(url.find(':', 13) + 1, url.find('@') - url.find(':', 13) - 1);
  ASSERT_GE(password.size(), 8u);
  ServiceOptions o;
  o.databases = {{"pg", url}};
  o.config.llm.base_url = "none";
  o.config.options.limits.timeout = std::chrono::milliseconds(1000);
  auto service = Service::Open(o);
  ASSERT_TRUE(service.ok()) << service.error().message;
  Router router(**service, {});
  auto post = [&](const std::string& path, const nlohmann::json& body) {
    HttpRequest r;
    r.method = "POST";
    r.path = path;
    r.body = body.dump();
    r.remote = "127.0.0.1";
    return router.Handle(r);
  };
  auto get = [&](const std::string& path) {
    HttpRequest r;
    r.method = "GET";
    r.path = path;
    r.remote = "127.0.0.1";
    return router.Handle(r);
  };
  HttpResponse ask = post("/api/ask", {{"question", "How many plants are there?"}});
  ASSERT_EQ(ask.status, 200) << ask.body;
  auto a = nlohmann::json::parse(ask.body);
  EXPECT_EQ(a["conn"], "pg");
  EXPECT_NE(a["sql"].get<std::string>().find("count"), std::string::npos);
  HttpResponse sql = post("/api/sql", {{"sql", "SELECT plant_name FROM plant ORDER BY plant_id LIMIT 1"}});
  EXPECT_EQ(sql.status, 200) << sql.body;
  HttpResponse write = post("/api/sql", {{"sql", "UPDATE plant SET city = 'x'"}});
  EXPECT_EQ(write.status, 403) << write.body;
  HttpResponse slow = post("/api/sql", {{"sql", "SELECT count(*) FROM generate_series(1, 1000000000)"}});
  EXPECT_TRUE(slow.status == 504 || slow.status == 403) << slow.status << " " << slow.body;
  for (const auto& path : {"/api/databases", "/api/status", "/api/schema", "/api/profile"}) {
    HttpResponse r = get(path);
    EXPECT_EQ(r.status, 200) << path << ": " << r.body.substr(0, 200);
    EXPECT_EQ(r.body.find(password), std::string::npos) << path << " shows the password";
    EXPECT_EQ(r.body.find("127.0.0.1:"), std::string::npos) << path << " shows the URL";
  }
  EXPECT_EQ(ask.body.find(password), std::string::npos);
}

}  // namespace
}  // namespace plainsql::server
