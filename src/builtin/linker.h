// Schema linking for the built-in translator: which tables and columns a question mentions. Each table and column is
// indexed by the stems of the words of its name (split as naturalness::SplitWords splits them) and, when the expander
// reads a cryptic name differently, of its expansion ("MO_ST" → "maintenance order status"); question n-grams are
// matched against them.
#pragma once

#include <string>
#include <vector>

#include "builtin/text.h"
#include "catalog/schema.h"

namespace plainsql::naturalness {
class Expander;
}

namespace plainsql::builtin {

struct SchemaElement {
  std::string table;
  std::string column;                             // "" for the table itself
  std::vector<std::vector<std::string>> phrases;  // stem sequences that name it (the name, its expansion)
};

class SchemaIndex {
 public:
  /// Indexes every table and column of `schema`; `expander` (optional) adds expansions of names.
  SchemaIndex(const catalog::Schema& schema, Stemmer& stemmer, const naturalness::Expander* expander = nullptr);
  const std::vector<SchemaElement>& Elements() const { return elements_; }

 private:
  std::vector<SchemaElement> elements_;
};

struct LinkMatch {
  size_t element = 0;         // index into SchemaIndex::Elements()
  size_t begin = 0, end = 0;  // the question tokens matched: [begin, end)
  double score = 0;           // 1 for a whole phrase, less for part of one; longer phrases score higher
  bool whole = false;         // every word of a phrase matched
};

/// Every match of a schema element in the question's tokens, best first. A whole phrase matches contiguous tokens
/// (stop words inside are skipped); a single non-stop word matching the head (last word) of a longer phrase is a
/// partial match ("names" for "song_name" scores below "song names").
std::vector<LinkMatch> Link(const SchemaIndex& index, const std::vector<Token>& tokens);

}  // namespace plainsql::builtin
