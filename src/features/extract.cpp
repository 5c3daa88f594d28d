// Extraction: the question's features, then the schema's (the linker's matches and the value index), then the SQL's
// (its syntax tree, resolved against the schema) and the features that compare the question with the SQL.
#include "features/extract.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include "builtin/intent.h"
#include "builtin/shape.h"
#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "features/question_features.h"
#include "features/sql_features.h"
#include "linking/subset_builtin.h"
#include "naturalness/classifier.h"
#include "sql/parser.h"
#include "sql/resolver.h"

namespace plainsql::features {

namespace {

using retrieval::Token;
using retrieval::TokenKind;
using Key = std::pair<std::string, std::string>;  // lower-case (table, column); column "" for the table

// How the question reaches each schema element.
struct Reach {
  bool any = false;      // some match, whole or partial, written or related
  bool literal = false;  // some match of its own words (whole or partial), not through WordNet or the lexicon
  bool written = false;  // a whole phrase as written (or as the name's expansion), not another word for it
};

// What the linker found: how each element is reached, which tokens some match covers, and whether a span's best
// matches are columns of several tables.
struct Links {
  std::map<Key, Reach> reach;
  std::vector<bool> covered;  // per token: some match covers it
  std::vector<bool> strong;   // per token: a whole phrase as written covers it
  bool ambiguous = false;
};

Links ReadLinks(const linking::SchemaIndex& index, const std::vector<Token>& tokens) {
  Links links;
  links.covered.assign(tokens.size(), false);
  links.strong.assign(tokens.size(), false);
  std::map<std::pair<size_t, size_t>, std::pair<double, std::set<std::string>>> best;  // span -> (score, tables)
  const auto& elements = index.Elements();
  for (const auto& m : linking::Link(index, tokens, {.abbreviated_words = true, .identifiers = true})) {
    const auto& e = elements[m.element];
    for (size_t t = m.begin; t < m.end && t < tokens.size(); ++t) links.covered[t] = true;
    if (!e.column.empty() && m.whole) {
      auto& [score, tables] = best[{m.begin, m.end}];
      if (m.score > score + 1e-9) tables.clear();
      if (m.score >= score - 1e-9) {
        score = std::max(score, m.score);
        tables.insert(ToLower(e.table));
      }
    }
    Reach& r = links.reach[{ToLower(e.table), ToLower(e.column)}];
    r.any = true;
    r.literal |= !m.related;
    // A WordNet synonym phrase weighs 0.85 and a relative scores below 0.9: neither is the name as written.
    if (m.whole && !m.related && m.score >= 0.9) {
      r.written = true;
      for (size_t t = m.begin; t < m.end && t < tokens.size(); ++t) links.strong[t] = true;
    }
  }
  for (const auto& [span, found] : best) links.ambiguous |= found.second.size() >= 2;
  return links;
}

// Words a question uses to ask rather than to name: commands, wh-words, and the cue words the translator reads
// (aggregates, superlatives, comparisons, negations, grouping, order, limits, distinct).
std::vector<bool> CueTokens(const std::vector<Token>& tokens, const builtin::Intent& intent) {
  static const std::set<std::string_view> kAsking = {
      "show",          "list",        "find",      "give",       "return",       "display",        "tell",
      "get",           "provide",     "name",      "names",      "identify",     "calculate",      "compute",
      "determine",     "please",      "me",        "number",     "count",        "many",           "much",
      "all",           "each",        "every",     "also",       "both",         "different",      "distinct",
      "unique",        "total",       "average",   "sum",        "maximum",      "minimum",        "order",
      "sorted",        "ordered",     "ascending", "descending", "alphabetical", "alphabetically", "respectively",
      "corresponding", "information", "details",   "result",     "results",      "records",        "record",
      "entries",       "ones"};
  std::vector<bool> cue(tokens.size(), false);
  auto mark = [&](size_t i) {
    if (i < cue.size()) cue[i] = true;
  };
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (kAsking.count(tokens[i].lower)) cue[i] = true;
  }
  for (const auto& a : intent.aggregates) mark(a.token);
  for (const auto& s : intent.superlatives) mark(s.token);
  for (const auto& c : intent.comparisons) mark(c.cue);
  for (size_t n : intent.negations) mark(n);
  for (size_t o : intent.order_range) mark(o);
  return cue;
}

bool Natural(const naturalness::Classifier* classifier, const std::string& name) {
  if (!classifier) return true;
  auto level = classifier->Classify(name).level;
  return level != naturalness::Level::kLow && level != naturalness::Level::kLeast;
}

// Number tokens of the question as values (commas dropped), and its number words'.
std::vector<double> QuestionNumbers(const std::vector<Token>& tokens) {
  std::vector<double> out;
  for (const auto& t : tokens) {
    if (t.kind == TokenKind::kNumber) {
      std::string digits;
      for (char c : t.text) {
        if (c != ',') digits += c;
      }
      out.push_back(std::strtod(digits.c_str(), nullptr));
    } else if (auto n = builtin::SmallNumber(t)) {
      out.push_back(static_cast<double>(*n));
    }
  }
  return out;
}

bool IsNumber(const std::string& s, double& value) {
  if (s.empty()) return false;
  char* end = nullptr;
  value = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

// Whether `needle` (lower case) occurs in `text` (lower case) as whole words: 'o' is not in "how".
bool WrittenIn(const std::string& text, const std::string& needle) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    const size_t end = at + needle.size();
    if ((at == 0 || !word_char(text[at - 1]) || !word_char(needle.front())) &&
        (end == text.size() || !word_char(text[end]) || !word_char(needle.back()))) {
      return true;
    }
  }
  return false;
}

