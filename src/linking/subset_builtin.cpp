// The built-in subsetting method (see subset_builtin.h).
#include "linking/subset_builtin.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "catalog/benchmark_schema.h"
#include "catalog/cache.h"
#include "common/file.h"
#include "common/hash.h"
#include "common/strings.h"
#include "linking/infer_keys.h"
#include "naturalness/classifier.h"
#include "naturalness/expander.h"
#include "naturalness/identifier.h"
#include "naturalness/namer.h"

namespace plainsql::linking {

namespace {

// The comments of a schema's tables and columns, hashed: names derived with them are cached apart.
std::string CommentsDigest(const catalog::Schema& schema) {
  std::string all;
  for (const auto& t : schema.tables) {
    all += t.comment + '\x1f';
    for (const auto& c : t.columns) all += c.comment + '\x1f';
  }
  return fmt::format("{:016x}", Hash64(all));
}

using Clock = std::chrono::steady_clock;

// Feature names, in vector order. A new feature is added at the end of its list and the model retrained.
const std::vector<std::string> kTableFeatures = {
    "link",                 // best linker score of the table's name (0 when it is not linked)
    "whole",                // a whole phrase of the name matched
    "related",              // the best match went through WordNet
    "overlap",              // share of the name's words (and its expansion's) in the question
    "label_overlap",        // share of the label's and comment's words in the question (capped)
    "best_column_link",     // best linker score of its columns
    "best_column_overlap",  // best word overlap of its columns
    "linked_columns",       // log(1 + columns with a link or half their words in the question)
    "value_hits",           // log(1 + cell values the question names in its columns)
    "quoted_value",         // a quoted value of the question is stored in it
    "is_best",              // the table with the most evidence
    "evidence_rank",        // 1 / (1 + rank by evidence)
    "fk_near",              // 1 / (1 + foreign-key distance to the best table); 0 when unreachable
    "neighbour_evidence",   // best evidence of a table one foreign key away
    "linked_neighbours",    // log(1 + neighbours with evidence)
    "log_columns",          // log(1 + its columns)
    "log_tables",           // log(1 + tables in the schema)
    "evidence",             // max(name link, 0.8 best column link, overlap, value hit)
    "evidence_share",       // evidence / best evidence of the schema
    "bridge",               // links two tables with evidence (a many-to-many table the question never names)
    "referenced_by_best",   // the best table has a foreign key to it (a detail table's parent: its names, its labels)
    "references_best",      // it has a foreign key to the best table
    "proper_noun_names",    // the question names someone or something (a proper noun) and the table has a name column
    "distinct_column",      // best link x distinctness of its columns (a word only this column answers: "LDH")
    "full_name_names",      // the question has a full name and the table two name columns (first and last)
    "named_kind",           // its name or a column's says what a thing the question names is ("London": city)
    "measured_attribute",   // a column's name says what an adjective of the question measures ("youngest": age)
    "draft_reads",          // the built-in translator's draft reads it (0 without a database)
    "draft_given",          // the translator gave a draft for the question (its products say how far to trust it)
};

const std::vector<std::string> kColumnFeatures = {
    "link",                  // best linker score of the column's name
    "whole",                 // a whole phrase matched
    "related",               // through WordNet
    "overlap",               // share of its name's words in the question
    "label_overlap",         // share of its label's words in the question (capped)
    "value_hit",             // the question names a value stored in it
    "quoted_value",          // ... in quotes
    "primary_key",           // part of its table's primary key
    "foreign_key",           // part of a foreign key, either end
    "numeric",               // type classes
    "text",                  //
    "date",                  //
    "first_column",          // the first column of its table
    "position",              // its place in the table, 0..1
    "log_table_columns",     // log(1 + columns of its table)
    "table_link",            // its table's name link
    "table_evidence",        // its table's evidence
    "table_is_best",         // its table is the best
    "table_fk_near",         // 1 / (1 + foreign-key distance of its table to the best)
    "table_value_hits",      // values named in its table
    "best_in_table",         // the best-linked column of its table (and linked)
    "number_and_numeric",    // the question has a number and the column is numeric
    "table_overlap",         // its table's name overlap
    "column_evidence_rank",  // 1 / (1 + rank of its evidence among its table's columns)
    "first_text_column",     // the first text column of its table (what a row is usually shown by)
    "time_and_date",         // the question asks about time or age ("youngest", "recent") and the column is a date
    "table_evidence_share",  // its table's evidence / the best table's
    "table_rank",            // its table's 1 / (1 + rank by evidence)
    "proper_noun_name",      // the question has a proper noun and the column is a name ("surname", "title")
    "proper_noun_text",      // ... and the column holds text (where a named thing is looked up)
    "quoted_text",           // the question quotes a text value and the column holds text
    "distinct_link",         // 1 / the schema's columns as well matched on the same words (0: unlinked): "LDH" names
                             // one column of the schema, "name" many
    "full_name_part",        // the question has a full name and the column is a name column: 1 when its table has two
                             // (a first and a last name), 0.5 when it is the only one
    "dated_and_date",      // the question writes a year or a date ("in 1998", "1998/10/14") and the column holds dates
                           // (a date type, or a name with "date", "year" or "time": "OpenDate", "CRT_DT" expanded)
    "named_kind",          // its name (or expansion) says what a thing the question names is: WordNet's kinds of a
                           // proper noun ("branches in London": `city`; "Canadian": `country`; linking::KindsNamed)
    "measured_attribute",  // its name says what an adjective of the question measures: WordNet's attributes ("the
                           // youngest": `age`; "male": `sex`, `gender`; "longer than": `length`; linking::MeasuredBy)
    "draft_reads",         // the built-in translator's draft reads it (0 without a database)
    "draft_table",         // the draft reads its table
    "draft_given",         // the translator gave a draft for the question
};

// A column feature's place in the vector.
size_t ColumnFeature(std::string_view name) {
  return static_cast<size_t>(std::find(kColumnFeatures.begin(), kColumnFeatures.end(), name) - kColumnFeatures.begin());
}

// The draft features, which WithoutDraft clears.
const std::vector<std::string> kTableDraftFeatures = {"draft_reads", "draft_given"};
const std::vector<std::string> kColumnDraftFeatures = {"draft_reads", "draft_table", "draft_given"};

// Whether a column holds dates: a date type, or a name (or its expansion) with a date word.
bool DateColumn(const catalog::Column& column, const std::set<std::string>& name_stems) {
  if (column.type_class == catalog::TypeClass::kDatetime) return true;
  static const std::set<std::string, std::less<>> kStems = {"date", "year", "time", "dt", "yr"};
  for (const auto& s : name_stems) {
    if (kStems.count(s)) return true;
  }
  const std::string lower = ToLower(column.name);
  return lower.find("date") != std::string::npos || lower.find("year") != std::string::npos;
}

// Question words about time or age, which a date column answers ("the youngest" orders by a birth date).
bool TimeWord(std::string_view lower) {
  static const std::set<std::string, std::less<>> kWords = {
      "young",  "younger", "youngest", "old",   "older", "oldest", "recent", "recently", "latest", "earliest",
      "newest", "when",    "year",     "years", "date",  "dates",  "born",   "birth",    "age",    "ages",
      "month",  "day",     "time",     "first", "last",  "before", "after",  "since",    "until"};
  return kWords.count(lower) > 0;
}

// How a name reads as a key's: its last word is a key word (infer_keys.h: "CardCode", "order_no"), or it ends in one
// written together ("CASEID", "VEHNO"): specific, it says whose key it is; a key word alone ("ID", "Code") is bare.
// "entry" counts here too ("DocEntry", a document's key in SAP Business One's schemas); key inference does not use
// it, its effect on Spider's keys not having been measured.
enum class KeyName { kNone, kBare, kSpecific };

KeyName ReadKeyName(std::string_view name) {
  auto words = naturalness::SplitWords(name);
  if (words.empty()) return KeyName::kNone;
  const std::string last = ToLower(words.back());
  KeyName kind = KeyName::kNone;
  auto read = [&](std::string_view k) {
    if (last == k) {
      kind = words.size() == 1 ? KeyName::kBare : KeyName::kSpecific;
    } else if (words.size() == 1 && last.size() >= k.size() + 2 && last.ends_with(k)) {
      kind = KeyName::kSpecific;
    }
    return kind != KeyName::kNone;
  };
  if (read("entry")) return kind;
  for (const auto& k : KeyWords()) {
    if (read(k)) break;
  }
  return kind;
}

bool KeyLikeName(std::string_view name) { return ReadKeyName(name) != KeyName::kNone; }

// A key-like name that says whose key it is ("empID", "team_id", "CardCode"): two tables sharing it may be joined by
// it.
bool SpecificKeyName(std::string_view name) { return ReadKeyName(name) == KeyName::kSpecific; }

// A name that reads as what a row is called by: its last word is "name" or "title", or a one-word name ends in "name"
// ("surname", "forename", "LASTNAME"): where a person, a place or a work the question names is looked up.
bool NameLikeName(std::string_view name) {
  auto words = naturalness::SplitWords(name);
  // A numbered name is read without its number ("AdmFName1", "administrator's first name 1").
  while (!words.empty() &&
         std::all_of(words.back().begin(), words.back().end(), [](unsigned char ch) { return std::isdigit(ch); }))
    words.pop_back();
  if (words.empty()) return false;
  const std::string last = ToLower(words.back());
  return last == "name" || last == "title" || (words.size() == 1 && last.size() > 4 && last.ends_with("name"));
}

double Sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

// w · (x, its pairwise products) + bias, without building the expanded vector.
double Dot(const std::vector<double>& w, const std::vector<double>& x, double bias) {
  double z = bias;
  size_t k = 0;
  for (; k < x.size() && k < w.size(); ++k) z += w[k] * x[k];
  for (size_t i = 0; i < x.size(); ++i) {
    for (size_t j = i + 1; j < x.size() && k < w.size(); ++j, ++k) z += w[k] * x[i] * x[j];
  }
  return z;
}

// Content-word stems of a name (split as the naturalness splitter splits it).
void NameStems(std::string_view name, retrieval::Stemmer& stemmer, std::set<std::string>& out) {
  for (auto w : naturalness::SplitWords(name)) {
    std::string lower = ToLower(w);
    if (lower.empty() || retrieval::IsStopWord(lower)) continue;
    out.insert(stemmer.Stem(lower));
  }
}

// Content-word stems of free text (a label or a comment).
void TextStems(std::string_view text, retrieval::Stemmer& stemmer, std::set<std::string>& out) {
  for (const auto& t : retrieval::Tokenize(text, stemmer)) {
    if (t.kind == retrieval::TokenKind::kWord && !retrieval::IsStopWord(t.lower)) out.insert(t.stem);
  }
}

double Share(const std::set<std::string>& words, const std::set<std::string>& question, size_t cap) {
  if (words.empty()) return 0;
  size_t hits = 0;
  for (const auto& w : words) hits += question.count(w);
  return static_cast<double>(hits) / static_cast<double>(std::min(words.size(), cap));
}

struct KeyArc {
  size_t to = 0;
  std::vector<size_t> from_columns, to_columns;  // column indexes at each end
  bool outgoing = true;                          // this table's foreign key (false: `to` references this table)
};

// A column's stems are kept once per distinct name or label (StemSets): a large schema repeats its column names.
struct ColumnInfo {
  uint32_t name_stems = 0, label_stems = 0, comment_stems = 0;  // StemSets indexes (0: none)
  bool primary = false, foreign = false;
  bool name_like = false;  // NameLikeName
  bool date = false;       // DateColumn
};

struct LinkTable {
  std::string name;  // as the subset names it
  std::set<std::string> name_stems, label_stems;
  std::vector<ColumnInfo> columns;
  std::vector<KeyArc> arcs;
  std::vector<size_t> primary;                            // primary-key column indexes
  std::vector<std::pair<size_t, std::string>> key_names;  // (column, lower-case name) of SpecificKeyName columns
  bool has_name = false;                                  // a column is NameLikeName
  size_t name_columns = 0;                                // ... and how many
};

// Sets of stems, each once: the set of a name (with its expansion's) or of a label, by index; 0 is the empty set.
class StemSets {
 public:
  StemSets() : sets_(1) {}
  const std::set<std::string>& operator[](uint32_t i) const { return sets_[i]; }
  size_t Size() const { return sets_.size(); }
  // The set for `key`, made by `make` the first time.
  template <typename Make>
  uint32_t Of(const std::string& key, Make&& make) {
    auto [it, fresh] = by_key_.try_emplace(key, 0);
    if (fresh) {
      std::set<std::string> stems;
      make(stems);
      if (!stems.empty()) {
        it->second = static_cast<uint32_t>(sets_.size());
        sets_.push_back(std::move(stems));
      }
    }
    return it->second;
  }

