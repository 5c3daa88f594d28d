// `plainsql serve` (see serve_cmd.h): reads the options, opens the databases, listens, and stops gracefully on SIGINT
// or SIGTERM (requests in flight are answered first).
#include "serve_cmd.h"

#include <fmt/format.h>
#include <signal.h>

#include <thread>

#include "cli.h"
#include "pipeline/config.h"
#include "pipeline/schema_load.h"
#include "server/http.h"
#include "server/router.h"
#include "server/service.h"
#include "server/settings.h"

namespace plainsql::cli {

ServeCommand::ServeCommand(CLI::App& app) {
  command_ = app.add_subcommand(
      "serve",
      "Serve an HTTP API and a web page: ask questions, read and re-run the SQL, browse the schema by "
      "naturalness, read run reports");
  command_
      ->add_option("--conn,CONN", conns_,
                   "A database to serve: URL, or NAME=URL (repeat for several; the first is the default)")
      ->required();
  command_->add_option("--listen", listen_, "Address and port (an address other than loopback needs --token-file)")
      ->capture_default_str();
  command_->add_option("--token-file", token_file_,
                       "A file holding the token every API request must send (Authorization: Bearer TOKEN)");
  command_->add_option("--cors", cors_, "Let pages of this origin (e.g. https://app.example.com) call the API");
  command_->add_option("--config", config_file_,
                       "Configuration file (default: ./plainsql.toml, else ~/.config/plainsql/plainsql.toml)");
  command_->add_option("--llm", llm_url_, "OpenAI-compatible base URL, or none (default: PLAINSQL_LLM_URL)");
  command_->add_option("--model", model_, "Model name (default: PLAINSQL_LLM_MODEL)");
  command_->add_option("--runs", runs_, "The runs database whose runs and reports are served")->capture_default_str();
  command_->add_option("--threads", threads_, "Connections served at once")->capture_default_str();
  command_->add_option("--workers", workers_, "Queries run at once per database")->capture_default_str();
  command_
      ->add_option("--llm-slots", llm_slots_,
                   "Requests that may wait on the model at once (the rest get 503; built-in asks never wait)")
      ->capture_default_str();
  command_->add_option("--cache", cache_, "Built-in translations remembered per database (0: none)")
      ->capture_default_str();
  command_->add_option("--rate", rate_, "Requests per second per client address, a burst of twice that (0: no limit)")
      ->capture_default_str();
  command_->add_flag("--limit-loopback", limit_loopback_, "Rate-limit clients on this machine too");
  command_->add_option("--max-body", max_body_, "Largest request body, in bytes")->capture_default_str();
  command_->add_option("--max-rows", max_rows_, "Rows a response holds at most")->capture_default_str();
  command_->add_option("--timeout", timeout_ms_, "Per query, in milliseconds (default 30000)");
  command_->add_option("--deadline", deadline_ms_, "Per question, model calls included, in milliseconds (60000)");
  AddAskInferKeysOption(*command_, infer_keys_);
  command_->add_flag("--quiet,-q", quiet_, "No request log on stderr");
}

int ServeCommand::Run() {
  auto listen = server::ParseListenAddress(listen_);
  if (!listen) return Fail(listen.error());
  std::string token;
  if (!token_file_.empty()) {
    auto t = server::ReadTokenFile(token_file_);
    if (!t) return Fail(t.error());
    token = std::move(*t);
  }
  if (Status st = server::CheckExposure(*listen, token); !st) return Fail(st.error());
  if (threads_ < 4 || workers_ < 1 || llm_slots_ < 1 || max_rows_ < 1 || max_body_ < 1024 || rate_ < 0) {
    return Fail(MakeError(ErrorCode::kInvalidArgument,
                          "--threads must be at least 4; --workers, --llm-slots and --max-rows at least 1; "
                          "--max-body at least 1024; --rate not negative"));
  }
  server::ServiceOptions so;
  auto keys = pipeline::AnswerKeyInference(infer_keys_);
  if (!keys) return Fail(keys.error());
  so.schema_load.infer_keys = *keys;
  for (size_t i = 0; i < conns_.size(); ++i) so.databases.push_back(server::ParseDatabaseSpec(conns_[i], i));
  auto config = pipeline::LoadConfig(config_file_);
  if (!config) return Fail(config.error());
  if (!llm_url_.empty()) config->llm.base_url = llm_url_;
  if (!model_.empty()) config->llm.model = model_;
  if (timeout_ms_ > 0) config->options.limits.timeout = std::chrono::milliseconds(timeout_ms_);
  if (deadline_ms_ > 0) so.deadline = std::chrono::milliseconds(deadline_ms_);
  so.config = std::move(*config);
  so.runs_db = runs_;
  so.max_workers = workers_;
  so.llm_slots = llm_slots_;
  so.cache_entries = cache_;
  so.max_rows = max_rows_;
  auto service = server::Service::Open(std::move(so), [&](const std::string& message) {
    if (!quiet_) fmt::print(stderr, "plainsql serve: {}\n", message);
  });
  if (!service) return Fail(service.error());
  server::RouterOptions ro;
  ro.token = token;
  ro.cors_origin = cors_;
  ro.max_body = max_body_;
  ro.rate = rate_;
  ro.limit_loopback = limit_loopback_;
  server::Router router(**service, ro);
  server::ListenOptions lo;
  lo.host = listen->host;
  lo.port = listen->port;
  lo.threads = threads_;
  lo.max_body = max_body_;
  lo.log = quiet_ ? nullptr : stderr;
  server::HttpServer http(router, lo);
  // SIGINT and SIGTERM are taken by one thread (sigwait), which stops the server; every other thread has them blocked.
  // SIGUSR1 wakes that thread when the server stopped for another reason.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  if (Status st = http.Bind(); !st) return Fail(st.error());
  std::string shown = lo.host.find(':') != std::string::npos ? "[" + lo.host + "]" : lo.host;
  fmt::print(stderr, "plainsql serve: listening on http://{}:{}/ ({} database{}){}\n", shown, http.port(),
             conns_.size(), conns_.size() == 1 ? "" : "s", token.empty() ? "" : "; the API needs the token");
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    if (sig == SIGINT || sig == SIGTERM) {
      fmt::print(stderr, "plainsql serve: stopping (finishing the requests in flight)\n");
      http.Stop();
    }
  });
  Status ran = http.Run();
  // The waiter is still in sigwait when the server stopped for another reason: wake it.
  pthread_kill(waiter.native_handle(), SIGUSR1);
  waiter.join();
  if (!ran) return Fail(ran.error());
  fmt::print(stderr, "plainsql serve: stopped\n");
  return 0;
}

}  // namespace plainsql::cli
