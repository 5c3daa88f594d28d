// OpenAI-compatible chat completions over libcurl (see client.h).
#include "llm/client.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "common/interrupt.h"
#include "common/strings.h"

namespace plainsql::llm {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// The reply body, refused as it arrives once it passes the cap (returning less than given stops the transfer).
struct BodySink {
  std::string body;
  int64_t cap = 0;
  bool over = false;
};

size_t OnBody(char* data, size_t size, size_t n, void* out) {
  auto* sink = static_cast<BodySink*>(out);
  if (static_cast<int64_t>(sink->body.size() + size * n) > sink->cap) {
    sink->over = true;
    return 0;
  }
  sink->body.append(data, size * n);
  return size * n;
}

// Tells the caller, about once a second, how long the request has been waiting.
struct WaitReport {
  Clock::time_point start;
  const std::function<void(double)>* on_wait = nullptr;
  double last = 0;  // seconds at the last report
};

int OnProgress(void* p, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* r = static_cast<WaitReport*>(p);
  double seconds = std::chrono::duration<double>(Clock::now() - r->start).count();
  if (r->on_wait && *r->on_wait && seconds - r->last >= 1.0) {
    r->last = seconds;
    (*r->on_wait)(seconds);
  }
  return 0;
}

// curl_easy_perform with the host's interrupt checked every 50 ms (the easy interface calls back about once a second
// while a server is silent, too slowly for a query cancel). Interrupted: CURLE_ABORTED_BY_CALLBACK.
CURLcode Perform(CURL* easy) {
  CURLM* multi = curl_multi_init();
  if (multi == nullptr) return CURLE_OUT_OF_MEMORY;
  curl_multi_add_handle(multi, easy);
  CURLcode result = CURLE_OK;
  bool finished = false;
  for (int running = 1; running > 0;) {
    if (curl_multi_perform(multi, &running) != CURLM_OK) {
      result = CURLE_FAILED_INIT;
      break;
    }
    if (running == 0) {
      finished = true;
      break;
    }
    if (Interrupted()) {
      result = CURLE_ABORTED_BY_CALLBACK;
      break;
    }
    curl_multi_poll(multi, nullptr, 0, 50, nullptr);
  }
  if (finished) {
    int left = 0;
    while (CURLMsg* m = curl_multi_info_read(multi, &left)) {
      if (m->msg == CURLMSG_DONE) result = m->data.result;
    }
  }
  curl_multi_remove_handle(multi, easy);
  curl_multi_cleanup(multi);
  return result;
}

// Sleeps `wait`, waking early when the host interrupts.
void SleepInterruptibly(std::chrono::milliseconds wait) {
  auto until = Clock::now() + wait;
  while (!Interrupted() && Clock::now() < until) {
    std::this_thread::sleep_for(
        std::min<std::chrono::nanoseconds>(until - Clock::now(), std::chrono::milliseconds(50)));
  }
}

// Keeps the Retry-After header (seconds) of a 429 or 503.
size_t OnHeader(char* data, size_t size, size_t n, void* out) {
  std::string_view line(data, size * n);
  constexpr std::string_view kName = "retry-after:";
  if (line.size() > kName.size() && EqualsIgnoreCase(line.substr(0, kName.size()), kName)) {
    *static_cast<std::string*>(out) = std::string(Trim(line.substr(kName.size())));
  }
  return size * n;
}

struct CurlGuard {
  CURL* curl = curl_easy_init();
  curl_slist* headers = nullptr;
  ~CurlGuard() {
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
  }
};

struct Attempt {
  CURLcode code = CURLE_OK;
  long status = 0;
  BodySink sink;
  std::string retry_after;
  std::string curl_error;
};

// The server's own words for an error, when its body is JSON with error.message (OpenAI's shape) or a string.
std::string ServerMessage(const std::string& body) {
  auto j = json::parse(body, nullptr, false);
  std::string msg;
  if (!j.is_discarded() && j.is_object() && j.contains("error")) {
    const json& e = j["error"];
    if (e.is_string()) msg = e.get<std::string>();
    if (e.is_object() && e.contains("message") && e["message"].is_string()) msg = e["message"].get<std::string>();
  }
  if (msg.empty()) msg = body;
  msg = std::string(Trim(msg));
  if (msg.size() > 300) msg = msg.substr(0, 300) + "...";
  return msg;
}

}  // namespace

Config ConfigFromEnvironment(Config base) {
  auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
  };
  if (std::string url = env("PLAINSQL_LLM_URL"); !url.empty()) base.base_url = url;
  if (std::string model = env("PLAINSQL_LLM_MODEL"); !model.empty()) base.model = model;
  if (std::string key = env("PLAINSQL_LLM_API_KEY"); !key.empty()) {
    base.api_key = key;
  } else if (std::string openai = env("OPENAI_API_KEY"); !openai.empty() && base.api_key.empty()) {
    base.api_key = openai;
  }
  return base;
}

