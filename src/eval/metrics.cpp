// Metrics of the NL-to-SQL papers (see metrics.h).
#include "eval/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "common/strings.h"
#include "exec/fingerprint.h"
#include "sql/rewrite/normalize.h"
#include "sql/rewrite/walk.h"

namespace plainsql::eval {

namespace {

using Table = std::vector<std::vector<std::string>>;  // rows of canonical value keys

Table Keys(const exec::ResultSet& rs) {
  Table t;
  t.reserve(rs.rows.size());
  for (const auto& row : rs.rows) {
    std::vector<std::string> r;
    r.reserve(row.size());
    for (const auto& v : row) r.push_back(exec::ValueKey(v));
    t.push_back(std::move(r));
  }
  return t;
}

std::vector<std::string> Column(const Table& t, size_t c) {
  std::vector<std::string> out;
  out.reserve(t.size());
  for (const auto& row : t) out.push_back(row[c]);
  return out;
}

bool SameMultiset(std::vector<std::string> a, std::vector<std::string> b) {
  if (a.size() != b.size()) return false;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

std::vector<std::string> RowStrings(const Table& t) {
  std::vector<std::string> out;
  out.reserve(t.size());
  for (const auto& row : t) out.push_back(Join(row, "\x1f"));
  return out;
}

}  // namespace

bool OrderMatters(std::string_view gold_sql) {
  // exec_eval.py: order_matters = 'order by' in g_str.lower() — a plain substring test, kept exactly so that every
  // question is judged as the official evaluator judges it (a line break between ORDER and BY does not count there).
  return ToLower(gold_sql).find("order by") != std::string::npos;
}

bool ExStrict(const exec::ResultSet& gold, const exec::ResultSet& predicted, bool order_matters) {
  if (gold.rows.empty() && predicted.rows.empty()) return true;
  if (gold.rows.size() != predicted.rows.size()) return false;
  size_t n = gold.rows[0].size();
  if (predicted.rows[0].size() != n) return false;
  Table g = Keys(gold), p = Keys(predicted);
  // Quick rejection, as the official code does: rows with their values sorted must match.
  auto unordered_rows = [](Table t) {
    for (auto& row : t) std::sort(row.begin(), row.end());
    return t;
  };
  {
    std::vector<std::string> a = RowStrings(unordered_rows(g)), b = RowStrings(unordered_rows(p));
    if (order_matters ? a != b : !SameMultiset(a, b)) return false;
  }
  // Candidate predicted columns for each gold column: those holding the same set of values.
  std::vector<std::vector<size_t>> candidates(n);
  for (size_t i = 0; i < n; ++i) {
    std::vector<std::string> gc = Column(g, i);
    std::sort(gc.begin(), gc.end());
    gc.erase(std::unique(gc.begin(), gc.end()), gc.end());
    for (size_t j = 0; j < n; ++j) {
      std::vector<std::string> pc = Column(p, j);
      std::sort(pc.begin(), pc.end());
      pc.erase(std::unique(pc.begin(), pc.end()), pc.end());
      if (pc == gc) candidates[i].push_back(j);
    }
    if (candidates[i].empty()) return false;
  }
  std::vector<std::string> want = RowStrings(g);
  if (!order_matters) std::sort(want.begin(), want.end());
  std::vector<size_t> perm(n);
  std::vector<bool> used(n, false);
  int tried = 0;
  std::function<bool(size_t)> search = [&](size_t i) -> bool {
    if (i == n) {
      if (++tried > 100'000) return false;
      Table permuted = p;
      for (auto& row : permuted) {
        std::vector<std::string> r(n);
        for (size_t k = 0; k < n; ++k) r[k] = row[perm[k]];
        row = std::move(r);
      }
      std::vector<std::string> got = RowStrings(permuted);
      if (!order_matters) std::sort(got.begin(), got.end());
      return got == want;
    }
    for (size_t j : candidates[i]) {
      if (used[j]) continue;
      used[j] = true;
      perm[i] = j;
      if (search(i + 1)) return true;
      used[j] = false;
    }
    return false;
  };
  return search(0);
}

bool ExRelaxed(const exec::ResultSet& gold, const exec::ResultSet& predicted) {
  if (gold.rows.size() != predicted.rows.size()) return false;
  if (gold.rows.empty()) return true;
  Table g = Keys(gold), p = Keys(predicted);
  size_t gn = g[0].size(), pn = p[0].size();
  std::vector<std::vector<size_t>> candidates(gn);
  for (size_t i = 0; i < gn; ++i) {
    std::vector<std::string> gc = Column(g, i);
    for (size_t j = 0; j < pn; ++j) {
      if (SameMultiset(gc, Column(p, j))) candidates[i].push_back(j);
    }
    if (candidates[i].empty()) return false;
  }
  std::vector<bool> used(pn, false);
  std::function<bool(size_t)> assign = [&](size_t i) -> bool {
    if (i == gn) return true;
    for (size_t j : candidates[i]) {
      if (used[j]) continue;
      used[j] = true;
      if (assign(i + 1)) return true;
      used[j] = false;
    }
    return false;
  };
  return assign(0);
}

double ExJaccard(const exec::ResultSet& gold, const exec::ResultSet& predicted) {
  Table g = Keys(gold), p = Keys(predicted);
  if (g.empty() && p.empty()) return 1.0;
  if (g.empty() || p.empty()) return 0.0;
  size_t gn = g[0].size(), pn = p[0].size();
  auto value_set = [](const Table& t, size_t c) {
    std::set<std::string> s;
    for (const auto& row : t) s.insert(row[c]);
    return s;
  };
  auto jaccard = [](const std::set<std::string>& a, const std::set<std::string>& b) {
    size_t both = 0;
    for (const auto& x : a) both += b.count(x);
    size_t either = a.size() + b.size() - both;
    return either == 0 ? 1.0 : static_cast<double>(both) / static_cast<double>(either);
  };
  struct Pair {
    double score;
    size_t gold, pred;
  };
  std::vector<Pair> pairs;
  for (size_t i = 0; i < gn; ++i) {
    auto gs = value_set(g, i);
    for (size_t j = 0; j < pn; ++j) pairs.push_back({jaccard(gs, value_set(p, j)), i, j});
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.score > b.score; });
  std::vector<int> match(gn, -1);
  std::vector<bool> taken(pn, false);
  for (const auto& pr : pairs) {
    if (match[pr.gold] >= 0 || taken[pr.pred]) continue;
    match[pr.gold] = static_cast<int>(pr.pred);
    taken[pr.pred] = true;
  }
  if (std::any_of(match.begin(), match.end(), [](int m) { return m < 0; })) return 0.0;
  std::set<std::string> gold_rows, pred_rows;
  for (const auto& row : g) gold_rows.insert(Join(row, "\x1f"));
  for (const auto& row : p) {
    std::vector<std::string> r;
    r.reserve(gn);
    for (size_t i = 0; i < gn; ++i) r.push_back(row[static_cast<size_t>(match[i])]);
    pred_rows.insert(Join(r, "\x1f"));
  }
  return jaccard(gold_rows, pred_rows);
}

sql::Query WithoutDistinct(const sql::Query& query) {
  sql::Query out = query;
  std::function<void(sql::QueryBody&)> body = [&](sql::QueryBody& b) {
    if (b.kind == sql::QueryBodyKind::kSelect) {
      b.select.distinct = false;
      b.select.distinct_on.clear();
    } else if (b.kind == sql::QueryBodyKind::kSetOp) {
      if (b.left) body(*b.left);
      if (b.right) body(*b.right);
    }
  };
  sql::Walker w;
  w.on_query = [&](sql::Query& q) { body(q.body); };
  w.on_expr = [](sql::Expr& e) {
    if (e.kind == sql::ExprKind::kFunction) e.distinct = false;
  };
  sql::Walk(out, w);
  return out;
}

bool ExactMatch(const sql::Query& gold, const sql::Query& predicted, const sql::Dialect& dialect) {
  return sql::Normalize(gold, dialect) == sql::Normalize(predicted, dialect);
}

std::set<std::string> QueryIdentifiers(const sql::Resolution& resolution) {
  std::set<std::string> out;
  for (const auto& t : resolution.tables) out.insert(ToLower(t));
  for (const auto& [t, c] : resolution.columns) out.insert(ToLower(t) + "." + ToLower(c));
  return out;
}

LinkingScores QueryLinking(const std::set<std::string>& gold, const std::set<std::string>& predicted) {
  size_t both = 0;
  for (const auto& x : predicted) both += gold.count(x);
  LinkingScores s;
  s.recall = gold.empty() ? 1.0 : static_cast<double>(both) / static_cast<double>(gold.size());
  s.precision = predicted.empty() ? (gold.empty() ? 1.0 : 0.0)
                                  : static_cast<double>(both) / static_cast<double>(predicted.size());
  s.f1 = s.recall + s.precision > 0 ? 2 * s.recall * s.precision / (s.recall + s.precision) : 0.0;
  return s;
}

std::string_view HardnessName(Hardness h) {
  switch (h) {
    case Hardness::kEasy: return "easy";
    case Hardness::kMedium: return "medium";
    case Hardness::kHard: return "hard";
    case Hardness::kExtra: return "extra";
  }
  return "extra";
}

namespace {

Hardness Classify(int comp1, int comp2, int others) {
  // evaluation.py eval_hardness, condition for condition.
  if (comp1 <= 1 && others == 0 && comp2 == 0) return Hardness::kEasy;
  if ((others <= 2 && comp1 <= 1 && comp2 == 0) || (comp1 <= 2 && others < 2 && comp2 == 0)) return Hardness::kMedium;
  if ((others > 2 && comp1 <= 2 && comp2 == 0) || (comp1 > 2 && comp1 <= 3 && others <= 2 && comp2 == 0) ||
      (comp1 <= 1 && others == 0 && comp2 <= 1)) {
    return Hardness::kHard;
  }
  return Hardness::kExtra;
}

using nlohmann::json;

// has_agg(unit): unit[0] != 0 — for cond units that is the NOT flag, and for the 'and'/'or' strings of a condition
// list it is their first character; the official code counts both, and so does this.
bool HasAgg(const json& unit) {
  if (unit.is_string()) return true;
  if (!unit.is_array() || unit.empty()) return false;
  const json& first = unit[0];
  if (first.is_boolean()) return first.get<bool>();
  if (first.is_number()) return first.get<double>() != 0;
  return true;
}

int CountAgg(const std::vector<json>& units) {
  return static_cast<int>(std::count_if(units.begin(), units.end(), HasAgg));
}

std::vector<json> EveryOther(const json& list, size_t start) {
  std::vector<json> out;
  if (!list.is_array()) return out;
  for (size_t i = start; i < list.size(); i += 2) out.push_back(list[i]);
  return out;
}

}  // namespace

std::optional<Hardness> HardnessFromSpiderJson(const std::string& sql_json) {
  json sql = json::parse(sql_json, nullptr, false);
  if (sql.is_discarded() || !sql.is_object() || !sql.contains("select") || !sql.contains("from")) return std::nullopt;
  try {
    const json& where = sql["where"];
    const json& having = sql["having"];
    const json& conds = sql["from"]["conds"];
    // count_component1
    int comp1 = 0;
    if (!where.empty()) ++comp1;
    if (!sql["groupBy"].empty()) ++comp1;
    if (!sql["orderBy"].empty()) ++comp1;
    if (!sql["limit"].is_null()) ++comp1;
    const json& units = sql["from"]["table_units"];
    if (!units.empty()) comp1 += static_cast<int>(units.size()) - 1;
    for (const auto* list : {&conds, &where, &having}) {
      for (const json& ao : EveryOther(*list, 1)) comp1 += ao == "or" ? 1 : 0;
      for (const json& cu : EveryOther(*list, 0)) comp1 += (cu.is_array() && cu.size() > 1 && cu[1] == 9) ? 1 : 0;
    }
    // count_component2: nested queries in conditions, and the set operations
    int comp2 = 0;
    for (const auto* list : {&conds, &where, &having}) {
      for (const json& cu : EveryOther(*list, 0)) {
        if (cu.is_array() && cu.size() > 4) comp2 += (cu[3].is_object() ? 1 : 0) + (cu[4].is_object() ? 1 : 0);
      }
    }
    for (const char* op : {"intersect", "except", "union"}) comp2 += sql[op].is_null() ? 0 : 1;
    // count_others
    int others = 0;
    std::vector<json> select_units = sql["select"][1].get<std::vector<json>>();
    int agg =
        CountAgg(select_units) + CountAgg(EveryOther(where, 0)) + CountAgg(sql["groupBy"].get<std::vector<json>>());
    if (!sql["orderBy"].empty()) {
      std::vector<json> cols;
      for (const json& vu : sql["orderBy"][1]) {
        if (!vu[1].is_null()) cols.push_back(vu[1]);
        if (!vu[2].is_null()) cols.push_back(vu[2]);
      }
      agg += CountAgg(cols);
    }
    agg += CountAgg(having.get<std::vector<json>>());
    if (agg > 1) ++others;
    if (select_units.size() > 1) ++others;
    if (where.size() > 1) ++others;
    if (sql["groupBy"].size() > 1) ++others;
    return Classify(comp1, comp2, others);
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

namespace {

bool IsAggregate(const sql::Expr& e) {
  if (e.kind != sql::ExprKind::kFunction || e.name.parts.empty()) return false;
  std::string n = ToLower(e.name.last().name);
  return n == "count" || n == "sum" || n == "avg" || n == "min" || n == "max";
}

int CountAggregates(const sql::Expr& e) {
  int n = IsAggregate(e) ? 1 : 0;
  for (const auto& a : e.args) n += CountAggregates(a);
  return n;
}

// The conditions of an AND/OR tree (not descending into subqueries), and the number of ORs between them.
void Conditions(const sql::Expr& e, std::vector<const sql::Expr*>& out, int& ors) {
  if (e.kind == sql::ExprKind::kBinary && (e.op == "AND" || e.op == "OR") && e.args.size() == 2) {
    if (e.op == "OR") ++ors;
    Conditions(e.args[0], out, ors);
    Conditions(e.args[1], out, ors);
    return;
  }
  out.push_back(&e);
}

int Subqueries(const sql::Expr& e) {
  int n = (e.kind == sql::ExprKind::kInQuery || e.kind == sql::ExprKind::kExists || e.kind == sql::ExprKind::kSubquery)
              ? 1
              : 0;
  for (const auto& a : e.args) n += Subqueries(a);
  return n;
}

void FromItems(const sql::TableRef& t, int& items, std::vector<const sql::Expr*>& on) {
  if (t.kind == sql::TableRefKind::kJoin) {
    if (t.left) FromItems(*t.left, items, on);
    if (t.right) FromItems(*t.right, items, on);
    if (t.join.on) on.push_back(&*t.join.on);
    return;
  }
  ++items;
}

}  // namespace

Hardness HardnessFromQuery(const sql::Query& query) {
  const sql::QueryBody* body = &query.body;
  int comp2 = 0;
  while (body->kind == sql::QueryBodyKind::kSetOp && body->left) {
    ++comp2;
    body = &*body->left;
  }
  if (body->kind == sql::QueryBodyKind::kParenthesized && body->inner) return HardnessFromQuery(*body->inner);
  if (body->kind != sql::QueryBodyKind::kSelect) return Hardness::kExtra;
  const sql::Select& s = body->select;
  int comp1 = 0, others = 0, ors = 0;
  std::vector<const sql::Expr*> where, having, on;
  if (s.where) Conditions(*s.where, where, ors);
  if (s.having) Conditions(*s.having, having, ors);
  int items = 0;
  if (s.from) FromItems(*s.from, items, on);
  std::vector<const sql::Expr*> on_conditions;
  for (const auto* e : on) Conditions(*e, on_conditions, ors);
  if (s.where) ++comp1;
  if (!s.group_by.empty()) ++comp1;
  if (!query.order_by.empty()) ++comp1;
  if (query.limit || s.top) ++comp1;
  if (items > 0) comp1 += items - 1;
  comp1 += ors;
  for (const auto* list : {&where, &having, &on_conditions}) {
    for (const auto* c : *list) {
      if (c->kind == sql::ExprKind::kLike) ++comp1;
      comp2 += Subqueries(*c);
    }
  }
  int agg = 0;
  for (const auto& item : s.items) agg += CountAggregates(item.expr);
  for (const auto& g : s.group_by) agg += CountAggregates(g);
  for (const auto& o : query.order_by) agg += CountAggregates(o.expr);
  if (s.having) agg += CountAggregates(*s.having);
  if (agg > 1) ++others;
  if (s.items.size() > 1) ++others;
  if (where.size() > 1) ++others;
  if (s.group_by.size() > 1) ++others;
  return Classify(comp1, comp2, others);
}

SubsetScores ScoreSubset(const std::set<std::string>& gold, const std::set<std::string>& subset, size_t schema_size) {
  auto is_column = [](const std::string& e) { return e.find('.') != std::string::npos; };
  auto ratio = [](size_t a, size_t b, double empty) {
    return b == 0 ? empty : static_cast<double>(a) / static_cast<double>(b);
  };
  size_t both = 0, gold_tables = 0, gold_columns = 0, sub_tables = 0, sub_columns = 0, both_tables = 0,
         both_columns = 0;
  for (const auto& e : gold) (is_column(e) ? gold_columns : gold_tables)++;
  for (const auto& e : subset) {
    bool col = is_column(e);
    (col ? sub_columns : sub_tables)++;
    if (gold.count(e)) {
      ++both;
      (col ? both_columns : both_tables)++;
    }
  }
  SubsetScores s;
  s.recall = ratio(both, gold.size(), 1.0);
  s.perfect = both == gold.size();
  s.precision = ratio(both, subset.size(), gold.empty() ? 1.0 : 0.0);
  s.f1 = s.recall + s.precision > 0 ? 2 * s.recall * s.precision / (s.recall + s.precision) : 0.0;
  s.relation_recall = ratio(both_tables, gold_tables, 1.0);
  s.relation_precision = ratio(both_tables, sub_tables, gold_tables == 0 ? 1.0 : 0.0);
  s.attribute_recall = ratio(both_columns, gold_columns, 1.0);
  s.attribute_precision = ratio(both_columns, sub_columns, gold_columns == 0 ? 1.0 : 0.0);
  s.proportion = ratio(subset.size(), schema_size, 0.0);
  auto f1 = [](double r, double p) { return r + p > 0 ? 2 * r * p / (r + p) : 0.0; };
  s.relation_f1 = f1(s.relation_recall, s.relation_precision);
  s.attribute_f1 = f1(s.attribute_recall, s.attribute_precision);
  return s;
}

SubsetScores ScoreSubset(const std::set<std::string>& gold, const std::set<std::string>& subset, SchemaSize schema) {
  SubsetScores s = ScoreSubset(gold, subset, schema.tables + schema.columns);
  size_t tables = 0;
  for (const auto& e : subset) tables += e.find('.') == std::string::npos ? 1 : 0;
  auto ratio = [](size_t a, size_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); };
  s.relation_proportion = ratio(tables, schema.tables);
  s.attribute_proportion = ratio(subset.size() - tables, schema.columns);
  return s;
}

namespace {

// Each category's upper bound in columns (exclusive), name and range, in order; SKALPEL Table 3.
struct SizeClass {
  SizeCategory category;
  size_t below;  // columns: the category holds schemas with fewer
  std::string_view name, range;
};
constexpr SizeClass kSizeClasses[] = {
    {SizeCategory::kS, 100, "S", "< 100"},
    {SizeCategory::kM, 1'000, "M", "100-999"},
    {SizeCategory::kL, 2'500, "L", "1,000-2,499"},
    {SizeCategory::kXL, 50'000, "XL", "2,500-49,999"},
    {SizeCategory::kXXL, 100'000, "XXL", "50,000-99,999"},
    {SizeCategory::kXXLPlus, SIZE_MAX, "XXL+", ">= 100,000"},  // not in the study
};

}  // namespace

SizeCategory SizeCategoryOf(size_t columns) {
  for (const auto& c : kSizeClasses) {
    if (columns < c.below) return c.category;
  }
  return SizeCategory::kXXLPlus;
}

std::string_view SizeCategoryName(SizeCategory category) { return kSizeClasses[static_cast<size_t>(category)].name; }

std::string_view SizeCategoryRange(SizeCategory category) { return kSizeClasses[static_cast<size_t>(category)].range; }

KendallResult KendallTau(const std::vector<double>& x, const std::vector<double>& y) {
  KendallResult r;
  size_t n = std::min(x.size(), y.size());
  if (n < 2) return r;
  double concordant = 0, discordant = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      double dx = x[i] - x[j], dy = y[i] - y[j];
      if (dx == 0 || dy == 0) continue;
      ((dx > 0) == (dy > 0) ? concordant : discordant) += 1;
    }
  }
  // Tie groups of each series.
  auto ties = [&](const std::vector<double>& v) {
    std::map<double, double> counts;
    for (size_t i = 0; i < n; ++i) counts[v[i]] += 1;
    std::vector<double> t;
    for (const auto& [value, c] : counts) {
      if (c > 1) t.push_back(c);
    }
    return t;
  };
  std::vector<double> tx = ties(x), ty = ties(y);
  double nn = static_cast<double>(n);
  double n0 = nn * (nn - 1) / 2, n1 = 0, n2 = 0;
  double vt = 0, vu = 0, t1 = 0, u1 = 0, t2 = 0, u2 = 0;
  for (double t : tx) {
    n1 += t * (t - 1) / 2;
    vt += t * (t - 1) * (2 * t + 5);
    t1 += t * (t - 1);
    t2 += t * (t - 1) * (t - 2);
  }
  for (double u : ty) {
    n2 += u * (u - 1) / 2;
    vu += u * (u - 1) * (2 * u + 5);
    u1 += u * (u - 1);
    u2 += u * (u - 1) * (u - 2);
  }
  double denominator = std::sqrt((n0 - n1) * (n0 - n2));
  if (denominator == 0) return r;  // a constant series: tau is undefined
  r.defined = true;
  double s = concordant - discordant;
  r.tau = s / denominator;
  double variance = (nn * (nn - 1) * (2 * nn + 5) - vt - vu) / 18 + t1 * u1 / (2 * nn * (nn - 1)) +
                    (n > 2 ? t2 * u2 / (9 * nn * (nn - 1) * (nn - 2)) : 0.0);
  if (variance <= 0) return r;
  double z = s / std::sqrt(variance);
  r.p_value = std::erfc(std::fabs(z) / std::sqrt(2.0));
  return r;
}

double McNemarP(int64_t b, int64_t c) {
  int64_t n = b + c;
  if (n == 0) return 1.0;
  if (n < 25) {
    // Two-sided exact binomial test with p = 1/2: twice the smaller tail, at most 1.
    int64_t k = std::min(b, c);
    double tail = 0;
    for (int64_t i = 0; i <= k; ++i) {
      tail += std::exp(std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(i) + 1) -
                       std::lgamma(static_cast<double>(n - i) + 1) - static_cast<double>(n) * std::log(2.0));
    }
    return std::min(1.0, 2 * tail);
  }
  double chi2 = std::pow(std::fabs(static_cast<double>(b - c)) - 1, 2) / static_cast<double>(n);
  return std::erfc(std::sqrt(chi2 / 2));
}

Interval BootstrapInterval(const std::vector<double>& outcomes, double confidence, int resamples, uint64_t seed) {
  if (outcomes.empty()) return {};
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, outcomes.size() - 1);
  std::vector<double> means;
  means.reserve(static_cast<size_t>(resamples));
  for (int r = 0; r < resamples; ++r) {
    double sum = 0;
    for (size_t i = 0; i < outcomes.size(); ++i) sum += outcomes[pick(rng)];
    means.push_back(sum / static_cast<double>(outcomes.size()));
  }
  std::sort(means.begin(), means.end());
  double tail = (1 - confidence) / 2;
  auto at = [&](double q) {
    size_t k = static_cast<size_t>(std::floor(q * static_cast<double>(means.size() - 1) + 0.5));
    return means[std::min(k, means.size() - 1)];
  };
  return {at(tail), at(1 - tail)};
}

}  // namespace plainsql::eval
