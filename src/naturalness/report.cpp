// Naturalness report rendering (see report.h).
#include "naturalness/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "common/csv.h"
#include "common/html.h"
#include "common/strings.h"

namespace plainsql::naturalness {

std::optional<ProfileFormat> ProfileFormatByName(std::string_view name) {
  if (name == "text") return ProfileFormat::kText;
  if (name == "json") return ProfileFormat::kJson;
  if (name == "csv") return ProfileFormat::kCsv;
  if (name == "html") return ProfileFormat::kHtml;
  return std::nullopt;
}

Result<ProfileFormat> ParseProfileFormat(std::string_view name, std::string_view option) {
  if (auto f = ProfileFormatByName(name)) return *f;
  return MakeError(ErrorCode::kInvalidArgument,
                   fmt::format("{} must be text, json, csv or html, not '{}'", option, name));
}

namespace {

std::string Pct(double share) { return fmt::format("{:.1f}%", 100 * share); }

std::string Shares(const LevelCounts& c) {
  return fmt::format("Regular {} · Low {} · Least {}", Pct(c.Share(Level::kRegular)), Pct(c.Share(Level::kLow)),
                     Pct(c.Share(Level::kLeast)));
}

std::string Qualified(const NameScore& s) { return s.column.empty() ? s.table : s.table + "." + s.column; }

// Tables by combined naturalness, least natural first (ties: schema order).
std::vector<const TableProfile*> TablesLeastFirst(const SchemaProfile& p) {
  std::vector<const TableProfile*> out;
  for (const auto& t : p.table_profiles) out.push_back(&t);
  std::stable_sort(out.begin(), out.end(),
                   [](const TableProfile* a, const TableProfile* b) { return a->all.Combined() < b->all.Combined(); });
  return out;
}

// What the DBA should do, from the figures.
std::vector<std::string> Advice(const SchemaProfile& p) {
  std::vector<std::string> out;
  int cryptic = p.all.low + p.all.least;
  if (p.all.Total() == 0) return {"The schema has no tables."};
  if (p.all.least > 0) {
    out.push_back(fmt::format(
        "{} of {} names are Least natural (cryptic codes an LLM cannot read). SNAILS measured lower schema linking and "
        "execution accuracy for such names: rename them, or give the LLM a natural view of the database (one view "
        "per table, readable names) and translate its SQL back.",
        p.all.least, p.all.Total()));
  }
  if (p.all.low > 0) {
    out.push_back(
        fmt::format("{} names are Low natural (abbreviations): expanding them helps smaller models most.", p.all.low));
  }
  if (!p.warnings.empty()) {
    out.push_back(fmt::format("Fix the {} warnings listed above first: they break generated SQL whatever the model.",
                              p.warnings.size()));
  }
  if (cryptic == 0 && p.warnings.empty()) out.emplace_back("Every name is Regular: nothing to do.");
  return out;
}

std::string Text(const SchemaProfile& p, const ReportOptions& o) {
  std::string out = fmt::format("Naturalness profile of {} ({} tables, {} columns)\n\n", p.database, p.tables.Total(),
                                p.columns.Total());
  out += fmt::format("Combined naturalness  {:.3f}   (tables {:.3f}, columns {:.3f})\n", p.all.Combined(),
                     p.tables.Combined(), p.columns.Combined());
  out += fmt::format("All names             {}\n", Shares(p.all));
  out += fmt::format("Table names           {}\n", Shares(p.tables));
  out += fmt::format("Column names          {}\n\n", Shares(p.columns));

  out += "Tables, least natural first\n";
  size_t width = 5;
  for (const auto& t : p.table_profiles) width = std::max(width, Utf8Width(t.name));
  width = std::min<size_t>(width, 40);
  out += fmt::format("  {:<{}}  {:>5}  {:>7}  {:>7}  {:>7}  {:>7}  {:>8}\n", "table", width, "level", "columns",
                     "regular", "low", "least", "combined");
  for (const TableProfile* t : TablesLeastFirst(p)) {
    out += fmt::format("  {:<{}}  {:>5}  {:>7}  {:>7}  {:>7}  {:>7}  {:>8.3f}\n", t->name, width,
                       LevelCode(t->table_name.prediction.level), t->columns.size(), t->column_counts.regular,
                       t->column_counts.low, t->column_counts.least, t->all.Combined());
  }
  auto least = p.LeastNaturalFirst();
  size_t n = std::min(o.top, least.size());
  out += fmt::format("\nLeast natural names ({} of {})\n", n, least.size());
  for (size_t i = 0; i < n; ++i) {
    const NameScore& s = *least[i];
    out += fmt::format("  {:<5} {:.3f}  {}{}\n", LevelCode(s.prediction.level), s.Score(), Qualified(s),
                       s.column.empty() ? "  (table)" : "");
  }
  out += fmt::format("\nWarnings ({})\n", p.warnings.size());
  if (p.warnings.empty()) out += "  none\n";
  for (const auto& w : p.warnings) out += "  [" + w.kind + "] " + w.message + "\n";
  out += "\nWhat to do next\n";
  for (const auto& a : Advice(p)) out += "  - " + a + "\n";
  return out;
}

nlohmann::ordered_json CountsJson(const LevelCounts& c) {
  return {{"names", c.Total()},
          {"regular", c.regular},
          {"low", c.low},
          {"least", c.least},
          {"share_regular", c.Share(Level::kRegular)},
          {"share_low", c.Share(Level::kLow)},
          {"share_least", c.Share(Level::kLeast)},
          {"combined", c.Combined()}};
}

nlohmann::ordered_json NameJson(const NameScore& s) {
  return {{"name", s.name},
          {"level", LevelCode(s.prediction.level)},
          {"p_regular", s.prediction.p[0]},
          {"p_low", s.prediction.p[1]},
          {"p_least", s.prediction.p[2]},
          {"score", s.Score()}};
}

std::string Json(const SchemaProfile& p) {
  nlohmann::ordered_json j;
  j["database"] = p.database;
  j["combined"] = p.all.Combined();
  j["all"] = CountsJson(p.all);
  j["tables"] = CountsJson(p.tables);
  j["columns"] = CountsJson(p.columns);
  j["table_profiles"] = nlohmann::ordered_json::array();
  for (const auto& t : p.table_profiles) {
    nlohmann::ordered_json tj;
    tj["table"] = t.name;
    tj["name"] = NameJson(t.table_name);
    tj["columns"] = CountsJson(t.column_counts);
    tj["all"] = CountsJson(t.all);
    tj["column_names"] = nlohmann::ordered_json::array();
    for (const auto& c : t.columns) tj["column_names"].push_back(NameJson(c));
    j["table_profiles"].push_back(std::move(tj));
  }
  j["warnings"] = nlohmann::ordered_json::array();
  for (const auto& w : p.warnings) {
    j["warnings"].push_back({{"kind", w.kind}, {"table", w.table}, {"column", w.column}, {"message", w.message}});
  }
  j["advice"] = Advice(p);
  return j.dump(2) + "\n";
}

std::string Csv(const SchemaProfile& p) {
  std::string out = "table,column,identifier,label,p_regular,p_low,p_least,score\n";
  auto row = [&](const NameScore& s) {
    out += fmt::format("{},{},{},{},{:.4f},{:.4f},{:.4f},{:.4f}\n", CsvField(s.table), CsvField(s.column),
                       CsvField(s.name), LevelCode(s.prediction.level), s.prediction.p[0], s.prediction.p[1],
                       s.prediction.p[2], s.Score());
  };
  for (const auto& t : p.table_profiles) {
    row(t.table_name);
    for (const auto& c : t.columns) row(c);
  }
  return out;
}

constexpr std::array<const char*, 3> kColors = {"#2e7d32", "#f9a825", "#c62828"};  // Regular, Low, Least

// One horizontal bar split into the three levels' shares.
std::string StackedBar(const LevelCounts& c, double x, double y, double width, double height) {
  std::string out;
  double at = x;
  for (int k = 0; k < 3; ++k) {
    double w = width * c.Share(kLevels[k]);
    if (w <= 0) continue;
    out += fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}"/>)", at, y, w, height,
                       kColors[k]);
    at += w;
  }
  return out;
}

