// Static loops as clang compiles them, under the drop-in with
// AUTOSCHED_OMP_LOOPS=static (and natively, where every check must hold as
// well). Each shape repeats its parallel region, so that after the first
// instances the drop-in hands out learned, uneven blocks (the loops' cost
// rises with the index), and checks per instance:
//   chained   two `for nowait` loops with the same trip count in one region
//             see the same iteration-to-thread mapping (OpenMP's guarantee)
//   lastprivate  the value of the last iteration comes out
//   collapse  collapse(2): every (i, j) once
//   small     0, 1 and fewer iterations than threads
//   nested    static loops in inner regions of an active nested parallelism
//   kinds     schedule(static, 4), ordered and sections: left to the runtime
//             (the report counts them) and still correct
// Usage: static_shapes [uneven]: with "uneven", also fails unless the
// chained loops' blocks became uneven. Prints "static_shapes ok".
#include <omp.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr int threads = 2;
int failures = 0;

/// Work the compiler cannot drop: a negative sum (never) aborts.
void spin(long amount) {
  double s = 0;
  for (long k = 0; k < amount; ++k) s += static_cast<double>(k);
  if (s < 0) std::abort();
}

void fail(const char* what, int rep) {
  std::fprintf(stderr, "%s (region instance %d) failed\n", what, rep);
  ++failures;
}

bool chained(bool want_uneven) {
  constexpr int n = 2000;
  std::vector<int> first(n), second(n);
  bool uneven = false;
  for (int rep = 0; rep < 20; ++rep) {
#pragma omp parallel num_threads(threads)
    {
#pragma omp for nowait
      for (int i = 0; i < n; ++i) {
        first[i] = omp_get_thread_num();
        spin(i * 4L);
      }
#pragma omp for nowait
      for (int i = 0; i < n; ++i) second[i] = omp_get_thread_num();
    }
    if (first != second) fail("chained nowait loops: the same trip count mapped to different threads", rep);
    int zero = 0;
    for (int i = 0; i < n; ++i) zero += first[i] == 0;
    if (zero > n * 55 / 100) uneven = true;
  }
  if (want_uneven && !uneven) fail("chained: the blocks never became uneven (nothing learned)", 20);
  return uneven;
}

void lastprivate_shape() {
  constexpr long n = 3001;
  for (int rep = 0; rep < 12; ++rep) {
    long last = -1;
#pragma omp parallel for lastprivate(last) num_threads(threads)
    for (long i = 0; i < n; ++i) {
      last = i * 7;
      spin(i * 4);
    }
    if (last != (n - 1) * 7) fail("lastprivate: not the last iteration's value", rep);
  }
}

void collapse_shape() {
  constexpr int rows = 60, cols = 37;
  for (int rep = 0; rep < 12; ++rep) {
    std::vector<std::atomic<int>> hits(rows * cols);
#pragma omp parallel for collapse(2) num_threads(threads)
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) {
        hits[i * cols + j].fetch_add(1, std::memory_order_relaxed);
        spin(i * 100L);
      }
    }
    for (auto& h : hits) {
      if (h.load() != 1) {
        fail("collapse(2): an (i, j) did not run exactly once", rep);
        break;
      }
    }
  }
}

void small_shapes() {
  for (int n : {0, 1, 2, 3}) {
    for (int rep = 0; rep < 6; ++rep) {
      std::vector<std::atomic<int>> hits(4);
      int last = -1;
#pragma omp parallel for lastprivate(last) num_threads(4)
      for (int i = 0; i < n; ++i) {
        hits[i].fetch_add(1, std::memory_order_relaxed);
        last = i;
      }
      for (int i = 0; i < 4; ++i) {
        if (hits[i].load() != (i < n ? 1 : 0)) fail("small loop: coverage", rep);
      }
      if (n > 0 && last != n - 1) fail("small loop: lastprivate", rep);
    }
  }
}

void nested_shape() {
  omp_set_max_active_levels(2);
  constexpr int n = 500;
  for (int rep = 0; rep < 8; ++rep) {
    std::vector<std::atomic<int>> hits(2 * n);
#pragma omp parallel num_threads(2)
    {
      const int outer = omp_get_thread_num();
#pragma omp parallel for num_threads(2)
      for (int i = 0; i < n; ++i) {
        hits[outer * n + i].fetch_add(1, std::memory_order_relaxed);
        spin(i * 8L);
      }
    }
    for (auto& h : hits) {
      if (h.load() != 1) {
        fail("nested regions: an iteration did not run exactly once", rep);
        break;
      }
    }
  }
  omp_set_max_active_levels(1);
}

void other_kinds() {
  constexpr int n = 100;
  std::vector<std::atomic<int>> hits(n);
  std::vector<int> order;
  int sections = 0;
#pragma omp parallel num_threads(threads)
  {
#pragma omp for schedule(static, 4)
    for (int i = 0; i < n; ++i) hits[i].fetch_add(1, std::memory_order_relaxed);
#pragma omp for schedule(static) ordered
    for (int i = 0; i < n; ++i) {
#pragma omp ordered
      order.push_back(i);
    }
#pragma omp sections reduction(+ : sections)
    {
#pragma omp section
      sections += 1;
#pragma omp section
      sections += 2;
    }
  }
  for (auto& h : hits) {
    if (h.load() != 1) {
      fail("schedule(static, 4): coverage", 0);
      break;
    }
  }
  for (int i = 0; i < n; ++i) {
    if (order.size() != static_cast<std::size_t>(n) || order[i] != i) {
      fail("ordered static loop: order", 0);
      break;
    }
  }
  if (sections != 3) fail("sections", 0);
}

}  // namespace

int main(int argc, char** argv) {
  const bool want_uneven = argc > 1 && std::strcmp(argv[1], "uneven") == 0;
  chained(want_uneven);
  lastprivate_shape();
  collapse_shape();
  small_shapes();
  nested_shape();
  other_kinds();
  if (failures > 0) return 1;
  std::printf("static_shapes ok\n");
  return 0;
}
