// Skeletons of solved questions (see skeleton.h).
#include "builtin/skeleton.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "builtin/query_tree.h"
#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "sql/parser.h"
#include "sql/printer.h"
#include "sql/rewrite/rename.h"
#include "sql/rewrite/walk.h"

namespace plainsql::builtin {

namespace internal {
extern const std::string_view kSkeletonsTsv;
}  // namespace internal

namespace {

// Table names as the catalog spells them, compared without case.
struct CaseInsensitiveLess {
  bool operator()(const std::string& a, const std::string& b) const { return ToLower(a) < ToLower(b); }
};

bool IsComparison(const std::string& op) {
  return op == "=" || op == "!=" || op == "<>" || op == ">" || op == "<" || op == ">=" || op == "<=";
}

// The operator a value slot is compared with, as the reading's filters write it.
std::string SlotOperator(const sql::Expr& parent) {
  if (parent.kind == sql::ExprKind::kBetween) return parent.negated ? "NOT BETWEEN" : "BETWEEN";
  if (parent.kind == sql::ExprKind::kLike) return parent.negated ? "NOT LIKE" : "LIKE";
  return parent.op == "<>" ? "!=" : parent.op;
}

// The abstract name of a column by its role in its table (see skeleton.h); `plain` numbers the other columns.
std::string RoleOf(const catalog::Schema& schema, const std::string& table, const std::string& column,
                   const std::map<std::string, size_t, CaseInsensitiveLess>& slot_of,
                   const std::vector<std::string>& taken, size_t& plain) {
  const catalog::Table* t = schema.FindTable(table);
  if (t && t->primary_key.size() == 1 && EqualsIgnoreCase(t->primary_key[0], column)) return "k";
  if (t) {
    for (const auto& fk : t->foreign_keys) {
      if (fk.columns.size() != 1 || !EqualsIgnoreCase(fk.columns[0], column)) continue;
      auto it = slot_of.find(fk.ref_table);
      if (it == slot_of.end()) continue;
      std::string name = fmt::format("f{}", it->second);
      if (std::find(taken.begin(), taken.end(), name) == taken.end()) return name;
    }
  }
  const bool numeric = IsNumericColumn(schema, {table, column});
  return fmt::format("{}{}", numeric ? 'n' : 's', plain++);
}

// Every string and number of `q` but LIMIT's and OFFSET's becomes the value slot '?I', tied to the column it is
// compared with (`column_name`: the abstract name of a column reference, "" when it is none).
void MakeValueSlots(sql::Query& q, const std::function<std::string(const sql::Expr&)>& column_name,
                    std::vector<SkeletonValue>& values) {
  std::set<const sql::Expr*> limits;
  std::map<const sql::Expr*, SkeletonValue> compared;
  sql::Walker w;
  w.on_query = [&](sql::Query& inner) {
    if (inner.limit) limits.insert(inner.limit.get());
    if (inner.offset) limits.insert(inner.offset.get());
  };
  w.on_expr = [&](sql::Expr& e) {
    const bool compares = (e.kind == sql::ExprKind::kBinary && IsComparison(e.op)) || e.kind == sql::ExprKind::kLike ||
                          e.kind == sql::ExprKind::kBetween;
    if (compares && e.args.size() >= 2) {
      const std::string column = column_name(e.args[0]);
      for (size_t a = 1; a < e.args.size(); ++a) compared[&e.args[a]] = {column, SlotOperator(e)};
    }
    if (e.kind != sql::ExprKind::kLiteral || limits.count(&e)) return;
    if (e.literal_kind != sql::LiteralKind::kString && e.literal_kind != sql::LiteralKind::kNumber) return;
    auto it = compared.find(&e);
    values.push_back(it == compared.end() ? SkeletonValue{"", ""} : it->second);
    e.literal_kind = sql::LiteralKind::kString;
    e.text = fmt::format("?{}", values.size() - 1);
    e.quote = '\'';
    e.prefix = 0;
  };
  sql::Walk(q, w);
}

// The FROM items of every query of `q` that are tables, by their (abstract) names.
std::vector<std::string> TablesRead(sql::Query q) {
  std::vector<std::string> names;
  sql::Walker w;
  w.on_table = [&](sql::TableRef& t) {
    if (t.kind == sql::TableRefKind::kTable && !t.name.parts.empty()) names.push_back(ToLower(t.name.last().name));
  };
  sql::Walk(q, w);
  return names;
}

// Aliases written T1 or t1 are one skeleton: every alias, and every qualifier naming one, in upper case.
void UpperCaseAliases(sql::Query& q) {
  std::set<std::string> aliases;
  sql::Walker collect;
  collect.on_alias = [&](sql::Identifier& id) { aliases.insert(ToLower(id.name)); };
  sql::Walk(q, collect);
  auto upper = [](sql::Identifier& id) {
    for (char& ch : id.name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  };
  sql::Walker w;
  w.on_alias = upper;
  w.on_expr = [&](sql::Expr& e) {
    if (e.kind != sql::ExprKind::kColumn && e.kind != sql::ExprKind::kStar) return;
    const size_t qualifiers = e.kind == sql::ExprKind::kColumn ? e.name.parts.size() - 1 : e.name.parts.size();
    for (size_t i = 0; i < qualifiers; ++i) {
      if (aliases.count(ToLower(e.name.parts[i].name))) upper(e.name.parts[i]);
    }
  };
  sql::Walk(q, w);
}

std::string ColumnsText(const Skeleton& s) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < s.tables.size(); ++i) parts.push_back(fmt::format("t{}:{}", i, Join(s.tables[i], ",")));
  return Join(parts, " ");
}

std::string ValuesText(const Skeleton& s) {
  if (s.values.empty()) return "-";
  std::vector<std::string> parts;
  for (size_t i = 0; i < s.values.size(); ++i) {
    parts.push_back(fmt::format("?{}:{}:{}", i, s.values[i].op, s.values[i].column.empty() ? "-" : s.values[i].column));
  }
  return Join(parts, ",");
}

}  // namespace

