// The real executor of tiled factorisations: the tile kernels against a
// direct LAPACKE factorisation, every run verified by its residual, the
// decisions of one worker identical to the simulator's, and errors of
// kernels and schedulers reaching the caller. No test judges time: the
// kernel timings only feed the schedulers, and the checks are on results
// and on the order of events.
#include <autosched/core/error.hpp>
#include <autosched/dag/executor.hpp>
#include <autosched/dag/list_schedulers.hpp>
#include <autosched/dag/tile_kernels.hpp>

#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <tuple>

namespace autosched::dag {
namespace {

/// The whole matrix of `f`, column-major n×n.
std::vector<double> whole(const TiledFactorization& f) {
  const int b = f.tile_size(), n = f.order();
  std::vector<double> m(static_cast<std::size_t>(n) * n);
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r)
      m[static_cast<std::size_t>(c) * n + r] = f.tile(r / b, c / b)[(c % b) * b + r % b];
  return m;
}

void run_sequentially(TiledFactorization& f) {
  for (TaskId t : f.graph().topological_order()) f.run(t);
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b, int n, bool lower, bool upper,
                      bool absolute = false) {
  double worst = 0;
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r) {
      if ((r > c && !lower) || (r < c && !upper)) continue;
      double x = a[static_cast<std::size_t>(c) * n + r], y = b[static_cast<std::size_t>(c) * n + r];
      if (absolute) x = std::abs(x), y = std::abs(y);
      worst = std::max(worst, std::abs(x - y));
    }
  return worst;
}

/// Durations the schedulers plan with: calibrated once per family and tile size.
const DurationTable& table_for(const std::string& family, int b) {
  static std::map<std::pair<std::string, int>, DurationTable> tables;
  auto [it, fresh] = tables.try_emplace({family, b});
  if (fresh) it->second = calibrate(family, b, 1);
  return it->second;
}

/// Every task ran once, on an existing worker, after all its predecessors.
void expect_valid_schedule(const TiledFactorization& f, const ExecutionResult& r, std::size_t workers) {
  const TaskGraph& g = f.graph();
  ASSERT_EQ(r.schedule.size(), g.size());
  for (std::size_t t = 0; t < g.size(); ++t) {
    const ScheduledTask& s = r.schedule[t];
    EXPECT_EQ(s.task, static_cast<TaskId>(t));
    EXPECT_GE(s.processor, 0);
    EXPECT_LT(static_cast<std::size_t>(s.processor), workers);
    EXPECT_LE(s.start, s.end);
    EXPECT_LE(s.end, r.makespan);
  }
  for (const Edge& e : g.edges())
    EXPECT_LE(r.schedule[static_cast<std::size_t>(e.from)].end, r.schedule[static_cast<std::size_t>(e.to)].start)
        << "edge " << e.from << " -> " << e.to;
  // Two tasks on one worker never overlap.
  for (std::size_t p = 0; p < workers; ++p) {
    std::vector<ScheduledTask> mine;
    for (const auto& s : r.schedule)
      if (static_cast<std::size_t>(s.processor) == p) mine.push_back(s);
    std::sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    for (std::size_t i = 1; i < mine.size(); ++i) EXPECT_LE(mine[i - 1].end, mine[i].start);
  }
}

// ---------------------------------------------------------------- kernels

TEST(TileKernels, CholeskyMatchesLapackeOnTheWholeMatrix) {
  TiledFactorization f("cholesky", 3, 16, 7);
  std::vector<double> direct = whole(f);
  const int n = f.order();
  ASSERT_EQ(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, direct.data(), n), 0);
  run_sequentially(f);
  EXPECT_LT(max_difference(whole(f), direct, n, true, false), 1e-10);
}

TEST(TileKernels, LuWithoutPivotingMatchesLapackeWhichDoesNotPivotHere) {
  TiledFactorization f("lu", 3, 16, 7);
  std::vector<double> direct = whole(f);
  const int n = f.order();
  std::vector<lapack_int> pivots(static_cast<std::size_t>(n));
  ASSERT_EQ(LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, direct.data(), n, pivots.data()), 0);
  // Diagonally dominant: partial pivoting keeps every row where it is.
  for (int i = 0; i < n; ++i) ASSERT_EQ(pivots[static_cast<std::size_t>(i)], i + 1);
  run_sequentially(f);
  EXPECT_LT(max_difference(whole(f), direct, n, true, true), 1e-10);
}

TEST(TileKernels, QrGivesLapackesRUpToTheSignsOfItsRows) {
  TiledFactorization f("qr", 3, 16, 7);
  std::vector<double> direct = whole(f);
  const int n = f.order();
  std::vector<double> tau(static_cast<std::size_t>(n));
  ASSERT_EQ(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, n, direct.data(), n, tau.data()), 0);
  run_sequentially(f);
  EXPECT_LT(max_difference(whole(f), direct, n, false, true, true), 1e-10);
}

