// The HTTP surface of `plainsql serve` without sockets: a request in, a response out. It checks what every request
// must pass (the token, the rate limit, the body's size and encoding, the method), routes to the Service, serves the
// web page's files, and writes every error as JSON {"error": {"code", "message"}} with a 4xx or 5xx status. The
// socket side (http.h) only moves bytes; tests and the fuzzer call Handle directly.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "server/service.h"

namespace plainsql::server {

struct HttpRequest {
  std::string method;                              // GET, POST, OPTIONS, ...
  std::string path;                                // without the query string
  std::multimap<std::string, std::string> params;  // the query string's, decoded
  std::map<std::string, std::string> headers;      // names in lower case
  std::string body;
  std::string remote;  // the client's address
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

struct RouterOptions {
  std::string token;                  // when set, every /api request needs "Authorization: Bearer TOKEN"
  std::string cors_origin;            // when set, this origin may call the API from a browser ("" : no CORS headers)
  size_t max_body = size_t{1} << 20;  // bytes of a request body
  double rate = 100;                  // requests per second per client address (a burst of twice that); 0: no limit
  bool limit_loopback = false;        // rate-limit loopback clients too (by default a local process is not limited)
};

/// A file of the web page, compiled into the program (web/ in the source tree).
struct Asset {
  std::string_view path;  // "/index.html", "/app.js", ...
  std::string_view content_type;
  std::string_view content;
};
/// Every asset, and one by path ("/" is "/index.html"); null when there is none.
const std::vector<Asset>& Assets();
const Asset* FindAsset(std::string_view path);

class Router {
 public:
  Router(Service& service, RouterOptions options);

  /// Answers any request but the streaming ask.
  HttpResponse Handle(const HttpRequest& request);

  /// POST /api/ask/stream: the request's checks as Handle's; when they pass (nullopt), `write` is given server-sent
  /// events ("stage" and "wait" while the question is answered, then "answer" or "error") and the ask runs in this
  /// call. When a check fails, the error response is returned and nothing is written.
  std::optional<HttpResponse> Precheck(const HttpRequest& request);
  bool IsStream(const HttpRequest& request) const;
  void Stream(const HttpRequest& request, const std::function<bool(std::string_view)>& write);

  /// Headers every response gets (security headers, and CORS when configured for this request's origin).
  void Decorate(const HttpRequest& request, HttpResponse& response) const;

 private:
  bool Allowed(const std::string& remote);
  HttpResponse Route(const HttpRequest& request);
  HttpResponse Api(const HttpRequest& request);

  Service& service_;
  RouterOptions options_;
  struct Bucket {
    double tokens = 0;
    std::chrono::steady_clock::time_point at;
  };
  std::mutex buckets_mu_;
  std::unordered_map<std::string, Bucket> buckets_;
};

/// {"error": {"code", "message"}} with `status`.
HttpResponse ErrorResponse(int status, std::string_view code, std::string_view message);
HttpResponse FromReply(const Reply& reply);

}  // namespace plainsql::server
