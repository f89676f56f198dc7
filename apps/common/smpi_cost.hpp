#pragma once
/// @file
/// Replaying recorded iteration costs under SimGrid SMPI, and the same call
/// natively (docs/smpi.md).
///
/// Under SMPI every rank is a user-level context of one OS process, so an
/// application must not really compute its iterations at 200–4000 ranks (all
/// ranks would run one after the other on one core). It charges their cost
/// instead: `inject_seconds(recorded_cost)` inside the chunk loop, ideally
/// once per chunk with the summed cost (one simulation event, not one per
/// iteration).
///
///   for (std::int64_t i = first; i < last; ++i) cost += model.seconds(i);
///   autosched::smpi::inject_seconds(cost);
///
/// Clock: under SMPI, MPI_Wtime() and clock_gettime() (rewritten by smpicxx)
/// return simulated time; std::chrono::steady_clock does NOT (it reads the
/// host's real clock). Time with MPI_Wtime() in code meant to run under SMPI.
///
/// Detection: smpicxx force-includes <smpi/smpi_helpers.h> (SMPI_HELPERS_H)
/// and its <mpi.h> defines SMPI_H; autosched's CMake adds AUTOSCHED_SMPI=1 to
/// a build configured with smpicxx. Any of the three selects the SMPI path.
/// SimGrid defines no __SMPI__ macro.

#include <mpi.h>

#if defined(AUTOSCHED_SMPI) || defined(SMPI_H) || defined(SMPI_HELPERS_H)
#define AUTOSCHED_UNDER_SMPI 1
#include <smpi/smpi.h>
#else
#define AUTOSCHED_UNDER_SMPI 0
#endif

namespace autosched::smpi {

/// True in a binary built with smpicxx (it runs only under smpirun).
inline constexpr bool simulated = AUTOSCHED_UNDER_SMPI != 0;

/// What inject_* does in a native build.
enum class NativeCost {
  spin,  ///< busy-wait for the cost's duration (MPI_Wtime), as if the iterations ran
  skip,  ///< return at once (coverage tests, where only the schedule matters)
};

/// Flop rate of the machine the costs were recorded on: inject_seconds(s)
/// charges s × reference_flops flops. The default, 1e9, matches the host speed
/// of scripts/smpi/platform.sh (1 Gf), so a recorded second is one simulated
/// second on an unperturbed host and two on a host slowed to 50%.
inline double reference_flops = 1e9;

/// Native builds only: what inject_* does there.
inline NativeCost native_cost = NativeCost::spin;

/// Charge `flops` floating-point operations to this rank's simulated host
/// (its speed and its speed profile apply). Natively: spin or skip for
/// flops / reference_flops seconds. Non-positive costs are ignored.
inline void inject_flops(double flops) {
  if (!(flops > 0)) return;
#if AUTOSCHED_UNDER_SMPI
  // The _benched variant stops SMPI's benchmarking of the surrounding code
  // while the simulated execution runs; otherwise the real CPU time the other
  // ranks spend during this rank's execution would be charged to it too.
  smpi_execute_flops_benched(flops);
#else
  if (native_cost == NativeCost::skip) return;
  const double until = MPI_Wtime() + flops / reference_flops;
  while (MPI_Wtime() < until) {
  }
#endif
}

/// Charge `seconds` of the reference machine (see reference_flops).
inline void inject_seconds(double seconds) { inject_flops(seconds * reference_flops); }

}  // namespace autosched::smpi
