// The reading scorer (see scorer.h).
#include "builtin/scorer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "builtin/reading.h"
#include "common/strings.h"

namespace plainsql::builtin {

namespace internal {
extern const std::string_view kReadingScorerTsv;
}  // namespace internal

namespace {

double Log1p(size_t n) { return std::log1p(static_cast<double>(n)); }

void Set(ReadingFeatureVector& f, std::string_view name, double value) { f[ReadingFeatureIndex(name)] = value; }

// The columns the question lists together: 1 + the column mentions that follow another with only "and", a comma or
// stop words between them ("the name, age and country of"); 0 when it names no column.
size_t Listed(const Reading& r) {
  std::vector<const Mention*> columns;
  for (const auto& m : r.mentions) {
    if (!ElementOf(r, m).column.empty()) columns.push_back(&m);
  }
  std::sort(columns.begin(), columns.end(), [](const Mention* a, const Mention* b) { return a->begin < b->begin; });
  size_t best = columns.empty() ? 0 : 1, run = 1;
  for (size_t i = 1; i < columns.size(); ++i) {
    // Punctuation is not tokenized: two mentions with nothing between them were separated by a comma, or by nothing.
    bool joined = columns[i - 1]->end == columns[i]->begin, only_glue = columns[i - 1]->end <= columns[i]->begin;
    for (size_t k = columns[i - 1]->end; k < columns[i]->begin && only_glue; ++k) {
      const retrieval::Token& t = r.tokens[k];
      if (t.lower == "and") {
        joined = true;
      } else if (t.kind != retrieval::TokenKind::kWord || !retrieval::IsStopWord(t.lower) || t.lower == "of" ||
                 t.lower == "for" || t.lower == "with") {
        only_glue = false;
      }
    }
    run = joined && only_glue ? run + 1 : 1;
    best = std::max(best, run);
  }
  return best;
}

// Whether the select list shows the column `el` names.
bool Shown(const Reading& r, const linking::SchemaElement& el) {
  return std::any_of(r.select.begin(), r.select.end(), [&](const Output& o) {
    return o.kind == Output::Kind::kColumn && EqualsIgnoreCase(o.col.table, el.table) &&
           EqualsIgnoreCase(o.col.column, el.column);
  });
}

// The shown columns a question names as "X of (the …) T" with T another table ("the names of the albums" read as the
// tracks' names): T is the nearest table named within four words after "of".
size_t ShownOfOther(const Reading& r) {
  size_t out = 0;
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (el.column.empty() || m.end >= r.tokens.size() || r.tokens[m.end].lower != "of" || !Shown(r, el)) continue;
    const Mention* table = nullptr;
    for (const auto& t : r.mentions) {
      if (!ElementOf(r, t).column.empty() || t.begin <= m.end || t.begin > m.end + 4) continue;
      if (!table || t.begin < table->begin) table = &t;
    }
    if (table && !EqualsIgnoreCase(ElementOf(r, *table).table, el.table)) ++out;
  }
  return out;
}

// The shown columns that belong to a foreign key of their table and that the question names by part of their name
// only ("the names of the courses" read as course.dept_name: another table's name, kept here to join it).
size_t ShownForeignPart(const Reading& r) {
  size_t out = 0;
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (m.whole || el.column.empty()) continue;
    const catalog::Table* t = r.ctx.schema.FindTable(el.table);
    if (t && IsForeignKeyColumn(*t, el.column) && Shown(r, el)) ++out;
  }
  return out;
}

// The shown columns named by the noun a count counts: "the number of railways", "how many railways", "the count of
// railways" (the rows counted are the table's, not a column to show beside the count). The words are read here rather
// than from the intent's count cues (which also take "count" alone, and not "numbers of"): read from the cues, the
// scorer's held-out ranked EX was 0.6262 against 0.6270 (docs/BENCHMARKS.md, fiftieth part).
size_t ShownCounted(const Reading& r) {
  size_t out = 0;
  for (const auto& m : r.mentions) {
    const auto& el = ElementOf(r, m);
    if (el.column.empty() || m.begin < 2 || !Shown(r, el)) continue;
    const std::string& a = r.tokens[m.begin - 2].lower;
    const std::string& b = r.tokens[m.begin - 1].lower;
    if ((b == "of" && (a == "number" || a == "count" || a == "numbers")) || (a == "how" && b == "many")) ++out;
  }
  return out;
}

