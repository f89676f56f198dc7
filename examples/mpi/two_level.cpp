// Two levels of self-scheduling, each its own decision point: the ranks
// share a loop's iterations through autosched::mpi::parallel_for_chunks, and
// each rank runs every chunk it receives with autosched::parallel_for over
// its threads. Self-verifying: exits nonzero unless every iteration ran
// exactly once over all ranks and threads and the results add up.
//   mpirun -np 4 two_level [steps]
#include <autosched/autosched.hpp>
#include <autosched/mpi/mpi.hpp>

#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

/// Iteration i's work grows with i: the imbalance both levels schedule against.
double work(std::int64_t i) {
  double x = static_cast<double>(i % 97);
  for (std::int64_t k = 0; k < 8 + i / 4096; ++k) x = std::sqrt(x + 1.0);
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int steps = argc > 1 ? std::atoi(argv[1]) : 4;
  const std::int64_t n = 200003;
  int failures = 0;

  std::vector<double> expected(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) expected[static_cast<std::size_t>(i)] = work(i);

  for (int step = 0; step < steps; ++step) {
    // Replicated data: each rank fills the entries it runs; a reduction joins them.
    std::vector<double> value(static_cast<std::size_t>(n), 0.0);
    std::vector<std::int32_t> runs(static_cast<std::size_t>(n), 0);
    autosched::mpi::LoopResult outer;
    try {
      outer = autosched::mpi::parallel_for_chunks(
          MPI_COMM_WORLD, 0, n,
          [&](std::int64_t first, std::int64_t last) {  // level 1: a chunk of this rank
            autosched::parallel_for(first, last,
                                    [&](std::int64_t i) {  // level 2: the chunk over this rank's threads
                                      value[static_cast<std::size_t>(i)] = work(i);
                                      ++runs[static_cast<std::size_t>(i)];
                                    },
                                    {.name = "two_level/threads"});
          },
          {.name = "two_level/ranks"});
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    std::vector<double> all_values(rank == 0 ? value.size() : 0);
    std::vector<std::int32_t> all_runs(rank == 0 ? runs.size() : 0);
    MPI_Reduce(value.data(), all_values.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(runs.data(), all_runs.data(), static_cast<int>(n), MPI_INT32_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      std::int64_t wrong_count = 0, wrong_value = 0;
      for (std::size_t i = 0; i < all_runs.size(); ++i) {
        wrong_count += all_runs[i] != 1;
        wrong_value += all_values[i] != expected[i];  // one writer per entry: exact
      }
      const auto inner = autosched::last_instance("two_level/threads");
      std::printf(
          "step %d: ranks %s (%s, %.2f ms, imbalance %.1f%%); threads, last chunk: %s on %d threads; "
          "%lld indices not run once, %lld wrong values\n",
          step, outer.technique.c_str(), std::string(autosched::mpi::protocol_name(outer.protocol)).c_str(),
          outer.loop_seconds * 1e3, outer.percent_imbalance, inner ? std::string(inner->technique).c_str() : "(none)",
          inner ? inner->p : 0, static_cast<long long>(wrong_count), static_cast<long long>(wrong_value));
      if (wrong_count != 0 || wrong_value != 0 || outer.iterations != n) ++failures;
    }
  }
  MPI_Bcast(&failures, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
