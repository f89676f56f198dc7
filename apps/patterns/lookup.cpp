// autosched-pattern-lookup: event-based Monte Carlo cross-section lookups,
// as a plain OpenMP program (schedule(runtime) loops, no autosched header or
// library).
//
// What it models: the kernel that dominates neutron-transport Monte Carlo
// codes. Every event has an energy and a material; its macroscopic cross
// sections are the sum, over the material's nuclides, of each nuclide's
// microscopic cross sections interpolated from that nuclide's energy grid
// (found by binary search) times the nuclide's concentration. The table is
// large (68 nuclides x 20000 grid points x 6 values, 65 MB) and the
// searches jump around it, so the loop is latency-bound; a fuel event
// visits 34 nuclides and a moderator event 4, so iterations cost from 1 to
// 9 units, at random. The lookup loop runs ONCE per process, as a one-shot
// batch: a schedule has one instance to get right. Two one-shot parallel
// loops build the table and sample the events beforehand.
//
// Defaults: --size 20000 grid points per nuclide and --lookups 100000:
// 1 s of CPU time on one thread of the 2-core AMD EPYC VM this was written
// on, so about 0.5 s at 2 threads.
//
// Check: every event's result depends only on the event, so the program
// recomputes every 97th lookup serially and wants it equal (to 1e-12,
// relative), wants every event's result written, and compares the loop's
// own reduction (the sum over events of the index of their largest cross
// section, an integer) with the same sum over the stored results.
//
// Output: `pattern lookup loop_ms <ms inside the three timed loops> wall_ms
// <ms of the compute phase: allocation, the two init loops and the lookups>
// check ok`.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "pattern_common.hpp"

namespace {

using pattern::mix;
using pattern::Timed;

struct Options {
  int size = 20000;
  int lookups = 100000;
};

Options parse(int argc, char** argv) {
  Options o;
  const auto option = [&](const std::string& a, auto number) {
    if (a == "--size")
      o.size = number(16, 10000000);
    else if (a == "--lookups" || a == "--steps")
      o.lookups = number(1, 1000000000);
    else
      return false;
    return true;
  };
  pattern::parse_arguments(argc, argv, "[--size G] [--lookups L]",
                           "  --size G      energy grid points per nuclide (default 20000: a 65 MB table)\n"
                           "  --lookups L   events (default 100000)\n",
                           option);
  return o;
}

double unit(std::uint64_t stream, std::uint64_t i) {
  return (static_cast<double>(mix(mix(stream) ^ i) >> 11) + 0.5) * 0x1.0p-53;
}

constexpr int kNuclides = 68;
constexpr int kMaterials = 12;
constexpr int kChannels = 5;  // total, elastic, absorption, fission, nu-fission
// Nuclides per material (fuel first, then cladding, coolant, ...) and how often an event is in each.
constexpr int kMaterialNuclides[kMaterials] = {34, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9};
constexpr double kMaterialShare[kMaterials] = {0.140, 0.052, 0.275, 0.134, 0.154, 0.064,
                                               0.066, 0.055, 0.008, 0.015, 0.025, 0.013};

struct GridPoint {
  double energy;
  double xs[kChannels];
};

struct Material {
  std::vector<int> nuclide;
  std::vector<double> concentration;
};

struct Result {
  double xs[kChannels];
};

// One event's macroscopic cross sections.
Result lookup(double energy, const Material& material, const GridPoint* grid, int points) {
  Result r{};
  for (std::size_t k = 0; k < material.nuclide.size(); ++k) {
    const GridPoint* g = grid + static_cast<std::size_t>(material.nuclide[k]) * points;
    int lo = 0, hi = points - 1;  // the last point below the energy, by bisection
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (g[mid].energy > energy)
        hi = mid;
      else
        lo = mid;
    }
    const GridPoint& a = g[lo];
    const GridPoint& b = g[hi];
    const double f = (b.energy - energy) / (b.energy - a.energy);
    for (int c = 0; c < kChannels; ++c) r.xs[c] += material.concentration[k] * (b.xs[c] - f * (b.xs[c] - a.xs[c]));
  }
  return r;
}