bool Among(const std::vector<double>& numbers, double v) {
  for (double n : numbers) {
    if (n == v) return true;
  }
  return false;
}

// What the question's words say the query will look like: the translator's shape model over the question masked as it
// reads it (schema mentions "<mask>", values "<value>"), each property at P >= 0.5.
void ReadExpectedShape(const std::vector<Token>& tokens, const std::vector<bool>& mentioned,
                       const std::vector<bool>& valued, Values& values) {
  std::vector<std::string> marks(tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (valued[i]) {
      marks[i] = "<value>";
    } else if (mentioned[i]) {
      marks[i] = "<mask>";
    }
  }
  const builtin::ShapePrediction p =
      builtin::ShapeModel::Builtin().Predict(builtin::MaskWords(tokens, std::move(marks)));
  auto likely = [&](std::string_view property) { return p[builtin::ShapePropertyIndex(property)] >= 0.5; };
  Set(values, "sem.expects_where", likely("where"));
  Set(values, "sem.expects_join", likely("join"));
  Set(values, "sem.expects_group", likely("group"));
  Set(values, "sem.expects_having", likely("having"));
  Set(values, "sem.expects_order_limit", likely("order") && likely("limit"));
  Set(values, "sem.expects_count", likely("count"));
  Set(values, "sem.expects_aggregate", likely("aggregate"));
  Set(values, "sem.expects_distinct", likely("distinct"));
  Set(values, "sem.expects_set_operation", likely("intersect") || likely("union") || likely("except"));
  Set(values, "sem.expects_subquery", likely("subquery"));
  Set(values, "sem.expects_outputs", likely("outputs"));
  Set(values, "sem.expects_negation", likely("negation"));
  bool unclear = false;
  for (double q : p) unclear |= q > 0.3 && q < 0.7;
  Set(values, "sem.shape_unclear", unclear);
  const int clauses = int{likely("join")} + int{likely("group")} + int{likely("order")} + int{likely("subquery")} +
                      int{likely("intersect") || likely("union") || likely("except")};
  Set(values, "sem.expects_three_clauses", clauses >= 3);
}

