// serve_fuzz: throws malformed and hostile requests at a running `plainsql serve` for SECONDS (issue #23), from
// THREADS threads, each with its own seeded generator: random methods and paths (the endpoints, mutated ones, long
// ones, encoded ones), bodies built from the endpoints' fields with values of every JSON type, huge strings, deep
// nesting, bytes that are not UTF-8, truncated and random JSON, odd headers (tokens, origins, lengths), and raw bytes
// that are not HTTP at all. Every HTTP answer must be a status the API documents (never 500), JSON on /api paths; at
// the end the server must still answer GET /api/databases. Prints one JSON line of counts; exits 1 on any failure.
//   serve_fuzz HOST PORT SECONDS THREADS SEED
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

const std::vector<std::string> kPaths = {
    "/api/ask",    "/api/ask/stream", "/api/sql",  "/api/link",   "/api/schema",        "/api/profile",
    "/api/rename", "/api/views",      "/api/runs", "/api/runs/x", "/api/runs/x/report", "/api/databases",
    "/api/status", "/openapi.json",   "/",         "/app.js"};
const std::vector<std::string> kFields = {"question",  "sql",      "conn",     "k",
                                          "generator", "evidence", "max_rows", "budget"};

struct Fuzzer {
  std::mt19937_64 rng;
  explicit Fuzzer(uint64_t seed) : rng(seed) {}

  size_t Below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); }
  bool Coin(double p = 0.5) { return std::bernoulli_distribution(p)(rng); }

  std::string Bytes(size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(Below(256));
    return s;
  }

  json Value(int depth = 0) {
    switch (Below(depth > 3 ? 7 : 9)) {
      case 0: return nullptr;
      case 1: return Coin();
      case 2: return static_cast<int64_t>(rng());
      case 3: return static_cast<int64_t>(Below(40)) - 5;
      case 4: return std::uniform_real_distribution<double>(-1e9, 1e9)(rng);
      case 5: return std::string(Below(2) ? Below(50) : Below(30000), static_cast<char>('a' + Below(26)));
      case 6: {
        static const std::vector<std::string> texts = {
            "How many plants are there?",
            "SELECT * FROM plant",
            "DELETE FROM plant",
            "plant",
            "N1",
            "builtin",
            "llm",
            "'; DROP TABLE plant; --",
            "SELECT load_extension('x')",
            "\u00e9\u4e2d\U0001F600",
            "../../etc/passwd",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n) SELECT count(*) FROM n"};
        return texts[Below(texts.size())];
      }
      case 7: {
        json a = json::array();
        for (size_t i = Below(4); i > 0; --i) a.push_back(Value(depth + 1));
        return a;
      }
      default: {
        json o = json::object();
        for (size_t i = Below(4); i > 0; --i) o[kFields[Below(kFields.size())]] = Value(depth + 1);
        return o;
      }
    }
  }

  std::string Body() {
    switch (Below(8)) {
      case 0: return "";
      case 1: return Bytes(Below(200));
      case 2: {  // deep nesting
        size_t n = Below(200000);
        return std::string(n, '[') + std::string(Below(2) ? n : 0, ']');
      }
      case 3: {  // truncated JSON
        std::string s = Value().dump();
        return s.substr(0, Below(s.size() + 1));
      }
      case 4: {  // a valid object with a byte that is not UTF-8 inside a string
        std::string s = json{{"question", "How many plants?"}}.dump();
        s.insert(s.size() - 3, 1, static_cast<char>(0x80 + Below(64)));
        return s;
      }
      default: {
        json o = json::object();
        for (size_t i = Below(5); i > 0; --i) o[kFields[Below(kFields.size())]] = Value();
        if (Coin(0.6)) o["question"] = Value();
        return o.dump();
      }
    }
  }

  std::string Path() {
    std::string p = kPaths[Below(kPaths.size())];
    switch (Below(6)) {
      case 0:
        return p + "?conn=" +
               (Coin()                     ? "plant"
                : Bytes(Below(10)).empty() ? "x"
                                           : "%ff%fe") +
               (Coin() ? "&level=N" + std::to_string(Below(5)) : "");
      case 1: return p + std::string(Below(3000), 'a');
      case 2: return "/" + std::string(Below(5), '.') + "/" + p;
      case 3: return p + "%00%2e%2e/x";
      default: return p;
    }
  }
};