bool IsRangeOp(const std::string& op) { return op != "=" && op != "!=" && op != "LIKE" && op != "NOT LIKE"; }

}  // namespace

ReadingFeatureVector FeaturesOfReading(const Reading& r, size_t rank) {
  ReadingFeatureVector f{};
  Set(f, "coverage", r.score);
  Set(f, "unlinked", Log1p(r.unlinked.size()));
  Set(f, "rank", static_cast<double>(rank));
  Set(f, "tables", r.tree ? static_cast<double>(r.tree->Tables().size()) : 0.0);
  size_t values = 0, ranges = 0;
  for (const auto& filter : r.filters) {
    if (filter.op == "=" && filter.value.kind == Literal::Kind::kString) ++values;
    if (IsRangeOp(filter.op)) ++ranges;
  }
  Set(f, "filters", static_cast<double>(r.filters.size() + r.patterns.size()));
  Set(f, "value_filters", static_cast<double>(values));
  Set(f, "outputs", static_cast<double>(r.select.size()));
  Set(f, "star",
      std::any_of(r.select.begin(), r.select.end(), [](const Output& o) { return o.kind == Output::Kind::kStar; })
          ? 1.0
          : 0.0);
  Set(f, "aggregates", static_cast<double>(r.aggregates.size()));
  Set(f, "counting", r.counting ? 1.0 : 0.0);
  Set(f, "grouped", r.group || r.group_by_count || r.having || r.order_aggregate ? 1.0 : 0.0);
  Set(f, "having", r.having ? 1.0 : 0.0);
  Set(f, "ordered", r.order_column || r.group_by_count || r.order_aggregate || r.order_first_shown ? 1.0 : 0.0);
  Set(f, "limited", r.limit.empty() ? 0.0 : 1.0);
  Set(f, "negated", r.not_in || !r.negated_filters.empty() ? 1.0 : 0.0);
  if (rank < r.built.size()) {
    const sql::QueryBody& body = r.built[rank].query.body;
    Set(f, "set_operation", body.kind == sql::QueryBodyKind::kSetOp ? 1.0 : 0.0);
    Set(f, "union", body.kind == sql::QueryBodyKind::kSetOp && body.set_op == sql::SetOp::kUnion ? 1.0 : 0.0);
  }
  Set(f, "mentions", Log1p(r.mentions.size()));
  size_t partial = 0, related = 0;
  for (const auto& m : r.mentions) {
    if (!m.whole) ++partial;
    auto link = std::find_if(r.links.begin(), r.links.end(), [&](const linking::LinkMatch& l) {
      return l.element == m.element && l.begin == m.begin && l.end == m.end;
    });
    if (link != r.links.end() && link->related) ++related;
  }
  const double mentions = std::max<double>(1.0, static_cast<double>(r.mentions.size()));
  Set(f, "partial_mentions", static_cast<double>(partial) / mentions);
  Set(f, "related_links", static_cast<double>(related) / mentions);
  const bool count_cue = std::any_of(r.intent.aggregates.begin(), r.intent.aggregates.end(),
                                     [](const AggregateCue& a) { return a.kind == Aggregate::kCount; });
  const bool counted = r.counting || std::any_of(r.select.begin(), r.select.end(), [](const Output& o) {
                         return o.kind == Output::Kind::kCount || o.kind == Output::Kind::kCountDistinct;
                       });
  Set(f, "cue_count_unmet", count_cue && !counted ? 1.0 : 0.0);
  const bool order_cue = !r.intent.superlatives.empty() || r.intent.limit.has_value();
  Set(f, "cue_order_unmet",
      order_cue && !(r.order_column || r.group_by_count || r.order_aggregate || r.order_first_shown) ? 1.0 : 0.0);
  const size_t built_ranges = ranges + (r.having ? 1 : 0);
  Set(f, "cue_compare_unmet",
      r.intent.comparisons.size() > built_ranges ? static_cast<double>(r.intent.comparisons.size() - built_ranges)
                                                 : 0.0);
  Set(f, "distinct_cue", r.intent.distinct ? 1.0 : 0.0);
  const double listed = static_cast<double>(Listed(r));
  size_t columns = 0, used = 0;
  for (const auto& o : r.select) {
    if (o.kind != Output::Kind::kColumn) continue;
    ++columns;
    const bool by_filter =
        std::any_of(r.filters.begin(), r.filters.end(), [&](const Filter& x) { return x.col == o.col; });
    if (by_filter || (r.order_column && *r.order_column == o.col)) ++used;
  }
  Set(f, "listed", listed);
  Set(f, "shown_of_other", static_cast<double>(ShownOfOther(r)));
  Set(f, "shown_foreign_part", static_cast<double>(ShownForeignPart(r)));
  if (counted) Set(f, "shown_counted", static_cast<double>(ShownCounted(r)));
  Set(f, "aggregate_filtered",
      std::any_of(r.select.begin(), r.select.end(),
                  [&](const Output& o) {
                    return o.kind == Output::Kind::kAggregate &&
                           std::any_of(r.filters.begin(), r.filters.end(),
                                       [&](const Filter& x) { return x.col == o.col; });
                  })
          ? 1.0
          : 0.0);
  Set(f, "outputs_over", std::max(0.0, static_cast<double>(columns) - listed));
  Set(f, "outputs_under", std::max(0.0, listed - static_cast<double>(columns)));
  Set(f, "shown_used", static_cast<double>(used));
  Set(f, "named_only_tables", static_cast<double>(r.choices.named_only_tables));
  Set(f, "named_only_as_column", static_cast<double>(r.choices.named_only_as_column));
  if (r.choices.used_tables_only) {
    Set(f, "dropped_as_column", static_cast<double>(r.choices.named_only_as_column));
    Set(f, "dropped_named", static_cast<double>(r.choices.named_only_tables - r.choices.named_only_as_column));
  }
  Set(f, "first_only", r.choices.outputs == OutputChoice::kFirstOnly ? 1.0 : 0.0);
  Set(f, "with_used", r.choices.outputs == OutputChoice::kWithUsed ? 1.0 : 0.0);
  if (r.choices.group_by_shown) Set(f, "group_by_shown", 1.0);
  if (r.choices.link_choice > 0) {
    Set(f, "link_varied", 1.0);
    Set(f, "link_gap", r.choices.link_gap);
  }
  if (rank < r.built.size()) {
    const BuiltReading& b = r.built[rank];
    Set(f, "counted_once", b.counted_once ? 1.0 : 0.0);
    const bool listed_once = b.query.body.kind == sql::QueryBodyKind::kSelect && b.query.body.select.distinct;
    Set(f, "listed_once", listed_once && !r.intent.distinct ? 1.0 : 0.0);
  }
  return f;
}