// The schema features that need the question and the schema only.
void ReadSchema(const Database& db, const std::vector<Token>& tokens, const builtin::Intent& intent, const Links& links,
                Values& values) {
  const std::map<Key, Reach>& reach = links.reach;
  bool table = false, column = false, synonym = false;
  std::set<std::string> tables;
  for (const auto& [key, r] : reach) {
    (key.second.empty() ? table : column) |= r.written;
    if (r.any && !r.literal) synonym = true;
    tables.insert(key.first);
  }
  std::vector<bool> covered = links.covered;
  std::vector<bool> valued(tokens.size(), false);  // quoted or a stored value
  size_t quoted = 0, stored = 0;
  bool value_ambiguous = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind == TokenKind::kQuoted) {
      ++quoted;
      covered[i] = valued[i] = true;
    }
  }
  if (db.values) {
    std::set<std::pair<size_t, size_t>> spans;
    std::map<std::pair<size_t, size_t>, std::set<std::string>> holders;  // span -> tables storing it
    for (const auto& m : db.values->Match(tokens)) {
      spans.insert({m.begin, m.end});
      holders[{m.begin, m.end}].insert(ToLower(m.table));
      for (size_t t = m.begin; t < m.end && t < covered.size(); ++t) covered[t] = valued[t] = true;
    }
    stored = spans.size();
    for (const auto& [span, held] : holders) value_ambiguous |= held.size() >= 2;
  }
  ReadExpectedShape(tokens, links.covered, valued, values);
  const bool value = quoted + stored > 0;
  // A name the question writes as one (quoted, or capitalized inside the sentence) that no stored value covers.
  bool not_stored = false;
  if (db.values) {
    for (size_t i = 1; i < tokens.size(); ++i) {
      const Token& t = tokens[i];
      const bool capitalized = t.kind == TokenKind::kWord && !t.text.empty() &&
                               std::isupper(static_cast<unsigned char>(t.text[0])) && t.text != "I";
      if ((t.kind == TokenKind::kQuoted || capitalized) && !covered[i]) not_stored = true;
    }
  }
  const std::vector<bool> cue = CueTokens(tokens, intent);
  size_t unlinked = 0, weak = 0, columns = 0;
  for (const auto& [key, r] : reach) columns += key.second.empty() ? 0 : 1;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.kind != TokenKind::kWord || covered[i] || cue[i] || retrieval::IsStopWord(t.lower)) continue;
    if (t.lower.size() < 3 || builtin::SmallNumber(t)) continue;
    ++unlinked;
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.kind != TokenKind::kWord || !links.covered[i] || links.strong[i] || cue[i]) continue;
    if (retrieval::IsStopWord(t.lower) || t.lower.size() < 3) continue;
    ++weak;
  }
  Set(values, "db.table_named", table);
  Set(values, "db.column_named", column);
  Set(values, "db.synonym_only", synonym);
  Set(values, "db.value_mentioned", value);
  Set(values, "db.nothing_linked", reach.empty());
  Set(values, "db.cryptic_schema", db.cryptic_share > 1.0 / 3.0);
  Set(values, "db.large_schema", db.schema.ColumnCount() >= 100);
  Set(values, "db.many_tables", db.schema.tables.size() >= 8);
  Set(values, "db.unlinked_word", unlinked >= 1);
  Set(values, "db.unlinked_words", unlinked >= 2);
  Set(values, "db.two_tables_reached", tables.size() >= 2);
  Set(values, "db.three_tables_reached", tables.size() >= 3);
  Set(values, "db.ambiguous_word", links.ambiguous);
  Set(values, "db.several_values", quoted + stored >= 2);
  Set(values, "db.unlinked_words_3", unlinked >= 3);
  Set(values, "db.weak_word", weak >= 1);
  Set(values, "db.weak_words", weak >= 2);
  Set(values, "db.four_tables_reached", tables.size() >= 4);
  Set(values, "db.many_columns_reached", columns >= 5);
  Set(values, "db.value_not_stored", not_stored);
  Set(values, "db.value_ambiguous", value_ambiguous);
}

// The features that need the SQL's reads resolved against the schema.
void ReadGold(const Database& db, const sql::Query& query, const sql::Dialect& dialect, const SqlFacts& facts,
              const std::map<Key, Reach>& reach, const naturalness::Classifier* classifier, Values& values) {
  const sql::Resolution res = sql::Resolve(query, catalog::ToNameCatalog(db.schema), dialect);
  // Columns read outside join conditions.
  std::set<Key> read;
  for (const auto& [offset, tc] : res.column_at) {
    if (!facts.join_key_offsets.count(offset)) read.insert({ToLower(tc.first), ToLower(tc.second)});
  }
  auto reached = [&](const Key& k) {
    auto it = reach.find(k);
    return it == reach.end() ? Reach{} : it->second;
  };
  bool all_named = true, unnamed = false, cryptic = false;
  for (const auto& k : read) {
    const Reach r = reached(k);
    all_named &= r.written;
    unnamed |= !r.any;
  }
  bool hidden = false;
  if (res.tables.size() >= 2) {
    for (const auto& t : res.tables) {
      const std::string lt = ToLower(t);
      bool named = reached({lt, ""}).any;
      for (const auto& [key, r] : reach) named |= key.first == lt && r.any;
      hidden |= !named;
    }
  }
  for (const auto& t : res.tables) cryptic |= !Natural(classifier, t);
  for (const auto& [t, c] : res.columns) cryptic |= !Natural(classifier, c);
  Set(values, "db.gold_all_named", all_named);
  Set(values, "db.gold_unnamed_column", unnamed);
  Set(values, "db.hidden_table", hidden);
  Set(values, "db.gold_cryptic", cryptic);
}

