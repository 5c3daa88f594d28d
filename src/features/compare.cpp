// Benchmark composition: shares, chi-square tests and the distinctive features of each set.
#include "features/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "common/html.h"

namespace plainsql::features {

Result<FeatureSet> ReadFeatureLines(const std::string& path, const std::string& name) {
  std::ifstream in(path);
  if (!in) return MakeError(ErrorCode::kNotFound, "cannot read " + path);
  FeatureSet set{name, {}};
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("features") || !j["features"].is_array()) {
      return MakeError(
          ErrorCode::kFormat,
          fmt::format("{}:{}: not a line of `plainsql features --json` (no \"features\" list)", path, number));
    }
    Values v(Catalog().size(), 0);
    for (const char* field : {"features", "unknown"}) {
      if (!j.contains(field)) continue;
      for (const auto& id : j[field]) {
        auto at = id.is_string() ? IndexOf(id.get<std::string>()) : std::nullopt;
        if (!at) {
          return MakeError(ErrorCode::kFormat, fmt::format("{}:{}: unknown feature {} (a file from another version?)",
                                                           path, number, id.dump()));
        }
        v[*at] = std::string_view(field) == "features" ? 1 : -1;
      }
    }
    set.rows.push_back(std::move(v));
  }
  if (set.rows.empty()) return MakeError(ErrorCode::kFormat, path + ": no examples");
  return set;
}

// The regularized upper incomplete gamma function Q(a, y), by its series below a + 1 and its continued fraction
// (modified Lentz) above: the two standard expansions. Written here because the C++ library has no incomplete gamma
// and the one Debian library that has it (GSL) is GPL and would be a dependency for one function.
double ChiSquareTail(double x, double df) {
  if (!(x > 0) || !(df > 0)) return 1.0;
  const double a = df / 2, y = x / 2;
  const double log_front = -y + a * std::log(y) - std::lgamma(a);
  constexpr double kEps = 1e-15, kTiny = 1e-300;
  if (y < a + 1) {
    double term = 1 / a, sum = term;
    for (int n = 1; n < 1000 && term > sum * kEps; ++n) {
      term *= y / (a + n);
      sum += term;
    }
    return std::clamp(1.0 - sum * std::exp(log_front), 0.0, 1.0);
  }
  double b = y + 1 - a, c = 1 / kTiny, d = 1 / b, h = d;
  for (int i = 1; i < 1000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < kEps) break;
  }
  return std::clamp(std::exp(log_front) * h, 0.0, 1.0);
}

namespace {

// Pearson's statistic of a table of (holds, does not) rows; rows with no examples are left out. Returns (chi2, df).
std::pair<double, double> ChiSquare(const std::vector<std::pair<double, double>>& rows) {
  double total = 0, yes = 0;
  size_t k = 0;
  for (auto [h, n] : rows) {
    if (h + n == 0) continue;
    total += h + n;
    yes += h;
    ++k;
  }
  if (k < 2 || yes == 0 || yes == total) return {0, 0};
  double chi2 = 0;
  for (auto [h, n] : rows) {
    const double size = h + n;
    if (size == 0) continue;
    const double eh = size * yes / total, en = size * (total - yes) / total;
    chi2 += (h - eh) * (h - eh) / eh + (n - en) * (n - en) / en;
  }
  return {chi2, static_cast<double>(k - 1)};
}

}  // namespace

