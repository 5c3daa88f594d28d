// The HTML report of a run (and, optionally, a comparison with a second run), and of scored schema subsets: one
// self-contained file with inline SVG charts and no external resources, readable offline.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/runs.h"
#include "eval/score.h"
#include "naturalness/classifier.h"

namespace plainsql::eval {

/// The kind of failure of a question, for the error chart: "correct", "wrong result", "does not parse",
/// "unknown table or column", "timeout", "refused (not read-only)", "other SQL error", "no prediction",
/// "not executed" (no database, or the gold query fails).
std::string ErrorCategory(const QuestionScore& score);

struct ReportRun {
  RunInfo info;
  std::vector<QuestionScore> scores;
  /// RunStatistics of the scores (stats.h), for the naturalness section; null leaves that section out.
  nlohmann::ordered_json statistics;
};

/// The report: accuracy overall (every metric, with 95 % bootstrap intervals), by difficulty, by naturalness level and
/// by database, Kendall's tau of naturalness against success, error categories, latency distribution; with `other`,
/// both runs side by side and McNemar's test.
std::string RunReportHtml(const ReportRun& run, const ReportRun* other = nullptr);

/// The report of run `run` of `store` (an id, prefix or name), against run `other` when that is not empty; the
/// naturalness section classifies the gold queries' names with `classifier`.
Result<std::string> RunReportHtml(RunStore& store, const std::string& run, const std::string& other,
                                  const naturalness::Classifier& classifier);

/// The report of `plainsql eval subsets --html`: the scores of SubsetJson by schema size category (SKALPEL Table 3),
/// perfect recall by category with 95 % bootstrap intervals, and the questions whose subset misses gold elements.
std::string SubsetReportHtml(const nlohmann::ordered_json& subsets, const std::string& subsets_file,
                             const std::string& questions);

/// The report of `plainsql runs levels --html`: CompareLevels' comparison as charts (EX strict by naming level with
/// its intervals; QueryRecall / QueryPrecision / QueryF1 / IdentifierRecall by level, SNAILS' Figures 8 and 13) and
/// tables (the same numbers, and the pooled Kendall's tau of each level's share against each metric).
std::string LevelsReportHtml(const nlohmann::ordered_json& comparison);

}  // namespace plainsql::eval
