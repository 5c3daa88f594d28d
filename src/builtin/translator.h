// The built-in offline translator: a question in, ranked candidate queries out, from schema links, cell values,
// intent cues and foreign-key joins. No model. When nothing in the question links to the schema, it returns no
// candidate and says what it could not link, instead of guessing.
#pragma once

#include <string>
#include <vector>

#include "builtin/linker.h"
#include "builtin/text.h"
#include "builtin/value_index.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "sql/dialect.h"

namespace plainsql::builtin {

struct TranslatorCandidate {
  std::string sql;
  double score = 0;  // 0..1: the share of the question's content words the query accounts for, less penalties
  std::vector<std::string> notes;  // what was linked, and how
};

struct Translation {
  std::vector<TranslatorCandidate> candidates;  // best first; empty when nothing could be linked
  std::vector<std::string> unlinked;            // content words nothing accounts for
  std::string reason;                           // why there is no candidate
};

class Translator {
 public:
  /// `values` may be null (no value matching). The schema, index and values must outlive the translator.
  Translator(const catalog::Schema& schema, const SchemaIndex& index, const ValueIndex* values);
  Translation Translate(const std::string& question, const sql::Dialect& dialect, Stemmer& stemmer) const;

 private:
  const catalog::Schema& schema_;
  const SchemaIndex& index_;
  const ValueIndex* values_;
};

}  // namespace plainsql::builtin
