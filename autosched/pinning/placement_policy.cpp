#include <autosched/pinning/placement_policy.hpp>

#include <algorithm>
#include <cmath>

namespace autosched::pinning {

namespace {

using Placement = std::vector<std::size_t>;  // core index per thread

/// autopin's search (Klug et al.): measure each candidate placement for a
/// window, keep the best by mean speed, and search again when the kept
/// placement's mean speed falls below `phase` times what it scored.
/// Candidates: round-robin, compact (contiguous blocks), and round-robin
/// over all cores but one, for each core: without a PMU or a load map we do
/// not know which core is the busy one, so each is tried in turn.
class Autopin {
 public:
  /// The placement for the next period; `score` is the mean normalised speed
  /// measured over the period that just ended (NaN: none), which ran the
  /// placement returned by the previous call.
  const Placement& next(std::size_t n, std::size_t m, bool changed, double score, double elapsed, double window,
                        double phase) {
    if (changed || candidates_.empty() || n != threads_) {
      build(n, m);
      return candidates_[current_];
    }
    if (!std::isnan(score)) {
      sum_ += score;
      ++count_;
    }
    time_ += elapsed;
    if (time_ + 1e-12 < window || count_ == 0) return candidates_[current_];
    const double mean = sum_ / static_cast<double>(count_);
    sum_ = 0;
    count_ = 0;
    time_ = 0;
    if (searching_) {
      scores_.push_back(mean);
      if (++current_ < candidates_.size()) return candidates_[current_];
      current_ = static_cast<std::size_t>(std::max_element(scores_.begin(), scores_.end()) - scores_.begin());
      best_ = scores_[current_];
      searching_ = false;
    } else if (mean < phase * best_) {
      build(n, m);  // the machine changed under us: search again
    }
    return candidates_[current_];
  }

  [[nodiscard]] bool searching() const noexcept { return searching_; }

 private:
  void build(std::size_t n, std::size_t m) {
    threads_ = n;
    candidates_.clear();
    scores_.clear();
    current_ = 0;
    searching_ = true;
    sum_ = 0;
    count_ = 0;
    time_ = 0;
    auto add = [&](Placement p) {
      if (std::find(candidates_.begin(), candidates_.end(), p) == candidates_.end())
        candidates_.push_back(std::move(p));
    };
    Placement rr(n), compact(n);
    for (std::size_t i = 0; i < n; ++i) {
      rr[i] = i % m;
      compact[i] = i * m / n;
    }
    add(rr);
    add(compact);
    if (m > 1) {
      for (std::size_t avoid = 0; avoid < m; ++avoid) {
        Placement p(n);
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t k = i % (m - 1);
          p[i] = k < avoid ? k : k + 1;
        }
        add(std::move(p));
      }
    }
  }

  std::vector<Placement> candidates_;
  std::vector<double> scores_;
  std::size_t current_ = 0;
  std::size_t threads_ = 0;
  bool searching_ = true;
  double best_ = 0;
  double sum_ = 0;
  int count_ = 0;
  double time_ = 0;
};

/// learn-o1 and learn-o2: each thread's automaton learns from its utility in
/// the period that ended, then plays (samples) its next core, or with
/// `play=stable` the placement that keeps the most threads where they are.
class LearningPolicy final : public PlacementPolicy {
 public:
  LearningPolicy(bool o1, const ManagerOptions& options, Sampler& sampler)
      : o1_(o1), options_(options), sampler_(sampler) {}
  std::vector<int> choose(std::span<PolicyThread> threads, const PeriodView& period) override {
    const auto& q = options_.parameters;
    std::vector<int> choice(threads.size(), -1);
    for (std::size_t i = 0; i < threads.size(); ++i) {
      PolicyThread& t = threads[i];
      if (!std::isnan(t.speed) && t.played >= 0) {
        t.utility = o1_ ? utility_o1(t.speed) : utility_o2(t.speed, period.mean, q.gamma);
        t.strategy->observe(static_cast<std::size_t>(t.played), t.utility, q);
      }
      if (!q.stable_play) choice[i] = static_cast<int>(sampler_.sample(*t.strategy, q.lambda));
    }
    if (q.stable_play) {
      std::vector<const Strategy*> strategies;
      std::vector<int> current;
      for (const PolicyThread& t : threads) {
        strategies.push_back(t.strategy);
        current.push_back(t.pinned);
      }
      choice = stable_placement(strategies, current, q.lambda, sampler_);
    }
    return choice;
  }

 private:
  bool o1_;
  const ManagerOptions& options_;
  Sampler& sampler_;
};

/// Thread i on core i mod m; threads stay put until the set of threads changes.
class RoundRobinPolicy final : public PlacementPolicy {
 public:
  std::vector<int> choose(std::span<PolicyThread> threads, const PeriodView& period) override {
    std::vector<int> choice(threads.size(), -1);
    for (std::size_t i = 0; i < threads.size(); ++i) {
      choice[i] = period.changed || threads[i].pinned < 0 ? static_cast<int>(i % period.cores) : threads[i].pinned;
    }
    return choice;
  }
};

class AutopinPolicy final : public PlacementPolicy {
 public:
  explicit AutopinPolicy(const ManagerOptions& options) : options_(options) {}
  std::vector<int> choose(std::span<PolicyThread> threads, const PeriodView& period) override {
    std::vector<int> choice(threads.size(), -1);
    if (threads.empty()) return choice;
    const Placement& p = autopin_.next(threads.size(), period.cores, period.changed, period.mean, period.elapsed,
                                       options_.autopin_window, options_.autopin_phase);
    for (std::size_t i = 0; i < threads.size(); ++i) choice[i] = static_cast<int>(p[i]);
    return choice;
  }

 private:
  const ManagerOptions& options_;
  Autopin autopin_;
};

/// Measures and moves nothing.
class OffPolicy final : public PlacementPolicy {
 public:
  std::vector<int> choose(std::span<PolicyThread> threads, const PeriodView&) override {
    return std::vector<int>(threads.size(), -1);
  }
};

}  // namespace

std::unique_ptr<PlacementPolicy> make_placement_policy(Policy policy, const ManagerOptions& options, Sampler& sampler) {
  switch (policy) {
    case Policy::learn_o1:
    case Policy::learn_o2:
      return std::make_unique<LearningPolicy>(policy == Policy::learn_o1, options, sampler);
    case Policy::round_robin:
      return std::make_unique<RoundRobinPolicy>();
    case Policy::autopin:
      return std::make_unique<AutopinPolicy>(options);
    case Policy::off:
      break;
  }
  return std::make_unique<OffPolicy>();
}

}  // namespace autosched::pinning
