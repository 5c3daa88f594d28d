// Runs and scores as people and programs read them at the command line: the runs table, one run's header, every
// question exported as JSON Lines or CSV, and the summary of subset scores.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "eval/runs.h"
#include "eval/score.h"

namespace plainsql::eval {

enum class ExportFormat { kJsonl, kCsv };
/// "jsonl" or "csv", or an invalid-argument error naming `option`.
Result<ExportFormat> ParseExportFormat(std::string_view name, std::string_view option = "--format");

/// Every question of a run, with what only a run has (latency, cost per stage): one JSON object per line, or CSV with
/// a header row (nested values as JSON text).
std::string ExportScores(const std::vector<QuestionScore>& scores, ExportFormat format);

/// `plainsql runs list`: every run with its id, name, status, progress, EX strict and system.
Result<std::string> RunsTable(RunStore& store);

/// `plainsql runs show`: the run's header line, then its scores as ScoreText gives them.
std::string RunText(const RunInfo& run, const std::vector<QuestionScore>& scores);

/// `plainsql eval subsets`: the summary of SubsetJson as aligned lines.
std::string SubsetText(const nlohmann::ordered_json& subsets);

}  // namespace plainsql::eval
