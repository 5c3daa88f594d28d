// The built-in translator as a generator (see generator.h).
#include "builtin/generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "builtin/translator.h"
#include "common/file.h"
#include "common/strings.h"
#include "linking/linker.h"
#include "naturalness/classifier.h"
#include "naturalness/expander.h"
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
  // The expander reads the classifier's word list, so the generator keeps the classifier.
  BuiltinGenerator(exec::Connection& conn, const catalog::Schema& schema, naturalness::Classifier classifier,
                   std::map<std::string, std::string> abbreviations, std::shared_ptr<const retrieval::WordNet> wordnet)
      : conn_(conn),
        schema_(schema),
        classifier_(std::move(classifier)),
        expander_(classifier_.Words(), std::move(abbreviations)),
        wordnet_(std::move(wordnet)) {}
  std::string Name() const override { return "builtin"; }
  bool CanRefine() const override { return false; }
  bool Offline() const override { return true; }

  Result<generate::Generation> Generate(const generate::GenerationRequest& request) override {
    const catalog::Schema& shown = request.schema ? *request.schema : schema_;
    const sql::Dialect& dialect = request.dialect ? *request.dialect : conn_.dialect();
    bool native = IsNative(shown);
    if (native && !values_) {
      // The value index reads the database once; values name native tables, so they help only with native names.
      auto v = retrieval::ValueIndex::Build(conn_, schema_);
      if (!v) return v.error();
      values_ = std::make_unique<retrieval::ValueIndex>(std::move(*v));
    }
    auto& index = indexes_[&shown];
    if (!index) index = std::make_unique<linking::SchemaIndex>(shown, stemmer_, &expander_, wordnet_.get());
    Translator translator(shown, *index, native ? values_.get() : nullptr);
    Translation t = translator.Translate(request.question, dialect, stemmer_);
    if (t.candidates.empty()) {
      std::string unlinked = t.unlinked.empty() ? "" : " (not linked: " + Join(t.unlinked, ", ") + ")";
      return MakeError(ErrorCode::kNotFound, "the built-in translator cannot answer this: " + t.reason + unlinked);
    }
    return ToGeneration(t, request, dialect);
  }

 private:
  bool IsNative(const catalog::Schema& shown) const {
    return shown.tables.size() == schema_.tables.size() &&
           std::equal(shown.tables.begin(), shown.tables.end(), schema_.tables.begin(),
                      [](const catalog::Table& a, const catalog::Table& b) { return a.name == b.name; });
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
      g.confidence.push_back(c.score);
      g.caveats.push_back(caveat);
      for (const auto& n : c.notes) g.notes.push_back(n);
      g.notes.push_back(fmt::format("score {:.2f}", c.score));
    }
    if (!caveat.empty()) g.notes.push_back(caveat);
    if (!wordnet_) {
      g.notes.emplace_back("WordNet not found (package wordnet-base): names linked as written, no synonyms");
    }
    return g;
  }

  exec::Connection& conn_;
  const catalog::Schema& schema_;
  naturalness::Classifier classifier_;
  naturalness::Expander expander_;
  std::shared_ptr<const retrieval::WordNet> wordnet_;  // null when WordNet is not installed: no synonyms
  retrieval::Stemmer stemmer_;
  std::unique_ptr<retrieval::ValueIndex> values_;
  std::map<const catalog::Schema*, std::unique_ptr<linking::SchemaIndex>> indexes_;
};

}  // namespace

Result<std::unique_ptr<generate::Generator>> MakeBuiltinGenerator(exec::Connection& conn,
                                                                  const catalog::Schema& schema) {
  auto classifier = naturalness::Classifier::Load(DataDir());
  if (!classifier) return classifier.error();
  auto abbreviations = naturalness::Expander::LoadAbbreviations(DataDir() + "/abbreviations.tsv");
  if (!abbreviations) return abbreviations.error();
  // WordNet is read once per process and shared; without it the translator links names as written only.
  static const std::shared_ptr<const retrieval::WordNet> kWordNet = [] {
    auto wn = retrieval::WordNet::Open();
    return wn ? *wn : nullptr;
  }();
  return std::unique_ptr<generate::Generator>(
      new BuiltinGenerator(conn, schema, std::move(*classifier), std::move(*abbreviations), kWordNet));
}

}  // namespace plainsql::builtin
