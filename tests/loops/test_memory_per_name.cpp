// What a distinct loop name costs the process: a program with thousands of
// named loops (generated kernels, a loop per element type) keeps every
// name's state for its whole run. Heap bytes (glibc's in-use count), not
// time: measured the same on any machine. bench/growth measures the same at
// 10^4 names with resident bytes and a store (docs/PERFORMANCE.md).
#include <autosched/loops/loops.hpp>

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdint>
#include <string>
#include <vector>

namespace autosched {
namespace {

double heap_bytes() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd);
}

// Under `auto` (the default), each name holds its selector, its decision
// point, its cost profile and a pooled instance; the arms, the selector's
// configuration and the schedule are shared between names. 33 KB a name
// before they were.
TEST(LoopNames, EachNameCostsLessThan12KiB) {
  constexpr int names = 2000;
  constexpr std::int64_t n = 256;
  std::vector<double> y(static_cast<std::size_t>(n), 0.0);
  auto body = [&](std::int64_t i) { y[static_cast<std::size_t>(i)] += 1.0; };
  std::vector<std::string> labels;
  for (int j = 0; j < names; ++j) labels.push_back("memory/loop" + std::to_string(j));
  for (int k = 0; k < 4; ++k) parallel_for(std::int64_t{0}, n, body, {.name = "memory/warm-up", .threads = 2});
  flush_records();
  const double before = heap_bytes();
  for (const std::string& label : labels) {
    for (int k = 0; k < 4; ++k) parallel_for(std::int64_t{0}, n, body, {.name = label, .threads = 2});
  }
  flush_records();
  const double per_name = (heap_bytes() - before) / names;
  EXPECT_LT(per_name, 12 * 1024.0);
  EXPECT_GT(per_name, 1024.0);  // a name does hold its state: the count is not empty
  EXPECT_EQ(last_instance("memory/loop0")->selector, "auto");
}

}  // namespace
}  // namespace autosched