// The features comparing the question with the SQL.
void ReadSemantics(const std::string& question, const std::vector<Token>& tokens, const SqlFacts& facts,
                   Values& values) {
  const std::vector<double> numbers = QuestionNumbers(tokens);
  bool written_numbers = false, carried = true;
  for (const auto& t : tokens) {
    if (t.kind != TokenKind::kNumber) continue;
    written_numbers = true;
    std::string digits;
    for (char c : t.text) {
      if (c != ',') digits += c;
    }
    const double v = std::strtod(digits.c_str(), nullptr);
    bool found = false;
    for (const auto& n : facts.numbers) {
      double x = 0;
      found |= IsNumber(n, x) && x == v;
    }
    for (const auto& s : facts.compared_values) {
      double x = 0;
      found |= IsNumber(s, x) && x == v;
      found |= WrittenIn(ToLower(s), t.lower);  // a year inside a date string
    }
    carried &= found;
  }
  const std::string lower = ToLower(question);
  bool unwritten = false;
  for (const auto& v : facts.compared_values) {
    double x = 0;
    if (IsNumber(v, x)) {
      unwritten |= !Among(numbers, x) && !WrittenIn(lower, ToLower(v));
    } else {
      unwritten |= !WrittenIn(lower, ToLower(v));
    }
  }
  auto q = [&](std::string_view id) { return Get(values, id) == 1; };
  Set(values, "sem.numbers_carried", written_numbers && carried);
  Set(values, "sem.value_unwritten", unwritten);
  Set(values, "sem.distinct_unasked", (q("sql.distinct") || q("sql.aggregate_distinct")) && !q("q.distinct_word"));
  Set(values, "sem.superlative_by_order", q("q.superlative") && q("sql.order_limit"));
  Set(values, "sem.superlative_by_aggregate", q("q.superlative") && facts.max_or_min);
  Set(values, "sem.count_asked", q("q.how_many") && q("sql.count"));
  Set(values, "sem.negation_agrees", q("q.negation") && q("sql.negation"));
  Set(values, "sem.negation_implicit", q("sql.negation") && !q("q.negation"));
  Set(values, "sem.grouping_implicit", q("sql.group_by") && !q("q.per_group"));
}

}  // namespace

Extractor::Extractor(std::shared_ptr<const linking::LinkResources> resources) : resources_(std::move(resources)) {}
Extractor::~Extractor() = default;

std::unique_ptr<Database> Extractor::Prepare(catalog::Schema schema, exec::Connection* connection) {
  auto db = std::make_unique<Database>();
  db->schema = std::move(schema);
  const naturalness::Expander* expander = resources_ ? resources_->expander.get() : nullptr;
  const auto* wordnet = resources_ ? resources_->wordnet.get() : nullptr;
  db->index = std::make_unique<linking::SchemaIndex>(db->schema, stemmer_, expander, wordnet);
  if (connection) {
    auto values = retrieval::ValueIndex::Build(*connection, db->schema);
    if (values) db->values = std::move(*values);
  }
  const naturalness::Classifier* classifier = resources_ ? resources_->classifier.get() : nullptr;
  std::set<std::string> names;
  for (const auto& t : db->schema.tables) {
    names.insert(t.name);
    for (const auto& c : t.columns) names.insert(c.name);
  }
  size_t cryptic = 0;
  for (const auto& n : names) cryptic += Natural(classifier, n) ? 0 : 1;
  db->cryptic_share = names.empty() ? 0 : static_cast<double>(cryptic) / static_cast<double>(names.size());
  return db;
}

Extraction Extractor::Extract(const Example& example, const Database* database, const sql::Dialect& dialect) {
  Extraction out{Unknown(), ""};
  Values& values = out.values;
  const std::vector<Token> tokens = retrieval::Tokenize(example.question, stemmer_);
  const builtin::Intent intent = builtin::ReadIntent(tokens);
  ReadQuestion(example.question, tokens, intent, !example.evidence.empty(), values);
  Links links;
  if (database) {
    links = ReadLinks(*database->index, tokens);
    ReadSchema(*database, tokens, intent, links, values);
  }
  if (example.sql.empty()) return out;
  auto query = sql::ParseQuery(example.sql, dialect);
  if (!query) {
    out.sql_error = query.error().message;
    return out;
  }
  const SqlFacts facts = ReadSql(*query, values);
  ReadSemantics(example.question, tokens, facts, values);
  if (database) {
    const naturalness::Classifier* classifier = resources_ ? resources_->classifier.get() : nullptr;
    ReadGold(*database, *query, dialect, facts, links.reach, classifier, values);
    Set(values, "sem.direct",
        Get(values, "sql.single_select") == 1 && Get(values, "db.gold_all_named") == 1 &&
            Get(values, "sem.value_unwritten") == 0);
  }
  return out;
}

nlohmann::json ToJson(const Values& values) {
  nlohmann::json holds = nlohmann::json::array(), unknown = nlohmann::json::array();
  const auto& catalog = Catalog();
  for (size_t i = 0; i < catalog.size() && i < values.size(); ++i) {
    if (values[i] == 1) holds.push_back(std::string(catalog[i].id));
    if (values[i] < 0) unknown.push_back(std::string(catalog[i].id));
  }
  nlohmann::json j;
  j["features"] = std::move(holds);
  j["unknown"] = std::move(unknown);
  return j;
}

}  // namespace plainsql::features
