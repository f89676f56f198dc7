#pragma once
/// @file
/// The adaptive techniques' formulas as pure functions: numbers in, numbers
/// out; no atomics, no threads, no clock. The thread dispensers
/// (adaptive_factoring.hpp, adaptive_weighted_factoring.hpp,
/// weighted_factoring.hpp, bold.hpp), the MPI runtime and simulators call
/// these, so each formula is written once. Times are in ns; every formula is
/// unit-free.
///
/// AF (Banicescu & Liu 2000, Eq. 6–7), for a worker with mean μ_i, R left:
///   D = Σ_j σ_j²/μ_j,  T = (Σ_j 1/μ_j)^(−1),
///   chunk = ⌈(D + 2TR − sqrt(D² + 4DTR)) / (2 μ_i)⌉
/// AWF-B..E (Cariño & Banicescu 2008): π_i = Σ k·t_k / Σ k·s_k over worker
///   i's chunks, w_i = |S|·(1/π_i) / Σ_{j∈S} (1/π_j), chunk = max(⌈w_i·base⌉, c)
///   with base = the FAC2 batch chunk (B, D) or ⌈R/(2P)⌉ (C, E).
/// AWF (Banicescu, Velusamy & Devaprasad 2003), after each time step:
///   w_i = P·(SW_i/SE_i) / Σ_j (SW_j/SE_j).
/// BOLD (Hagerup 1997, as LB4OMP implements it): see bold_chunk().

#include <autosched/techniques/iteration_counter.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <span>

namespace autosched {

// ------------------------------------------------------------------- AF

/// AF's sums over the workers. A worker that has not published its (μ, σ)
/// yet is added with the caller's own values.
struct AfTerms {
  double d = 0;               ///< D = Σ σ_j²/μ_j
  double inverse_mu_sum = 0;  ///< Σ 1/μ_j

  constexpr void add(double mu, double sigma) noexcept {
    d += sigma * sigma / mu;
    inverse_mu_sum += 1.0 / mu;
  }
};

/// AF's next chunk for a worker with mean iteration time `mu` (> 0) when
/// `remaining` iterations are left. Computed as
///   4T²R² / ((D + 2TR + sqrt(D² + 4DTR)) · 2μ)
/// (the same value without the cancellation of the textbook form), rounded
/// up; at least 1, at most max_claim.
[[nodiscard]] inline std::int64_t af_chunk(const AfTerms& terms, double mu, std::int64_t remaining) noexcept {
  const double d = terms.d;
  const double t = 1.0 / terms.inverse_mu_sum;
  const double tr = t * static_cast<double>(remaining);
  const double chunk = 4.0 * tr * tr / ((d + 2.0 * tr + std::sqrt(d * d + 4.0 * d * tr)) * 2.0 * mu);
  if (!(chunk < static_cast<double>(max_claim))) return max_claim;
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(chunk)));
}

/// The sub-chunk AF runs a chunk in: ⌊chunk/divider⌋ (the chunk itself when
/// smaller than divider), at least the minimum chunk c.
[[nodiscard]] constexpr std::int64_t af_sub_chunk(std::int64_t chunk, std::int64_t divider,
                                                  std::int64_t min_chunk) noexcept {
  return std::max(chunk >= divider ? chunk / divider : chunk, min_chunk);
}

// ------------------------------------------------------------- AWF-B..E

/// One worker's chunks within an instance: k, Σ k·t_k, Σ k·s_k.
struct AwfChunkHistory {
  double chunks = 0;         ///< k
  double weighted_time = 0;  ///< Σ k·t_k
  double weighted_size = 0;  ///< Σ k·s_k

  /// Adds the next chunk: `size` iterations in `time_ns` (counted as at
  /// least 1 ns). Returns the new π.
  constexpr double add(std::int64_t time_ns, std::int64_t size) noexcept {
    chunks += 1;
    weighted_time += chunks * static_cast<double>(std::max<std::int64_t>(time_ns, 1));
    weighted_size += chunks * static_cast<double>(size);
    return pi();
  }
  /// π = Σ k·t_k / Σ k·s_k: time per iteration, recent chunks weigh more.
  [[nodiscard]] constexpr double pi() const noexcept { return weighted_time / weighted_size; }
};

/// AWF-B..E's weight of a worker with `own_pi`, when `published` workers
/// (S, the caller among them) have published π and their 1/π sum to
/// `inverse_pi_sum`: |S|·(1/π_i)/Σ_{j∈S} 1/π_j (LB4OMP's π̄/π_i normalised).
[[nodiscard]] constexpr double awf_weight(double own_pi, double inverse_pi_sum, int published) noexcept {
  return static_cast<double>(published) / (own_pi * inverse_pi_sum);
}

/// AWF-C's and AWF-E's base chunk: ⌈R/(2P)⌉.
[[nodiscard]] constexpr std::int64_t awf_per_request_base(std::int64_t remaining, int workers) noexcept {
  return ceil_div(remaining, 2 * std::int64_t{workers});
}

/// WF's and AWF's chunk: max(⌈weight · base⌉, c).
[[nodiscard]] inline std::int64_t weighted_chunk(double weight, std::int64_t base, std::int64_t min_chunk) noexcept {
  return std::max(weighted_size(weight, base), min_chunk);
}

// ------------------------------------------------------ AWF (time steps)

