// Example selection σ (NATURAL): the solved questions most like the one asked. An example's score is
//   sample  = 0.7 · question similarity + 0.3 · SQL similarity   (question similarity alone without a draft query)
//   score   = 0.7 · sample + 0.3 · (1 − schema distance)
// where the similarities are the cosines of the embedded masked question and masked query (the draft's against the
// example's), and the schema distance is the WWL distance of the two databases' schema graphs (weights normalized to
// sum to 1 at each level). The k best of the examples scoring at least the threshold are returned. With `diverse`
// they are k different skeletons (examples::Skeleton, or the masked queries) while the store has them, ranked by score
// plus a vote: the share of the best twenty scores that the example's skeleton holds, since a skeleton many close
// examples agree on is likely the one asked for. The weights are SelectWeights (plainsql.toml's [examples] section).
//
// The store's masked questions and masked queries are each indexed once, duplicates together. With the built-in sparse
// embedder the search is exact: every example sharing a feature with the question is scored, and an example sharing
// none can only win on SQL similarity and schema closeness, which bound it; those are scored only when the bound says
// one of them could be selected. With an approximate (HNSW) index, the examples of the few hundred most similar
// questions are the candidates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "examples/example.h"
#include "retrieval/embedder.h"

namespace plainsql::examples {

struct SelectWeights {
  double question = 0.7;   // question similarity within the sample similarity
  double sql = 0.3;        // SQL similarity within the sample similarity
  double sample = 0.7;     // sample similarity within the score
  double schema = 0.3;     // schema closeness (1 − WWL distance) within the score
  double threshold = 0.0;  // an example scoring less is not selected
  bool diverse = true;     // prefer examples whose skeleton is not selected yet
  /// What "the same skeleton" means to `diverse` and the vote: examples::Skeleton of the masked query (true; DAIL-SQL's
  /// coarse skeleton) or the masked query itself (false).
  bool coarse_skeleton = true;
  /// With `diverse`, an example whose skeleton is already selected n times competes with n · repeat_penalty taken off
  /// its score. Any value above 1 (the highest score) puts every distinct skeleton above the threshold first.
  double repeat_penalty = 2.0;
  /// With `diverse`, a skeleton many of the best-scoring examples share is likely the one asked for: an example ranks
  /// by its score plus skeleton_vote times its skeleton's share of the summed scores of the 20 best candidates. The
  /// score reported stays the example's own.
  double skeleton_vote = 1.0;
};

struct SelectRequest {
  std::string masked_question;
  std::string masked_sql;                                           // of the draft query; "" when there is none
  std::string db_id;                                                // the database asked
  std::function<double(const std::string& db_id)> schema_distance;  // WWL distance to an example's db; null: 0
  std::function<bool(size_t index)> exclude;                        // e.g. leave out the question being asked
  size_t k = 5;
};

struct Selected {
  size_t index = 0;  // into Selector::Examples()
  double score = 0, question_similarity = 0, sql_similarity = 0, schema_distance = 0;
};

class Selector {
 public:
  /// Indexes `examples` (their masked_question and masked_sql must be filled) with `embedder`; null: the built-in
  /// offline sparse embedder. Errors: the embedder's (an unreachable endpoint).
  static Result<Selector> Build(std::vector<Example> examples, std::shared_ptr<retrieval::Embedder> embedder = {},
                                SelectWeights weights = {},
                                const std::function<void(size_t done, size_t total)>& progress = {});

  /// The selected examples, best first. Empty when the embedder fails (TrySelect says why).
  std::vector<Selected> Select(const SelectRequest& request) const;
  /// As Select, with the embedder's error (a dense embedder's endpoint failing) instead of an empty list.
  Result<std::vector<Selected>> TrySelect(const SelectRequest& request) const;

  const std::vector<Example>& Examples() const { return examples_; }
  const SelectWeights& Weights() const { return weights_; }
  /// "sparse" or "openai:<model>".
  std::string EmbedderName() const { return embedder_name_; }
  /// Bytes held by the two indexes and the example tables (not the examples' text), for benchmark reports.
  size_t IndexBytes() const;

