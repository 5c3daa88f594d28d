// A scripted OpenAI-compatible server for tests (cpp-httplib): POST /v1/chat/completions answers with the scripted
// replies in order (the last one repeats), each after an optional delay, and records what it received. Faults are
// scripted the same way: a status (429, 500, 401, ...), a body that is not JSON, a reply without choices, a delay
// past the client's timeout, a body sent a few bytes at a time (a trickling server), a huge body streamed without being
// held in memory. Replies can be read from JSON (ReplyFromJson), so that scenarios are data files.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace httplib {
class Server;
}

namespace plainsql::test {

class FakeLlmServer {
 public:
  struct Reply {
    int status = 200;
    std::string body;
    std::chrono::milliseconds delay{0};
    std::map<std::string, std::string> headers;
    /// When > 0, the body is sent `drip_bytes` at a time, one piece every `drip_every` (a trickling server).
    size_t drip_bytes = 0;
    std::chrono::milliseconds drip_every{0};
    /// When > 0, the body is this many bytes of prose streamed in pieces (`body` is ignored): a runaway reply.
    size_t huge_bytes = 0;
  };

  /// A reply from JSON: {"content": "..."} or {"contents": [...]} (a completion), or {"body": "..."} (sent as is),
  /// with optional "status", "delay_ms", "headers" {name: value}, "drip_bytes" and "drip_every_ms", "huge_bytes".
  static Reply ReplyFromJson(const nlohmann::json& j);

  FakeLlmServer();  // listens on 127.0.0.1, on a free port
  ~FakeLlmServer();
  FakeLlmServer(const FakeLlmServer&) = delete;
  FakeLlmServer& operator=(const FakeLlmServer&) = delete;

  void Script(std::vector<Reply> replies);
  std::string url() const;  // http://127.0.0.1:PORT/v1
  int port() const { return port_; }
  std::vector<nlohmann::json> Requests() const;     // the JSON bodies received, in order
  std::vector<std::string> Authorizations() const;  // their Authorization headers ("" when absent)

  /// A chat-completions body with one choice per content.
  static std::string Completion(const std::vector<std::string>& contents, int prompt_tokens = 10,
                                int completion_tokens = 5);
  static Reply Ok(const std::string& content) { return {200, Completion({content}), {}, {}}; }

 private:
  bool Stopping() const;

  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  mutable std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::vector<Reply> script_;
  size_t next_ = 0;
  std::vector<nlohmann::json> requests_;
  std::vector<std::string> authorizations_;
};

}  // namespace plainsql::test