/// Time-stepping AWF's new weights from each worker's weighted iterations
/// SW_i and weighted time SE_i (all three spans of P entries). A worker with
/// no throughput yet (SW_i or SE_i = 0) keeps its weight (LB4OMP divides by
/// zero there); the others share P minus the kept weights in proportion to
/// SW_i/SE_i, or their own count if the kept weights already reach P.
/// Nothing changes when no worker has a throughput.
inline void awf_reweight(std::span<const double> weighted_work, std::span<const double> weighted_time,
                         std::span<double> weights) noexcept {
  const auto p = static_cast<double>(weights.size());
  double throughput_sum = 0, kept = 0;
  int learned = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weighted_work[i] > 0 && weighted_time[i] > 0) {
      throughput_sum += weighted_work[i] / weighted_time[i];  // 1/π_i
      ++learned;
    } else {
      kept += weights[i];
    }
  }
  if (learned == 0) return;
  const double share = kept < p ? p - kept : learned;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weighted_work[i] > 0 && weighted_time[i] > 0) {
      weights[i] = share * (weighted_work[i] / weighted_time[i]) / throughput_sum;
    }
  }
}

// ------------------------------------------------------------------ BOLD

/// BOLD's constants from μ, σ and the overhead h:
///   a = 2(σ/μ)², b = 8a·ln(8a), c1 = h/(μ·ln 2), c2 = sqrt(2π)·c1, c3 = ln c2.
/// h is kept above 10⁻⁶μ so that c3 is finite; σ = 0 gives a = b = 0.
struct BoldConstants {
  double mu = 0, h = 0;
  double a = 0, b = 0, ln_b = 0, c1 = 0, c2 = 0, c3 = 0;
};

[[nodiscard]] inline BoldConstants bold_constants(double mu_ns, double sigma_ns, double h_ns) noexcept {
  BoldConstants k;
  k.mu = mu_ns;
  k.h = std::max(h_ns, 1e-6 * mu_ns);
  const double cv = sigma_ns / mu_ns;
  k.a = 2.0 * cv * cv;
  k.b = k.a > 0 ? 8.0 * k.a * std::log(8.0 * k.a) : 0.0;
  k.ln_b = k.b > 0 ? std::log(k.b) : 0.0;
  k.c1 = k.h / (k.mu * std::numbers::ln2);
  k.c2 = std::sqrt(2.0 * std::numbers::pi) * k.c1;
  k.c3 = std::log(k.c2);
  return k;
}

/// The estimated speed (iterations per ns) of a worker running a chunk of
/// `size`: s/(s·μ + h).
[[nodiscard]] constexpr double bold_speed(const BoldConstants& k, double size) noexcept {
  return size / (size * k.mu + k.h);
}

/// How much BOLD's estimate of the work left (Nn) drops when a worker whose
/// previous chunk had `last_size` iterations (issued `since_own_ns` ago)
/// asks again, `since_last_ns` after anybody's last request, while the
/// workers' speeds summed to `speed_sum`:
///   since_last·speed_sum + s − since_own·s/(s·μ + h).
[[nodiscard]] constexpr double bold_work_done(const BoldConstants& k, double since_last_ns, double speed_sum,
                                              double last_size, double since_own_ns) noexcept {
  return since_last_ns * speed_sum + last_size - since_own_ns * last_size / (last_size * k.mu + k.h);
}

/// BOLD's chunk with `remaining` iterations unclaimed, `workers` P, the
/// estimated work left Nn (`work_left`) and the iterations not known to be
/// finished M (`unfinished`), both clamped at 0: with q = R/P (q <= 1 → 1),
/// r = max(R, Nn), t̂ = r/P, v = q/(b + q), d = R/(1 + 1/ln q − v):
/// d <= c2 → t̂; else s = a(ln d − c3)(1 + M/(rP)), w = ln(v·ln q) + ln b
/// (b > 0) or ln ln q, chunk = min(t̂, t̂ + s/2 − sqrt(s(t̂ + s/4)) + max(0, c1·w)).
/// The difference t̂ + s/2 − sqrt(·) is computed as t̂²/(t̂ + s/2 + sqrt(·)).
/// Truncated; at least 1, at most max_claim (the caller applies c).
[[nodiscard]] inline std::int64_t bold_chunk(const BoldConstants& k, std::int64_t remaining, int workers,
                                             double work_left, double unfinished) noexcept {
  const double p = workers;
  const double r_left = static_cast<double>(remaining);
  const double q = r_left / p;
  if (q <= 1.0) return 1;
  const double r = std::max(r_left, std::max(0.0, work_left));
  const double t_hat = r / p;
  const double ln_q = std::log(q);
  const double v = q / (k.b + q);
  const double d = r_left / (1.0 + 1.0 / ln_q - v);
  double chunk = t_hat;
  if (d > k.c2) {
    const double m = std::max(0.0, unfinished);
    const double s = k.a * (std::log(d) - k.c3) * (1.0 + m / (r * p));
    const double w = k.b > 0 ? std::log(v * ln_q) + k.ln_b : std::log(ln_q);
    const double spread = s > 0 ? t_hat * t_hat / (t_hat + s / 2.0 + std::sqrt(s * (t_hat + s / 4.0))) : t_hat;
    chunk = std::min(t_hat, spread + std::max(0.0, k.c1 * w));
  }
  if (!(chunk < static_cast<double>(max_claim))) return max_claim;
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(chunk));
}

}  // namespace autosched
