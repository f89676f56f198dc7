// A steady time-stepping loop allocates nothing: after its first instances
// (which size the pooled instance, its slots and its plan), further instances
// of the same loop must not call operator new. Own executable: it replaces
// the global operator new to count.
#include <autosched/loops/loops.hpp>
#include <autosched/select/selectors/auto/auto_selector.hpp>

#include "drive/virtual_time.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

namespace {
std::atomic<long> allocations{0};
}  // namespace

// The replacements below pair malloc with free; GCC cannot see that and warns.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace autosched {
namespace {

class SteadyLoop : public ::testing::TestWithParam<std::string> {};

TEST_P(SteadyLoop, AllocatesNothingPerInstance) {
  const std::string schedule = GetParam();
  const std::string loop = "allocations/" + schedule;
  const LoopOptions options{.name = loop, .schedule = schedule, .threads = 2};
  auto body = [](std::int64_t i) { asm volatile("" : : "r"(i)); };
  for (int warm = 0; warm < 3; ++warm) parallel_for(std::int64_t{0}, std::int64_t{100000}, body, options);
  const long before = allocations.load();
  for (int step = 0; step < 20; ++step) parallel_for(std::int64_t{0}, std::int64_t{100000}, body, options);
  EXPECT_EQ(allocations.load() - before, 0) << schedule;
}

// The default schedule, `auto` (no schedule given): once its sweep is over,
// an instance that runs the chosen arm (choose, guard, run, observe, record)
// allocates nothing either. In virtual time (1 µs per chunk, 1 ns per
// iteration), so that the machine's speed does not prolong the sweep. Which
// thread takes which chunk still follows the operating system, so on a loaded
// machine a loop time can double and the change test may re-open exploration:
// such an instance may size a profile or a plan once (the selector itself
// allocates nothing then, see the next test). Those instances are not
// counted, and at least half of them must be steady ones so that the test
// cannot pass empty. Only the loop calls are counted: last_instance() copies
// a record.
TEST(SteadyAutoLoop, AllocatesNothingOnceItHasExplored) {
  const testing::VirtualClock clock;
  const std::string loop = "allocations/auto";
  const LoopOptions options{.name = loop, .threads = 2};
  auto body = [](std::int64_t first, std::int64_t last) { testing::VirtualClock::charge(1000 + (last - first)); };
  auto run = [&] {
    testing::VirtualClock::next_instance();
    parallel_for_chunks(std::int64_t{0}, std::int64_t{100000}, body, options);
  };
  for (int warm = 0; warm < 100; ++warm) run();
  ASSERT_EQ(last_instance(loop)->selector, "auto");
  long counted = 0;
  int steady = 0;
  for (int step = 0; step < 100; ++step) {
    const long before = allocations.load();
    run();
    const long allocated = allocations.load() - before;
    if (last_instance(loop)->explored) continue;
    ++steady;
    counted += allocated;
  }
  EXPECT_GE(steady, 50);
  EXPECT_EQ(counted, 0);
}

// The auto selector on its own: when its change test fires and it sweeps
// again, choosing and learning still allocate nothing. (A cut trial in that
// new sweep may make the runtime plan a fallback it has not planned before,
// which sizes that plan once; that is the runtime's, not the selector's.)
TEST(SteadyAutoLoop, TheSelectorSweepsAgainWithoutAllocating) {
  autosched::detail::AutoSelector selector(4, AutoConfig{});
  auto step = [&](double scale) {
    const Decision d = selector.choose(Context{100000, 2});
    selector.observe(d, Outcome{scale * (1.0 + d.arm), {}, false});  // arm 0 is the best
  };
  for (int k = 0; k < 100; ++k) step(1.0);
  const long before = allocations.load();
  for (int k = 0; k < 100; ++k) step(10.0);  // the loop became 10x slower: a change
  EXPECT_EQ(allocations.load() - before, 0);
  EXPECT_GE(selector.changes_detected(), 1);
}

INSTANTIATE_TEST_SUITE_P(Schedules, SteadyLoop,
                         ::testing::Values("static", "static,chunk=8", "ss", "gss", "tss", "fac2", "fiss",
                                           "static-steal", "wf", "awf", "awf-b", "af", "rnd", "gss,chunk=expert"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return "case" + std::to_string(p.index);
                         });

}  // namespace
}  // namespace autosched