Result<Client> Client::Create(Config config) {
  while (!config.base_url.empty() && config.base_url.back() == '/') config.base_url.pop_back();
  if (!config.base_url.starts_with("http://") && !config.base_url.starts_with("https://")) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("the LLM URL must start with http:// or https:// (an OpenAI-compatible base URL such "
                                 "as http://localhost:11434/v1), not '{}'",
                                 config.base_url));
  }
  if (config.model.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, "no LLM model given (--model, or PLAINSQL_LLM_MODEL)");
  }
  if (config.max_retries < 0 || config.timeout.count() <= 0 || config.max_concurrency < 0) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "the LLM timeout must be positive, and the retries and the concurrency 0 or more");
  }
  GlobalInit();
  return Client(std::move(config));
}

namespace {

// Requests in flight per server (base URL), across every client of the process: `eval run --workers` and the
// pipeline's parallel work share one limit per server.
class Limiter {
 public:
  static Limiter& For(const std::string& base_url) {
    static std::mutex mu;
    static std::map<std::string, std::unique_ptr<Limiter>> all;
    std::lock_guard lock(mu);
    auto& l = all[base_url];
    if (!l) l = std::make_unique<Limiter>();
    return *l;
  }
  void Acquire(int limit) {
    if (limit <= 0) return;
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return in_flight_ < limit; });
    ++in_flight_;
  }
  void Release(int limit) {
    if (limit <= 0) return;
    {
      std::lock_guard lock(mu_);
      --in_flight_;
    }
    cv_.notify_one();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int in_flight_ = 0;
};

}  // namespace