 private:
  std::vector<std::set<std::string>> sets_;
  std::unordered_map<std::string, uint32_t> by_key_;
};

// Per-question evidence for one element, from the linker.
struct LinkEvidence {
  double score = 0;
  bool whole = false, related = false;
  size_t begin = 0, end = 0;  // the question's words the best match covers
  double distinct = 0;        // 1 / the schema's columns whose best match is as good on the same words (0: unlinked)
};

// The linker's and the value index's evidence for one question, over the whole schema.
struct Evidence {
  std::vector<retrieval::Token> tokens;
  std::set<std::string> qstems;
  bool has_number = false, time_word = false;
  bool dated = false;        // a year or a date is written (WritesYearOrDate)
  bool proper_noun = false;  // a capitalised word that opens no sentence and is no schema word ("Parravicini")
  bool full_name = false;    // two of them in a row ("Tyler Hewitt"): a name a first and a last name column may hold
  bool quoted_text = false;  // a quoted value with letters ('CZE')
  std::set<std::string> kind_stems;       // stems of what the things the question names are (KindsNamed)
  std::set<std::string> attribute_stems;  // stems of what its adjectives measure (MeasuredBy)
  std::vector<LinkEvidence> table_link;
  std::vector<std::vector<LinkEvidence>> column_link;
  std::vector<std::vector<int>> value_hit, value_quoted;
  std::vector<size_t> table_values;
  std::vector<bool> table_quoted;
};

// Each linked column's distinctness: 1 / the columns of the schema whose best match covers the same words at least as
// well (a word that names one column is better evidence than one that names a column in every table).
void Distinctness(std::vector<std::vector<LinkEvidence>>& columns) {
  std::map<std::pair<size_t, size_t>, std::vector<double>> by_span;  // words -> the scores of the columns on them
  for (const auto& table : columns) {
    for (const auto& c : table) {
      if (c.score > 0) by_span[{c.begin, c.end}].push_back(c.score);
    }
  }
  for (auto& table : columns) {
    for (auto& c : table) {
      if (c.score <= 0) continue;
      const auto& scores = by_span[{c.begin, c.end}];
      const auto as_good = std::count_if(scores.begin(), scores.end(), [&](double s) { return s >= c.score - 1e-9; });
      c.distinct = 1.0 / static_cast<double>(std::max<std::ptrdiff_t>(1, as_good));
    }
  }
}

// The tables a question's features describe: all of the schema's, or those the first stage kept (a narrowed schema).
struct View {
  std::vector<size_t> ids;  // the view's table i is the schema's table ids[i], in schema order
  std::vector<int> local;   // the schema's table -> its place in the view (-1: not in it)
  size_t Size() const { return ids.size(); }
};

// A stem of the first stage's index: its inverse document frequency over tables, and the tables it occurs in.
struct Posting {
  double idf = 0;
  std::vector<std::pair<size_t, double>> tables;  // (table, weight by where it occurs)
};

// Schemas with at least this many columns build the linker's index on a second thread.
constexpr size_t kBuildApartColumns = 5000;

// How much the linker's evidence (0..1.35) adds to a table's first-stage score (a sum of idf-weighted words, about
// 1-6 per word): a table the linker names outright ranks with one that shares a rare word with the question.
constexpr double kFirstStageEvidence = 3.0;

}  // namespace

namespace {

// The model's inputs: the features, then the product of every pair ("a*b"), so that a linear model can weigh one
// feature by another (a column's link counts more when its table is the best one).
std::vector<std::string> WithPairs(const std::vector<std::string>& names) {
  std::vector<std::string> out = names;
  for (size_t i = 0; i < names.size(); ++i) {
    for (size_t j = i + 1; j < names.size(); ++j) out.push_back(names[i] + "*" + names[j]);
  }
  return out;
}

}  // namespace

const std::vector<std::string>& TableFeatureNames() {
  static const std::vector<std::string> kNames = WithPairs(kTableFeatures);
  return kNames;
}

const std::vector<std::string>& ColumnFeatureNames() {
  static const std::vector<std::string> kNames = WithPairs(kColumnFeatures);
  return kNames;
}

const std::vector<std::string>& BaseTableFeatureNames() { return kTableFeatures; }
const std::vector<std::string>& BaseColumnFeatureNames() { return kColumnFeatures; }

std::vector<double> ModelInputs(const std::vector<double>& x) {
  std::vector<double> out = x;
  out.reserve(x.size() * (x.size() + 1) / 2);
  for (size_t i = 0; i < x.size(); ++i) {
    for (size_t j = i + 1; j < x.size(); ++j) out.push_back(x[i] * x[j]);
  }
  return out;
}

void WithoutDraft(QuestionFeatures& features) {
  auto clear = [](const std::vector<std::string>& all, const std::vector<std::string>& draft, std::vector<double>& x) {
    for (const auto& name : draft) {
      const size_t i = static_cast<size_t>(std::find(all.begin(), all.end(), name) - all.begin());
      if (i < x.size()) x[i] = 0;
    }
  };
  for (auto& t : features.tables) clear(kTableFeatures, kTableDraftFeatures, t);
  for (auto& table : features.columns) {
    for (auto& c : table) clear(kColumnFeatures, kColumnDraftFeatures, c);
  }
  features.draft.clear();
}

LinkResources::~LinkResources() = default;

namespace {

// A digest of what the derivations of names depend on besides the schema: the program (a new build may expand
// differently) and the naturalness data files, by size and modification time, and whether WordNet is there.
std::string ResourcesVersion(bool with_wordnet) {
  Hasher h;
  auto add = [&](const std::filesystem::path& p) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(p, ec);
    const auto time = std::filesystem::last_write_time(p, ec);
    h.Update(p.filename().string());
    h.Update(static_cast<int64_t>(ec ? 0 : size));
    h.Update(static_cast<int64_t>(ec ? 0 : time.time_since_epoch().count()));
  };
  add("/proc/self/exe");
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(DataDir(), ec)) {
    if (e.is_regular_file(ec)) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) add(f);
  h.Update(int64_t{with_wordnet});
  // A lexicon given for a measurement (linking/lexicon.h) changes what is derived.
  if (const char* lexicon = std::getenv("PLAINSQL_LEXICON")) {
    h.Update(std::string_view(lexicon));
    if (*lexicon != '\0' && std::string_view(lexicon) != "none") add(lexicon);
  }
  return h.HexDigest();
}

}  // namespace

Result<std::shared_ptr<const LinkResources>> LinkResources::Load(std::shared_ptr<const Lexicon> lexicon) {
  auto classifier = naturalness::Classifier::Load(DataDir());
  if (!classifier) return classifier.error();
  auto abbreviations = naturalness::Expander::LoadAbbreviations(DataDir() + "/abbreviations.tsv");
  if (!abbreviations) return abbreviations.error();
  auto r = std::make_shared<LinkResources>();
  r->classifier = std::make_unique<naturalness::Classifier>(std::move(*classifier));
  r->expander = std::make_unique<naturalness::Expander>(r->classifier->Words(), std::move(*abbreviations));
  auto wn = WordNet::Open();
  if (wn) r->wordnet = *wn;  // without WordNet, names are linked as written
  r->version = ResourcesVersion(r->wordnet != nullptr);
  if (lexicon) {
    // What a schema's names derive depends on the lexicon: a cache written under one is not read under another.
    r->version += fmt::format("-lexicon{}", static_cast<const void*>(lexicon.get()));
    r->lexicon = std::move(lexicon);
  }
  return std::shared_ptr<const LinkResources>(std::move(r));
}

struct BuiltinSubsetter::Impl {
  const catalog::Schema& schema;
  std::shared_ptr<const LinkResources> resources;
  const retrieval::ValueIndex* values;
  SubsetModel model;
  DraftSource draft_source;
  retrieval::Stemmer stemmer;
  std::unique_ptr<SchemaIndex> index;
  std::vector<LinkTable> tables;
  StemSets stem_sets;  // the columns' name and label stems
  std::map<std::string, size_t> table_by_lower;
  std::vector<std::map<std::string, size_t>> column_by_lower;
  size_t column_count = 0;                       // the schema's columns
  std::map<std::string, Posting> postings;       // the first stage's index (built on the first narrowed question)
  std::vector<std::vector<size_t>> components;   // the tables joined by foreign keys, directly or not
  std::vector<size_t> component_of;              // table -> its component
  std::unordered_set<std::string> schema_stems;  // every stem of a table's or column's name (and its expansion)

