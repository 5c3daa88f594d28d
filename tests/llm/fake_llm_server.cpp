// The scripted OpenAI-compatible server (see fake_llm_server.h).
#include "llm/fake_llm_server.h"

#include <httplib.h>

#include <algorithm>

namespace plainsql::test {

FakeLlmServer::FakeLlmServer() : server_(std::make_unique<httplib::Server>()) {
  server_->Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
    Reply reply;
    {
      std::unique_lock lock(mu_);
      requests_.push_back(nlohmann::json::parse(req.body, nullptr, false));
      authorizations_.push_back(req.has_header("Authorization") ? req.get_header_value("Authorization") : "");
      if (!script_.empty()) {
        reply = script_[std::min(next_, script_.size() - 1)];
        ++next_;
      }
      // A delay ends early when the server stops, so that a test never waits for a reply nobody reads.
      if (reply.delay.count() > 0) stop_cv_.wait_for(lock, reply.delay, [this] { return stopping_; });
    }
    res.status = reply.status;
    for (const auto& [k, v] : reply.headers) res.set_header(k, v);
    if (reply.huge_bytes > 0) {
      // Streamed: the server never holds the whole body, so a test's memory shows only what the client keeps.
      size_t total = reply.huge_bytes;
      res.set_content_provider(total, "application/json",
                               [this, total](size_t offset, size_t, httplib::DataSink& sink) {
                                 static const std::string kPiece = [] {
                                   std::string p;
                                   while (p.size() < 65536) p += "The answer, at length, is that plants are many. ";
                                   return p;
                                 }();
                                 size_t n = std::min(kPiece.size(), total - offset);
                                 if (Stopping()) return false;
                                 sink.write(kPiece.data(), n);
                                 return true;
                               });
    } else if (reply.drip_bytes > 0) {
      auto body = std::make_shared<std::string>(reply.body);
      size_t piece = reply.drip_bytes;
      auto every = reply.drip_every;
      res.set_content_provider(body->size(), "application/json",
                               [this, body, piece, every](size_t offset, size_t, httplib::DataSink& sink) {
                                 {
                                   std::unique_lock lock(mu_);
                                   if (stop_cv_.wait_for(lock, every, [this] { return stopping_; })) return false;
                                 }
                                 sink.write(body->data() + offset, std::min(piece, body->size() - offset));
                                 return true;
                               });
    } else {
      res.set_content(reply.body, "application/json");
    }
  });
  // Embeddings: a 3-dimensional vector per input (its length, its count of spaces, 1), or the scripted reply when the
  // script's next reply has a body (a fault).
  server_->Post("/v1/embeddings", [this](const httplib::Request& req, httplib::Response& res) {
    auto body = nlohmann::json::parse(req.body, nullptr, false);
    {
      std::lock_guard lock(mu_);
      requests_.push_back(body);
      authorizations_.push_back(req.has_header("Authorization") ? req.get_header_value("Authorization") : "");
    }
    nlohmann::json out = {{"object", "list"}, {"data", nlohmann::json::array()}, {"usage", {{"prompt_tokens", 7}}}};
    if (body.is_object() && body.contains("input") && body["input"].is_array()) {
      for (size_t i = 0; i < body["input"].size(); ++i) {
        std::string text = body["input"][i].is_string() ? body["input"][i].get<std::string>() : "";
        double spaces = static_cast<double>(std::count(text.begin(), text.end(), ' '));
        out["data"].push_back(
            {{"object", "embedding"}, {"index", i}, {"embedding", {static_cast<double>(text.size()), spaces, 1.0}}});
      }
    }
    res.set_content(out.dump(), "application/json");
  });
  port_ = server_->bind_to_any_port("127.0.0.1");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  // The socket listens from bind_to_any_port on; connections made before the accept loop runs wait in its backlog.
  while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

FakeLlmServer::~FakeLlmServer() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

bool FakeLlmServer::Stopping() const {
  std::lock_guard lock(mu_);
  return stopping_;
}

FakeLlmServer::Reply FakeLlmServer::ReplyFromJson(const nlohmann::json& j) {
  Reply r;
  if (j.contains("body")) {
    r.body = j["body"].get<std::string>();
  } else if (j.contains("contents")) {
    r.body = Completion(j["contents"].get<std::vector<std::string>>());
  } else {
    r.body = Completion({j.value("content", "")});
  }
  r.status = j.value("status", 200);
  r.delay = std::chrono::milliseconds(j.value("delay_ms", 0));
  if (j.contains("headers")) r.headers = j["headers"].get<std::map<std::string, std::string>>();
  r.drip_bytes = j.value("drip_bytes", size_t{0});
  r.drip_every = std::chrono::milliseconds(j.value("drip_every_ms", 0));
  r.huge_bytes = j.value("huge_bytes", size_t{0});
  return r;
}

void FakeLlmServer::Script(std::vector<Reply> replies) {
  std::lock_guard lock(mu_);
  script_ = std::move(replies);
  next_ = 0;
}

std::string FakeLlmServer::url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

std::vector<nlohmann::json> FakeLlmServer::Requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

std::vector<std::string> FakeLlmServer::Authorizations() const {
  std::lock_guard lock(mu_);
  return authorizations_;
}

std::string FakeLlmServer::Completion(const std::vector<std::string>& contents, int prompt_tokens,
                                      int completion_tokens) {
  nlohmann::json j = {{"id", "chatcmpl-test"}, {"object", "chat.completion"}, {"choices", nlohmann::json::array()}};
  for (size_t i = 0; i < contents.size(); ++i) {
    j["choices"].push_back(
        {{"index", i}, {"message", {{"role", "assistant"}, {"content", contents[i]}}}, {"finish_reason", "stop"}});
  }
  j["usage"] = {{"prompt_tokens", prompt_tokens},
                {"completion_tokens", completion_tokens},
                {"total_tokens", prompt_tokens + completion_tokens}};
  return j.dump();
}

}  // namespace plainsql::test
