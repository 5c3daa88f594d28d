// Naming levels in the harness (see levels.h).
#include "eval/levels.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "common/strings.h"
#include "eval/stats.h"
#include "naturalness/translate_query.h"

namespace plainsql::eval {

namespace {

constexpr std::string_view kNamesTag = "\tnames=";
constexpr std::string_view kViewsSuffix = "+views";

}  // namespace

std::string LevelLabel(naturalness::Level level) {
  return level == naturalness::Level::kNative ? "native" : std::string(naturalness::LevelCode(level));
}

std::string NamesLevel::Spec() const {
  return fmt::format("{}{}:{}", LevelLabel(level), via_views ? kViewsSuffix : "", crosswalk_dir);
}

std::string NamesLevel::Label() const { return LevelLabel(level) + (via_views ? " via views" : ""); }

Result<std::optional<NamesLevel>> ParseNamesLevel(const std::string& crosswalk_dir, const std::string& level,
                                                  const std::string& via) {
  if (!via.empty() && via != "middleware" && via != "views") {
    return MakeError(ErrorCode::kInvalidArgument, "unknown --via '" + via + "': middleware or views");
  }
  if (crosswalk_dir.empty()) {
    if (!level.empty() && level != "native") {
      return MakeError(ErrorCode::kInvalidArgument, "--level " + level + " needs --crosswalk-dir (the crosswalks)");
    }
    if (!via.empty()) return MakeError(ErrorCode::kInvalidArgument, "--via needs --crosswalk-dir (the crosswalks)");
    return std::optional<NamesLevel>();
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(crosswalk_dir, ec)) {
    return MakeError(ErrorCode::kNotFound, "--crosswalk-dir " + crosswalk_dir + ": not a directory");
  }
  auto parsed = naturalness::ParseLevel(level.empty() ? "N1" : level, "--level", true);
  if (!parsed) return parsed.error();
  const bool views = via == "views";
  if (views && *parsed == naturalness::Level::kNative) {
    return MakeError(ErrorCode::kInvalidArgument, "--via views needs a level with other names than the native ones");
  }
  return std::optional<NamesLevel>(NamesLevel{crosswalk_dir, *parsed, views});
}

std::string CrosswalkPath(const std::string& dir, const std::string& db_id) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::path(dir) / (db_id + ".csv");
  return fs::is_regular_file(p, ec) ? p.string() : "";
}

std::vector<std::string> MissingCrosswalks(const std::string& dir, const std::vector<Question>& questions) {
  std::set<std::string> missing, seen;
  for (const auto& q : questions) {
    if (seen.insert(q.db_id).second && CrosswalkPath(dir, q.db_id).empty()) missing.insert(q.db_id);
  }
  return {missing.begin(), missing.end()};
}

std::string SystemWithNames(const std::string& system, const std::optional<NamesLevel>& names) {
  if (!names) return system;
  return system + std::string(kNamesTag) + names->Spec();
}

std::pair<std::string, std::optional<NamesLevel>> SplitNames(const std::string& system) {
  size_t at = system.find(kNamesTag);
  if (at == std::string::npos) return {system, std::nullopt};
  const std::string spec = system.substr(at + kNamesTag.size());
  const size_t colon = spec.find(':');
  NamesLevel names;
  if (colon != std::string::npos) {
    names.crosswalk_dir = spec.substr(colon + 1);
    std::string code = spec.substr(0, colon);
    if (code.ends_with(kViewsSuffix)) {
      names.via_views = true;
      code.resize(code.size() - kViewsSuffix.size());
    }
    if (auto level = naturalness::ParseLevel(code, "--level", true)) names.level = *level;
  }
  return {system.substr(0, at), names};
}

ShownName ShownNames(const std::string& system) {
  auto names = SplitNames(system).second;
  if (!names || names->level == naturalness::Level::kNative) return nullptr;
  // Crosswalks are read once each, when first asked for; a database without one keeps its native names.
  auto cache = std::make_shared<std::map<std::string, std::optional<naturalness::Crosswalk>>>();
  return [names = *names, cache](const std::string& db_id, const std::string& identifier) -> std::string {
    auto [it, fresh] = cache->try_emplace(db_id);
    if (fresh) {
      const std::string path = CrosswalkPath(names.crosswalk_dir, db_id);
      if (!path.empty()) {
        if (auto cw = naturalness::LoadCrosswalk(path)) it->second = std::move(*cw);
      }
    }
    const size_t dot = identifier.find('.');
    if (!it->second) return dot == std::string::npos ? identifier : identifier.substr(dot + 1);
    if (dot == std::string::npos) return it->second->TableName(identifier, names.level);
    return it->second->ColumnName(identifier.substr(0, dot), identifier.substr(dot + 1), names.level);
  };
}

Status CheckCrosswalks(const std::string& dir, const std::vector<Question>& questions) {
  auto missing = MissingCrosswalks(dir, questions);
  if (missing.empty()) return Status::Ok();
  return MakeError(ErrorCode::kNotFound, fmt::format("{} has no crosswalk (<db_id>.csv) for {} database(s): {}", dir,
                                                     missing.size(), fmt::join(missing, ", ")));
}