  Impl(const catalog::Schema& s, std::shared_ptr<const LinkResources> r, const retrieval::ValueIndex* v, SubsetModel m)
      : schema(s), resources(std::move(r)), values(v), model(std::move(m)) {
    column_count = schema.ColumnCount();
    BuildIndexAndTables();
    BuildComponents();
  }

  // The expander: the resources' one, or a copy told the schema's comments (the initials their phrases explain: MO,
  // "maintenance order", in MoOperation too), made once.
  const naturalness::Expander* SchemaExpander() {
    const naturalness::Expander* shared = resources ? resources->expander.get() : nullptr;
    if (shared && !commented_checked) {
      commented = naturalness::ExpanderWithComments(*shared, schema);
      commented_checked = true;
    }
    return commented ? commented.get() : shared;
  }
  std::unique_ptr<naturalness::Expander> commented;
  bool commented_checked = false;

  // The linker's index and the tables' stems.
  void BuildIndexAndTables() {
    const naturalness::Expander* expander = SchemaExpander();
    const WordNet* wordnet = resources ? resources->wordnet.get() : nullptr;
    const Lexicon* lexicon = resources ? resources->lexicon.get() : nullptr;
    if (column_count < kBuildApartColumns) {
      index = std::make_unique<SchemaIndex>(schema, stemmer, expander, wordnet, nullptr, lexicon);
      BuildTables(nullptr);
      return;
    }
    // A large schema: what its names derive (expansions, WordNet) is read from the cache when it was derived before,
    // and the linker's index and the tables' stems, independent, are built side by side (the index with a stemmer of
    // its own; the expander, WordNet and a loaded derivation are only read).
    const std::string file = NameCacheFile();
    NameDerivations derived;
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) {
      auto j = catalog::ReadJsonFile(file);
      if (auto d = j ? NameDerivations::FromJson(*j) : std::nullopt) derived = std::move(*d);
    }
    const bool loaded = derived.complete;
    auto built = std::async(std::launch::async, [&] {
      retrieval::Stemmer own;
      return std::make_unique<SchemaIndex>(schema, own, expander, wordnet, &derived, lexicon);
    });
    BuildTables(loaded ? &derived : nullptr);
    index = built.get();
    if (!loaded) (void)WriteFileAtomically(file, derived.ToJson().dump());  // a cache: a failed write costs time only
  }

  // Where what a large schema's names derive is kept: the cache folder (catalog::DefaultCacheDir), named by the
  // schema's structural fingerprint and the resources' version (LinkResources::version).
  std::string NameCacheFile() const {
    return fmt::format("{}/linking/names-{}-{}{}.json", catalog::DefaultCacheDir(),
                       catalog::StructuralFingerprint(schema), resources ? resources->version : "none",
                       commented ? "-" + CommentsDigest(schema) : "");
  }

  // The tables' stems and keys; `derived` (optional, complete) gives the names' expansions.
  void BuildTables(const NameDerivations* derived) {
    const naturalness::Expander* expander = SchemaExpander();
    // Once per distinct name: expanding a name is the costly part.
    auto stems_of = [&](const std::string& name) {
      return stem_sets.Of(name, [&](std::set<std::string>& out) {
        NameStems(name, stemmer, out);
        const auto known = derived ? derived->names.find(name) : decltype(derived->names)::const_iterator{};
        if (derived && known != derived->names.end()) {
          NameStems(known->second.expansion, stemmer, out);  // "" without an expander: no stems
        } else if (expander) {
          NameStems(expander->Expand(name).name, stemmer, out);
        }
      });
    };
    tables.resize(schema.tables.size());
    column_by_lower.resize(schema.tables.size());
    for (size_t t = 0; t < schema.tables.size(); ++t) {
      const catalog::Table& table = schema.tables[t];
      LinkTable& info = tables[t];
      info.name = catalog::DisplayName(schema, table);
      table_by_lower[ToLower(table.name)] = t;
      table_by_lower[ToLower(info.name)] = t;
      info.name_stems = stem_sets[stems_of(table.name)];
      schema_stems.insert(info.name_stems.begin(), info.name_stems.end());
      TextStems(table.comment, stemmer, info.label_stems);
      info.columns.resize(table.columns.size());
      for (size_t c = 0; c < table.columns.size(); ++c) {
        const catalog::Column& col = table.columns[c];
        column_by_lower[t][ToLower(col.name)] = c;
        info.columns[c].name_stems = stems_of(col.name);
        info.columns[c].name_like = NameLikeName(col.name) || NameLikeName(col.label);
        info.has_name |= info.columns[c].name_like;
        info.name_columns += info.columns[c].name_like ? 1 : 0;
        for (const auto& stem : stem_sets[info.columns[c].name_stems]) schema_stems.insert(stem);
        info.columns[c].date = DateColumn(col, stem_sets[info.columns[c].name_stems]);
        // The scorer reads a column's label (a readable name, as Spider's files give one) and not its comment: it was
        // trained without comments, and a data dictionary's sentences share common words with most questions (BIRD dev:
        // more columns kept for a lower PRe when they counted; docs/BENCHMARKS.md). Comments name tables in the first
        // stage, weighted by how rare their words are.
        if (!col.label.empty()) {
          // Keys apart from names' ("region" as a label is not the name "region", whose set holds its expansion too).
          info.columns[c].label_stems =
              stem_sets.Of(col.label + '\x1f', [&](std::set<std::string>& out) { TextStems(col.label, stemmer, out); });
        }
        if (!col.comment.empty()) {
          info.columns[c].comment_stems = stem_sets.Of(
              '\x1f' + col.comment, [&](std::set<std::string>& out) { TextStems(col.comment, stemmer, out); });
        }
      }
      for (const auto& k : table.primary_key) {
        auto it = column_by_lower[t].find(ToLower(k));
        if (it != column_by_lower[t].end()) {
          info.columns[it->second].primary = true;
          info.primary.push_back(it->second);
        }
      }
    }
    for (size_t t = 0; t < schema.tables.size(); ++t) {
      const auto& columns = schema.tables[t].columns;
      for (size_t c = 0; c < columns.size(); ++c) {
        if (SpecificKeyName(columns[c].name)) tables[t].key_names.emplace_back(c, ToLower(columns[c].name));
      }
    }
    // The foreign-key graph, both directions; a key without referenced columns references the primary key.
    for (size_t t = 0; t < schema.tables.size(); ++t) {
      for (const auto& fk : schema.tables[t].foreign_keys) {
        auto to = table_by_lower.find(ToLower(fk.ref_table));
        if (to == table_by_lower.end() || fk.columns.empty()) continue;
        KeyArc arc{to->second, {}, {}};
        for (const auto& c : fk.columns) {
          auto it = column_by_lower[t].find(ToLower(c));
          if (it != column_by_lower[t].end()) arc.from_columns.push_back(it->second);
        }
        if (fk.ref_columns.empty()) {
          arc.to_columns = tables[to->second].primary;
        } else {
          for (const auto& c : fk.ref_columns) {
            auto it = column_by_lower[to->second].find(ToLower(c));
            if (it != column_by_lower[to->second].end()) arc.to_columns.push_back(it->second);
          }
        }
        for (size_t c : arc.from_columns) tables[t].columns[c].foreign = true;
        for (size_t c : arc.to_columns) tables[to->second].columns[c].foreign = true;
        tables[to->second].arcs.push_back({t, arc.to_columns, arc.from_columns, false});
        tables[t].arcs.push_back(std::move(arc));
      }
    }
  }

  // Foreign-key hops within `view` from its table `from` to each of its tables (SIZE_MAX when unreachable).
  std::vector<size_t> Distances(const View& view, size_t from) const {
    std::vector<size_t> d(view.Size(), SIZE_MAX);
    std::deque<size_t> queue = {from};
    d[from] = 0;
    while (!queue.empty()) {
      size_t at = queue.front();
      queue.pop_front();
      for (const KeyArc& a : tables[view.ids[at]].arcs) {
        const int to = view.local[a.to];
        if (to < 0 || d[static_cast<size_t>(to)] != SIZE_MAX) continue;
        d[static_cast<size_t>(to)] = d[at] + 1;
        queue.push_back(static_cast<size_t>(to));
      }
    }
    return d;
  }

  // All tables (`ids` empty) or the given ones.
  View MakeView(const std::vector<size_t>& ids) const {
    View v;
    v.local.assign(tables.size(), -1);
    if (ids.empty()) {
      v.ids.resize(tables.size());
      for (size_t t = 0; t < tables.size(); ++t) v.ids[t] = t;
    } else {
      v.ids = ids;
    }
    for (size_t i = 0; i < v.ids.size(); ++i) v.local[v.ids[i]] = static_cast<int>(i);
    return v;
  }

  bool Narrowed() const { return model.narrow.min_columns > 0 && column_count > model.narrow.min_columns; }
  void BuildPostings();
  void BuildComponents();
  /// Each table's first-stage score; `evidence`, when given, gets each table's linker evidence (its part of the score).
  std::vector<double> FirstStageScores(const Evidence& ev, std::vector<double>* evidence = nullptr);
  std::vector<double> ComponentScores(const Evidence& ev, const std::vector<double>& score,
                                      const std::vector<double>& evidence) const;
  std::vector<size_t> BestOf(const std::vector<size_t>& candidates, const std::vector<double>& score) const;
  Evidence Gather(const std::string& question, bool with_values);
  QuestionFeatures Features(const std::string& question, bool with_database);
  QuestionFeatures FeaturesOn(const Evidence& ev, std::vector<size_t> ids, const DraftReads& draft) const;
  Subset SelectNarrowed(const std::string& question, const SubsetOptions& options);
  /// A component's scores and subset in SelectNarrowed, with its first-stage score.
  struct NarrowPart {
    QuestionScores p;
    Subset s;
    double score = 0;
  };
  Subset MergeParts(const std::vector<NarrowPart>& parts, size_t keep, size_t cap, const SubsetOptions& options) const;
  double ColumnThreshold(const SubsetCut& cut, const SubsetOptions& options) const;
  std::vector<std::vector<double>> TableFeatures(const View& view, const Evidence& ev,
                                                 const std::vector<std::vector<double>>& column_overlap,
                                                 std::vector<double>& evidence, std::vector<size_t>& distance) const;
  void ColumnFeatures(size_t t, const Evidence& ev, const std::vector<double>& overlap, const std::vector<double>& tf,
                      std::vector<std::vector<double>>& out) const;
  void AddDraft(const View& view, const DraftReads& draft, QuestionFeatures& out) const;
  QuestionScores Score(const QuestionFeatures& f) const;
  /// `floor_size`: a narrowed schema's component that keeps the floor of a schema of this many tables and columns
  /// (0: a narrowed component keeps no floor; the whole schema's floor applies when `p` is not narrowed).
  Subset Choose(const QuestionScores& p, const SubsetOptions& options, size_t floor_size = 0) const;
  void JoinPaths(const View& view, const std::vector<double>& pt, size_t top, const std::vector<bool>& kept,
                 std::vector<bool>& bridge, std::vector<std::set<size_t>>& cols, Subset& s) const;
  void SharedNameBridges(const View& view, const std::vector<double>& pt, const std::vector<bool>& kept,
                         std::vector<bool>& bridge, Subset& s) const;
  void SharedNameJoins(const View& view, const std::vector<bool>& kept, const std::vector<bool>& bridge,
                       std::vector<std::set<size_t>>& cols) const;
  void Associations(const View& view, const std::vector<bool>& kept, std::vector<bool>& bridge,
                    std::vector<std::set<size_t>>& cols, Subset& s) const;
};

