// The shape of a query and the shape model (see shape.h).
#include "builtin/shape.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "builtin/reading.h"
#include "common/strings.h"

namespace plainsql::builtin {

namespace internal {
extern const std::string_view kShapeModelTsv;
}

namespace {

void ShapeOfQuery(const sql::Query& q, Shape& s, bool outermost);

void ShapeOfExpr(const sql::Expr& e, Shape& s, bool in_select) {
  using sql::ExprKind;
  switch (e.kind) {
    case ExprKind::kFunction: {
      if (in_select && !e.name.parts.empty()) {
        const std::string f = ToLower(e.name.parts.back().name);
        if (f == "count") s[ShapePropertyIndex("count")] = true;
        if (f == "avg" || f == "sum" || f == "min" || f == "max") s[ShapePropertyIndex("aggregate")] = true;
        if (e.distinct) s[ShapePropertyIndex("distinct")] = true;
      }
      break;
    }
    case ExprKind::kInQuery:
    case ExprKind::kExists:
      if (e.negated) s[ShapePropertyIndex("negation")] = true;
      break;
    case ExprKind::kLike:
      if (e.negated) s[ShapePropertyIndex("negation")] = true;
      break;
    case ExprKind::kBinary:
      if (e.op == "!=" || e.op == "<>") s[ShapePropertyIndex("negation")] = true;
      break;
    case ExprKind::kUnary:
      if (ToLower(e.op) == "not") s[ShapePropertyIndex("negation")] = true;
      break;
    default: break;
  }
  if (e.query) {
    s[ShapePropertyIndex("subquery")] = true;
    ShapeOfQuery(*e.query, s, false);
  }
  for (const auto& a : e.args) ShapeOfExpr(a, s, in_select);
}

// Tables in a FROM (a subquery counts as one).
size_t TablesIn(const sql::TableRef& t, Shape& s) {
  if (t.kind == sql::TableRefKind::kJoin) {
    size_t n = (t.left ? TablesIn(*t.left, s) : 0) + (t.right ? TablesIn(*t.right, s) : 0);
    if (t.join.on) ShapeOfExpr(*t.join.on, s, false);
    return n;
  }
  if (t.query) {
    s[ShapePropertyIndex("subquery")] = true;
    ShapeOfQuery(*t.query, s, false);
  }
  return 1;
}

void ShapeOfSelect(const sql::Select& sel, Shape& s, bool outermost) {
  if (sel.distinct) s[ShapePropertyIndex("distinct")] = true;
  if (outermost && sel.items.size() >= 2) s[ShapePropertyIndex("outputs")] = true;
  for (const auto& item : sel.items) ShapeOfExpr(item.expr, s, outermost);
  if (sel.from && TablesIn(*sel.from, s) >= 2) s[ShapePropertyIndex("join")] = true;
  if (sel.where) {
    if (outermost) s[ShapePropertyIndex("where")] = true;
    ShapeOfExpr(*sel.where, s, false);
  }
  if (!sel.group_by.empty() && outermost) s[ShapePropertyIndex("group")] = true;
  if (sel.having) {
    if (outermost) s[ShapePropertyIndex("having")] = true;
    ShapeOfExpr(*sel.having, s, false);
  }
}

void ShapeOfBody(const sql::QueryBody& b, Shape& s, bool outermost) {
  switch (b.kind) {
    case sql::QueryBodyKind::kSelect: ShapeOfSelect(b.select, s, outermost); break;
    case sql::QueryBodyKind::kSetOp:
      if (outermost) {
        if (b.set_op == sql::SetOp::kIntersect) s[ShapePropertyIndex("intersect")] = true;
        if (b.set_op == sql::SetOp::kUnion) s[ShapePropertyIndex("union")] = true;
        if (b.set_op == sql::SetOp::kExcept) s[ShapePropertyIndex("except")] = true;
      } else {
        s[ShapePropertyIndex("subquery")] = true;
      }
      if (b.left) ShapeOfBody(*b.left, s, outermost);
      if (b.right) ShapeOfBody(*b.right, s, outermost);
      break;
    case sql::QueryBodyKind::kParenthesized:
      if (b.inner) ShapeOfQuery(*b.inner, s, outermost);
      break;
    case sql::QueryBodyKind::kValues: break;
  }
}

void ShapeOfQuery(const sql::Query& q, Shape& s, bool outermost) {
  ShapeOfBody(q.body, s, outermost);
  if (outermost) {
    if (!q.order_by.empty()) s[ShapePropertyIndex("order")] = true;
    if (q.limit) s[ShapePropertyIndex("limit")] = true;
  }
  for (const auto& o : q.order_by) ShapeOfExpr(o.expr, s, false);
  for (const auto& cte : q.with) {
    if (cte.query) ShapeOfQuery(*cte.query, s, false);
  }
}

double Sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

}  // namespace

Shape ShapeOf(const sql::Query& query) {
  Shape s{};
  ShapeOfQuery(query, s, true);
  return s;
}

std::vector<std::string> MaskedWords(const Reading& r) {
  std::vector<std::string> marks(r.tokens.size());
  for (const Mention& m : r.mentions) {
    for (size_t i = m.begin; i < m.end && i < marks.size(); ++i) marks[i] = "<mask>";
  }
  for (const auto& v : r.values) {
    for (size_t i = v.begin; i < v.end && i < marks.size(); ++i) marks[i] = "<value>";
  }
  return MaskWords(r.tokens, std::move(marks));
}

std::vector<std::string> MaskWords(const std::vector<retrieval::Token>& tokens, std::vector<std::string> marks) {
  marks.resize(tokens.size());
  std::vector<std::string> out;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const retrieval::Token& t = tokens[i];
    std::string word = !marks[i].empty()                       ? std::move(marks[i])
                       : t.kind != retrieval::TokenKind::kWord ? std::string("<value>")
                                                               : t.stem;
    if (word.front() == '<' && !out.empty() && out.back() == word) continue;
    out.push_back(std::move(word));
  }
  return out;
}

