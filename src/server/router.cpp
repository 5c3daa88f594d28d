// Routing, checks and errors of `plainsql serve` (see router.h).
#include "server/router.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/strings.h"
#include "common/version.h"
#include "server/settings.h"

namespace plainsql::server {

namespace {

using ojson = nlohmann::ordered_json;

// Compares in time that does not depend on where the strings differ (a token must not be guessable byte by byte); the
// length of a token is not worth hiding.
bool SameSecret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string Param(const HttpRequest& r, const std::string& key) {
  auto it = r.params.find(key);
  return it == r.params.end() ? std::string() : it->second;
}

std::string Header(const HttpRequest& r, const std::string& key) {
  auto it = r.headers.find(key);
  return it == r.headers.end() ? std::string() : it->second;
}

// How deep arrays and objects nest in a JSON text (strings skipped), read before parsing: no request needs more than a
// few levels, and a megabyte of "[" would otherwise become a million nested values in memory.
size_t NestingDepth(std::string_view text) {
  size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

constexpr size_t kMaxNesting = 32;

// The JSON body of a POST, or the error to answer with.
std::optional<nlohmann::json> JsonBody(const HttpRequest& r, HttpResponse& error) {
  if (r.body.empty()) {
    error = ErrorResponse(400, "invalid_argument", "the request has no body: send a JSON object");
    return std::nullopt;
  }
  if (NestingDepth(r.body) > kMaxNesting) {
    error = ErrorResponse(400, "invalid_json", fmt::format("the body nests deeper than {} levels", kMaxNesting));
    return std::nullopt;
  }
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  if (j.is_discarded()) {
    error = ErrorResponse(400, "invalid_json", "the body is not valid JSON");
    return std::nullopt;
  }
  if (!j.is_object()) {
    error = ErrorResponse(400, "invalid_argument", "the body must be a JSON object");
    return std::nullopt;
  }
  return j;
}

// A server-sent event whose data is one line of JSON.
std::string Event(std::string_view name, std::string_view json_text) {
  return fmt::format("event: {}\ndata: {}\n\n", name, json_text);
}

}  // namespace

HttpResponse ErrorResponse(int status, std::string_view code, std::string_view message) {
  return FromReply(Reply::Failure(status, code, message));
}

HttpResponse FromReply(const Reply& reply) {
  HttpResponse r;
  r.status = reply.status;
  if (!reply.text.empty()) r.content_type = reply.content_type;
  r.body = reply.Text();
  return r;
}

Router::Router(Service& service, RouterOptions options) : service_(service), options_(std::move(options)) {}

bool Router::Allowed(const std::string& remote) {
  if (options_.rate <= 0 || (!options_.limit_loopback && IsLoopback(remote))) return true;
  auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(buckets_mu_);
  // Forget clients that have been quiet long enough to have a full bucket again.
  if (buckets_.size() > 10'000) {
    std::erase_if(buckets_, [&](const auto& kv) { return now - kv.second.at > std::chrono::seconds(10); });
  }
  auto [it, fresh] = buckets_.try_emplace(remote, Bucket{2 * options_.rate, now});
  Bucket& b = it->second;
  if (!fresh) {
    double seconds = std::chrono::duration<double>(now - b.at).count();
    b.tokens = std::min(2 * options_.rate, b.tokens + seconds * options_.rate);
    b.at = now;
  }
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

std::optional<HttpResponse> Router::Precheck(const HttpRequest& r) {
  const bool api = r.path.rfind("/api/", 0) == 0 || r.path == "/openapi.json";
  if (r.method == "OPTIONS") return std::nullopt;  // a CORS preflight: answered by Route
  if (api && !options_.token.empty()) {
    std::string auth = Header(r, "authorization");
    const std::string bearer = "Bearer ";
    if (auth.rfind(bearer, 0) != 0 || !SameSecret(auth.substr(bearer.size()), options_.token)) {
      HttpResponse e = ErrorResponse(401, "unauthorized", "this server needs a token: Authorization: Bearer TOKEN");
      e.headers.emplace_back("WWW-Authenticate", "Bearer");
      return e;
    }
  }
  if (api && !Allowed(r.remote)) {
    HttpResponse e = ErrorResponse(429, "rate_limited",
                                   fmt::format("more than {:g} requests a second from {}", options_.rate, r.remote));
    e.headers.emplace_back("Retry-After", "1");
    return e;
  }
  if (r.body.size() > options_.max_body) {
    return ErrorResponse(413, "too_large",
                         fmt::format("the body is {} bytes; at most {} are taken", r.body.size(), options_.max_body));
  }
  if (!IsUtf8(r.body) || !IsUtf8(r.path)) {
    return ErrorResponse(400, "invalid_encoding", "the request is not UTF-8");
  }
  for (const auto& [k, v] : r.params) {
    if (!IsUtf8(k) || !IsUtf8(v)) return ErrorResponse(400, "invalid_encoding", "a query parameter is not UTF-8");
  }
  return std::nullopt;
}

bool Router::IsStream(const HttpRequest& r) const { return r.method == "POST" && r.path == "/api/ask/stream"; }

HttpResponse Router::Handle(const HttpRequest& r) {
  if (auto failed = Precheck(r)) {
    Decorate(r, *failed);
    return *failed;
  }
  HttpResponse out;
  try {
    out = Route(r);
  } catch (const std::exception& e) {
    // A bug must not take the server down; it is answered as one.
    out = ErrorResponse(500, "internal", fmt::format("internal error: {}", e.what()));
  }
  Decorate(r, out);
  return out;
}

void Router::Stream(const HttpRequest& r, const std::function<bool(std::string_view)>& write) {
  HttpResponse error;
  auto body = JsonBody(r, error);
  if (!body) {
    write(Event("error", error.body));
    return;
  }
  bool open = true;
  Reply reply = service_.Ask(*body, [&](const ojson& event) {
    if (open) open = write(Event(event.value("event", "stage"), JsonText(event)));
  });
  if (open) write(Event(reply.ok() ? "answer" : "error", reply.Text()));
}

void Router::Decorate(const HttpRequest& r, HttpResponse& response) const {
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  response.headers.emplace_back("Referrer-Policy", "no-referrer");
  if (response.content_type.rfind("text/html", 0) == 0) {
    // The page loads nothing from elsewhere, and no other site may frame it.
    response.headers.emplace_back("Content-Security-Policy",
                                  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                  "frame-ancestors 'none'");
  }
  if (r.path.rfind("/api/", 0) == 0) response.headers.emplace_back("Cache-Control", "no-store");
  if (!options_.cors_origin.empty() && Header(r, "origin") == options_.cors_origin) {
    response.headers.emplace_back("Access-Control-Allow-Origin", options_.cors_origin);
    response.headers.emplace_back("Vary", "Origin");
  }
}

HttpResponse Router::Route(const HttpRequest& r) {
  if (r.method == "OPTIONS") {
    if (options_.cors_origin.empty() || Header(r, "origin") != options_.cors_origin) {
      return ErrorResponse(403, "cors", "cross-origin requests are not allowed (plainsql serve --cors ORIGIN)");
    }
    HttpResponse ok;
    ok.status = 204;
    ok.content_type.clear();
    ok.headers.emplace_back("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
    ok.headers.emplace_back("Access-Control-Allow-Headers", "Content-Type, Authorization");
    ok.headers.emplace_back("Access-Control-Max-Age", "600");
    return ok;
  }
  if (r.path.rfind("/api/", 0) == 0) return Api(r);
  if (r.method != "GET" && r.method != "HEAD") {
    return ErrorResponse(405, "method_not_allowed", fmt::format("{} is not allowed on {}", r.method, r.path));
  }
  const Asset* asset = FindAsset(r.path);
  if (asset == nullptr) return ErrorResponse(404, "not_found", fmt::format("no page at {}", r.path));
  HttpResponse page;
  page.content_type = std::string(asset->content_type);
  page.body = std::string(asset->content);
  return page;
}

HttpResponse Router::Api(const HttpRequest& r) {
  const std::string& p = r.path;
  const std::string conn = Param(r, "conn");
  auto is = [&](std::string_view method, std::string_view path) { return r.method == method && p == path; };
  HttpResponse error;
  if (is("POST", "/api/ask") || is("POST", "/api/sql") || is("POST", "/api/link")) {
    auto body = JsonBody(r, error);
    if (!body) return error;
    if (p == "/api/ask") return FromReply(service_.Ask(*body, {}));
    if (p == "/api/sql") return FromReply(service_.Sql(*body));
    return FromReply(service_.Link(*body));
  }
  if (is("GET", "/api/databases")) {
    return FromReply(Reply::Json({{"databases", service_.Databases()}, {"version", kVersion}}));
  }
  if (is("GET", "/api/status")) return FromReply(Reply::Json(service_.Stats()));
  if (is("GET", "/api/schema")) return FromReply(service_.Schema(conn));
  if (is("GET", "/api/profile")) return FromReply(service_.Profile(conn));
  if (is("GET", "/api/rename")) return FromReply(service_.Rename(conn));
  if (is("GET", "/api/views")) {
    std::string extended = Param(r, "extended");
    return FromReply(service_.Views(conn, Param(r, "level"), extended == "1" || extended == "true"));
  }
  if (is("GET", "/api/runs")) return FromReply(service_.Runs());
  if (r.method == "GET" && p.rfind("/api/runs/", 0) == 0) {
    std::string rest = p.substr(std::string_view("/api/runs/").size());
    const std::string suffix = "/report";
    if (rest.size() > suffix.size() && rest.compare(rest.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return FromReply(service_.RunReport(rest.substr(0, rest.size() - suffix.size())));
    }
    if (!rest.empty() && rest.find('/') == std::string::npos) return FromReply(service_.Run(rest));
  }
  static const std::vector<std::string_view> kPaths = {
      "/api/ask",    "/api/ask/stream", "/api/sql",    "/api/link",  "/api/databases", "/api/status",
      "/api/schema", "/api/profile",    "/api/rename", "/api/views", "/api/runs"};
  for (std::string_view known : kPaths) {
    if (p == known) {
      return ErrorResponse(405, "method_not_allowed", fmt::format("{} is not allowed on {}", r.method, p));
    }
  }
  return ErrorResponse(404, "not_found", fmt::format("no endpoint {} (the API is described at /openapi.json)", p));
}

const Asset* FindAsset(std::string_view path) {
  if (path == "/") path = "/index.html";
  for (const Asset& a : Assets()) {
    if (a.path == path) return &a;
  }
  return nullptr;
}

}  // namespace plainsql::server
