// autosched-stream-triad: STREAM's triad, a[i] = b[i] + s * c[i], once per
// time step. Memory-bound and perfectly regular: the case where dynamic
// techniques can only lose to static.
// Verified: every element of a equals b + s * c after the last step.
#include "../common/app.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <memory>
#include <new>

namespace {

// The arrays are 2 MiB-aligned and asked for transparent huge pages (THP is
// `madvise` on the VMs we run on, so std::vector got 4 KiB pages). This loop
// is memory-bound and its step time depends on where the three arrays lie
// relative to each other: std::vector's three 128 MiB blocks sit 128 MiB + 4 KiB
// apart at the same 4 KiB offset, and on the 2-vCPU AMD EPYC KVM guest of
// docs/results/stream-triad-bimodal.md that layout cost ~20% against 2 MiB-
// aligned arrays (other spacings cost up to 50%), a penalty that has nothing to
// do with the schedule. Aligned huge-page arrays give every process the same
// virtual and (within each 2 MiB page) physical layout and a few hundred TLB
// entries per array instead of 32768, so the loop measures the schedule.
struct FreeDeleter {
  void operator()(double* p) const noexcept { std::free(p); }
};
using Array = std::unique_ptr<double[], FreeDeleter>;

Array huge_array(std::int64_t n) {
  constexpr std::size_t huge_page = std::size_t{2} << 20;
  const std::size_t bytes = (static_cast<std::size_t>(n) * sizeof(double) + huge_page - 1) / huge_page * huge_page;
  void* p = std::aligned_alloc(huge_page, bytes > 0 ? bytes : huge_page);
  if (p == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  (void)madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without THP the loop still runs, on small pages
#endif
  return Array(static_cast<double*>(p));
}

/// The triad once more as a campaign's level reference (it may run twice:
/// App::reference). Out of line on purpose: with the reference's parallel
/// region compiled into main, GCC 12 made the measured loop about 30% slower
/// at n = 2·10⁶ (0.50 against 0.38 ms a step), with or without the option.
[[gnu::noinline]] void reference_triad(autosched::apps::App& app, std::int64_t n, double* pa, const double* pb,
                                       const double* pc, double s) {
  app.reference("stream-triad/triad", n, [pa, pb, pc, s](std::int64_t i) { pa[i] = pb[i] + s * pc[i]; });
}

}  // namespace

int main(int argc, char** argv) {
  autosched::apps::App app("stream-triad", "STREAM triad, memory-bound and regular", argc, argv,
                           {{"n", 1 << 24, "elements per array (three arrays of doubles)"}}, 200);
  const std::int64_t n = app.size("n");
  const Array a = huge_array(n), b = huge_array(n), c = huge_array(n);
  for (std::int64_t i = 0; i < n; ++i) {
    a[i] = 0.0;
    b[i] = 1.0 + static_cast<double>(i % 7);
    c[i] = 2.0 + 0.5 * static_cast<double>(i % 5);
  }
  double* pa = a.get();
  const double* pb = b.get();
  const double* pc = c.get();
  double s = 3.0;
  for (int step = 0; step < app.steps(); ++step) {
    s = 3.0 + static_cast<double>(step % 4);  // a fresh value every step, so no step repeats the last
    app.loop("stream-triad/triad", n, [pa, pb, pc, s](std::int64_t i) { pa[i] = pb[i] + s * pc[i]; });
    reference_triad(app, n, pa, pb, pc, s);
    app.end_step();
  }
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < n; ++i) wrong += a[i] != b[i] + s * c[i];
  return app.finish(wrong == 0, wrong == 0 ? "a = b + s*c everywhere" : std::to_string(wrong) + " elements wrong");
}
