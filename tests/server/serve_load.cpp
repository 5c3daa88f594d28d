// serve_load: a load client for `plainsql serve` (issue #23). CLIENTS threads, each with its own keep-alive
// connection, POST /api/ask for SECONDS with the questions of a file (one a line, taken in turn, each client starting
// at a different one) and "generator": "builtin"; MODEL_CLIENTS more threads ask the model meanwhile ("generator":
// "llm"), to show whether a slow or hung model holds up the built-in asks. Prints one JSON object: requests, errors
// (a transport failure or any status but 200), requests per second and latency percentiles of the built-in asks, and
// what the model clients got.
//   serve_load HOST PORT QUESTIONS_FILE CLIENTS SECONDS [MODEL_CLIENTS]
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double Percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  size_t i = static_cast<size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

struct ClientResult {
  std::vector<double> ms;
  size_t errors = 0;
  std::map<std::string, size_t> statuses;
};

ClientResult RunClient(const std::string& host, int port, const std::vector<std::string>& questions, size_t first,
                       const std::string& generator, Clock::time_point until) {
  ClientResult out;
  httplib::Client c(host, port);
  c.set_keep_alive(true);
  c.set_tcp_nodelay(true);
  // A model client gives up when the run ends (its ask may wait on the model far longer); a built-in one waits.
  auto left = std::chrono::duration_cast<std::chrono::seconds>(until - Clock::now()).count() + 1;
  c.set_read_timeout(generator == "llm" ? left : 120, 0);
  for (size_t i = first; Clock::now() < until; ++i) {
    nlohmann::json body = {{"question", questions[i % questions.size()]}, {"generator", generator}};
    auto t0 = Clock::now();
    auto res = c.Post("/api/ask", body.dump(), "application/json");
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    std::string status = res ? std::to_string(res->status) : "transport: " + httplib::to_string(res.error());
    ++out.statuses[status];
    if (!res || res->status != 200) {
      ++out.errors;
      if (!res) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    out.ms.push_back(ms);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: serve_load HOST PORT QUESTIONS_FILE CLIENTS SECONDS [MODEL_CLIENTS]\n");
    return 2;
  }
  const std::string host = argv[1];
  const int port = std::atoi(argv[2]);
  std::vector<std::string> questions;
  std::ifstream in(argv[3]);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) questions.push_back(line);
  }
  const int clients = std::atoi(argv[4]);
  const double seconds = std::atof(argv[5]);
  const int model_clients = argc == 7 ? std::atoi(argv[6]) : 0;
  if (questions.empty() || port <= 0 || clients <= 0 || seconds <= 0 || model_clients < 0) {
    std::fprintf(stderr, "serve_load: no questions, or a bad port, client count or duration\n");
    return 2;
  }
  auto until = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  std::vector<ClientResult> results(static_cast<size_t>(clients)), model(static_cast<size_t>(model_clients));
  std::vector<std::thread> threads;
  for (int m = 0; m < model_clients; ++m) {
    threads.emplace_back([&, m] {
      model[static_cast<size_t>(m)] = RunClient(host, port, questions, static_cast<size_t>(m), "llm", until);
    });
  }
  auto t0 = Clock::now();
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      results[static_cast<size_t>(c)] = RunClient(host, port, questions, static_cast<size_t>(c), "builtin", until);
    });
  }
  for (size_t t = static_cast<size_t>(model_clients); t < threads.size(); ++t) threads[t].join();
  double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  for (int m = 0; m < model_clients; ++m) threads[static_cast<size_t>(m)].join();
  std::vector<double> all;
  size_t errors = 0;
  nlohmann::ordered_json statuses = nlohmann::ordered_json::object();
  for (const auto& r : results) {
    all.insert(all.end(), r.ms.begin(), r.ms.end());
    errors += r.errors;
    for (const auto& [s, n] : r.statuses) statuses[s] = statuses.value(s, size_t{0}) + n;
  }
  std::sort(all.begin(), all.end());
  nlohmann::ordered_json out = {{"clients", clients},
                                {"seconds", elapsed},
                                {"requests", all.size()},
                                {"errors", errors},
                                {"statuses", statuses},
                                {"rps", static_cast<double>(all.size()) / elapsed},
                                {"p50_ms", Percentile(all, 0.50)},
                                {"p90_ms", Percentile(all, 0.90)},
                                {"p99_ms", Percentile(all, 0.99)},
                                {"max_ms", all.empty() ? 0 : all.back()}};
  if (model_clients > 0) {
    nlohmann::ordered_json ms = nlohmann::ordered_json::object();
    size_t n = 0;
    for (const auto& r : model) {
      n += r.ms.size();
      for (const auto& [s, k] : r.statuses) ms[s] = ms.value(s, size_t{0}) + k;
    }
    out["model_clients"] = {{"clients", model_clients}, {"requests", n}, {"statuses", ms}};
  }
  std::printf("%s\n", out.dump().c_str());
  return errors == 0 ? 0 : 1;
}
