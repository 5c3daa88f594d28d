// The HTML report of runs (see report.h).
#include "eval/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/html.h"
#include "common/strings.h"
#include "eval/stats.h"
#include "eval/systems.h"

namespace plainsql::eval {

namespace {

constexpr const char* kColors[] = {"#3b6ea5", "#d9822b", "#4a9b5f", "#a0458f", "#8c7a2b", "#555555"};
constexpr size_t kColorCount = sizeof(kColors) / sizeof(kColors[0]);

struct Rate {
  size_t n = 0;
  double value = 0;
  Interval ci;
};

// The share of questions where `pick` holds, among those where `counts` holds, with a bootstrap interval.
template <typename Counts, typename Pick>
Rate RateOf(const std::vector<QuestionScore>& scores, Counts counts, Pick pick) {
  std::vector<double> outcomes;
  for (const auto& s : scores) {
    if (counts(s)) outcomes.push_back(pick(s) ? 1.0 : 0.0);
  }
  Rate r;
  r.n = outcomes.size();
  if (r.n == 0) return r;
  double sum = 0;
  for (double v : outcomes) sum += v;
  r.value = sum / static_cast<double>(r.n);
  r.ci = BootstrapInterval(outcomes);
  return r;
}

std::string RateCell(const Rate& r) {
  if (r.n == 0) return "<td>–</td>";
  return fmt::format("<td>{:.3f} <small>[{:.3f}, {:.3f}]</small></td>", r.value, r.ci.low, r.ci.high);
}

bool Executed(const QuestionScore& s) { return s.ex_strict.has_value(); }

std::string RunLabel(const ReportRun& r) { return HtmlEscape(r.info.spec.name.empty() ? r.info.id : r.info.spec.name); }

// A grouped bar chart: one group per label, one bar per run, each with its interval.
std::string BarChart(const std::vector<std::string>& labels, const std::vector<std::vector<Rate>>& series,
                     const std::string& aria) {
  const double bar = 22, gap = 18, height = 180, top = 10, left = 40;
  // A group is as wide as its bars, or as its longest label (about 6.5 px a character at 11 px).
  size_t longest = 0;
  for (const auto& l : labels) longest = std::max(longest, l.size());
  double group = std::max(bar * static_cast<double>(series.size()) + gap, 6.5 * static_cast<double>(longest) + 8);
  double width = left + group * static_cast<double>(labels.size()) + 10;
  std::string out = fmt::format(R"(<svg width="{:.0f}" height="{:.0f}" role="img" aria-label="{}">)", width,
                                height + 40, HtmlEscape(aria));
  for (int t = 0; t <= 4; ++t) {
    double y = top + height - height * t / 4.0;
    out += fmt::format(R"(<line x1="{:.0f}" x2="{:.0f}" y1="{:.1f}" y2="{:.1f}" stroke="#ddd"/>)", left, width, y, y);
    out += fmt::format(R"(<text x="4" y="{:.1f}">{:.2f}</text>)", y + 4, t / 4.0);
  }
  for (size_t g = 0; g < labels.size(); ++g) {
    double x0 = left + group * static_cast<double>(g) + gap / 2;
    for (size_t k = 0; k < series.size(); ++k) {
      const Rate& r = series[k][g];
      if (r.n == 0) continue;
      double x = x0 + bar * static_cast<double>(k), h = height * r.value;
      out += fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.0f}" height="{:.1f}" fill="{}"><title>{:.3f} (n={})</title></rect>)",
          x, top + height - h, bar - 3, h, kColors[k % kColorCount], r.value, r.n);
      double ylo = top + height - height * r.ci.low, yhi = top + height - height * r.ci.high;
      double xm = x + (bar - 3) / 2;
      out += fmt::format(R"(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="#222"/>)", xm, xm, ylo, yhi);
    }
    out += fmt::format(R"(<text x="{:.1f}" y="{:.0f}">{}</text>)", x0, top + height + 16, HtmlEscape(labels[g]));
  }
  return out + "</svg>\n";
}

std::string Histogram(const std::vector<double>& values, const std::string& unit, const std::string& aria) {
  if (values.empty()) return "<p>No values.</p>\n";
  std::vector<double> v = values;
  std::sort(v.begin(), v.end());
  // Logarithmic bins: latencies span orders of magnitude.
  double lo = std::max(v.front(), 0.01), hi = std::max(v.back(), lo * 1.01);
  const int bins = 20;
  std::vector<int> counts(bins, 0);
  double span = std::log10(hi) - std::log10(lo);
  for (double x : v) {
    int b = span > 0 ? static_cast<int>((std::log10(std::max(x, lo)) - std::log10(lo)) / span * bins) : 0;
    counts[static_cast<size_t>(std::clamp(b, 0, bins - 1))]++;
  }
  int most = *std::max_element(counts.begin(), counts.end());
  const double w = 18, height = 120, left = 10;
  std::string out = fmt::format(R"(<svg width="{:.0f}" height="{:.0f}" role="img" aria-label="{}">)",
                                left + w * bins + 10, height + 30, HtmlEscape(aria));
  for (int b = 0; b < bins; ++b) {
    double h = most ? height * counts[static_cast<size_t>(b)] / most : 0;
    double from = std::pow(10, std::log10(lo) + span * b / bins),
           to = std::pow(10, std::log10(lo) + span * (b + 1) / bins);
    out += fmt::format(
        R"(<rect x="{:.0f}" y="{:.1f}" width="{:.0f}" height="{:.1f}" fill="{}"><title>{:.3g}–{:.3g} {}: {}</title></rect>)",
        left + w * b, height - h + 5, w - 2, h, kColors[0], from, to, unit, counts[static_cast<size_t>(b)]);
  }
  out += fmt::format(R"(<text x="{:.0f}" y="{:.0f}">{:.3g} {}</text>)", left, height + 22, lo, unit);
  out += fmt::format(R"(<text x="{:.0f}" y="{:.0f}" text-anchor="end">{:.3g} {}</text>)", left + w * bins, height + 22,
                     hi, unit);
  out += "</svg>\n";
  auto pct = [&](double q) { return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1))]; };
  out += fmt::format("<p>median {:.3g} {u}, 90th percentile {:.3g} {u}, maximum {:.3g} {u} ({} questions)</p>\n",
                     pct(0.5), pct(0.9), v.back(), v.size(), fmt::arg("u", unit));
  return out;
}

}  // namespace

