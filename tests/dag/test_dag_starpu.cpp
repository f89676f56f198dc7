// Task graphs on StarPU's CPU workers: under our policy (any scheduler,
// through SchedulerPolicy) and under StarPU's own policies, every task runs
// exactly once and never before its predecessors. The bodies are stand-ins
// that record the order; nothing here judges time.
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/starpu/starpu_runner.hpp>

#include <gtest/gtest.h>

#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace autosched::dag;
using autosched::dag::starpu::RunOptions;
using autosched::dag::starpu::RunResult;
using autosched::dag::starpu::run_on_starpu;

/// StarPU keeps its files (bus calibration, models) under $STARPU_HOME:
/// point it at a folder of this process, removed at exit, and keep StarPU
/// quiet and off the cores' affinity (tests share the machine).
class HermeticStarpu {
 public:
  HermeticStarpu() {
    std::string pattern = (std::filesystem::temp_directory_path() / "autosched-starpu-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp " + pattern + " failed");
    home_ = pattern;
    setenv("STARPU_HOME", home_.c_str(), 1);
    setenv("STARPU_SILENT", "1", 1);
    setenv("STARPU_WORKERS_NOBIND", "1", 1);
    unsetenv("STARPU_SCHED");
    unsetenv("STARPU_NCPU");
  }
  ~HermeticStarpu() {
    std::error_code ignored;
    std::filesystem::remove_all(home_, ignored);
  }
  const std::filesystem::path& home() const { return home_; }

 private:
  std::filesystem::path home_;
};

const HermeticStarpu& hermetic() {
  static const HermeticStarpu environment;
  return environment;
}

/// Expected durations for the stand-in kernels, in "ms" (their actual
/// duration is a few microseconds of spinning; only the ratios matter to
/// the policies).
DurationTable stand_in_table() {
  DurationTable t = duration_table("readys");
  t.unit = "ms";
  return t;
}

/// A body that checks, as it starts, that every predecessor has finished,
/// and counts how often each task runs.
class OrderRecorder {
 public:
  explicit OrderRecorder(const TaskGraph& graph)
      : graph_(graph), runs_(std::make_unique<std::atomic<int>[]>(graph.size())),
        done_(std::make_unique<std::atomic<bool>[]>(graph.size())) {
    for (std::size_t t = 0; t < graph.size(); ++t) runs_[t] = 0, done_[t] = false;
  }
  void operator()(TaskId t) {
    for (TaskId p : graph_.predecessors(t)) {
      if (!done_[static_cast<std::size_t>(p)].load()) early_.fetch_add(1);
    }
    runs_[static_cast<std::size_t>(t)].fetch_add(1);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      order_.push_back(t);
    }
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(20 * (graph_.task(t).kernel + 1));
    while (std::chrono::steady_clock::now() < until) {
    }
    done_[static_cast<std::size_t>(t)].store(true);
  }
  void expect_each_once_after_predecessors(const RunResult& r, const std::string& what) const {
    EXPECT_EQ(early_.load(), 0) << what << ": a task started before one of its predecessors finished";
    EXPECT_EQ(order_.size(), graph_.size()) << what;
    for (std::size_t t = 0; t < graph_.size(); ++t) {
      EXPECT_EQ(runs_[t].load(), 1) << what << ": task " << t << " ran " << runs_[t].load() << " times";
      EXPECT_GE(r.worker[t], 0) << what << ": task " << t;
      for (TaskId s : graph_.successors(static_cast<TaskId>(t))) {
        EXPECT_LT(r.end_seq[t], r.start_seq[static_cast<std::size_t>(s)])
            << what << ": task " << s << " started before its predecessor " << t << " ended";
      }
    }
  }

 private:
  const TaskGraph& graph_;
  std::unique_ptr<std::atomic<int>[]> runs_;
  std::unique_ptr<std::atomic<bool>[]> done_;
  std::atomic<int> early_{0};
  std::mutex mutex_;
  std::vector<TaskId> order_;
};

RunResult run_checked(const TaskGraph& graph, const RunOptions& options) {
  static_cast<void>(hermetic());
  OrderRecorder recorder(graph);
  const std::string what = graph.name() + " under " + options.policy + " on " + std::to_string(options.workers) +
                           " worker(s)";
  RunResult r = run_on_starpu(graph, stand_in_table(), [&](TaskId t) { recorder(t); }, options);
  recorder.expect_each_once_after_predecessors(r, what);
  EXPECT_GE(r.makespan_ms, 0) << what;
  return r;
}

struct Case {
  std::string policy;
  int workers;
};

class StarpuPolicies : public ::testing::TestWithParam<Case> {};