Result<nlohmann::json> Client::Post(const std::string& path, const std::string& payload, double* elapsed_ms,
                                    int* attempts, const PostOptions& options) const {
  const std::string url = config_.base_url + path;
  // Whatever a server echoes back, the key never leaves this function.
  auto redact = [&](const std::string& s) {
    return config_.api_key.empty() ? s : ReplaceAll(s, config_.api_key, "***");
  };
  auto start = Clock::now();
  auto done = [&] {
    if (elapsed_ms) *elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  };
  Limiter& limiter = Limiter::For(config_.base_url);
  std::string last_problem;
  WaitReport report{start, options.on_wait, 0};
  auto past_deadline = [&] {
    std::string seconds = fmt::format("{:.0f}", std::chrono::duration<double>(Clock::now() - start).count());
    return MakeError(ErrorCode::kTimeout,
                     fmt::format("the LLM at {} gave no usable reply before the deadline ({} s of waiting{})",
                                 config_.base_url, seconds, last_problem.empty() ? "" : "; last: " + last_problem));
  };
  for (int attempt = 1; attempt <= config_.max_retries + 1; ++attempt) {
    if (attempts) *attempts = attempt;
    // This attempt's time: the configured timeout, cut to what is left of the caller's deadline.
    auto now = Clock::now();
    if (now >= options.deadline) return past_deadline();
    std::chrono::milliseconds attempt_timeout = config_.timeout;
    bool cut = false;
    if (options.deadline != Clock::time_point::max()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(options.deadline - now);
      if (left < attempt_timeout) {
        attempt_timeout = std::max(left, std::chrono::milliseconds(1));
        cut = true;
      }
    }
    CurlGuard g;
    if (!g.curl) return MakeError(ErrorCode::kInternal, "cannot create an HTTP handle");
    Attempt a;
    char error_buffer[CURL_ERROR_SIZE] = {0};
    g.headers = curl_slist_append(g.headers, "Content-Type: application/json");
    g.headers = curl_slist_append(g.headers, "Accept: application/json");
    std::string auth;
    if (!config_.api_key.empty()) {
      auth = "Authorization: Bearer " + config_.api_key;
      g.headers = curl_slist_append(g.headers, auth.c_str());
    }
    curl_easy_setopt(g.curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(g.curl, CURLOPT_HTTPHEADER, g.headers);
    curl_easy_setopt(g.curl, CURLOPT_POSTFIELDS, payload.c_str());
    curl_easy_setopt(g.curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(payload.size()));
    curl_easy_setopt(g.curl, CURLOPT_WRITEFUNCTION, &OnBody);
    a.sink.cap = std::max<int64_t>(config_.max_reply_bytes, 1);
    curl_easy_setopt(g.curl, CURLOPT_WRITEDATA, &a.sink);
    curl_easy_setopt(g.curl, CURLOPT_HEADERFUNCTION, &OnHeader);
    curl_easy_setopt(g.curl, CURLOPT_HEADERDATA, &a.retry_after);
    curl_easy_setopt(g.curl, CURLOPT_TIMEOUT_MS, static_cast<long>(attempt_timeout.count()));
    curl_easy_setopt(g.curl, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(std::min(config_.connect_timeout, attempt_timeout).count()));
    // A server that sends less than a byte a second for low_speed_time (or for what is left of the deadline) is
    // abandoned; libcurl counts in whole seconds.
    long low_speed_s = static_cast<long>(std::max<int64_t>(
        1, std::chrono::duration_cast<std::chrono::seconds>(std::min(config_.low_speed_time, attempt_timeout) +
                                                            std::chrono::milliseconds(999))
               .count()));
    curl_easy_setopt(g.curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(g.curl, CURLOPT_LOW_SPEED_TIME, low_speed_s);
    curl_easy_setopt(g.curl, CURLOPT_XFERINFOFUNCTION, &OnProgress);
    curl_easy_setopt(g.curl, CURLOPT_XFERINFODATA, &report);
    curl_easy_setopt(g.curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(g.curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(g.curl, CURLOPT_ERRORBUFFER, error_buffer);
    curl_easy_setopt(g.curl, CURLOPT_USERAGENT, "plainsql");
    limiter.Acquire(config_.max_concurrency);
    a.code = Perform(g.curl);
    limiter.Release(config_.max_concurrency);
    curl_easy_getinfo(g.curl, CURLINFO_RESPONSE_CODE, &a.status);
    // libcurl's generic text is stable; its detail buffer adds timings that change from run to run.
    a.curl_error = curl_easy_strerror(a.code);
    if (a.code == CURLE_COULDNT_RESOLVE_HOST && error_buffer[0]) a.curl_error = error_buffer;

    bool retry = false;
    if (a.code == CURLE_ABORTED_BY_CALLBACK) {
      return MakeError(ErrorCode::kTimeout, fmt::format("stopped waiting for the LLM at {}: interrupted (a cancel or a "
                                                        "statement timeout)",
                                                        config_.base_url));
    }
    if (a.sink.over) {
      return MakeError(ErrorCode::kResourceLimit,
                       fmt::format("the LLM at {} sent a reply larger than {} bytes; refused (max_reply_bytes in the "
                                   "[llm] section of plainsql.toml raises the cap)",
                                   config_.base_url, config_.max_reply_bytes));
    }
    if (a.code == CURLE_OPERATION_TIMEDOUT) {
      // Waiting again would double the wait the user configured.
      if (cut) return past_deadline();
      if (Clock::now() - now < attempt_timeout) {  // the low-speed limit, not the total timeout, stopped it
        return MakeError(ErrorCode::kTimeout,
                         fmt::format("the LLM at {} sent nothing for {} s", config_.base_url, low_speed_s));
      }
      return MakeError(ErrorCode::kTimeout, fmt::format("the LLM at {} did not answer within {} ms", config_.base_url,
                                                        config_.timeout.count()));
    }
    if (a.code != CURLE_OK) {
      last_problem = fmt::format("cannot reach the LLM at {}: {}", config_.base_url, redact(a.curl_error));
      retry = a.code == CURLE_COULDNT_CONNECT || a.code == CURLE_COULDNT_RESOLVE_HOST || a.code == CURLE_RECV_ERROR ||
              a.code == CURLE_SEND_ERROR || a.code == CURLE_GOT_NOTHING || a.code == CURLE_PARTIAL_FILE;
      if (!retry) return MakeError(ErrorCode::kConnection, last_problem);
    } else if (a.status == 401 || a.status == 403) {
      return MakeError(ErrorCode::kConnection,
                       fmt::format("the LLM at {} refused the request (HTTP {}: {}); check the API key in "
                                   "PLAINSQL_LLM_API_KEY or OPENAI_API_KEY",
                                   config_.base_url, a.status, redact(ServerMessage(a.sink.body))));
    } else if (a.status == 429 || a.status >= 500) {
      last_problem = fmt::format("the LLM at {} answered HTTP {}: {}", config_.base_url, a.status,
                                 redact(ServerMessage(a.sink.body)));
      retry = true;
    } else if (a.status != 200) {
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("the LLM at {} rejected the request (HTTP {}): {}", config_.base_url, a.status,
                                   redact(ServerMessage(a.sink.body))));
    } else {
      auto j = json::parse(a.sink.body, nullptr, false);
      if (j.is_discarded() || !j.is_object()) {
        return MakeError(ErrorCode::kFormat, fmt::format("the LLM at {} sent a reply that is not JSON: {}",
                                                         config_.base_url, redact(ServerMessage(a.sink.body))));
      }
      done();
      return j;
    }
    if (attempt <= config_.max_retries) {
      std::chrono::milliseconds wait = config_.backoff * (int64_t{1} << std::min(attempt - 1, 20));
      if (!a.retry_after.empty() &&
          std::all_of(a.retry_after.begin(), a.retry_after.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        wait = std::chrono::milliseconds(std::min<int64_t>(std::stoll(a.retry_after.substr(0, 6)), 30) * 1000);
      }
      wait = std::min(wait, std::chrono::milliseconds(30'000));
      // A retry that could not start before the deadline is not waited for.
      if (Clock::now() + wait >= options.deadline) return past_deadline();
      SleepInterruptibly(wait);
      if (Interrupted()) return MakeError(ErrorCode::kTimeout, "stopped before retrying the LLM: interrupted");
    }
  }
  return MakeError(ErrorCode::kConnection, fmt::format("{} (gave up after {} attempt{})", last_problem,
                                                       config_.max_retries + 1, config_.max_retries == 0 ? "" : "s"));
}

namespace {

void ReadUsage(const json& j, int64_t* prompt, int64_t* completion) {
  if (!j.contains("usage") || !j["usage"].is_object()) return;
  const json& u = j["usage"];
  if (prompt && u.contains("prompt_tokens") && u["prompt_tokens"].is_number_integer()) {
    *prompt = u["prompt_tokens"].get<int64_t>();
  }
  if (completion && u.contains("completion_tokens") && u["completion_tokens"].is_number_integer()) {
    *completion = u["completion_tokens"].get<int64_t>();
  }
}

}  // namespace

Result<ChatReply> Client::Chat(const ChatRequest& request) const {
  json body = {{"model", config_.model}, {"messages", json::array()}, {"temperature", request.temperature}};
  for (const auto& m : request.messages) body["messages"].push_back({{"role", m.role}, {"content", m.content}});
  if (request.n > 1) body["n"] = request.n;
  if (request.max_tokens > 0) body["max_tokens"] = request.max_tokens;
  ChatReply reply;
  PostOptions options;
  options.deadline = request.deadline;
  options.on_wait = &request.on_wait;
  auto j = Post("/chat/completions", body.dump(), &reply.elapsed_ms, &reply.attempts, options);
  if (!j) return j.error();
  if (!j->contains("choices") || !(*j)["choices"].is_array() || (*j)["choices"].empty()) {
    return MakeError(ErrorCode::kFormat, fmt::format("the LLM at {} sent a reply without choices", config_.base_url));
  }
  for (const auto& c : (*j)["choices"]) {
    const json* content = nullptr;
    if (c.is_object() && c.contains("message") && c["message"].is_object() && c["message"].contains("content")) {
      content = &c["message"]["content"];
    }
    reply.choices.push_back(content && content->is_string() ? content->get<std::string>() : std::string());
  }
  ReadUsage(*j, &reply.prompt_tokens, &reply.completion_tokens);
  return reply;
}

Result<EmbeddingReply> Client::Embed(const std::vector<std::string>& texts) const {
  EmbeddingReply reply;
  if (texts.empty()) return reply;
  json body = {{"model", config_.model}, {"input", texts}};
  auto j = Post("/embeddings", body.dump(), &reply.elapsed_ms, nullptr, PostOptions{});
  if (!j) return j.error();
  if (!j->contains("data") || !(*j)["data"].is_array() || (*j)["data"].size() != texts.size()) {
    return MakeError(
        ErrorCode::kFormat,
        fmt::format("the LLM at {} sent {} embeddings for {} texts", config_.base_url,
                    j->contains("data") && (*j)["data"].is_array() ? (*j)["data"].size() : 0, texts.size()));
  }
  reply.vectors.resize(texts.size());
  for (const auto& d : (*j)["data"]) {
    size_t index = d.is_object() && d.contains("index") && d["index"].is_number_unsigned() ? d["index"].get<size_t>()
                                                                                           : texts.size();
    if (index >= texts.size() || !d.contains("embedding") || !d["embedding"].is_array()) {
      return MakeError(ErrorCode::kFormat, fmt::format("the LLM at {} sent a malformed embedding", config_.base_url));
    }
    for (const auto& x : d["embedding"]) {
      if (!x.is_number()) {
        return MakeError(ErrorCode::kFormat, fmt::format("the LLM at {} sent a malformed embedding", config_.base_url));
      }
      reply.vectors[index].push_back(x.get<float>());
    }
  }
  ReadUsage(*j, &reply.prompt_tokens, nullptr);
  return reply;
}

}  // namespace plainsql::llm