// Raw bytes on a socket: not HTTP, or HTTP gone wrong. The server may answer or close; it must not go away.
void RawGarbage(Fuzzer& f, int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    static const std::vector<std::string> starts = {
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        "POST /api/ask HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n{",
        "POST /api/ask HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "GET /" + std::string(20000, 'a') + " HTTP/1.1\r\n\r\n",
        "BREW /pot HTTP/1.1\r\n\r\n",
        "GET / HTTP/9.9\r\n" + std::string(9000, 'h') + ": v\r\n\r\n",
        ""};
    std::string data = starts[f.Below(starts.size())] + f.Bytes(f.Below(300));
    (void)!write(fd, data.data(), data.size());
    char buf[4096];
    (void)!read(fd, buf, sizeof buf);
  }
  close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: serve_fuzz HOST PORT SECONDS THREADS SEED\n");
    return 2;
  }
  const std::string host = argv[1];
  const int port = std::atoi(argv[2]);
  const double seconds = std::atof(argv[3]);
  const int threads = std::atoi(argv[4]);
  const uint64_t seed = std::strtoull(argv[5], nullptr, 10);
  auto until = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  std::mutex mu;
  std::map<int, size_t> statuses;
  std::vector<std::string> failures;
  std::atomic<size_t> requests{0}, raw{0}, transport{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      Fuzzer f(seed * 1000 + static_cast<uint64_t>(t));
      httplib::Client c(host, port);
      c.set_read_timeout(30, 0);
      while (Clock::now() < until) {
        if (f.Coin(0.05)) {
          RawGarbage(f, port);
          ++raw;
          continue;
        }
        static const std::vector<std::string> methods = {"GET", "POST",   "POST",    "POST",
                                                         "PUT", "DELETE", "OPTIONS", "PATCH"};
        std::string method = methods[f.Below(methods.size())];
        std::string path = f.Path();
        httplib::Headers headers;
        if (f.Coin(0.2)) headers.emplace("Authorization", f.Coin() ? "Bearer " + f.Bytes(f.Below(40)) : "Basic x");
        if (f.Coin(0.2)) headers.emplace("Origin", f.Coin() ? "https://evil.example" : f.Bytes(f.Below(20)));
        std::string body = method == "GET" ? "" : f.Body();
        httplib::Request req;
        req.method = method;
        req.path = path;
        req.headers = headers;
        req.body = body;
        if (!body.empty()) req.set_header("Content-Type", f.Coin(0.9) ? "application/json" : "text/plain");
        auto res = c.send(req);
        ++requests;
        if (!res) {
          ++transport;  // the server may close a connection it will not read (an invalid request line, say)
          continue;
        }
        bool api = path.rfind("/api/", 0) == 0;
        std::string problem;
        if (res->status == 500 || res->status < 200 || res->status > 599) {
          problem = "status " + std::to_string(res->status);
        } else if (api && res->get_header_value("Content-Type") == "application/json" &&
                   json::parse(res->body, nullptr, false).is_discarded()) {
          problem = "a body that is not JSON";
        } else if (api && res->status >= 400 && res->get_header_value("Content-Type") != "application/json") {
          problem = "an error that is not JSON";
        }
        std::lock_guard lock(mu);
        ++statuses[res->status];
        if (!problem.empty() && failures.size() < 20) {
          failures.push_back(problem + " for " + method + " " + path.substr(0, 80) + " body " +
                             json(body.substr(0, 120)).dump(-1, ' ', false, json::error_handler_t::replace) + ": " +
                             res->body.substr(0, 200));
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  httplib::Client check(host, port);
  check.set_read_timeout(10, 0);
  auto alive = check.Get("/api/databases");
  if (!alive || alive->status != 200) failures.push_back("the server no longer answers GET /api/databases");
  nlohmann::ordered_json out = {{"seconds", seconds},
                                {"requests", requests.load()},
                                {"raw", raw.load()},
                                {"transport", transport.load()},
                                {"failures", failures.size()}};
  nlohmann::ordered_json by = nlohmann::ordered_json::object();
  for (const auto& [s, n] : statuses) by[std::to_string(s)] = n;
  out["statuses"] = by;
  std::printf("%s\n", out.dump().c_str());
  for (const auto& f : failures) std::fprintf(stderr, "FAIL: %s\n", f.c_str());
  return failures.empty() ? 0 : 1;
}