QuestionScores BuiltinSubsetter::Impl::Score(const QuestionFeatures& f) const {
  QuestionScores p;
  p.draft = !f.draft.empty();
  p.table_ids = f.table_ids;
  p.columns.resize(f.tables.size());
  // Each feature into the range the model was fitted on (SubsetModel::table_ranges).
  auto clamped = [](const std::vector<double>& x, const std::vector<std::pair<double, double>>& ranges) {
    std::vector<double> out = x;
    for (size_t i = 0; i < out.size() && i < ranges.size(); ++i) {
      out[i] = std::clamp(out[i], ranges[i].first, ranges[i].second);
    }
    return out;
  };
  // The probability of each row: by the trees, walked over all rows at once (TreeEnsemble::Margins: the same
  // probabilities in less time on a large schema, docs/BENCHMARKS.md), else by the linear model.
  auto probabilities = [&](const TreeEnsemble& trees, const std::vector<double>& weights,
                           const std::vector<std::pair<double, double>>& ranges, double bias,
                           const std::vector<const std::vector<double>*>& rows) {
    std::vector<double> out;
    out.reserve(rows.size());
    if (!trees.Empty()) {
      for (double m : trees.Margins(rows)) out.push_back(Sigmoid(m));
    } else {
      for (const auto* x : rows) out.push_back(Sigmoid(Dot(weights, clamped(*x, ranges), bias)));
    }
    return out;
  };
  // A table wider than any the model was fitted on: a column with no evidence of its own shares the probability the
  // model gives the widest tables' such columns among more of them (the gold columns a question leaves unnamed do not
  // multiply with the table's width; the model cannot know that from tables of at most a few dozen columns).
  static const std::vector<size_t> kOwnEvidence = {ColumnFeature("link"), ColumnFeature("overlap"),
                                                   ColumnFeature("label_overlap"), ColumnFeature("value_hit"),
                                                   ColumnFeature("draft_reads")};
  static const size_t kWidth = ColumnFeature("log_table_columns");
  auto spread = [&](const std::vector<double>& x) {
    if (kWidth >= model.column_ranges.size() || x[kWidth] <= model.column_ranges[kWidth].second) return 1.0;
    for (size_t i : kOwnEvidence) {
      if (x[i] != 0) return 1.0;
    }
    return std::expm1(model.column_ranges[kWidth].second) / std::expm1(x[kWidth]);
  };
  std::vector<const std::vector<double>*> rows;
  rows.reserve(f.tables.size());
  for (const auto& x : f.tables) rows.push_back(&x);
  p.tables = probabilities(model.table_trees, model.table_weights, model.table_ranges, model.table_bias, rows);
  rows.clear();
  for (const auto& columns : f.columns) {
    for (const auto& x : columns) rows.push_back(&x);
  }
  const std::vector<double> columns =
      probabilities(model.column_trees, model.column_weights, model.column_ranges, model.column_bias, rows);
  for (size_t t = 0, i = 0; t < f.columns.size(); ++t) {
    for (const auto& x : f.columns[t]) p.columns[t].push_back(columns[i++] * spread(x));
  }
  return p;
}

// The first stage's index: each stem of a table's name, label, column names and column labels -> the table, with a
// weight by where it occurs (the name counts most), and the stem's inverse document frequency over tables.
void BuiltinSubsetter::Impl::BuildPostings() {
  std::unordered_map<std::string, std::vector<std::pair<size_t, double>>> weights;  // stem -> tables in order
  std::map<std::string, double> table_weights;                                      // one table's stems
  std::vector<double> set_weight(stem_sets.Size(), 0);  // a stem set's best weight in one table
  std::vector<uint32_t> used;
  auto add = [&](const std::set<std::string>& stems, double w) {
    for (const auto& s : stems) {
      double& x = table_weights[s];
      x = std::max(x, w);
    }
  };
  auto add_set = [&](uint32_t set, double w) {
    if (set == 0) return;
    if (set_weight[set] == 0) used.push_back(set);
    set_weight[set] = std::max(set_weight[set], w);
  };
  for (size_t t = 0; t < tables.size(); ++t) {
    table_weights.clear();
    add(tables[t].name_stems, 1.0);   // the table's own name
    add(tables[t].label_stems, 0.5);  // its comment
    for (const auto& c : tables[t].columns) {
      add_set(c.name_stems, 0.7);  // a column's name: a table is named by what it holds, a little less than by its name
      add_set(c.label_stems, 0.4);    // a column's label
      add_set(c.comment_stems, 0.4);  // ... or comment
    }
    for (uint32_t set : used) {
      add(stem_sets[set], set_weight[set]);
      set_weight[set] = 0;
    }
    used.clear();
    for (const auto& [stem, w] : table_weights) weights[stem].emplace_back(t, w);
  }
  const auto n = static_cast<double>(tables.size());
  for (auto& [stem, ts] : weights) {
    Posting& p = postings[stem];
    p.idf = std::log(1.0 + n / static_cast<double>(ts.size()));
    p.tables = std::move(ts);
  }
}

// The first stage's score of every table: the idf-weighted words it shares with the question plus the linker's
// evidence.
std::vector<double> BuiltinSubsetter::Impl::FirstStageScores(const Evidence& ev, std::vector<double>* evidence) {
  if (postings.empty()) BuildPostings();
  const size_t nt = tables.size();
  std::vector<double> score(nt, 0);
  for (const auto& stem : ev.qstems) {
    auto it = postings.find(stem);
    if (it == postings.end()) continue;
    for (const auto& [t, w] : it->second.tables) score[t] += it->second.idf * w;
  }
  if (evidence) evidence->assign(nt, 0);
  for (size_t t = 0; t < nt; ++t) {
    double best_column = 0;
    for (const auto& c : ev.column_link[t]) best_column = std::max(best_column, c.score);
    const double e =
        std::max({ev.table_link[t].score, 0.8 * best_column, ev.table_values[t] ? 0.8 : 0.0});  // as TableFeatures
    score[t] += kFirstStageEvidence * e;
    if (evidence) (*evidence)[t] = e;
  }
  return score;
}

// A component's first-stage score: how much of the question its tables cover together (each question stem counted
// once, at its idf times its best weight in any of the component's tables) plus the linker's best evidence in it. A
// database whose tables share the question's words between them ranks above one whose single table matches best;
// chosen on the haystack's training questions over ranking by the best table (docs/BENCHMARKS.md, twenty-fourth part).
// 0 for a component none of whose tables scored (`score` and each table's `evidence`: FirstStageScores).
std::vector<double> BuiltinSubsetter::Impl::ComponentScores(const Evidence& ev, const std::vector<double>& score,
                                                            const std::vector<double>& evidence) const {
  std::vector<double> cover(components.size(), 0), best_evidence(components.size(), 0);
  std::vector<double> top(components.size(), 0);  // the stem's best weight per component
  std::vector<size_t> touched;
  for (const auto& stem : ev.qstems) {
    auto it = postings.find(stem);
    if (it == postings.end()) continue;
    for (const auto& [t, w] : it->second.tables) {
      const size_t c = component_of[t];
      if (top[c] == 0) touched.push_back(c);
      top[c] = std::max(top[c], w);
    }
    for (size_t c : touched) {
      cover[c] += it->second.idf * top[c];
      top[c] = 0;
    }
    touched.clear();
  }
  std::vector<bool> scored(components.size(), false);
  for (size_t t = 0; t < tables.size(); ++t) {
    const size_t c = component_of[t];
    best_evidence[c] = std::max(best_evidence[c], evidence[t]);
    scored[c] = scored[c] || score[t] > 0;
  }
  std::vector<double> out(components.size(), 0);
  for (size_t c = 0; c < out.size(); ++c) {
    if (scored[c]) out[c] = cover[c] + kFirstStageEvidence * best_evidence[c];
  }
  return out;
}

// The best `narrow.tables` of `candidates` by `score` and the foreign-key neighbours of the best `narrow.neighbours_of`
// (the tables a join passes through), in schema order; all of them when they are few enough.
std::vector<size_t> BuiltinSubsetter::Impl::BestOf(const std::vector<size_t>& candidates,
                                                   const std::vector<double>& score) const {
  if (candidates.size() <= model.narrow.tables) return candidates;
  std::vector<size_t> order = candidates;
  const size_t k = model.narrow.tables;
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                    [&](size_t a, size_t b) { return score[a] != score[b] ? score[a] > score[b] : a < b; });
  std::set<size_t> keep(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k));
  for (size_t i = 0; i < std::min(k, model.narrow.neighbours_of); ++i) {
    for (const KeyArc& a : tables[order[i]].arcs) keep.insert(a.to);
  }
  return {keep.begin(), keep.end()};
}

