// Naming a whole schema (see namer.h).
#include "naturalness/namer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

#include "common/strings.h"
#include "naturalness/identifier.h"
#include "naturalness/name_model.h"
#include "sql/dialect.h"

namespace plainsql::naturalness {

namespace {

bool IsVowel(char c) { return std::string_view("aeiouAEIOU").find(c) != std::string_view::npos; }

bool AllDigits(std::string_view w) {
  return !w.empty() &&
         std::all_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A name every dialect reads bare: letters, digits and '_', not starting with a digit, not a reserved word.
bool Plain(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return !sql::IsKeyword(name);
}

// `name` made plain: other characters become '_' (runs collapsed), a leading digit gets "n_" before it.
std::string Sanitize(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty()) out = "name";
  if (std::isdigit(static_cast<unsigned char>(out[0]))) out = "n_" + out;
  return out;
}

// `name`, or name2, name3, ... (name_2, ... when it ends in a digit): the first that is plain and not in `taken`
// (case-insensitive). Adds it to `taken`.
std::string Claim(std::string name, std::set<std::string>& taken) {
  if (!Plain(name)) name = Sanitize(name);
  std::string candidate = name;
  for (int k = 2; taken.count(ToLower(candidate)) || !Plain(candidate); ++k) {
    bool digit_end = std::isdigit(static_cast<unsigned char>(name.back()));
    candidate = fmt::format("{}{}{}", name, digit_end ? "_" : "", k);
  }
  taken.insert(ToLower(candidate));
  return candidate;
}

}  // namespace

std::string Abbreviate(std::string_view name, Level level) {
  if (level != Level::kLow && level != Level::kLeast) return std::string(name);
  std::vector<std::string_view> words = SplitWords(name);
  if (words.empty()) return std::string(name);
  bool snake = name.find('_') != std::string_view::npos || name.find(' ') != std::string_view::npos;
  std::vector<std::string> parts;
  if (level == Level::kLow) {
    for (std::string_view w : words) {
      std::string p;
      if (w.size() < 4 || AllDigits(w)) {
        p = std::string(w);
      } else {
        p += w[0];
        for (size_t i = 1; i < w.size(); ++i) {
          if (!IsVowel(w[i])) p += w[i];
        }
      }
      parts.push_back(std::move(p));
    }
  } else if (words.size() == 1) {
    std::string_view w = words[0];
    parts.emplace_back(AllDigits(w) ? w : w.substr(0, w.size() > 4 ? 3 : 1));
  } else {
    std::string initials;
    for (std::string_view w : words) {
      if (AllDigits(w)) {
        initials += std::string(w);
      } else {
        initials += static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
      }
    }
    return initials;
  }
  if (snake) return Join(parts, "_");
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string p = parts[i];
    if (i > 0 && !p.empty()) p[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(p[0])));
    out += p;
  }
  return out;
}

