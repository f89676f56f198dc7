#pragma once
/// @file
/// The runtime portfolio: one std::variant over the dispensers, built for one
/// instance by prepare_dispenser(). Sixteen deterministic techniques share the
/// ChunkSequence alternative (their calculators only differ in the plan), so
/// the variant has ten alternatives for 28 techniques + profiling.

#include <autosched/techniques/adaptive_factoring.hpp>
#include <autosched/techniques/adaptive_weighted_factoring.hpp>
#include <autosched/techniques/bold.hpp>
#include <autosched/techniques/catalogue.hpp>
#include <autosched/techniques/chunk_sequence.hpp>
#include <autosched/techniques/loop_memory.hpp>
#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/profiling.hpp>
#include <autosched/techniques/random_chunks.hpp>
#include <autosched/techniques/static.hpp>
#include <autosched/techniques/static_steal.hpp>
#include <autosched/techniques/substitution.hpp>
#include <autosched/techniques/weighted_factoring.hpp>
#include <autosched/techniques/worker_slot.hpp>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace autosched {

using AnyDispenser =
    std::variant<std::monostate, BlockStatic, CyclicStatic, ChunkSequence, StaticSteal, WeightedFactoring,
                 AdaptiveWeightedFactoring, AdaptiveFactoring, Bold, RandomChunks, Profiling>;

namespace detail {
template <class Variant>
struct WorkersOf;
template <class... D>
struct WorkersOf<std::variant<std::monostate, D...>> {
  using type = std::variant<std::monostate, typename D::Worker...>;
};
}  // namespace detail

/// One worker's handle on whichever dispenser an AnyDispenser holds (for a
/// front-end that pulls chunks worker by worker: a cursor, an MPI coordinator).
using AnyWorker = detail::WorkersOf<AnyDispenser>::type;

/// Everything a sequence calculator reads: two instances with equal keys
/// have the same plan.
struct PlanKey {
  TechniqueId technique = TechniqueId::static_;
  std::int64_t n = 0;
  int workers = 0;
  std::int64_t chunk = 0;
  double mu = 0, sigma = 0, h = 0, alpha = 0, swr = 0;
  int stages = 0, viss = 0;
  friend bool operator==(const PlanKey&, const PlanKey&) = default;
};

/// Storage one instance needs beyond the dispenser itself, kept by the loop
/// and reused, so that a steady time-stepping loop allocates nothing: the
/// per-worker slots, the sequence plan (re-planned only when its key
/// changes), and the copy of AWF's weights the instance runs with.
class Workspace {
 public:
  /// `p` slots, reset to their initial state.
  std::span<WorkerSlot> slots(int p);

  /// The plan for `key`, built by `build` unless the previous plan had that key.
  template <class Build>
  const SequencePlan& plan(const PlanKey& key, Build&& build) {
    if (!plan_key_ || !(*plan_key_ == key)) {
      build(plan_);
      plan_key_ = key;
    }
    return plan_;
  }

  /// `count` zeroed doubles owned by this workspace (profiling's block
  /// times, which a complete profile takes over).
  std::vector<double>& blocks(std::int64_t count) {
    blocks_.assign(static_cast<std::size_t>(count), 0.0);
    return blocks_;
  }

  /// A copy of `weights` owned by this workspace (no allocation once its
  /// capacity suffices).
  std::span<const double> copy_weights(const std::vector<double>& weights) {
    weights_.assign(weights.begin(), weights.end());
    return weights_;
  }

 private:
  std::unique_ptr<WorkerSlot[]> slots_;
  int slot_capacity_ = 0;
  SequencePlan plan_;
  std::optional<PlanKey> plan_key_;
  std::vector<double> weights_;
  std::vector<double> blocks_;
};

struct TechniqueSetup {
  TechniqueId technique = TechniqueId::static_;
  LoopShape shape;
  const TechniqueParams* params = nullptr;  ///< required
  std::int64_t start_ns = 0;                ///< BOLD's time origin
};

struct PreparedTechnique {
  TechniqueId ran;       ///< the technique actually set up: substitute_for(request).ran
  std::string fallback;  ///< why `ran` differs from the request (Substitution::reason); empty if it does not
};

/// Builds the dispenser for one instance into `out`. A technique that needs a
/// profile (fsc, fac, mfac, tap, bold) takes mu/sigma/h from the parameters,
/// else from the loop's profiling output; without them the technique
/// substitute_for() names runs instead (techniques/substitution.hpp), and
/// the result says which and why.
PreparedTechnique prepare_dispenser(AnyDispenser& out, const TechniqueSetup& setup, LoopMemory& memory,
                                    Workspace& workspace);

/// Lets the dispenser update the loop's memory after every worker finished.
void close_dispenser(AnyDispenser& d, LoopMemory& memory);

}  // namespace autosched
