// The worker loop of `plainsql eval run` (eval/worker.h), on a small SQLite runs database with a fake per-question
// function: two workers never take the same question, an expired lease is claimed again, a dead worker's questions are
// released, and a cancel stops promptly with nothing lost or corrupted and the run resumable. Then the whole of
// RunBenchmark on a predictions file, cancelled and resumed.
#include "eval/worker.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "eval/runner.h"
#include "eval/runs.h"
#include "test_util.h"

namespace plainsql::eval {
namespace {

using namespace std::chrono_literals;

// A run of `n` questions in a fresh runs database.
struct Fixture {
  test::TempDir tmp;
  std::string path = tmp.File("runs.db");
  std::string run_id;

  explicit Fixture(size_t n) {
    std::vector<Question> qs;
    for (size_t i = 0; i < n; ++i) qs.push_back({i, "plant", "q" + std::to_string(i), "SELECT 1", "", "", "", ""});
    auto store = Open();
    auto id = store->CreateRun(RunSpec{}, qs);
    EXPECT_TRUE(id.ok()) << id.error().message;
    if (id) run_id = *id;
  }
  std::unique_ptr<RunStore> Open() const {
    auto store = RunStore::Open(path);
    EXPECT_TRUE(store.ok()) << store.error().message;
    return store ? std::move(*store) : nullptr;
  }
};

// A per-question function that records which positions it was given, optionally after a pause.
struct FakeWork {
  std::mutex mu;
  std::vector<size_t> seen;
  std::chrono::milliseconds pause{0};
  std::function<void(size_t)> after;  // called with the number seen so far

