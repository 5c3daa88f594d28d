// Subsets as output, and the built-in subsetter's model file (see subset.h, subset_builtin.h).
#include "linking/subset.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <tuple>

#include "common/file.h"
#include "common/strings.h"
#include "linking/lexicon.h"
#include "linking/subset_builtin.h"

namespace plainsql::linking {

namespace internal {
extern const std::string_view kSubsetModelParts[];
extern const size_t kSubsetModelPartCount;
}  // namespace internal

nlohmann::ordered_json SubsetToJson(const Subset& subset) {
  nlohmann::ordered_json scores = nlohmann::ordered_json::object();
  for (const auto& t : subset.tables) {
    if (auto it = subset.scores.find(t); it != subset.scores.end()) scores[t] = std::round(it->second * 1e4) / 1e4;
  }
  for (const auto& c : subset.columns) {
    if (auto it = subset.scores.find(c); it != subset.scores.end()) scores[c] = std::round(it->second * 1e4) / 1e4;
  }
  return {{"tables", subset.tables},
          {"columns", subset.columns},
          {"scores", scores},
          {"ms", std::round(subset.ms * 1000) / 1000}};
}

std::string SubsetText(const Subset& subset) {
  auto score = [&](const std::string& k) {
    auto it = subset.scores.find(k);
    return it == subset.scores.end() ? std::string() : fmt::format(" ({:.2f})", it->second);
  };
  std::string out;
  for (const auto& t : subset.tables) {
    out += t + score(t) + "\n";
    for (const auto& c : subset.columns) {
      if (c.size() > t.size() && c.compare(0, t.size(), t) == 0 && c[t.size()] == '.') {
        out += "  " + c.substr(t.size() + 1) + score(c) + "\n";
      }
    }
  }
  if (subset.tables.empty()) out += "(nothing linked)\n";
  for (const auto& n : subset.notes) out += "note: " + n + "\n";
  out += fmt::format("{} tables, {} columns, {:.2f} ms\n", subset.tables.size(), subset.columns.size(), subset.ms);
  return out;
}

Result<SubsetModel> SubsetModel::Parse(const std::string& text) {
  SubsetModel m;
  m.table_weights.assign(TableFeatureNames().size(), 0.0);
  m.column_weights.assign(ColumnFeatureNames().size(), 0.0);
  auto number = [](const std::string& s, double& out) {
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end != s.c_str() && *end == '\0';
  };
  bool plain_given = false;
  size_t line_no = 0;
  for (std::string line : Split(text, '\n')) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (Trim(line).empty() || line[0] == '#') continue;
    auto bad = [&](const std::string& why) {
      return MakeError(ErrorCode::kFormat, fmt::format("subset model, line {}: {}", line_no, why));
    };
    std::vector<std::string> f = Split(line, '\t');
    if (f[0].rfind("table_tree_", 0) == 0 || f[0].rfind("column_tree_", 0) == 0) {
      const bool table = f[0][0] == 't';
      f[0] = f[0].substr(table ? 11 : 12);
      Status s = (table ? m.table_trees : m.column_trees)
                     .ParseLine(f, table ? BaseTableFeatureNames() : BaseColumnFeatureNames());
      if (!s) return bad(s.error().message);
      continue;
    }
    if (f.size() == 3 && (f[0] == "min_share_point" || f[0] == "plain_min_share_point")) {
      double size = 0, share = 0;
      if (!number(f[1], size) || !number(f[2], share) || size < 1 || share < 0 || share > 1)
        return bad("expected " + f[0] + "<TAB>SIZE<TAB>SHARE (a size of at least 1, a share from 0 to 1)");
      const bool plain = f[0][0] == 'p';
      plain_given |= plain;
      (plain ? m.plain_cut : m.cut).min_share_points.emplace_back(size, share);
      continue;
    }
    double v = 0;
    if (f.size() == 2 && number(f[1], v)) {
      const bool plain = f[0].rfind("plain_", 0) == 0;
      plain_given |= plain;
      SubsetCut& cut = plain ? m.plain_cut : m.cut;
      const std::string key = plain ? f[0].substr(6) : f[0];
      if (key == "table_threshold") {
        cut.table_threshold = v;
      } else if (key == "column_threshold") {
        cut.column_threshold = v;
      } else if (key == "table_lambda") {
        cut.table_lambda = v;
      } else if (key == "column_lambda") {
        cut.column_lambda = v;
      } else if (key == "small_table") {
        cut.small_table = static_cast<size_t>(std::max(0.0, v));
      } else if (key == "min_share") {
        cut.min_share = std::clamp(v, 0.0, 1.0);
      } else if (key == "min_share_decay") {
        cut.min_share_decay = std::max(0.0, v);
      } else if (key == "min_share_full_up_to") {
        cut.min_share_full_up_to = std::max(1.0, v);
      } else if (key == "associations") {
        cut.associations = v != 0;
      } else if (plain) {
        return bad("unknown setting " + f[0]);
      } else if (f[0] == "narrow_min_columns") {
        m.narrow.min_columns = static_cast<size_t>(std::max(0.0, v));
      } else if (f[0] == "narrow_tables") {
        m.narrow.tables = static_cast<size_t>(std::max(1.0, v));
      } else if (f[0] == "narrow_neighbours_of") {
        m.narrow.neighbours_of = static_cast<size_t>(std::max(0.0, v));
      } else if (f[0] == "narrow_components") {
        m.narrow.components = static_cast<size_t>(std::max(1.0, v));
      } else if (f[0] == "narrow_budget_share") {
        m.narrow.budget_share = v;
      } else if (f[0] == "narrow_floored") {
        m.narrow.floored = static_cast<size_t>(std::max(0.0, v));
      } else if (f[0] == "narrow_component_share") {
        m.narrow.component_share = std::max(0.0, v);
      } else if (f[0] == "narrow_component_weight") {
        m.narrow.component_weight = std::max(0.0, v);
      } else if (f[0] == "narrow_component_lead") {
        m.narrow.component_lead = std::max(0.0, v);
      } else if (f[0] == "table_bias") {
        m.table_bias = v;
      } else if (f[0] == "column_bias") {
        m.column_bias = v;
      } else {
        return bad("unknown setting " + f[0]);
      }
    } else if (f.size() == 3 && (f[0] == "table" || f[0] == "column") && number(f[2], v)) {
      const auto& names = f[0] == "table" ? TableFeatureNames() : ColumnFeatureNames();
      auto it = std::find(names.begin(), names.end(), f[1]);
      if (it == names.end()) return bad("unknown feature " + f[1]);
      (f[0] == "table" ? m.table_weights : m.column_weights)[static_cast<size_t>(it - names.begin())] = v;
    } else if (double hi = 0; f.size() == 4 && (f[0] == "table_range" || f[0] == "column_range") && number(f[2], v) &&
                              number(f[3], hi) && v <= hi) {
      const bool table = f[0] == "table_range";
      const auto& names = table ? BaseTableFeatureNames() : BaseColumnFeatureNames();
      auto it = std::find(names.begin(), names.end(), f[1]);
      if (it == names.end()) return bad("unknown feature " + f[1]);
      auto& ranges = table ? m.table_ranges : m.column_ranges;
      if (ranges.empty()) ranges.assign(names.size(), {-HUGE_VAL, HUGE_VAL});
      ranges[static_cast<size_t>(it - names.begin())] = {v, hi};
    } else {
      return bad(
          "expected KEY<TAB>VALUE, table|column<TAB>FEATURE<TAB>WEIGHT or "
          "table_range|column_range<TAB>FEATURE<TAB>MIN<TAB>MAX");
    }
  }
  for (const plainsql::TreeEnsemble* trees : {&m.table_trees, &m.column_trees}) {
    if (Status s = trees->Check(); !s) return MakeError(ErrorCode::kFormat, "subset model: " + s.error().message);
  }
  for (const SubsetCut* cut : {&m.cut, &m.plain_cut}) {
    if (Status s = cut->Check(); !s) return MakeError(ErrorCode::kFormat, "subset model: " + s.error().message);
  }
  if (!plain_given) m.plain_cut = m.cut;  // a model from before the draft features: one cut
  return m;
}