TEST(TileKernels, GetrfNopivMatchesTheUnblockedAlgorithmAcrossPanels) {
  // b = 70: two full panels of 32 and a partial one of 6.
  const int b = 70;
  std::vector<double> a(static_cast<std::size_t>(b) * b), ref;
  for (int c = 0; c < b; ++c)
    for (int r = 0; r < b; ++r) a[static_cast<std::size_t>(c) * b + r] = std::sin(r * 7.0 + c * 3.0) + (r == c ? b : 0);
  ref = a;
  for (int k = 0; k < b; ++k)
    for (int i = k + 1; i < b; ++i) {
      ref[static_cast<std::size_t>(k) * b + i] /= ref[static_cast<std::size_t>(k) * b + k];
      for (int j = k + 1; j < b; ++j)
        ref[static_cast<std::size_t>(j) * b + i] -=
            ref[static_cast<std::size_t>(k) * b + i] * ref[static_cast<std::size_t>(j) * b + k];
    }
  kernels::getrf_nopiv(a.data(), b, "test tile");
  EXPECT_LT(max_difference(a, ref, b, true, true), 1e-12);
}

TEST(TiledFactorization, ResidualIsSmallAfterTheTasksAndLargeBefore) {
  for (const char* family : {"cholesky", "lu", "qr"}) {
    TiledFactorization f(family, 4, 24, 3);
    EXPECT_GT(f.residual(), 1e-3) << family << ": the unfactored matrix must not pass";
    run_sequentially(f);
    EXPECT_LT(f.residual(), f.tolerance()) << family;
    f.reset();
    EXPECT_GT(f.residual(), 1e-3) << family << " after reset()";
    run_sequentially(f);
    EXPECT_LT(f.residual(), f.tolerance()) << family << " second run";
  }
}

TEST(TiledFactorization, RejectsBadArguments) {
  EXPECT_THROW(TiledFactorization("svd", 3, 16), Error);
  EXPECT_THROW(TiledFactorization("lu", 1, 16), Error);
  EXPECT_THROW(TiledFactorization("lu", 3, 0), Error);
  TiledFactorization f("lu", 2, 4);
  EXPECT_THROW(f.tile(2, 0), Error);
  EXPECT_THROW(f.run(static_cast<TaskId>(f.graph().size())), Error);
}

TEST(Calibrate, GivesEveryKernelACpuDurationInMs) {
  // Where GPU workers run (a CUDA build on a machine with a GPU), Cholesky's
  // and LU's kernels also get a GPU duration; QR's never have one.
  const bool gpu = gpu_workers() > 0;
  for (const char* family : {"cholesky", "lu", "qr"}) {
    const bool gpu_column = gpu && std::string(family) != "qr";
    const DurationTable t = calibrate(family, 16, 2);
    EXPECT_EQ(t.name, "calibrated b=16");
    EXPECT_EQ(t.unit, "ms");
    const TiledFactorization f(family, 2, 16);
    ASSERT_EQ(t.kernels.size(), f.graph().kernel_names().size()) << family;
    for (const std::string& k : f.graph().kernel_names()) {
      ASSERT_TRUE(t.kernels.count(k)) << family << " " << k;
      EXPECT_TRUE(std::isfinite(t.kernels.at(k)[0]));
      EXPECT_GE(t.kernels.at(k)[0], 0);
      if (gpu_column) {
        EXPECT_TRUE(std::isfinite(t.kernels.at(k)[1])) << family << " " << k;
        EXPECT_GT(t.kernels.at(k)[1], 0) << family << " " << k;
      } else {
        EXPECT_EQ(t.kernels.at(k)[1], not_available) << family << " " << k;
      }
    }
  }
  EXPECT_THROW(calibrate("lu", 16, 0), Error);
}

// --------------------------------------------------------------- executor

using GridCase = std::tuple<std::string, std::string, int>;  // family, scheduler, workers

class ExecutorGrid : public ::testing::TestWithParam<GridCase> {};

