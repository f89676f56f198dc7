// A tunable region whose variant is a tile size: each time step transposes
// n × n matrices tile by tile, and the region learns the tile size per n.
// Small tiles waste loop overhead; large ones stop fitting a tile of the
// source and of the destination in cache (and in the TLB) at once, so the
// best size depends on the machine and on n.
//
// Tiles are the powers of two 8 … 128 (Knob::integers): five variants keep
// exploration short; Knob::range("tile", 8, 128, 8) would try sixteen.
//   region_tile [--steps N] [--quiet] [--planted-costs]
#include "run_report.hpp"

#include <autosched/regions/region.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

namespace {

/// b = aᵀ for n × n row-major matrices, in tile × tile blocks.
void transpose(const double* a, double* b, int n, int tile) {
  for (int ii = 0; ii < n; ii += tile) {
    for (int jj = 0; jj < n; jj += tile) {
      const int i_end = std::min(ii + tile, n);
      const int j_end = std::min(jj + tile, n);
      for (int i = ii; i < i_end; ++i)
        for (int j = jj; j < j_end; ++j)
          b[static_cast<std::size_t>(j) * n + i] = a[static_cast<std::size_t>(i) * n + j];
    }
  }
}

/// --planted-costs: a step's cost per element moved is 1, plus 16 / tile of
/// loop overhead, plus 2 when a source and a destination tile (2 × t² doubles,
/// t = min(tile, n)) overflow a 32 KiB cache. Tile 32 wins for every n.
double planted_cost(double elements, int n, int tile) {
  const double t = std::min(tile, n);
  return elements * (1 + 16 / t + (2 * t * t * 8 > 32768 ? 2 : 0));
}

}  // namespace

int main(int argc, char** argv) {
  const examples::RunOptions run = examples::parse_run_options(argc, argv, 120, /*plants_costs=*/true);

  const std::array<double, 3> sizes{64, 256, 1024};  // 32 KiB, 512 KiB, 8 MiB a matrix
  const std::vector<std::int64_t> tiles{8, 16, 32, 64, 128};
  const int min_train = static_cast<int>(sizes.size() * tiles.size());

  // explore_after=0: once trained, never try another tile (default: one
  // execution in 100), so that a second run only exploits.
  autosched::Region region("examples/region_tile", {.features = {autosched::Feature::log2("n")},
                                                    .knobs = {autosched::Knob::integers("tile", tiles)},
                                                    .model = "dtree,depth=3,explore_after=0",
                                                    .min_train = min_train});
  if (!run.quiet)
    std::printf("region_tile: %d steps, transposing n x n doubles for n in {64, 256, 1024}, tiles {8 ... 128}\n",
                run.steps);

  // Each step moves 2^20 elements: (1024 / n)^2 matrices of n × n.
  const auto largest = static_cast<std::size_t>(sizes.back());
  std::vector<double> a(largest * largest), b(largest * largest, 0.0);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>(i);

  examples::RunLog log;
  for (int step = 0; step < run.steps; ++step) {
    const double size = sizes[static_cast<std::size_t>(step) % sizes.size()];
    const int n = static_cast<int>(size);
    const int matrices = std::max(1, (1024 / n) * (1024 / n));
    const std::size_t elements = static_cast<std::size_t>(n) * n;
    bool explored = false;
    int tile = 0;
    {
      auto scope = region.begin({size});
      explored = scope.exploring();
      tile = scope.value<int>("tile");
      for (int m = 0; m < matrices; ++m) {
        const std::size_t offset = (static_cast<std::size_t>(m) * elements) % (a.size() - elements + 1);
        transpose(a.data() + offset, b.data() + offset, n, tile);
      }
      if (run.planted_costs)
        scope.end(planted_cost(static_cast<double>(matrices) * static_cast<double>(elements), n, tile));
    }
    log.executed(region, explored);
    if (!run.quiet && (explored || step < static_cast<int>(sizes.size())))
      std::printf("step %d: n=%d tile=%d (%s)\n", step, n, tile, explored ? "explore" : "exploit");

    const std::size_t offset = (static_cast<std::size_t>(matrices - 1) * elements) % (a.size() - elements + 1);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        if (b[offset + static_cast<std::size_t>(j) * n + i] != a[offset + static_cast<std::size_t>(i) * n + j]) {
          std::fprintf(stderr, "step %d: n=%d tile=%d: element (%d, %d) not transposed\n", step, n, tile, i, j);
          return 1;
        }
      }
    }
  }
  log.report(region, "n", sizes, min_train);
  return 0;
}
