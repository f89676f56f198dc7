// autosched-mpi-probe: checks that the MPI features autosched::mpi relies on
// work under SimGrid SMPI at 200–4000 ranks and under Open MPI, and measures
// the calls SMPI must be told the cost of (docs/smpi.md).
//
//   --mode rma        passive-target RMA: a shared counter on rank 0
//                     (MPI_Win_allocate, MPI_Win_lock_all, MPI_Fetch_and_op,
//                     MPI_Win_flush); every rank takes chunks until the range
//                     is exhausted
//   --mode mw         master-worker with two-sided messages: rank 0 serves
//                     chunk requests, the others compute
//   --mode calibrate  real cost of an unsuccessful MPI_Iprobe and MPI_Test
//                     (run it under Open MPI: it gives smpi/iprobe, smpi/test)
//
// Iteration costs are injected (apps/common/smpi_cost.hpp): --cost seconds per
// iteration on the reference machine, varied by ±--imbalance deterministically.
// Rank 0 checks that every index of [0, n) ran exactly once (count and index
// sum over all ranks) and prints one line of key=value pairs.
#include "../../apps/common/smpi_cost.hpp"

#include <mpi.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

struct Options {
  std::string mode = "rma";
  std::int64_t n = 400000;
  std::int64_t chunk = 10;
  double cost = 1e-5;      // seconds per iteration on the reference machine
  double imbalance = 0.5;  // per-iteration cost in cost × [1 − x, 1 + x]
  int calibrate_calls = 200000;
};

bool parse(int argc, char** argv, Options& o, int rank) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    auto need = [&] {
      if (!v && rank == 0) std::fprintf(stderr, "%s: expected a value\n", a.c_str());
      return v != nullptr;
    };
    if (a == "--mode" && need()) {
      o.mode = argv[++i];
    } else if (a == "--n" && need()) {
      o.n = std::strtoll(argv[++i], nullptr, 10);
    } else if (a == "--chunk" && need()) {
      o.chunk = std::max<std::int64_t>(1, std::strtoll(argv[++i], nullptr, 10));
    } else if (a == "--cost" && need()) {
      o.cost = std::strtod(argv[++i], nullptr);
    } else if (a == "--imbalance" && need()) {
      o.imbalance = std::strtod(argv[++i], nullptr);
    } else if (a == "--calls" && need()) {
      o.calibrate_calls = std::atoi(argv[++i]);
    } else if (a == "--native-skip") {
      autosched::smpi::native_cost = autosched::smpi::NativeCost::skip;
    } else {
      if (rank == 0)
        std::fprintf(stderr,
                     "usage: autosched-mpi-probe [--mode rma|mw|calibrate] [--n N] [--chunk C] "
                     "[--cost SECONDS] [--imbalance X] [--calls K] [--native-skip]\n(got '%s')\n",
                     a.c_str());
      return false;
    }
  }
  if (o.mode != "rma" && o.mode != "mw" && o.mode != "calibrate") {
    if (rank == 0) std::fprintf(stderr, "--mode %s: expected rma, mw or calibrate\n", o.mode.c_str());
    return false;
  }
  return true;
}

// Deterministic per-iteration variation (a multiplicative hash), so every
// run and every rank agree on the cost of iteration i.
double iteration_cost(const Options& o, std::int64_t i) {
  const auto h = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
  const double u = static_cast<double>(h >> 11) * 0x1.0p-53;  // [0, 1)
  return o.cost * (1.0 + o.imbalance * (2.0 * u - 1.0));
}

struct Tally {
  std::int64_t count = 0;
  std::int64_t index_sum = 0;  // exact up to n ≈ 4e9
  std::int64_t requests = 0;
};

void run_chunk(const Options& o, std::int64_t first, std::int64_t last, Tally& t) {
  double cost = 0;
  for (std::int64_t i = first; i < last; ++i) {
    cost += iteration_cost(o, i);
    t.index_sum += i;
  }
  t.count += last - first;
  autosched::smpi::inject_seconds(cost);  // one simulated execution per chunk
}

Tally run_rma(const Options& o, MPI_Comm comm, int rank) {
  std::int64_t* counter = nullptr;
  MPI_Win win;
  const MPI_Aint bytes = rank == 0 ? static_cast<MPI_Aint>(sizeof(std::int64_t)) : 0;
  MPI_Win_allocate(bytes, sizeof(std::int64_t), MPI_INFO_NULL, comm, &counter, &win);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    *counter = 0;
    MPI_Win_unlock(0, win);
  }
  MPI_Barrier(comm);
  Tally t;
  MPI_Win_lock_all(0, win);
  for (;;) {
    std::int64_t first = 0;
    MPI_Fetch_and_op(&o.chunk, &first, MPI_INT64_T, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
    ++t.requests;
    if (first >= o.n) break;
    run_chunk(o, first, std::min(first + o.chunk, o.n), t);
  }
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  return t;
}