// Connected components of the foreign-key graph.
void BuiltinSubsetter::Impl::BuildComponents() {
  component_of.assign(tables.size(), SIZE_MAX);
  for (size_t start = 0; start < tables.size(); ++start) {
    if (component_of[start] != SIZE_MAX) continue;
    std::vector<size_t> members = {start};
    component_of[start] = components.size();
    for (size_t i = 0; i < members.size(); ++i) {
      for (const KeyArc& a : tables[members[i]].arcs) {
        if (component_of[a.to] != SIZE_MAX) continue;
        component_of[a.to] = components.size();
        members.push_back(a.to);
      }
    }
    std::sort(members.begin(), members.end());
    components.push_back(std::move(members));
  }
}

Evidence BuiltinSubsetter::Impl::Gather(const std::string& question, bool with_values) {
  const size_t nt = tables.size();
  Evidence ev;
  ev.tokens = retrieval::Tokenize(question, stemmer);
  // A quoted name is read as the name, unless the cell values at hand hold it.
  std::function<bool(const retrieval::Token&)> stored;
  if (values && with_values) stored = [&](const retrieval::Token& t) { return !values->Match({t}).empty(); };
  UnquoteNames(*index, question, stemmer, ev.tokens, stored);
  ev.dated = WritesYearOrDate(question);
  size_t previous_noun = SIZE_MAX;  // the token index of the last proper noun
  for (size_t i = 0; i < ev.tokens.size(); ++i) {
    const auto& t = ev.tokens[i];
    const bool word = t.kind == retrieval::TokenKind::kWord;
    if (word && TimeWord(t.lower)) ev.time_word = true;
    if (word && !retrieval::IsStopWord(t.lower)) ev.qstems.insert(t.stem);
    if (t.kind == retrieval::TokenKind::kNumber) ev.has_number = true;
    if (t.kind == retrieval::TokenKind::kQuoted &&
        std::any_of(t.text.begin(), t.text.end(), [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)); }))
      ev.quoted_text = true;
    // A quoted name ("Jeremy Gibbons", "University of Pennsylvania") is a proper noun as one outside quotes is, and
    // two or three name words in it a full name; unless every word of it is a schema word (a value named like the
    // schema, "Computer Science").
    if (t.kind == retrieval::TokenKind::kQuoted) {
      const auto words = QuotedNameWords(t.text);
      const bool schema_words = std::all_of(words.begin(), words.end(), [&](const std::string& w) {
        return schema_stems.count(stemmer.Stem(ToLower(w))) > 0;
      });
      if (!words.empty() && !schema_words) {
        ev.proper_noun = true;
        ev.full_name |= words.size() == 2 || words.size() == 3;
      }
    }
    // A proper noun is evidence for where names are kept even when no value index can say which value it is.
    if (word && !t.text.empty() && std::isupper(static_cast<unsigned char>(t.text[0])) &&
        !OpensSentence(question, t.offset) && !retrieval::IsStopWord(t.lower) && !schema_stems.count(t.stem)) {
      ev.proper_noun = true;
      ev.full_name |= previous_noun + 1 == i;
      previous_noun = i;
    }
  }
  if (const WordNet* wordnet = resources ? resources->wordnet.get() : nullptr) {
    for (const auto& k : KindsNamed(question, ev.tokens, *wordnet)) ev.kind_stems.insert(stemmer.Stem(k));
    for (const auto& a : MeasuredBy(ev.tokens, *wordnet)) ev.attribute_stems.insert(stemmer.Stem(a));
  }
  // The linker's best match per element.
  ev.table_link.resize(nt);
  ev.column_link.resize(nt);
  ev.value_hit.resize(nt);
  ev.value_quoted.resize(nt);
  ev.table_values.assign(nt, 0);
  ev.table_quoted.assign(nt, false);
  for (size_t t = 0; t < nt; ++t) {
    ev.column_link[t].resize(tables[t].columns.size());
    ev.value_hit[t].assign(tables[t].columns.size(), 0);
    ev.value_quoted[t].assign(tables[t].columns.size(), 0);
  }
  // Every abbreviation match, a cryptic word of a name for the one question word it abbreviates too ("MAJ" for
  // "majors", "CTY" for "cities": abbreviated_words, docs/BENCHMARKS.md #18 thirtieth part), and a short dictionary
  // word a question word starts with, unless its table has a name that is that word alone ("Nam" for "names":
  // truncated_words, thirty-fourth part). Without values, a word the schema writes elsewhere also reaches its relatives
  // in the tables that lack it (written_alternatives), except in a schema the first stage narrows: in a haystack of
  // unrelated databases nearly every word is written somewhere, and there the relatives took a fifth more time for no
  // question won (docs/BENCHMARKS.md, #18).
  const LinkOptions link{.abbreviations = true,
                         .scattered_abbreviations = true,
                         .abbreviated_words = true,
                         .truncated_words = true,
                         .identifiers = true,
                         .written_alternatives = (!values || !with_values) && !Narrowed()};
  for (const LinkMatch& m : Link(*index, ev.tokens, link)) {
    const uint32_t t = index->TableOf(m.element);
    const int32_t c = index->ColumnOf(m.element);
    LinkEvidence& e = c < 0 ? ev.table_link[t] : ev.column_link[t][static_cast<size_t>(c)];
    if (m.score > e.score) e = {m.score, m.whole, m.related, m.begin, m.end, 0};
  }
  Distinctness(ev.column_link);
  if (!values || !with_values) return ev;
  // Cell values the question names. A quoted name may be stored split over columns ("Ada Lovelace" as first and last
  // name): its words are matched one by one too.
  std::vector<retrieval::ValueMatch> matches = values->Match(ev.tokens);
  std::vector<retrieval::Token> words;
  for (const auto& t : ev.tokens) {
    if (t.kind != retrieval::TokenKind::kQuoted) continue;
    for (auto& w : retrieval::Tokenize(t.text, stemmer)) {
      if (w.kind == retrieval::TokenKind::kWord && !retrieval::IsStopWord(w.lower)) words.push_back(std::move(w));
    }
  }
  if (!words.empty()) {
    for (auto& v : values->Match(words)) matches.push_back(std::move(v));
  }
  for (const auto& v : matches) {
    auto t = table_by_lower.find(ToLower(v.table));
    if (t == table_by_lower.end()) continue;
    auto c = column_by_lower[t->second].find(ToLower(v.column));
    if (c == column_by_lower[t->second].end()) continue;
    ev.value_hit[t->second][c->second] = 1;
    if (v.quoted) ev.value_quoted[t->second][c->second] = 1;
    ++ev.table_values[t->second];
    if (v.quoted) ev.table_quoted[t->second] = true;
  }
  return ev;
}

QuestionFeatures BuiltinSubsetter::Impl::Features(const std::string& question, bool with_database) {
  const Evidence ev = Gather(question, with_database);
  std::vector<size_t> ids;
  if (Narrowed()) {
    std::vector<size_t> all(tables.size());
    for (size_t t = 0; t < all.size(); ++t) all[t] = t;
    ids = BestOf(all, FirstStageScores(ev));
  }
  return FeaturesOn(ev, std::move(ids), draft_source && with_database ? draft_source(question) : DraftReads{});
}

// The features of the tables `ids` (empty: all) as if they were the schema.
QuestionFeatures BuiltinSubsetter::Impl::FeaturesOn(const Evidence& ev, std::vector<size_t> ids,
                                                    const DraftReads& draft) const {
  QuestionFeatures out;
  out.table_ids = std::move(ids);
  const View view = MakeView(out.table_ids);
  const size_t n = view.Size();
  std::vector<std::vector<double>> column_overlap(n);
  for (size_t i = 0; i < n; ++i) {
    for (const auto& c : tables[view.ids[i]].columns)
      column_overlap[i].push_back(Share(stem_sets[c.name_stems], ev.qstems, 99));
  }
  std::vector<double> evidence;
  std::vector<size_t> distance;
  out.tables = TableFeatures(view, ev, column_overlap, evidence, distance);
  out.columns.resize(n);
  for (size_t i = 0; i < n; ++i) ColumnFeatures(view.ids[i], ev, column_overlap[i], out.tables[i], out.columns[i]);
  AddDraft(view, draft, out);
  return out;
}

// A component keeps at least this many columns under SubsetNarrow::component_share, about a small database's (the
// median Spider schema has 19.5): a small budget's share would leave a component a column or two. Not tuned: on the
// haystacks measured (a budget of 835 columns, a cap of 83) it never binds.
constexpr size_t kMinComponentColumns = 24;

// A narrowed schema's subset: the model run on the best foreign-key components, one at a time as if each were the
// schema, their subsets joined while they fit the column budget (see SubsetNarrow).
Subset BuiltinSubsetter::Impl::SelectNarrowed(const std::string& question, const SubsetOptions& options) {
  const Evidence ev = Gather(question, true);
  std::vector<double> evidence;
  const std::vector<double> score = FirstStageScores(ev, &evidence);
  const std::vector<double> best = ComponentScores(ev, score, evidence);
  std::vector<size_t> order(components.size());
  for (size_t c = 0; c < order.size(); ++c) order[c] = c;
  const size_t k = std::min(order.size(), model.narrow.components);
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                    [&](size_t a, size_t b) { return best[a] != best[b] ? best[a] > best[b] : a < b; });
  const size_t budget = options.budget > 0
                            ? options.budget
                            : static_cast<size_t>(model.narrow.budget_share * static_cast<double>(column_count));
  // A caller's budget holds for the joined subset and for the first component too (a warehouse's largest component can
  // hold more columns than a prompt); the model's share caps only how many components are joined.
  SubsetOptions each = options;
  const size_t cap = model.narrow.component_share > 0
                         ? std::max(kMinComponentColumns,
                                    static_cast<size_t>(model.narrow.component_share * static_cast<double>(budget)))
                         : 0;
  std::vector<NarrowPart> parts;
  size_t joined = 0;  // the columns of the parts' subsets
  for (size_t i = 0; i < k && best[order[i]] > 0; ++i) {
    const std::vector<size_t> ids = BestOf(components[order[i]], score);
    // The best components keep the floor they would keep as a schema of their own (SubsetNarrow::floored).
    size_t floor_size = 0;
    if (i < model.narrow.floored) {
      for (size_t t : ids) floor_size += 1 + schema.tables[t].columns.size();
    }
    // No component takes more than its share of the budget (SubsetNarrow::component_share).
    SubsetOptions capped = each;
    if (cap > 0) capped.budget = capped.budget > 0 ? std::min(capped.budget, cap) : cap;
    QuestionScores p = Score(FeaturesOn(ev, ids, DraftReads{}));
    Subset s = Choose(p, capped, floor_size);
    if (joined > 0 && joined + s.columns.size() > budget) break;
    joined += s.columns.size();
    parts.push_back({std::move(p), std::move(s), best[order[i]]});
  }
  Subset out;
  if (model.narrow.component_weight > 0 && !parts.empty()) {
    out = MergeParts(parts, joined, cap, options);
  } else {
    for (const NarrowPart& part : parts) {
      out.tables.insert(out.tables.end(), part.s.tables.begin(), part.s.tables.end());
      out.columns.insert(out.columns.end(), part.s.columns.begin(), part.s.columns.end());
      out.scores.insert(part.s.scores.begin(), part.s.scores.end());
    }
  }
  for (const NarrowPart& part : parts) out.notes.insert(out.notes.end(), part.s.notes.begin(), part.s.notes.end());
  return out;
}

