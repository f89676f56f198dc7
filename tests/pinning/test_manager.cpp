// The Manager with real threads: the allowed cores are respected, threads
// that end are dropped and new ones picked up (registered, and found in a
// child process through /proc), the strategies reset when the set changes
// (the learners leaving a busy core: test_convergence.cpp). No
// test judges wall-clock time: periods are driven with step() and a given
// elapsed time, or run for a while and judged by where threads were placed.
#include <autosched/core/error.hpp>
#include <autosched/pinning/pinning.hpp>

#include "heartbeat_workers.hpp"

#include <gtest/gtest.h>
#include <sched.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern "C" int pinning_c_api_check(void);

namespace {

namespace p = autosched::pinning;

/// A thread that registers with a manager and sleeps until finish(); its
/// registration ends (handle destroyed) before the thread does.
class SleepingThread {
 public:
  explicit SleepingThread(p::Manager& pm) {
    thread_ = std::thread([this, &pm] {
      auto me = pm.register_thread();
      std::unique_lock lock(mutex_);
      tid_ = me.tid();
      changed_.notify_all();
      changed_.wait(lock, [&] { return finish_ || drop_; });
      me.unregister();
      dropped_ = true;
      changed_.notify_all();
      changed_.wait(lock, [&] { return finish_; });
    });
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return tid_ != 0; });
  }
  ~SleepingThread() { finish(); }
  SleepingThread(const SleepingThread&) = delete;
  SleepingThread& operator=(const SleepingThread&) = delete;

  [[nodiscard]] pid_t tid() {
    std::lock_guard lock(mutex_);
    return tid_;
  }
  /// Unregisters, and keeps the thread alive until finish().
  void drop() {
    std::unique_lock lock(mutex_);
    drop_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return dropped_; });
  }
  void finish() {
    {
      std::lock_guard lock(mutex_);
      finish_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  pid_t tid_ = 0;
  bool finish_ = false;
  bool drop_ = false;
  bool dropped_ = false;
  std::thread thread_;
};

std::vector<int> first_cores(std::size_t n) {
  auto cores = p::allowed_cores();
  cores.resize(std::min(n, cores.size()));
  return cores;
}

TEST(PinningManager, NeverPlacesAThreadOutsideTheAllowedCores) {
  const auto all = p::allowed_cores();
  p::ManagerOptions o;
  o.cores = {all.back()};
  o.parameters.lambda = 1.0;  // explore as much as possible
  p::Manager pm(o);
  EXPECT_EQ(pm.cores(), std::vector<int>{all.back()});
  SleepingThread a(pm), b(pm);
  for (int i = 0; i < 10; ++i) pm.step(0.1);
  for (pid_t tid : {a.tid(), b.tid()}) EXPECT_EQ(p::thread_affinity(tid).value(), std::vector<int>{all.back()});
  const auto rows = pm.trace();
  ASSERT_EQ(rows.size(), 20u);
  for (const auto& r : rows) EXPECT_EQ(r.core, all.back());
}

// Without heartbeats a thread is measured by PAPI instructions where
// counters work, else by CPU time; this VM has no PMU, so the latter.
TEST(PinningManager, ThreadsWithoutHeartbeatsUsePapiElseCpuTime) {
  const p::PapiStatus& papi = p::papi_status();
  const p::SpeedSource expected = papi.usable ? p::SpeedSource::papi : p::SpeedSource::cpu_time;
  const auto report = p::speed_source(false);
  EXPECT_EQ(report.source, expected);
  EXPECT_NE(report.why.find("PAPI"), std::string::npos) << report.why;
  p::ManagerOptions o;
  o.policy = p::Policy::off;
  p::Manager pm(o);
  auto me = pm.register_thread();
  for (int i = 0; i < 3; ++i) pm.step(0.1);
  const auto threads = pm.threads();
  ASSERT_EQ(threads.size(), 1u);
  EXPECT_EQ(threads[0].source, expected) << p::to_string(threads[0].source) << "; " << papi.detail;
  me.heartbeat();
  pm.step(0.1);
  EXPECT_EQ(pm.threads().at(0).source, p::SpeedSource::heartbeat);
}

TEST(PinningManager, TakesItsCoresFromTheProcessMask) {
  const auto all = p::allowed_cores();
  if (all.size() < 2) GTEST_SKIP() << "needs 2 allowed cores, this process has " << all.size();
  // sched_getaffinity(0) reads the calling thread's mask: a thread that
  // restricted itself stands for a process started under taskset or Slurm.
  std::vector<int> seen_cores;
  std::vector<p::TraceRow> rows;
  std::thread t([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(all[1], &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    p::ManagerOptions o;
    o.parameters.lambda = 1.0;
    p::Manager pm(o);
    seen_cores = pm.cores();
    auto me = pm.register_thread();
    for (int i = 0; i < 10; ++i) pm.step(0.1);
    rows = pm.trace();
  });
  t.join();
  EXPECT_EQ(seen_cores, std::vector<int>{all[1]});
  ASSERT_EQ(rows.size(), 10u);
  for (const auto& r : rows) EXPECT_EQ(r.core, all[1]);
}

TEST(PinningManager, DropsEndedThreadsAddsNewOnesAndResets) {
  // Round-robin never updates the strategies, so after a reset they are
  // exactly uniform; before, each thread's start vector.
  p::ManagerOptions o;
  o.policy = p::Policy::round_robin;
  o.cores = first_cores(2);
  const std::size_t m = o.cores.size();
  p::Manager pm(o);
  auto a = std::make_unique<SleepingThread>(pm);
  auto b = std::make_unique<SleepingThread>(pm);
  for (int i = 0; i < 3; ++i) pm.step(0.1);
  auto view = pm.threads();
  ASSERT_EQ(view.size(), 2u);
  EXPECT_EQ(pm.resets(), 0u);
  EXPECT_NEAR(view[0].probabilities[0], m == 1 ? 1.0 : 0.98, 1e-12);
  EXPECT_EQ(view[0].core, o.cores[0]);
  EXPECT_EQ(view[1].core, o.cores[1 % m]);
  EXPECT_EQ(p::thread_affinity(view[1].tid).value(), std::vector<int>{o.cores[1 % m]});

  const pid_t gone = b->tid();
  b.reset();  // unregisters and ends
  pm.step(0.1);
  view = pm.threads();
  ASSERT_EQ(view.size(), 1u);
  EXPECT_EQ(view[0].tid, a->tid());
  EXPECT_NE(view[0].tid, gone);
  EXPECT_EQ(pm.resets(), 1u);
  for (double x : view[0].probabilities) EXPECT_NEAR(x, 1.0 / static_cast<double>(m), 1e-12);

  SleepingThread c(pm);
  pm.step(0.1);
  view = pm.threads();
  ASSERT_EQ(view.size(), 2u);
  EXPECT_EQ(pm.resets(), 2u);
  EXPECT_TRUE(std::any_of(view.begin(), view.end(), [&](const p::ThreadView& v) { return v.tid == c.tid(); }));
  pm.step(0.1);  // a steady set: no further reset
  EXPECT_EQ(pm.resets(), 2u);

  // A thread that unregisters but lives on is let go onto all the cores.
  c.drop();
  pm.step(0.1);
  EXPECT_EQ(pm.threads().size(), 1u);
  EXPECT_EQ(pm.resets(), 3u);
  EXPECT_EQ(p::thread_affinity(c.tid()).value(), o.cores);
}

/// pinning_child, spoken to through pipes.
class Child {
 public:
  Child() {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addclose(&actions, in[1]);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    char path[] = PINNING_CHILD;
    char* argv[] = {path, nullptr};
    if (posix_spawn(&pid_, path, &actions, nullptr, argv, environ) != 0) pid_ = 0;
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    to_ = fdopen(in[1], "w");
    from_ = fdopen(out[0], "r");
  }
  ~Child() {
    if (to_ != nullptr) {
      std::fputc('q', to_);
      std::fclose(to_);
    }
    if (from_ != nullptr) std::fclose(from_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  [[nodiscard]] pid_t pid() const { return pid_; }
  /// Sends a command letter (or nothing) and returns the answer line.
  std::string ask(int command = 0) {
    if (command != 0) {
      std::fputc(command, to_);
      std::fflush(to_);
    }
    char line[64] = {};
    if (std::fgets(line, sizeof line, from_) == nullptr) return "";
    std::string s(line);
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  }

 private:
  pid_t pid_ = 0;
  std::FILE* to_ = nullptr;
  std::FILE* from_ = nullptr;
};

std::set<pid_t> tids_of(const std::vector<p::ThreadView>& v) {
  std::set<pid_t> tids;
  for (const auto& t : v) tids.insert(t.tid);
  return tids;
}

TEST(PinningManager, ManagesAnotherProcessThroughProc) {
  Child child;
  ASSERT_GT(child.pid(), 0) << "could not start " << PINNING_CHILD;
  const pid_t main_tid = static_cast<pid_t>(std::stol(child.ask()));
  p::ManagerOptions o;
  o.pid = child.pid();
  o.cores = first_cores(2);
  p::Manager pm(o);
  pm.step(0.1);
  // The child's threads: its main thread, and under a sanitizer also the
  // runtime's background thread, which may start only once the child
  // creates a thread. So the checks follow the two known tids.
  auto view = pm.threads();
  ASSERT_TRUE(tids_of(view).count(main_tid) != 0);
  for (const auto& t : view) {
    EXPECT_NE(t.core, -1);  // pinned by tid in another process
    EXPECT_EQ(p::thread_affinity(t.tid).value(), std::vector<int>{t.core});
  }

  // A thread that appears late is picked up, and the strategies reset.
  const pid_t late = static_cast<pid_t>(std::stol(child.ask('t')));
  pm.step(0.1);
  EXPECT_TRUE(tids_of(pm.threads()).count(late) != 0);
  const auto resets = pm.resets();
  EXPECT_GE(resets, 1u);

  // When it ends it is dropped (its /proc entry vanished, or pinning it
  // reported ESRCH), and the strategies reset again.
  // The child's join() returns a moment before the kernel removes the
  // task, so its /proc entry may linger for a few periods.
  ASSERT_EQ(child.ask('e'), "ended");
  pm.step(0.1);
  for (int i = 0; i < 5000 && tids_of(pm.threads()).count(late) != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    pm.step(0.1);
  }
  const auto after = tids_of(pm.threads());
  EXPECT_EQ(after.count(late), 0u);
  EXPECT_EQ(after.count(main_tid), 1u);
  EXPECT_GT(pm.resets(), resets);
}

TEST(PinningManager, AutopinMovesThroughItsCandidates) {
  const auto all = p::allowed_cores();
  if (all.size() < 2) GTEST_SKIP() << "needs 2 allowed cores, this process has " << all.size();
  p::ManagerOptions o;
  o.policy = p::Policy::autopin;
  o.cores = first_cores(2);
  o.autopin_window = 0.1;  // two periods of 0.05 s per candidate
  p::Manager pm(o);
  p::testing::HeartbeatWorkers workers(pm, 2);
  std::set<std::vector<int>> placements;
  std::size_t seen = 0;
  for (int i = 0; i < 16; ++i) {
    pm.step(0.05);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // let the workers beat
    const auto rows = pm.trace();
    std::vector<int> placement;
    for (; seen < rows.size(); ++seen) placement.push_back(rows[seen].core);
    placements.insert(placement);
  }
  workers.stop();
  // With 2 threads on 2 cores the candidates are round-robin (compact is
  // the same here), all but core 0 (both on core 1) and all but core 1 (both
  // on core 0), each kept for a window of two periods: all three appear.
  EXPECT_GE(placements.size(), 3u);
  for (const auto& pl : placements)
    for (int c : pl) EXPECT_TRUE(c == o.cores[0] || c == o.cores[1]) << c;
}

TEST(PinningManager, StartsAndStopsItsThread) {
  p::ManagerOptions o;
  o.parameters.period = 0.01;
  o.policy = p::Policy::off;
  p::Manager pm(o);
  SleepingThread a(pm);
  pm.start();
  pm.start();  // idempotent
  EXPECT_TRUE(pm.running());
  for (int i = 0; i < 6000 && pm.periods() < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_GE(pm.periods(), 3u);
  pm.stop();
  pm.stop();
  EXPECT_FALSE(pm.running());
  const auto n = pm.periods();
  pm.step(0.1);  // the test hook still works after stop
  EXPECT_EQ(pm.periods(), n + 1);
  EXPECT_THROW(pm.step(0), autosched::Error);
  // Off: measured and traced, never pinned.
  for (const auto& r : pm.trace()) EXPECT_EQ(r.core, -1);
}

TEST(PinningManager, WritesItsTraceAsCsv) {
  p::ManagerOptions o;
  o.policy = p::Policy::off;
  p::Manager pm(o);
  SleepingThread a(pm);
  for (int i = 0; i < 3; ++i) pm.step(0.1);
  std::ostringstream csv;
  pm.write_trace_csv(csv);
  std::istringstream in(csv.str());
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "time_s,tid,source,speed,utility,average,wait_share,core");
  // Built piecewise: g++ 12 warns falsely (-Wrestrict) on "," + to_string().
  std::string tid_and_source = std::to_string(a.tid());
  tid_and_source += ",cpu-time,";
  int rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    EXPECT_NE(line.find(tid_and_source), std::string::npos) << line;
  }
  EXPECT_EQ(rows, 3);
}

TEST(PinningManager, RegistrationMayOutliveTheManager) {
  p::ThreadRegistration me;
  {
    p::Manager pm;
    me = pm.register_thread();
    EXPECT_EQ(me.tid(), p::current_tid());
  }
  me.heartbeat();
  me.unregister();
  EXPECT_EQ(me.tid(), 0);
}

TEST(PinningCApi, StatusCodesAndNoExceptions) { EXPECT_EQ(pinning_c_api_check(), 0); }

}  // namespace