std::string Skeleton::Key() const { return sql + "\t" + ColumnsText(*this) + "\t" + ValuesText(*this); }

std::optional<Skeleton> ExtractSkeleton(const sql::Query& gold, const catalog::Schema& schema,
                                        const sql::Dialect& dialect) {
  const sql::Resolution res = sql::Resolve(gold, catalog::ToNameCatalog(schema), dialect);
  if (!res.unresolved.empty() || !res.string_fallbacks.empty() || res.table_at.empty()) return std::nullopt;
  std::map<std::string, size_t, CaseInsensitiveLess> slot_of;
  sql::RenameMap map;
  Skeleton s;
  for (const auto& [offset, table] : res.table_at) {
    if (slot_of.count(table)) continue;
    slot_of.emplace(table, slot_of.size());
    map.tables[table] = fmt::format("t{}", slot_of.size() - 1);
  }
  s.tables.resize(slot_of.size());
  size_t plain = 0;
  for (const auto& [offset, column] : res.column_at) {
    if (map.columns.count(column)) continue;
    auto slot = slot_of.find(column.first);
    if (slot == slot_of.end()) return std::nullopt;
    std::vector<std::string>& taken = s.tables[slot->second];
    std::string name = RoleOf(schema, column.first, column.second, slot_of, taken, plain);
    taken.push_back(name);
    map.columns[column] = std::move(name);
  }
  sql::Query q = sql::RenameIdentifiers(gold, res, map);
  auto column_name = [&](const sql::Expr& e) -> std::string {
    if (e.kind != sql::ExprKind::kColumn) return "";
    auto it = res.column_at.find(e.offset);
    return it == res.column_at.end() ? "" : map.columns.at(it->second);
  };
  MakeValueSlots(q, column_name, s.values);
  UpperCaseAliases(q);
  // A value compared with nothing (a function's argument, an IN list) has no question value to take.
  if (std::any_of(s.values.begin(), s.values.end(), [](const SkeletonValue& v) { return v.op.empty(); })) {
    return std::nullopt;
  }
  s.sql = sql::Print(q, sql::Sqlite());
  return s;
}

