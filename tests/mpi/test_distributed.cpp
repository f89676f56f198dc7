// Distributed data with work stealing, under mpiexec with any number of
// ranks: every index exactly once with the data really migrating (each rank
// holds only its own slice; a thief computes on what it received and the
// results travel home), stealing happens under a planted imbalance, N edge
// cases terminate, user blocks (empty ones included), a throwing body
// aborts the loop on every rank, and the steal-ratio selector finds a
// planted optimum. A plain main(): exits nonzero on every rank when any
// check failed anywhere.
//
//   mpiexec -n 4 test_distributed [--quick]
#include <autosched/core/error.hpp>
#include <autosched/mpi/mpi.hpp>

#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace mpi = autosched::mpi;
using autosched::IndexRange;

int rank = 0;
int ranks = 1;
int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "rank %d: FAILED: %s\n", rank, what.c_str());
  }
}

double input_of(std::int64_t i) { return 0.5 * static_cast<double>(i) + 1.0; }
double result_of(double x) { return 2.0 * x + 1.0; }

/// Spins `work` steps (the planted cost); the result is used so it is not optimised away.
double spin(int work) {
  double s = 0;
  for (int k = 0; k < work; ++k) s += std::sqrt(static_cast<double>(k) + 1.0);
  return s;
}

struct Case {
  std::string schedule = "fac2";
  mpi::StealRatio ratio = mpi::StealRatio::half;
  std::int64_t begin = 0, n = 0;
  std::vector<std::int64_t> blocks;  ///< empty: balanced
  bool spinning = false;             ///< every iteration spins; rank 0's block 10× longer
  std::string name = "distributed";
};

Case make(std::string schedule, mpi::StealRatio ratio, std::int64_t begin, std::int64_t n) {
  Case c;
  c.schedule = std::move(schedule);
  c.ratio = ratio;
  c.begin = begin;
  c.n = n;
  return c;
}

/// Runs one case with real data movement and checks coverage, values and results.
mpi::DistributedResult check_case(const Case& c) {
  const std::int64_t n = c.n;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> x(static_cast<std::size_t>(n), nan), y(static_cast<std::size_t>(n), nan);
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(n), 0);
  bool outside = false, missing_input = false;
  const std::string what = c.schedule + " ratio " + std::string(mpi::steal_ratio_name(c.ratio)) + " N=" +
                           std::to_string(n) + (c.blocks.empty() ? "" : " (user blocks)") +
                           (c.spinning ? " (spinning)" : "");

  // The owner's slice only; everything else must arrive by stealing.
  IndexRange mine{c.begin + n * rank / ranks, c.begin + n * (rank + 1) / ranks};
  if (!c.blocks.empty()) mine = {c.blocks[static_cast<std::size_t>(rank)], c.blocks[static_cast<std::size_t>(rank) + 1]};
  for (std::int64_t i = mine.begin; i < mine.end; ++i) x[static_cast<std::size_t>(i - c.begin)] = input_of(i);
  const std::int64_t rank0_end = c.blocks.empty() ? c.begin + n / ranks : c.blocks[1];

  auto slice = [&](std::vector<double>& v, IndexRange r) {
    std::vector<std::byte> b(static_cast<std::size_t>(r.size()) * sizeof(double));
    std::memcpy(b.data(), v.data() + (r.begin - c.begin), b.size());
    return b;
  };
  auto store = [&](std::vector<double>& v, IndexRange r, std::span<const std::byte> b) {
    if (b.size() != static_cast<std::size_t>(r.size()) * sizeof(double)) {
      missing_input = true;
      return;
    }
    std::memcpy(v.data() + (r.begin - c.begin), b.data(), b.size());
  };
  mpi::DistributedOptions o;
  o.name = c.name;
  o.schedule = c.schedule;
  o.steal_ratio = c.ratio;
  o.blocks = c.blocks;
  o.data.pack = [&](IndexRange r) { return slice(x, r); };
  o.data.unpack = [&](IndexRange r, std::span<const std::byte> b) { store(x, r, b); };
  o.data.pack_results = [&](IndexRange r) { return slice(y, r); };
  o.data.unpack_results = [&](IndexRange r, std::span<const std::byte> b) { store(y, r, b); };
  double sink = 0;
  mpi::DistributedResult r;
  try {
    r = mpi::distributed_for(
        MPI_COMM_WORLD, c.begin, c.begin + n,
        [&](std::int64_t i) {
          if (i < c.begin || i >= c.begin + n) {
            outside = true;
            return;
          }
          const auto k = static_cast<std::size_t>(i - c.begin);
          ++seen[k];
          if (std::isnan(x[k])) missing_input = true;
          if (c.spinning) sink += spin(i < rank0_end ? 400000 : 40000);
          y[k] = result_of(x[k]);
        },
        o);
    expect(r.iterations == n, what + ": " + std::to_string(r.iterations) + " iterations reported");
    expect(r.steal_ratio != mpi::StealRatio::automatic, what + ": ratio not reported");
  } catch (const std::exception& e) {
    expect(false, what + ": threw " + e.what());
    return r;
  }
  expect(sink >= 0, "sink");
  expect(!outside, what + ": an index outside the range ran");
  expect(!missing_input, what + ": a body ran without its input data");
  std::int64_t wrong_results = 0;
  for (std::int64_t i = mine.begin; i < mine.end; ++i) {
    wrong_results += y[static_cast<std::size_t>(i - c.begin)] != result_of(input_of(i));
  }
  expect(wrong_results == 0, what + ": " + std::to_string(wrong_results) + " results of this rank's block wrong or not returned");
  std::vector<std::uint8_t> total(seen.size(), 0);
  MPI_Reduce(seen.data(), total.data(), static_cast<int>(seen.size()), MPI_UINT8_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::int64_t wrong = 0;
    for (std::uint8_t k : total) wrong += k != 1;
    expect(wrong == 0, what + ": " + std::to_string(wrong) + " indices did not run exactly once");
  }
  return r;
}

