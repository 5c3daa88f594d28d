// Learning the lexicon (linking/lexicon.h) from solved questions (`plainsql builtin lexicon`): in each question, the
// content words that name nothing of its schema as written (nor through WordNet) are paired with the words of the
// names its gold query reads that the question does not write; pairs seen often enough, in enough databases, and in a
// large enough share of the questions where the question word was unexplained, are kept. A question's paraphrase
// (Spider train's question_syn) counts as a second question with the same query. Deterministic.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/status.h"
#include "eval/benchmark.h"
#include "linking/lexicon.h"
#include "linking/subset_builtin.h"

namespace plainsql::builtin {

struct LexiconOptions {
  std::string db_dir;        // Spider-style folder of SQLite databases
  size_t min_count = 3;      // questions a pair is seen in
  size_t min_databases = 1;  // distinct databases among them (chosen on held-out train, with the paraphrases)
  double min_share = 0.6;    // of the questions where its question word was unexplained (chosen on held-out train)
  bool paraphrases = true;   // also learn from each question's other wording (Question::paraphrase), same query
  std::function<bool(const std::string& db_id)> use;        // the databases to learn from (empty: all)
  std::function<void(size_t done, size_t total)> progress;  // may be empty
};

/// The pairs, sorted by question word, then by count (most first), then by schema word.
Result<std::vector<linking::LexiconEntry>> LearnLexicon(const eval::Benchmark& bench, const LexiconOptions& options,
                                                        const linking::LinkResources& resources);

}  // namespace plainsql::builtin