// The joined components' subsets spent again on the likeliest columns of the whole (SubsetNarrow::component_weight):
// each column of a table a component's subset lists is ranked by its probability within the component times the
// component's weight, (its first-stage score / the best component's)^component_weight; a column the component's own
// cut kept ranks at least at that cut's threshold, as Choose ranks join columns. The best `keep` of them are kept, no
// more than `cap` of a component (0: no cap; the best component's grown by its lead, SubsetNarrow::component_lead), by
// component and in schema order.
Subset BuiltinSubsetter::Impl::MergeParts(const std::vector<NarrowPart>& parts, size_t keep, size_t cap,
                                          const SubsetOptions& options) const {
  const double ct = ColumnThreshold(model.plain_cut, options);  // components are scored without a draft
  struct Candidate {
    double rank;
    size_t part, t, c;  // the part, the table's place in its view, the column
  };
  std::vector<View> views;
  views.reserve(parts.size());
  std::vector<Candidate> candidates;
  for (size_t i = 0; i < parts.size(); ++i) {
    const NarrowPart& part = parts[i];
    const double weight = std::pow(part.score / parts[0].score, model.narrow.component_weight);
    const std::set<std::string> chosen(part.s.columns.begin(), part.s.columns.end());
    const std::set<std::string> listed(part.s.tables.begin(), part.s.tables.end());
    views.push_back(MakeView(part.p.table_ids));
    const View& view = views.back();
    for (size_t t = 0; t < view.Size(); ++t) {
      const std::string& table = tables[view.ids[t]].name;
      if (!listed.count(table)) continue;
      for (size_t c = 0; c < part.p.columns[t].size(); ++c) {
        const double pc = part.p.columns[t][c];
        const bool kept = chosen.count(table + "." + schema.tables[view.ids[t]].columns[c].name) > 0;
        candidates.push_back({weight * (kept ? std::max(pc, ct) : pc), i, t, c});
      }
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.rank > b.rank; });
  // The best `keep`, none of a component's past its cap. The best component's cap grows with its lead over the
  // second (SubsetNarrow::component_lead): a question that one database answers far better than any other is let
  // spend more of the budget on it.
  std::vector<size_t> caps(parts.size(), cap);
  if (cap > 0 && model.narrow.component_lead > 0) {
    const double lead = parts.size() > 1 ? 1 - parts[1].score / parts[0].score : 1;
    const double grown = static_cast<double>(cap) + model.narrow.component_lead * lead * static_cast<double>(keep);
    caps[0] = std::min(keep, std::max(cap, static_cast<size_t>(grown)));
  }
  std::vector<size_t> taken(parts.size(), 0);
  std::vector<Candidate> best;
  for (const Candidate& x : candidates) {
    if (best.size() >= keep) break;
    if (cap > 0 && taken[x.part] >= caps[x.part]) continue;
    ++taken[x.part];
    best.push_back(x);
  }
  candidates = std::move(best);
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.part, a.t, a.c) < std::tie(b.part, b.t, b.c);
  });
  Subset out;
  for (const Candidate& x : candidates) {
    const NarrowPart& part = parts[x.part];
    const size_t id = views[x.part].ids[x.t];
    const std::string& table = tables[id].name;
    if (out.tables.empty() || out.tables.back() != table) {
      out.tables.push_back(table);
      out.scores[table] = part.p.tables[x.t];
    }
    const std::string name = table + "." + schema.tables[id].columns[x.c].name;
    out.columns.push_back(name);
    out.scores[name] = part.p.columns[x.t][x.c];
  }
  return out;
}

// The features of table `t`'s columns (`tf`: the table's features).
void BuiltinSubsetter::Impl::ColumnFeatures(size_t t, const Evidence& ev, const std::vector<double>& overlap,
                                            const std::vector<double>& tf,
                                            std::vector<std::vector<double>>& out) const {
  const auto& table = schema.tables[t];
  const size_t ncols = table.columns.size();
  const auto& link = ev.column_link[t];
  // Rank of each column's evidence within its table.
  std::vector<double> col_evidence(ncols);
  for (size_t c = 0; c < ncols; ++c) {
    col_evidence[c] = std::max({link[c].score, overlap[c], ev.value_hit[t][c] ? 0.8 : 0.0});
  }
  double best_link = 0;
  for (size_t c = 0; c < ncols; ++c) best_link = std::max(best_link, link[c].score);
  size_t first_text = ncols;
  const size_t name_columns = tables[t].name_columns;
  for (size_t c = 0; c < ncols && first_text == ncols; ++c) {
    if (table.columns[c].type_class == catalog::TypeClass::kText) first_text = c;
  }
  for (size_t c = 0; c < ncols; ++c) {
    const ColumnInfo& info = tables[t].columns[c];
    const LinkEvidence& l = link[c];
    const catalog::TypeClass tc = table.columns[c].type_class;
    const bool numeric = tc == catalog::TypeClass::kNumeric;
    size_t rank = 0;
    for (size_t o = 0; o < ncols; ++o) rank += col_evidence[o] > col_evidence[c] ? 1 : 0;
    out.push_back({l.score,
                   l.whole ? 1.0 : 0.0,
                   l.related ? 1.0 : 0.0,
                   overlap[c],
                   std::min(1.0, Share(stem_sets[info.label_stems], ev.qstems, 3)),
                   static_cast<double>(ev.value_hit[t][c]),
                   static_cast<double>(ev.value_quoted[t][c]),
                   info.primary ? 1.0 : 0.0,
                   info.foreign ? 1.0 : 0.0,
                   numeric ? 1.0 : 0.0,
                   tc == catalog::TypeClass::kText ? 1.0 : 0.0,
                   tc == catalog::TypeClass::kDatetime ? 1.0 : 0.0,
                   c == 0 ? 1.0 : 0.0,
                   ncols > 1 ? static_cast<double>(c) / static_cast<double>(ncols - 1) : 0.0,
                   std::log1p(static_cast<double>(ncols)),
                   tf[0],
                   tf[17],
                   tf[10],
                   tf[12],
                   tf[8],
                   l.score > 0 && l.score >= best_link ? 1.0 : 0.0,
                   ev.has_number && numeric ? 1.0 : 0.0,
                   tf[3],
                   1.0 / (1.0 + static_cast<double>(rank)),
                   c == first_text ? 1.0 : 0.0,
                   ev.time_word && tc == catalog::TypeClass::kDatetime ? 1.0 : 0.0,
                   tf[18],
                   tf[11],
                   ev.proper_noun && info.name_like ? 1.0 : 0.0,
                   ev.proper_noun && tc == catalog::TypeClass::kText ? 1.0 : 0.0,
                   ev.quoted_text && tc == catalog::TypeClass::kText ? 1.0 : 0.0,
                   l.distinct,
                   ev.full_name && info.name_like ? (name_columns >= 2 ? 1.0 : 0.5) : 0.0,
                   ev.dated && info.date ? 1.0 : 0.0,
                   Share(stem_sets[info.name_stems], ev.kind_stems, 1) > 0 ? 1.0 : 0.0,
                   Share(stem_sets[info.name_stems], ev.attribute_stems, 1) > 0 ? 1.0 : 0.0});
  }
}

void BuiltinSubsetter::Impl::AddDraft(const View& view, const DraftReads& draft, QuestionFeatures& out) const {
  const double given = draft.given ? 1.0 : 0.0;
  for (size_t i = 0; i < view.Size(); ++i) {
    const catalog::Table& st = schema.tables[view.ids[i]];
    const std::string table = ToLower(st.name);
    const double reads = draft.tables.count(table) ? 1.0 : 0.0;
    out.tables[i].push_back(reads);
    out.tables[i].push_back(given);
    for (size_t c = 0; c < out.columns[i].size(); ++c) {
      const bool column = draft.columns.count({table, ToLower(st.columns[c].name)}) > 0;
      out.columns[i][c].push_back(column ? 1.0 : 0.0);
      out.columns[i][c].push_back(reads);
      out.columns[i][c].push_back(given);
    }
  }
  if (draft.given) out.draft = draft.sql;
}

