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
#include <autosched/techniques/chunk_dispenser.hpp>
#include <autosched/techniques/iteration_counter.hpp>
#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numbers>

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
        mu_(mu_ns),
        h_(std::max(h_ns, 1e-6 * mu_ns)),
        unfinished_(static_cast<double>(s.n)),
        work_left_(static_cast<double>(s.n)),
        last_request_ns_(start_ns) {
    const double cv = sigma_ns / mu_ns;
    a_ = 2.0 * cv * cv;
    b_ = a_ > 0 ? 8.0 * a_ * std::log(8.0 * a_) : 0.0;
    ln_b_ = b_ > 0 ? std::log(b_) : 0.0;
    c1_ = h_ / (mu_ * std::numbers::ln2);
    c2_ = std::sqrt(2.0 * std::numbers::pi) * c1_;
    c3_ = std::log(c2_);
  }

  Worker worker(int, std::int64_t start_ns) const noexcept { return {0, 0, start_ns, start_ns}; }

  IndexRange next(Worker& w) noexcept {
    const std::int64_t now = w.now_ns;
    const auto since_last = static_cast<double>(now - last_request_ns_.exchange(now, std::memory_order_relaxed));
    const double speed_sum = speed_sum_.load(std::memory_order_relaxed);
    if (w.last_size > 0) {
      const auto s = static_cast<double>(w.last_size);
      const double done_estimate = static_cast<double>(now - w.last_request_ns) * s / (s * mu_ + h_);
      work_left_.fetch_sub(since_last * speed_sum + s - done_estimate, std::memory_order_relaxed);
      unfinished_.fetch_sub(s, std::memory_order_relaxed);
      speed_sum_.fetch_sub(w.last_speed, std::memory_order_relaxed);
    }
    const std::int64_t left = counter_.remaining();
    if (left <= 0) return {};
    const IndexRange c = counter_.claim(std::max(chunk_for(left), c_));
    if (!c.empty()) {
      const auto size = static_cast<double>(c.size());
      w.last_size = c.size();
      w.last_speed = size / (size * mu_ + h_);
      w.last_request_ns = now;
      speed_sum_.fetch_add(w.last_speed, std::memory_order_relaxed);
    }
    return c;
  }

  void completed(Worker& w, IndexRange, const ChunkTiming& t) noexcept { w.now_ns = t.finished_ns; }

  /// What nobody has claimed yet (a guarded trial ran over its budget).
  IndexRange take_rest() noexcept { return counter_.take_rest(); }

 private:
  [[nodiscard]] std::int64_t chunk_for(std::int64_t left) const noexcept {
    const double p = p_;
    const double r_left = static_cast<double>(left);
    const double q = r_left / p;
    if (q <= 1.0) return 1;
    const double work = std::max(0.0, work_left_.load(std::memory_order_relaxed));
    const double r = std::max(r_left, work);
    const double t_hat = r / p;
    const double ln_q = std::log(q);
    const double v = q / (b_ + q);
    const double d = r_left / (1.0 + 1.0 / ln_q - v);
    double chunk = t_hat;
    if (d > c2_) {
      const double m = std::max(0.0, unfinished_.load(std::memory_order_relaxed));
      const double s = a_ * (std::log(d) - c3_) * (1.0 + m / (r * p));
      const double w = b_ > 0 ? std::log(v * ln_q) + ln_b_ : std::log(ln_q);
      const double spread = s > 0 ? t_hat * t_hat / (t_hat + s / 2.0 + std::sqrt(s * (t_hat + s / 4.0))) : t_hat;
      chunk = std::min(t_hat, spread + std::max(0.0, c1_ * w));
    }
    if (!(chunk < static_cast<double>(max_claim))) return max_claim;
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(chunk));
  }

  IterationCounter counter_;
  std::int64_t c_;
  int p_;
  double mu_, h_;
  double a_ = 0, b_ = 0, ln_b_ = 0, c1_ = 0, c2_ = 0, c3_ = 0;
  alignas(64) std::atomic<double> unfinished_;  ///< M
  std::atomic<double> work_left_;               ///< Nn
  std::atomic<double> speed_sum_{0.0};
  std::atomic<std::int64_t> last_request_ns_;
};

}  // namespace autosched
