// `plainsql serve`'s sockets, with cpp-httplib (see http.h).
#include "server/http.h"

#include <fmt/format.h>
#include <httplib.h>
#include <sys/socket.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <ctime>
#include <mutex>

namespace plainsql::server {

namespace {

HttpRequest FromHttplib(const httplib::Request& req) {
  HttpRequest r;
  r.method = req.method;
  r.path = req.path;
  for (const auto& [k, v] : req.params) r.params.emplace(k, v);
  for (const auto& [k, v] : req.headers) {
    std::string name = k;
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers[name] = v;
  }
  r.body = req.body;
  r.remote = req.remote_addr;
  return r;
}

void ToHttplib(const HttpResponse& from, httplib::Response& res) {
  res.status = from.status;
  for (const auto& [k, v] : from.headers) res.set_header(k, v);
  if (!from.content_type.empty()) res.set_content(from.body, from.content_type);
}

}  // namespace

struct HttpServer::Impl {
  httplib::Server svr;
  std::atomic<int> listening_fd{-1};
  std::mutex log_mu;
  std::atomic<bool> stopping{false};
};

HttpServer::HttpServer(Router& router, ListenOptions options)
    : impl_(std::make_unique<Impl>()), router_(router), options_(std::move(options)) {
  httplib::Server& svr = impl_->svr;
  const size_t threads = options_.threads;
  svr.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  svr.set_payload_max_length(options_.max_body);
  svr.set_read_timeout(options_.read_timeout_s, 0);
  svr.set_write_timeout(options_.write_timeout_s, 0);
  svr.set_keep_alive_max_count(1000);
  svr.set_tcp_nodelay(true);
  // cpp-httplib 0.11 listens with a backlog of 5 (its compiled library fixes CPPHTTPLIB_LISTEN_BACKLOG): 64 clients
  // connecting at once would see dropped SYNs and a one-second retry. The socket is kept here and listened on again
  // with the system's maximum after the bind (Linux takes a second listen() as a new backlog).
  svr.set_socket_options([this](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    impl_->listening_fd = sock;
  });
  auto handle = [this](const httplib::Request& req, httplib::Response& res) {
    HttpRequest r = FromHttplib(req);
    if (router_.IsStream(r)) {
      if (auto failed = router_.Precheck(r)) {
        router_.Decorate(r, *failed);
        ToHttplib(*failed, res);
        return;
      }
      HttpResponse head;
      head.content_type.clear();
      router_.Decorate(r, head);
      ToHttplib(head, res);
      res.set_header("Cache-Control", "no-store");
      res.set_chunked_content_provider("text/event-stream", [this, r](size_t, httplib::DataSink& sink) {
        router_.Stream(r, [&](std::string_view s) { return sink.write(s.data(), s.size()); });
        sink.done();
        return true;
      });
      return;
    }
    ToHttplib(router_.Handle(r), res);
  };
  svr.Get(".*", handle);
  svr.Post(".*", handle);
  svr.Options(".*", handle);
  svr.Put(".*", handle);
  svr.Delete(".*", handle);
  svr.Patch(".*", handle);
  // What cpp-httplib answers itself (a body over the limit, a request it cannot parse) is written as JSON too.
  svr.set_error_handler(httplib::Server::HandlerWithResponse([this](const httplib::Request& req,
                                                                    httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    std::string code = res.status == 413 ? "too_large" : res.status == 404 ? "not_found" : "bad_request";
    std::string message = fmt::format("the request could not be read (HTTP {})", res.status);
    if (res.status == 413) {
      // cpp-httplib reads a form-encoded body (curl -d sends one) as form fields, at most 8,192 bytes of them.
      message = req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0
                    ? "a form-encoded body is limited to 8,192 bytes: send JSON with Content-Type: application/json"
                    : fmt::format("the request body is larger than this server takes ({} bytes)", options_.max_body);
    }
    res.set_content(ErrorResponse(res.status, code, message).body, "application/json");
    return httplib::Server::HandlerResponse::Handled;
  }));
  svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, const std::exception_ptr&) {
    res.status = 500;
    res.set_content(ErrorResponse(500, "internal", "internal error").body, "application/json");
  });
  if (options_.log != nullptr) {
    svr.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
      std::time_t now = std::time(nullptr);
      char when[32];
      std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
      std::lock_guard lock(impl_->log_mu);
      fmt::print(options_.log, "{} {} {} {} {} {}\n", when, req.remote_addr, req.method, req.path, res.status,
                 res.body.size());
      std::fflush(options_.log);
    });
  }
}

HttpServer::~HttpServer() = default;

Status HttpServer::Bind() {
  if (options_.port == 0) {
    port_ = impl_->svr.bind_to_any_port(options_.host);
    if (port_ <= 0) return MakeError(ErrorCode::kConnection, fmt::format("cannot listen on {}", options_.host));
    if (impl_->listening_fd >= 0) ::listen(impl_->listening_fd, SOMAXCONN);
    return Status::Ok();
  }
  if (!impl_->svr.bind_to_port(options_.host, options_.port)) {
    return MakeError(ErrorCode::kConnection, fmt::format("cannot listen on {}:{} (is the port taken, or the address "
                                                         "not this machine's?)",
                                                         options_.host, options_.port));
  }
  if (impl_->listening_fd >= 0) ::listen(impl_->listening_fd, SOMAXCONN);
  port_ = options_.port;
  return Status::Ok();
}

Status HttpServer::Run() {
  if (!impl_->svr.listen_after_bind() && !impl_->stopping)
    return MakeError(ErrorCode::kConnection, "the server stopped with an error");
  return Status::Ok();
}

void HttpServer::Stop() {
  impl_->stopping = true;
  impl_->svr.stop();
}

}  // namespace plainsql::server