  QuestionWorkFactory Factory() {
    return [this]() -> Result<QuestionWork> {
      return QuestionWork([this](size_t position) -> Result<QuestionScore> {
        if (pause.count()) std::this_thread::sleep_for(pause);
        size_t count = 0;
        {
          std::lock_guard lock(mu);
          seen.push_back(position);
          count = seen.size();
        }
        if (after) after(count);
        QuestionScore s;
        s.index = position;
        s.predicted_sql = "SELECT " + std::to_string(position);
        s.ex_strict = position % 2 == 0;
        return s;
      });
    };
  }
};

WorkerOptions Options(const std::string& worker) {
  WorkerOptions o;
  o.worker_id = worker;
  o.idle_wait = 10ms;
  return o;
}

TEST(Worker, FinishesARunAndMarksItDone) {
  Fixture f(12);
  FakeWork work;
  auto store = f.Open();
  WorkerOptions o = Options("host:1");
  o.threads = 3;
  std::vector<Progress> progress;
  o.progress = [&](const Progress& p) { progress.push_back(p); };
  auto out = WorkOnRun(*store, f.run_id, work.Factory(), o);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_TRUE(out->finished);
  EXPECT_FALSE(out->cancelled);
  EXPECT_EQ(out->done, 12u);
  EXPECT_EQ(std::set<size_t>(work.seen.begin(), work.seen.end()).size(), 12u);
  EXPECT_EQ(store->GetRun(f.run_id)->status, "done");
  ASSERT_EQ(progress.size(), 12u);
  EXPECT_EQ(progress.back().done, 12u);
  EXPECT_EQ(progress.back().total, 12u);
  EXPECT_EQ(ProgressBar(progress.back()).substr(0, 32), "[" + std::string(30, '#') + "]");
  auto scores = store->Scores(f.run_id);
  ASSERT_TRUE(scores.ok());
  ASSERT_EQ(scores->size(), 12u);
  EXPECT_EQ((*scores)[5].predicted_sql, "SELECT 5");
}

TEST(Worker, TwoWorkersNeverTakeTheSameQuestion) {
  Fixture f(40);
  FakeWork work;
  work.pause = 2ms;
  // Two processes' worth of workers, each with its own connection and worker id, two threads each.
  auto run = [&](const std::string& worker) {
    auto store = f.Open();
    WorkerOptions o = Options(worker);
    o.threads = 2;
    auto out = WorkOnRun(*store, f.run_id, work.Factory(), o);
    EXPECT_TRUE(out.ok()) << out.error().message;
  };
  std::thread a(run, "host:101"), b(run, "host:102");
  a.join();
  b.join();
  std::multiset<size_t> seen(work.seen.begin(), work.seen.end());
  EXPECT_EQ(seen.size(), 40u);
  for (size_t i = 0; i < 40; ++i) EXPECT_EQ(seen.count(i), 1u) << "question " << i;
  auto store = f.Open();
  auto by = store->RecordedBy(f.run_id);
  ASSERT_TRUE(by.ok());
  EXPECT_EQ(by->size(), 40u);
  EXPECT_EQ(store->GetRun(f.run_id)->status, "done");
}

TEST(Worker, AnExpiredLeaseIsClaimedAgain) {
  Fixture f(3);
  auto store = f.Open();
  // Another machine's worker claimed question 0 and went silent.
  ASSERT_EQ(*store->Claim(f.run_id, "elsewhere:7", kClaimLeaseSeconds), std::optional<size_t>(0));
  std::this_thread::sleep_for(50ms);
  FakeWork work;
  WorkerOptions o = Options("host:1");
  o.lease_seconds = 0.02;  // its lease has run out
  o.alive = [](const std::string&) { return true; };
  auto out = WorkOnRun(*store, f.run_id, work.Factory(), o);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_TRUE(out->finished);
  EXPECT_EQ(std::set<size_t>(work.seen.begin(), work.seen.end()), (std::set<size_t>{0, 1, 2}));
}

TEST(Worker, ALiveLeaseIsLeftAloneUntilCancelled) {
  Fixture f(3);
  auto store = f.Open();
  ASSERT_EQ(*store->Claim(f.run_id, "elsewhere:7", kClaimLeaseSeconds), std::optional<size_t>(0));
  FakeWork work;
  CancelToken cancel;
  WorkerOptions o = Options("host:1");
  o.alive = [](const std::string&) { return true; };
  o.cancel = &cancel;
  std::vector<std::string> notes;
  o.waiting = [&](const std::string& note) {
    notes.push_back(note);
    cancel.Cancel();  // seen waiting for the other worker: enough
  };
  auto out = WorkOnRun(*store, f.run_id, work.Factory(), o);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_FALSE(out->finished);
  EXPECT_TRUE(out->cancelled);
  EXPECT_EQ(std::set<size_t>(work.seen.begin(), work.seen.end()), (std::set<size_t>{1, 2}));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "1 questions claimed by other workers: elsewhere:7 (1)");
  // The other worker's claim still holds.
  auto claimants = store->Claimants(f.run_id, kClaimLeaseSeconds);
  ASSERT_TRUE(claimants.ok());
  ASSERT_EQ(claimants->size(), 1u);
  EXPECT_EQ((*claimants)[0].first, "elsewhere:7");
}

TEST(Worker, ADeadWorkersQuestionsAreReleased) {
  Fixture f(4);
  // A process of this machine that has ended: its claims are given back at once, without waiting for the lease.
  pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0);
  std::string me = WorkerId();
  std::string dead = me.substr(0, me.rfind(':') + 1) + std::to_string(child);
  ASSERT_FALSE(WorkerAlive(dead));
  auto store = f.Open();
  ASSERT_TRUE(store->Claim(f.run_id, dead, kClaimLeaseSeconds).ok());
  ASSERT_TRUE(store->Claim(f.run_id, dead, kClaimLeaseSeconds).ok());
  FakeWork work;
  auto out = WorkOnRun(*store, f.run_id, work.Factory(), Options("host:1"));
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_TRUE(out->finished);
  EXPECT_EQ(std::set<size_t>(work.seen.begin(), work.seen.end()), (std::set<size_t>{0, 1, 2, 3}));
}