TEST_P(ExecutorGrid, EveryRunIsVerifiedAndRespectsTheGraph) {
  const auto& [family, scheduler_name, workers] = GetParam();
  for (const auto& [tiles, b] : {std::pair{2, 16}, std::pair{3, 32}, std::pair{4, 64}}) {
    SCOPED_TRACE(family + " T=" + std::to_string(tiles) + " b=" + std::to_string(b));
    TiledFactorization f(family, tiles, b, static_cast<std::uint64_t>(tiles * 100 + b));
    auto scheduler = make_scheduler(scheduler_name);
    const auto plat = platform(std::to_string(workers) + "cpu");
    const ExecutionResult r = execute(f, plat, *scheduler, table_for(family, b));
    EXPECT_TRUE(r.verified) << "residual " << r.residual << " >= " << r.tolerance;
    EXPECT_LT(r.residual, r.tolerance);
    expect_valid_schedule(f, r, static_cast<std::size_t>(workers));
    EXPECT_GE(r.decisions + r.forced, f.graph().size());
    EXPECT_GE(r.scheduler_ms, 0);
    EXPECT_GE(r.wake_ms, 0);
    EXPECT_GE(r.overhead_per_task_us, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(FamiliesSchedulersWorkers, ExecutorGrid,
                         ::testing::Combine(::testing::Values("cholesky", "lu", "qr"),
                                            ::testing::Values("eager", "heft", "mct-prio", "heteroprio", "random"),
                                            ::testing::Values(1, 2, 3)),
                         [](const auto& p) {
                           std::string s = std::get<0>(p.param) + "_" + std::get<1>(p.param) + "_" +
                                           std::to_string(std::get<2>(p.param)) + "w";
                           std::replace(s.begin(), s.end(), '-', '_');
                           return s;
                         });

TEST(Executor, OneWorkerRunsTheSimulatorsOrder) {
  // With one worker every event is one completion, whatever the timings,
  // so the order of tasks must be the simulator's for the same scheduler.
  for (const char* name : {"eager", "heft", "mct-prio", "heteroprio", "random"}) {
    SCOPED_TRACE(name);
    TiledFactorization f("cholesky", 4, 16);
    const auto plat = platform("1cpu");
    const DurationTable& table = table_for("cholesky", 16);
    auto s1 = make_scheduler(name);
    const Problem problem(f.graph(), plat, table);
    SimulationOptions so;
    so.seed = 5;
    const SimulationResult sim = simulate(problem, *s1, so);
    auto s2 = make_scheduler(name);
    ExecutorOptions eo;
    eo.seed = 5;
    const ExecutionResult real = execute(f, plat, *s2, table, eo);
    EXPECT_TRUE(real.verified);
    auto order = [](const std::vector<ScheduledTask>& s) {
      std::vector<TaskId> ids(s.size());
      std::iota(ids.begin(), ids.end(), 0);
      std::stable_sort(ids.begin(), ids.end(), [&](TaskId a, TaskId b) {
        return s[static_cast<std::size_t>(a)].start < s[static_cast<std::size_t>(b)].start;
      });
      return ids;
    };
    EXPECT_EQ(order(real.schedule), order(sim.schedule));
    EXPECT_EQ(real.decisions, sim.decisions);
    EXPECT_EQ(real.passes, sim.passes);
  }
}

/// Passes every time: the no-stall rule must still finish the graph.
class AlwaysPass final : public Scheduler {
 public:
  std::string name() const override { return "always-pass"; }
  void start(const Problem&, std::uint64_t) override {}
  TaskId choose(const SchedulingView&, std::size_t) override { return pass; }
};

TEST(Executor, TheNoStallRuleFinishesForASchedulerThatAlwaysPasses) {
  TiledFactorization f("lu", 3, 16);
  AlwaysPass s;
  const ExecutionResult r = execute(f, platform("2cpu"), s, table_for("lu", 16));
  EXPECT_TRUE(r.verified);
  EXPECT_EQ(r.forced, f.graph().size());
  EXPECT_EQ(r.passes, r.decisions);
  expect_valid_schedule(f, r, 2);
}

TEST(Executor, AKernelErrorReachesTheCallerAndTheObjectRunsAgainAfterReset) {
  for (int workers : {1, 2, 3}) {
    TiledFactorization f("cholesky", 4, 16);
    f.tile(1, 1)[0] = -1e9;  // A_11 is no longer positive definite: POTRF(1) fails
    auto s = make_scheduler("eager");
    try {
      execute(f, platform(std::to_string(workers) + "cpu"), *s, table_for("cholesky", 16));
      ADD_FAILURE() << "no error with " << workers << " workers";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("POTRF"), std::string::npos) << what;
      EXPECT_NE(what.find("A(1,1)"), std::string::npos) << what;
      EXPECT_NE(what.find("not positive definite"), std::string::npos) << what;
    }
    f.reset();
    auto again = make_scheduler("eager");
    EXPECT_TRUE(execute(f, platform(std::to_string(workers) + "cpu"), *again, table_for("cholesky", 16)).verified);
  }
}

TEST(Executor, AZeroPivotOfLuReachesTheCaller) {
  TiledFactorization f("lu", 3, 16);
  std::fill_n(f.tile(0, 0), 16 * 16, 0.0);
  auto s = make_scheduler("mct-prio");
  EXPECT_THROW(execute(f, platform("2cpu"), *s, table_for("lu", 16)), Error);
}

/// Eager until its n-th call of `where`, which throws.
class ThrowingScheduler final : public Scheduler {
 public:
  enum class Where { start, on_ready, choose, on_finish };
  ThrowingScheduler(Where where, int after) : where_(where), after_(after) {}
  std::string name() const override { return "throwing"; }
  void start(const Problem&, std::uint64_t) override { hit(Where::start); }
  void on_ready(const SchedulingView&, std::span<const TaskId>) override { hit(Where::on_ready); }
  TaskId choose(const SchedulingView& view, std::size_t p) override {
    hit(Where::choose);
    return eager_.choose(view, p);
  }
  void on_finish(const SchedulingView&, TaskId, std::size_t) override { hit(Where::on_finish); }

 private:
  void hit(Where w) {
    if (w == where_ && calls_++ == after_) throw std::runtime_error("scheduler failed on purpose");
  }
  Where where_;
  int after_, calls_ = 0;
  Eager eager_;
};

TEST(Executor, ASchedulerErrorReachesTheCallerFromEveryCallback) {
  using W = ThrowingScheduler::Where;
  for (const W where : {W::start, W::on_ready, W::choose, W::on_finish})
    for (const int after : {0, 3}) {
      if (where == W::start && after > 0) continue;
      for (const int workers : {1, 3}) {
        TiledFactorization f("qr", 3, 16);
        ThrowingScheduler s(where, after);
        EXPECT_THROW(
            {
              try {
                execute(f, platform(std::to_string(workers) + "cpu"), s, table_for("qr", 16));
              } catch (const std::runtime_error& e) {
                EXPECT_STREQ(e.what(), "scheduler failed on purpose");
                throw;
              }
            },
            std::runtime_error)
            << "callback " << static_cast<int>(where) << " after " << after << ", " << workers << " workers";
      }
    }
}

/// Answers a task that is not ready.
class WrongScheduler final : public Scheduler {
 public:
  std::string name() const override { return "wrong"; }
  void start(const Problem&, std::uint64_t) override {}
  TaskId choose(const SchedulingView& view, std::size_t) override {
    return static_cast<TaskId>(view.state.size() - 1);  // the last task is never ready first
  }
};

TEST(Executor, ATaskThatIsNotReadyIsRefused) {
  TiledFactorization f("cholesky", 3, 16);
  WrongScheduler s;
  try {
    execute(f, platform("2cpu"), s, table_for("cholesky", 16));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not ready"), std::string::npos) << e.what();
  }
}

TEST(Executor, RefusesGpusMissingKernelsAndUnitsThatAreNotTime) {
  TiledFactorization f("cholesky", 2, 16);
  auto s = make_scheduler("eager");
  const Platform with_gpu = platform("1gpu+2cpu");
  if (gpu_workers() == 0) {  // no CUDA in this build, or no GPU here: refused by name
    try {
      execute(f, with_gpu, *s, table_for("cholesky", 16));
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("platform " + with_gpu.describe()), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("GPU"), std::string::npos) << e.what();
    }
  }
  DurationTable missing = table_for("cholesky", 16);
  missing.kernels.erase("GEMM");
  EXPECT_THROW(execute(f, platform("2cpu"), *s, missing), Error);
  DurationTable abstract = table_for("cholesky", 16);
  abstract.unit = "units";
  EXPECT_THROW(execute(f, platform("2cpu"), *s, abstract), Error);
}

}  // namespace
// GPU workers: only where the build has CUDA and a GPU is present (the
// device machine); elsewhere skipped, and the refusal above is tested.
TEST(ExecutorGpu, CpuAndGpuWorkersShareAVerifiedFactorisation) {
  if (gpu_workers() == 0) GTEST_SKIP() << "no GPU workers here (no CUDA toolkit at build time, or no GPU)";
  for (const char* family : {"cholesky", "lu", "qr"}) {
    TiledFactorization f(family, 4, 64);
    const DurationTable table = calibrate(family, 64, 2);  // with a GPU column for Cholesky and LU kernels
    for (const char* name : {"heft", "mct-prio", "heteroprio", "eager"}) {
      f.reset();
      auto s = make_scheduler(name);
      const ExecutionResult r = execute(f, platform("1gpu+2cpu"), *s, table);
      EXPECT_TRUE(r.verified) << family << " " << name << ": residual " << r.residual;
      if (std::string(family) == "qr") {
        for (const ScheduledTask& t : r.schedule) EXPECT_NE(t.processor, 0) << "a QR task ran on the GPU";
      }
    }
  }
}

}  // namespace autosched::dag