  Selector(Selector&&) noexcept;
  Selector& operator=(Selector&&) noexcept;
  ~Selector();

 private:
  Selector() = default;
  struct Scored;
  struct Scores;
  // The similarity and closeness parts of a request, computed once per request.
  Result<Scores> Prepare(const SelectRequest& request) const;
  // Scores example `e` and appends it to `out` unless excluded, below the threshold, or left out by the floors: kept
  // are those reaching floor_all and, with `diverse`, the best so far of their skeleton reaching floor_skeleton.
  void Score(const SelectRequest& request, Scores& scores, uint32_t e, float question, std::vector<Scored>& out) const;
  // Floors from the candidates so far: floor_all the want-th best score, floor_skeleton the k-th best of the skeletons'
  // best (unchanged while there are fewer).
  void SetFloors(Scores& scores, const std::vector<Scored>& candidates, size_t want, size_t k) const;
  // The most an example left out by the floors can rank at (-inf when none was).
  double PrunedBound(const Scores& scores) const;
  // The examples of the distinct questions the question index returned: with `want` > 0, those of the most similar
  // questions set the floors first (SetFloors); with want 0, all of them.
  std::vector<Scored> Candidates(const SelectRequest& request, Scores& scores, size_t want) const;
  // After the head's floors are set: every example not yet scored whose exact score can reach the lower floor, the
  // distinct questions the index did not return included (similarity 0); hits[0 .. head) were scored already.
  void ScoreRest(const SelectRequest& request, Scores& scores, const std::vector<retrieval::Hit>& hits, size_t head,
                 double lowest, std::vector<Scored>& out) const;
  // The examples of the distinct questions it did not return (question similarity 0).
  void AddUnseen(const SelectRequest& request, Scores& scores, std::vector<Scored>& candidates) const;
  // The greedy picks among `ranked` (sorted best first) with the vote and the repeat penalty; `enough` is false when a
  // pick would rank below `limit` (a candidate not in `ranked` might rank higher).
  std::vector<Scored> Pick(const std::vector<Scored>& ranked, size_t k, double limit, bool* enough) const;
  // The k picks, best first (diversity applied), or nullopt when an example not among `candidates`, scoring at most
  // `outside`, could be one of them. Reorders `candidates`.
  std::optional<std::vector<Scored>> Choose(std::vector<Scored>& candidates, size_t k, double outside) const;

  // The skeleton group of example e: what diversity and the vote count as one skeleton.
  uint32_t Group(uint32_t e) const { return group_of_query_[query_of_[e]]; }

  std::vector<Example> examples_;
  SelectWeights weights_;
  std::string embedder_name_;
  std::unique_ptr<retrieval::TextIndex> questions_;  // distinct masked questions
  std::unique_ptr<retrieval::TextIndex> queries_;    // distinct masked queries (skeletons)
  std::vector<uint32_t> question_of_;                // example -> distinct masked question
  std::vector<uint32_t> query_of_;                   // example -> distinct masked query
  std::vector<uint32_t> group_of_query_;             // distinct masked query -> its skeleton group (see Group)
  size_t groups_ = 0;                                // distinct skeleton groups
  std::vector<uint32_t> db_of_;                      // example -> distinct db_id
  std::vector<std::string> dbs_;                     // distinct db_ids
  std::vector<uint32_t> by_question_offsets_;        // distinct question q's examples:
  std::vector<uint32_t> by_question_;                //   by_question_[offsets[q] .. offsets[q + 1])
  // Examples grouped by their (masked query, db) pair, whose part of the score does not depend on the question asked:
  // pair p's query and db, and its examples by_pair_[by_pair_offsets_[p] .. by_pair_offsets_[p + 1]).
  std::vector<uint32_t> pair_query_, pair_db_;
  std::vector<uint32_t> by_pair_offsets_;
  std::vector<uint32_t> by_pair_;
};

}  // namespace plainsql::examples
