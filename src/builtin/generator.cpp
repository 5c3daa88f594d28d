// The built-in translator as a generator (see generator.h).
#include "builtin/generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "builtin/translator.h"
#include "common/strings.h"
#include "linking/linker.h"
#include "linking/subset_builtin.h"
#include "naturalness/expander.h"
#include "naturalness/namer.h"
#include "retrieval/value_index.h"
#include "retrieval/wordnet.h"
#include "sql/parser.h"

namespace plainsql::builtin {

namespace {

// The candidate's tree: the translator's own when it builds one (a `query` field on its candidates), else the text
// parsed here, once. Null when the text does not parse (the pipeline then reports the parse error).
template <typename C>
std::shared_ptr<const sql::Query> TreeOf(const C& c, const sql::Dialect& dialect) {
  if constexpr (requires { c.query; }) {
    if (c.query) return c.query;
  }
  auto parsed = sql::ParseQuery(c.sql, dialect);
  if (!parsed) return nullptr;
  return std::make_shared<const sql::Query>(std::move(*parsed));
}

class BuiltinGenerator final : public generate::Generator {
 public:
  BuiltinGenerator(exec::Connection& conn, const catalog::Schema& schema,
                   std::shared_ptr<const linking::LinkResources> resources)
      : conn_(conn), schema_(schema), resources_(std::move(resources)) {}
  std::string Name() const override { return "builtin"; }
  bool CanRefine() const override { return false; }
  bool Offline() const override { return true; }

  Result<generate::Generation> Generate(const generate::GenerationRequest& request) override {
    const catalog::Schema& shown = request.schema ? *request.schema : schema_;
    const sql::Dialect& dialect = request.dialect ? *request.dialect : conn_.dialect();
    const bool native = IsNative(shown);
    // Other names than the database's (a crosswalk's level): with a way back to them, stored values are matched under
    // the shown names and readings run rewritten to the database's, as on native names.
    const generate::NativeNames* renamed = native ? nullptr : request.native_names;
    // Indexes per schema shown: the native schema's kept for the generator's life; another's (natural names, a slice)
    // keyed by its structure, since a caller's schema object may be a new one at an old address. A few are kept.
    const bool whole = &shown == &schema_;
    const std::string key =
        whole ? std::string() : catalog::StructuralFingerprint(shown) + (renamed ? "\x1f" + renamed->key : "");
    if (indexes_.size() > kKeptIndexes && !indexes_.contains(key)) {
      std::erase_if(indexes_, [](const auto& e) { return !e.first.empty(); });
    }
    Indexes& ix = indexes_[key];
    if (native && !values_ && !ix.values) {
      // The value index reads the database once; values name native tables, so they help only with native names. A
      // slice of a large schema (ask --slice link) reads only its own tables' values.
      const bool slice = !whole && shown.tables.size() < schema_.tables.size();
      auto v = retrieval::ValueIndex::Build(conn_, slice ? shown : schema_);
      if (!v) return v.error();
      (slice ? ix.values : values_) = std::make_unique<retrieval::ValueIndex>(std::move(*v));
    }
    if (renamed && !ix.values && renamed->shown_column) {
      if (!values_) {
        auto v = retrieval::ValueIndex::Build(conn_, schema_);
        if (!v) return v.error();
        values_ = std::make_unique<retrieval::ValueIndex>(std::move(*v));
      }
      // Only the columns the shown schema has (a slice keeps some): a value names a column the reader can use.
      ix.values = std::make_unique<retrieval::ValueIndex>(
          values_->Renamed([&](const std::string& table,
                               const std::string& column) -> std::optional<std::pair<std::string, std::string>> {
            auto to = renamed->shown_column(table, column);
            const catalog::Table* t = to ? shown.FindTable(to->first) : nullptr;
            if (t == nullptr || t->FindColumn(to->second) == nullptr) return std::nullopt;
            return to;
          }));
    }
    if (!ix.names) {
      // A schema's comments (its own, or a data dictionary's) say what its cryptic words abbreviate: "Maintenance
      // orders" for MO, so MoOperation is a maintenance order's operation and not a month's (the rename command's
      // expander reads them too).
      const naturalness::Expander* expander = resources_->expander.get();
      if (expander) ix.expander = naturalness::ExpanderWithComments(*expander, shown);
      if (ix.expander) expander = ix.expander.get();
      ix.names = std::make_unique<linking::SchemaIndex>(shown, stemmer_, expander, resources_->wordnet.get(), nullptr,
                                                        resources_->lexicon.get());
    }
    const retrieval::ValueIndex* values = renamed ? ix.values.get() : values_ ? values_.get() : ix.values.get();
    Translator translator(shown, *ix.names, native || renamed ? values : nullptr);
    Translation t = translator.Translate(request.question, dialect, stemmer_);
    // The reading scorer reads what each candidate returns: on the database's own names they are run here, briefly
    // and never past the request's deadline, then ranked. Readings under other names run rewritten to the
    // database's when the request gives the way back; without it they cannot run and are ranked without results.
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(request.deadline - generate::Clock::now());
    const bool runnable = native || (renamed && renamed->to_native);
    if (runnable && &dialect == &conn_.dialect() && left.count() > 0) {
      exec::Limits limits = kReadingRunLimits;
      limits.timeout = std::min(limits.timeout, left);
      RunCandidates(t.candidates, conn_, limits, kScoredCandidates, native ? nullptr : renamed->to_native);
    }
    RankCandidates(t.candidates, ReadingScorer::Builtin(), kScoredCandidates);
    if (t.candidates.empty()) {
      std::string unlinked = t.unlinked.empty() ? "" : " (not linked: " + Join(t.unlinked, ", ") + ")";
      return MakeError(ErrorCode::kNotFound, "the built-in translator cannot answer this: " + t.reason + unlinked);
    }
    return ToGeneration(t, request, dialect);
  }