namespace {

// Whether a name stays as it is at N1: the classifier calls it Regular and it needs no quotes.
// In a schema of mostly cryptic names read with a name model, a short word ("Man", "Rev") is read like the others:
// there it is more often an abbreviation than the word it spells.
bool KeepsItsName(const Classifier& classifier, const std::string& name, const Expander* expander = nullptr) {
  if (expander && expander->DoubtsShortWords() && name.size() <= 4) return false;
  return classifier.Classify(name).level == Level::kRegular && Plain(name);
}

// The expander, told the schema's names, comments and dictionaries.
void Prepare(const catalog::Schema& schema, const Classifier& classifier, Expander& expander,
             const NamingOptions& options) {
  std::vector<std::string> context;
  for (const auto& t : schema.tables) {
    context.push_back(t.name);
    for (const auto& c : t.columns) context.push_back(c.name);
  }
  expander.SetContext(context);
  double cryptic = 0;
  for (const auto& name : context) cryptic += KeepsItsName(classifier, name) ? 0 : 1;  // before the share is known
  expander.SetCrypticShare(context.empty() ? 0 : cryptic / static_cast<double>(context.size()));
  for (const auto& text : options.evidence) expander.AddEvidence(text);
  AddCommentEvidence(schema, expander);
}

// What the expander reads of a name: a table's name loses a leading "TB_" / "TBL_" / "T_" (a naming convention that
// says "table", not what it holds).
std::string_view ReadPart(const std::string& name, bool is_table) {
  std::string_view rest = name;
  if (is_table) {
    std::vector<std::string_view> words = SplitWords(name);
    if (words.size() > 1 &&
        (EqualsIgnoreCase(words[0], "tb") || EqualsIgnoreCase(words[0], "tbl") || EqualsIgnoreCase(words[0], "t"))) {
      rest = std::string_view(name).substr(static_cast<size_t>(words[1].data() - name.data()));
    }
  }
  return rest;
}

// The expander's readable form; `alternatives` (optional) gets its other readings (AlternativeNames).
std::string Expanded(const Expander& expander, const std::string& name, bool is_table,
                     const NameContext* context = nullptr, std::vector<std::string>* alternatives = nullptr) {
  Expansion e = expander.Expand(ReadPart(name, is_table), context);
  if (alternatives) *alternatives = AlternativeNames(e);
  return e.name.empty() ? Sanitize(name) : e.name;
}

// The words of a name that can propose a reading of a related name: three letters or more (a reading's one-letter
// and two-letter pieces are what is left unread).
std::vector<std::string> LowerWords(const std::string& name) {
  std::vector<std::string> out;
  for (std::string_view w : SplitWords(name)) {
    if (w.size() >= 3) out.push_back(ToLower(w));
  }
  return out;
}

// What the name model is told about a table: the readable names of the tables it references.
NameContext TableContext(const catalog::Table& t, const std::map<std::string, std::string>& table_names) {
  NameContext ctx;
  ctx.is_table = true;
  for (const auto& fk : t.foreign_keys) {
    auto it = table_names.find(ToLower(fk.ref_table));
    if (it == table_names.end() || EqualsIgnoreCase(fk.ref_table, t.name)) continue;
    for (auto& w : LowerWords(it->second)) ctx.related.push_back(std::move(w));
  }
  return ctx;
}

// ... and about a column: what it holds, its table's readable name and those of the tables its keys reference.
// The words WordNet says a column's text values are, with the share of the values each names.
std::map<std::string, double> ValueKinds(const catalog::Column& c, const retrieval::WordNet& wordnet) {
  std::map<std::string, double> out;
  int looked = 0;
  for (const auto& v : c.samples) {
    std::string lemma;
    bool letters = !v.empty() && v.size() <= 40;
    for (char ch : v) {
      auto u = static_cast<unsigned char>(ch);
      if (std::isalpha(u)) {
        lemma += static_cast<char>(std::tolower(u));
      } else if (ch == ' ' || ch == '-' || ch == '_') {
        lemma += '_';
      } else {
        letters = false;
      }
    }
    if (!letters) continue;
    ++looked;
    for (const auto& k : wordnet.Kinds(lemma, 3)) out[k] += 1;
  }
  for (auto& [w, n] : out) n /= std::max(looked, 1);
  return out;
}

// Every column's value kinds, read from WordNet once per naming (each column is read twice: for its table's reading,
// then for its own). Empty without WordNet.
using ValueKindMap = std::map<const catalog::Column*, std::map<std::string, double>>;
ValueKindMap AllValueKinds(const catalog::Schema& schema, const retrieval::WordNet* wordnet) {
  ValueKindMap out;
  if (!wordnet) return out;
  for (const auto& t : schema.tables) {
    for (const auto& c : t.columns) {
      if (!c.samples.empty()) out[&c] = ValueKinds(c, *wordnet);
    }
  }
  return out;
}

NameContext ColumnContext(const catalog::Table& t, const catalog::Column& c,
                          const std::map<std::string, std::string>& table_names, const ValueKindMap& kinds) {
  NameContext ctx;
  ctx.shape = ColumnShape(t, c);
  if (auto it = kinds.find(&c); it != kinds.end()) ctx.value_kinds = it->second;
  if (auto it = table_names.find(ToLower(t.name)); it != table_names.end()) ctx.related = LowerWords(it->second);
  for (const auto& fk : t.foreign_keys) {
    bool mine = std::any_of(fk.columns.begin(), fk.columns.end(),
                            [&](const std::string& k) { return EqualsIgnoreCase(k, c.name); });
    auto it = table_names.find(ToLower(fk.ref_table));
    if (!mine || it == table_names.end()) continue;
    for (auto& w : LowerWords(it->second)) ctx.related.push_back(std::move(w));
  }
  return ctx;
}

const CrosswalkEntry* FindPrevious(const Crosswalk* previous, bool is_table, const std::string& table,
                                   const std::string& native) {
  if (!previous) return nullptr;
  const CrosswalkEntry* any = nullptr;
  for (const auto& e : previous->entries) {
    if (e.is_table != is_table || !EqualsIgnoreCase(e.native, native)) continue;
    if (is_table || EqualsIgnoreCase(e.table, table)) return &e;
    if (e.table.empty() && !any) any = &e;
  }
  return any;
}

// The expander's readable name of every table (lower-case native name -> name). Three readings: each table alone;
// then, after a first reading of its columns, with the words of its columns' readings and of the tables it references
// (a table's columns often repeat its name: "A" holding "Acnt_Nm" is an account; a table of initials, "SIC", may join
// the tables it references).
// `alternatives` (optional) gets the other readings of the tables read (lower-case native name -> readings).
std::map<std::string, std::string> ReadableTableNames(
    const catalog::Schema& schema, const Classifier& classifier, const Expander& expander, const ValueKindMap& kinds,
    std::map<std::string, std::vector<std::string>>* alternatives = nullptr) {
  std::map<std::string, std::string> first;
  for (const auto& t : schema.tables) {
    NameContext ctx;
    ctx.is_table = true;
    first[ToLower(t.name)] =
        KeepsItsName(classifier, t.name, &expander) ? t.name : Expanded(expander, t.name, true, &ctx);
  }
  std::map<std::string, std::string> second = first;
  for (const auto& t : schema.tables) {
    if (KeepsItsName(classifier, t.name, &expander)) continue;
    NameContext ctx = TableContext(t, first);
    for (const auto& c : t.columns) {
      NameContext column = ColumnContext(t, c, first, kinds);
      std::string reading =
          KeepsItsName(classifier, c.name, &expander) ? c.name : Expanded(expander, c.name, false, &column);
      for (auto& w : LowerWords(reading)) ctx.related.push_back(std::move(w));
    }
    second[ToLower(t.name)] =
        Expanded(expander, t.name, true, &ctx, alternatives ? &(*alternatives)[ToLower(t.name)] : nullptr);
  }
  return second;
}

// One reading per piece across the schema: a first reading of every cryptic name (tables, then columns with their
// tables' readings) gives the expander each piece's readings, so that the final reading of a name weighs how the
// schema's other names read the same piece ("MO" in TB_MO, MO_ID, MO_ST_CD and MO_PART). Only with a name model.
void AgreeOnPieces(const catalog::Schema& schema, const Classifier& classifier, Expander& expander,
                   const ValueKindMap& kinds, double weight) {
  if (!expander.HasNameModel() || weight <= 0) return;
  expander.SetSchemaReadings({}, 0);
  std::map<std::string, std::string> tables = ReadableTableNames(schema, classifier, expander, kinds);
  std::map<std::string, std::vector<Expander::PieceReading>> readings;
  auto add = [&](const std::string& name, bool is_table, const NameContext& ctx) {
    if (KeepsItsName(classifier, name, &expander)) return;
    const std::string_view part = ReadPart(name, is_table);
    for (const ExpandedWord& w : expander.Expand(part, &ctx).words) {
      if (w.posterior > 0 && !w.reading.empty()) {
        readings[ToLower(w.written)].push_back({ToLower(part), w.reading, w.posterior});
      }
    }
  };
  for (const auto& t : schema.tables) {
    add(t.name, true, TableContext(t, tables));
    for (const auto& c : t.columns) add(c.name, false, ColumnContext(t, c, tables, kinds));
  }
  expander.SetSchemaReadings(std::move(readings), weight);
}

}  // namespace

