#include <autosched/select/selectors/bandit/cost_bandit.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace autosched {

CostBandit::CostBandit(int arms, BanditOptions options)
    : arms_(static_cast<std::size_t>(std::max(0, arms))), options_(options), rng_(options.seed) {
  if (arms < 1) detail::throw_error("a bandit needs at least one arm, got " + std::to_string(arms));
  if (options.coverage < 1)
    detail::throw_error("a bandit's coverage is at least 1 sample per arm, got " + std::to_string(options.coverage));
}

int CostBandit::best_arm() const {
  int best = -1;
  double best_value = 0;
  for (int a = 0; a < arms(); ++a) {
    const ArmSamples& s = arms_[static_cast<std::size_t>(a)];
    if (s.stats.count == 0) continue;
    const double value = options_.best_by_min ? s.min : s.stats.mean;
    if (best < 0 || value < best_value) {
      best = a;
      best_value = value;
    }
  }
  return best;
}

bool CostBandit::sweeping() const {
  for (int a = 0; a < arms(); ++a)
    if (!covered(a)) return true;
  return false;
}

Decision CostBandit::choose(const Context&) {
  const int trial = sweep_.next(
      arms(), [this](int a) { return covered(a); }, options_.sweep_random ? &rng_ : nullptr);
  if (trial >= 0) return Decision{.arm = trial, .exploring = true};
  const int best = best_arm();
  const int arm = pick(best);
  return Decision{.arm = arm, .exploring = arm != best};
}

void CostBandit::observe(const Decision& decision, const Outcome& outcome) {
  if (decision.arm < 0 || decision.arm >= arms() || !std::isfinite(outcome.time_ns)) return;
  arms_[static_cast<std::size_t>(decision.arm)].add(outcome.time_ns);
}

namespace {

bool possible(const ArmSamples& s) {
  if (s.stats.count < 0 || s.stats.count > RunningStats::max_loaded_count) return false;
  if (s.stats.count == 0) return true;  // its other fields are reset on use
  return std::isfinite(s.stats.mean) && std::isfinite(s.stats.m2) && s.stats.m2 >= 0 && std::isfinite(s.min);
}

}  // namespace

bool CostBandit::seed(std::span<const ArmSamples> samples) {
  if (samples.size() != arms_.size()) return false;
  for (const ArmSamples& s : samples)
    if (!possible(s)) return false;
  for (std::size_t a = 0; a < arms_.size(); ++a) arms_[a] = samples[a].stats.count > 0 ? samples[a] : ArmSamples{};
  return true;
}

std::string CostBandit::save_state() const {
  if (best_arm() < 0) return {};
  std::string out(name());
  out += ' ';
  out += std::to_string(arms_.size());
  char buf[112];
  for (const ArmSamples& s : arms_) {
    std::snprintf(buf, sizeof buf, " %lld %a %a %a", static_cast<long long>(s.stats.count), s.stats.mean, s.stats.m2,
                  s.stats.count > 0 ? s.min : 0.0);
    out += buf;
  }
  return out;
}

bool CostBandit::load_state(std::string_view state) {
  const std::string text(state);
  const std::string tag(name());
  if (text.compare(0, tag.size(), tag) != 0 || text.size() == tag.size() || text[tag.size()] != ' ') return false;
  const char* p = text.c_str() + tag.size();
  char* end = nullptr;
  const long long arms = std::strtoll(p, &end, 10);
  if (end == p || arms != static_cast<long long>(arms_.size())) return false;
  p = end;
  std::vector<ArmSamples> loaded(arms_.size());
  for (ArmSamples& s : loaded) {
    errno = 0;
    s.stats.count = std::strtoll(p, &end, 10);
    if (end == p || errno == ERANGE) return false;  // beyond 64 bits: damaged
    p = end;
    double values[3];
    for (double& v : values) {
      v = std::strtod(p, &end);
      if (end == p) return false;
      p = end;
    }
    s.stats.mean = values[0];
    s.stats.m2 = values[1];
    s.min = s.stats.count > 0 ? values[2] : std::numeric_limits<double>::infinity();
  }
  while (*p == ' ') ++p;
  if (*p != '\0') return false;
  return seed(loaded);
}

std::string CostBandit::summary() const {
  if (sweeping()) {
    int covered_arms = 0;
    for (int a = 0; a < arms(); ++a) covered_arms += covered(a) ? 1 : 0;
    return "sweep " + std::to_string(covered_arms) + "/" + std::to_string(arms());
  }
  return "best " + std::to_string(best_arm());
}

}  // namespace autosched