std::vector<std::string> ShapeInputs(const std::vector<std::string>& masked_words) {
  std::set<std::string> inputs;
  std::string previous = "<s>";
  for (const auto& w : masked_words) {
    inputs.insert("w:" + w);
    inputs.insert("b:" + previous + "_" + w);
    previous = w;
  }
  return {inputs.begin(), inputs.end()};
}

Result<ShapeModel> ShapeModel::Parse(std::string_view text) {
  std::unordered_map<std::string, std::array<double, kShapePropertyCount>> weights;
  std::array<double, kShapePropertyCount> bias{};
  bool properties_seen = false, bias_seen = false;
  size_t line_no = 0;
  for (std::string line : Split(text, '\n')) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    const std::vector<std::string> cells = Split(line, '\t');
    auto bad = [&](const std::string& why) {
      return MakeError(ErrorCode::kInvalidArgument, fmt::format("shape model, line {}: {}", line_no, why));
    };
    if (cells.size() != kShapePropertyCount + 1) {
      return bad(fmt::format("{} columns, expected {}", cells.size(), kShapePropertyCount + 1));
    }
    if (cells[0] == "property") {
      for (size_t p = 0; p < kShapePropertyCount; ++p) {
        if (cells[p + 1] != kShapeProperties[p]) return bad("property " + cells[p + 1] + " is not the one expected");
      }
      properties_seen = true;
      continue;
    }
    std::array<double, kShapePropertyCount> row{};
    for (size_t p = 0; p < kShapePropertyCount; ++p) {
      const std::string& cell = cells[p + 1];
      const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), row[p]);
      if (ec != std::errc() || end != cell.data() + cell.size()) return bad("not a number: " + cell);
    }
    if (cells[0] == "bias") {
      bias = row;
      bias_seen = true;
    } else if (!weights.emplace(cells[0], row).second) {
      return bad("input " + cells[0] + " given twice");
    }
  }
  if (!properties_seen || !bias_seen) {
    return MakeError(ErrorCode::kInvalidArgument, "shape model: the property and bias lines are missing");
  }
  return ShapeModel(std::move(weights), bias);
}

std::string ShapeModel::Serialize(const std::string& header) const {
  std::string out;
  for (const std::string& line : Split(header, '\n')) out += "# " + line + "\n";
  auto row = [&](const std::string& name, const std::array<double, kShapePropertyCount>& values) {
    out += name;
    for (double v : values) out += fmt::format("\t{:.6g}", v);
    out += "\n";
  };
  out += "property";
  for (auto p : kShapeProperties) out += "\t" + std::string(p);
  out += "\n";
  row("bias", bias_);
  const std::map<std::string, std::array<double, kShapePropertyCount>> sorted(weights_.begin(), weights_.end());
  for (const auto& [name, values] : sorted) row(name, values);
  return out;
}

const ShapeModel& ShapeModel::Builtin() {
  // Checked by tests (it parses, and it regenerates from Spider train); were it unreadable, every prediction would be
  // 0.5 and the agreement features constant.
  static const ShapeModel kModel = [] {
    auto parsed = Parse(internal::kShapeModelTsv);
    return parsed ? std::move(*parsed) : ShapeModel{};
  }();
  return kModel;
}

ShapePrediction ShapeModel::Predict(const std::vector<std::string>& masked_words) const {
  std::array<double, kShapePropertyCount> z = bias_;
  for (const auto& input : ShapeInputs(masked_words)) {
    auto it = weights_.find(input);
    if (it == weights_.end()) continue;
    for (size_t p = 0; p < kShapePropertyCount; ++p) z[p] += it->second[p];
  }
  ShapePrediction out{};
  for (size_t p = 0; p < kShapePropertyCount; ++p) out[p] = Sigmoid(z[p]);
  return out;
}

std::pair<double, double> ShapeAgreement(const Shape& shape, const ShapePrediction& prediction) {
  constexpr double kFloor = 0.001;
  double sum = 0, lowest = 0;
  for (size_t p = 0; p < kShapePropertyCount; ++p) {
    const double l = std::log(std::max(kFloor, shape[p] ? prediction[p] : 1.0 - prediction[p]));
    sum += l;
    lowest = std::min(lowest, l);
  }
  return {sum / static_cast<double>(kShapePropertyCount), lowest};
}

}  // namespace plainsql::builtin
