// `plainsql space compare`: benchmark composition over SQLSpace features (src/features/compare.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace plainsql::cli {

class SpaceCommands {
 public:
  explicit SpaceCommands(CLI::App& app);
  bool Selected() const { return root_->parsed(); }
  int Run();

 private:
  int Compare();

  CLI::App* root_ = nullptr;
  CLI::App* compare_ = nullptr;
  std::vector<std::string> files_, names_;
  std::string html_;
  size_t top_ = 8;
  bool json_ = false;
};

}  // namespace plainsql::cli
