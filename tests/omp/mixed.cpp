// tests/omp/mixed.cpp — a small time-stepping program mixing static, runtime,
// dynamic, guided, nested and nowait loops, as real codes do. What it prints
// depends only on the arithmetic (integer checksums, wrapping unsigned
// arithmetic, so no rounding can differ between schedules), never on which
// thread ran which iteration: compare_outputs.cmake runs it natively and
// under the drop-in with every schedule and compares the outputs byte for
// byte. Built with g++ and with clang++ from this one source. The drop-in's
// counts go to stderr (they differ between runs by design); with
// DROPIN_EXPECT_TAKEN=1 the program fails when the drop-in took no loop, so
// that equal outputs cannot come from a drop-in that was not there.
#include "dropin_probe.h"

#include <omp.h>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

using u64 = std::uint64_t;

int opaque(int v) {
  volatile int x = v;
  return x;
}

u64 mix(u64 x) {  // splitmix64's finaliser: a cheap, order-free per-element hash
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

u64 checksum(const std::vector<u64>& v) {
  u64 s = 0;
  for (std::size_t i = 0; i < v.size(); ++i) s += v[i] * (i + 1);
  return s;
}

}  // namespace

int main() {
  const bool expect = dropin_expect_taken() != 0;
  omp_set_max_active_levels(2);
  const int n = opaque(20011), rows = opaque(24), cols = opaque(517);
  std::vector<u64> a(n), b(n), c(n), d(n), e(n), grid(static_cast<std::size_t>(rows) * cols);
  for (int i = 0; i < n; ++i) a[i] = mix(static_cast<u64>(i));

  for (int step = 0; step < 6; ++step) {
    u64 total = 0, total2 = 0;
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (int i = 0; i < n; ++i) b[i] = mix(a[i] + static_cast<u64>(step));
#pragma omp for schedule(runtime)
      for (int i = n - 1; i >= 0; i -= 1) c[i] = b[i] ^ mix(b[(i * 7) % n]);
#pragma omp for schedule(dynamic, 5) nowait
      for (int i = 0; i < n; i += 2) d[i] = c[i] * 3 + 1;
#pragma omp for schedule(runtime) nowait
      for (int i = 1; i < n; i += 2) d[i] = c[i] * 5 + 7;
#pragma omp for schedule(guided) reduction(+ : total)
      for (int i = 0; i < n; ++i) total += c[i] >> 3;
#pragma omp for schedule(runtime)
      for (int i = 0; i < n; ++i) e[i] = d[i] + mix(static_cast<u64>(i) * static_cast<u64>(step + 1));
      // Reductions only read: clang 14 -O2 vectorises a reduction loop that
      // also stores (e[i] = v; total += v) into a wrong sum whenever a chunk
      // is long enough for the vector body, natively too (dynamic,1 hides it).
#pragma omp for schedule(runtime) reduction(+ : total2)
      for (int i = 0; i < n; ++i) total2 += e[i] & 0xffff;
    }
    total += total2;
    // Nested: a runtime loop over rows, each row a nested region with its own
    // runtime loop over the columns.
#pragma omp parallel for schedule(runtime) num_threads(2)
    for (int r = 0; r < rows; ++r) {
#pragma omp parallel num_threads(2)
      {
#pragma omp for schedule(runtime)
        for (int col = 0; col < cols; ++col) {
          const std::size_t at = static_cast<std::size_t>(r) * cols + col;
          grid[at] = mix(e[(r * 131 + col) % n] + grid[at]);
        }
        nested_team_done(&r);
      }
      nested_team_joined(&r);
    }
    // The next step starts from this one's result.
#pragma omp parallel for schedule(runtime)
    for (int i = 0; i < n; ++i) a[i] = e[i] ^ grid[static_cast<std::size_t>(i) % grid.size()];
    std::printf("step %d: b %016llx c %016llx d %016llx e %016llx grid %016llx total %016llx\n", step,
                static_cast<unsigned long long>(checksum(b)), static_cast<unsigned long long>(checksum(c)),
                static_cast<unsigned long long>(checksum(d)), static_cast<unsigned long long>(checksum(e)),
                static_cast<unsigned long long>(checksum(grid)), static_cast<unsigned long long>(total));
  }
  const autosched_omp_counts counts = dropin_counts();
  std::fprintf(stderr, "drop-in: %llu loops, %llu instances, %llu forwarded\n", counts.loops, counts.instances,
               counts.forwarded);
  if (expect && counts.instances == 0) {
    std::fprintf(stderr, "mixed: the drop-in is loaded but scheduled no loop instance\n");
    return 1;
  }
  return 0;
}