TEST(Worker, CancelStopsPromptlyLosesNothingAndResumes) {
  Fixture f(30);
  CancelToken cancel;
  FakeWork first;
  first.after = [&](size_t count) {
    if (count == 5) cancel.Cancel();
  };
  WorkerOptions o = Options("host:1");
  o.threads = 2;
  o.cancel = &cancel;
  {
    auto store = f.Open();
    auto t0 = std::chrono::steady_clock::now();
    auto out = WorkOnRun(*store, f.run_id, first.Factory(), o);
    ASSERT_TRUE(out.ok()) << out.error().message;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
    EXPECT_TRUE(out->cancelled);
    EXPECT_FALSE(out->finished);
    // Each thread finishes the question it holds: at most one more each.
    EXPECT_GE(out->done, 5u);
    EXPECT_LE(out->done, 6u);
    EXPECT_EQ(out->done, first.seen.size());
    auto run = store->GetRun(f.run_id);
    EXPECT_EQ(run->status, "interrupted");
    EXPECT_EQ(static_cast<size_t>(run->done), out->done);
    // Nothing claimed is left behind, and everything worked on is recorded.
    EXPECT_TRUE(store->Claimants(f.run_id, kClaimLeaseSeconds)->empty());
    auto scores = store->Scores(f.run_id);
    ASSERT_TRUE(scores.ok());
    EXPECT_EQ(scores->size(), out->done);
    for (const auto& s : *scores) EXPECT_EQ(s.predicted_sql, "SELECT " + std::to_string(s.index));
  }
  // Resumed: the rest, each question exactly once over both sessions.
  cancel.Reset();
  FakeWork second;
  auto store = f.Open();
  auto out = WorkOnRun(*store, f.run_id, second.Factory(), o);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_TRUE(out->finished);
  EXPECT_EQ(out->total, 30u - first.seen.size());
  std::multiset<size_t> all(first.seen.begin(), first.seen.end());
  all.insert(second.seen.begin(), second.seen.end());
  EXPECT_EQ(all.size(), 30u);
  for (size_t i = 0; i < 30; ++i) EXPECT_EQ(all.count(i), 1u) << "question " << i;
  EXPECT_EQ(store->GetRun(f.run_id)->status, "done");
  EXPECT_EQ(store->Scores(f.run_id)->size(), 30u);
}

TEST(Worker, AnErrorStopsTheRunAndGivesBackItsClaims) {
  Fixture f(6);
  QuestionWorkFactory failing = []() -> Result<QuestionWork> {
    return QuestionWork([](size_t position) -> Result<QuestionScore> {
      if (position == 2) return MakeError(ErrorCode::kConnection, "model unreachable");
      QuestionScore s;
      s.index = position;
      return s;
    });
  };
  auto store = f.Open();
  auto out = WorkOnRun(*store, f.run_id, failing, Options("host:1"));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ErrorCode::kConnection);
  EXPECT_EQ(store->GetRun(f.run_id)->status, "interrupted");
  EXPECT_EQ(*store->Pending(f.run_id), (std::vector<size_t>{2, 3, 4, 5}));
  EXPECT_TRUE(store->Claimants(f.run_id, kClaimLeaseSeconds)->empty());
  // A factory that cannot make its work stops the run before any question.
  QuestionWorkFactory broken = []() -> Result<QuestionWork> { return MakeError(ErrorCode::kNotFound, "no model"); };
  EXPECT_EQ(WorkOnRun(*store, f.run_id, broken, Options("host:1")).error().message, "no model");
}

TEST(Runner, ValidatesBeforeTouchingTheRunsDatabase) {
  test::TempDir tmp;
  RunRequest r;
  r.runs = tmp.File("runs.db");
  EXPECT_EQ(RunBenchmark(r).error().message, "eval run needs --questions and --system (or --resume RUN)");
  r.spec.questions = "q.jsonl";
  r.spec.system = "builtin";
  EXPECT_EQ(RunBenchmark(r).error().message,
            "give --db-dir (to execute) or --tables (to score linking and exact match only)");
  r.workers.threads = 0;
  EXPECT_EQ(ValidateRunRequest(r).error().message, "--workers must be between 1 and 256");
  r.workers.threads = 1;
  r.spec.timeout_ms = 0;
  EXPECT_EQ(ValidateRunRequest(r).error().message, "--timeout must be positive");
  EXPECT_FALSE(std::ifstream(r.runs).good());
}

