#pragma once
/// @file
/// AWF-B, AWF-C, AWF-D, AWF-E (Cariño & Banicescu 2008): weighted factoring
/// whose weights are learned within the instance from chunk times.
///   B = batched chunks, execution time      C = per-request chunks, execution time
///   D = batched chunks, total time          E = per-request chunks, total time
/// (the meaning of LB4OMP's code; AutoPas' documentation swaps D and E).
/// Batched: the FAC2 batch chunk (BatchTable); per request: ⌈R/(2P)⌉.
/// Execution time covers the body only; total time adds the scheduling
/// overhead since the previous request.
///
/// Worker i keeps its chunk count k and Σ k·t_k, Σ k·s_k over its chunks
/// (t = time, s = size, recent chunks weigh more) and publishes
/// π_i = Σ k·t_k / Σ k·s_k. At each request after its first chunk,
///   w_i = |S| · (1/π_i) / Σ_{j∈S} (1/π_j),   S = workers that published,
/// which equals LB4OMP's π̄/π_i normalisation; before its first chunk, the
/// initial weight (`weights=` or 1). chunk = max(⌈w_i · base⌉, c).
/// Reading the others' π is P relaxed loads, no locks (LB4OMP takes P
/// reader locks per request).

#include <autosched/core/index_range.hpp>
#include <autosched/techniques/adaptive_formulas.hpp>
#include <autosched/techniques/chunk_dispenser.hpp>
#include <autosched/techniques/iteration_counter.hpp>
#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/weighted_factoring.hpp>
#include <autosched/techniques/worker_slot.hpp>

#include <algorithm>
#include <span>

namespace autosched {

class AdaptiveWeightedFactoring {
 public:
  static constexpr bool timed = true;
  enum class Base : std::uint8_t { batched, per_request };
  enum class Clock : std::uint8_t { execution, total };

  struct Worker {
    int id;
    int cursor;
    double initial_weight;
    AwfChunkHistory history;  ///< k, Σ k·t_k, Σ k·s_k
  };

  AdaptiveWeightedFactoring(const LoopShape& s, Base base, Clock clock, std::span<const double> weights,
                            std::span<WorkerSlot> slots) noexcept
      : counter_(s.n),
        batches_(s.n, s.workers),
        c_(min_chunk(s)),
        p_(s.workers),
        base_(base),
        clock_(clock),
        weights_(weights),
        slots_(slots) {
    for (auto& slot : slots_) slot.rate.store(0.0, std::memory_order_relaxed);
  }

  Worker worker(int id, std::int64_t) const noexcept {
    const double w = weights_.size() == static_cast<std::size_t>(p_) ? weights_[id] : 1.0;
    return {id, 0, w, {}};
  }

  IndexRange next(Worker& w) noexcept {
    const std::int64_t left = counter_.remaining();
    if (left <= 0) return {};
    const std::int64_t base = base_ == Base::batched ? batches_.chunk_at(counter_.n() - left, w.cursor)
                                                     : awf_per_request_base(left, p_);
    const double weight = w.history.chunks == 0 ? w.initial_weight : weight_of(w);
    return counter_.claim(weighted_chunk(weight, base, c_));
  }

  void completed(Worker& w, IndexRange c, const ChunkTiming& t) noexcept {
    const auto ns = clock_ == Clock::execution ? t.execution_ns() : t.total_ns();
    slots_[w.id].rate.store(w.history.add(ns, c.size()), std::memory_order_relaxed);
  }

  /// What nobody has claimed yet (a guarded trial ran over its budget).
  IndexRange take_rest() noexcept { return counter_.take_rest(); }

 private:
  [[nodiscard]] double weight_of(const Worker& w) const noexcept {
    double inverse_sum = 0;
    int published = 0;
    for (const auto& slot : slots_) {
      const double pi = slot.rate.load(std::memory_order_relaxed);
      if (pi > 0) {
        inverse_sum += 1.0 / pi;
        ++published;
      }
    }
    return awf_weight(w.history.pi(), inverse_sum, published);
  }

  IterationCounter counter_;
  BatchTable batches_;
  std::int64_t c_;
  int p_;
  Base base_;
  Clock clock_;
  std::span<const double> weights_;
  std::span<WorkerSlot> slots_;
};

}  // namespace autosched
