#pragma once
/// @file
/// BOLD (Hagerup 1997), as LB4OMP implements it, with its state per loop
/// instance (LB4OMP keeps the current μ in a process global).
///
/// Constants from μ, σ and the overhead h:
///   a = 2(σ/μ)²,  b = 8a·ln(8a),  c1 = h/(μ·ln 2),  c2 = sqrt(2π)·c1,  c3 = ln c2.
/// Shared: M (iterations not yet finished, as far as known), Nn (estimated
/// work left), the summed speed of the workers and the time of the last request.
/// A worker whose previous chunk had s iterations, speed v, issued at t_prev:
///   Nn −= (now − t_last)·speed_sum + s − (now − t_prev)·s/(s·μ + h);  M −= s;  speed_sum −= v.
/// Then with R left, q = R/P (q <= 1 → 1), r = max(R, Nn), t̂ = r/P, v = q/(b+q),
/// d = R/(1 + 1/ln q − v):  d <= c2 → t̂; else s = a(ln d − c3)(1 + M/(rP)),
/// w = ln(v·ln q) + ln b (b > 0) or ln ln q,
///   chunk = min(t̂, t̂ + s/2 − sqrt(s(t̂ + s/4)) + max(0, c1·w)),   then max(·, c),
/// and the worker's new speed s/(s·μ + h) joins the sum.
/// Guards: σ = 0 gives a = b = 0; h is kept above 0 so c3 is finite; the
/// difference t̂ + s/2 − sqrt(·) is computed as t̂²/(t̂ + s/2 + sqrt(·)).
/// Shared values are atomic doubles; BOLD is a heuristic, and the few
/// fields are updated one by one without a lock, as LB4OMP does.

#include <autosched/core/index_range.hpp>
#include <autosched/techniques/adaptive_formulas.hpp>
#include <autosched/techniques/chunk_dispenser.hpp>
#include <autosched/techniques/iteration_counter.hpp>
#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>

namespace autosched {

class Bold {
 public:
  static constexpr bool timed = true;
  struct Worker {
    std::int64_t last_size = 0;  ///< s_prev
    double last_speed = 0;       ///< v_prev (iterations per ns)
    std::int64_t last_request_ns = 0;
    std::int64_t now_ns = 0;  ///< when the worker next asks (end of its last chunk)
  };

  Bold(const LoopShape& s, double mu_ns, double sigma_ns, double h_ns, std::int64_t start_ns) noexcept
      : counter_(s.n),
        c_(min_chunk(s)),
        p_(s.workers),
        k_(bold_constants(mu_ns, sigma_ns, h_ns)),
        unfinished_(static_cast<double>(s.n)),
        work_left_(static_cast<double>(s.n)),
        last_request_ns_(start_ns) {}

  Worker worker(int, std::int64_t start_ns) const noexcept { return {0, 0, start_ns, start_ns}; }

  IndexRange next(Worker& w) noexcept {
    const std::int64_t now = w.now_ns;
    const auto since_last = static_cast<double>(now - last_request_ns_.exchange(now, std::memory_order_relaxed));
    const double speed_sum = speed_sum_.load(std::memory_order_relaxed);
    if (w.last_size > 0) {
      const auto s = static_cast<double>(w.last_size);
      const auto since_own = static_cast<double>(now - w.last_request_ns);
      work_left_.fetch_sub(bold_work_done(k_, since_last, speed_sum, s, since_own), std::memory_order_relaxed);
      unfinished_.fetch_sub(s, std::memory_order_relaxed);
      speed_sum_.fetch_sub(w.last_speed, std::memory_order_relaxed);
    }
    const std::int64_t left = counter_.remaining();
    if (left <= 0) return {};
    const double work = work_left_.load(std::memory_order_relaxed);
    const double unfinished = unfinished_.load(std::memory_order_relaxed);
    const IndexRange c = counter_.claim(std::max(bold_chunk(k_, left, p_, work, unfinished), c_));
    if (!c.empty()) {
      w.last_size = c.size();
      w.last_speed = bold_speed(k_, static_cast<double>(c.size()));
      w.last_request_ns = now;
      speed_sum_.fetch_add(w.last_speed, std::memory_order_relaxed);
    }
    return c;
  }

  void completed(Worker& w, IndexRange, const ChunkTiming& t) noexcept { w.now_ns = t.finished_ns; }

  /// What nobody has claimed yet (a guarded trial ran over its budget).
  IndexRange take_rest() noexcept { return counter_.take_rest(); }

 private:
  IterationCounter counter_;
  std::int64_t c_;
  int p_;
  BoldConstants k_;
  alignas(64) std::atomic<double> unfinished_;  ///< M
  std::atomic<double> work_left_;               ///< Nn
  std::atomic<double> speed_sum_{0.0};
  std::atomic<std::int64_t> last_request_ns_;
};

}  // namespace autosched