TEST(Runner, PredictionsRunCancelledAndResumed) {
  test::TempDir tmp;
  std::ofstream q(tmp.File("q.jsonl")), p(tmp.File("p.sql"));
  for (int i = 0; i < 8; ++i) {
    q << "{\"question\": \"q" << i << "\", \"sql\": \"SELECT count(*) FROM TB_MO WHERE MO_ID > " << i
      << "\", \"db_id\": \"plant\"}\n";
    p << (i % 2 ? "SELECT 'nope'" : "SELECT count(*) FROM TB_MO WHERE MO_ID > " + std::to_string(i)) << "\n";
  }
  q.close();
  p.close();
  std::filesystem::copy_file(test::SampleDb(), tmp.File("plant.db"));
  RunRequest r;
  r.runs = tmp.File("runs.db");
  r.spec = {"mine", "custom", tmp.File("q.jsonl"), tmp.path(), "", "predictions:" + tmp.File("p.sql"), false, 30000};
  r.selection.to = 6;
  CancelToken cancel;
  int recorded = 0;
  r.workers.cancel = &cancel;
  r.workers.progress = [&](const Progress&) {
    if (++recorded == 2) cancel.Cancel();
  };
  auto first = RunBenchmark(r);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_TRUE(first->outcome.cancelled);
  EXPECT_EQ(first->outcome.done, 2u);
  EXPECT_TRUE(first->scores.empty());
  cancel.Reset();
  RunRequest resume;
  resume.runs = r.runs;
  resume.resume = "mine";
  auto second = RunBenchmark(resume);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_TRUE(second->outcome.finished);
  EXPECT_EQ(second->run_id, first->run_id);
  ASSERT_EQ(second->scores.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(second->scores[i].index, i);
    EXPECT_EQ(second->scores[i].ex_strict, std::optional<bool>(i % 2 == 0)) << i;
  }
  EXPECT_EQ(RunBenchmark(resume).error().message, "run " + first->run_id + " is complete; nothing to resume");
}

// An estimator given to a run (issue #20): one per worker, its estimate stored per question and read back; without one
// the field stays empty.
TEST(Runner, StoresTheEstimatorsEstimate) {
  test::TempDir tmp;
  std::ofstream q(tmp.File("q.jsonl")), p(tmp.File("p.sql"));
  for (int i = 0; i < 4; ++i) {
    q << "{\"question\": \"question number " << i << "\", \"sql\": \"SELECT 1\", \"db_id\": \"plant\"}\n";
    p << "SELECT 1\n";
  }
  q.close();
  p.close();
  std::filesystem::copy_file(test::SampleDb(), tmp.File("plant.db"));
  struct ByLength : QuestionEstimator {
    std::optional<double> Estimate(const Question& question) override {
      return static_cast<double>(question.question.size()) / 100.0;
    }
  };
  std::atomic<int> made{0};
  RunRequest r;
  r.runs = tmp.File("runs.db");
  r.spec = {"est", "custom", tmp.File("q.jsonl"), tmp.path(), "", "predictions:" + tmp.File("p.sql"), false, 30000};
  r.workers.threads = 2;
  r.estimator = [&made](const RunSpec& spec, const std::string& dialect) -> std::unique_ptr<QuestionEstimator> {
    EXPECT_EQ(spec.name, "est");
    EXPECT_EQ(dialect, "sqlite");
    ++made;
    return std::make_unique<ByLength>();
  };
  auto run = RunBenchmark(r);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->scores.size(), 4u);
  EXPECT_GE(made.load(), 1);
  for (const auto& s : run->scores) EXPECT_EQ(s.estimated_correctness, std::optional<double>(0.17)) << s.index;
  auto store = RunStore::Open(r.runs);
  ASSERT_TRUE(store.ok());
  auto scores = (*store)->Scores(run->run_id);
  ASSERT_TRUE(scores.ok());
  EXPECT_EQ((*scores)[0].estimated_correctness, std::optional<double>(0.17));
  EXPECT_EQ(ScoreJson(*scores)["questions"][0]["estimated_correctness"], 0.17);
  r.estimator = nullptr;
  r.spec.name = "plain";
  auto plain = RunBenchmark(r);
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->scores[0].estimated_correctness);
}

}  // namespace
}  // namespace plainsql::eval