std::function<std::string(const Question&, const std::string&, const sql::NameCatalog&)> TranslateToNative(
    const NamesLevel& names, const sql::Dialect& dialect, std::shared_ptr<TranslationCounts> counts) {
  if (!counts) counts = std::make_shared<TranslationCounts>();
  auto crosswalks = std::make_shared<std::map<std::string, std::optional<naturalness::Crosswalk>>>();
  return [names, &dialect, counts, crosswalks](const Question& q, const std::string& prediction,
                                               const sql::NameCatalog& native) -> std::string {
    auto [it, fresh] = crosswalks->try_emplace(q.db_id);
    if (fresh) {
      if (auto cw = naturalness::LoadCrosswalk(CrosswalkPath(names.crosswalk_dir, q.db_id)))
        it->second = std::move(*cw);
    }
    std::optional<naturalness::Translation> t;
    if (it->second && !Trim(prediction).empty()) {
      if (auto translated = naturalness::Translate(prediction, native, *it->second, names.level,
                                                   naturalness::Level::kNative, dialect)) {
        t = std::move(*translated);
      }
    }
    if (!t) {
      ++counts->untranslated;
      return prediction;
    }
    ++counts->translated;
    if (!t->unresolved.empty()) ++counts->unresolved;
    return std::move(t->sql);
  };
}

namespace {

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

}  // namespace

nlohmann::ordered_json CompareLevels(const std::vector<LevelRun>& runs, const naturalness::Classifier& classifier) {
  nlohmann::ordered_json out = {{"runs", nlohmann::ordered_json::array()}};
  LevelShares pooled;  // every run's questions: the same questions under other names
  for (const auto& run : runs) {
    const auto names = SplitNames(run.info.spec.system).second;
    const ShownName shown = ShownNames(run.info.spec.system);
    LevelShares own;
    for (const auto& s : run.scores) {
      own.Add(s, classifier, shown);
      pooled.Add(s, classifier, shown);
    }
    const nlohmann::ordered_json stats = RunStatistics(run.scores, classifier, shown);
    out["runs"].push_back(
        {{"run", run.info.id},
         {"name", run.info.spec.name},
         {"level", names ? names->Label() : "native"},
         {"ex_strict", stats["ex_strict"]},
         {"query_recall", Mean(own.recall)},
         {"query_precision", Mean(own.precision)},
         {"query_f1", Mean(own.f1)},
         {"identifier_recall", stats["identifier_recall"]["mean"]},
         {"naturalness_vs_ex",
          {{"kendall_tau", stats["naturalness"]["kendall_tau"]}, {"p_value", stats["naturalness"]["p_value"]}}}});
  }
  out["pooled"] = {{"questions", pooled.ex.size()}, {"shares", pooled.Tau()}};
  return out;
}

std::string CompareLevelsText(const nlohmann::ordered_json& c) {
  auto num = [](const nlohmann::ordered_json& v, const char* format) {
    return v.is_number() ? fmt::format(fmt::runtime(format), v.get<double>()) : std::string("-");
  };
  size_t width = 7;  // the level column: "native", or "N1 via views"
  for (const auto& r : c["runs"]) width = std::max(width, r["level"].get<std::string>().size() + 1);
  std::string out = fmt::format("{:<26} {:<{}} {:>9} {:>17} {:>8} {:>8} {:>8} {:>8} {:>14}\n", "run", "level", width,
                                "EX strict", "95% interval", "QRecall", "QPrec", "QF1", "IdRecall", "tau(nat, EX)");
  for (const auto& r : c["runs"]) {
    const auto& ex = r["ex_strict"];
    std::string interval =
        ex.contains("ci95") ? fmt::format("[{:.3f}, {:.3f}]", ex["ci95"][0].get<double>(), ex["ci95"][1].get<double>())
                            : "-";
    const std::string label =
        r["name"].get<std::string>().empty() ? r["run"].get<std::string>() : r["name"].get<std::string>();
    out +=
        fmt::format("{:<26} {:<{}} {:>9} {:>17} {:>8} {:>8} {:>8} {:>8} {:>14}\n", label, r["level"].get<std::string>(),
                    width, num(ex["value"], "{:.3f}"), interval, num(r["query_recall"], "{:.3f}"),
                    num(r["query_precision"], "{:.3f}"), num(r["query_f1"], "{:.3f}"),
                    num(r["identifier_recall"], "{:.3f}"), num(r["naturalness_vs_ex"]["kendall_tau"], "{:+.3f}"));
  }
  out += fmt::format(
      "\nKendall's tau of the share of each level among a question's gold identifiers (as shown), pooled over the "
      "runs ({} questions); p-value in brackets:\n",
      c["pooled"]["questions"].get<size_t>());
  out += fmt::format("{:<8} {:>20} {:>20} {:>20} {:>20}\n", "names", "EX strict", "QueryRecall", "QueryPrecision",
                     "QueryF1");
  for (const auto& item : c["pooled"]["shares"].items()) {
    const std::string& level = item.key();
    const auto& row = item.value();
    auto cell = [&row](const char* key) {
      const auto& t = row[key];
      return t["kendall_tau"].is_number()
                 ? fmt::format("{:+.3f} [{:.1e}]", t["kendall_tau"].get<double>(), t["p_value"].get<double>())
                 : std::string("-");
    };
    out += fmt::format("{:<8} {:>20} {:>20} {:>20} {:>20}\n", level, cell("ex_strict"), cell("query_recall"),
                       cell("query_precision"), cell("query_f1"));
  }
  return out;
}

}  // namespace plainsql::eval
