#pragma once
/// @file
/// Unmodified `schedule(static)` and no-clause loops of libomp-ABI binaries
/// (clang, flang, icx, …), taken with AUTOSCHED_OMP_LOOPS=static: each thread
/// calls __kmpc_for_static_init once and runs the one block it gets back, so
/// the drop-in answers with learned, uneven contiguous blocks
/// (techniques/learned_blocks.hpp) and the loop costs nothing more per chunk.
///
/// OpenMP's guarantee kept: two static loops with the same trip count that
/// bind to the same parallel region get the same iteration-to-thread mapping
/// (programs chain them with `nowait`). So a partition is keyed by the
/// parallel region's code and the trip count (and the team size), never by
/// the loop's call site, and it changes only between parallel regions: the
/// first thread of a region instance to meet a trip count fixes the partition
/// for the whole instance (RegionStatics), and what the instance measured is
/// learned when the region has ended.
///
/// GCC computes static bounds inline and calls nothing: its static loops
/// cannot be taken.

#include <autosched/drive/inline_mutex.hpp>
#include <autosched/techniques/learned_blocks.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace autosched::omp {

class StaticPlan;

/// One trip count's partition within one region instance, shared by its team.
struct StaticSlot {
  StaticPlan* plan = nullptr;
  std::int64_t n = 0;
  int p = 0;
  /// The partition the instance runs; nullopt: the runtime's own even split.
  std::optional<BlockBounds> blocks;
  /// Per thread, written only by that thread: its range [begin, end) as
  /// indices (what the runtime gave it, when it split) and its summed time.
  std::vector<std::int64_t> begin, end;
  std::vector<std::int64_t> ns;
  StaticSlot* next = nullptr;
};

/// The static loops one parallel region instance met; lives in the region's
/// frame, closed by the thread that forked it once the team has joined.
class RegionStatics {
 public:
  explicit RegionStatics(const void* code) noexcept : code_(code) {}
  ~RegionStatics();
  RegionStatics(const RegionStatics&) = delete;
  RegionStatics& operator=(const RegionStatics&) = delete;

  /// The slot for trip count n in a team of p; made by the first thread to ask.
  StaticSlot* slot(std::int64_t n, int p) noexcept;

 private:
  const void* code_;
  drive::InlineMutex mutex_;
  StaticSlot* slots_ = nullptr;
};


/// What the report says of one partition (region, trip count, team size).
struct StaticPlanReport {
  std::string region;  ///< the region's id (its outlined function's place)
  std::int64_t n = 0;
  int p = 0;
  BlockLearner::Phase phase{};
  BlockBounds blocks;  ///< the final partition (the even split when on it)
  std::int64_t instances = 0, learned_instances = 0;
  double even_ms = 0, learned_mean_ms = 0;
  bool resumed = false;
};
std::vector<StaticPlanReport> static_plans();

}  // namespace autosched::omp