bool IsUnbuiltForm(const Skeleton& s) {
  auto q = sql::ParseQuery(s.sql, sql::Sqlite());
  if (!q) return false;
  const Shape shape = ShapeOf(*q);
  for (std::string_view p : {"intersect", "union", "except", "subquery"}) {
    if (shape[ShapePropertyIndex(p)]) return true;
  }
  std::vector<std::string> names = TablesRead(*q);
  std::sort(names.begin(), names.end());
  return std::adjacent_find(names.begin(), names.end()) != names.end();
}

SkeletonMaterial MaterialOf(const Reading& r) {
  SkeletonMaterial m;
  auto add_table = [&](const std::string& t) {
    if (t.empty()) return;
    const bool seen =
        std::any_of(m.tables.begin(), m.tables.end(), [&](const std::string& x) { return EqualsIgnoreCase(x, t); });
    if (!seen) m.tables.push_back(t);
  };
  add_table(r.subject);
  for (const Mention& mention : r.mentions) {
    const linking::SchemaElement& e = ElementOf(r, mention);
    add_table(e.table);
    if (e.column.empty()) continue;
    ColumnRef c{e.table, e.column};
    if (std::find(m.columns.begin(), m.columns.end(), c) == m.columns.end()) m.columns.push_back(c);
  }
  // ("the schools without any endowment": the negated table, which the negation took out of the mentions.)
  for (const std::string& negated : r.negated_tables) {
    if (const catalog::Table* t = r.ctx.schema.FindTable(negated)) add_table(t->name);
  }
  std::vector<Filter> filters = r.filters;
  filters.insert(filters.end(), r.negated_filters.begin(), r.negated_filters.end());
  std::stable_sort(filters.begin(), filters.end(), [](const Filter& a, const Filter& b) { return a.at < b.at; });
  for (const Filter& f : filters) {
    if (f.value.kind == Literal::Kind::kTrue) ++m.other_conditions;
    if (f.value.kind != Literal::Kind::kNumber && f.value.kind != Literal::Kind::kString) continue;
    if (!f.part.empty()) continue;  // (a slot holds a column's value, not a part of it)
    add_table(f.col.table);
    m.values.push_back(f);
    if (f.denied) m.values.back().op = std::string(DeniedOp(f.op));  // (as the question wrote it)
    if (f.op == "BETWEEN") m.values.push_back(Filter{f.col, f.op, f.high, {}, f.at});
  }
  if (r.having) {
    Filter f;
    f.op = r.having->op;
    f.value = {Literal::Kind::kNumber, r.having->value, {}};
    m.values.push_back(f);
  }
  return m;
}

// ---------------------------------------------------------------------------------------------------------------------
// The library.

struct SkeletonLibrary::Entry {
  Skeleton skeleton;
  sql::Query query;  // the skeleton's SQL parsed
  sql::Resolution resolution;
  Shape shape{};
  std::vector<size_t> slot_of_value;  // per value slot: the table slot of its column (SIZE_MAX: none)
};

SkeletonLibrary::SkeletonLibrary() = default;
SkeletonLibrary::~SkeletonLibrary() = default;
SkeletonLibrary::SkeletonLibrary(SkeletonLibrary&&) noexcept = default;
SkeletonLibrary& SkeletonLibrary::operator=(SkeletonLibrary&&) noexcept = default;