Tally run_master_worker(const Options& o, MPI_Comm comm, int rank, int size) {
  Tally t;
  constexpr int request_tag = 1, reply_tag = 2;
  if (size == 1) {
    run_chunk(o, 0, o.n, t);
    return t;
  }
  if (rank == 0) {
    std::int64_t next = 0;
    int finished = 0;
    while (finished < size - 1) {
      int dummy = 0;
      MPI_Status st;
      MPI_Recv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, request_tag, comm, &st);
      ++t.requests;
      const std::int64_t first = next;
      next = std::min(next + o.chunk, o.n);
      if (first >= o.n) ++finished;
      MPI_Send(&first, 1, MPI_INT64_T, st.MPI_SOURCE, reply_tag, comm);
    }
    return t;
  }
  for (;;) {
    int dummy = 0;
    std::int64_t first = 0;
    MPI_Send(&dummy, 1, MPI_INT, 0, request_tag, comm);
    MPI_Recv(&first, 1, MPI_INT64_T, 0, reply_tag, comm, MPI_STATUS_IGNORE);
    if (first >= o.n) break;
    run_chunk(o, first, std::min(first + o.chunk, o.n), t);
  }
  return t;
}

// Real per-call cost of the polling calls a master-worker protocol makes.
void calibrate(const Options& o, MPI_Comm comm, int rank) {
  int flag = 0;
  MPI_Barrier(comm);
  double t0 = MPI_Wtime();
  for (int k = 0; k < o.calibrate_calls; ++k)
    MPI_Iprobe(MPI_ANY_SOURCE, 7, comm, &flag, MPI_STATUS_IGNORE);  // nothing is ever sent with tag 7
  const double iprobe = (MPI_Wtime() - t0) / o.calibrate_calls;

  int buffer = 0;
  MPI_Request req;
  MPI_Irecv(&buffer, 1, MPI_INT, MPI_ANY_SOURCE, 8, comm, &req);
  t0 = MPI_Wtime();
  for (int k = 0; k < o.calibrate_calls; ++k) MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
  const double test = (MPI_Wtime() - t0) / o.calibrate_calls;
  MPI_Cancel(&req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);

  double local[2] = {iprobe, test}, mean[2] = {0, 0};
  MPI_Reduce(local, mean, 2, MPI_DOUBLE, MPI_SUM, 0, comm);
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (rank == 0)
    std::printf("mode=calibrate P=%d simulated=%d calls=%d iprobe_s=%.3g test_s=%.3g\n", size,
                autosched::smpi::simulated ? 1 : 0, o.calibrate_calls, mean[0] / size, mean[1] / size);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options o;
  if (!parse(argc, argv, o, rank)) {
    MPI_Finalize();
    return 2;
  }
  if (o.mode == "calibrate") {
    calibrate(o, MPI_COMM_WORLD, rank);
    MPI_Finalize();
    return 0;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  const Tally t = o.mode == "rma" ? run_rma(o, MPI_COMM_WORLD, rank) : run_master_worker(o, MPI_COMM_WORLD, rank, size);
  const double elapsed = MPI_Wtime() - start;

  std::int64_t local[3] = {t.count, t.index_sum, t.requests}, total[3] = {0, 0, 0};
  MPI_Reduce(local, total, 3, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  double loop_time = 0;
  MPI_Reduce(&elapsed, &loop_time, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  int status = 0;
  if (rank == 0) {
    const std::int64_t want_sum = o.n > 0 ? o.n * (o.n - 1) / 2 : 0;
    const bool ok = total[0] == o.n && total[1] == want_sum;
    double ideal = 0;
    for (std::int64_t i = 0; i < o.n; ++i) ideal += iteration_cost(o, i);
    const int computing = o.mode == "mw" && size > 1 ? size - 1 : size;
    std::printf("mode=%s P=%d simulated=%d n=%" PRId64 " chunk=%" PRId64
                " loop_time_s=%.6f ideal_s=%.6f requests=%" PRId64 " exactly_once=%s\n",
                o.mode.c_str(), size, autosched::smpi::simulated ? 1 : 0, o.n, o.chunk, loop_time, ideal / computing,
                total[2], ok ? "yes" : "NO");
    status = ok ? 0 : 1;
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
