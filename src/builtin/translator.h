// The built-in offline translator: a question in, ranked candidate queries out, from schema links, cell values,
// intent cues and foreign-key joins. No model. When nothing in the question links to the schema, it returns no
// candidate and says what it could not link, instead of guessing.
#pragma once

#include <string>
#include <vector>

#include "catalog/schema.h"
#include "common/status.h"
#include "linking/linker.h"
#include "retrieval/text.h"
#include "retrieval/value_index.h"
#include "sql/dialect.h"

namespace plainsql::builtin {

using linking::LinkMatch;
using linking::SchemaIndex;
using retrieval::Stemmer;
using retrieval::Token;
using retrieval::TokenKind;
using retrieval::ValueIndex;
using retrieval::ValueMatch;

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
  /// Readings best first: the question as linked, a same-column pair read the other way (OR / INTERSECT), and the
  /// first stored value that several columns hold read in the next ones (at most two more).
  Translation Translate(const std::string& question, const sql::Dialect& dialect, Stemmer& stemmer) const;

 private:
  struct Choices {
    size_t value_choice = 0;        // which column holds the varied value (0: the preferred one)
    bool value_seen = false;        // set while assembling: the varied value was met
    size_t value_alternatives = 0;  // set while assembling: how many other columns hold it
    std::string varied_table;       // set while assembling: the table of the column chosen for it
    bool lost = false;              // set while assembling: that table was dropped (no join to the subject)
  };
  Translation Assemble(const std::string& question, const sql::Dialect& dialect, Stemmer& stemmer,
                       Choices& choices) const;
  const catalog::Schema& schema_;
  const SchemaIndex& index_;
  const ValueIndex* values_;
};

}  // namespace plainsql::builtin
