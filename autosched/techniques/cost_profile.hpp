#pragma once
/// @file
/// CostProfile: where the time of one loop instance goes along its iteration
/// space, in equal blocks of iterations, plus the scheduling overhead h per
/// chunk. The `profiling` technique measures it (one timed chunk per block,
/// so it costs one dynamic instance) and the loop simulator replays it.
/// shape_distance() compares two profiles: `auto` tells the phases of a
/// loop apart by it (select/selectors/auto/regimes.hpp).
///
///   CostProfile p = CostProfile::from_blocks(n, {4e3, 1e3, 1e3, 2e3}, /*h=*/80);
///   double t = p.cost({0, n / 2});   // body time of the first half
///
/// Blocks cover [b·s, min((b+1)·s, n)) with s = ⌈n / blocks⌉; a range that
/// cuts a block is charged the block's time in proportion to the iterations
/// it covers (iterations inside a block are taken as equally costly).

#include <autosched/core/index_range.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

class CostProfile {
 public:
  CostProfile() = default;

  /// `block_ns[b]`: body time of block b (ns); the block size is ⌈n / blocks⌉.
  /// Throws autosched::Error when n < 1, there are no blocks, more blocks
  /// than n allows (every block must hold an iteration), or a time is
  /// negative or not finite.
  static CostProfile from_blocks(std::int64_t n, std::vector<double> block_ns, double overhead_ns);

  /// The same loop shape at `n` iterations, each iteration costing `mu_ns`.
  static CostProfile uniform(std::int64_t n, double mu_ns, double overhead_ns, int blocks = 64);

  [[nodiscard]] bool empty() const noexcept { return n_ == 0; }
  [[nodiscard]] std::int64_t n() const noexcept { return n_; }
  [[nodiscard]] std::int64_t block_size() const noexcept { return block_size_; }
  [[nodiscard]] std::size_t blocks() const noexcept { return cumulative_.size(); }
  /// Body time of block b < blocks() (ns).
  [[nodiscard]] double block(std::size_t b) const noexcept {
    return b == 0 ? cumulative_[0] : cumulative_[b] - cumulative_[b - 1];
  }
  /// Every block's time, block(0) … block(blocks() - 1): a new vector.
  [[nodiscard]] std::vector<double> block_ns() const;
  [[nodiscard]] double overhead_ns() const noexcept { return overhead_ns_; }

  /// Time each dispatch holds the one place every dispatch passes through.
  /// At the process level chunk requests queue at rank 0, which serves one
  /// at a time: techniques whose chunks follow from the chunk's index (the
  /// ChunkSequence family) through the shared counter (`counter_ns`), the
  /// others through the coordinator rank (`coordinator_ns`); block and
  /// cyclic static need no request. autosched::mpi measures both once per
  /// communicator. 0, the default and what thread teams use: dispatches do
  /// not queue beyond h. Not part of text(): it belongs to the
  /// communicator, not to the loop. Negative or non-finite values count as 0.
  void set_dispatch_queues(double counter_ns, double coordinator_ns) noexcept;
  [[nodiscard]] double counter_queue_ns() const noexcept { return counter_queue_ns_; }
  [[nodiscard]] double coordinator_queue_ns() const noexcept { return coordinator_queue_ns_; }
  /// What a chunk costs a static-steal worker that takes it from its own
  /// range: one uncontended lock on a line no other worker writes, and no
  /// clock read (static-steal learns nothing from chunk times). h, measured
  /// by the timed `profiling` technique, includes a clock read and a shared
  /// counter; charged to every one of static-steal's chunks, it made the
  /// simulator predict static-steal 11% to 16× slower than it ran
  /// (docs/results/simulator-validation.md, 2026-11-24). The profiling
  /// technique sets it to measured_owner_dispatch_ns() (techniques/
  /// dispatch_calibration.hpp): this machine's, measured once per process.
  /// A stolen chunk still costs h. Not part of text(): it belongs to the
  /// machine, not to the loop. Unset (negative or not finite, the default):
  /// h, as for every other dispatch.
  void set_owner_dispatch(double ns) noexcept;
  [[nodiscard]] double owner_dispatch_ns() const noexcept {
    return owner_dispatch_ns_ >= 0 ? owner_dispatch_ns_ : overhead_ns_;
  }
  /// Dispatches queue at one place (the process level): every dispatch
  /// counts, so the simulator resolves single iterations.
  [[nodiscard]] bool dispatches_queue() const noexcept { return counter_queue_ns_ > 0 || coordinator_queue_ns_ > 0; }
  /// Σ of every block: the loop's body time on one worker.
  [[nodiscard]] double total_ns() const noexcept { return cumulative_.empty() ? 0.0 : cumulative_.back(); }

  /// Body time of iterations [r.begin, r.end) (clamped to [0, n)). O(1).
  [[nodiscard]] double cost(IndexRange r) const noexcept;

  /// The same shape with every time multiplied by `factor` (a slower run).
  [[nodiscard]] CostProfile scaled(double factor) const;

  /// Block by block the smaller time of this profile and `other`, and the
  /// smaller h: what two instances of one loop agree it costs at least. A
  /// block that one instance paid extra for (a page fault, a vCPU the host
  /// took away for a millisecond) keeps the other's time. The dispatch
  /// queues and the owner's price are `other`'s. Another n or block count is
  /// another loop: `other` is returned as it is.
  [[nodiscard]] CostProfile lower_envelope(const CostProfile& other) const;

  /// How differently two profiles spread their time over the iteration
  /// space: half the L1 distance between their normalised block shares
  /// (after regridding to the coarser of the two), in [0, 1]. 0: the same
  /// shape; 1: disjoint. Level (total time) is not compared: see total_ns().
  [[nodiscard]] double shape_distance(const CostProfile& other) const;
  /// Shares of the total time in `parts` equal slices of the iteration
  /// space (sum 1; all 0 for an empty or zero-cost profile). `auto` keeps a
  /// loop's shape this way, 32 numbers instead of the whole profile.
  [[nodiscard]] std::vector<double> shares(int parts) const;

  /// One line, `n h b0 b1 …`, read back by parse(); the store and the
  /// profile files use it.
  [[nodiscard]] std::string text() const;
  /// Throws autosched::Error naming `origin` on a malformed line.
  static CostProfile parse(std::string_view text, std::string_view origin);

 private:
  /// Body time of iterations [0, x).
  [[nodiscard]] double before(std::int64_t x) const noexcept;

  std::int64_t n_ = 0;
  std::int64_t block_size_ = 1;
  double overhead_ns_ = 0;
  double counter_queue_ns_ = 0;
  double coordinator_queue_ns_ = 0;
  double owner_dispatch_ns_ = -1;  ///< unset: overhead_ns_
  std::vector<double> cumulative_;  ///< cumulative_[b]: body time of blocks 0..b (ns)
};

}  // namespace autosched
