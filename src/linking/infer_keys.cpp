// Key inference (see infer_keys.h). The rules and weights were chosen on the databases of Spider's train split only
// (declared keys hidden, inferred keys compared with them: tests/linking/infer_keys_spider_test.cpp, and names alone on
// them merged into the haystack, docs/BENCHMARKS.md), and are general: nothing here
// knows a benchmark name.
//
// 1. Primary keys: per table, the most key-like column among those unique and non-null in the sample (a last word
//    such as "id" or "code" +2, the table's name in it +2, the bare word "id" +1, the first column +1). A table with
//    no rows can only be judged on its names (3 points needed).
// 2. Foreign keys: every column against every table's primary key, scored on how the column's name points at the key
//    (its own name, the table's name and the key's, or the table's name as the column's last words: "Winning_Pilot",
//    "staff_address_id"), the share of its sampled values the key contains, the type classes, and whether the column
//    is its own table's key. A column that names nothing can still reference a key when its values are contained in
//    exactly one key-named column and it ends in a key word itself ("liked_id"). Two letters or more right before a
//    key word that abbreviate the target table's name count for it ("dst_apid" for airports, "alid" for airlines:
//    with no rows to check, the name is all there is). Each column keeps its best target
//    above the threshold; a target that is itself a reference to a third table yields to that table when the column
//    scores there too (the key a one-to-one extension table repeats).
//    A table's name is read without its module's words (a prefix several tables share: "tbl_", a schema's or a merged
//    database's name), and a target in the column's own module is preferred to one in another: in a schema merged
//    from many databases, "Event_ID" points at its own database's events table, not at a look-alike elsewhere.
// 3. Composite foreign keys: two or more columns with the same names in two tables whose combination is unique in the
//    referenced table and whose sampled combinations it contains.
// 4. A table still without a primary key gets its foreign-key columns as one when they are unique together.
#include "linking/infer_keys.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "catalog/benchmark_schema.h"
#include "catalog/json_io.h"
#include "common/file.h"
#include "common/strings.h"
#include "naturalness/identifier.h"
#include "retrieval/text.h"
#include "sql/dialect.h"

