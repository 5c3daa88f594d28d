// Example selection σ (see select.h).
#include "examples/select.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "examples/skeleton.h"

namespace plainsql::examples {

namespace {

// With `diverse`, the skeleton vote is over this many of the best-scoring candidates (chosen on a split of Spider
// train, see bench/examples_quality.cpp).
constexpr size_t kVoteNeighbours = 20;

// The candidates looked at first for k examples: enough for the vote and for k distinct skeletons in most questions.
size_t CandidatesWanted(size_t k) { return std::max(k * 16 + 64, kVoteNeighbours); }

// Before a floor is set, the examples of this many distinct questions per candidate wanted are scored.
constexpr size_t kHeadPerCandidate = 4;

// An approximate (HNSW) question index is asked for this many distinct questions per example wanted, at least
// kApproximateFloor: the candidates rescored with SQL similarity and schema closeness.
constexpr size_t kApproximatePerExample = 40;
constexpr size_t kApproximateFloor = 400;

// Numbers each distinct string of `field` over `examples` in order of first appearance.
template <typename Field>
std::vector<std::string> Distinct(const std::vector<Example>& examples, Field field, std::vector<uint32_t>& id_of) {
  std::unordered_map<std::string_view, uint32_t> ids;
  std::vector<std::string> texts;
  id_of.resize(examples.size());
  for (size_t i = 0; i < examples.size(); ++i) {
    const std::string& text = field(examples[i]);
    auto [it, inserted] = ids.try_emplace(text, static_cast<uint32_t>(texts.size()));
    if (inserted) texts.push_back(text);
    id_of[i] = it->second;
  }
  return texts;
}

// Rows grouped by key in compressed-row form: key k's rows are rows[offsets[k] .. offsets[k + 1]), ascending.
void GroupRows(const std::vector<uint32_t>& key_of, size_t keys, std::vector<uint32_t>& offsets,
               std::vector<uint32_t>& rows) {
  offsets.assign(keys + 1, 0);
  for (uint32_t k : key_of) ++offsets[k + 1];
  for (size_t i = 1; i < offsets.size(); ++i) offsets[i] += offsets[i - 1];
  rows.resize(key_of.size());
  std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
  for (size_t i = 0; i < key_of.size(); ++i) rows[fill[key_of[i]]++] = static_cast<uint32_t>(i);
}

}  // namespace

struct Selector::Scored {
  uint32_t example = 0;
  float score = 0, question = 0, sql = 0;
};

struct Selector::Scores {
  std::vector<retrieval::Hit> question_hits;  // distinct questions: all with similarity > 0, or the best few
  std::vector<float> sql;                     // per distinct query; NaN: not computed yet (approximate index)
  std::vector<float> closeness;               // per db: 1 − schema distance
  retrieval::Embedding sql_embedding;
  bool has_sql = false;
  double question_weight = 1, sql_weight = 0, sample_weight = 0.7, schema_weight = 0.3;
  double unseen_bound = 0;     // the best score an example the question index did not return can have
  bool unseen_scored = false;  // those examples were scored against the floors already (ScoreRest)
  // Which scored examples are kept as candidates (see Selector::Score): those reaching floor_all, and with `diverse`
  // the best so far of their skeleton when it reaches floor_skeleton. `pruned`: some example was left out.
  double floor_all = -std::numeric_limits<double>::infinity();
  double floor_skeleton = -std::numeric_limits<double>::infinity();
  std::vector<float> best_of_skeleton;  // per skeleton group, the best score kept
  bool pruned = false;
};

Selector::Selector(Selector&&) noexcept = default;
Selector& Selector::operator=(Selector&&) noexcept = default;
Selector::~Selector() = default;

Result<Selector> Selector::Build(std::vector<Example> examples, std::shared_ptr<retrieval::Embedder> embedder,
                                 SelectWeights weights, const std::function<void(size_t, size_t)>& progress) {
  if (examples.size() >= std::numeric_limits<uint32_t>::max()) {
    return MakeError(ErrorCode::kResourceLimit, "too many examples for one selector");
  }
  if (!embedder) embedder = retrieval::MakeSparseEmbedder();
  Selector s;
  s.examples_ = std::move(examples);
  s.weights_ = weights;
  s.embedder_name_ = embedder->Name();
  std::vector<std::string> questions = Distinct(
      s.examples_, [](const Example& e) -> const std::string& { return e.masked_question; }, s.question_of_);
  std::vector<std::string> queries = Distinct(
      s.examples_, [](const Example& e) -> const std::string& { return e.masked_sql; }, s.query_of_);
  // Skeleton groups: one per distinct masked query, or per distinct examples::Skeleton of them.
  s.group_of_query_.resize(queries.size());
  if (s.weights_.coarse_skeleton) {
    std::unordered_map<std::string, uint32_t> group_ids;
    for (size_t q = 0; q < queries.size(); ++q) {
      auto [it, inserted] = group_ids.try_emplace(Skeleton(queries[q]), static_cast<uint32_t>(group_ids.size()));
      s.group_of_query_[q] = it->second;
    }
    s.groups_ = group_ids.size();
  } else {
    for (size_t q = 0; q < queries.size(); ++q) s.group_of_query_[q] = static_cast<uint32_t>(q);
    s.groups_ = queries.size();
  }
  s.dbs_ = Distinct(
      s.examples_, [](const Example& e) -> const std::string& { return e.db_id; }, s.db_of_);
  const size_t total = questions.size() + queries.size();
  auto q = embedder->Index(questions, [&](size_t done, size_t) {
    if (progress) progress(done, total);
  });
  if (!q) return q.error();
  s.questions_ = std::move(*q);
  auto sq = embedder->Index(queries, [&](size_t done, size_t) {
    if (progress) progress(questions.size() + done, total);
  });
  if (!sq) return sq.error();
  s.queries_ = std::move(*sq);
  GroupRows(s.question_of_, questions.size(), s.by_question_offsets_, s.by_question_);
  std::unordered_map<uint64_t, uint32_t> pair_ids;
  std::vector<uint32_t> pair_of(s.examples_.size());
  for (size_t i = 0; i < s.examples_.size(); ++i) {
    const uint64_t key = (static_cast<uint64_t>(s.query_of_[i]) << 32) | s.db_of_[i];
    auto [it, inserted] = pair_ids.try_emplace(key, static_cast<uint32_t>(s.pair_query_.size()));
    if (inserted) {
      s.pair_query_.push_back(s.query_of_[i]);
      s.pair_db_.push_back(s.db_of_[i]);
    }
    pair_of[i] = it->second;
  }
  GroupRows(pair_of, s.pair_query_.size(), s.by_pair_offsets_, s.by_pair_);
  if (progress) progress(total, total);
  return s;
}

size_t Selector::IndexBytes() const {
  return questions_->MemoryBytes() + queries_->MemoryBytes() +
         (question_of_.capacity() + query_of_.capacity() + group_of_query_.capacity() + db_of_.capacity() +
          by_question_offsets_.capacity() + by_question_.capacity() + pair_query_.capacity() + pair_db_.capacity() +
          by_pair_offsets_.capacity() + by_pair_.capacity()) *
             sizeof(uint32_t);
}

Result<Selector::Scores> Selector::Prepare(const SelectRequest& request) const {
  Scores s;
  auto question = questions_->Embed(request.masked_question);
  if (!question) return question.error();
  const size_t approximate_limit = std::max(kApproximateFloor, request.k * kApproximatePerExample);
  s.question_hits = questions_->Search(*question, questions_->Exact() ? 0 : approximate_limit);
  s.has_sql = !request.masked_sql.empty() && weights_.sql > 0;
  const double sample_sum = weights_.question + weights_.sql;
  if (s.has_sql && sample_sum > 0) {
    s.question_weight = weights_.question / sample_sum;
    s.sql_weight = weights_.sql / sample_sum;
  }
  const double score_sum = weights_.sample + weights_.schema;
  s.sample_weight = score_sum > 0 ? weights_.sample / score_sum : 1.0;
  s.schema_weight = score_sum > 0 ? weights_.schema / score_sum : 0.0;
  float best_sql = 0;
  if (s.has_sql) {
    auto sql = queries_->Embed(request.masked_sql);
    if (!sql) return sql.error();
    s.sql_embedding = std::move(*sql);
    if (queries_->Exact()) {
      s.sql.assign(queries_->Size(), 0.0f);
      for (const auto& h : queries_->Search(s.sql_embedding, 0)) {
        s.sql[h.id] = h.similarity;
        best_sql = std::max(best_sql, h.similarity);
      }
    } else {
      s.sql.assign(queries_->Size(), std::numeric_limits<float>::quiet_NaN());
      best_sql = 1.0f;
    }
  }
  s.closeness.assign(dbs_.size(), 1.0f);
  float best_closeness = dbs_.empty() ? 0.0f : 1.0f;
  if (request.schema_distance) {
    best_closeness = 0;
    for (size_t d = 0; d < dbs_.size(); ++d) {
      double distance = request.schema_distance(dbs_[d]);
      s.closeness[d] = static_cast<float>(1.0 - std::clamp(std::isfinite(distance) ? distance : 1.0, 0.0, 1.0));
      best_closeness = std::max(best_closeness, s.closeness[d]);
    }
  }
  s.unseen_bound = s.sample_weight * s.sql_weight * best_sql + s.schema_weight * best_closeness;
  return s;
}

void Selector::Score(const SelectRequest& request, Scores& scores, uint32_t e, float question,
                     std::vector<Scored>& out) const {
  if (request.exclude && request.exclude(e)) return;
  const uint32_t query = query_of_[e];
  float sql = 0;
  if (scores.has_sql) {
    float& cached = scores.sql[query];
    if (std::isnan(cached)) cached = queries_->Similarity(scores.sql_embedding, query);
    sql = cached;
  }
  double sample = scores.question_weight * question + scores.sql_weight * sql;
  double score = scores.sample_weight * sample + scores.schema_weight * scores.closeness[db_of_[e]];
  if (score < weights_.threshold) return;
  float& best = scores.best_of_skeleton[Group(e)];
  if (score >= scores.floor_all || (weights_.diverse && score >= scores.floor_skeleton && score >= best)) {
    out.push_back({e, static_cast<float>(score), question, sql});
    best = std::max(best, static_cast<float>(score));
  } else {
    scores.pruned = true;
  }
}

void Selector::SetFloors(Scores& scores, const std::vector<Scored>& candidates, size_t want, size_t k) const {
  auto nth_best = [](std::vector<float>& v, size_t n) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n - 1), v.end(), std::greater<>());
    return static_cast<double>(v[n - 1]);
  };
  if (candidates.size() < want) return;
  std::vector<float> all, skeletons;
  all.reserve(candidates.size());
  std::vector<char> counted(scores.best_of_skeleton.size(), 0);
  for (const auto& c : candidates) {
    all.push_back(c.score);
    const uint32_t group = Group(c.example);
    if (!counted[group]) skeletons.push_back(scores.best_of_skeleton[group]);
    counted[group] = 1;
  }
  scores.floor_all = nth_best(all, want);
  if (skeletons.size() >= k) scores.floor_skeleton = nth_best(skeletons, k);
}