 private:
  // Native names: the schema itself or a slice of it (ask --slice link keeps some tables and columns), each table and
  // column named as in the database, so stored values can be matched.
  bool IsNative(const catalog::Schema& shown) const {
    if (&shown == &schema_) return true;
    if (shown.tables.size() == schema_.tables.size()) {
      // The columns too: a crosswalk may keep the tables' names and rename their columns (a slice keeps some).
      return std::equal(shown.tables.begin(), shown.tables.end(), schema_.tables.begin(),
                        [](const catalog::Table& a, const catalog::Table& b) {
                          if (a.name != b.name) return false;
                          if (a.columns.size() == b.columns.size()) {
                            return std::equal(
                                a.columns.begin(), a.columns.end(), b.columns.begin(),
                                [](const catalog::Column& x, const catalog::Column& y) { return x.name == y.name; });
                          }
                          return std::all_of(a.columns.begin(), a.columns.end(), [&b](const catalog::Column& c) {
                            const catalog::Column* nc = b.FindColumn(c.name);
                            return nc != nullptr && nc->name == c.name;
                          });
                        });
    }
    return std::all_of(shown.tables.begin(), shown.tables.end(), [&](const catalog::Table& t) {
      const catalog::Table* native = schema_.FindTable(t.name);
      return native != nullptr && native->name == t.name &&
             std::all_of(t.columns.begin(), t.columns.end(), [&](const catalog::Column& c) {
               const catalog::Column* nc = native->FindColumn(c.name);
               return nc != nullptr && nc->name == c.name;
             });
    });
  }

  // Its readings are alternatives, best first, not samples: all of them go to the vote (at least three), where a
  // reading that runs and returns rows beats one that fails or returns nothing.
  generate::Generation ToGeneration(const Translation& t, const generate::GenerationRequest& request,
                                    const sql::Dialect& dialect) const {
    generate::Generation g;
    g.ranked = true;
    std::string caveat = t.unlinked.empty() ? "" : "not linked: " + Join(t.unlinked, ", ");
    for (const auto& c : t.candidates) {
      if (static_cast<int>(g.candidates.size()) >= std::max(3, request.n)) break;
      g.candidates.push_back(c.sql);
      g.queries.push_back(TreeOf(c, dialect));
      g.confidence.push_back(c.probability);
      g.unsure.push_back(ReadingScorer::Builtin().Unsure(c.features, c.probability));
      g.caveats.push_back(caveat);
      for (const auto& n : c.notes) g.notes.push_back(n);
      g.notes.push_back(fmt::format("coverage {:.2f}, P(right) {:.2f}", c.score, c.probability));
    }
    if (!caveat.empty()) g.notes.push_back(caveat);
    if (t.shape) {  // what the shape model expects of the query, for --explain
      std::vector<std::string> likely;
      for (size_t p = 0; p < kShapePropertyCount; ++p) {
        if ((*t.shape)[p] >= 0.5) likely.push_back(fmt::format("{} {:.2f}", kShapeProperties[p], (*t.shape)[p]));
      }
      g.notes.push_back("shape model: the question reads like a query with " +
                        (likely.empty() ? std::string("none of its properties (a plain list)") : Join(likely, ", ")));
    }
    if (!resources_->wordnet) {
      g.notes.emplace_back("WordNet not found (package wordnet-base): names linked as written, no synonyms");
    }
    return g;
  }

  // Candidates run and ranked by the reading scorer.
  static constexpr size_t kScoredCandidates = kRankedCandidates;

  exec::Connection& conn_;
  const catalog::Schema& schema_;
  // The expander and WordNet (null when not installed: no synonyms), shared with every other user in the process.
  std::shared_ptr<const linking::LinkResources> resources_;
  retrieval::Stemmer stemmer_;
  std::unique_ptr<retrieval::ValueIndex> values_;
  struct Indexes {
    std::unique_ptr<naturalness::Expander> expander;  // the shared one told the schema's comments, when it has some
    std::unique_ptr<linking::SchemaIndex> names;
    std::unique_ptr<retrieval::ValueIndex> values;  // a slice's own, when the whole database's is not built
  };
  static constexpr size_t kKeptIndexes = 16;
  std::map<std::string, Indexes> indexes_;  // "" for the native schema, else the shown schema's fingerprint
};

}  // namespace

Result<std::shared_ptr<const linking::LinkResources>> SharedLinkResources() {
  // Loaded once per process (the classifier's word list, the abbreviations, WordNet): a failed load is tried again.
  static std::mutex mutex;
  static std::shared_ptr<const linking::LinkResources> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  if (!loaded) {
    auto r = linking::LinkResources::Load();
    if (!r) return r.error();
    loaded = std::move(*r);
  }
  return loaded;
}

Result<std::unique_ptr<generate::Generator>> MakeBuiltinGenerator(
    exec::Connection& conn, const catalog::Schema& schema, std::shared_ptr<const linking::LinkResources> resources) {
  if (!resources) {
    auto shared = SharedLinkResources();
    if (!shared) return shared.error();
    resources = std::move(*shared);
  }
  return std::unique_ptr<generate::Generator>(new BuiltinGenerator(conn, schema, std::move(resources)));
}

}  // namespace plainsql::builtin
