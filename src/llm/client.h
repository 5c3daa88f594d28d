// An OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio) over libcurl:
// base URL, model and API key; a timeout per attempt; retries with exponential backoff on 429, 5xx and connection
// failures (Retry-After honoured, up to 30 s), all within a caller's deadline; a cap on a reply's size; token
// accounting. The API key is sent in the Authorization header and
// nowhere else: it never appears in an error message, a log line or an output.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace plainsql::llm {

struct Config {
  std::string base_url;  // the part before /chat/completions, e.g. http://localhost:11434/v1
  std::string model;
  std::string api_key;                                // "" for servers without authentication
  std::chrono::milliseconds timeout{120'000};         // one attempt, connection included
  std::chrono::milliseconds connect_timeout{10'000};  // establishing the connection
  int max_retries = 3;                                // further attempts after a 429, a 5xx or a connection failure
  std::chrono::milliseconds backoff{500};             // the first wait; doubled after each retry
  int max_concurrency = 4;  // requests in flight to this server from the whole process; 0 = no limit
  /// A reply body larger than this is refused (ErrorCode::kResourceLimit) as it arrives: a chat reply with SQL is a
  /// few kB, so 1 MiB leaves room for long reasoning and many choices while a runaway server cannot fill memory.
  int64_t max_reply_bytes = int64_t{1} << 20;
  /// A transfer that moves less than one byte a second for this long is abandoned (a hung or trickling server).
  std::chrono::milliseconds low_speed_time{30'000};
};

/// The configuration the environment gives: PLAINSQL_LLM_URL, PLAINSQL_LLM_MODEL, and the key from
/// PLAINSQL_LLM_API_KEY or else OPENAI_API_KEY. Fields the environment does not set are left as they are in `base`.
Config ConfigFromEnvironment(Config base = {});

struct Message {
  std::string role;  // "system", "user" or "assistant"
  std::string content;
};

struct ChatRequest {
  std::vector<Message> messages;
  int n = 1;               // completions wanted
  double temperature = 0;  // 0: as deterministic as the server allows
  int max_tokens = 0;      // 0: the server's default
  /// Every attempt, retry and backoff ends by then: the attempt's timeouts (total and low-speed) are cut to what is
  /// left, and no retry starts that could not finish. Passing it is ErrorCode::kTimeout.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  /// Called about once a second while waiting for the server, with the seconds waited so far (may be empty).
  std::function<void(double seconds)> on_wait;
};

struct ChatReply {
  std::vector<std::string> choices;  // the message content of each choice, in order
  int64_t prompt_tokens = 0;         // as the server reports them (0 when it does not)
  int64_t completion_tokens = 0;
  int attempts = 1;
  double elapsed_ms = 0;  // all attempts and waits
};

struct EmbeddingReply {
  std::vector<std::vector<float>> vectors;  // one per input text, in input order
  int64_t prompt_tokens = 0;
  double elapsed_ms = 0;
};

class Client {
 public:
  /// Checks the configuration: an http(s) URL and a model name are required.
  static Result<Client> Create(Config config);

  /// One chat completion. Errors: kConnection (unreachable, unauthorized, refused after every retry), kTimeout (no
  /// complete reply within the timeout or the request's deadline), kResourceLimit (a reply past max_reply_bytes),
  /// kFormat (a reply that is not chat-completions JSON, or has no choices),
  /// kInvalidArgument (the server rejects the request: unknown model, bad parameters).
  Result<ChatReply> Chat(const ChatRequest& request) const;

  /// Embeddings of `texts` (POST /embeddings), with the same retries and errors as Chat.
  Result<EmbeddingReply> Embed(const std::vector<std::string>& texts) const;

  const Config& GetConfig() const { return config_; }

 private:
  explicit Client(Config config) : config_(std::move(config)) {}
  // One POST with retries: the reply's JSON object, or the error.
  struct PostOptions {
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    const std::function<void(double)>* on_wait = nullptr;
  };
  Result<nlohmann::json> Post(const std::string& path, const std::string& payload, double* elapsed_ms, int* attempts,
                              const PostOptions& options) const;
  Config config_;
};

}  // namespace plainsql::llm