std::vector<std::vector<double>> BuiltinSubsetter::Impl::TableFeatures(
    const View& view, const Evidence& ev, const std::vector<std::vector<double>>& column_overlap,
    std::vector<double>& evidence, std::vector<size_t>& distance) const {
  const size_t nt = view.Size();
  std::vector<double> overlap(nt), best_col_link(nt, 0), best_col_overlap(nt, 0), distinct_column(nt, 0);
  std::vector<size_t> linked_cols(nt, 0);
  evidence.assign(nt, 0);
  size_t best = 0;
  for (size_t i = 0; i < nt; ++i) {
    const size_t t = view.ids[i];
    overlap[i] = Share(tables[t].name_stems, ev.qstems, 99);
    for (size_t c = 0; c < tables[t].columns.size(); ++c) {
      best_col_link[i] = std::max(best_col_link[i], ev.column_link[t][c].score);
      best_col_overlap[i] = std::max(best_col_overlap[i], column_overlap[i][c]);
      distinct_column[i] = std::max(distinct_column[i], ev.column_link[t][c].score * ev.column_link[t][c].distinct);
      if (ev.column_link[t][c].score > 0 || column_overlap[i][c] >= 0.5) ++linked_cols[i];
    }
    evidence[i] =
        std::max({ev.table_link[t].score, 0.8 * best_col_link[i], overlap[i], ev.table_values[t] ? 0.8 : 0.0});
    if (evidence[i] > evidence[best]) best = i;
  }
  const double best_evidence = nt ? evidence[best] : 0;
  distance = nt ? Distances(view, best) : std::vector<size_t>{};
  std::vector<std::vector<double>> out(nt);
  for (size_t i = 0; i < nt; ++i) {
    const size_t t = view.ids[i];
    size_t rank = 0;
    for (size_t o = 0; o < nt; ++o) rank += evidence[o] > evidence[i] ? 1 : 0;
    double neighbour = 0;
    size_t linked_neighbours = 0;
    std::set<size_t> seen;
    bool referenced_by_best = false, references_best = false;
    for (const KeyArc& a : tables[t].arcs) {
      const int to = view.local[a.to];
      if (to < 0) continue;
      if (static_cast<size_t>(to) == best && best_evidence > 0)
        (a.outgoing ? references_best : referenced_by_best) = true;
      if (!seen.insert(a.to).second) continue;
      neighbour = std::max(neighbour, evidence[static_cast<size_t>(to)]);
      if (evidence[static_cast<size_t>(to)] > 0.3) ++linked_neighbours;
    }
    const double near = distance[i] == SIZE_MAX ? 0.0 : 1.0 / (1.0 + static_cast<double>(distance[i]));
    bool named_kind = Share(tables[t].name_stems, ev.kind_stems, 1) > 0, measured = false;
    for (const ColumnInfo& c : tables[t].columns) {
      named_kind = named_kind || Share(stem_sets[c.name_stems], ev.kind_stems, 1) > 0;
      measured = measured || Share(stem_sets[c.name_stems], ev.attribute_stems, 1) > 0;
    }
    out[i] = {ev.table_link[t].score,
              ev.table_link[t].whole ? 1.0 : 0.0,
              ev.table_link[t].related ? 1.0 : 0.0,
              overlap[i],
              std::min(1.0, Share(tables[t].label_stems, ev.qstems, 3)),
              best_col_link[i],
              best_col_overlap[i],
              std::log1p(static_cast<double>(linked_cols[i])),
              std::log1p(static_cast<double>(ev.table_values[t])),
              ev.table_quoted[t] ? 1.0 : 0.0,
              i == best && best_evidence > 0 ? 1.0 : 0.0,
              1.0 / (1.0 + static_cast<double>(rank)),
              near,
              neighbour,
              std::log1p(static_cast<double>(linked_neighbours)),
              std::log1p(static_cast<double>(tables[t].columns.size())),
              std::log1p(static_cast<double>(nt)),
              evidence[i],
              best_evidence > 0 ? evidence[i] / best_evidence : 0.0,
              linked_neighbours >= 2 ? 1.0 : 0.0,
              referenced_by_best ? 1.0 : 0.0,
              references_best ? 1.0 : 0.0,
              ev.proper_noun && tables[t].has_name ? 1.0 : 0.0,
              distinct_column[i],
              ev.full_name && tables[t].name_columns >= 2 ? 1.0 : 0.0,
              named_kind ? 1.0 : 0.0,
              measured ? 1.0 : 0.0};
  }
  return out;
}

// Join paths: each kept table joined to the tree grown from the best one by a shortest foreign-key path (most probable
// first); the tables a path passes through come with the key columns of its joins. Indexes are the view's.
void BuiltinSubsetter::Impl::JoinPaths(const View& view, const std::vector<double>& pt, size_t top,
                                       const std::vector<bool>& kept, std::vector<bool>& bridge,
                                       std::vector<std::set<size_t>>& cols, Subset& s) const {
  const size_t nt = view.Size();
  std::vector<size_t> order;
  for (size_t t = 0; t < nt; ++t) {
    if (kept[t] && t != top) order.push_back(t);
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return pt[a] > pt[b]; });
  std::vector<bool> in_tree(nt, false);
  in_tree[top] = true;
  for (size_t want : order) {
    if (in_tree[want]) continue;
    std::vector<std::pair<size_t, const KeyArc*>> parent(nt, {SIZE_MAX, nullptr});
    std::deque<std::pair<size_t, size_t>> queue;  // (table, depth)
    std::vector<bool> seen(in_tree);
    for (size_t t = 0; t < nt; ++t) {
      if (in_tree[t]) queue.emplace_back(t, 0);
    }
    bool found = false;
    while (!queue.empty() && !found) {
      auto [at, depth] = queue.front();
      queue.pop_front();
      if (depth >= 4) continue;  // farther than four joins: not a path a question means
      for (const KeyArc& a : tables[view.ids[at]].arcs) {
        const int to_local = view.local[a.to];
        if (to_local < 0) continue;
        const auto to = static_cast<size_t>(to_local);
        if (seen[to]) continue;
        seen[to] = true;
        parent[to] = {at, &a};
        if (to == want) {
          found = true;
          break;
        }
        queue.emplace_back(to, depth + 1);
      }
    }
    if (!found) {
      in_tree[want] = true;  // not reachable: kept on its own
      continue;
    }
    for (size_t at = want; !in_tree[at]; at = parent[at].first) {
      auto [prev, arc] = parent[at];
      in_tree[at] = true;
      if (!kept[at]) {
        bridge[at] = true;
        s.notes.push_back(
            fmt::format("{}: on the join path to {}", tables[view.ids[at]].name, tables[view.ids[want]].name));
      }
      for (size_t c : arc->from_columns) cols[prev].insert(c);
      for (size_t c : arc->to_columns) cols[at].insert(c);
    }
  }
}

// Tables that reference two or more kept tables (many-to-many associations between them), kept with their join
// columns: a question about clients' accounts means the table that pairs them, even when both also reference a third.
void BuiltinSubsetter::Impl::Associations(const View& view, const std::vector<bool>& kept, std::vector<bool>& bridge,
                                          std::vector<std::set<size_t>>& cols, Subset& s) const {
  for (size_t t = 0; t < view.Size(); ++t) {
    if (kept[t] || bridge[t]) continue;
    std::vector<const KeyArc*> arcs;
    std::set<size_t> targets;
    for (const KeyArc& a : tables[view.ids[t]].arcs) {
      const int to = view.local[a.to];
      if (!a.outgoing || to < 0 || static_cast<size_t>(to) == t || !kept[static_cast<size_t>(to)]) continue;
      arcs.push_back(&a);
      targets.insert(static_cast<size_t>(to));
    }
    if (targets.size() < 2) continue;
    bridge[t] = true;
    std::vector<std::string> names;
    names.reserve(targets.size());
    for (size_t to : targets) names.push_back(tables[view.ids[to]].name);
    s.notes.push_back(fmt::format("{}: associates {}", tables[view.ids[t]].name, Join(names, " and ")));
    for (const KeyArc* a : arcs) {
      for (size_t c : a->from_columns) cols[t].insert(c);
      for (size_t c : a->to_columns) cols[static_cast<size_t>(view.local[a->to])].insert(c);
    }
  }
}

// Kept tables that no foreign key joins may still join by key-like names, through a table the question never names (a
// schema without declared keys: the employees and the teams, through the table pairing "empID" with "teamID"). Kept
// tables fall into groups joined by keys or by a shared specific key-like name that at most half of the tables hold
// (one in most of them is a code of every row, "STATCD", not a join); a table not kept that shares one such name with
// a group and another with a second group joins them. For each pair of groups the narrowest such table is kept (a
// pairing table is narrow), until the groups are joined.
void BuiltinSubsetter::Impl::SharedNameBridges(const View& view, const std::vector<double>& pt,
                                               const std::vector<bool>& kept, std::vector<bool>& bridge,
                                               Subset& s) const {
  const size_t nt = view.Size();
  auto in_set = [&](size_t t) { return kept[t] || bridge[t]; };
  std::unordered_map<std::string_view, std::vector<size_t>> holders;  // a name -> kept tables with it
  std::unordered_map<std::string_view, size_t> held_by;               // a name -> the view's tables with it
  size_t groups = 0;
  for (size_t t = 0; t < nt; ++t) {
    groups += in_set(t) ? 1 : 0;
    for (const auto& [c, name] : tables[view.ids[t]].key_names) {
      ++held_by[name];
      if (in_set(t)) holders[name].push_back(t);
    }
  }
  if (groups < 2 || holders.empty()) return;
  std::vector<size_t> parent(nt);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  auto unite = [&](size_t a, size_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    parent[a] = b;
    --groups;
    return true;
  };
  for (size_t t = 0; t < nt; ++t) {
    if (!in_set(t)) continue;
    for (const KeyArc& a : tables[view.ids[t]].arcs) {
      const int to = view.local[a.to];
      if (to >= 0 && in_set(static_cast<size_t>(to))) unite(t, static_cast<size_t>(to));
    }
  }
  for (const auto& [name, at] : holders) {
    if (2 * held_by[name] > nt) continue;
    for (size_t i = 1; i < at.size(); ++i) unite(at[0], at[i]);
  }
  if (groups < 2) return;
  // (group, group) -> (columns, -probability, table) of the narrowest table joining them.
  std::map<std::pair<size_t, size_t>, std::tuple<size_t, double, size_t>> best;
  std::vector<std::pair<size_t, std::string_view>> reach;  // (group, name)
  for (size_t z = 0; z < nt; ++z) {
    if (in_set(z)) continue;
    reach.clear();
    for (const auto& [c, name] : tables[view.ids[z]].key_names) {
      auto it = holders.find(name);
      if (it == holders.end()) continue;
      for (size_t t : it->second) reach.emplace_back(find(t), name);
    }
    std::sort(reach.begin(), reach.end());  // once per group and name: a name many kept tables hold is one group's
    reach.erase(std::unique(reach.begin(), reach.end()), reach.end());
    const std::tuple<size_t, double, size_t> offer{tables[view.ids[z]].columns.size(), -pt[z], z};
    for (size_t i = 0; i < reach.size(); ++i) {
      for (size_t j = i + 1; j < reach.size(); ++j) {
        if (reach[i].first == reach[j].first || reach[i].second == reach[j].second) continue;
        auto [it, fresh] = best.try_emplace(std::minmax(reach[i].first, reach[j].first), offer);
        if (!fresh && offer < it->second) it->second = offer;
      }
    }
  }
  std::vector<std::pair<std::tuple<size_t, double, size_t>, std::pair<size_t, size_t>>> offers;
  offers.reserve(best.size());
  for (const auto& [pair, offer] : best) offers.emplace_back(offer, pair);
  std::sort(offers.begin(), offers.end());
  for (const auto& [offer, pair] : offers) {
    if (!unite(pair.first, pair.second)) continue;
    const size_t z = std::get<2>(offer);
    unite(z, pair.first);
    bridge[z] = true;
    s.notes.push_back(fmt::format("{}: joins kept tables by key-like names", tables[view.ids[z]].name));
  }
}

