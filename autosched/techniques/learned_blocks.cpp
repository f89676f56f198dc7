#include <autosched/techniques/learned_blocks.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace autosched {

BlockBounds even_blocks(std::int64_t n, int p) {
  BlockBounds b(static_cast<std::size_t>(p) + 1, 0);
  const std::int64_t small = n / p, extras = n % p;
  for (int t = 0; t < p; ++t) b[t + 1] = b[t] + small + (t < extras ? 1 : 0);
  return b;
}

BlockBounds equal_cost_blocks(const BlockBounds& ran, std::span<const double> seconds) {
  const std::size_t p = seconds.size();
  if (p == 0 || ran.size() != p + 1) return ran;
  // Cost per iteration of each block; an empty block borrows the nearest
  // non-empty one's (it ran nothing, so says nothing of its range).
  std::vector<double> density(p, -1.0);
  for (std::size_t t = 0; t < p; ++t) {
    const std::int64_t len = ran[t + 1] - ran[t];
    if (len > 0) density[t] = std::max(seconds[t], 0.0) / static_cast<double>(len);
  }
  for (std::size_t t = 0; t < p; ++t) {
    if (density[t] >= 0) continue;
    for (std::size_t d = 1; d < p && density[t] < 0; ++d) {
      if (t >= d && density[t - d] >= 0) density[t] = density[t - d];
      else if (t + d < p && density[t + d] >= 0) density[t] = density[t + d];
    }
    if (density[t] < 0) return ran;  // no block ran anything
  }
  double total = 0;
  for (std::size_t t = 0; t < p; ++t) total += density[t] * static_cast<double>(ran[t + 1] - ran[t]);
  if (!(total > 0)) return ran;
  BlockBounds out(p + 1, 0);
  out[p] = ran[p];
  std::size_t t = 0;
  double before = 0;  // cost of the blocks left of block t
  for (std::size_t k = 1; k < p; ++k) {
    const double target = total * static_cast<double>(k) / static_cast<double>(p);
    while (t + 1 < p && before + density[t] * static_cast<double>(ran[t + 1] - ran[t]) < target) {
      before += density[t] * static_cast<double>(ran[t + 1] - ran[t]);
      ++t;
    }
    double at = static_cast<double>(ran[t]);
    if (density[t] > 0) at += (target - before) / density[t];
    out[k] = std::clamp(static_cast<std::int64_t>(std::llround(at)), out[k - 1], ran[p]);
  }
  return out;
}

double block_imbalance(std::span<const double> seconds) {
  if (seconds.empty()) return 0;
  const double max = *std::max_element(seconds.begin(), seconds.end());
  if (!(max > 0)) return 0;
  const double mean = std::accumulate(seconds.begin(), seconds.end(), 0.0) / static_cast<double>(seconds.size());
  return 1.0 - mean / max;
}

BlockLearner::BlockLearner(std::int64_t n, int p, Options options) : n_(n), p_(p), options_(options) {}

std::optional<BlockBounds> BlockLearner::next() const {
  if (phase_ == Phase::learning || phase_ == Phase::settled) return bounds_;
  return std::nullopt;
}