std::string SubsetModel::Serialize(const std::string& comment) const {
  std::string out;
  for (const auto& l : Split(comment, '\n')) out += "# " + l + "\n";
  for (const auto& [prefix, c] : {std::pair<std::string, const SubsetCut&>{"", cut}, {"plain_", plain_cut}}) {
    out += fmt::format("{0}table_threshold\t{1:.4f}\n{0}column_threshold\t{2:.4f}\n{0}small_table\t{3}\n", prefix,
                       c.table_threshold, c.column_threshold, c.small_table);
    out +=
        fmt::format("{0}table_lambda\t{1:.4f}\n{0}column_lambda\t{2:.4f}\n", prefix, c.table_lambda, c.column_lambda);
    out += fmt::format("{0}min_share\t{1:.4f}\n{0}min_share_decay\t{2:.4f}\n{0}associations\t{3}\n", prefix,
                       c.min_share, c.min_share_decay, c.associations ? 1 : 0);
    // Written only when it is not the default, so a model file of an earlier version reads the same.
    if (c.min_share_full_up_to != SubsetCut::kFloorFullUpTo)
      out += fmt::format("{0}min_share_full_up_to\t{1:g}\n", prefix, c.min_share_full_up_to);
    for (const auto& [size, share] : c.min_share_points)
      out += fmt::format("{0}min_share_point\t{1:g}\t{2:.4f}\n", prefix, size, share);
  }
  out += fmt::format(
      "narrow_min_columns\t{}\nnarrow_tables\t{}\nnarrow_neighbours_of\t{}\nnarrow_components\t{}\n"
      "narrow_budget_share\t{:.4f}\n",
      narrow.min_columns, narrow.tables, narrow.neighbours_of, narrow.components, narrow.budget_share);
  // Written only when it is not the default, so a model file of an earlier version reads the same.
  if (narrow.floored != SubsetNarrow{}.floored) out += fmt::format("narrow_floored\t{}\n", narrow.floored);
  if (narrow.component_share != SubsetNarrow{}.component_share) {
    out += fmt::format("narrow_component_share\t{:.4f}\n", narrow.component_share);
  }
  if (narrow.component_weight != SubsetNarrow{}.component_weight) {
    out += fmt::format("narrow_component_weight\t{:.4f}\n", narrow.component_weight);
  }
  if (narrow.component_lead != SubsetNarrow{}.component_lead) {
    out += fmt::format("narrow_component_lead\t{:.4f}\n", narrow.component_lead);
  }
  out += fmt::format("table_bias\t{:.6f}\ncolumn_bias\t{:.6f}\n", table_bias, column_bias);
  for (size_t i = 0; i < table_weights.size(); ++i) {
    out += fmt::format("table\t{}\t{:.6f}\n", TableFeatureNames()[i], table_weights[i]);
  }
  for (size_t i = 0; i < column_weights.size(); ++i) {
    out += fmt::format("column\t{}\t{:.6f}\n", ColumnFeatureNames()[i], column_weights[i]);
  }
  for (const auto& [kind, ranges, names] :
       {std::tuple<std::string, const std::vector<std::pair<double, double>>&, const std::vector<std::string>&>{
            "table_range", table_ranges, BaseTableFeatureNames()},
        {"column_range", column_ranges, BaseColumnFeatureNames()}}) {
    for (size_t i = 0; i < ranges.size() && i < names.size(); ++i) {
      out += fmt::format("{}\t{}\t{:.6f}\t{:.6f}\n", kind, names[i], ranges[i].first, ranges[i].second);
    }
  }
  if (!table_trees.Empty()) out += table_trees.Serialize("table_tree", BaseTableFeatureNames());
  if (!column_trees.Empty()) out += column_trees.Serialize("column_tree", BaseColumnFeatureNames());
  return out;
}