Result<Composition> Compare(const std::vector<FeatureSet>& sets, size_t top) {
  if (sets.size() < 2) return MakeError(ErrorCode::kInvalidArgument, "compare needs two sets of examples or more");
  Composition c;
  const size_t features = Catalog().size();
  for (const auto& s : sets) {
    c.sets.push_back(s.name);
    c.sizes.push_back(s.rows.size());
  }
  for (size_t f = 0; f < features; ++f) {
    FeatureComparison fc;
    fc.feature = f;
    size_t with_data = 0;
    for (const auto& s : sets) {
      size_t holds = 0, known = 0;
      for (const auto& row : s.rows) {
        known += row[f] >= 0 ? 1 : 0;
        holds += row[f] == 1 ? 1 : 0;
      }
      fc.holds.push_back(holds);
      fc.known.push_back(known);
      with_data += known > 0 ? 1 : 0;
    }
    if (with_data < 2) continue;
    std::vector<std::pair<double, double>> table;
    for (size_t i = 0; i < sets.size(); ++i) {
      table.emplace_back(static_cast<double>(fc.holds[i]), static_cast<double>(fc.known[i] - fc.holds[i]));
    }
    auto [chi2, df] = ChiSquare(table);
    fc.chi2 = chi2;
    fc.p = df > 0 ? ChiSquareTail(chi2, df) : 1.0;
    c.features.push_back(std::move(fc));
  }
  const double alpha = 0.05 / static_cast<double>(std::max<size_t>(1, c.features.size()));
  for (auto& fc : c.features) fc.significant = fc.p < alpha;
  // Each set against the others together.
  c.distinctive.resize(sets.size());
  for (size_t i = 0; i < sets.size(); ++i) {
    std::vector<Distinctive> more, less;
    for (const auto& fc : c.features) {
      if (fc.known[i] == 0) continue;
      double oh = 0, on = 0;
      for (size_t j = 0; j < sets.size(); ++j) {
        if (j == i) continue;
        oh += static_cast<double>(fc.holds[j]);
        on += static_cast<double>(fc.known[j] - fc.holds[j]);
      }
      if (oh + on == 0) continue;
      auto [chi2, df] =
          ChiSquare({{static_cast<double>(fc.holds[i]), static_cast<double>(fc.known[i] - fc.holds[i])}, {oh, on}});
      const double p = df > 0 ? ChiSquareTail(chi2, df) : 1.0;
      if (p >= alpha) continue;
      Distinctive d{fc.feature, fc.Share(i), oh / (oh + on), p};
      (d.share > d.others ? more : less).push_back(d);
    }
    auto by_gap = [](const Distinctive& a, const Distinctive& b) {
      return std::fabs(a.share - a.others) > std::fabs(b.share - b.others);
    };
    std::sort(more.begin(), more.end(), by_gap);
    std::sort(less.begin(), less.end(), by_gap);
    if (more.size() > top) more.resize(top);
    if (less.size() > top) less.resize(top);
    c.distinctive[i] = more;
    c.distinctive[i].insert(c.distinctive[i].end(), less.begin(), less.end());
  }
  return c;
}

std::string CompositionText(const Composition& c) {
  std::string out = "feature                       ";
  for (size_t i = 0; i < c.sets.size(); ++i) out += fmt::format(" {:>12.12}", c.sets[i]);
  out += "        chi2         p\n";
  out += fmt::format("{:<30}", "examples");
  for (size_t n : c.sizes) out += fmt::format(" {:>12}", n);
  out += "\n";
  for (const auto& fc : c.features) {
    out += fmt::format("{:<30}", Catalog()[fc.feature].id);
    for (size_t i = 0; i < c.sets.size(); ++i) {
      out += fc.known[i] ? fmt::format(" {:>12.3f}", fc.Share(i)) : fmt::format(" {:>12}", "-");
    }
    out += fmt::format(" {:>11.1f} {:>9.2g}{}\n", fc.chi2, fc.p, fc.significant ? " *" : "");
  }
  out += fmt::format("* significant at 0.05 after Bonferroni over {} features\n", c.features.size());
  for (size_t i = 0; i < c.sets.size(); ++i) {
    out += fmt::format("\n{} against the others:\n", c.sets[i]);
    if (c.distinctive[i].empty()) out += "  (no feature differs significantly)\n";
    for (const auto& d : c.distinctive[i]) {
      out += fmt::format("  {} {:<28} {:.3f} vs {:.3f}  {}\n", d.share > d.others ? "more" : "less",
                         Catalog()[d.feature].id, d.share, d.others, Catalog()[d.feature].text);
    }
  }
  return out;
}

