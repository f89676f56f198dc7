#pragma once
/// @file
/// What the runtime keeps per user communicator (internal): its own
/// duplicate, so protocol messages never match the application's, and the
/// RMA chunk counter. Cached as an attribute of the user's communicator:
/// created collectively at first use, freed when that communicator is freed
/// or at MPI_Finalize (in creation order, so the collective frees match).

#include <mpi.h>

#include <cstdint>

namespace autosched::mpi::detail {

struct CommResources {
  MPI_Comm user = MPI_COMM_NULL;
  MPI_Comm comm = MPI_COMM_NULL;  ///< the runtime's duplicate of `user`
  MPI_Win counter = MPI_WIN_NULL; ///< one int64 on rank 0, created with the first RMA instance
  std::int64_t* counter_memory = nullptr;

  /// Collective over comm at first use: the window on rank 0.
  MPI_Win rma_counter();
  /// Rank 0: sets the counter to 0 (before the broadcast that starts an instance).
  void reset_counter();
  /// Collective, after an instance that used the counter. Under SimGrid SMPI
  /// it frees the window (recreated by the next RMA instance): SMPI cannot
  /// free it at MPI_Finalize and reports the window's pending receives as a
  /// deadlock. Elsewhere it does nothing: the window lives until the
  /// communicator is freed or MPI_Finalize.
  void end_instance();

  /// How long one chunk request holds rank 0 when every rank asks at once,
  /// through the RMA counter and through the coordinator (a request message
  /// and its answer). The loop simulator queues dispatches behind these when
  /// `auto` ranks arms for this communicator: a rank 0 that serves requests
  /// in parallel gives values near 0, one that serialises them its service time.
  struct DispatchQueues {
    double counter_ns = 0;
    double coordinator_ns = 0;
  };
  /// Collective, measured once per communicator: each rank makes `rounds`
  /// requests of each kind in a burst; the longest burst / requests served.
  DispatchQueues dispatch_queues();
  bool queues_measured = false;
  DispatchQueues queues;
};

/// The resources of `user`, created (collectively) on first call.
CommResources& resources(MPI_Comm user);

}  // namespace autosched::mpi::detail