std::string ErrorCategory(const QuestionScore& s) {
  if (!s.ex_strict) return "not executed";
  if (*s.ex_strict) return "correct";
  std::string e = ToLower(s.error);
  if (e.empty()) return "wrong result";
  if (e == "no prediction") return "no prediction";
  if (e.starts_with("does not parse")) return "does not parse";
  if (e.find("no such table") != std::string::npos || e.find("no such column") != std::string::npos ||
      e.find("does not exist") != std::string::npos || e.find("ambiguous column") != std::string::npos) {
    return "unknown table or column";
  }
  if (e.find("timeout") != std::string::npos || e.find("ran past") != std::string::npos) return "timeout";
  if (e.find("refused") != std::string::npos) return "refused (not read-only)";
  return "other SQL error";
}

namespace {

using Runs = std::vector<const ReportRun*>;

// "<table><tr><th>FIRST</th>" and one header cell per run ("LABEL SUFFIX").
std::string TableHead(const Runs& runs, std::string_view first, std::string_view suffix) {
  std::string out = fmt::format("<table><tr><th>{}</th>", first);
  for (const auto* r : runs) out += "<th>" + RunLabel(*r) + std::string(suffix) + "</th>";
  return out + "</tr>\n";
}

// A rate with its count, or a dash when nothing counted.
std::string CountCell(const Rate& r) {
  return r.n ? fmt::format("<td>{:.3f} <small>({})</small></td>", r.value, r.n) : "<td>–</td>";
}

// A chart of rates by class, with the table of the same numbers under it.
std::string ChartAndTable(const Runs& runs, const std::vector<std::string>& classes,
                          const std::vector<std::vector<Rate>>& series, std::string_view what, std::string_view aria) {
  std::string out = BarChart(classes, series, std::string(aria));
  out += TableHead(runs, what, " (n)");
  for (size_t c = 0; c < classes.size(); ++c) {
    out += "<tr><td>" + HtmlEscape(classes[c]) + "</td>";
    for (const auto& rates : series) out += CountCell(rates[c]);
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

// The page up to its title: one style for every report.
std::string PageStart(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + HtmlEscape(title) +
         "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:70em;color:#222}"
         "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
         "text-align:right}th:first-child,td:first-child{text-align:left}small{color:#666}"
         "svg text{font-size:11px}.key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}"
         "</style></head><body>\n<h1>" +
         HtmlEscape(title) + "</h1>\n";
}

std::string Header(const Runs& runs, const std::string& title) {
  std::string out = PageStart(title);
  for (size_t k = 0; k < runs.size(); ++k) {
    const RunInfo& i = runs[k]->info;
    out += fmt::format(
        "<p class=\"key\"><span style=\"background:{}\"></span><b>{}</b>{} — {} on {} <code>{}</code>, system "
        "<code>{}</code>; {} of {} questions recorded ({}); created {}</p>\n",
        kColors[k % kColorCount], HtmlEscape(i.id), i.spec.name.empty() ? "" : " “" + HtmlEscape(i.spec.name) + "”",
        HtmlEscape(i.status), HtmlEscape(i.spec.benchmark), HtmlEscape(i.spec.questions),
        HtmlEscape(SystemLabel(i.spec.system)), i.done, i.total, HtmlEscape(i.status), HtmlEscape(i.created));
  }
  return out;
}

// Overall, every metric with its interval; with two runs, McNemar's test.
std::string AccuracySection(const Runs& runs) {
  std::string out = "<h2>Accuracy</h2>\n" + TableHead(runs, "metric", "");
  struct Metric {
    const char* name;
    bool (*counts)(const QuestionScore&);
    bool (*pick)(const QuestionScore&);
  };
  const Metric metrics[] = {
      {"EX strict", Executed, [](const QuestionScore& s) { return *s.ex_strict; }},
      {"EX relaxed", Executed, [](const QuestionScore& s) { return s.ex_relaxed.value_or(false); }},
      {"EX Jaccard", Executed, [](const QuestionScore& s) { return s.ex_jaccard.value_or(false); }},
      {"EM", [](const QuestionScore&) { return true; }, [](const QuestionScore& s) { return s.em; }},
      {"QueryRecall = 1", [](const QuestionScore& s) { return s.linked; },
       [](const QuestionScore& s) { return s.linking.recall >= 1.0; }},
  };
  for (const auto& m : metrics) {
    out += std::string("<tr><td>") + m.name + "</td>";
    for (const auto* r : runs) out += RateCell(RateOf(r->scores, m.counts, m.pick));
    out += "</tr>\n";
  }
  out += "</table>\n<p><small>Intervals: 95 % percentile bootstrap, 1,000 resamples.</small></p>\n";
  if (runs.size() == 2) {
    nlohmann::ordered_json c = CompareRuns(runs[0]->scores, runs[1]->scores);
    out += fmt::format(
        "<p>On the {} questions both runs executed: only the first right on {}, only the second on {}; McNemar "
        "p = {:.3g}.</p>\n",
        c["questions"].get<int64_t>(), c["only_a_right"].get<int64_t>(), c["only_b_right"].get<int64_t>(),
        c["mcnemar_p"].get<double>());
  }
  return out;
}

std::string DifficultySection(const Runs& runs) {
  std::vector<std::string> classes;
  for (const char* k : {"easy", "medium", "hard", "extra", "simple", "moderate", "challenging"}) {
    bool any = false;
    for (const auto* r : runs) {
      any |= std::any_of(r->scores.begin(), r->scores.end(), [&](const QuestionScore& s) { return s.difficulty == k; });
    }
    if (any) classes.emplace_back(k);
  }
  std::vector<std::vector<Rate>> series;
  for (const auto* r : runs) {
    std::vector<Rate> rates;
    rates.reserve(classes.size());
    for (const auto& c : classes) {
      rates.push_back(RateOf(
          r->scores, [&](const QuestionScore& s) { return Executed(s) && s.difficulty == c; },
          [](const QuestionScore& s) { return *s.ex_strict; }));
    }
    series.push_back(std::move(rates));
  }
  return "<h2>EX strict by difficulty</h2>\n" +
         ChartAndTable(runs, classes, series, "difficulty", "EX strict by difficulty");
}

bool HasNaturalness(const ReportRun& r) { return r.statistics.contains("naturalness"); }

// EX strict by the naturalness level of the gold query's least natural identifier, as RunStatistics gives it.
std::string LevelChart(const Runs& runs) {
  std::vector<std::string> levels;
  for (const char* level : {"Regular", "Low", "Least"}) {
    if (std::any_of(runs.begin(), runs.end(), [&](const ReportRun* r) {
          return HasNaturalness(*r) && r->statistics["naturalness"]["by_least_level"].contains(level);
        })) {
      levels.emplace_back(level);
    }
  }
  if (levels.empty()) return "<p>No executed question with resolved gold identifiers.</p>\n";
  std::vector<std::vector<Rate>> by_level;
  for (const auto* r : runs) {
    std::vector<Rate> rates(levels.size());
    for (size_t l = 0; l < levels.size() && HasNaturalness(*r); ++l) {
      const auto& j = r->statistics["naturalness"]["by_least_level"];
      if (!j.contains(levels[l]) || j[levels[l]]["n"].get<size_t>() == 0) continue;
      const auto& v = j[levels[l]];
      rates[l].n = v["n"].get<size_t>();
      rates[l].value = v["value"].get<double>();
      rates[l].ci = {v["ci95"][0].get<double>(), v["ci95"][1].get<double>()};
    }
    by_level.push_back(std::move(rates));
  }
  return ChartAndTable(runs, levels, by_level, "least natural identifier", "EX strict by naturalness level");
}

std::string KendallLines(const Runs& runs) {
  std::string out;
  for (const auto* r : runs) {
    if (!HasNaturalness(*r)) continue;
    const auto& n = r->statistics["naturalness"];
    if (n["questions"].get<size_t>() < 2 || n["kendall_tau"].is_null()) continue;
    out += fmt::format(
        "<p>{}: Kendall's τ between a question's naturalness and its success = {:.3f} (p = {:.3g}, {} "
        "questions).</p>\n",
        RunLabel(*r), n["kendall_tau"].get<double>(), n["p_value"].get<double>(), n["questions"].get<size_t>());
  }
  return out;
}

// IdentifierRecall (SNAILS) by the level of the identifier's own name.
std::string IdentifierRecallTable(const Runs& runs) {
  std::string out =
      "<h3>IdentifierRecall by naturalness level</h3>\n" + TableHead(runs, "identifier's level", " (identifiers)");
  for (const char* level : {"Regular", "Low", "Least", "all"}) {
    std::string row = std::string("<tr><td>") + level + "</td>";
    bool any = false;
    for (const auto* r : runs) {
      const nlohmann::ordered_json* j = nullptr;
      if (r->statistics.contains("identifier_recall")) {
        const auto& ir = r->statistics["identifier_recall"];
        if (std::string_view(level) == "all") {
          j = &ir;
        } else if (ir["by_level"].contains(level)) {
          j = &ir["by_level"][level];
        }
      }
      if (!j || (*j)["mean"].is_null()) {
        row += "<td>–</td>";
        continue;
      }
      any = true;
      row += fmt::format("<td>{:.3f} <small>({})</small></td>", (*j)["mean"].get<double>(),
                         (*j)["identifiers"].get<size_t>());
    }
    if (any) out += row + "</tr>\n";
  }
  return out + "</table>\n";
}

std::string NaturalnessSection(const Runs& runs) {
  if (std::none_of(runs.begin(), runs.end(), [](const ReportRun* r) { return HasNaturalness(*r); })) return "";
  return "<h2>EX strict by naturalness</h2>\n" + LevelChart(runs) + KendallLines(runs) + IdentifierRecallTable(runs) +
         "<p><small>A question's level is that of the least natural table or column name its gold query reads; its "
         "naturalness is the mean name score, P(Regular) + ½ P(Low), of those names. IdentifierRecall: for each "
         "table or column the gold queries read, the share of those questions whose prediction reads it too, averaged "
         "over the identifiers.</small></p>\n";
}

// By database, worst first for the first run.
std::string DatabaseSection(const Runs& runs) {
  std::map<std::string, std::vector<std::pair<int, int>>> by_db;  // db -> (right, executed) per run
  for (size_t k = 0; k < runs.size(); ++k) {
    for (const auto& s : runs[k]->scores) {
      if (!Executed(s)) continue;
      auto& counts = by_db[s.db_id];
      counts.resize(runs.size());
      counts[k].first += *s.ex_strict ? 1 : 0;
      counts[k].second += 1;
    }
  }
  auto rate_of = [](const std::pair<int, int>& c) {
    return c.second ? static_cast<double>(c.first) / c.second : 2.0;  // runs without the database sort last
  };
  std::vector<std::pair<double, std::string>> dbs;
  dbs.reserve(by_db.size());
  for (const auto& [db, c] : by_db) dbs.emplace_back(rate_of(c[0]), db);
  std::sort(dbs.begin(), dbs.end());
  std::string out = "<h2>EX strict by database</h2>\n" + TableHead(runs, "database", " (n)");
  for (const auto& [rate, db] : dbs) {
    out += "<tr><td>" + HtmlEscape(db) + "</td>";
    for (const auto& c : by_db[db]) {
      out += c.second ? fmt::format("<td>{:.3f} <small>({})</small></td>", rate_of(c), c.second) : "<td>–</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string OutcomesSection(const Runs& runs) {
  std::string out = "<h2>Outcomes</h2>\n" + TableHead(runs, "outcome", "");
  std::vector<std::map<std::string, int>> cats(runs.size());
  const std::vector<std::string> names = {"correct",         "wrong result",
                                          "does not parse",  "unknown table or column",
                                          "timeout",         "refused (not read-only)",
                                          "other SQL error", "no prediction",
                                          "not executed"};
  for (size_t k = 0; k < runs.size(); ++k) {
    for (const auto& s : runs[k]->scores) cats[k][ErrorCategory(s)]++;
  }
  for (const auto& n : names) {
    if (std::all_of(cats.begin(), cats.end(), [&](const auto& m) { return !m.count(n); })) continue;
    out += "<tr><td>" + n + "</td>";
    for (const auto& m : cats) out += fmt::format("<td>{}</td>", m.count(n) ? m.at(n) : 0);
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string LatencySection(const Runs& runs) {
  std::string out = "<h2>Latency per question</h2>\n";
  for (const auto* r : runs) {
    std::vector<double> ms;
    ms.reserve(r->scores.size());
    for (const auto& s : r->scores) ms.push_back(s.latency_ms);
    out += "<h3>" + HtmlEscape(r->info.id) + "</h3>\n" + Histogram(ms, "ms", "latency distribution");
  }
  return out +
         "<p><small>Latency is the whole question: the system's answer and the scoring (both queries run).</small>"
         "</p>\n";
}

// Cost per stage, as RunStatistics sums it.
std::string StagesSection(const Runs& runs) {
  std::vector<std::string> stage_names;
  for (const auto* r : runs) {
    if (!r->statistics.contains("stages")) continue;
    for (const auto& [name, v] : r->statistics["stages"].items()) {
      if (std::find(stage_names.begin(), stage_names.end(), name) == stage_names.end()) stage_names.push_back(name);
    }
  }
  if (stage_names.empty()) return "";
  std::string out = "<h2>Cost per stage</h2>\n<table><tr><th>stage</th>";
  for (const auto* r : runs) {
    out +=
        "<th>" + RunLabel(*r) + ": median ms</th><th>90th pct. ms</th><th>prompt tokens</th><th>completion tokens</th>";
  }
  out += "</tr>\n";
  for (const auto& name : stage_names) {
    out += "<tr><td>" + HtmlEscape(name) + "</td>";
    for (const auto* r : runs) {
      if (!r->statistics.contains("stages") || !r->statistics["stages"].contains(name)) {
        out += "<td>–</td><td>–</td><td>–</td><td>–</td>";
        continue;
      }
      const auto& st = r->statistics["stages"][name];
      out += fmt::format("<td>{:.3g}</td><td>{:.3g}</td><td>{}</td><td>{}</td>", st["median_ms"].get<double>(),
                         st["p90_ms"].get<double>(), st["prompt_tokens"].get<int64_t>(),
                         st["completion_tokens"].get<int64_t>());
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

// The distribution of LLM tokens per question, for runs whose system used an LLM.
std::string TokensSection(const Runs& runs) {
  std::string out = "<h2>Tokens per question</h2>\n";
  bool any_tokens = false;
  for (const auto* r : runs) {
    std::vector<double> tokens;
    tokens.reserve(r->scores.size());
    int64_t sum_all = 0;
    for (const auto& s : r->scores) {
      int64_t t = 0;
      for (const auto& c : s.stages) t += c.prompt_tokens + c.completion_tokens;
      sum_all += t;
      tokens.push_back(static_cast<double>(t));
    }
    if (sum_all == 0) continue;
    any_tokens = true;
    out += "<h3>" + HtmlEscape(r->info.id) + "</h3>\n" + Histogram(tokens, "tokens", "token distribution");
  }
  if (!any_tokens) out += "<p>No LLM tokens recorded: the systems compared here made no LLM calls.</p>\n";
  return out;
}

Result<ReportRun> LoadReportRun(RunStore& store, const std::string& id, const naturalness::Classifier& classifier) {
  auto info = store.GetRun(id);
  if (!info) return info.error();
  auto scores = store.Scores(info->id);
  if (!scores) return scores.error();
  nlohmann::ordered_json statistics = RunStatistics(*scores, classifier, ShownNames(info->spec.system));
  return ReportRun{std::move(*info), std::move(*scores), std::move(statistics)};
}

}  // namespace

std::string RunReportHtml(const ReportRun& run, const ReportRun* other) {
  Runs runs = {&run};
  if (other) runs.push_back(other);
  std::string title =
      other ? fmt::format("plainsql: {} vs {}", run.info.id, other->info.id) : fmt::format("plainsql: {}", run.info.id);
  return Header(runs, title) + AccuracySection(runs) + DifficultySection(runs) + NaturalnessSection(runs) +
         DatabaseSection(runs) + OutcomesSection(runs) + LatencySection(runs) + StagesSection(runs) +
         TokensSection(runs) + "</body></html>\n";
}

Result<std::string> RunReportHtml(RunStore& store, const std::string& run, const std::string& other,
                                  const naturalness::Classifier& classifier) {
  auto first = LoadReportRun(store, run, classifier);
  if (!first) return first.error();
  if (other.empty()) return RunReportHtml(*first);
  auto second = LoadReportRun(store, other, classifier);
  if (!second) return second.error();
  return RunReportHtml(*first, &*second);
}

namespace {

// The size categories with scored questions, then all questions, as (label, summary entry).
std::vector<std::pair<std::string, const nlohmann::ordered_json*>> SubsetGroups(const nlohmann::ordered_json& summary) {
  std::vector<std::pair<std::string, const nlohmann::ordered_json*>> groups;
  for (const auto& [name, g] : summary["by_size"].items()) {
    if (g["scored"].get<size_t>() > 0) groups.emplace_back(name, &g);
  }
  groups.emplace_back("all", &summary);
  return groups;
}

// SKALPEL's Table 3 layout: one row per metric, one column per size category.
std::string SubsetTable(const nlohmann::ordered_json& summary) {
  auto groups = SubsetGroups(summary);
  std::string out = "<table><tr><th>schema size (columns)</th>";
  for (const auto& [name, g] : groups) {
    out += fmt::format("<th>{}<br><small>{}</small></th>", HtmlEscape(name),
                       HtmlEscape(g->contains("columns") ? (*g)["columns"].get<std::string>() : "any"));
  }
  out += "</tr>\n<tr><td>questions</td>";
  for (const auto& [name, g] : groups) out += fmt::format("<td>{}</td>", (*g)["scored"].get<size_t>());
  out += "</tr>\n";
  auto cell = [](const nlohmann::ordered_json& v, const char* format) {
    return v.is_null() ? std::string("<td>–</td>")
                       : "<td>" + fmt::format(fmt::runtime(format), v.get<double>()) + "</td>";
  };
  for (const auto& [key, label] : kSubsetRateRows) {
    out += fmt::format("<tr><td>{}</td>", label);
    for (const auto& [name, g] : groups) out += cell((*g)[key], "{:.3f}");
    out += "</tr>\n";
  }
  for (const auto& [key, label] : {std::pair{"tokens", "tokens (mean)"}, {"schema_tokens", "schema tokens (mean)"}}) {
    out += fmt::format("<tr><td>{}</td>", label);
    for (const auto& [name, g] : groups) out += cell((*g)[key], "{:.0f}");
    out += "</tr>\n";
  }
  if (summary["ms"]["timed"].get<size_t>() > 0) {
    for (const char* k : {"mean", "p50", "p99"}) {
      out += fmt::format("<tr><td>time, ms ({})</td>", k);
      for (const auto& [name, g] : groups) out += cell((*g)["ms"][k], "{:.1f}");
      out += "</tr>\n";
    }
  }
  return out + "</table>\n";
}

// PRe by size category with bootstrap intervals, from the per-question "perfect" flags.
std::string SubsetChart(const nlohmann::ordered_json& subsets) {
  std::map<std::string, std::vector<double>> perfect;
  for (const auto& q : subsets["questions"]) {
    if (!q.contains("perfect")) continue;
    double v = q["perfect"].get<bool>() ? 1.0 : 0.0;
    perfect[q["size"].get<std::string>()].push_back(v);
    perfect["all"].push_back(v);
  }
  std::vector<std::string> labels;
  std::vector<Rate> rates;
  for (const auto& [name, g] : SubsetGroups(subsets["summary"])) {
    const auto& v = perfect[name];
    Rate r;
    r.n = v.size();
    if (r.n == 0) continue;
    for (double x : v) r.value += x;
    r.value /= static_cast<double>(r.n);
    r.ci = BootstrapInterval(v);
    labels.push_back(name);
    rates.push_back(r);
  }
  return BarChart(labels, {rates}, "perfect recall by schema size");
}

// The questions whose subset misses gold elements, with what it misses (at most 200 rows).
std::string MissesTable(const nlohmann::ordered_json& subsets) {
  std::string rows;
  size_t shown = 0, total = 0;
  for (const auto& q : subsets["questions"]) {
    if (!q.contains("missing") || q["missing"].empty()) continue;
    if (++total > 200) continue;
    ++shown;
    std::vector<std::string> missing;
    for (const auto& m : q["missing"]) missing.push_back(m.get<std::string>());
    rows += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", q["index"].get<size_t>(),
                        HtmlEscape(q["db_id"].get<std::string>()), HtmlEscape(q["size"].get<std::string>()),
                        HtmlEscape(Join(missing, ", ")));
  }
  if (total == 0) return "<p>Every scored subset keeps every gold table and column.</p>\n";
  std::string out =
      fmt::format("<p>{} questions{}:</p>\n", total, shown < total ? fmt::format(" (the first {} shown)", shown) : "");
  return out + "<table><tr><th>question</th><th>database</th><th>size</th><th>gold elements missing</th></tr>\n" +
         rows + "</table>\n";
}

}  // namespace

std::string SubsetReportHtml(const nlohmann::ordered_json& subsets, const std::string& subsets_file,
                             const std::string& questions) {
  const auto& summary = subsets["summary"];
  std::string out = PageStart("Schema subsets");
  out += fmt::format(
      "<p>Subsets <code>{}</code> scored against the gold queries of <code>{}</code>: {} questions, {} scored. Size "
      "categories by the schema's columns, as SKALPEL's Table 3; tokens estimate the prompt's schema text "
      "(prompt DDL without sample values) of the subset with its join keys, and of the whole schema.</p>\n",
      HtmlEscape(subsets_file), HtmlEscape(questions), summary["questions"].get<size_t>(),
      summary["scored"].get<size_t>());
  out += "<h2>By schema size</h2>\n" + SubsetTable(summary);
  out += "<h2>Perfect recall</h2>\n" + SubsetChart(subsets);
  out += "<h2>Subsets that miss gold elements</h2>\n" + MissesTable(subsets);
  return out + "</body></html>\n";
}

std::string LevelsReportHtml(const nlohmann::ordered_json& comparison) {
  const auto& runs = comparison["runs"];
  auto number = [](const nlohmann::ordered_json& v) { return v.is_number() ? v.get<double>() : 0.0; };
  auto cell = [](const nlohmann::ordered_json& v, const char* format) {
    return v.is_number() ? fmt::format(fmt::runtime(format), v.get<double>()) : std::string("–");
  };
  // A run is shown by its level, and by its name too when two runs share a level.
  std::map<std::string, int> level_count;
  for (const auto& r : runs) ++level_count[r["level"].get<std::string>()];
  std::vector<std::string> labels;
  for (const auto& r : runs) {
    std::string label = r["level"].get<std::string>();
    const std::string name =
        r["name"].get<std::string>().empty() ? r["run"].get<std::string>() : r["name"].get<std::string>();
    if (level_count[label] > 1) label += " (" + name + ")";
    labels.push_back(std::move(label));
  }
  std::string out = PageStart("EX and query recall by naming level");
  out += "<p class=\"key\">";
  for (size_t k = 0; k < labels.size(); ++k) {
    const auto& r = runs[k];
    out += fmt::format("<span style=\"background:{}\"></span><b>{}</b> run <code>{}</code>", kColors[k % kColorCount],
                       HtmlEscape(labels[k]), HtmlEscape(r["run"].get<std::string>()));
  }
  out += "</p>\n<h2>EX strict by naming level</h2>\n";
  std::vector<Rate> ex;
  for (const auto& r : runs) {
    const auto& e = r["ex_strict"];
    Rate rate;
    rate.n = e.value("n", size_t{0});
    rate.value = number(e["value"]);
    if (e.contains("ci95")) rate.ci = {e["ci95"][0].get<double>(), e["ci95"][1].get<double>()};
    ex.push_back(rate);
  }
  out += BarChart(labels, {ex}, "EX strict by naming level, with 95% bootstrap intervals");
  // The query metrics are means over the questions (no interval): each run a bar per metric.
  out += "<h2>Query and identifier recall by naming level</h2>\n";
  const std::vector<std::pair<std::string, const char*>> metrics = {{"QueryRecall", "query_recall"},
                                                                    {"QueryPrecision", "query_precision"},
                                                                    {"QueryF1", "query_f1"},
                                                                    {"IdentifierRecall", "identifier_recall"}};
  std::vector<std::string> metric_names;
  metric_names.reserve(metrics.size());
  for (const auto& m : metrics) metric_names.push_back(m.first);
  std::vector<std::vector<Rate>> by_run;
  by_run.reserve(runs.size());
  for (size_t k = 0; k < runs.size(); ++k) {
    std::vector<Rate> rates;
    rates.reserve(metrics.size());
    for (const auto& m : metrics) {
      Rate rate;
      rate.n = ex[k].n;
      rate.value = number(runs[k][m.second]);
      rate.ci = {rate.value, rate.value};
      rates.push_back(rate);
    }
    by_run.push_back(std::move(rates));
  }
  out += BarChart(metric_names, by_run, "query and identifier recall by naming level");
  out +=
      "<table><tr><th>level</th><th>questions</th><th>EX strict</th><th>QueryRecall</th><th>QueryPrecision</th>"
      "<th>QueryF1</th><th>IdentifierRecall</th><th>τ (naturalness, EX)</th></tr>\n";
  for (size_t k = 0; k < runs.size(); ++k) {
    const auto& r = runs[k];
    out += "<tr><td>" + HtmlEscape(labels[k]) + fmt::format("</td><td>{}</td>", ex[k].n) + RateCell(ex[k]);
    for (const auto& m : metrics) out += "<td>" + cell(r[m.second], "{:.3f}") + "</td>";
    out += "<td>" + cell(r["naturalness_vs_ex"]["kendall_tau"], "{:+.3f}") + "</td></tr>\n";
  }
  out += "</table>\n";
  out += fmt::format(
      "<h2>Kendall's τ of each level's share of the gold identifiers</h2>\n<p>Pooled over the runs ({} questions: "
      "the same questions under other names); the share of Regular, Low and Least names among each question's gold "
      "identifiers, as the system saw them, against its outcome; p-value in brackets.</p>\n",
      comparison["pooled"]["questions"].get<size_t>());
  out +=
      "<table><tr><th>names</th><th>EX strict</th><th>QueryRecall</th><th>QueryPrecision</th><th>QueryF1</th>"
      "</tr>\n";
  for (const auto& item : comparison["pooled"]["shares"].items()) {
    out += "<tr><td>" + HtmlEscape(item.key()) + "</td>";
    for (const char* key : {"ex_strict", "query_recall", "query_precision", "query_f1"}) {
      const auto& t = item.value()[key];
      out += t["kendall_tau"].is_number() ? fmt::format("<td>{:+.3f} <small>[{:.1e}]</small></td>",
                                                        t["kendall_tau"].get<double>(), t["p_value"].get<double>())
                                          : std::string("<td>–</td>");
    }
    out += "</tr>\n";
  }
  return out + "</table>\n</body></html>\n";
}

}  // namespace plainsql::eval
