// Naming levels in the harness (issue #21, SNAILS' experiments): `eval run --crosswalk-dir DIR --level L` has the
// system see each database under a crosswalk's names (one `<db_id>.csv` per database, SNAILS' layout); its SQL is
// translated back to the native names by the pipeline and scored as usual. The level is part of the run's stored
// system string (after a TAB, as the subset source is), so runs at different levels are never confused and a resumed
// run uses the same names.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "eval/benchmark.h"
#include "eval/runs.h"
#include "eval/score.h"
#include "naturalness/classifier.h"
#include "naturalness/crosswalk.h"
#include "sql/dialect.h"
#include "sql/resolver.h"

namespace plainsql::eval {

/// "native", "N1", "N2" or "N3".
std::string LevelLabel(naturalness::Level level);

struct NamesLevel {
  std::string crosswalk_dir;  // one <db_id>.csv per database
  naturalness::Level level = naturalness::Level::kNative;
  /// `--via views`: the system sees natural views deployed in a companion database (views/deploy.h) and its SQL runs
  /// on them; else the middleware renames the schema it is shown and translates its SQL (the default).
  bool via_views = false;
  /// As stored in a run: "N1:DIR" (the level's code, then the directory), "N1+views:DIR" through views.
  std::string Spec() const;
  /// For people: "N1", or "N1 via views".
  std::string Label() const;
};

/// `--crosswalk-dir`, `--level` and `--via` as given (level "native", N1, N2, N3, or Regular / Low / Least; via
/// "middleware", the default, or "views"): nullopt when no directory is given; an error for a level or a via without
/// a directory, an unknown level or via, views at the native level, or a directory that does not exist.
Result<std::optional<NamesLevel>> ParseNamesLevel(const std::string& crosswalk_dir, const std::string& level,
                                                  const std::string& via = "");

/// The crosswalk file of `db_id` under `dir` ("" when there is none).
std::string CrosswalkPath(const std::string& dir, const std::string& db_id);
/// Every database of `questions` that has no crosswalk in `dir` (sorted, once each).
std::vector<std::string> MissingCrosswalks(const std::string& dir, const std::vector<Question>& questions);

/// A run's system string with its names level appended after a TAB ("SYSTEM\tnames=N2:DIR"), and back: (system,
/// level), the level nullopt when there is none. The names tag comes last, after a subset's.
std::string SystemWithNames(const std::string& system, const std::optional<NamesLevel>& names);
std::pair<std::string, std::optional<NamesLevel>> SplitNames(const std::string& system);

/// The last part of an identifier ("table" or "table.column", lower-case, of database `db_id`) as the system saw it.
using ShownName = std::function<std::string(const std::string& db_id, const std::string& identifier)>;
/// For a run at a names level: the name under that level's crosswalk (the native one where the crosswalk has none);
/// null for a run on native names (the identifiers' own last part is what the system saw).
ShownName ShownNames(const std::string& system);

/// An error naming every database of `questions` without a crosswalk in `dir`; ok when each has one.
Status CheckCrosswalks(const std::string& dir, const std::vector<Question>& questions);

/// What TranslateToNative did: predictions translated, left as written (they do not parse), and translated with names
/// the level does not have (left as written in the query).
struct TranslationCounts {
  size_t translated = 0, untranslated = 0, unresolved = 0;
};
/// ScoreOptions::rewrite for predictions written at `names`' level (`eval score --crosswalk-dir`): each is translated
/// back to its database's native names through `<db_id>.csv` (read once per database), in `dialect`. `counts`, when
/// given, tallies what happened. For one scorer at a time (not thread-safe).
std::function<std::string(const Question&, const std::string&, const sql::NameCatalog&)> TranslateToNative(
    const NamesLevel& names, const sql::Dialect& dialect, std::shared_ptr<TranslationCounts> counts = nullptr);

/// Runs side by side by naming level (SNAILS' Figures 8 and 13): per run its level ("native" without one), EX strict
/// with its interval, QueryRecall / QueryPrecision / QueryF1 and IdentifierRecall means, and Kendall's tau of the
/// question's naturalness against EX within the run; then, pooled over every run's questions (the same questions under
/// other names), tau of the share of Regular / Low / Least names among each question's gold identifiers, as the
/// system saw them, against EX strict and QueryRecall / QueryPrecision / QueryF1. {"runs": [...], "pooled": {...}}.
struct LevelRun {
  RunInfo info;
  std::vector<QuestionScore> scores;
};
nlohmann::ordered_json CompareLevels(const std::vector<LevelRun>& runs, const naturalness::Classifier& classifier);
/// The same as aligned text tables.
std::string CompareLevelsText(const nlohmann::ordered_json& comparison);

}  // namespace plainsql::eval