namespace {

// The skeleton parsed and resolved against its abstract tables; nullopt when its SQL does not parse or resolve.
std::optional<sql::Query> ParseSkeleton(const Skeleton& s, sql::Resolution& resolution) {
  auto q = sql::ParseQuery(s.sql, sql::Sqlite());
  if (!q) return std::nullopt;
  sql::NameCatalog names;
  for (size_t i = 0; i < s.tables.size(); ++i) names.tables.push_back({"", fmt::format("t{}", i), s.tables[i]});
  resolution = sql::Resolve(*q, names, sql::Sqlite());
  if (!resolution.unresolved.empty()) return std::nullopt;
  return std::move(*q);
}

// k, fJ (J < tables), sI or nI.
bool IsAbstractColumn(const std::string& c, size_t tables) {
  if (c == "k") return true;
  if (c.size() < 2 || (c[0] != 'f' && c[0] != 's' && c[0] != 'n') || c.size() > 6) return false;
  if (!std::all_of(c.begin() + 1, c.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) return false;
  return c[0] != 'f' || std::stoul(c.substr(1)) < tables;
}

}  // namespace

SkeletonLibrary SkeletonLibrary::FromCounts(std::vector<Skeleton> skeletons, size_t min_count, size_t min_databases) {
  std::erase_if(skeletons, [&](const Skeleton& s) { return s.count < min_count || s.databases < min_databases; });
  std::stable_sort(skeletons.begin(), skeletons.end(), [](const Skeleton& a, const Skeleton& b) {
    return a.count != b.count ? a.count > b.count : a.Key() < b.Key();
  });
  SkeletonLibrary lib;
  for (Skeleton& s : skeletons) {
    auto e = std::make_unique<Entry>();
    auto q = ParseSkeleton(s, e->resolution);
    if (!q) continue;
    e->query = std::move(*q);
    e->shape = ShapeOf(e->query);
    for (const SkeletonValue& v : s.values) {
      size_t slot = SIZE_MAX;
      for (size_t t = 0; t < s.tables.size() && !v.column.empty(); ++t) {
        if (std::find(s.tables[t].begin(), s.tables[t].end(), v.column) != s.tables[t].end()) slot = t;
      }
      e->slot_of_value.push_back(slot);
    }
    e->skeleton = std::move(s);
    lib.entries_.push_back(std::move(e));
  }
  return lib;
}

Result<SkeletonLibrary> SkeletonLibrary::Parse(std::string_view text) {
  std::vector<Skeleton> skeletons;
  size_t line_no = 0;
  for (const std::string& line : Split(text, '\n')) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    auto bad = [&](const std::string& why) {
      return MakeError(ErrorCode::kInvalidArgument, fmt::format("skeletons line {}: {}", line_no, why));
    };
    const std::vector<std::string> fields = Split(line, '\t');
    if (fields.size() != 5) return bad("expected 5 tab-separated fields");
    Skeleton s;
    try {
      s.count = std::stoul(fields[0]);
      s.databases = std::stoul(fields[1]);
    } catch (const std::exception&) {
      return bad("count and databases must be numbers");
    }
    s.sql = fields[2];
    for (const std::string& table : Split(fields[3], ' ')) {
      const size_t colon = table.find(':');
      if (colon == std::string::npos) return bad("a table is written tI:columns");
      s.tables.emplace_back();
      for (const std::string& c : Split(table.substr(colon + 1), ',')) {
        if (!c.empty()) s.tables.back().push_back(c);
      }
    }
    if (fields[4] != "-") {
      for (const std::string& v : Split(fields[4], ',')) {
        const std::vector<std::string> parts = Split(v, ':');
        if (parts.size() != 3) return bad("a value is written ?I:operator:column");
        s.values.push_back({parts[2] == "-" ? "" : parts[2], parts[1]});
      }
    }
    for (const auto& columns : s.tables) {
      for (const std::string& c : columns) {
        if (!IsAbstractColumn(c, s.tables.size())) return bad("a column is k, fJ (J a table), sI or nI: " + c);
      }
    }
    for (const SkeletonValue& v : s.values) {
      const bool known = v.column.empty() || std::any_of(s.tables.begin(), s.tables.end(), [&](const auto& columns) {
                           return std::find(columns.begin(), columns.end(), v.column) != columns.end();
                         });
      if (!known) return bad("a value is compared with a column no table has: " + v.column);
    }
    sql::Resolution unused;
    if (!ParseSkeleton(s, unused)) return bad("the SQL does not parse or names what its tables lack");
    skeletons.push_back(std::move(s));
  }
  return FromCounts(std::move(skeletons), 0, 0);
}

