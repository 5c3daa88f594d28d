// `plainsql eval haystack` (see haystack_cmd.h).
#include "haystack_cmd.h"

#include <fmt/format.h>

#include "cli.h"
#include "linking/haystack.h"

namespace plainsql::cli {

HaystackCommand::HaystackCommand(CLI::App& parent) {
  cmd_ = parent.add_subcommand(
      "haystack",
      "Merge every Spider, BIRD dev and SNAILS schema of a data folder into one schema (tables prefixed by their "
      "database: db__table; keys kept) and map each question's gold query into it: writes OUT/tables.json, "
      "OUT/questions_<set>.json and OUT/manifest.json, for `link --tables OUT/tables.json --questions "
      "OUT/questions_<set>.json --json` and `eval subsets`");
  cmd_->add_option("--data-dir", data_dir_, "The data folder (spider/, bird/, snails/ as in ../shared/data)")
      ->required();
  cmd_->add_option("--out", out_, "The folder to write")->required();
  cmd_->add_option("--copies", copies_,
                   "The schemas this many times (copy k >= 2 prefixed k<k>_; questions target copy 1): 5 gives about "
                   "100,000 columns")
      ->capture_default_str();
  cmd_->add_option("--db-id", db_id_, "The merged schema's db_id")->capture_default_str();
  cmd_->add_flag("--json", json_, "Print the manifest (sizes, question counts, what was skipped) as JSON");
}

int HaystackCommand::Run() {
  linking::HaystackOptions options;
  options.data_dir = data_dir_;
  options.copies = copies_;
  options.db_id = db_id_;
  auto haystack = linking::BuildHaystack(options);
  if (!haystack) return Fail(haystack.error());
  auto manifest = linking::WriteHaystack(*haystack, out_);
  if (!manifest) return Fail(manifest.error());
  if (json_) {
    nlohmann::ordered_json summary = *manifest;
    summary.erase("prefixes");
    Write(summary.dump() + "\n");
    return 0;
  }
  std::string text = fmt::format("{}: {} tables, {} columns ({}/tables.json)\n", haystack->schema.database,
                                 haystack->schema.tables.size(), haystack->ColumnCount(), out_);
  for (const auto& [set, n] : (*manifest)["questions"].items()) {
    text += fmt::format("questions_{}.json: {} questions\n", set, n.get<size_t>());
  }
  for (const auto& [why, n] : haystack->skipped) text += fmt::format("skipped {}: {}\n", why, n);
  for (const auto& note : haystack->notes) text += "note: " + note + "\n";
  Write(text);
  return 0;
}

}  // namespace plainsql::cli
