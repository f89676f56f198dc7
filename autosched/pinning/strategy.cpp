#include <autosched/pinning/strategy.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace autosched::pinning {

namespace {

std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

/// `ok` or the standard message "pinning <name>=<value>: expected <range>".
void require(bool ok, const char* name, double value, const char* range) {
  if (!ok || !std::isfinite(value))
    detail::throw_error(text::bad_value(std::string("pinning ") + name, number(value), range));
}

}  // namespace

void Parameters::validate() const {
  require(eps > 0 && eps <= 1, "eps", eps, "a number in (0, 1]");
  require(lambda >= 0 && lambda <= 1, "lambda", lambda, "a number in [0, 1]");
  require(nu > 0 && nu <= 1, "nu", nu, "a number in (0, 1]");
  require(gamma >= 0 && gamma <= 1e6, "gamma", gamma, "a number in [0, 1e6]");
  require(h > 0 && h <= 1e6, "h", h, "a number in (0, 1e6]");
  require(period >= 0.001 && period <= 3600, "period", period, "a number of seconds in [0.001, 3600]");
  require(initial_weight >= 0 && initial_weight <= 1, "initial_weight", initial_weight, "a number in [0, 1]");
}

Strategy::Strategy(std::size_t cores, std::size_t thread_index, bool uniform, double initial_weight) {
  if (cores == 0) detail::throw_error("pinning: a strategy needs at least one allowed core");
  if (uniform || cores == 1) {
    sigma_.assign(cores, 1.0 / static_cast<double>(cores));
    return;
  }
  const double rest = (1.0 - initial_weight) / static_cast<double>(cores - 1);
  sigma_.assign(cores, rest);
  sigma_[thread_index % cores] = initial_weight;
}

std::size_t Strategy::most_likely() const noexcept {
  return static_cast<std::size_t>(std::max_element(sigma_.begin(), sigma_.end()) - sigma_.begin());
}

void Strategy::observe(std::size_t played, double utility, const Parameters& p) {
  AUTOSCHED_ASSERT(played < sigma_.size());
  if (!std::isfinite(utility)) return;  // a broken sample must not poison the vector
  if (!has_average_) {
    average_ = utility;
    has_average_ = true;
  } else {
    average_ += p.nu * (utility - average_);
  }
  if (!(average_ > 0)) return;
  double phi = 1.0;
  if (utility < threshold_fraction * average_) phi = std::max(p.h, 1.0 + (utility - average_) / p.h);
  // k is the fraction of the way sigma moves towards the vertex e_a. Above 1
  // (a sample far above the average) it would overshoot the vertex and make
  // the other entries negative; the vertex itself is the furthest the rule can
  // sensibly go, so k is capped there.
  const double k = std::min(1.0, p.eps / average_ * utility * phi);
  for (std::size_t j = 0; j < sigma_.size(); ++j) sigma_[j] += k * ((j == played ? 1.0 : 0.0) - sigma_[j]);
  project();
}

void Strategy::reset_uniform() noexcept {
  std::fill(sigma_.begin(), sigma_.end(), 1.0 / static_cast<double>(sigma_.size()));
}

void Strategy::project() noexcept {
  // The update preserves the sum exactly in real arithmetic; rounding, and a
  // negative k from a negative O2 utility, can leave entries slightly (or, for
  // negative k, clearly) below zero. Clip and renormalise so sampling always
  // sees a distribution.
  for (double& s : sigma_) s = std::max(0.0, s);
  const double sum = std::accumulate(sigma_.begin(), sigma_.end(), 0.0);
  if (!(sum > 0)) {
    reset_uniform();
    return;
  }
  for (double& s : sigma_) s /= sum;
}

std::size_t Sampler::uniform(std::size_t n) {
  AUTOSCHED_ASSERT(n > 0);
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  return pick(engine_);
}

std::size_t Sampler::sample(const Strategy& s, double lambda) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  if (unit(engine_) < lambda) return uniform(s.cores());
  const auto p = s.probabilities();
  const double r = unit(engine_);
  double cumulative = 0.0;
  for (std::size_t j = 0; j < p.size(); ++j) {
    cumulative += p[j];
    if (r < cumulative) return j;
  }
  // r lies in the rounding gap above the last cumulative sum: the last core
  // with positive probability (never one the strategy excludes).
  for (std::size_t j = p.size(); j-- > 0;)
    if (p[j] > 0) return j;
  return p.size() - 1;
}

bool Sampler::chance(double p) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  return unit(engine_) < p;
}

std::vector<int> stable_placement(const std::vector<const Strategy*>& strategies, const std::vector<int>& current,
                                  double lambda, Sampler& sampler) {
  if (current.size() != strategies.size())
    detail::throw_error("pinning: stable_placement needs one current core per strategy");
  const std::size_t n = strategies.size();
  std::vector<int> next(n, -1);
  std::size_t cores = 0;
  for (const Strategy* s : strategies) cores = std::max(cores, s->cores());
  std::vector<std::size_t> load(cores, 0);  // threads given each core so far
  auto give = [&](std::size_t i, std::size_t core) {
    ++load[core];
    next[i] = static_cast<int>(core);
  };
  // Threads on a core that is still ranked first stay (ties must not shuffle
  // them); the others, then, take the least crowded of their first-ranked
  // cores, so that uniform vectors (after a reset) spread new threads out.
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = strategies[i]->probabilities();
      const double best = *std::max_element(p.begin(), p.end());
      const int now = current[i];
      const bool stays = now >= 0 && static_cast<std::size_t>(now) < p.size() && p[static_cast<std::size_t>(now)] >= best;
      if (pass == 0 && stays) give(i, static_cast<std::size_t>(now));
      if (pass == 1 && !stays) {
        std::size_t pick = p.size();
        for (std::size_t c = 0; c < p.size(); ++c)
          if (p[c] >= best && (pick == p.size() || load[c] < load[pick])) pick = c;
        give(i, pick);
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t m = strategies[i]->cores();
    if (m < 2 || !sampler.chance(lambda)) continue;
    // A core other than this thread's, uniformly.
    std::size_t target = sampler.uniform(m - 1);
    if (static_cast<int>(target) >= next[i]) ++target;
    std::vector<std::size_t> there;
    for (std::size_t j = 0; j < n; ++j)
      if (j != i && next[j] == static_cast<int>(target)) there.push_back(j);
    if (!there.empty()) next[there[sampler.uniform(there.size())]] = next[i];
    next[i] = static_cast<int>(target);
  }
  return next;
}

}  // namespace autosched::pinning