// Key-like columns of the same name in two kept tables: the join a schema without (or with other) declared keys is
// read by ("CardCode" in a document table and in the business partners' table; "CASEID" in every table of a case).
// Kept as join columns.
void BuiltinSubsetter::Impl::SharedNameJoins(const View& view, const std::vector<bool>& kept,
                                             const std::vector<bool>& bridge,
                                             std::vector<std::set<size_t>>& cols) const {
  std::unordered_map<std::string, std::vector<std::pair<size_t, size_t>>> by_name;
  for (size_t t = 0; t < view.Size(); ++t) {
    if (!kept[t] && !bridge[t]) continue;
    const auto& columns = schema.tables[view.ids[t]].columns;
    for (size_t c = 0; c < columns.size(); ++c) by_name[ToLower(columns[c].name)].emplace_back(t, c);
  }
  for (const auto& [name, at] : by_name) {
    if (at.size() < 2 || !KeyLikeName(name)) continue;
    for (auto [t, c] : at) cols[t].insert(c);
  }
}

namespace {

// The power of a table's probability in the floor's ranking of columns (Choose). Chosen on the L-size stand-ins of the
// held-out Spider train databases and their questions on their own schemas from 0, 0.25, 0.5, 1 and 2: at the same
// share of columns 0.5 kept more questions whole on the natural, real-cryptic and opaque-table stand-ins and as many on
// the naturalness-mix ones (docs/BENCHMARKS.md, #18 thirty-sixth part).
constexpr double kFloorTablePower = 0.5;

// The score of the column at rank ceil(share × columns), most probable first, a column's score being its probability
// times its table's weight: keeping every column scoring at least that keeps at least that share of them.
double ShareThreshold(const std::vector<std::vector<double>>& columns, const std::vector<double>& table_weights,
                      double share) {
  std::vector<double> all;
  for (size_t t = 0; t < columns.size(); ++t) {
    for (double p : columns[t]) all.push_back(p * table_weights[t]);
  }
  if (all.empty()) return 1.0;
  const auto k = std::min(all.size(), static_cast<size_t>(std::ceil(share * static_cast<double>(all.size()))));
  if (k == 0) return 1.0;
  std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k - 1), all.end(), std::greater<>());
  return all[k - 1];
}

}  // namespace

double SubsetCut::Floor(double n) const {
  n = std::max(1.0, n);
  double size = min_share_full_up_to, share = min_share;
  if (n <= size) return share;
  for (const auto& [next_size, next_share] : min_share_points) {
    if (n <= next_size) return share + (next_share - share) * std::log(n / size) / std::log(next_size / size);
    size = next_size;
    share = next_share;
  }
  return share * std::pow(size / n, min_share_decay);
}

Status SubsetCut::Check() const {
  double size = min_share_full_up_to;
  for (const auto& point : min_share_points) {
    if (point.first <= size) {
      return MakeError(ErrorCode::kFormat,
                       fmt::format("the floor's point at size {:g} is not beyond the one before ({:g}): points are "
                                   "given by size, each beyond min_share_full_up_to",
                                   point.first, size));
    }
    size = point.first;
  }
  return {};
}

// The column threshold of Choose before any floor: the caller's, else the cut's for this schema's size (see Choose).
double BuiltinSubsetter::Impl::ColumnThreshold(const SubsetCut& cut, const SubsetOptions& options) const {
  const double n = static_cast<double>(tables.size() + column_count);
  return options.threshold.value_or(
      std::max(cut.column_threshold, 1.0 - std::exp(-cut.column_lambda / std::max(1.0, n))));
}

Subset BuiltinSubsetter::Impl::Choose(const QuestionScores& p, const SubsetOptions& options, size_t floor_size) const {
  const View view = MakeView(p.table_ids);
  const size_t nt = view.Size();
  // A threshold grows as the schema shrinks: leaving an element out saves 1/N of the proportion, so in a small schema
  // only a likelier element is worth its place (keep it when -log(1 - p) > lambda / N). N is the whole schema's
  // size, narrowed or not.
  const double n = static_cast<double>(tables.size() + column_count);
  const SubsetCut& cut = p.draft ? model.cut : model.plain_cut;
  const double tt =
      options.threshold.value_or(std::max(cut.table_threshold, 1.0 - std::exp(-cut.table_lambda / std::max(1.0, n))));
  double ct = ColumnThreshold(cut, options);
  // The model's floor follows the schema's size (SubsetCut::Floor); a share the caller gives is kept at every size.
  // A narrowed schema's component keeps its own size's floor, when it keeps one (SelectNarrowed).
  const double min_share = options.min_share.value_or(cut.Floor(floor_size > 0 ? static_cast<double>(floor_size) : n));
  const std::vector<double>& pt = p.tables;
  const std::vector<std::vector<double>>& pc = p.columns;
  // The floor's columns are the likeliest by their own probability times their table's to the power
  // kFloorTablePower: a share spent by the columns' probabilities alone went to every table with one plausible
  // name; in a table the question surely reads, the columns it names less plainly are the better bet.
  std::vector<double> table_weight(pt.size(), 0.0);
  double floor_threshold = HUGE_VAL;  // a column whose probability times its table's weight is this high is kept
  if (min_share > 0 && (p.table_ids.empty() || floor_size > 0)) {
    for (size_t t = 0; t < pt.size(); ++t) table_weight[t] = std::pow(pt[t], kFloorTablePower);
    floor_threshold = ShareThreshold(pc, table_weight, min_share);
  }
  const size_t small = options.small_table.value_or(cut.small_table);
  Subset s;
  if (nt == 0) return s;
  size_t top = 0;
  for (size_t t = 0; t < nt; ++t) top = pt[t] > pt[top] ? t : top;
  // Tables: over the threshold, or holding a column over it; the best one always.
  std::vector<bool> kept(nt, false), bridge(nt, false);
  std::vector<std::set<size_t>> cols(nt);
  for (size_t t = 0; t < nt; ++t) {
    kept[t] = pt[t] >= tt || t == top;
    for (size_t c = 0; c < pc[t].size(); ++c) {
      if (pc[t][c] >= ct || pc[t][c] * table_weight[t] >= floor_threshold) {
        kept[t] = true;
        cols[t].insert(c);
      }
    }
  }
  JoinPaths(view, pt, top, kept, bridge, cols, s);
  if (options.associations.value_or(cut.associations)) Associations(view, kept, bridge, cols, s);
  SharedNameBridges(view, pt, kept, bridge, s);
  SharedNameJoins(view, kept, bridge, cols);
  // Columns: small tables whole, others by the threshold, their primary key, and their best column.
  std::vector<std::pair<double, std::pair<size_t, size_t>>> chosen;  // (rank score, (table, column))
  for (size_t t = 0; t < nt; ++t) {
    if (!kept[t] && !bridge[t]) continue;
    const size_t ncols = pc[t].size();
    std::set<size_t> keys = cols[t];  // join columns, whatever their probability
    if (kept[t]) {
      if (ncols <= small) {
        for (size_t c = 0; c < ncols; ++c) cols[t].insert(c);
      } else {
        for (size_t c : tables[view.ids[t]].primary) cols[t].insert(c);
        size_t best = 0;
        for (size_t c = 0; c < ncols; ++c) best = pc[t][c] > pc[t][best] ? c : best;
        if (ncols) cols[t].insert(best);
      }
    }
    for (size_t c : cols[t]) {
      double rank = keys.count(c) ? std::max(pc[t][c], ct) : pc[t][c];
      chosen.push_back({rank + (kept[t] ? pt[t] : 0.0) * 1e-6, {t, c}});
    }
    s.scores[tables[view.ids[t]].name] = pt[t];
  }
  std::vector<bool> listed(nt);
  for (size_t t = 0; t < nt; ++t) listed[t] = kept[t] || bridge[t];
  if (options.budget > 0 && chosen.size() > options.budget) {
    std::sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    chosen.resize(options.budget);
    // A table whose every column fell to the budget is left out too (shown, it would bring its keys).
    std::fill(listed.begin(), listed.end(), false);
    for (const auto& entry : chosen) listed[entry.second.first] = true;
  }
  // Schema order (the view is in schema order).
  std::sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  for (size_t t = 0; t < nt; ++t) {
    if (listed[t]) {
      s.tables.push_back(tables[view.ids[t]].name);
    } else {
      s.scores.erase(tables[view.ids[t]].name);
    }
  }
  for (const auto& [rank, tc] : chosen) {
    auto [t, c] = tc;
    std::string name = tables[view.ids[t]].name + "." + schema.tables[view.ids[t]].columns[c].name;
    s.columns.push_back(name);
    s.scores[name] = pc[t][c];
  }
  return s;
}

BuiltinSubsetter::BuiltinSubsetter(const catalog::Schema& schema, std::shared_ptr<const LinkResources> resources,
                                   const retrieval::ValueIndex* values, SubsetModel model)
    : impl_(std::make_unique<Impl>(schema, std::move(resources), values, std::move(model))) {}

BuiltinSubsetter::~BuiltinSubsetter() = default;

QuestionFeatures BuiltinSubsetter::Features(const std::string& question, bool with_database) {
  return impl_->Features(question, with_database);
}

Subset BuiltinSubsetter::Choose(const QuestionFeatures& features, const SubsetOptions& options) const {
  return impl_->Choose(impl_->Score(features), options);
}

QuestionScores BuiltinSubsetter::Score(const QuestionFeatures& features) const { return impl_->Score(features); }

Subset BuiltinSubsetter::Choose(const QuestionScores& scores, const SubsetOptions& options) const {
  return impl_->Choose(scores, options);
}

void BuiltinSubsetter::SetModel(SubsetModel model) { impl_->model = std::move(model); }

void BuiltinSubsetter::SetCuts(const SubsetCut& cut, const SubsetCut& plain_cut) {
  impl_->model.cut = cut;
  impl_->model.plain_cut = plain_cut;
}

void BuiltinSubsetter::SetDraftSource(DraftSource draft) { impl_->draft_source = std::move(draft); }

Result<Subset> BuiltinSubsetter::Select(const std::string& question, const SubsetOptions& options) {
  auto t0 = Clock::now();
  if (impl_->Narrowed()) {
    Subset s = impl_->SelectNarrowed(question, options);
    s.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return s;
  }
  QuestionFeatures f = impl_->Features(question, true);
  Subset s = impl_->Choose(impl_->Score(f), options);
  if (!f.draft.empty()) s.notes.push_back("draft: " + f.draft);
  s.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return s;
}

}  // namespace plainsql::linking