size_t AddCommentEvidence(const catalog::Schema& schema, Expander& expander) {
  size_t read = 0;
  auto add = [&](const std::string& comment) {
    if (comment.empty()) return;
    expander.AddEvidence(comment);
    ++read;
  };
  for (const auto& t : schema.tables) {
    add(t.comment);
    for (const auto& c : t.columns) add(c.comment);
  }
  return read;
}

std::unique_ptr<Expander> ExpanderWithComments(const Expander& expander, const catalog::Schema& schema) {
  auto out = std::make_unique<Expander>(expander);
  if (AddCommentEvidence(schema, *out) == 0) return nullptr;
  return out;
}

std::vector<PendingName> PendingNames(const catalog::Schema& schema, const Classifier& classifier, Expander& expander,
                                      const Crosswalk* previous, const NamingOptions& options) {
  Prepare(schema, classifier, expander, options);
  const ValueKindMap kinds = AllValueKinds(schema, options.wordnet);
  AgreeOnPieces(schema, classifier, expander, kinds, options.agreement);
  std::map<std::string, std::string> table_names = ReadableTableNames(schema, classifier, expander, kinds);
  std::vector<PendingName> out;
  for (const auto& t : schema.tables) {
    if (!FindPrevious(previous, true, "", t.name) && !KeepsItsName(classifier, t.name, &expander)) {
      out.push_back({t.name, "", table_names[ToLower(t.name)]});
    }
  }
  for (const auto& t : schema.tables) {
    for (const auto& c : t.columns) {
      if (!FindPrevious(previous, false, t.name, c.name) && !KeepsItsName(classifier, c.name, &expander)) {
        NameContext ctx = ColumnContext(t, c, table_names, kinds);
        out.push_back({c.name, t.name, Expanded(expander, c.name, false, &ctx)});
      }
    }
  }
  return out;
}