void SetShapeFeatures(ReadingFeatureVector& f, const Shape& shape, const ShapePrediction& prediction) {
  const auto [fit, worst] = ShapeAgreement(shape, prediction);
  Set(f, "shape_fit", fit);
  Set(f, "shape_worst", worst);
}

void SetResultFeatures(ReadingFeatureVector& f, const exec::ResultSet* result) {
  for (size_t i = kFirstResultFeature; i < f.size(); ++i) f[i] = 0;
  if (result == nullptr) {
    Set(f, "fails", 1.0);
    return;
  }
  const size_t rows = std::min(result->rows.size(), kResultRowsSeen);
  Set(f, "empty", rows == 0 ? 1.0 : 0.0);
  Set(f, "one_row", rows == 1 ? 1.0 : 0.0);
  Set(f, "rows", Log1p(rows));
  Set(f, "null_first",
      std::any_of(result->rows.begin(), result->rows.end(),
                  [](const exec::Row& row) { return !row.empty() && row.front().is_null(); })
          ? 1.0
          : 0.0);
  Set(f, "columns", static_cast<double>(result->columns.size()));
  // A count per group that is 1 in every group: each group is one counted row (a count per unique name of the one
  // table counted), seldom what "how many ... each" asks. Read as a column holding only the integer 1.
  const auto at = [&](std::string_view name) { return f[ReadingFeatureIndex(name)]; };
  auto all_ones = [&](size_t c) {
    return std::all_of(
        result->rows.begin(), result->rows.begin() + static_cast<std::ptrdiff_t>(rows), [&](const exec::Row& row) {
          return c < row.size() && row[c].type() == exec::ValueType::kInteger && row[c].as_integer() == 1;
        });
  };
  if (at("grouped") > 0 && at("counting") > 0 && rows >= 2) {
    for (size_t c = 0; c < result->columns.size(); ++c) {
      if (!all_ones(c)) continue;
      Set(f, "counts_one", 1.0);
      break;
    }
  }
}