const SubsetModel& SubsetModel::Shipped() {
  static const SubsetModel kModel = [] {
    std::string text;
    for (size_t i = 0; i < internal::kSubsetModelPartCount; ++i) text += internal::kSubsetModelParts[i];
    auto m = Parse(text);
    // The file is generated and compiled in: a bad one is a build error caught by the tests, not a user's problem.
    return m ? *m : SubsetModel{};
  }();
  return kModel;
}

Result<SubsetModel> SubsetModel::ReadFile(const std::string& path) {
  auto text = ReadFileToString(path);
  if (!text) return text.error();
  auto parsed = Parse(*text);
  if (!parsed) return parsed;
  if (parsed->column_trees.Empty() && parsed->table_trees.Empty() &&
      std::none_of(parsed->column_weights.begin(), parsed->column_weights.end(), [](double w) { return w != 0; })) {
    return MakeError(ErrorCode::kFormat, fmt::format("{} holds no trees and no weights", path));
  }
  return parsed;
}

const SubsetModel& SubsetModel::Active() {
  static const SubsetModel kActive = [] {
    const char* path = std::getenv("PLAINSQL_SUBSET_MODEL");
    if (path == nullptr || *path == '\0') return Shipped();
    auto parsed = ReadFile(path);
    if (!parsed) {
      std::fprintf(stderr, "plainsql: warning: PLAINSQL_SUBSET_MODEL: %s; the built-in subset model is used\n",
                   parsed.error().message.c_str());
      return Shipped();
    }
    return std::move(*parsed);
  }();
  return kActive;
}

Status CheckModelEnvironment() {
  if (const char* path = std::getenv("PLAINSQL_SUBSET_MODEL"); path != nullptr && *path != '\0') {
    if (auto parsed = SubsetModel::ReadFile(path); !parsed) {
      Error e = parsed.error();
      e.message = fmt::format("PLAINSQL_SUBSET_MODEL: {} (unset it for the built-in model)", e.message);
      return e;
    }
  }
  return Lexicon::CheckEnvironment();
}

std::string QuestionWithEvidence(const std::string& question, const std::string& evidence) {
  return evidence.empty() ? question : question + "\n" + evidence;
}

}  // namespace plainsql::linking
