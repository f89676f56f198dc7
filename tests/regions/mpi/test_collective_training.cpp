// Collective training across 4 MPI ranks (Apollo's own test of it).
// A plain main(): every rank checks what it can see, rank 0 compares what all
// ranks hold, and the process exits nonzero on every rank when any check failed
// anywhere. Run under mpiexec -n 4.
//
// Regions:
//   collective  x ∈ {0..7}, 4 variants, the best variant is x % 4; rank r
//               explores only x ∈ {r, r + 4}, where variant r is best: alone
//               it would predict r everywhere
//   pair        on ranks 0 and 1 only (others must not hang)
//   mismatch    2 variants on ranks 0..2, 3 variants on rank 3: two groups
#include <autosched/core/error.hpp>
#include <autosched/regions/detail/region_state.hpp>
#include <autosched/regions/mpi/collective_training.hpp>
#include <autosched/regions/region.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

using autosched::Region;
using autosched::RegionLearner;
using Samples = RegionLearner::Samples;

int rank = 0;
int ranks = 0;
int failures = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  ++failures;
  std::fprintf(stderr, "rank %d: FAILED: %s\n", rank, what.c_str());
}

/// Every rank's `mine` on rank 0 (empty elsewhere).
std::vector<std::string> gather(const std::string& mine) {
  const int size = static_cast<int>(mine.size());
  std::vector<int> sizes(static_cast<std::size_t>(ranks));
  MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(sizes.size());
  int total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    offsets[r] = total;
    total += sizes[r];
  }
  std::string all(static_cast<std::size_t>(rank == 0 ? total : 0), '\0');
  MPI_Gatherv(mine.data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  if (rank == 0) {
    for (std::size_t r = 0; r < sizes.size(); ++r)
      out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(sizes[r])));
  }
  return out;
}

/// On rank 0: every rank in `who` holds the same `text` as the first of them.
void expect_same(const std::string& what, const std::string& text, const std::vector<int>& who) {
  const std::vector<std::string> all = gather(text);
  if (rank != 0) return;
  const std::string& first = all[static_cast<std::size_t>(who.front())];
  expect(!first.empty(), what + " is empty on rank " + std::to_string(who.front()));
  for (const int r : who) {
    expect(all[static_cast<std::size_t>(r)] == first, what + " differs between rank " + std::to_string(who.front()) +
                                                          " and rank " + std::to_string(r) + ":\n" + first +
                                                          "--- vs\n" + all[static_cast<std::size_t>(r)]);
  }
}

/// The model's nodes, bit exact (hex floats).
std::string model_text(const Region& region) {
  std::lock_guard lock(region.state().mutex);
  std::string out;
  char line[96];
  for (const auto nodes : region.state().learner.trees()) {
    out += "tree " + std::to_string(nodes.size()) + "\n";
    for (const autosched::TreeNode& n : nodes) {
      std::snprintf(line, sizeof line, "%a %d %d\n", n.threshold, static_cast<int>(n.feature),
                    static_cast<int>(n.child));
      out += line;
    }
  }
  return out;
}