Crosswalk NameSchema(const catalog::Schema& schema, const Classifier& classifier, Expander& expander,
                     const Crosswalk* previous, const NamingOptions& options, NamingReport* report) {
  NamingReport local;
  NamingReport& r = report ? *report : local;
  std::string database = options.database.empty() ? schema.database : options.database;
  Prepare(schema, classifier, expander, options);
  const ValueKindMap kinds = AllValueKinds(schema, options.wordnet);
  AgreeOnPieces(schema, classifier, expander, kinds, options.agreement);
  std::map<std::string, std::vector<std::string>> table_alternatives;
  std::map<std::string, std::string> expanded_tables =
      ReadableTableNames(schema, classifier, expander, kinds, &table_alternatives);
  std::map<std::string, std::string> named_tables;  // lower-case native -> N1, once the tables are named
  // The readable form of a name: itself when it keeps its name, else a proposed name, else the expansion (with its
  // other readings in `alternatives`).
  auto readable = [&](const std::string& name, const std::string& table, bool is_table,
                      std::vector<std::string>& alternatives) {
    if (KeepsItsName(classifier, name, &expander)) return name;
    auto p = options.proposed.find({is_table ? std::string() : table, name});
    if (p != options.proposed.end() && !p->second.empty()) return p->second;
    if (is_table) {
      alternatives = table_alternatives[ToLower(name)];
      return expanded_tables[ToLower(name)];
    }
    const catalog::Table* t = schema.FindTable(table);
    const catalog::Column* c = t ? t->FindColumn(name) : nullptr;
    if (!c) return Expanded(expander, name, false, nullptr, &alternatives);
    NameContext ctx = ColumnContext(*t, *c, named_tables, kinds);
    return Expanded(expander, name, false, &ctx, &alternatives);
  };
  auto find_previous = [&](bool is_table, const std::string& table, const std::string& native) {
    return FindPrevious(previous, is_table, table, native);
  };

  Crosswalk out;
  std::set<const CrosswalkEntry*> used;
  // Levels 1..3 as indices into the taken sets.
  auto fill_levels = [&](CrosswalkEntry& e, std::array<std::set<std::string>, 3>& taken, const std::string& prefix) {
    std::string n1 = readable(e.native, e.table, e.is_table, e.alternatives);
    // A reserved word is not a natural name for a column: say whose it is ("Group" -> spare_part_group).
    if (sql::IsKeyword(n1) && !prefix.empty()) n1 = Sanitize(prefix) + "_" + ToLower(n1);
    e.n1 = Claim(n1, taken[0]);
    e.n2 = Claim(Abbreviate(e.n1, Level::kLow), taken[1]);
    e.n3 = Claim(Abbreviate(e.n1, Level::kLeast), taken[2]);
  };

  std::array<std::set<std::string>, 3> table_names;
  std::vector<CrosswalkEntry> tables;
  // Kept entries claim their names first, so that new names never take them.
  for (const auto& t : schema.tables) {
    if (const CrosswalkEntry* p = find_previous(true, "", t.name)) {
      for (int k = 0; k < 3; ++k) table_names[k].insert(ToLower(p->At(kLevels[k])));
    }
  }
  for (const auto& t : schema.tables) {
    if (const CrosswalkEntry* p = find_previous(true, "", t.name)) {
      out.entries.push_back(*p);
      used.insert(p);
      ++r.kept;
      continue;
    }
    CrosswalkEntry e;
    e.native = t.name;
    e.is_table = true;
    e.database = database;
    fill_levels(e, table_names, "");
    if (e.n1 != e.native) ++r.expanded;
    if (!e.alternatives.empty()) ++r.with_alternatives;
    ++r.added;
    out.entries.push_back(std::move(e));
  }
  for (const auto& t : schema.tables) named_tables[ToLower(t.name)] = out.TableName(t.name, Level::kRegular);
  for (const auto& t : schema.tables) {
    std::string table_n1 = out.TableName(t.name, Level::kRegular);
    std::array<std::set<std::string>, 3> column_names;
    for (const auto& c : t.columns) {
      if (const CrosswalkEntry* p = find_previous(false, t.name, c.name)) {
        for (int k = 0; k < 3; ++k) column_names[k].insert(ToLower(p->At(kLevels[k])));
      }
    }
    for (const auto& c : t.columns) {
      if (const CrosswalkEntry* p = find_previous(false, t.name, c.name)) {
        if (used.insert(p).second) {
          out.entries.push_back(*p);
          ++r.kept;
        }
        continue;
      }
      CrosswalkEntry e;
      e.native = c.name;
      e.database = database;
      e.table = t.name;
      fill_levels(e, column_names, table_n1);
      if (e.n1 != e.native) ++r.expanded;
      if (!e.alternatives.empty()) ++r.with_alternatives;
      ++r.added;
      out.entries.push_back(std::move(e));
    }
  }
  if (previous) {
    for (const auto& e : previous->entries) {
      if (used.count(&e)) continue;
      out.entries.push_back(e);
      r.stale.push_back(e.is_table || e.table.empty() ? e.native : e.table + "." + e.native);
    }
  }
  return out;
}