double ReadingScorer::Probability(const ReadingFeatureVector& f) const {
  double z = bias;
  for (size_t i = 0; i < f.size() && i < weights.size(); ++i) z += weights[i] * f[i];
  return 1.0 / (1.0 + std::exp(-z));
}

double ReadingScorer::RankScore(const ReadingFeatureVector& f) const {
  if (rank_weights.empty()) return Probability(f);
  double z = 0;
  for (size_t i = 0; i < f.size() && i < rank_weights.size(); ++i) z += rank_weights[i] * f[i];
  return z;
}

Result<ReadingScorer> ReadingScorer::Parse(std::string_view text) {
  ReadingScorer s;
  s.weights.assign(kReadingFeatureCount, 0.0);
  size_t number = 0;
  for (const std::string& line : Split(text, '\n')) {
    ++number;
    if (line.empty() || line.front() == '#' || line == "\r") continue;
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      return MakeError(ErrorCode::kInvalidArgument, fmt::format("reading scorer line {}: no tab", number));
    }
    const std::string name = line.substr(0, tab);
    const std::vector<std::string> fields = Split(line.substr(tab + 1), '\t');
    std::vector<double> values;
    try {
      for (const auto& field : fields) values.push_back(std::stod(field));
    } catch (const std::exception&) {
      return MakeError(ErrorCode::kInvalidArgument, fmt::format("reading scorer line {}: not a number", number));
    }
    if (values.empty() || values.size() > 2) {
      return MakeError(ErrorCode::kInvalidArgument, fmt::format("reading scorer line {}: one or two numbers", number));
    }
    const double value = values[0];
    if (name == "bias") {
      s.bias = value;
    } else if (name == "threshold") {
      s.threshold = value;
    } else if (name == "min_coverage") {
      s.min_coverage = value;
    } else if (const size_t i = ReadingFeatureIndex(name); i < kReadingFeatureCount) {
      s.weights[i] = value;
      if (values.size() == 2) {
        s.rank_weights.resize(kReadingFeatureCount, 0.0);
        s.rank_weights[i] = values[1];
      }
    } else {
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("reading scorer line {}: unknown feature '{}'", number, name));
    }
  }
  return s;
}

std::string ReadingScorer::Unsure(const ReadingFeatureVector& f, double probability) const {
  // (The coverage first: the probability of a reading covering so little is an extrapolation.)
  const double coverage = f[ReadingFeatureIndex("coverage")];
  if (coverage < min_coverage) {
    return fmt::format(
        "the most probable reading accounts for too little of the question (coverage {:.2f}, below {:.2f})", coverage,
        min_coverage);
  }
  if (probability < threshold) {
    // (Where two decimals would print it equal to the threshold it is below: three, rounded down.)
    const bool equal = fmt::format("{:.2f}", probability) == fmt::format("{:.2f}", threshold);
    const std::string p =
        equal ? fmt::format("{:.3f}", std::floor(probability * 1000) / 1000) : fmt::format("{:.2f}", probability);
    return fmt::format("the most probable reading is right with probability {} (below {:.2f})", p, threshold);
  }
  return "";
}

std::string ReadingScorer::Serialize(std::string_view header) const {
  std::string out;
  for (const std::string& line : Split(header, '\n')) out += fmt::format("# {}\n", line);
  out += fmt::format("bias\t{:.6g}\nthreshold\t{:.6g}\nmin_coverage\t{:.6g}\n", bias, threshold, min_coverage);
  for (size_t i = 0; i < kReadingFeatureCount; ++i) {
    out += fmt::format("{}\t{:.6g}", kReadingFeatures[i], i < weights.size() ? weights[i] : 0.0);
    if (!rank_weights.empty()) out += fmt::format("\t{:.6g}", i < rank_weights.size() ? rank_weights[i] : 0.0);
    out += "\n";
  }
  return out;
}

const ReadingScorer& ReadingScorer::Builtin() {
  // The shipped text is checked by tests (it parses, and it regenerates from Spider train); were it unreadable, the
  // readings would keep the translator's order.
  static const ReadingScorer kScorer = [] {
    auto parsed = Parse(internal::kReadingScorerTsv);
    return parsed ? std::move(*parsed) : ReadingScorer{std::vector<double>(kReadingFeatureCount, 0.0), 0, {}, 0.5};
  }();
  return kScorer;
}

}  // namespace plainsql::builtin
