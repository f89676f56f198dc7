// A steady time-stepping loop allocates nothing: after its first instances
// (which size the pooled instance, its slots and its plan), further instances
// of the same loop must not call operator new. Own executable: it replaces
// the global operator new to count.
#include <autosched/loops/loops.hpp>

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

INSTANTIATE_TEST_SUITE_P(Schedules, SteadyLoop,
                         ::testing::Values("static", "static,chunk=8", "ss", "gss", "tss", "fac2", "fiss",
                                           "static-steal", "wf", "awf", "awf-b", "af", "rnd", "gss,chunk=expert"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return "case" + std::to_string(p.index);
                         });

}  // namespace
}  // namespace autosched