namespace plainsql::linking {

const std::vector<std::string>& KeyWords() {
  static const std::vector<std::string> kWords = {"id", "code", "key", "no", "num", "number", "nbr", "cd"};
  return kWords;
}

namespace {

using catalog::Schema;
using catalog::Table;
using catalog::TableKind;
using Words = std::vector<std::string>;

// Weights of the foreign-key score (see InferKeysOptions::threshold).
constexpr double kNameWeight = 2.0;
constexpr double kContainmentWeight = 2.0;
constexpr double kUnknownContainment = 0.5;  // an empty or unreadable table neither confirms nor refutes
constexpr double kSameTypeWeight = 0.5;
constexpr double kKeyLikeTargetWeight = 0.3;
constexpr double kSameTablePenalty = 1.0;
constexpr double kOwnKeyPenalty = 2.0;
constexpr double kAffinityWeight = 0.5;      // times the share of the target table's words the column names
constexpr double kOwnKeyContainment = 0.95;  // a table's own key references another only if (almost) all contained
constexpr double kDataOnlyWeight = 3.2;      // what a perfect name would add, for a contained column that names nothing
constexpr size_t kDataOnlyMinValues = 3;     // fewer distinct values are contained in too many keys by chance
// In a large schema (more tables than InferKeysOptions::exhaustive_tables):
constexpr double kSameModuleWeight = 0.5;    // the target's name begins with the column's table's module
constexpr double kOtherModulePenalty = 1.0;  // both tables have a module and their names begin differently

// Last words (stemmed) that make a name a key's: "customer_id", "dept_code", "order_no".
bool IsKeyWord(const std::string& w) {
  static const std::set<std::string> kWords(KeyWords().begin(), KeyWords().end());
  return kWords.count(w) > 0;
}

bool Generic(const Words& w) { return std::all_of(w.begin(), w.end(), IsKeyWord); }

bool IsDigits(const std::string& s) { return !s.empty() && std::all_of(s.begin(), s.end(), ::isdigit); }

// `b` occurs in `a` as consecutive words.
bool ContainsRun(const Words& a, const Words& b) {
  if (b.empty() || b.size() > a.size()) return false;
  return std::search(a.begin(), a.end(), b.begin(), b.end()) != a.end();
}

bool EndsWith(const Words& a, const Words& b) {
  return !b.empty() && b.size() <= a.size() && std::equal(b.begin(), b.end(), a.end() - b.size());
}

Words Concat(Words a, const Words& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Words of a name, lower-cased and stemmed ("Campuses" and "Campus" alike), trailing numbers dropped ("club_id_2").
class NameWords {
 public:
  Words Of(std::string_view name) {
    Words out;
    for (auto w : naturalness::SplitWords(name)) {
      std::string lower = ToLower(w);
      // "actid", "StuID" written as one word: the key word split off ("paid", "valid" are words).
      static const std::set<std::string> kWordsEndingInId = {"paid",   "valid", "void",  "avoid", "fluid", "liquid",
                                                             "hybrid", "rapid", "solid", "acid",  "humid", "said"};
      if (lower.size() >= 4 && lower.ends_with("id") && !kWordsEndingInId.count(lower)) {
        out.push_back(stemmer_.Stem(lower.substr(0, lower.size() - 2)));
        out.emplace_back("id");
        continue;
      }
      out.push_back(stemmer_.Stem(lower));
    }
    while (out.size() > 1 && IsDigits(out.back())) out.pop_back();
    return out;
  }

 private:
  retrieval::Stemmer stemmer_;
};

// How a column's name (c) points at key k of table r, 0..1 (see the file comment).
double NameMatch(const Words& c, const Words& k, const Words& r) {
  if (c.empty() || k.empty()) return 0;
  if (c == k) return Generic(k) ? 0 : 1.0;
  if (c == Concat(r, k)) return 1.0;
  if (IsKeyWord(c.back()) && IsKeyWord(k.back()) && Words(c.begin(), c.end() - 1) == r) return 1.0;
  if (!Generic(k) && EndsWith(c, k)) return 0.9;
  if (EndsWith(c, r) || (IsKeyWord(c.back()) && ContainsRun(Words(c.begin(), c.end() - 1), r))) return 0.8;
  if (IsKeyWord(c.back()) && IsKeyWord(k.back()) && k.size() >= 2 && ContainsRun(c, Words(k.begin(), k.end() - 1))) {
    return 0.7;
  }
  if (!IsKeyWord(c.back()) && Generic(c)) return 0;
  // A word of one that begins another ("Bandmate" and "Band"), three letters at least.
  for (const auto& a : c) {
    if (IsKeyWord(a) || a.size() < 3) continue;
    for (const auto& b : Concat(r, k)) {
      if (IsKeyWord(b) || b.size() < 3) continue;
      if (a != b && (a.starts_with(b) || b.starts_with(a))) return 0.5;
    }
  }
  return 0;
}

// Share of a table's words (key words aside) that a column's words name, whole or abbreviated ("res" for
// "restaurant", "emp" for "employee"): which of two tables a column belongs to.
double Affinity(const Words& column, const Words& table) {
  size_t named = 0, all = 0;
  for (const auto& w : table) {
    if (IsKeyWord(w) || w.size() < 2) continue;
    ++all;
    for (size_t i = 0; i < column.size(); ++i) {
      const auto& a = column[i];
      if (IsKeyWord(a)) continue;
      // Right before a key word, two letters or more that abbreviate the table's word ("ap" of "apid" for airport).
      const bool keyed = i + 1 < column.size() && IsKeyWord(column[i + 1]) && a.size() >= 2 && a.size() < w.size() &&
                         Abbreviates(a, w);
      if (keyed || a == w || (std::min(a.size(), w.size()) >= 3 && (a.starts_with(w) || w.starts_with(a)))) {
        ++named;
        break;
      }
    }
  }
  return all == 0 ? 0 : static_cast<double>(named) / static_cast<double>(all);
}

// How many leading words two names share.
size_t SharedLead(const Words& a, const Words& b) {
  return static_cast<size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
}

// How much a column looks like its table's primary key.
int KeyLikeness(const Words& column, const Words& table, size_t position) {
  int s = 0;
  if (!column.empty() && IsKeyWord(column.back())) s += 2;
  if (ContainsRun(column, table)) s += 1;
  if (!column.empty() && Generic(column)) s += 1;
  if (position == 0) s += 2;
  return s;
}

bool Compatible(catalog::TypeClass a, catalog::TypeClass b) {
  return a == b || a == catalog::TypeClass::kOther || b == catalog::TypeClass::kOther;
}

// A value as the text keys are compared by: integral reals as integers, text trimmed; NULL, '' and blobs as none.
std::optional<std::string> Canonical(const exec::Value& v) {
  switch (v.type()) {
    case exec::ValueType::kInteger: return std::to_string(v.as_integer());
    case exec::ValueType::kReal: {
      double d = v.as_real();
      if (std::floor(d) == d && std::fabs(d) < 1e15) return std::to_string(static_cast<int64_t>(d));
      return v.ToString();
    }
    case exec::ValueType::kText: {
      std::string s(Trim(v.as_text()));
      if (s.empty()) return std::nullopt;
      return s;
    }
    default: return std::nullopt;
  }
}

std::string QualifiedName(const exec::Connection& conn, const Table& t) {
  const sql::Dialect& d = conn.dialect();
  std::string name = sql::AlwaysQuoteIdentifier(d, t.name);
  return t.schema.empty() ? name : sql::AlwaysQuoteIdentifier(d, t.schema) + "." + name;
}

// Everything the inference knows about one table.
struct TableInfo {
  Table* table = nullptr;  // in the schema being inferred
  const TableValues* values = nullptr;
  bool pk_declared = false;
  Words words;
  size_t module = 0;  // how many of `words` name the table's module (see Modules), not the table itself
  Words local;        // `words` after the module's: what the table itself is named (read once per candidate key)
  std::vector<Words> column_words;
  std::optional<size_t> key;  // the single-column primary key (declared or inferred), a foreign key's target
  bool key_inferred = false;
  std::set<size_t> declared_fk_columns;  // kAdd: columns a declared foreign key already covers
  bool isolated = false;                 // no declared foreign key leaves or reaches it
  bool HasRows() const { return values && values->read && !values->rows.empty(); }
  bool Unique(size_t c) const {
    const ColumnValues& v = values->columns[c];
    return v.nulls == 0 && v.non_null > 0 && static_cast<int64_t>(v.distinct.size()) == v.non_null;
  }
};

struct Candidate {
  size_t table = 0, column = 0;  // the referencing column
  size_t target = 0;             // the referenced table (its `key`)
  double score = 0, name = 0, containment = -1;
};

class Inference {
 public:
  Inference(Schema& schema, const std::vector<TableValues>& samples, const InferKeysOptions& options,
            const ContainmentProbe& probe)
      : schema_(schema), options_(options), probe_(probe) {
    NameWords names;
    for (size_t i = 0; i < schema.tables.size(); ++i) {
      Table& t = schema.tables[i];
      if (t.kind != TableKind::kTable) continue;
      TableInfo info;
      info.table = &t;
      info.pk_declared = !t.primary_key.empty();
      if (i < samples.size() && samples[i].columns.size() == t.columns.size()) info.values = &samples[i];
      info.words = names.Of(t.name);
      for (const auto& c : t.columns) info.column_words.push_back(names.Of(c.name));
      for (const auto& fk : t.foreign_keys) {
        for (const auto& c : fk.columns) {
          for (size_t k = 0; k < t.columns.size(); ++k) {
            if (EqualsIgnoreCase(t.columns[k].name, c)) info.declared_fk_columns.insert(k);
          }
        }
      }
      tables_.push_back(std::move(info));
    }
    std::set<std::string> touched;  // lower-case names of the tables a declared foreign key leaves or reaches
    for (const TableInfo& t : tables_) {
      for (const auto& fk : t.table->foreign_keys) {
        touched.insert(ToLower(t.table->name));
        touched.insert(ToLower(fk.ref_table));
      }
    }
    for (TableInfo& t : tables_) t.isolated = !touched.count(ToLower(t.table->name));
    Modules();
  }

  KeyInferenceResult Run() {
    for (TableInfo& t : tables_) PrimaryKey(t);
    std::vector<Candidate> kept = ForeignKeys();
    const bool isolated_only = options_.mode == KeyInferenceMode::kIsolated;
    if (isolated_only) {
      std::erase_if(kept,
                    [&](const Candidate& c) { return !tables_[c.table].isolated && !tables_[c.target].isolated; });
    }
    KeyInferenceResult result;
    std::map<size_t, std::vector<InferredKey>> fks;  // by table
    for (const Candidate& c : kept) {
      const TableInfo& from = tables_[c.table];
      const TableInfo& to = tables_[c.target];
      fks[c.table].push_back({false,
                              from.table->name,
                              {from.table->columns[c.column].name},
                              to.table->name,
                              {to.table->columns[*to.key].name},
                              c.score,
                              c.name,
                              c.containment});
    }
    for (auto& [i, keys] : CompositeForeignKeys()) {
      for (auto& k : keys) {
        if (!isolated_only || tables_[i].isolated || IsolatedTable(k.ref_table)) fks[i].push_back(std::move(k));
      }
    }
    if (isolated_only) {
      // Only the tables the kept keys touch get an inferred primary key.
      std::set<std::string> targets;
      for (const auto& [i, keys] : fks) {
        for (const auto& k : keys) targets.insert(ToLower(k.ref_table));
      }
      for (TableInfo& t : tables_) {
        if (!t.pk_declared && !t.isolated && !targets.count(ToLower(t.table->name))) t.key.reset();
      }
    }
    for (size_t i = 0; i < tables_.size(); ++i) Apply(i, fks[i], result);
    return result;
  }

 private:
  // Each table's module: the longest run of leading words its name shares with other tables' names (at least two
  // others; one other in a large schema, where a prefix tells where a table comes from), each keeping a word of its
  // own, when no table is named by the run alone: "tbl_" of "tbl_Events" and "tbl_Nests", a schema's or database's
  // prefix in a merged schema; not the "Customer" of "Customer_Addresses" beside "Customers", which names a table.
  // Chosen on Spider train's databases, alone and merged into the haystack (docs/BENCHMARKS.md).
  void Modules() {
    const size_t module_tables = tables_.size() > options_.exhaustive_tables ? 2 : 3;
    std::map<Words, size_t> leads;
    std::set<Words> names;
    for (const TableInfo& t : tables_) {
      names.insert(t.words);
      for (size_t n = 1; n < t.words.size(); ++n) {
        ++leads[Words(t.words.begin(), t.words.begin() + static_cast<std::ptrdiff_t>(n))];
      }
    }
    for (TableInfo& t : tables_) {
      t.local = t.words;
      if (t.words.size() < 2) continue;
      for (size_t n = t.words.size() - 1; n >= 1; --n) {
        Words lead(t.words.begin(), t.words.begin() + static_cast<std::ptrdiff_t>(n));
        if (auto it = leads.find(lead); it != leads.end() && it->second >= module_tables && !names.count(lead)) {
          t.module = n;
          t.local.erase(t.local.begin(), t.local.begin() + static_cast<std::ptrdiff_t>(n));
          break;
        }
      }
    }
  }

  // Step 1: a table without a declared primary key gets its most key-like unique column.
  void PrimaryKey(TableInfo& t) {
    const Table& table = *t.table;
    if (!table.primary_key.empty()) {
      if (table.primary_key.size() == 1) {
        for (size_t c = 0; c < table.columns.size(); ++c) {
          if (EqualsIgnoreCase(table.columns[c].name, table.primary_key[0])) t.key = c;
        }
      }
      return;
    }
    int best = 0;
    for (size_t c = 0; c < table.columns.size(); ++c) {
      int s = KeyLikeness(t.column_words[c], t.local, c);
      if (t.HasRows()) {
        if (!t.Unique(c)) continue;
      } else if (s < 3 || t.column_words[c].empty() || !IsKeyWord(t.column_words[c].back())) {
        continue;  // no rows to check: the name alone must say it, with a key word ("id", "code", ...)
      }
      if (s > best) {
        best = s;
        t.key = c;
      }
    }
    t.key_inferred = t.key.has_value();
  }

  // Share of the column's distinct sampled values the target key contains; -1 when unknown.
  double Containment(const TableInfo& from, size_t column, const TableInfo& to) {
    if (!from.HasRows() || !to.values || !to.values->read) return -1;
    const auto& values = from.values->columns[column].distinct;
    if (values.empty()) return -1;
    if (to.values->rows.empty()) return -1;  // an empty table cannot confirm or refute
    if (!to.values->complete && probe_) {
      auto key = std::make_pair(std::make_pair(from.table, column), to.table);
      if (auto it = probed_.find(key); it != probed_.end()) return it->second;
      std::optional<double> share = probe_(*from.table, column, *to.table, *to.key);
      return probed_[key] = share.value_or(-1);
    }
    const auto& keys = to.values->columns[*to.key].distinct;
    size_t found = 0;
    for (const auto& v : values) found += keys.count(v);
    return static_cast<double>(found) / static_cast<double>(values.size());
  }

  // The targets a column is compared with: every table's key, or on a large schema those sharing a word with it.
  std::vector<size_t> Targets(const Words& column_words) {
    std::vector<size_t> out;
    if (tables_.size() <= options_.exhaustive_tables) {
      for (size_t i = 0; i < tables_.size(); ++i) {
        if (tables_[i].key) out.push_back(i);
      }
      return out;
    }
    if (word_index_.empty()) {
      for (size_t i = 0; i < tables_.size(); ++i) {
        if (!tables_[i].key) continue;
        for (const auto& w : Concat(tables_[i].words, tables_[i].column_words[*tables_[i].key])) {
          if (!IsKeyWord(w)) word_index_[w].insert(i);
        }
      }
    }
    std::set<size_t> found;
    for (const auto& w : column_words) {
      if (auto it = word_index_.find(w); it != word_index_.end()) found.insert(it->second.begin(), it->second.end());
    }
    return {found.begin(), found.end()};
  }

  std::optional<Candidate> Score(size_t ti, size_t c, size_t ri, bool* contained) {
    const TableInfo& t = tables_[ti];
    const TableInfo& r = tables_[ri];
    size_t k = *r.key;
    if (ti == ri && c == k) return std::nullopt;
    const Words& cw = t.column_words[c];
    const Words& kw = r.column_words[k];
    const auto& col = t.table->columns[c];
    const auto& key = r.table->columns[k];
    const Words& rw = r.local;
    double name = NameMatch(cw, kw, rw);
    bool exhaustive = tables_.size() <= options_.exhaustive_tables;
    if (name == 0 && !exhaustive) return std::nullopt;
    double containment = Containment(t, c, r);
    *contained = containment >= 1.0;
    bool same_type = Compatible(col.type_class, key.type_class);
    bool own_key = t.key == c;
    bool data_only = name == 0 && containment >= 1.0 && same_type && !own_key && IsKeyWord(kw.back()) && !cw.empty() &&
                     IsKeyWord(cw.back()) && t.values->columns[c].distinct.size() >= kDataOnlyMinValues;
    if (name == 0 && !data_only) return std::nullopt;
    if (containment >= 0 && containment < options_.min_containment) return std::nullopt;
    if (own_key && containment >= 0 && containment < kOwnKeyContainment) return std::nullopt;
    double affinity = Affinity(cw, rw);
    // A table's own key names its own table at least as well as the target: not a reference (a database's "people"
    // beside another database's "people" in a merged schema).
    const double own = Affinity(cw, t.local);
    bool names_own_table = own_key && (Generic(cw) || (own > 0 && own >= affinity));
    bool key_like = IsKeyWord(kw.back()) || ContainsRun(kw, rw);
    // In a large schema a module tells where a table comes from (a merged database, a source system); in a small one
    // it is a naming habit ("tbl_" tables referencing "tlu_" lookups), neither a reason to link nor not to.
    const size_t shared = SharedLead(t.words, r.words);
    const bool same_module = !exhaustive && ti != ri && t.module > 0 && shared >= t.module;
    const bool other_module = !exhaustive && t.module > 0 && r.module > 0 && shared == 0;
    double score = kNameWeight * name + kContainmentWeight * (containment < 0 ? kUnknownContainment : containment) +
                   (same_type ? kSameTypeWeight : 0) + (key_like ? kKeyLikeTargetWeight : 0) +
                   kAffinityWeight * affinity - (ti == ri ? kSameTablePenalty : 0) -
                   (names_own_table ? kOwnKeyPenalty : 0) + (data_only ? kDataOnlyWeight : 0) +
                   (same_module ? kSameModuleWeight : 0) - (other_module ? kOtherModulePenalty : 0);
    return Candidate{ti, c, ri, score, name, containment};
  }

  // Step 2: each column's best single-column target above the threshold.
  std::vector<Candidate> ForeignKeys() {
    std::map<std::pair<size_t, size_t>, std::vector<Candidate>> by_column;
    for (size_t ti = 0; ti < tables_.size(); ++ti) {
      const TableInfo& t = tables_[ti];
      for (size_t c = 0; c < t.table->columns.size(); ++c) {
        if (t.declared_fk_columns.count(c)) continue;
        std::vector<Candidate> found;
        size_t contained_in = 0;
        for (size_t ri : Targets(t.column_words[c])) {
          bool contained = false;
          if (auto cand = Score(ti, c, ri, &contained)) found.push_back(*cand);
          contained_in += contained ? 1 : 0;
        }
        // A match on data alone must be unambiguous: the values are in exactly one key.
        if (contained_in > 1) {
          std::erase_if(found, [](const Candidate& x) { return x.name == 0; });
        }
        if (!found.empty()) by_column[{ti, c}] = std::move(found);
      }
    }
    std::map<std::pair<size_t, size_t>, Candidate> best;
    for (auto& [column, cands] : by_column) {
      auto top = std::max_element(cands.begin(), cands.end(),
                                  [](const Candidate& a, const Candidate& b) { return a.score < b.score; });
      if (top->score >= options_.threshold) best[column] = *top;
    }
    // A target that itself references a third table's key yields to it when the column scores there too.
    std::vector<Candidate> out;
    for (auto& [column, cand] : best) {
      const TableInfo& target = tables_[cand.target];
      if (auto next = best.find({cand.target, *target.key});
          next != best.end() && next->second.target != column.first) {
        for (const Candidate& alt : by_column[column]) {
          if (alt.target == next->second.target && alt.score >= options_.threshold) cand = alt;
        }
      }
      out.push_back(cand);
    }
    // Two columns naming each other (one-to-one, equal values): the stronger stays; on a tie nothing says which way.
    auto reverse = [&](const Candidate& a) {
      return std::find_if(out.begin(), out.end(), [&](const Candidate& b) {
        return b.table == a.target && b.column == *tables_[a.target].key && tables_[a.table].key == a.column &&
               b.target == a.table;
      });
    };
    std::vector<Candidate> kept;
    for (const Candidate& a : out) {
      auto b = reverse(a);
      if (b == out.end() || a.score > b->score) kept.push_back(a);
    }
    return kept;
  }

  // Step 3: columns with the same names in two tables, unique together in one and contained in it.
  std::map<size_t, std::vector<InferredKey>> CompositeForeignKeys() {
    std::map<size_t, std::vector<InferredKey>> out;
    for (size_t ti = 0; ti < tables_.size(); ++ti) {
      for (size_t ri = 0; ri < tables_.size(); ++ri) {
        if (ti == ri || !tables_[ti].HasRows() || !tables_[ri].HasRows()) continue;
        if (auto key = Composite(ti, ri)) out[ti].push_back(std::move(*key));
      }
      // The same columns matching several tables: nothing says which one they reference.
      auto& keys = out[ti];
      std::vector<InferredKey> unambiguous;
      for (const auto& k : keys) {
        auto same =
            std::count_if(keys.begin(), keys.end(), [&](const InferredKey& o) { return o.columns == k.columns; });
        if (same == 1) unambiguous.push_back(k);
      }
      keys = std::move(unambiguous);
    }
    return out;
  }

  std::optional<InferredKey> Composite(size_t ti, size_t ri) {
    const TableInfo& t = tables_[ti];
    const TableInfo& r = tables_[ri];
    std::vector<std::pair<size_t, size_t>> shared;  // (column in t, column in r)
    bool key_word = false;
    for (size_t c = 0; c < t.column_words.size(); ++c) {
      if (t.declared_fk_columns.count(c) || Generic(t.column_words[c])) continue;
      for (size_t k = 0; k < r.column_words.size(); ++k) {
        if (t.column_words[c] != r.column_words[k]) continue;
        if (!Compatible(t.table->columns[c].type_class, r.table->columns[k].type_class)) continue;
        if (r.key == k) return std::nullopt;  // the single-column key covers it
        shared.emplace_back(c, k);
        key_word = key_word || IsKeyWord(t.column_words[c].back());
      }
    }
    if (shared.size() < 2 || !key_word) return std::nullopt;
    auto tuples = [&](const TableInfo& x, bool left, bool* unique) {
      std::set<std::vector<std::string>> seen;
      *unique = true;
      for (const auto& row : x.values->rows) {
        std::vector<std::string> tuple;
        bool null = false;
        for (const auto& [c, k] : shared) {
          const auto& v = row[left ? c : k];
          if (!v) null = true;
          tuple.push_back(v.value_or(""));
        }
        if (null) {
          if (!left) *unique = false;
          continue;
        }
        if (!seen.insert(std::move(tuple)).second) *unique = false;
      }
      return seen;
    };
    bool t_unique = false, r_unique = false;
    auto child = tuples(t, true, &t_unique);
    auto parent = tuples(r, false, &r_unique);
    if (!r_unique || child.empty() || !r.values->complete) return std::nullopt;
    size_t found = 0;
    for (const auto& tuple : child) found += parent.count(tuple);
    if (found != child.size()) return std::nullopt;
    // Both ways contained and unique: nothing says which table is the parent.
    if (t_unique && child.size() == parent.size()) return std::nullopt;
    InferredKey key;
    key.table = t.table->name;
    key.ref_table = r.table->name;
    for (const auto& [c, k] : shared) {
      key.columns.push_back(t.table->columns[c].name);
      key.ref_columns.push_back(r.table->columns[k].name);
    }
    key.name_match = 1.0;
    key.containment = 1.0;
    key.score = kNameWeight + kContainmentWeight + kSameTypeWeight + kKeyLikeTargetWeight;
    return key;
  }

  // Step 4 and the schema update: the table's inferred primary key (or its foreign-key columns, when unique together)
  // and its foreign keys.
  void Apply(size_t i, std::vector<InferredKey>& fks, KeyInferenceResult& result) {
    TableInfo& t = tables_[i];
    Table& table = *t.table;
    if (table.primary_key.empty() && t.key) {
      table.primary_key = {table.columns[*t.key].name};
    } else if (table.primary_key.empty() && t.HasRows()) {
      std::set<std::string> columns;
      for (const auto& fk : fks) columns.insert(fk.columns.begin(), fk.columns.end());
      if (columns.size() >= 2 && UniqueTogether(t, columns)) {
        for (const auto& c : table.columns) {
          if (columns.count(c.name)) table.primary_key.push_back(c.name);
        }
      }
    }
    if (!table.primary_key.empty() && !t.pk_declared) {
      table.primary_key_inferred = true;
      result.keys.push_back({true, table.name, table.primary_key, "", {}, 0, 0, -1});
    }
    for (auto& fk : fks) {
      catalog::ForeignKey out;
      out.columns = fk.columns;
      out.ref_table = fk.ref_table;
      out.ref_columns = fk.ref_columns;
      const Table* ref = schema_.FindTable(fk.ref_table);
      if (ref && ref->schema != table.schema) out.ref_schema = ref->schema;
      out.inferred = true;
      table.foreign_keys.push_back(std::move(out));
      result.keys.push_back(std::move(fk));
    }
  }

  bool IsolatedTable(const std::string& name) const {
    return std::any_of(tables_.begin(), tables_.end(),
                       [&](const TableInfo& t) { return t.isolated && EqualsIgnoreCase(t.table->name, name); });
  }

  bool UniqueTogether(const TableInfo& t, const std::set<std::string>& columns) {
    std::vector<size_t> idx;
    for (size_t c = 0; c < t.table->columns.size(); ++c) {
      if (columns.count(t.table->columns[c].name)) idx.push_back(c);
    }
    std::set<std::vector<std::string>> seen;
    for (const auto& row : t.values->rows) {
      std::vector<std::string> tuple;
      for (size_t c : idx) {
        if (!row[c]) return false;
        tuple.push_back(*row[c]);
      }
      if (!seen.insert(std::move(tuple)).second) return false;
    }
    return true;
  }

  Schema& schema_;
  const InferKeysOptions& options_;
  const ContainmentProbe& probe_;
  std::vector<TableInfo> tables_;
  std::map<std::string, std::set<size_t>> word_index_;
  std::map<std::pair<std::pair<const Table*, size_t>, const Table*>, double> probed_;
};

}  // namespace

std::optional<KeyInferenceMode> KeyInferenceModeByName(std::string_view name) {
  if (name == "add") return KeyInferenceMode::kAdd;
  if (name == "replace") return KeyInferenceMode::kReplace;
  if (name == "isolated") return KeyInferenceMode::kIsolated;
  return std::nullopt;
}

std::string_view KeyInferenceModeName(KeyInferenceMode mode) {
  switch (mode) {
    case KeyInferenceMode::kReplace: return "replace";
    case KeyInferenceMode::kIsolated: return "isolated";
    case KeyInferenceMode::kAdd: break;
  }
  return "add";
}

Result<std::optional<KeyInferenceMode>> KeyInferenceModeOption(std::string_view value, bool none_allowed) {
  if (none_allowed && value == "none") return std::optional<KeyInferenceMode>();
  if (auto mode = KeyInferenceModeByName(value)) return std::optional<KeyInferenceMode>(*mode);
  return MakeError(
      ErrorCode::kInvalidArgument,
      fmt::format("--infer-keys takes {}, not '{}'",
                  none_allowed ? "isolated, add, replace or none" : "add (the default), replace or isolated", value));
}

void DropDeclaredKeys(Schema& schema) {
  for (Table& t : schema.tables) {
    if (!t.primary_key_inferred) t.primary_key.clear();
    t.unique_keys.clear();
    std::erase_if(t.foreign_keys, [](const catalog::ForeignKey& fk) { return !fk.inferred; });
  }
}

std::vector<TableValues> ReadSamples(exec::Connection& conn, const Schema& schema, const InferKeysOptions& options,
                                     std::vector<std::string>* warnings) {
  std::vector<TableValues> out(schema.tables.size());
  exec::Limits limits{options.timeout, std::max<int64_t>(options.sample_rows, 1)};
  for (size_t i = 0; i < schema.tables.size(); ++i) {
    const Table& t = schema.tables[i];
    TableValues& tv = out[i];
    tv.columns.resize(t.columns.size());
    if (t.kind != TableKind::kTable || t.columns.empty()) continue;
    std::string sql = fmt::format("SELECT * FROM {} LIMIT {}", QualifiedName(conn, t), limits.max_rows + 1);
    auto rs = conn.QueryInternal(sql, limits);
    if (!rs || rs->columns.size() != t.columns.size()) {
      if (warnings) {
        warnings->push_back(fmt::format("{}: not read ({}); its keys are judged on names alone",
                                        catalog::DisplayName(schema, t),
                                        rs ? "its columns changed" : rs.error().message));
      }
      continue;
    }
    tv.read = true;
    tv.complete = !rs->truncated;
    for (auto& row : rs->rows) {
      std::vector<std::optional<std::string>> cells;
      cells.reserve(row.size());
      for (size_t c = 0; c < row.size(); ++c) {
        std::optional<std::string> v = Canonical(row[c]);
        ColumnValues& cv = tv.columns[c];
        if (v) {
          ++cv.non_null;
          cv.distinct.insert(*v);
        } else {
          ++cv.nulls;
        }
        cells.push_back(std::move(v));
      }
      tv.rows.push_back(std::move(cells));
    }
  }
  return out;
}

KeyInferenceResult InferKeysFromSamples(Schema& schema, const std::vector<TableValues>& samples,
                                        const InferKeysOptions& options, const ContainmentProbe& probe) {
  if (options.mode == KeyInferenceMode::kReplace) DropDeclaredKeys(schema);
  return Inference(schema, samples, options, probe).Run();
}

Result<KeyInferenceResult> InferKeys(exec::Connection& conn, Schema& schema, const InferKeysOptions& options) {
  if (options.sample_rows < 1 || options.probe_values < 1) {
    return MakeError(ErrorCode::kInvalidArgument, "key inference needs at least one sampled row and probed value");
  }
  std::vector<std::string> warnings;
  std::vector<TableValues> samples = ReadSamples(conn, schema, options, &warnings);
  // Containment in a table read only in part, asked of the database for a bounded number of the column's values.
  ContainmentProbe probe = [&](const Table& child, size_t child_column, const Table& key_table,
                               size_t key_column) -> std::optional<double> {
    const sql::Dialect& d = conn.dialect();
    std::string c = sql::AlwaysQuoteIdentifier(d, child.columns[child_column].name);
    std::string k = sql::AlwaysQuoteIdentifier(d, key_table.columns[key_column].name);
    std::string sql = fmt::format(
        "SELECT count(*), count(CASE WHEN v IN (SELECT CAST({} AS TEXT) FROM {}) THEN 1 END) FROM (SELECT DISTINCT "
        "CAST({} AS TEXT) AS v FROM {} WHERE {} IS NOT NULL LIMIT {}) s",
        k, QualifiedName(conn, key_table), c, QualifiedName(conn, child), c, options.probe_values);
    auto rs = conn.QueryInternal(sql, {options.timeout, 1});
    if (!rs || rs->rows.empty()) return std::nullopt;
    int64_t all = rs->rows[0][0].as_integer(), found = rs->rows[0][1].as_integer();
    if (all == 0) return std::nullopt;
    return static_cast<double>(found) / static_cast<double>(all);
  };
  KeyInferenceResult result = InferKeysFromSamples(schema, samples, options, probe);
  result.warnings.insert(result.warnings.begin(), warnings.begin(), warnings.end());
  return result;
}

Status InferKeysCached(exec::Connection& conn, catalog::LoadedSchema& loaded, const InferKeysOptions& options) {
  auto infer = [&]() -> Status {
    auto result = InferKeys(conn, loaded.schema, options);
    if (!result) return result.error();
    loaded.warnings.insert(loaded.warnings.end(), result->warnings.begin(), result->warnings.end());
    return Status::Ok();
  };
  if (loaded.cache_file.empty()) return infer();
  // The snapshot's key names the database state; the mode and the sampling bounds name the inference. ("keys2": the
  // first caches could hold a data dictionary's descriptions applied before the keys were inferred.)
  std::filesystem::path file(loaded.cache_file);
  file.replace_extension(fmt::format(".keys2-{}-{}-{}-{:g}-{:g}.json", KeyInferenceModeName(options.mode),
                                     options.sample_rows, options.probe_values, options.threshold,
                                     options.min_containment));
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) {
    auto j = catalog::ReadJsonFile(file.string());
    if (j && j->is_object() && j->contains("schema") && j->contains("warnings") && (*j)["warnings"].is_array()) {
      if (auto s = catalog::FromJson((*j)["schema"])) {
        loaded.schema = std::move(*s);
        for (const auto& w : (*j)["warnings"]) {
          if (w.is_string()) loaded.warnings.push_back(w.get<std::string>());
        }
        return Status::Ok();
      }
    }
    loaded.warnings.push_back(fmt::format("ignored an unreadable key cache {}", file.string()));
  }
  const size_t before = loaded.warnings.size();
  if (Status st = infer(); !st.ok()) return st;
  nlohmann::json out = {{"schema", catalog::ToJson(loaded.schema)}, {"warnings", nlohmann::json::array()}};
  for (size_t i = before; i < loaded.warnings.size(); ++i) out["warnings"].push_back(loaded.warnings[i]);
  if (Status w = WriteFileAtomically(file.string(), out.dump()); !w) {
    loaded.warnings.push_back("inferred keys not cached: " + w.error().message);
  }
  return Status::Ok();
}

}  // namespace plainsql::linking
