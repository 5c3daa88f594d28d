// `plainsql eval haystack` (issue #18): merges every Spider, BIRD dev and SNAILS schema of a data folder into one
// XL / XXL schema (src/linking/haystack.h) and writes it with the questions mapped into it, for `plainsql link
// --questions ... --json` and `plainsql eval subsets` to score any subsetting method at that size.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace plainsql::cli {

class HaystackCommand {
 public:
  /// Registers `haystack` as a subcommand of `parent` (`eval`, or the program itself).
  explicit HaystackCommand(CLI::App& parent);
  bool Selected() const { return cmd_->parsed(); }
  int Run();

 private:
  CLI::App* cmd_ = nullptr;
  std::string data_dir_, out_, db_id_ = "haystack";
  size_t copies_ = 1;
  bool json_ = false;
};

}  // namespace plainsql::cli
