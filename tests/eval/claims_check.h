// A check of the runs database's claims shared by the SQLite (eval_test) and PostgreSQL (pg_test) tests: workers
// with their own connections claim concurrently and no question is ever worked on twice; release, lapsed leases and
// exact values survive the round trip.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "eval/runs.h"

namespace plainsql::test {

inline void CheckConcurrentClaims(const std::string& conn) {
  using eval::Question;
  using eval::RunStore;
  const size_t n = 200;
  std::vector<Question> qs;
  qs.reserve(n);
  for (size_t i = 0; i < n; ++i) qs.push_back({i, "plant", "q", "SELECT 1", "", "", "", ""});
  std::string id;
  {
    auto store = RunStore::Open(conn);
    ASSERT_TRUE(store.ok()) << store.error().message;
    auto created = (*store)->CreateRun(eval::RunSpec{}, qs);
    ASSERT_TRUE(created.ok()) << created.error().message;
    id = *created;
  }
  // Four workers, each with its own connection, claim and record until nothing is left.
  std::vector<std::atomic<int>> taken(n);
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int w = 0; w < 4; ++w) {
    threads.emplace_back([&, w] {
      auto store = RunStore::Open(conn);
      if (!store) {
        ++errors;
        return;
      }
      std::string me = "worker-" + std::to_string(w);
      for (;;) {
        auto claimed = (*store)->Claim(id, me, eval::kClaimLeaseSeconds);
        if (!claimed) {
          ++errors;
          return;
        }
        if (!*claimed) return;
        ++taken[**claimed];
        eval::QuestionScore s;
        s.index = **claimed;
        s.ex_strict = true;
        if (!(*store)->Record(id, **claimed, s, 1.0, me)) ++errors;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(errors, 0);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(taken[i], 1) << "question " << i;
  auto store = RunStore::Open(conn);
  ASSERT_TRUE(store.ok());
  EXPECT_TRUE((*store)->Pending(id)->empty());
  auto by = (*store)->RecordedBy(id);
  ASSERT_TRUE(by.ok());
  ASSERT_EQ(by->size(), n);
  EXPECT_TRUE(by->front().second.starts_with("worker-"));

  // Claims, release and lapsed leases on a small run.
  auto small = (*store)->CreateRun(eval::RunSpec{}, {qs[0], qs[1], qs[2]});
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(**(*store)->Claim(*small, "w1", 600), 0u);
  EXPECT_EQ(**(*store)->Claim(*small, "w2", 600), 1u);
  auto claimants = (*store)->Claimants(*small, 600);
  ASSERT_TRUE(claimants.ok());
  EXPECT_EQ(*claimants, (std::vector<std::pair<std::string, int64_t>>{{"w1", 1}, {"w2", 1}}));
  EXPECT_EQ((*store)->GetRun(*small)->status, "running");  // live claims
  ASSERT_TRUE((*store)->Release(*small, "w1").ok());
  EXPECT_EQ(**(*store)->Claim(*small, "w3", 600), 0u);  // given back: taken at once
  EXPECT_EQ(**(*store)->Claim(*small, "w3", 600), 2u);
  EXPECT_FALSE((*store)->Claim(*small, "w4", 600)->has_value());  // all claimed
  EXPECT_EQ(**(*store)->Claim(*small, "w4", -1), 0u);             // a lapsed lease counts as free
  // Values round-trip exactly.
  eval::QuestionScore s;
  s.index = 0;
  s.ex_strict = false;
  s.jaccard = 1.0 / 3;
  s.linking.recall = 2.0 / 3;
  s.gold_identifiers = {"t", "t.c"};
  s.stages = {{"system", 12.5, 1200, 80}, {"scoring", 0.25, 0, 0}};
  ASSERT_TRUE((*store)->Record(*small, 0, s, 0.1 + 0.2, "w4").ok());
  auto scores = (*store)->Scores(*small);
  ASSERT_TRUE(scores.ok());
  ASSERT_EQ(scores->size(), 1u);
  EXPECT_EQ((*scores)[0].jaccard, 1.0 / 3);
  EXPECT_EQ((*scores)[0].linking.recall, 2.0 / 3);
  EXPECT_EQ((*scores)[0].latency_ms, 0.1 + 0.2);
  EXPECT_EQ((*scores)[0].ex_strict, std::optional<bool>(false));
  EXPECT_FALSE((*scores)[0].ex_relaxed.has_value());
  EXPECT_EQ((*scores)[0].gold_identifiers, (std::vector<std::string>{"t", "t.c"}));
  EXPECT_EQ((*scores)[0].stages, s.stages);
}

}  // namespace plainsql::test
