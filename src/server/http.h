// The socket side of `plainsql serve` (cpp-httplib): listens, turns each HTTP request into an HttpRequest for the
// Router and its response back, streams the server-sent events of /api/ask/stream, logs one line per request (method,
// path, status, time: never a body or a header), and stops gracefully: Stop() closes the listening socket, requests in
// flight are finished, then Run() returns.
#pragma once

#include <atomic>
#include <cstdio>
#include <memory>
#include <string>

#include "common/status.h"
#include "server/router.h"

namespace plainsql::server {

struct ListenOptions {
  std::string host = "127.0.0.1";
  int port = 8080;          // 0: any free port (port() tells which)
  size_t threads = 96;      // connections served at once (a keep-alive connection holds one)
  int read_timeout_s = 10;  // a client that sends nothing for this long is dropped
  int write_timeout_s = 60;
  size_t max_body = size_t{1} << 20;  // larger bodies get 413 before they are read
  std::FILE* log = stderr;            // one line per request; null: no log
};

class HttpServer {
 public:
  HttpServer(Router& router, ListenOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Binds the address (fails naming it when it is taken or not local).
  Status Bind();
  int port() const { return port_; }
  /// Serves until Stop(); returns once the requests in flight are answered.
  Status Run();
  /// Safe from any thread, not from a signal handler.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  Router& router_;
  ListenOptions options_;
  int port_ = 0;
};

}  // namespace plainsql::server