nlohmann::json CompositionJson(const Composition& c) {
  nlohmann::json j;
  j["sets"] = nlohmann::json::array();
  for (size_t i = 0; i < c.sets.size(); ++i) {
    nlohmann::json d = nlohmann::json::array();
    for (const auto& x : c.distinctive[i]) {
      d.push_back({{"feature", Catalog()[x.feature].id}, {"share", x.share}, {"others", x.others}, {"p", x.p}});
    }
    j["sets"].push_back({{"name", c.sets[i]}, {"examples", c.sizes[i]}, {"distinctive", d}});
  }
  j["features"] = nlohmann::json::array();
  for (const auto& fc : c.features) {
    nlohmann::json shares = nlohmann::json::array();
    for (size_t i = 0; i < c.sets.size(); ++i) {
      shares.push_back(fc.known[i] ? nlohmann::json(fc.Share(i)) : nlohmann::json(nullptr));
    }
    const auto& f = Catalog()[fc.feature];
    j["features"].push_back({{"id", f.id},
                             {"aspect", AspectName(f.aspect)},
                             {"text", f.text},
                             {"shares", shares},
                             {"holds", fc.holds},
                             {"known", fc.known},
                             {"chi2", fc.chi2},
                             {"p", fc.p},
                             {"significant", fc.significant}});
  }
  return j;
}

std::string CompositionHtml(const Composition& c) {
  static constexpr const char* kColors[] = {"#4878d0", "#ee854a", "#6acc64", "#d65f5f", "#956cb4", "#8c613c"};
  std::string out =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Benchmark composition</title><style>"
      "body{font-family:sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}"
      "td,th{padding:2px 8px;text-align:left;border-bottom:1px solid #ddd}.bar{height:10px;display:inline-block}"
      ".num{text-align:right;font-variant-numeric:tabular-nums}</style></head><body>\n<h1>Benchmark composition</h1>\n"
      "<p>Share of the examples in which each feature holds; a chi-square test of equal shares "
      "(* significant at 0.05 after Bonferroni).</p>\n<p>";
  for (size_t i = 0; i < c.sets.size(); ++i) {
    out += fmt::format("<span class=\"bar\" style=\"width:20px;background:{}\"></span> {} ({} examples) &nbsp; ",
                       kColors[i % 6], HtmlEscape(c.sets[i]), c.sizes[i]);
  }
  out += "</p>\n";
  auto bars = [&](const FeatureComparison& fc) {
    std::string b;
    for (size_t i = 0; i < c.sets.size(); ++i) {
      b += fmt::format("<div><span class=\"bar\" style=\"width:{:.0f}px;background:{}\"></span> {:.3f}</div>",
                       fc.Share(i) * 300, kColors[i % 6], fc.Share(i));
    }
    return b;
  };
  for (size_t i = 0; i < c.sets.size(); ++i) {
    out += fmt::format("<h2>What sets {} apart</h2>\n<table>\n", HtmlEscape(c.sets[i]));
    for (const auto& d : c.distinctive[i]) {
      for (const auto& fc : c.features) {
        if (fc.feature != d.feature) continue;
        out += fmt::format("<tr><td>{} <code>{}</code><br><small>{}</small></td><td>{}</td></tr>\n",
                           d.share > d.others ? "more" : "less", Catalog()[d.feature].id,
                           HtmlEscape(Catalog()[d.feature].text), bars(fc));
      }
    }
    out += "</table>\n";
  }
  out += "<h2>Every feature</h2>\n<table><tr><th>feature</th>";
  for (const auto& s : c.sets) out += "<th>" + HtmlEscape(s) + "</th>";
  out += "<th>chi2</th><th>p</th></tr>\n";
  for (const auto& fc : c.features) {
    out += fmt::format("<tr><td><code>{}</code>{}</td>", Catalog()[fc.feature].id, fc.significant ? " *" : "");
    for (size_t i = 0; i < c.sets.size(); ++i) {
      out += fc.known[i] ? fmt::format("<td class=\"num\">{:.3f}</td>", fc.Share(i)) : "<td>-</td>";
    }
    out += fmt::format("<td class=\"num\">{:.1f}</td><td class=\"num\">{:.2g}</td></tr>\n", fc.chi2, fc.p);
  }
  out += "</table>\n</body></html>\n";
  return out;
}

}  // namespace plainsql::features