/// A samples text with its rows sorted: samples_text lists rows in the order
/// each rank first saw the vectors, which differs between ranks.
std::string canonical(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  if (lines.size() > 1) std::sort(lines.begin() + 1, lines.end());
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

std::string samples(const Region& region, Samples which) {
  std::lock_guard lock(region.state().mutex);
  return region.state().learner.samples_text(which);
}

/// "samples F V rows" → rows.
int rows(const std::string& text) {
  int f = 0, v = 0, n = -1;
  std::sscanf(text.c_str(), "samples %d %d %d", &f, &v, &n);
  return n;
}

/// The count of (x, v) in the merged table.
long long count(const Region& region, double x, int v) {
  std::lock_guard lock(region.state().mutex);
  const RegionLearner& l = region.state().learner;
  const int entry = l.find(std::span<const double>(&x, 1));
  return entry < 0 ? 0 : static_cast<long long>(l.stats(entry, v).count());
}

/// Runs every variant of `x` once (the learner explores per vector, round
/// robin), each with its planted cost: `best` costs 1, the others 11.
void explore(Region& region, int x, int best) {
  std::set<int> seen;
  for (int i = 0; i < region.variants().size(); ++i) {
    auto scope = region.begin({static_cast<double>(x)});
    const int v = scope.variant();
    expect(scope.exploring(),
           region.id() + ": execution " + std::to_string(i) + " of x=" + std::to_string(x) + " does not explore");
    seen.insert(v);
    scope.end(1.0 + (v == best ? 0 : 10));
  }
  expect(static_cast<int>(seen.size()) == region.variants().size(),
         region.id() + ": x=" + std::to_string(x) + " did not try every variant");
}

autosched::RegionOptions options(std::vector<std::string> variants, const char* model) {
  autosched::RegionOptions o;
  o.features = {"x"};
  o.variants = std::move(variants);
  o.model = model;
  o.min_train = 0;  // only the collective call trains
  o.persist = false;
  return o;
}

int run() {
  std::vector<std::string> warnings;
  std::mutex warnings_mutex;
  autosched::detail::set_warning_sink([&](std::string_view w) {
    std::lock_guard lock(warnings_mutex);
    warnings.emplace_back(w);
  });
  struct RestoreSink {
    ~RestoreSink() { autosched::detail::set_warning_sink({}); }
  } restore_sink;  // before `warnings` goes, even on an exception

  const std::vector<int> everyone = {0, 1, 2, 3};
  // Depth 7, not 3: on this periodic pattern, splitting one end vector off
  // leaves a weighted Gini of 0.643 and halving 0.75 (no gain at all), so a
  // greedy CART peels one vector per level; 8 vectors need 7 levels.
  Region collective("collective", options({"v0", "v1", "v2", "v3"}, "dtree,depth=7,explore_after=0"));
  std::optional<Region> pair;
  if (rank <= 1) pair.emplace("pair", options({"a", "b"}, "dtree,depth=2,explore_after=0"));
  Region mismatch("mismatch", rank < 3 ? options({"p", "q"}, "dtree,explore_after=0")
                                       : options({"p", "q", "r"}, "dtree,explore_after=0"));

  // Round 1: disjoint exploration.
  for (int x = rank; x < 8; x += 4) explore(collective, x, x % 4);
  if (pair) explore(*pair, rank, rank);
  explore(mismatch, rank, 0);
  expect(!collective.stats().trained, "collective trained before the collective call (min_train 0)");

  const int trained = autosched::mpi::train_regions_collectively(MPI_COMM_WORLD);
  expect(trained == (rank <= 1 ? 3 : 2), "train_regions_collectively returned " + std::to_string(trained));

  expect(collective.stats().trained, "collective is not trained");
  int correct = 0;
  for (int x = 0; x < 8; ++x) {
    const double f = x;
    const int p = collective.predict(std::span<const double>(&f, 1));
    expect(p == x % 4, "collective predicts " + std::to_string(p) + " for x=" + std::to_string(x) + ", expected " +
                           std::to_string(x % 4));
    correct += p == x % 4 ? 1 : 0;
  }
  const std::string all1 = samples(collective, Samples::all);
  expect(rows(all1) == 8, "collective has " + std::to_string(rows(all1)) + " vectors after merging, expected 8");
  expect(rows(samples(collective, Samples::own)) == 0, "collective still has own samples after merging");
  expect_same("collective model (round 1)", model_text(collective), everyone);
  expect_same("collective samples (round 1)", canonical(all1), everyone);

  if (pair) {
    expect(pair->stats().trained, "pair is not trained");
    for (int x = 0; x < 2; ++x) {
      const double f = x;
      expect(pair->predict(std::span<const double>(&f, 1)) == x, "pair mispredicts x=" + std::to_string(x));
    }
  }
  expect_same("pair model", pair ? model_text(*pair) : std::string(), {0, 1});
  expect_same("pair samples", pair ? canonical(samples(*pair, Samples::all)) : std::string(), {0, 1});

  // mismatch: ranks 0..2 merge among themselves, rank 3 alone; both groups warned.
  const std::string mismatch_all = samples(mismatch, Samples::all);
  expect(rows(mismatch_all) == (rank < 3 ? 3 : 1), "mismatch has " + std::to_string(rows(mismatch_all)) + " vectors");
  expect(mismatch.stats().trained, "mismatch is not trained");
  expect_same("mismatch samples", canonical(mismatch_all), {0, 1, 2});
  {
    std::lock_guard lock(warnings_mutex);
    const std::string others = rank < 3 ? "on rank 3 than here" : "on ranks 0, 1, 2 than here";
    const bool warned = std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) {
      return w.find("region 'mismatch'") != std::string::npos && w.find(others) != std::string::npos;
    });
    expect(warned, "no warning names the ranks that declare 'mismatch' otherwise");
    const bool other = std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
      return w.find("'collective'") != std::string::npos || w.find("'pair'") != std::string::npos;
    });
    expect(!other, "a region declared alike everywhere was warned about");
  }

  // Round 2: other vectors, metrics that differ between ranks and executions
  // (so the Welford merge order shows in the bits), the ranks in reverse.
  // The model exploits now (explore_after=0): each execution runs x % 4.
  for (int x = 3 - rank; x < 8; x += 4) {
    for (int k = 0; k < 2; ++k) {
      auto scope = collective.begin({static_cast<double>(x)});
      const int v = scope.variant();
      expect(!scope.exploring() && v == x % 4,
             "round 2 runs variant " + std::to_string(v) + " on x=" + std::to_string(x));
      scope.end(1.0 + 0.01 * (rank + 1) + 0.001 * k);
    }
  }
  autosched::mpi::train_regions_collectively(MPI_COMM_WORLD);
  const std::string all2 = samples(collective, Samples::all);
  expect(all2 != all1, "round 2 changed nothing");
  for (int x = 0; x < 8; ++x) {
    for (int v = 0; v < 4; ++v) {
      const long long n = count(collective, x, v);
      const long long want = v == x % 4 ? 3 : 1;
      expect(n == want, "round 2: (x=" + std::to_string(x) + ", v=" + std::to_string(v) + ") has " + std::to_string(n) +
                            " samples, expected " + std::to_string(want));
    }
  }
  expect_same("collective model (round 2)", model_text(collective), everyone);
  expect_same("collective samples (round 2)", canonical(all2), everyone);

  std::printf(
      "rank %d: %s: trained %d regions; collective predicts %d/8 vectors right (explored 2 here); %zu warnings\n", rank,
      failures == 0 ? "ok" : "FAILED", trained, correct, warnings.size());
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int local = 0;
  if (ranks != 4) {
    if (rank == 0) std::fprintf(stderr, "test_regions_mpi: run it on 4 ranks (mpiexec -n 4), not %d\n", ranks);
    local = 1;
  } else {
    try {
      local = run();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rank %d: FAILED: exception: %s\n", rank, e.what());
      local = 1;
    }
  }
  int total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("regions.mpi_collective: %s (%d failed checks over %d ranks)\n", total ? "FAILED" : "passed", total,
                ranks);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