double Selector::PrunedBound(const Scores& scores) const {
  if (!scores.pruned) return -std::numeric_limits<double>::infinity();
  // Left out: examples below both floors, and repeats below floor_all of a skeleton with a better example kept, which
  // never rank above that example before it is chosen, nor above floor_all − penalty after.
  if (!weights_.diverse) return scores.floor_all;
  return std::max(scores.floor_skeleton, scores.floor_all - std::max(0.0, weights_.repeat_penalty));
}

std::vector<Selector::Scored> Selector::Candidates(const SelectRequest& request, Scores& scores, size_t want) const {
  std::vector<Scored> out;
  auto& hits = scores.question_hits;
  auto score_all = [&](const retrieval::Hit& h) {
    for (uint32_t i = by_question_offsets_[h.id]; i < by_question_offsets_[h.id + 1]; ++i) {
      Score(request, scores, by_question_[i], h.similarity, out);
    }
  };
  const size_t head = std::min(hits.size(), kHeadPerCandidate * want);
  if (want == 0 || head == hits.size()) {
    for (const auto& h : hits) score_all(h);
    return out;
  }
  // The examples of the most similar questions set the floors (SetFloors) the others must reach; a question whose
  // similarity cannot lift any of its examples to the lower floor is passed over whole.
  auto more_similar = [](const retrieval::Hit& a, const retrieval::Hit& b) {
    return a.similarity > b.similarity || (a.similarity == b.similarity && a.id < b.id);
  };
  std::nth_element(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(head), hits.end(), more_similar);
  for (size_t i = 0; i < head; ++i) score_all(hits[i]);
  SetFloors(scores, out, want, request.k);
  const double lowest = weights_.diverse ? std::min(scores.floor_all, scores.floor_skeleton) : scores.floor_all;
  // ScoreRest needs every example's SQL similarity up front (an exact query index) to bound each pair.
  if (questions_->Exact() && (!scores.has_sql || queries_->Exact())) {
    ScoreRest(request, scores, hits, head, lowest, out);
    scores.unseen_scored = true;
    return out;
  }
  const double question_weight = scores.sample_weight * scores.question_weight;
  for (size_t i = head; i < hits.size(); ++i) {
    if (question_weight * hits[i].similarity + scores.unseen_bound >= lowest) {
      score_all(hits[i]);
    } else {
      scores.pruned = true;
    }
  }
  return out;
}

