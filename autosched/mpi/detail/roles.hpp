#pragma once
/// @file
/// How one rank obtains its chunks during one instance (internal): the
/// coordinator or a worker of the master-worker protocol, a rank of the RMA
/// protocol, or a rank computing its static share alone.

#include <autosched/core/index_range.hpp>
#include <autosched/techniques/any_dispenser.hpp>

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>

namespace autosched::mpi::detail {

/// The rank's clock: ns since `origin` on MPI_Wtime (virtualised under SMPI,
/// where std::chrono is not).
struct RankClock {
  double origin = 0;
  [[nodiscard]] std::int64_t now_ns() const noexcept {
    return static_cast<std::int64_t>((MPI_Wtime() - origin) * 1e9);
  }
};

class Role {
 public:
  virtual ~Role() = default;
  /// The next range to run (relative to the loop's begin); empty when done.
  virtual IndexRange next() = 0;
  /// The body failed on this rank: take no more work, tell whoever must know.
  virtual void fail() = 0;
  /// After next() returned empty or fail(): whatever the protocol still owes
  /// (the coordinator serves the workers still running).
  virtual void drain() {}
  /// True once next() has returned empty or fail() was called.
  [[nodiscard]] virtual bool done() const noexcept = 0;
  /// Coordinator: the trial was cut at its deadline and finished on the fallback.
  [[nodiscard]] virtual bool cut() const noexcept { return false; }
};

/// What every role needs to know about the instance.
struct RoleSetup {
  MPI_Comm comm = MPI_COMM_NULL;  ///< the runtime's duplicate
  int rank = 0, size = 1;
  std::int64_t n = 0;
  TechniqueSetup technique;
  std::int64_t request_when = 0, break_after = 0;
  bool timed = false;  ///< the dispenser learns from chunk times (workers report their last chunk)
  RankClock clock;
  /// Coordinator of a guarded trial (a selector's arm with a time budget):
  /// past `deadline_ns` on its clock it takes the unclaimed rest away from
  /// the trial and hands it out from the dispenser `fallback` prepares for
  /// it (rest.size() iterations, indices from 0), as the thread runtime does.
  /// 0: not guarded.
  std::int64_t deadline_ns = 0;
  std::function<AnyDispenser&(IndexRange rest)> fallback;
};

/// The dispenser `setup` prepares can run on every rank without a master:
/// returns true for deterministic sequences and static.
bool runs_without_master(const AnyDispenser& d) noexcept;

std::unique_ptr<Role> make_coordinator(const RoleSetup& setup, AnyDispenser& d);
std::unique_ptr<Role> make_worker(const RoleSetup& setup);
/// RMA (ChunkSequence) or local (static) role over a dispenser this rank prepared.
std::unique_ptr<Role> make_masterless(const RoleSetup& setup, AnyDispenser& d, MPI_Win counter);

}  // namespace autosched::mpi::detail