int largest(const Result& r) { return static_cast<int>(std::max_element(r.xs, r.xs + kChannels) - r.xs); }

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const int G = o.size, L = o.lookups;
  const double wall_start = omp_get_wtime();
  double loop_s = 0.0;

  // Materials: which nuclides, how dense. Fuel holds nuclides 0-33; the others draw theirs.
  std::vector<Material> materials(kMaterials);
  for (int m = 0; m < kMaterials; ++m) {
    for (int k = 0; k < kMaterialNuclides[m]; ++k) {
      materials[m].nuclide.push_back(m == 0 ? k : static_cast<int>(mix(1000 * m + k) % kNuclides));
      materials[m].concentration.push_back(0.1 + unit(7, 1000 * m + k));
    }
  }
  double cumulative_share[kMaterials];
  double share_sum = 0.0;
  for (int m = 0; m < kMaterials; ++m) cumulative_share[m] = (share_sum += kMaterialShare[m]);

  // 48 bytes a point; not zeroed (new[] of a trivial type): the init loop touches it first.
  const std::unique_ptr<GridPoint[]> table(new GridPoint[static_cast<std::size_t>(kNuclides) * G]);
  GridPoint* grid = table.get();
  {
    Timed t(loop_s);  // init 1: each nuclide's grid, rising energies in (0, 1) and smooth-ish cross sections
#pragma omp parallel for schedule(runtime)
    for (int n = 0; n < kNuclides; ++n) {
      GridPoint* g = grid + static_cast<std::size_t>(n) * G;
      double e = 0.0;
      for (int p = 0; p < G; ++p) {
        e += 0.5 + unit(100 + n, p);  // increments, normalised below
        g[p].energy = e;
        for (int c = 0; c < kChannels; ++c)
          g[p].xs[c] = (1.0 + c) * (1.0 + 0.5 * std::sin(0.001 * p + n + c)) + unit(200 + n, 8 * p + c);
      }
      const double scale = 1.0 / (e + 0.5);  // the last point stays below 1
      for (int p = 0; p < G; ++p) g[p].energy *= scale;
      g[0].energy = 0.0;  // every energy in [0, 1) has a point at or below it
    }
  }

  std::vector<double> energy(L);
  std::vector<int> material(L);
  double* E = energy.data();
  int* M = material.data();
  {
    Timed t(loop_s);  // init 2: sample the events
#pragma omp parallel for schedule(runtime)
    for (int i = 0; i < L; ++i) {
      E[i] = unit(11, i) * (1.0 - 1e-9);
      const double u = unit(12, i) * share_sum;
      int m = 0;
      while (m < kMaterials - 1 && cumulative_share[m] < u) ++m;
      M[i] = m;
    }
  }

  std::vector<Result> results(L);
  for (Result& r : results) r.xs[0] = std::numeric_limits<double>::quiet_NaN();  // "not written"
  Result* out = results.data();
  const Material* mats = materials.data();
  long long verification = 0;
  {
    Timed t(loop_s);  // the lookups: once per process
#pragma omp parallel for schedule(runtime) reduction(+ : verification)
    for (int i = 0; i < L; ++i) {
      const Result r = lookup(E[i], mats[M[i]], grid, G);
      out[i] = r;
      verification += largest(r) + 1;
    }
  }
  const double wall_ms = 1e3 * (omp_get_wtime() - wall_start);

  const char* failure = nullptr;
  long long expected = 0;
  for (int i = 0; i < L && failure == nullptr; ++i) {
    if (!std::isfinite(out[i].xs[0]))
      failure = "an event's result was never written";
    else
      expected += largest(out[i]) + 1;
  }
  if (failure == nullptr && expected != verification)
    failure = "the loop's reduction disagrees with its stored results";
  for (int i = 0; i < L && failure == nullptr; i += 97) {
    const Result r = lookup(E[i], materials[M[i]], grid, G);
    for (int c = 0; c < kChannels; ++c) {
      if (!(std::fabs(r.xs[c] - out[i].xs[c]) <= 1e-12 * std::fabs(r.xs[c])))
        failure = "a lookup differs from its serial recomputation";
    }
  }
  if (failure != nullptr) pattern::check_failed("lookup", "%s", failure);
  return pattern::report("lookup", 1e3 * loop_s, wall_ms, failure == nullptr);
}