void check_sizes(bool quick) {
  std::vector<std::int64_t> sizes = {0, 1, ranks - 1, 1000003};
  if (quick) sizes.back() = 10007;
  for (const std::int64_t n : sizes) {
    for (auto ratio : {mpi::StealRatio::quarter, mpi::StealRatio::half, mpi::StealRatio::three_quarters}) {
      for (const char* s : {"fac2", "static", "gss", "awf-b"}) check_case(make(s, ratio, -7, n));
    }
    if (n < 100000) check_case(make("ss", mpi::StealRatio::half, 3, n));
  }
}

/// Rank 0's block is 10× as expensive: the others run dry and steal.
void check_stealing_happens() {
  if (ranks == 1) return;
  // Rank 0's block: 500 iterations of ~0.1-0.4 ms, long against the time
  // slices of an oversubscribed machine, so the others are surely idle before it ends.
  Case c = make("fac2", mpi::StealRatio::half, 0, std::int64_t{500} * ranks);
  c.spinning = true;
  const mpi::DistributedResult r = check_case(c);
  expect(r.steals > 0 && r.stolen_iterations > 0,
         "imbalanced body: " + std::to_string(r.steals) + " steals, " + std::to_string(r.stolen_iterations) + " iterations moved");
  if (rank == 0) std::printf("imbalanced: %lld steals moved %lld of %lld iterations\n", static_cast<long long>(r.steals),
                             static_cast<long long>(r.stolen_iterations), static_cast<long long>(c.n));
}

/// User blocks: everything on the last rank (the others own empty blocks and
/// live on stolen work), and an uneven split.
void check_user_blocks() {
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{50000}}) {
    Case c = make("gss", mpi::StealRatio::half, 100, n);
    c.blocks.assign(static_cast<std::size_t>(ranks) + 1, c.begin);
    c.blocks.back() = c.begin + n;
    check_case(c);
    Case u = make("fac2", mpi::StealRatio::quarter, 0, n);
    for (int k = 0; k <= ranks; ++k) u.blocks.push_back(n * k * k / (ranks * ranks));  // growing blocks
    check_case(u);
  }
  if (ranks > 1) {
    // The others can only live on stolen work. Each iteration spins (~0.05 ms)
    // so the owner cannot finish before the idle ranks are scheduled, even on
    // an oversubscribed machine; cheap bodies may legitimately run without a steal.
    Case c = make("gss", mpi::StealRatio::half, 100, 2000);
    c.blocks.assign(static_cast<std::size_t>(ranks) + 1, c.begin);
    c.blocks.back() = c.begin + c.n;
    c.spinning = true;  // rank 0 owns nothing: every iteration costs the base spin
    const mpi::DistributedResult r = check_case(c);
    expect(r.steals > 0, "all on the last rank: no steal");
  }
  bool threw = false;
  std::vector<std::int64_t> bad = {0, 10};  // P + 1 boundaries expected
  if (ranks == 1) bad = {0, 5, 10};
  try {
    mpi::distributed_for(MPI_COMM_WORLD, 0, 10, [](std::int64_t) {}, {.name = "bad-blocks", .blocks = bad});
  } catch (const autosched::Error& e) {
    threw = std::string(e.what()).find("blocks") != std::string::npos;
  }
  expect(threw, "wrong block boundaries: every rank throws naming them");
}

