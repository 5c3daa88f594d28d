// The built-in translator (see translator.h): the passes of passes.h over a reading of the question.
#include "builtin/translator.h"

#include <algorithm>

#include "builtin/passes.h"

namespace plainsql::builtin {

Translator::Translator(const catalog::Schema& schema, const SchemaIndex& index, const ValueIndex* values)
    : schema_(schema), index_(index), values_(values) {}

Translation Translator::Translate(const std::string& question, const sql::Dialect& dialect, Stemmer& stemmer) const {
  // The best reading, then the same question with the first stored value that several columns hold read as the next
  // column that holds it ("Toledo" as a city, else as a customer's name): later readings, ranked lower.
  Choices first;
  Translation out = Assemble(question, dialect, stemmer, first);
  if (out.candidates.empty() || !first.value_alternatives) return out;
  for (size_t k = 1; k <= first.value_alternatives && k <= 2; ++k) {
    Choices other;
    other.value_choice = k;
    Translation t = Assemble(question, dialect, stemmer, other);
    if (other.lost) continue;  // the value's table could not be joined: that reading dropped the value
    for (auto& c : t.candidates) {
      bool seen = std::any_of(out.candidates.begin(), out.candidates.end(),
                              [&](const TranslatorCandidate& x) { return x.sql == c.sql; });
      if (seen) continue;
      c.score = std::max(0.0, c.score - 0.2 * static_cast<double>(k));
      out.candidates.push_back(std::move(c));
    }
  }
  return out;
}

Translation Translator::Assemble(const std::string& question, const sql::Dialect& dialect, Stemmer& stemmer,
                                 Choices& choices) const {
  Context context{schema_, index_, values_, dialect};
  Reading r(context);
  r.choices = choices;
  r.tokens = retrieval::Tokenize(question, stemmer);
  r.intent = ReadIntent(r.tokens);
  r.links = linking::Link(index_, r.tokens, {.identifiers = true});
  if (values_) {
    // The value index reads the native database; a slice of it (ask --slice link) shows fewer tables and columns.
    r.values = values_->Match(r.tokens);
    std::erase_if(r.values, [&](const retrieval::ValueMatch& v) {
      const catalog::Table* t = schema_.FindTable(v.table);
      return t == nullptr || t->FindColumn(v.column) == nullptr;
    });
  }
  r.used.assign(r.tokens.size(), false);
  for (Pass pass : kPasses) {
    pass(r);
    if (r.stopped) break;
  }
  choices = r.choices;
  Translation out;
  out.unlinked = std::move(r.unlinked);
  out.reason = std::move(r.reason);
  for (size_t i = 0; i < r.built.size(); ++i) {
    TranslatorCandidate c;
    c.sql = std::move(r.built[i].sql);
    c.query = std::make_shared<const sql::Query>(std::move(r.built[i].query));
    c.score = std::max(0.0, r.score - 0.1 * static_cast<double>(i));
    c.notes = r.notes;
    if (!r.built[i].note.empty()) c.notes.push_back(r.built[i].note);
    out.candidates.push_back(std::move(c));
  }
  if (!out.candidates.empty()) out.reason.clear();
  return out;
}

}  // namespace plainsql::builtin