double BlockLearner::even_seconds() const {
  if (even_makespans_.empty()) return 0;
  std::vector<double> v = even_makespans_;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

namespace {
constexpr std::size_t max_even_kept = 15;

/// `from` moved the share `damping` of the way to `to`, kept ascending.
BlockBounds damped(const BlockBounds& from, const BlockBounds& to, double damping) {
  BlockBounds out = to;
  for (std::size_t k = 1; k + 1 < out.size(); ++k) {
    const double moved = static_cast<double>(from[k]) + damping * static_cast<double>(to[k] - from[k]);
    out[k] = std::clamp(static_cast<std::int64_t>(std::llround(moved)), out[k - 1], out.back());
  }
  return out;
}
}  // namespace

void BlockLearner::observe(const BlockBounds& ran, bool runtime_split, std::span<const double> seconds) {
  if (seconds.size() != static_cast<std::size_t>(p_) || ran.size() != seconds.size() + 1) return;
  ++instances_;
  const double makespan = *std::max_element(seconds.begin(), seconds.end());
  const double imbalance = block_imbalance(seconds);
  if (runtime_split) {
    // The reference is the first instances' median: a loop that stays on
    // the even split must not grow the list with every instance.
    if (even_makespans_.size() < max_even_kept) even_makespans_.push_back(makespan);
    // Each thread's fastest even instance: a thread that lost its core for a
    // while measured the wait, not its block (preemption only adds time).
    if (even_thread_seconds_.empty()) even_thread_seconds_.assign(seconds.begin(), seconds.end());
    for (std::size_t t = 0; t < seconds.size(); ++t)
      even_thread_seconds_[t] = std::min(even_thread_seconds_[t], seconds[t]);
    even_ran_ = ran;
    // A clearly imbalanced loop need not measure the even split twice: each
    // even instance costs it what learning would save.
    const bool clear = block_imbalance(even_thread_seconds_) > options_.clear_imbalance;
    const int wanted = stored_.empty() && !clear ? options_.even_instances : 1;
    if (phase_ != Phase::measuring_even || static_cast<int>(even_makespans_.size()) < wanted) return;
    if (!stored_.empty()) {  // a warm start: the stored partition, now that even is measured
      bounds_ = stored_;
      stored_.clear();
      phase_ = Phase::learning;
      return;
    }
    if (block_imbalance(even_thread_seconds_) < options_.even_band || even_seconds() < options_.min_seconds) {
      // Balanced already, or so short that a clock read is a good part of
      // it: the runtime's split it is.
      phase_ = Phase::even;
      return;
    }
    // The first step is taken whole: the even split's fastest instances are
    // the best-measured estimate there will be.
    bounds_ = equal_cost_blocks(even_ran_, even_thread_seconds_);
    phase_ = Phase::learning;
    return;
  }
  if (phase_ != Phase::learning && phase_ != Phase::settled) return;
  ++learned_instances_;
  learned_seconds_ += makespan;
  // The guard: learned partitions slower than the even split measured in
  // this process, guard_strikes instances in a row, end learning in this
  // process.
  const double even = even_seconds();
  slower_in_a_row_ = even > 0 && makespan > even ? slower_in_a_row_ + 1 : 0;
  if (slower_in_a_row_ >= options_.guard_strikes) {
    phase_ = Phase::even;
    guarded_ = true;
    return;
  }
  if (phase_ == Phase::settled) {
    // Drift: a settled partition clearly imbalanced twice in a row learns
    // again (once is a thread that lost its core for a moment).
    drifting_in_a_row_ = imbalance > options_.drift_band ? drifting_in_a_row_ + 1 : 0;
    if (drifting_in_a_row_ >= 2) {
      phase_ = Phase::learning;
      balanced_in_a_row_ = 0;
      drifting_in_a_row_ = 0;
      bounds_ = damped(ran, equal_cost_blocks(ran, seconds), options_.damping);
    }
    return;
  }
  if (imbalance < options_.dead_band) {
    // Within the dead band the partition stays: moving it for noise would
    // cost the cache affinity that a fixed partition keeps.
    if (++balanced_in_a_row_ >= options_.settle_after) phase_ = Phase::settled;
    return;
  }
  balanced_in_a_row_ = 0;
  bounds_ = damped(ran, equal_cost_blocks(ran, seconds), options_.damping);
}

const char* to_string(BlockLearner::Phase phase) noexcept {
  switch (phase) {
    case BlockLearner::Phase::measuring_even: return "measuring";
    case BlockLearner::Phase::learning: return "learning";
    case BlockLearner::Phase::settled: return "settled";
    case BlockLearner::Phase::even: return "even";
  }
  return "?";
}

std::string BlockLearner::save() const {
  std::ostringstream out;
  const Phase kept = guarded_ ? Phase::measuring_even : phase_;
  out << "blocks v1 " << to_string(kept) << ' ' << std::llround(even_seconds() * 1e9);
  const BlockBounds& b = bounds_.empty() ? even_blocks(n_, p_) : bounds_;
  for (std::int64_t x : b) out << ' ' << x;
  return out.str();
}

bool BlockLearner::resume(const std::string& text) {
  std::istringstream in(text);
  std::string word, version, phase;
  long long even_ns = 0;
  if (!(in >> word >> version >> phase >> even_ns) || word != "blocks" || version != "v1") return false;
  BlockBounds b;
  for (long long x; in >> x;) b.push_back(x);
  if (b.size() != static_cast<std::size_t>(p_) + 1 || b.front() != 0 || b.back() != n_ ||
      !std::is_sorted(b.begin(), b.end()))
    return false;
  if (phase == "even") {
    phase_ = Phase::even;
  } else if (phase == "learning" || phase == "settled") {
    stored_ = std::move(b);  // taken up after one even instance of this process
  } else if (phase != "measuring") {
    return false;
  }
  resumed_ = true;
  return true;
}

}  // namespace autosched