std::string SkeletonLibrary::Serialize(const std::string& header) const {
  std::string out;
  for (const std::string& line : Split(header, '\n')) out += "# " + line + "\n";
  for (const auto& e : entries_) {
    out += fmt::format("{}\t{}\t{}\n", e->skeleton.count, e->skeleton.databases, e->skeleton.Key());
  }
  return out;
}

const SkeletonLibrary& SkeletonLibrary::Builtin() {
  static const SkeletonLibrary kLibrary = [] {
    auto parsed = Parse(internal::kSkeletonsTsv);
    return parsed ? std::move(*parsed) : SkeletonLibrary();
  }();
  return kLibrary;
}

size_t SkeletonLibrary::Size() const { return entries_.size(); }
const Skeleton& SkeletonLibrary::At(size_t i) const { return entries_[i]->skeleton; }
const Shape& SkeletonLibrary::ShapeAt(size_t i) const { return entries_[i]->shape; }

std::vector<size_t> SkeletonLibrary::Proposals(const ShapePrediction& prediction, double min_probability) const {
  std::vector<std::pair<double, size_t>> fit;
  for (size_t i = 0; i < entries_.size(); ++i) {
    const auto [mean, worst] = ShapeAgreement(entries_[i]->shape, prediction);
    if (worst >= std::log(min_probability)) fit.emplace_back(mean, i);
  }
  std::stable_sort(fit.begin(), fit.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<size_t> out;
  out.reserve(fit.size());
  for (const auto& [f, i] : fit) out.push_back(i);
  return out;
}

namespace {

// Fills one skeleton: the table slots are tried with the material's tables in turn (Fill), and Complete maps the rest.
class Filler {
 public:
  Filler(const Skeleton& s, const std::vector<size_t>& slot_of_value, const SkeletonMaterial& m,
         const catalog::Schema& schema)
      : s_(s), slot_of_value_(slot_of_value), m_(m), schema_(schema), real(s.tables.size()) {}

  // A slot whose columns are all keys, none compared with a value, joins the others: any table with those keys.
  bool IsBridge(size_t t) const {
    if (s_.tables[t].empty()) return false;
    for (const std::string& a : s_.tables[t]) {
      if (a[0] == 's' || a[0] == 'n') return false;
    }
    return std::find(slot_of_value_.begin(), slot_of_value_.end(), t) == slot_of_value_.end();
  }

  // Tries the material's tables in the open slots, in order, the first that completes.
  bool Place(const std::vector<size_t>& open, size_t k, std::vector<bool>& taken) {
    if (k == open.size()) return Complete();
    for (size_t j = 0; j < m_.tables.size(); ++j) {
      if (taken[j]) continue;
      taken[j] = true;
      real[open[k]] = m_.tables[j];
      if (Place(open, k + 1, taken)) return true;
      taken[j] = false;
    }
    real[open[k]].clear();
    return false;
  }

 private:
  const catalog::Table* TableOf(size_t t) const { return schema_.FindTable(real[t]); }

  // The single column of `table` referencing `to`.
  static std::optional<std::string> ForeignKey(const catalog::Table* table, const std::string& to) {
    if (!table) return std::nullopt;
    for (const auto& fk : table->foreign_keys) {
      if (fk.columns.size() == 1 && EqualsIgnoreCase(fk.ref_table, to)) return fk.columns[0];
    }
    return std::nullopt;
  }

  // Whether `candidate` can fill bridge slot `t`: its keys join the slots filled, at least one of them.
  bool Joins(size_t t, const catalog::Table& candidate) const {
    size_t joined = 0;
    for (const std::string& a : s_.tables[t]) {
      if (a == "k" && candidate.primary_key.size() != 1) return false;
      if (a[0] != 'f') continue;
      const size_t j = std::stoul(a.substr(1));
      if (j >= real.size() || real[j].empty()) continue;
      if (!ForeignKey(&candidate, real[j])) return false;
      ++joined;
    }
    for (size_t u = 0; u < s_.tables.size(); ++u) {
      const auto& cols = s_.tables[u];
      if (u == t || real[u].empty() || std::find(cols.begin(), cols.end(), fmt::format("f{}", t)) == cols.end()) {
        continue;
      }
      if (!ForeignKey(TableOf(u), candidate.name)) return false;
      ++joined;
    }
    return joined > 0;
  }

  bool SetColumn(size_t t, const std::string& abstract, const std::string& column) {
    auto [it, added] = columns.emplace(std::make_pair(fmt::format("t{}", t), abstract), column);
    return added || EqualsIgnoreCase(it->second, column);
  }

  // The keys of every slot: nullopt-free when each has the key or foreign key its role needs.
  bool MapKeys() {
    for (size_t t = 0; t < s_.tables.size(); ++t) {
      const catalog::Table* table = TableOf(t);
      if (!table) return false;
      for (const std::string& a : s_.tables[t]) {
        if (a == "k") {
          if (table->primary_key.size() != 1 || !SetColumn(t, a, table->primary_key[0])) return false;
        } else if (a[0] == 'f') {
          auto fk = ForeignKey(table, real[std::stoul(a.substr(1))]);
          if (!fk || !SetColumn(t, a, *fk)) return false;
        }
      }
    }
    return true;
  }

  bool Complete() {
    for (size_t t = 0; t < s_.tables.size(); ++t) {
      if (!IsBridge(t)) continue;
      real[t].clear();
      // The tables the question names first, then the schema's.
      std::vector<const catalog::Table*> candidates;
      for (const std::string& name : m_.tables) candidates.push_back(schema_.FindTable(name));
      for (const catalog::Table& table : schema_.tables) candidates.push_back(&table);
      for (const catalog::Table* candidate : candidates) {
        if (!candidate) continue;
        const bool used = std::any_of(real.begin(), real.end(),
                                      [&](const std::string& r) { return EqualsIgnoreCase(r, candidate->name); });
        if (!used && Joins(t, *candidate)) {
          real[t] = candidate->name;
          break;
        }
      }
      if (real[t].empty()) return false;
    }
    columns.clear();
    if (!MapKeys()) return false;
    std::vector<bool> used(m_.columns.size(), false);
    auto mark = [&](const ColumnRef& c) {
      for (size_t i = 0; i < m_.columns.size(); ++i) {
        if (EqualsIgnoreCase(m_.columns[i].table, c.table) && EqualsIgnoreCase(m_.columns[i].column, c.column)) {
          used[i] = true;
        }
      }
    };
    for (size_t v = 0; v < s_.values.size(); ++v) {
      const size_t t = slot_of_value_[v];
      if (t == SIZE_MAX) continue;
      const ColumnRef& c = m_.values[v].col;
      if (!EqualsIgnoreCase(c.table, real[t]) || !SetColumn(t, s_.values[v].column, c.column)) return false;
      mark(c);
    }
    // The other columns in the skeleton's order (sI / nI numbered across it) take the columns the question mentions.
    std::vector<std::tuple<size_t, size_t, std::string>> plain;
    for (size_t t = 0; t < s_.tables.size(); ++t) {
      for (const std::string& a : s_.tables[t]) {
        if ((a[0] == 's' || a[0] == 'n') && !columns.count({fmt::format("t{}", t), a})) {
          plain.emplace_back(std::stoul(a.substr(1)), t, a);
        }
      }
    }
    std::sort(plain.begin(), plain.end());
    for (const auto& [order, t, a] : plain) {
      size_t pick = SIZE_MAX;
      for (size_t i = 0; i < m_.columns.size() && pick == SIZE_MAX; ++i) {
        const ColumnRef& c = m_.columns[i];
        if (!used[i] && EqualsIgnoreCase(c.table, real[t]) && (a[0] == 's' || IsNumericColumn(schema_, c))) pick = i;
      }
      if (pick == SIZE_MAX || !SetColumn(t, a, m_.columns[pick].column)) return false;
      used[pick] = true;
    }
    unused = static_cast<size_t>(std::count(used.begin(), used.end(), false));
    for (const std::string& table : m_.tables) {
      const bool read =
          std::any_of(real.begin(), real.end(), [&](const std::string& r) { return EqualsIgnoreCase(r, table); });
      unused += read ? 0 : 1;
    }
    return true;
  }

  const Skeleton& s_;
  const std::vector<size_t>& slot_of_value_;
  const SkeletonMaterial& m_;
  const catalog::Schema& schema_;

 public:
  std::vector<std::string> real;                                       // per table slot: the table
  std::map<std::pair<std::string, std::string>, std::string> columns;  // (tI, abstract) -> column
  size_t unused = 0;
};

}  // namespace

std::optional<FilledSkeleton> SkeletonLibrary::Fill(size_t i, const SkeletonMaterial& material,
                                                    const catalog::Schema& schema, const sql::Dialect& dialect) const {
  const Entry& e = *entries_[i];
  const Skeleton& s = e.skeleton;
  if (s.values.size() != material.values.size() || material.other_conditions > 0) return std::nullopt;
  for (size_t v = 0; v < s.values.size(); ++v) {
    if (s.values[v].op != material.values[v].op) return std::nullopt;
    if (s.values[v].column.empty() != material.values[v].col.table.empty()) return std::nullopt;
  }
  Filler filler(s, e.slot_of_value, material, schema);
  std::vector<size_t> open;
  for (size_t t = 0; t < s.tables.size(); ++t) {
    if (!filler.IsBridge(t)) open.push_back(t);
  }
  std::vector<bool> taken(material.tables.size(), false);
  if (open.size() > material.tables.size() || !filler.Place(open, 0, taken)) return std::nullopt;
  sql::RenameMap map;
  for (size_t t = 0; t < filler.real.size(); ++t) map.tables[fmt::format("t{}", t)] = filler.real[t];
  map.columns = filler.columns;
  FilledSkeleton out;
  out.query = sql::RenameIdentifiers(e.query, e.resolution, map);
  out.unused = filler.unused;
  // Names as the dialect needs them written, and the question's values in the slots.
  sql::Walker w;
  w.on_table = [&](sql::TableRef& t) {
    if (t.kind == sql::TableRefKind::kTable && !t.name.parts.empty() && t.name.parts.back().quote == 0) {
      t.name.parts.back() = tree::Name(dialect, t.name.parts.back().name);
    }
  };
  w.on_expr = [&](sql::Expr& x) {
    if (x.kind == sql::ExprKind::kColumn || x.kind == sql::ExprKind::kStar) {
      for (sql::Identifier& part : x.name.parts) {
        if (part.quote == 0) part = tree::Name(dialect, part.name);
      }
    }
    if (x.kind == sql::ExprKind::kLiteral && x.literal_kind == sql::LiteralKind::kString && x.text.size() > 1 &&
        x.text.size() < 6 && x.text[0] == '?' &&
        std::all_of(x.text.begin() + 1, x.text.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
      const size_t v = std::stoul(x.text.substr(1));
      if (v < material.values.size()) x = tree::Value(dialect, material.values[v].value);
    }
  };
  sql::Walk(out.query, w);
  return out;
}

}  // namespace plainsql::builtin