std::string HtmlReport(const SchemaProfile& p, const ReportOptions& o) {
  std::string out = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Naturalness of )" +
                    HtmlEscape(p.database) + R"(</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{padding:3px 10px;border-bottom:1px solid #ddd;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}.big{font-size:2.4em;font-weight:600}
.key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}svg text{font-size:11px}
.warn{color:#b71c1c}
</style></head><body>
)";
  out += "<h1>Naturalness of " + HtmlEscape(p.database) + "</h1>\n";
  out += fmt::format("<p>{} tables, {} columns. Levels from plainsql's classifier (SNAILS categories).</p>\n",
                     p.tables.Total(), p.columns.Total());
  out += fmt::format(
      "<p><span class=\"big\">{:.3f}</span> combined naturalness (1·Regular + 0.5·Low + 0·Least per name): tables "
      "{:.3f}, columns {:.3f}</p>\n",
      p.all.Combined(), p.tables.Combined(), p.columns.Combined());
  out += "<p class=\"key\">";
  for (int k = 0; k < 3; ++k)
    out += fmt::format("<span style=\"background:{}\"></span>{}", kColors[k], LevelName(kLevels[k]));
  out += "</p>\n<table><tr><th></th><th>Regular</th><th>Low</th><th>Least</th><th>combined</th></tr>\n";
  for (const auto& [label, c] : {std::pair<const char*, const LevelCounts*>{"all names", &p.all},
                                 {"table names", &p.tables},
                                 {"column names", &p.columns}}) {
    out += fmt::format(
        "<tr><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{:.3f}</td>"
        "</tr>\n",
        label, Pct(c->Share(Level::kRegular)), Pct(c->Share(Level::kLow)), Pct(c->Share(Level::kLeast)), c->Combined());
  }
  out += "</table>\n";

  // Chart 1: level proportions per table (the least natural tables when there are many).
  auto tables = TablesLeastFirst(p);
  size_t shown = std::min<size_t>(tables.size(), 60);
  out += fmt::format("<h2>Level proportions per table</h2>\n<p>{}</p>\n",
                     shown < tables.size() ? fmt::format("The {} least natural of {} tables.", shown, tables.size())
                                           : std::string("Every table, least natural first."));
  double row_h = 16, label_w = 260, bar_w = 600;
  out += fmt::format(R"(<svg width="{:.0f}" height="{:.0f}" role="img" aria-label="level proportions per table">)",
                     label_w + bar_w + 60, row_h * static_cast<double>(shown) + 4);
  for (size_t i = 0; i < shown; ++i) {
    const TableProfile& t = *tables[i];
    double y = row_h * static_cast<double>(i);
    std::string name = t.name.size() > 40 ? t.name.substr(0, 39) + "…" : t.name;
    out += fmt::format(R"(<text x="{:.0f}" y="{:.1f}" text-anchor="end">{}</text>)", label_w - 6, y + 12,
                       HtmlEscape(name));
    out += StackedBar(t.all, label_w, y + 2, bar_w, row_h - 4);
    out += fmt::format(R"(<text x="{:.0f}" y="{:.1f}">{:.2f}</text>)", label_w + bar_w + 6, y + 12, t.all.Combined());
  }
  out += "</svg>\n";

  // Chart 2: distribution of the names' scores (p_regular + 0.5·p_low) in ten bins.
  std::array<int, 10> bins{};
  auto least = p.LeastNaturalFirst();
  for (const NameScore* s : least) bins[std::min(9, static_cast<int>(s->Score() * 10))]++;
  int top_bin = std::max(1, *std::max_element(bins.begin(), bins.end()));
  out +=
      "<h2>Distribution of name scores</h2>\n<p>Score of a name: p(Regular) + 0.5·p(Low); 0 is cryptic, 1 is "
      "plain English.</p>\n";
  double ch = 160, bw = 50;
  out += fmt::format(R"(<svg width="{:.0f}" height="{:.0f}" role="img" aria-label="distribution of name scores">)",
                     bw * 10 + 20, ch + 40);
  for (int b = 0; b < 10; ++b) {
    double h = ch * bins[b] / top_bin;
    const char* color = b < 4 ? kColors[2] : b < 7 ? kColors[1] : kColors[0];
    out += fmt::format(R"(<rect x="{:.0f}" y="{:.1f}" width="{:.0f}" height="{:.1f}" fill="{}"/>)", 10 + b * bw,
                       ch - h + 14, bw - 4, h, color);
    out += fmt::format(R"(<text x="{:.0f}" y="{:.1f}" text-anchor="middle">{}</text>)", 10 + b * bw + bw / 2 - 2,
                       ch - h + 10, bins[b]);
    out += fmt::format(R"(<text x="{:.0f}" y="{:.0f}" text-anchor="middle">{:.1f}–{:.1f}</text>)",
                       10 + b * bw + bw / 2 - 2, ch + 30, b / 10.0, (b + 1) / 10.0);
  }
  out += "</svg>\n";

  size_t n = std::min(o.top, least.size());
  out += fmt::format(
      "<h2>Least natural names ({} of {})</h2>\n<table><tr><th>name</th><th>table</th><th>level</th>"
      "<th>p Regular</th><th>p Low</th><th>p Least</th></tr>\n",
      n, least.size());
  for (size_t i = 0; i < n; ++i) {
    const NameScore& s = *least[i];
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td class=n>{:.3f}</td><td class=n>{:.3f}</td>"
        "<td class=n>{:.3f}</td></tr>\n",
        HtmlEscape(s.name), s.column.empty() ? "(a table)" : HtmlEscape(s.table), LevelCode(s.prediction.level),
        s.prediction.p[0], s.prediction.p[1], s.prediction.p[2]);
  }
  out += "</table>\n";
  out += fmt::format("<h2>Warnings ({})</h2>\n<ul>\n", p.warnings.size());
  for (const auto& w : p.warnings)
    out += "<li class=\"warn\">[" + HtmlEscape(w.kind) + "] " + HtmlEscape(w.message) + "</li>\n";
  if (p.warnings.empty()) out += "<li>none</li>\n";
  out += "</ul>\n<h2>What to do next</h2>\n<ul>\n";
  for (const auto& a : Advice(p)) out += "<li>" + HtmlEscape(a) + "</li>\n";
  out +=
      "</ul>\n<h2>Every table</h2>\n<table><tr><th>table</th><th>name level</th><th>columns</th><th>Regular</th>"
      "<th>Low</th><th>Least</th><th>combined</th></tr>\n";
  for (const auto& t : p.table_profiles) {
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td>"
        "<td class=n>{}</td><td class=n>{:.3f}</td></tr>\n",
        HtmlEscape(t.name), LevelCode(t.table_name.prediction.level), t.columns.size(), t.column_counts.regular,
        t.column_counts.low, t.column_counts.least, t.all.Combined());
  }
  out += "</table>\n<p>Generated by plainsql profile.</p>\n</body></html>\n";
  return out;
}

}  // namespace

std::string RenderProfile(const SchemaProfile& profile, ProfileFormat format, const ReportOptions& options) {
  switch (format) {
    case ProfileFormat::kText: return Text(profile, options);
    case ProfileFormat::kJson: return Json(profile);
    case ProfileFormat::kCsv: return Csv(profile);
    case ProfileFormat::kHtml: return HtmlReport(profile, options);
  }
  return {};
}

}  // namespace plainsql::naturalness