Result<std::unique_ptr<SchemaNamer>> SchemaNamer::Load(const std::string& data_dir, const std::string& name_model_file,
                                                       double min_posterior) {
  if (!(min_posterior >= 0 && min_posterior <= 1)) {
    return MakeError(ErrorCode::kInvalidArgument, "the least posterior must be between 0 and 1");
  }
  auto classifier = Classifier::Load(data_dir);
  if (!classifier) return classifier.error();
  auto abbreviations = Expander::LoadAbbreviations(data_dir + "/abbreviations.tsv");
  if (!abbreviations) return abbreviations.error();
  std::unique_ptr<SchemaNamer> namer(new SchemaNamer(std::move(*classifier)));
  if (name_model_file != "none") {
    auto loaded = NameModel::Load(name_model_file.empty() ? data_dir + "/name_model.tsv" : name_model_file);
    if (!loaded) return loaded.error();
    namer->name_model_ = std::move(*loaded);
    // What the stored values are, when WordNet is installed (the name model reads it; without it, names alone).
    if (auto wn = retrieval::WordNet::Open(); wn) namer->wordnet_ = *wn;
  }
  namer->expander_ = std::make_unique<Expander>(namer->classifier_.Words(), std::move(*abbreviations));
  if (namer->name_model_) namer->expander_->SetNameModel(&*namer->name_model_, min_posterior);
  return namer;
}

Crosswalk SchemaNamer::Name(const catalog::Schema& schema, const Crosswalk* previous, NamingOptions options,
                            NamingReport* report) {
  if (options.wordnet == nullptr) options.wordnet = wordnet_.get();
  return NameSchema(schema, classifier_, *expander_, previous, options, report);
}

}  // namespace plainsql::naturalness
