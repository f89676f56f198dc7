#pragma once
/// @file
/// Learned uneven blocks for static loops: n iterations split into p
/// contiguous blocks, thread t running [bounds[t], bounds[t+1]). The compiled
/// code of a `schedule(static)` loop runs exactly the one block it is given,
/// so balancing it costs nothing per chunk and keeps every thread on the same
/// iterations (and the same data) from one instance to the next.
///
/// BlockLearner decides, instance after instance, which partition the next
/// instance runs: first the runtime's own even split (measured, the guard's
/// reference), then partitions that equalise the measured per-thread times
/// (a damped proportional update, as adaptive weighted factoring does for
/// weights), and back to the even split for good when a learned partition
/// proves slower than it. Pure: no clock, no threads; the drop-in feeds it.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace autosched {

/// p + 1 ascending bounds from 0 to n: thread t runs [bounds[t], bounds[t+1]).
using BlockBounds = std::vector<std::int64_t>;

/// The even split: the first n mod p threads one iteration more (libomp's
/// balanced static split).
BlockBounds even_blocks(std::int64_t n, int p);

/// The bounds that would have given every thread the same time, had each
/// block's cost been spread evenly over its iterations (`seconds[t]` the time
/// of block t under `ran`); empty blocks take their neighbours' density.
BlockBounds equal_cost_blocks(const BlockBounds& ran, std::span<const double> seconds);

/// The fraction of the slowest thread's time the others waited:
/// 1 - mean/max (0: balanced).
double block_imbalance(std::span<const double> seconds);

class BlockLearner {
 public:
  enum class Phase : std::uint8_t {
    measuring_even,  ///< the first instances run the runtime's even split
    learning,        ///< learned partitions, moved while imbalanced
    settled,         ///< a learned partition kept (balanced within the dead band)
    even,            ///< on the even split for good: balanced, too short, or the guard fired
  };

  struct Options {
    int even_instances = 2;        ///< even-split instances measured first (the guard's reference)
    double even_band = 0.03;       ///< imbalance of the even split below which the loop is not learned
    double clear_imbalance = 0.10; ///< an even instance this imbalanced starts learning at once
    double damping = 0.85;         ///< share of the step to the equal-cost bounds taken per learned instance
    double dead_band = 0.01;       ///< imbalance below which the partition is not moved
    int settle_after = 3;          ///< balanced instances in a row that settle the partition
    double drift_band = 0.05;      ///< imbalance of a settled partition that, twice in a row, learns again
    int guard_strikes = 3;         ///< learned instances in a row slower than even that end learning
    double min_seconds = 20e-6;    ///< an even instance shorter than this: too short to learn from
  };

  BlockLearner(std::int64_t n, int p) : BlockLearner(n, p, Options{}) {}
  BlockLearner(std::int64_t n, int p, Options options);

  /// The partition the next instance runs; nullopt: the runtime's own even split.
  [[nodiscard]] std::optional<BlockBounds> next() const;

  /// One instance: the blocks that ran (`ran`, p + 1 bounds), whether they
  /// were the runtime's own even split, and each block's time in seconds.
  void observe(const BlockBounds& ran, bool runtime_split, std::span<const double> seconds);

  [[nodiscard]] Phase phase() const noexcept { return phase_; }
  [[nodiscard]] const BlockBounds& bounds() const noexcept { return bounds_; }
  [[nodiscard]] std::int64_t n() const noexcept { return n_; }
  [[nodiscard]] int p() const noexcept { return p_; }
  /// Median makespan (slowest thread) of the first even instances (up to
  /// 15); 0 before any.
  [[nodiscard]] double even_seconds() const;
  /// Instances run on learned partitions, and their summed makespans.
  [[nodiscard]] std::int64_t learned_instances() const noexcept { return learned_instances_; }
  [[nodiscard]] double learned_seconds() const noexcept { return learned_seconds_; }
  [[nodiscard]] std::int64_t instances() const noexcept { return instances_; }
  /// Whether the state started from a stored one (resume()).
  [[nodiscard]] bool resumed() const noexcept { return resumed_; }

  /// Whether the guard put the loop back on the even split (a learned
  /// partition was slower than even in this process).
  [[nodiscard]] bool guarded() const noexcept { return guarded_; }

  /// The state kept across runs: phase, bounds and the even reference, as one
  /// line of text ("blocks v1 <phase> <even ns> <p+1 bounds>"). A guard's
  /// verdict is not kept: it may have been a noisy spell, and the next run
  /// learns again (a balanced or too short loop stays on even).
  [[nodiscard]] std::string save() const;
  /// Takes up a saved state of the same n and p; false (state unchanged)
  /// when `text` is not one.
  bool resume(const std::string& text);

 private:
  std::int64_t n_;
  int p_;
  Options options_;
  Phase phase_ = Phase::measuring_even;
  BlockBounds bounds_;               ///< the learned partition (learning, settled)
  BlockBounds stored_;               ///< a resumed partition, taken up after one even instance
  std::vector<double> even_makespans_;
  std::vector<double> even_thread_seconds_;  ///< each thread's fastest even instance
  BlockBounds even_ran_;             ///< the runtime's split, as it ran
  int balanced_in_a_row_ = 0;
  int drifting_in_a_row_ = 0;
  int slower_in_a_row_ = 0;
  std::int64_t instances_ = 0;
  std::int64_t learned_instances_ = 0;
  double learned_seconds_ = 0;
  bool resumed_ = false;
  bool guarded_ = false;
};

const char* to_string(BlockLearner::Phase phase) noexcept;

}  // namespace autosched
