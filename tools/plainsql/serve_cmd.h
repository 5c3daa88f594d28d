// `plainsql serve`: the HTTP API and the web page over one or more databases (src/server).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace plainsql::cli {

class ServeCommand {
 public:
  explicit ServeCommand(CLI::App& app);
  bool Selected() const { return command_->parsed(); }
  int Run();

 private:
  CLI::App* command_ = nullptr;
  std::vector<std::string> conns_;
  std::string listen_ = "127.0.0.1:8080", config_file_, token_file_, cors_, runs_ = "plainsql-runs.db";
  std::string llm_url_, model_;
  std::string infer_keys_;  // --infer-keys: "" (pipeline::SchemaLoadOptions' default), a mode or "none"
  size_t threads_ = 96, workers_ = 16, llm_slots_ = 4, cache_ = 512, max_body_ = size_t{1} << 20;
  double rate_ = 100;
  bool limit_loopback_ = false, quiet_ = false;
  int64_t max_rows_ = 1000, timeout_ms_ = 0, deadline_ms_ = 0;
};

}  // namespace plainsql::cli
