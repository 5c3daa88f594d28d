// Statistics over a run's questions: bootstrap intervals for every accuracy, and naturalness against success as
// SNAILS analysed it (Kendall's tau between a question's identifier naturalness and its execution accuracy, and
// accuracy by the naturalness level of the question's least natural identifier).
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <vector>

#include "eval/levels.h"
#include "eval/score.h"
#include "naturalness/classifier.h"

namespace plainsql::eval {

/// {"ex_strict": {value, ci95, n}, "ex_relaxed": ..., "ex_jaccard": ..., "em": ..., "naturalness": {questions,
/// kendall_tau, p_value, by_least_level: {Regular|Low|Least: {n, value, ci95}}}, "identifier_recall": {identifiers,
/// mean, by_level: {Regular|Low|Least: {identifiers, mean}}}}. A question's naturalness is the mean name score
/// (P(Regular) + 0.5 P(Low)) of the names its gold query reads; only executed questions with known identifiers count.
/// kendall_tau and p_value are null when every question has the same outcome or the same naturalness (tau is
/// undefined then). IdentifierRecall (score.h) is averaged over native identifiers, and by the level of their names.
/// "stages": {stage: {questions, median_ms, p90_ms, total_ms, prompt_tokens, completion_tokens}}, tokens summed, in
/// the order the stages first appear.
/// SNAILS' per-question view of naturalness: the share of a question's gold identifiers whose names (as the system saw
/// them: `shown`, or the identifier's own) are at each level, beside its outcomes. Questions not executed, or whose
/// identifiers are unknown, are left out.
struct LevelShares {
  std::array<std::vector<double>, 3> shares;  // Regular, Low, Least
  std::vector<double> ex, recall, precision, f1;
  std::vector<double> naturalness;  // the mean name score, P(Regular) + 0.5 P(Low)
  int least = 0;                    // of the last question added: the index of its least natural level
  bool Add(const QuestionScore& s, const naturalness::Classifier& classifier, const ShownName& shown);
  /// {Regular|Low|Least: {ex_strict|query_recall|query_precision|query_f1: {kendall_tau, p_value}}}
  nlohmann::ordered_json Tau() const;
};
/// {kendall_tau, p_value} (nulls when tau is undefined).
nlohmann::ordered_json KendallJson(const std::vector<double>& x, const std::vector<double>& y);

/// "shares": {Regular|Low|Least: {ex_strict|query_recall|query_precision|query_f1: {kendall_tau, p_value}}}: Kendall's
/// tau of the share of a question's gold identifiers at that level against each outcome (SNAILS' analysis).
/// `shown` gives each identifier's name as the system saw it (a run under a crosswalk's names, levels.h); null: the
/// identifier's own.
nlohmann::ordered_json RunStatistics(const std::vector<QuestionScore>& scores,
                                     const naturalness::Classifier& classifier, const ShownName& shown = nullptr);

}  // namespace plainsql::eval
