// autosched-mpi-library-probe: autosched::mpi::parallel_for_chunks itself,
// a few time steps of an injected-cost loop, so that the library code is
// exercised unchanged under SimGrid SMPI (scripts/smpi/run.sh) and Open MPI.
//
//   autosched-mpi-library-probe [--n N] [--steps S] [--cost SECONDS] [--imbalance X]
//                               [--schedule TEXT] [--protocol auto|master-worker|rma]
//
// Every step checks on rank 0 that each index of [0, n) ran exactly once and
// prints the technique, protocol and loop time (MPI_Wtime: simulated under SMPI).
#include "../../apps/common/smpi_cost.hpp"

#include <autosched/mpi/mpi.hpp>

#include <mpi.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

struct Options {
  std::int64_t n = 100000;
  int steps = 3;
  double cost = 1e-5;
  double imbalance = 0.5;
  std::string schedule;  // empty: the library's default (auto)
  autosched::mpi::Protocol protocol = autosched::mpi::Protocol::automatic;
};

bool parse(int argc, char** argv, Options& o, int rank) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--n" && has_value) {
      o.n = std::strtoll(argv[++i], nullptr, 10);
    } else if (a == "--steps" && has_value) {
      o.steps = std::atoi(argv[++i]);
    } else if (a == "--cost" && has_value) {
      o.cost = std::strtod(argv[++i], nullptr);
    } else if (a == "--imbalance" && has_value) {
      o.imbalance = std::strtod(argv[++i], nullptr);
    } else if (a == "--schedule" && has_value) {
      o.schedule = argv[++i];
    } else if (a == "--protocol" && has_value) {
      const std::string p = argv[++i];
      if (p == "auto") {
        o.protocol = autosched::mpi::Protocol::automatic;
      } else if (p == "master-worker") {
        o.protocol = autosched::mpi::Protocol::master_worker;
      } else if (p == "rma") {
        o.protocol = autosched::mpi::Protocol::rma;
      } else {
        if (rank == 0) std::fprintf(stderr, "--protocol %s: expected auto, master-worker or rma\n", p.c_str());
        return false;
      }
    } else {
      if (rank == 0)
        std::fprintf(stderr,
                     "usage: autosched-mpi-library-probe [--n N] [--steps S] [--cost SECONDS] [--imbalance X] "
                     "[--schedule TEXT] [--protocol auto|master-worker|rma] (got '%s')\n",
                     a.c_str());
      return false;
    }
  }
  return true;
}

double iteration_cost(const Options& o, std::int64_t i) {
  const auto h = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
  const double u = static_cast<double>(h >> 11) * 0x1.0p-53;
  return o.cost * (1.0 + o.imbalance * (2.0 * u - 1.0));
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // keep the step lines if MPI_Finalize aborts
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Options o;
  int status = parse(argc, argv, o, rank) ? 0 : 2;
  for (int step = 0; status == 0 && step < o.steps; ++step) {
    std::int64_t local[2] = {0, 0}, total[2] = {0, 0};  // count, index sum
    autosched::mpi::LoopResult r;
    try {
      r = autosched::mpi::parallel_for_chunks(MPI_COMM_WORLD, 0, o.n,
                                              [&](std::int64_t first, std::int64_t last) {
                                                double cost = 0;
                                                for (std::int64_t i = first; i < last; ++i) {
                                                  cost += iteration_cost(o, i);
                                                  local[1] += i;
                                                }
                                                local[0] += last - first;
                                                autosched::smpi::inject_seconds(cost);
                                              },
                                              {.name = "probe", .schedule = o.schedule, .protocol = o.protocol});
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
      status = 1;
    }
    MPI_Reduce(local, total, 2, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      const bool ok = total[0] == o.n && total[1] == (o.n > 0 ? o.n * (o.n - 1) / 2 : 0);
      std::printf("step=%d technique=%s protocol=%.*s loop_time_s=%.6f imbalance_pct=%.1f n=%" PRId64
                  " exactly_once=%s\n",
                  step, r.technique.c_str(), static_cast<int>(autosched::mpi::protocol_name(r.protocol).size()),
                  autosched::mpi::protocol_name(r.protocol).data(), r.loop_seconds, r.percent_imbalance, o.n,
                  ok ? "yes" : "NO");
      if (!ok) status = 1;
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return status;
}