void check_throwing_body() {
  for (const char* s : {"fac2", "static", "ss"}) {
    bool threw = false, i_failed = false;
    std::string message;
    try {
      mpi::distributed_for(
          MPI_COMM_WORLD, 0, 100000,
          [&](std::int64_t i) {
            if (i == 4242) {
              i_failed = true;
              throw std::runtime_error("planted failure in the body");
            }
          },
          {.name = "throwing", .schedule = s});
    } catch (const autosched::Error& e) {
      threw = true;
      message = e.what();
    }
    const std::string what = std::string("throwing body, ") + s;
    expect(threw, what + ": no error on this rank");
    expect(message.find(" failed: planted failure in the body") != std::string::npos, what + ": message '" + message + "'");
    if (i_failed) expect(message.find("rank " + std::to_string(rank) + " failed") != std::string::npos, what + ": names the failing rank");
    check_case(make(s, mpi::StealRatio::half, 0, 5000));  // nothing left over from the aborted instance
  }
}

/// `auto` sweeps the three ratios, then keeps choosing; every instance is correct.
void check_auto_ratio(bool quick) {
  const int steps = quick ? 6 : 15;
  for (int s = 0; s < steps; ++s) {
    Case c = make("fac2", mpi::StealRatio::automatic, 0, 20000);
    c.name = "auto-ratio";
    const mpi::DistributedResult r = check_case(c);
    if (s < 3) expect(r.steal_ratio == static_cast<mpi::StealRatio>(s), "auto: the sweep runs 0.25, 0.5, 0.75 first");
  }
}

/// The selector alone, on planted loop times: deterministic.
void check_selector_converges() {
  const double base[3][3] = {{1.20, 1.10, 1.00}, {1.00, 1.08, 1.15}, {1.10, 1.00, 1.10}};
  const mpi::StealRatio planted[3] = {mpi::StealRatio::three_quarters, mpi::StealRatio::quarter, mpi::StealRatio::half};
  for (int p = 0; p < 3; ++p) {
    mpi::StealRatioSelector s;
    int late_hits = 0;
    for (int k = 0; k < 300; ++k) {
      const mpi::StealRatio r = s.choose();
      const double noise = 1.0 + 0.02 * std::sin(1.7 * k);
      s.observe(r, 1e6 * base[p][static_cast<int>(r)] * noise);
      if (k >= 200 && r == planted[p]) ++late_hits;
    }
    expect(s.best() == planted[p], "selector: best() is not the planted ratio " + std::string(mpi::steal_ratio_name(planted[p])));
    expect(late_hits >= 80, "selector: the planted ratio ran " + std::to_string(late_hits) + " of the last 100 instances");
  }
  bool threw = false;
  try {
    (void)mpi::parse_steal_ratio("0.3", "AUTOSCHED_STEAL_RATIO");
  } catch (const autosched::Error& e) {
    threw = std::string(e.what()).find("0.25, 0.5, 0.75 or auto") != std::string::npos;
  }
  expect(threw && mpi::parse_steal_ratio("auto", "x") == mpi::StealRatio::automatic, "parse_steal_ratio");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool quick = argc > 1 && std::string_view(argv[1]) == "--quick";
  const double t0 = MPI_Wtime();
  check_selector_converges();
  check_sizes(quick);
  check_stealing_happens();
  check_user_blocks();
  check_throwing_body();
  check_auto_ratio(quick);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("test_distributed: %d ranks, %d failed checks, %.1f s\n", ranks, all, MPI_Wtime() - t0);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