void Selector::ScoreRest(const SelectRequest& request, Scores& scores, const std::vector<retrieval::Hit>& hits,
                         size_t head, double lowest, std::vector<Scored>& out) const {
  // An example scores a·(its question's similarity) + b(its pair), with b the same for every example of a (masked
  // query, db) pair: a pair is skipped whole when even the most similar question left could not lift it to `lowest`,
  // and within a pair each example's exact bound is one look-up, far cheaper than scoring it. The head's questions
  // are marked (−1) as done. One similarity table per thread, left all zero after each use.
  thread_local std::vector<float> similarity;
  if (similarity.size() < questions_->Size()) similarity.resize(questions_->Size(), 0.0f);
  float best_rest = 0;
  for (size_t i = 0; i < hits.size(); ++i) {
    similarity[hits[i].id] = i < head ? -1.0f : hits[i].similarity;
    if (i >= head) best_rest = std::max(best_rest, hits[i].similarity);
  }
  const double a = scores.sample_weight * scores.question_weight;
  for (size_t p = 0; p < pair_query_.size(); ++p) {
    double b = scores.schema_weight * scores.closeness[pair_db_[p]];
    if (scores.has_sql) b += scores.sample_weight * scores.sql_weight * scores.sql[pair_query_[p]];
    if (a * best_rest + b < lowest) {
      scores.pruned = true;
      continue;
    }
    for (uint32_t i = by_pair_offsets_[p]; i < by_pair_offsets_[p + 1]; ++i) {
      const uint32_t e = by_pair_[i];
      const float s = similarity[question_of_[e]];
      if (s < 0) continue;  // scored with the head
      if (a * s + b >= lowest) {
        Score(request, scores, e, s, out);
      } else {
        scores.pruned = true;
      }
    }
  }
  for (const auto& h : hits) similarity[h.id] = 0.0f;
}

