// The worker loop of `plainsql eval run` (see worker.h).
#include "eval/worker.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace plainsql::eval {

namespace {

std::string Duration(double s) {
  if (s < 60) return fmt::format("{:.0f}s", s);
  return fmt::format("{:.0f}m{:02.0f}s", std::floor(s / 60), std::fmod(s, 60));
}

// What the threads of one WorkOnRun share. Every member below `mu` is guarded by it, and so is the store.
class Workers {
 public:
  Workers(RunStore& store, const std::string& run_id, const WorkerOptions& options, size_t total)
      : store_(store), run_id_(run_id), options_(options), total_(total) {
    me_ = options.worker_id.empty() ? WorkerId() : options.worker_id;
    alive_ = options.alive ? options.alive : WorkerAlive;
  }

  // One thread: claims, works and records until the run is complete, cancelled or failed.
  void Work(const QuestionWorkFactory& make_work);
  Result<WorkOutcome> Finish();

 private:
  enum class Claimed { kQuestion, kWait, kStop };
  bool Cancelled() const { return options_.cancel && options_.cancel->Cancelled(); }
  Claimed ClaimNext(size_t* position);
  Status ReleaseDeadWorkers(const std::vector<std::pair<std::string, int64_t>>& claimants, size_t left);
  void Record(size_t position, Result<QuestionScore> score, double ms);
  void Fail(const Error& e) {
    if (!failure_) failure_ = e;
  }
  void Sleep() const;

  RunStore& store_;
  const std::string& run_id_;
  const WorkerOptions& options_;
  std::string me_;
  std::function<bool(const std::string&)> alive_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  const size_t total_;

  std::mutex mu_;
  size_t done_ = 0;
  std::optional<Error> failure_;
  bool finished_ = false;    // every question of the run is recorded
  std::string waiting_for_;  // the last "waiting for" message given
};

void Workers::Sleep() const {
  // In short steps, so a cancel is seen promptly.
  auto until = std::chrono::steady_clock::now() + options_.idle_wait;
  while (!Cancelled() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(options_.idle_wait, std::chrono::milliseconds(50)));
  }
}

Status Workers::ReleaseDeadWorkers(const std::vector<std::pair<std::string, int64_t>>& claimants, size_t left) {
  std::string others;
  for (const auto& [worker, count] : claimants) {
    if (worker == me_) continue;
    if (!alive_(worker)) {
      if (Status st = store_.Release(run_id_, worker); !st) return st;
      continue;
    }
    others += fmt::format("{}{} ({})", others.empty() ? "" : ", ", worker, count);
  }
  if (!others.empty() && others != waiting_for_) {
    waiting_for_ = others;
    if (options_.waiting) {
      options_.waiting(fmt::format("{} questions claimed by other workers: {}", left, others));
    }
  }
  return Status::Ok();
}

Workers::Claimed Workers::ClaimNext(size_t* position) {
  std::lock_guard lock(mu_);
  if (failure_ || finished_ || Cancelled()) return Claimed::kStop;
  auto claimed = store_.Claim(run_id_, me_, options_.lease_seconds);
  if (!claimed) {
    Fail(claimed.error());
    return Claimed::kStop;
  }
  if (*claimed) {
    *position = **claimed;
    return Claimed::kQuestion;
  }
  // Nothing free: the run is complete, or other workers hold the rest. Claims of workers on this machine that no
  // longer exist are given back at once; others lapse after the lease.
  auto left = store_.Pending(run_id_);
  auto claimants = store_.Claimants(run_id_, options_.lease_seconds);
  if (!left || !claimants) {
    Fail(left ? claimants.error() : left.error());
    return Claimed::kStop;
  }
  if (left->empty()) {
    finished_ = true;
    return Claimed::kStop;
  }
  if (Status st = ReleaseDeadWorkers(*claimants, left->size()); !st) {
    Fail(st.error());
    return Claimed::kStop;
  }
  return Claimed::kWait;
}

void Workers::Record(size_t position, Result<QuestionScore> score, double ms) {
  std::lock_guard lock(mu_);
  if (!score) {
    Fail(score.error());
    return;
  }
  if (Status st = store_.Record(run_id_, position, *score, ms, me_); !st) {
    Fail(st.error());
    return;
  }
  ++done_;
  if (!options_.progress) return;
  Progress p;
  p.done = done_;
  p.total = total_;
  p.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  p.eta_seconds =
      p.elapsed_seconds / static_cast<double>(done_) * static_cast<double>(total_ - std::min(done_, total_));
  options_.progress(p);
}

void Workers::Work(const QuestionWorkFactory& make_work) {
  auto work = make_work();
  if (!work) {
    std::lock_guard lock(mu_);
    Fail(work.error());
    return;
  }
  for (;;) {
    size_t position = 0;
    Claimed c = ClaimNext(&position);
    if (c == Claimed::kStop) return;
    if (c == Claimed::kWait) {
      Sleep();
      continue;
    }
    auto t0 = std::chrono::steady_clock::now();
    auto score = (*work)(position);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    Record(position, std::move(score), ms);
  }
}

Result<WorkOutcome> Workers::Finish() {
  WorkOutcome out;
  out.done = done_;
  out.total = total_;
  out.finished = finished_;
  if (!finished_) {
    // Stopped (cancelled or an error): give back what this process claimed, so a resumed run or another worker takes
    // it at once.
    Status released = store_.Release(run_id_, me_);
    Status marked = store_.SetStatus(run_id_, "interrupted");
    if (failure_) return *failure_;
    if (!released) return released.error();
    if (!marked) return marked.error();
    out.cancelled = true;
    return out;
  }
  if (Status st = store_.SetStatus(run_id_, "done"); !st) return st.error();
  return out;
}

}  // namespace

std::string ProgressBar(const Progress& p) {
  const size_t width = 30;
  size_t filled = p.total ? std::min(p.done, p.total) * width / p.total : width;
  return fmt::format("[{}{}] {}/{} ETA {}", std::string(filled, '#'), std::string(width - filled, ' '), p.done, p.total,
                     Duration(p.eta_seconds));
}

Result<WorkOutcome> WorkOnRun(RunStore& store, const std::string& run_id, const QuestionWorkFactory& make_work,
                              const WorkerOptions& options) {
  if (options.threads < 1) return MakeError(ErrorCode::kInvalidArgument, "at least one worker thread is needed");
  auto pending = store.Pending(run_id);
  if (!pending) return pending.error();
  Workers workers(store, run_id, options, pending->size());
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(options.threads - 1));
  for (int t = 1; t < options.threads; ++t) threads.emplace_back([&] { workers.Work(make_work); });
  workers.Work(make_work);
  for (auto& t : threads) t.join();
  return workers.Finish();
}

}  // namespace plainsql::eval
