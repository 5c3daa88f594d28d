// Learning the lexicon (see lexicon_train.h).
#include "builtin/lexicon_train.h"

#include "builtin/train.h"
#include "builtin/words.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <set>

#include "catalog/introspect.h"
#include "catalog/name_catalog.h"
#include "common/strings.h"
#include "eval/metrics.h"
#include "exec/connection.h"
#include "linking/linker.h"
#include "retrieval/text.h"
#include "sql/parser.h"
#include "sql/resolver.h"

namespace plainsql::builtin {

namespace {

// A word worth pairing: three letters or more, letters only, not a stop word.
bool LexiconWord(const std::string& stem) {
  return stem.size() >= 3 && std::all_of(stem.begin(), stem.end(), [](unsigned char c) { return std::isalpha(c); }) &&
         !retrieval::IsStopWord(stem);
}

// Learning reads the schema without learned words.
const linking::Lexicon kNoLexicon;

// One database: its schema, its index without learned words, and every stem its names (and expansions) use.
struct LexiconDatabase {
  catalog::Schema schema;
  std::unique_ptr<linking::SchemaIndex> index;
  std::set<std::string> vocabulary;
  // "table" and "table.column" (lower case) -> the stems of that element's phrases.
  std::map<std::string, std::set<std::string>> stems;
};

std::unique_ptr<LexiconDatabase> OpenForLexicon(const std::string& db_dir, const std::string& db_id,
                                                retrieval::Stemmer& stemmer, const linking::LinkResources& resources) {
  auto opened = OpenTrainingDatabase(db_dir, db_id);
  if (!opened) return nullptr;
  auto db = std::make_unique<LexiconDatabase>();
  db->schema = std::move(opened->schema);
  db->index = std::make_unique<linking::SchemaIndex>(db->schema, stemmer, resources.expander.get(),
                                                     resources.wordnet.get(), nullptr, &kNoLexicon);
  for (const auto& e : db->index->Elements()) {
    const std::string key = ToLower(e.column.empty() ? e.table : e.table + "." + e.column);
    for (size_t p = 0; p < e.phrases.size(); ++p) {
      if (linking::IsSynonymPhrase(e, p)) continue;  // WordNet's words, not the schema's
      for (const auto& stem : e.phrases[p]) {
        db->vocabulary.insert(stem);
        db->stems[key].insert(stem);
      }
    }
  }
  return db;
}

// The schema stems the gold query reads that the question does not write.
std::set<std::string> UnwrittenSchemaStems(const LexiconDatabase& db, const std::string& gold_sql,
                                           const std::set<std::string>& question) {
  std::set<std::string> out;
  auto gold = sql::ParseQuery(gold_sql, sql::Sqlite());
  if (!gold) return out;
  const auto ids = eval::QueryIdentifiers(sql::Resolve(*gold, catalog::ToNameCatalog(db.schema), sql::Sqlite()));
  for (const auto& id : ids) {
    auto it = db.stems.find(id);
    if (it == db.stems.end()) continue;
    for (const auto& s : it->second) {
      if (LexiconWord(s) && !question.count(s)) out.insert(s);
    }
  }
  return out;
}

struct PairCount {
  size_t count = 0;
  std::set<std::string> databases;
};

// One wording of a solved question: its content words that name nothing of the schema as written (nor through
// WordNet, nor are grammar) counted, each paired with the schema words its query reads that the wording does not write.
void Learn(const LexiconDatabase& db, const eval::Question& q, const std::string& text,
           const std::set<std::string>& grammar, retrieval::Stemmer& stemmer,
           std::map<std::string, size_t>& unexplained,
           std::map<std::pair<std::string, std::string>, PairCount>& pairs) {
  std::set<std::string> question, names;
  const auto tokens = retrieval::Tokenize(text, stemmer);
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != retrieval::TokenKind::kWord) continue;
    question.insert(tokens[i].stem);
    // A capitalised word inside the sentence is a name ("Smith", "Texas"): a value, not a word for a schema name.
    if (i > 0 && std::isupper(static_cast<unsigned char>(tokens[i].text.front()))) names.insert(tokens[i].stem);
  }
  const std::set<std::string> schema = UnwrittenSchemaStems(db, q.gold_sql, question);
  for (const auto& stem : question) {
    if (!LexiconWord(stem) || db.vocabulary.count(stem) || names.count(stem) || grammar.count(stem)) continue;
    // A word WordNet already relates to what the query reads is explained.
    const auto& alts = db.index->AlternativesFor(stem);
    if (std::any_of(alts.begin(), alts.end(),
                    [&](const linking::Alternative& a) { return schema.count(a.schema_stem); })) {
      continue;
    }
    ++unexplained[stem];
    for (const auto& s : schema) {
      PairCount& p = pairs[{stem, s}];
      ++p.count;
      p.databases.insert(q.db_id);
    }
  }
}

}  // namespace

Result<std::vector<linking::LexiconEntry>> LearnLexicon(const eval::Benchmark& bench, const LexiconOptions& options,
                                                        const linking::LinkResources& resources) {
  retrieval::Stemmer stemmer;
  std::map<std::string, std::unique_ptr<LexiconDatabase>> dbs;
  std::map<std::pair<std::string, std::string>, PairCount> pairs;
  std::map<std::string, size_t> unexplained;  // question stem -> questions where it named nothing
  // Words the translator reads as part of the question's form, not as a name: cues ("how", "oldest"), quantities
  // ("younger": an age), every column ("the information of"). A pair for one would read it twice.
  std::set<std::string> grammar;
  for (const char* list : {"cue_words", "everything_words"}) {
    for (const auto& w : words::List(list)) grammar.insert(stemmer.Stem(w));
  }
  for (const char* list : {"quantities", "superlatives"}) {
    for (const auto& [w, value] : words::Pairs(list)) grammar.insert(stemmer.Stem(w));
  }
  size_t used = 0;
  for (size_t qi = 0; qi < bench.questions.size(); ++qi) {
    if (options.progress) options.progress(qi, bench.questions.size());
    const eval::Question& q = bench.questions[qi];
    if (options.use && !options.use(q.db_id)) continue;
    auto it = dbs.find(q.db_id);
    if (it == dbs.end()) it = dbs.emplace(q.db_id, OpenForLexicon(options.db_dir, q.db_id, stemmer, resources)).first;
    if (!it->second) continue;
    const LexiconDatabase& db = *it->second;
    Learn(db, q, q.question, grammar, stemmer, unexplained, pairs);
    ++used;
    if (options.paraphrases && !q.paraphrase.empty()) {
      Learn(db, q, q.paraphrase, grammar, stemmer, unexplained, pairs);
      ++used;
    }
  }
  if (options.progress) options.progress(bench.questions.size(), bench.questions.size());
  if (used == 0) {
    return MakeError(ErrorCode::kNotFound,
                     "no question could be used: no database under '" + options.db_dir + "' opened");
  }
  std::vector<linking::LexiconEntry> out;
  for (const auto& [key, p] : pairs) {
    const double share = static_cast<double>(p.count) / static_cast<double>(unexplained[key.first]);
    if (p.count < options.min_count || p.databases.size() < options.min_databases || share < options.min_share)
      continue;
    out.push_back({key.first, key.second, p.count, p.databases.size(), share});
  }
  std::sort(out.begin(), out.end(), [](const linking::LexiconEntry& a, const linking::LexiconEntry& b) {
    if (a.question_stem != b.question_stem) return a.question_stem < b.question_stem;
    if (a.count != b.count) return a.count > b.count;
    return a.schema_stem < b.schema_stem;
  });
  return out;
}

}  // namespace plainsql::builtin
