// A tunable region whose variant is the algorithm: each time step sorts a
// batch of arrays of n keys with insertion sort, merge sort or an LSD radix
// sort, and a region learns which is fastest for which n. Their costs cross
// as n grows: insertion sort (O(n²), no overhead) wins tiny arrays, merge
// sort (O(n log n)) the middle, and radix sort (O(n) per pass, but 2 × 65536
// buckets to clear and sum per array) large arrays.
//
// The region explores each (n, algorithm) pair once, trains a decision tree
// on those 12 measurements and then runs the tree's choice. With a store
// (AUTOSCHED_DB) a second run starts from the model of the first.
//   region_algorithm [--steps N] [--quiet] [--planted-costs]
#include "run_report.hpp"

#include <autosched/regions/region.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <utility>
#include <vector>

namespace {

using Key = std::uint32_t;

void insertion_sort(std::span<Key> a) {
  for (std::size_t i = 1; i < a.size(); ++i) {
    const Key v = a[i];
    std::size_t j = i;
    for (; j > 0 && a[j - 1] > v; --j) a[j] = a[j - 1];
    a[j] = v;
  }
}

// Top-down to single elements: no insertion-sort cut-off for short runs, which
// would blur the crossing this example shows.
void merge_sort(std::span<Key> a, std::span<Key> scratch) {
  if (a.size() < 2) return;
  const std::size_t half = a.size() / 2;
  merge_sort(a.first(half), scratch.first(half));
  merge_sort(a.subspan(half), scratch.subspan(half));
  std::merge(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(half), a.begin() + static_cast<std::ptrdiff_t>(half),
             a.end(), scratch.begin());
  std::copy(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(a.size()), a.begin());
}

// Least-significant digit first, 16-bit digits: two counting passes.
void radix_sort(std::span<Key> a, std::span<Key> scratch) {
  constexpr int bits = 16;
  constexpr std::size_t buckets = std::size_t{1} << bits;
  static std::vector<std::uint32_t> count(2 * buckets);
  std::fill(count.begin(), count.end(), 0U);
  for (const Key v : a) {
    ++count[v & (buckets - 1)];
    ++count[buckets + (v >> bits)];
  }
  Key* from = a.data();
  Key* to = scratch.data();
  for (int pass = 0; pass < 2; ++pass) {
    std::uint32_t* c = count.data() + static_cast<std::size_t>(pass) * buckets;
    std::uint32_t sum = 0;
    for (std::size_t b = 0; b < buckets; ++b) sum += std::exchange(c[b], sum);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const Key v = from[i];
      to[c[(v >> (pass * bits)) & (buckets - 1)]++] = v;
    }
    std::swap(from, to);
  }  // two passes: the keys are back in `a`
}

/// --planted-costs: a step's cost in key operations when it sorts `total`
/// keys as arrays of n. Insertion sort moves n/4 keys per key on average, merge
/// sort moves each key twice per level (merge, copy back), and radix sort
/// touches each key 4 times plus 4 × 65536 counters per array. The winners are
/// insertion at n = 8, merge at 512 and 8192, radix at 32768.
double planted_cost(std::size_t n, std::size_t total, int algorithm) {
  const double keys = static_cast<double>(total);
  const double arrays = keys / static_cast<double>(n);
  if (algorithm == 0) return keys * static_cast<double>(n) / 4;
  if (algorithm == 1) return 2 * keys * std::log2(static_cast<double>(n));
  return 4 * keys + arrays * 4 * 65536;
}

}  // namespace

int main(int argc, char** argv) {
  const examples::RunOptions run = examples::parse_run_options(argc, argv, 400, /*plants_costs=*/true);

  // Sizes far apart, so that each has a clear winner; every step sorts
  // `total` keys in total (total / n arrays of n keys).
  const std::array<double, 4> sizes{8, 512, 8192, 32768};
  const std::size_t total = 32768;
  const int min_train = static_cast<int>(sizes.size()) * 3;  // each (n, algorithm) pair once

  // explore_after=0: once trained, the region never tries another variant
  // (default: one execution in 100). A second run then only exploits, which
  // is what tests/examples check.
  autosched::Region region("examples/region_algorithm", {.features = {autosched::Feature::log2("n")},
                                                         .variants = {"insertion", "merge", "radix"},
                                                         .model = "dtree,depth=3,explore_after=0",
                                                         .min_train = min_train});
  if (!run.quiet)
    std::printf("region_algorithm: %d steps, each sorting %zu keys as arrays of n in {8, 512, 8192, 32768}\n",
                run.steps, total);

  std::vector<Key> keys(total), scratch(total);
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  examples::RunLog log;
  for (int step = 0; step < run.steps; ++step) {
    const double n = sizes[static_cast<std::size_t>(step) % sizes.size()];
    const auto len = static_cast<std::size_t>(n);
    for (Key& k : keys) {  // xorshift64: fresh keys each step, drawn outside the measurement
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      k = static_cast<Key>(state >> 32);
    }

    bool explored = false;
    int algorithm = 0;
    {
      auto scope = region.begin({n});
      explored = scope.exploring();
      algorithm = scope.variant();
      for (std::size_t offset = 0; offset < total; offset += len) {
        const std::span<Key> a(keys.data() + offset, len);
        const std::span<Key> s(scratch.data() + offset, len);
        if (algorithm == 0) {
          insertion_sort(a);
        } else if (algorithm == 1) {
          merge_sort(a, s);
        } else {
          radix_sort(a, s);
        }
      }
      if (run.planted_costs) scope.end(planted_cost(len, total, algorithm));
    }  // otherwise measured here; the region learns from the time
    log.executed(region, explored);
    if (!run.quiet && (explored || step < static_cast<int>(sizes.size())))
      std::printf("step %d: n=%.0f %s (%s)\n", step, n, region.variants().label(algorithm).c_str(),
                  explored ? "explore" : "exploit");

    for (std::size_t offset = 0; offset < total; offset += len) {
      if (!std::is_sorted(keys.begin() + static_cast<std::ptrdiff_t>(offset),
                          keys.begin() + static_cast<std::ptrdiff_t>(offset + len))) {
        std::fprintf(stderr, "step %d: n=%.0f: the array at %zu is not sorted\n", step, n, offset);
        return 1;
      }
    }
  }
  log.report(region, "n", sizes, min_train);
  return 0;
}
