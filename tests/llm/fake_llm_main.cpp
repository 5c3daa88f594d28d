// fake_llm_server REPLIES.jsonl URL_FILE: the scripted OpenAI-compatible server as a program, for end-to-end tests of
// the CLI. Each line of REPLIES.jsonl is one reply, in order (the last repeats): {"content": "..."} or
// {"contents": ["...", ...]} for several choices, or {"body": "..."} sent as is, with optional "status", "delay_ms",
// "headers", "drip_bytes" / "drip_every_ms" (a trickling reply) and "huge_bytes" (a runaway reply; see
// FakeLlmServer::ReplyFromJson). Writes its base URL to
// URL_FILE once it listens, and serves until it gets SIGTERM or SIGINT.
#include <csignal>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include "llm/fake_llm_server.h"

namespace {
volatile std::sig_atomic_t g_stop = 0;
extern "C" void OnSignal(int) { g_stop = 1; }
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fake_llm_server REPLIES.jsonl URL_FILE\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "fake_llm_server: cannot read %s\n", argv[1]);
    return 2;
  }
  std::vector<plainsql::test::FakeLlmServer::Reply> replies;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      std::fprintf(stderr, "fake_llm_server: not JSON: %s\n", line.c_str());
      return 2;
    }
    replies.push_back(plainsql::test::FakeLlmServer::ReplyFromJson(j));
  }
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGINT, OnSignal);
  plainsql::test::FakeLlmServer server;
  server.Script(replies);
  {
    std::ofstream out(argv[2]);
    out << server.url() << "\n";
  }
  while (!g_stop) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::fprintf(stderr, "fake_llm_server: %zu requests\n", server.Requests().size());
  return 0;
}
