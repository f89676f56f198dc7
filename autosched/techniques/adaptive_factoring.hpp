#pragma once
/// @file
/// AF (Banicescu & Liu 2000) and mAF (LB4OMP, Auto4OMP's member): factoring
/// driven by each worker's measured iteration-time mean μ_i and spread σ_i.
///
/// A worker's first chunk has 100 iterations (the paper's C(1) >= 100); every
/// chunk runs as sub-chunks of ⌊chunk/divider⌋ (divider 10), each timed, and
/// μ_i, σ_i are the mean and sample standard deviation of the sub-chunks' times
/// per iteration within this instance. When its chunk is used up the worker
/// publishes (μ_i, σ_i) and sizes the next one from everybody's:
///   D = Σ_j σ_j²/μ_j,   T = (Σ_j 1/μ_j)^(−1),   R = iterations left,
///   chunk = (D + 2TR − sqrt(D² + 4DTR)) / (2 μ_i)
///         = 4T²R² / ((D + 2TR + sqrt(D² + 4DTR)) · 2 μ_i)    (no cancellation),
/// workers that have not published yet count with the caller's own values.
/// AF times sub-chunk execution only, mAF the total time between requests.
///
/// Guards: μ below 1 ps per iteration is clamped (LB4OMP divides by zero on
/// sub-µs sub-chunks); the sub-chunk is max(⌊chunk/divider⌋, c) and the chunk
/// at least one sub-chunk, so c > chunk cannot leave a negative remainder; a
/// tail shorter than a sub-chunk joins the last one.

#include <autosched/core/index_range.hpp>
#include <autosched/techniques/adaptive_formulas.hpp>
#include <autosched/techniques/chunk_dispenser.hpp>
#include <autosched/techniques/iteration_counter.hpp>
#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/worker_slot.hpp>

#include <algorithm>
#include <cmath>
#include <span>

namespace autosched {

class AdaptiveFactoring {
 public:
  static constexpr bool timed = true;
  static constexpr std::int64_t first_chunk = 100;
  static constexpr double min_rate_ns = 1e-3;
  enum class Clock : std::uint8_t { execution, total };

  struct Worker {
    int id;
    IndexRange reserved;  ///< rest of the current chunk
    std::int64_t sub_chunk;
    RunningStats per_iteration;  ///< sub-chunk time / size, this instance
  };

  AdaptiveFactoring(const LoopShape& s, Clock clock, int divider, std::span<WorkerSlot> slots) noexcept
      : counter_(s.n), c_(min_chunk(s)), divider_(std::max(1, divider)), clock_(clock), slots_(slots) {
    for (auto& slot : slots_) {
      slot.rate.store(0.0, std::memory_order_relaxed);
      slot.spread.store(0.0, std::memory_order_relaxed);
    }
  }

  Worker worker(int id, std::int64_t) const noexcept { return {id, {}, 1, {}}; }

  IndexRange next(Worker& w) noexcept {
    if (w.reserved.empty()) {
      std::int64_t chunk = first_chunk;
      if (w.per_iteration.count > 0) {
        const double mu = std::max(w.per_iteration.mean, min_rate_ns);
        const double sigma = w.per_iteration.sample_stddev();
        slots_[w.id].rate.store(mu, std::memory_order_relaxed);
        slots_[w.id].spread.store(sigma, std::memory_order_relaxed);
        const std::int64_t left = counter_.remaining();
        if (left <= 0) return {};
        chunk = factoring_chunk(mu, sigma, left);
      }
      w.sub_chunk = af_sub_chunk(chunk, divider_, c_);
      w.reserved = counter_.claim(std::max(chunk, w.sub_chunk));
      if (w.reserved.empty()) return {};
    }
    std::int64_t size = std::min(w.sub_chunk, w.reserved.size());
    if (w.reserved.size() - size < w.sub_chunk) size = w.reserved.size();  // fold a short tail in
    const IndexRange sub{w.reserved.begin, w.reserved.begin + size};
    w.reserved.begin += size;
    return sub;
  }

  void completed(Worker& w, IndexRange c, const ChunkTiming& t) noexcept {
    const auto ns = clock_ == Clock::execution ? t.execution_ns() : t.total_ns();
    w.per_iteration.add(static_cast<double>(ns) / static_cast<double>(c.size()));
  }

  /// What nobody has claimed yet (a guarded trial ran over its budget).
  IndexRange take_rest() noexcept { return counter_.take_rest(); }

 private:
  [[nodiscard]] std::int64_t factoring_chunk(double mu, double sigma, std::int64_t left) const noexcept {
    AfTerms terms;
    for (const auto& slot : slots_) {
      const double mu_j = slot.rate.load(std::memory_order_relaxed);
      if (mu_j > 0) {
        terms.add(mu_j, slot.spread.load(std::memory_order_relaxed));
      } else {
        terms.add(mu, sigma);  // not published yet: counts with the caller's values
      }
    }
    return af_chunk(terms, mu, left);
  }

  IterationCounter counter_;
  std::int64_t c_;
  std::int64_t divider_;
  Clock clock_;
  std::span<WorkerSlot> slots_;
};

}  // namespace autosched