void Selector::AddUnseen(const SelectRequest& request, Scores& scores, std::vector<Scored>& candidates) const {
  std::vector<char> seen(questions_->Size(), 0);
  for (const auto& h : scores.question_hits) seen[h.id] = 1;
  for (size_t e = 0; e < examples_.size(); ++e) {
    if (!seen[question_of_[e]]) Score(request, scores, static_cast<uint32_t>(e), 0.0f, candidates);
  }
}

std::vector<Selector::Scored> Selector::Pick(const std::vector<Scored>& ranked, size_t k, double limit,
                                             bool* enough) const {
  const bool diverse = weights_.diverse;
  const double penalty = diverse ? std::max(0.0, weights_.repeat_penalty) : 0.0;
  const double vote = diverse ? std::max(0.0, weights_.skeleton_vote) : 0.0;
  // Each skeleton's share of the summed scores of the best kVoteNeighbours candidates.
  std::unordered_map<uint32_t, double> share;
  double total = 0;
  for (size_t i = 0; i < std::min(kVoteNeighbours, ranked.size()) && vote > 0; ++i) {
    share[Group(ranked[i].example)] += ranked[i].score;
    total += ranked[i].score;
  }
  std::vector<Scored> chosen;
  std::vector<char> taken(ranked.size(), 0);
  std::unordered_map<uint32_t, int> uses;  // skeleton group -> times chosen
  *enough = true;
  while (chosen.size() < k) {
    size_t best = ranked.size();
    double best_value = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < ranked.size(); ++i) {
      if (taken[i]) continue;
      const uint32_t group = Group(ranked[i].example);
      double value = ranked[i].score;
      if (auto sh = share.find(group); sh != share.end() && total > 0) value += vote * sh->second / total;
      if (auto u = uses.find(group); u != uses.end()) value -= penalty * u->second;
      if (value > best_value) {
        best_value = value;
        best = i;
      }
    }
    if (best == ranked.size() || best_value < limit) {
      *enough = best_value >= limit || limit == -std::numeric_limits<double>::infinity();
      break;
    }
    taken[best] = 1;
    ++uses[Group(ranked[best].example)];
    chosen.push_back(ranked[best]);
  }
  return chosen;
}

