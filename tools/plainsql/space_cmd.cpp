// `plainsql space ...` (see space_cmd.h).
#include "space_cmd.h"

#include <fmt/format.h>

#include <filesystem>

#include "cli.h"
#include "common/file.h"
#include "features/compare.h"

namespace plainsql::cli {

SpaceCommands::SpaceCommands(CLI::App& app) {
  root_ = app.add_subcommand("space", "SQLSpace analyses over the features of `plainsql features`");
  root_->require_subcommand(1);
  compare_ = root_->add_subcommand(
      "compare",
      "Benchmark composition: each feature's share in each set (files of `plainsql features --questions Q --json`), "
      "a chi-square test of equal shares, and the features that set each set apart");
  compare_->add_option("FILES", files_, "Two feature files or more (JSON lines of plainsql features --json)")
      ->required()
      ->expected(2, -1);
  compare_->add_option("--name", names_, "A name per file, in order (default: the file's name without extension)");
  compare_->add_option("--top", top_, "Distinctive features shown per set, each way")->capture_default_str();
  compare_->add_flag("--json", json_, "One JSON object: the sets with their distinctive features, every feature");
  compare_->add_option("--html", html_, "Also write a self-contained HTML report with charts to this file");
}

int SpaceCommands::Run() { return Compare(); }

int SpaceCommands::Compare() {
  if (!names_.empty() && names_.size() != files_.size()) {
    return Fail(MakeError(ErrorCode::kInvalidArgument, fmt::format("{} --name for {} files: give one per file, or none",
                                                                   names_.size(), files_.size())));
  }
  std::vector<features::FeatureSet> sets;
  for (size_t i = 0; i < files_.size(); ++i) {
    const std::string name = names_.empty() ? std::filesystem::path(files_[i]).stem().string() : names_[i];
    auto set = features::ReadFeatureLines(files_[i], name);
    if (!set) return Fail(set.error());
    sets.push_back(std::move(*set));
  }
  auto composition = features::Compare(sets, top_);
  if (!composition) return Fail(composition.error());
  if (!html_.empty()) {
    if (auto st = WriteFileAtomically(html_, features::CompositionHtml(*composition)); !st) return Fail(st.error());
  }
  Write(json_ ? features::CompositionJson(*composition).dump(2) + "\n" : features::CompositionText(*composition));
  return 0;
}

}  // namespace plainsql::cli
