// bench_mpi_overhead: the scheduling overhead per chunk request of
// autosched::mpi, master-worker against RMA (docs/results/mpi-overhead.md,
// produced by run.sh next to this file).
//
//   mpirun -np P bench_mpi_overhead [--n N] [--chunk C] [--reps R] [--protocol both|master-worker|rma] [--header]
//
// The loop has N empty iterations under `ss,chunk=C` (fixed chunks of C, so
// the schedule hands out exactly ⌈N/C⌉ chunks under either protocol), so
// every microsecond of it is the protocol's. Per instance and protocol:
//   per_request_us   mean over ranks of (time inside next() / next() calls),
//                    the calls that returned the final empty range included;
//                    the master-worker coordinator runs its own chunks in
//                    pieces (break_after), each piece one cheap local call;
//   per_chunk_us     loop_seconds · P / ⌈N/C⌉: the loop's wall time spread
//                    over the chunks scheduled (what one chunk costs the
//                    job, with P ranks requesting at once);
// each the median of R instances after one warm-up instance. Rank 0 prints
// one CSV row per protocol (ranges: next() results over all ranks, pieces
// included):
//   np,protocol,chunk,n,chunks,ranges,reps,per_request_us,per_chunk_us,loop_ms
// Clock: MPI_Wtime (simulated time under SMPI, where the same code runs).
#include <autosched/mpi/mpi.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

struct Sample {
  double per_request_us, per_chunk_us, loop_ms;
  std::int64_t ranges;
};

Sample one_instance(std::int64_t n, std::int64_t chunk, const std::string& schedule,
                    autosched::mpi::Protocol protocol) {
  autosched::mpi::Execution ex(MPI_COMM_WORLD, 0, n,
                               {.name = "bench/overhead", .schedule = schedule, .protocol = protocol});
  double inside = 0;
  std::int64_t calls = 0;
  for (;;) {
    const double t0 = MPI_Wtime();
    const autosched::IndexRange r = ex.next();
    inside += MPI_Wtime() - t0;
    ++calls;
    if (r.empty()) break;
  }
  const auto res = ex.finish();
  double mine = inside / static_cast<double>(calls), sum = 0;
  std::int64_t ranges = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&res.own_chunks, &ranges, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  const int p = ex.size();
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  return {sum / p * 1e6, chunks > 0 ? res.loop_seconds * p / static_cast<double>(chunks) * 1e6 : 0.0,
          res.loop_seconds * 1e3, ranges};
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::int64_t n = 20000;
  std::int64_t chunk = 1;
  int reps = 7;
  std::string which = "both";
  bool header = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--header") {
      header = true;
      continue;
    }
    if (v == nullptr) {
      if (rank == 0) std::fprintf(stderr, "bench_mpi_overhead: %s needs a value\n", a.c_str());
      MPI_Finalize();
      return 2;
    }
    ++i;
    if (a == "--n") {
      n = std::atoll(v);
    } else if (a == "--reps") {
      reps = std::max(1, std::atoi(v));
    } else if (a == "--chunk") {
      chunk = std::max<std::int64_t>(1, std::atoll(v));
    } else if (a == "--protocol") {
      which = v;
    } else {
      if (rank == 0) std::fprintf(stderr, "bench_mpi_overhead: unknown option %s\n", a.c_str());
      MPI_Finalize();
      return 2;
    }
  }
  std::vector<autosched::mpi::Protocol> protocols;
  if (which == "both" || which == "master-worker") protocols.push_back(autosched::mpi::Protocol::master_worker);
  if (which == "both" || which == "rma") protocols.push_back(autosched::mpi::Protocol::rma);
  const std::string schedule = "ss,chunk=" + std::to_string(chunk);
  if (header && rank == 0) {
    std::puts("np,protocol,chunk,n,chunks,ranges,reps,per_request_us,per_chunk_us,loop_ms");
  }
  try {
    for (const auto protocol : protocols) {
      (void)one_instance(n, chunk, schedule, protocol);  // warm-up: windows, connections, first-touch
      std::vector<double> request, per_chunk, loop;
      std::int64_t ranges = 0;
      for (int r = 0; r < reps; ++r) {
        const Sample s = one_instance(n, chunk, schedule, protocol);
        request.push_back(s.per_request_us);
        per_chunk.push_back(s.per_chunk_us);
        loop.push_back(s.loop_ms);
        ranges = s.ranges;
      }
      if (rank == 0) {
        std::printf("%d,%s,%lld,%lld,%lld,%lld,%d,%.3f,%.3f,%.3f\n", size,
                    std::string(autosched::mpi::protocol_name(protocol)).c_str(), static_cast<long long>(chunk),
                    static_cast<long long>(n), static_cast<long long>((n + chunk - 1) / chunk),
                    static_cast<long long>(ranges), reps, median(request), median(per_chunk), median(loop));
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_mpi_overhead: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return 0;
}