std::optional<std::vector<Selector::Scored>> Selector::Choose(std::vector<Scored>& candidates, size_t k,
                                                              double outside) const {
  auto better = [](const Scored& a, const Scored& b) {
    return a.score > b.score || (a.score == b.score && a.example < b.example);
  };
  const double vote = weights_.diverse ? std::max(0.0, weights_.skeleton_vote) : 0.0;
  const double penalty = weights_.diverse ? std::max(0.0, weights_.repeat_penalty) : 0.0;
  // A candidate not looked at ranks at most its score, plus what the vote can add to a skeleton already chosen beyond
  // its penalty: a skeleton with a vote has its best example among the kVoteNeighbours looked at, which ranks higher
  // than its other examples until chosen.
  const double vote_slack = std::max(0.0, vote - penalty);
  // The best `top` candidates are enough while every pick beats whatever lies beyond them: the next candidate's score,
  // and `outside`, the bound on examples not scored at all. Otherwise look at twice as many.
  for (size_t top = std::min(candidates.size(), CandidatesWanted(k));; top = std::min(candidates.size(), top * 2)) {
    auto top_end = candidates.begin() + static_cast<std::ptrdiff_t>(top);
    std::partial_sort(candidates.begin(), top_end, candidates.end(), better);
    // The vote needs the best kVoteNeighbours of all examples: none not scored may be among them.
    if (vote > 0 && outside > -std::numeric_limits<double>::infinity() &&
        (top < kVoteNeighbours || outside > candidates[kVoteNeighbours - 1].score)) {
      return std::nullopt;
    }
    double beyond = top < candidates.size()
                        ? static_cast<double>(std::max_element(top_end, candidates.end(), better)->score)
                        : -std::numeric_limits<double>::infinity();
    const double limit = std::max(beyond, outside) + vote_slack;
    bool enough = true;
    std::vector<Scored> chosen = Pick(std::vector<Scored>(candidates.begin(), top_end), k, limit, &enough);
    if (enough) return chosen;
    if (top == candidates.size()) return std::nullopt;  // only examples not scored yet can do better
  }
}

Result<std::vector<Selected>> Selector::TrySelect(const SelectRequest& request) const {
  std::vector<Selected> out;
  if (request.k == 0 || examples_.empty()) return out;
  auto scores = Prepare(request);
  if (!scores) return scores.error();
  // An exact index returned every example whose question shares something with the one asked; the rest score at most
  // unseen_bound. Candidates are kept against floors. Examples not scored or left out are looked at only when their
  // bound says one could be selected: first the unseen ones (against floors), last everything. An approximate index's
  // candidates are all there is.
  constexpr double kNone = -std::numeric_limits<double>::infinity();
  const size_t want = CandidatesWanted(request.k);
  scores->best_of_skeleton.assign(groups_, static_cast<float>(kNone));
  std::vector<Scored> candidates = Candidates(request, *scores, want);
  bool unseen_added = !questions_->Exact() || scores->unseen_bound < weights_.threshold || scores->unseen_scored;
  std::optional<std::vector<Scored>> chosen;
  while (!(chosen = Choose(candidates, request.k,
                           std::max(unseen_added ? kNone : scores->unseen_bound, PrunedBound(*scores))))) {
    if (!unseen_added) {
      SetFloors(*scores, candidates, want, request.k);
      AddUnseen(request, *scores, candidates);
      unseen_added = true;
      continue;
    }
    scores->floor_all = scores->floor_skeleton = kNone;
    scores->pruned = false;
    scores->best_of_skeleton.assign(groups_, static_cast<float>(kNone));
    candidates = Candidates(request, *scores, 0);
    if (questions_->Exact() && scores->unseen_bound >= weights_.threshold) AddUnseen(request, *scores, candidates);
  }
  out.reserve(chosen->size());
  for (const auto& c : *chosen) {
    double closeness = scores->closeness[db_of_[c.example]];
    out.push_back({c.example, c.score, c.question, c.sql, 1.0 - closeness});
  }
  return out;
}

std::vector<Selected> Selector::Select(const SelectRequest& request) const {
  auto selected = TrySelect(request);
  return selected ? std::move(*selected) : std::vector<Selected>();
}

}  // namespace plainsql::examples