TEST_P(StarpuPolicies, EveryTaskOnceAfterItsPredecessors) {
  const Case& c = GetParam();
  for (const TaskGraph& graph : {cholesky(4), lu(3), qr(3)}) {
    const RunResult r = run_checked(graph, {.policy = c.policy, .workers = c.workers});
    if (!starpu::is_starpu_policy(c.policy)) {
      EXPECT_GE(r.decisions, graph.size()) << c.policy << " on " << graph.name();
      EXPECT_LE(r.forced, r.passes);
    }
    if (c.workers == 1) {
      for (int w : r.worker) EXPECT_EQ(w, 0);
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.policy + "_" + std::to_string(info.param.workers) + "cpu";
  for (char& ch : name) {
    if (ch == '-' || ch == ':') ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    Ours, StarpuPolicies,
    ::testing::Values(Case{"eager", 1}, Case{"eager", 2}, Case{"heft", 1}, Case{"heft", 2}, Case{"mct", 1},
                      Case{"mct", 2}, Case{"mct-prio", 1}, Case{"mct-prio", 2}, Case{"heteroprio", 1},
                      Case{"heteroprio", 2}, Case{"random", 2}),
    case_name);

INSTANTIATE_TEST_SUITE_P(Builtin, StarpuPolicies,
                         ::testing::Values(Case{"starpu:eager", 1}, Case{"starpu:eager", 2}, Case{"starpu:dm", 1},
                                           Case{"starpu:dm", 2}, Case{"starpu:dmdas", 2},
                                           Case{"starpu:heteroprio", 2}, Case{"starpu:lws", 2},
                                           Case{"starpu:prio", 2}),
                         case_name);

/// Passes on every decision: only the no-stall rule makes progress.
class AlwaysPass final : public Scheduler {
 public:
  std::string name() const override { return "always-pass"; }
  void start(const Problem&, std::uint64_t) override {}
  TaskId choose(const SchedulingView&, std::size_t) override { return pass; }
};

TEST(StarpuPolicy, PassesAreRememberedAndTheNoStallRuleKeepsTheRunGoing) {
  static_cast<void>(hermetic());
  const TaskGraph graph = cholesky(3);
  for (int workers : {1, 2}) {
    OrderRecorder recorder(graph);
    AlwaysPass scheduler;
    const RunResult r = run_on_starpu(graph, stand_in_table(), [&](TaskId t) { recorder(t); }, scheduler,
                                      {.policy = "always-pass", .workers = workers});
    recorder.expect_each_once_after_predecessors(r, "always-pass");
    EXPECT_EQ(r.forced, graph.size()) << workers << " worker(s)";
    EXPECT_EQ(r.decisions, r.passes);
    // Each event asks each worker at most once, however often it polls:
    // one push or completion per task, plus the release.
    EXPECT_LE(r.decisions, static_cast<std::size_t>(workers) * (2 * graph.size() + 1));
  }
}

/// Chooses task 0 whenever asked: wrong once task 0 has run.
class StuckOnFirst final : public Scheduler {
 public:
  std::string name() const override { return "stuck-on-first"; }
  void start(const Problem&, std::uint64_t) override {}
  TaskId choose(const SchedulingView&, std::size_t) override { return 0; }
};

TEST(StarpuPolicy, AChoiceThatIsNotReadyIsReportedAfterTheRun) {
  static_cast<void>(hermetic());
  const TaskGraph graph = cholesky(2);
  StuckOnFirst scheduler;
  try {
    run_on_starpu(graph, stand_in_table(), [](TaskId) {}, scheduler, {.policy = "stuck", .workers = 1});
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("not ready"), std::string::npos) << e.what();
  }
}

TEST(StarpuRunner, ABodyExceptionReachesTheCaller) {
  static_cast<void>(hermetic());
  const TaskGraph graph = cholesky(3);
  EXPECT_THROW(run_on_starpu(graph, stand_in_table(),
                             [](TaskId t) {
                               if (t == 2) throw std::runtime_error("body of task 2");
                             },
                             {.policy = "starpu:eager", .workers = 2}),
               std::runtime_error);
}

TEST(StarpuRunner, RejectsUnknownPoliciesAndWorkerCounts) {
  static_cast<void>(hermetic());
  const TaskGraph graph = cholesky(2);
  auto noop = [](TaskId) {};
  try {
    run_on_starpu(graph, stand_in_table(), noop, {.policy = "starpu:frobnicate"});
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("dmdas"), std::string::npos) << e.what();
  }
  EXPECT_ANY_THROW(run_on_starpu(graph, stand_in_table(), noop, {.policy = "frobnicate"}));
  EXPECT_ANY_THROW(run_on_starpu(graph, stand_in_table(), noop, {.policy = "eager", .workers = 0}));
  EXPECT_ANY_THROW(run_on_starpu(graph, stand_in_table(), noop, {.policy = "eager", .workers = 64}));
}

TEST(StarpuRunner, ModelPoliciesReadTheDurationTableAndKeepTheirFilesUnderStarpuHome) {
  const HermeticStarpu& env = hermetic();
  const RunResult r = run_checked(cholesky(3), {.policy = "starpu:dmda", .workers = 2});
  EXPECT_GT(r.model_queries, 0u);
  const char* home = std::getenv("STARPU_HOME");
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(std::filesystem::path(home), env.home());
  EXPECT_TRUE(std::filesystem::exists(env.home() / ".starpu")) << "StarPU wrote nothing under " << env.home();
}

}  // namespace
