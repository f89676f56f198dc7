#pragma once
/// @file
/// The per-thread learning automaton of the pinning manager (Chasparis,
/// Rossbory, Janjic, Euro-Par 2017; reconstructed in
/// the dynamic-pinning paper). Each managed thread keeps a
/// probability vector sigma over the m allowed cores. After every period the
/// core it ran on, a, is reinforced by the utility u it earned there:
///
///   u_bar  <- u_bar + nu * (u - u_bar)                (first sample: u_bar = u)
///   sigma  <- sigma + (eps / u_bar) * u * phi * (e_a - sigma)
///   phi    =  1                          when u >= 0.98 * u_bar
///           = max(h, 1 + (u - u_bar)/h)  otherwise
///
/// and the next core is drawn from sigma, except that with probability lambda
/// it is drawn uniformly (the perturbation that keeps every core explored).
/// Dividing eps by the running average makes the step independent of the
/// unit speeds are measured in (heartbeats/s, CPU share, instructions/s).
///
/// Everything here is pure and deterministic given a seed: the manager owns
/// the threads, the clock and the system calls.

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace autosched::pinning {

/// Learning parameters. The defaults are the values the authors shipped with
/// their scheduler configuration (eps, lambda, nu, h) and used in the logged
/// ACO experiments (gamma); the period is longer than their 0.025 s because
/// CPU-time shares over a few scheduler ticks are too noisy to learn from
/// (the dynamic-pinning paper).
struct Parameters {
  double eps = 0.05;     ///< reinforcement step, in (0, 1]
  double lambda = 0.02;  ///< probability of a uniform exploratory move, in [0, 1]
  double nu = 0.05;      ///< step of the running average of the utility, in (0, 1]
  double gamma = 0.02;   ///< weight of the variance penalty in O2, in [0, 1e6]
  double h = 1.0;        ///< below-average damping (h = 1: none; small h: almost ignore drops), in (0, 1e6]
  double period = 0.1;   ///< seconds between two decisions, in [0.001, 3600]
  /// Initial mass on each thread's round-robin core (thread i -> core i mod m),
  /// the rest spread evenly over the other cores; in [0, 1].
  double initial_weight = 0.98;
  bool uniform_start = false;  ///< start from the uniform vector instead
  /// How the next placement is drawn from the strategies. false (`play=sample`,
  /// the paper's rule): every thread draws its core from its own vector each
  /// period, so even settled vectors put 4 + 2 threads on 2 cores now and then.
  /// true (`play=stable`): see stable_placement().
  bool stable_play = false;

  /// Throws autosched::Error naming the first bad value and its accepted range.
  void validate() const;
};

/// A sample counts as "not worse than usual" at or above this fraction of the
/// running average; below it the increment is scaled by phi. The authors'
/// constant; not a user option.
inline constexpr double threshold_fraction = 0.98;

/// O1, maximise the average speed: the utility is the speed itself.
[[nodiscard]] inline double utility_o1(double speed) noexcept { return speed; }

/// O2, balanced speed: speed - gamma * (speed - mean)^2, where `mean` is the
/// mean speed of the active threads in the same period. Penalises threads
/// far from the others, which favours placements where no thread starves.
[[nodiscard]] inline double utility_o2(double speed, double mean, double gamma) noexcept {
  const double d = speed - mean;
  return speed - gamma * d * d;
}

/// One thread's strategy vector over the allowed cores (by index 0..m-1 into
/// the manager's allowed-core list, not by CPU number) and its running
/// average utility.
class Strategy {
 public:
  /// m = `cores` >= 1. Starts with `initial_weight` on core `thread_index mod m`
  /// (the rest spread evenly), or uniform when `uniform`; with m = 1 the only
  /// core has probability 1.
  Strategy(std::size_t cores, std::size_t thread_index, bool uniform = false, double initial_weight = 0.98);
  /// The same, taking the start from `p`.
  Strategy(std::size_t cores, std::size_t thread_index, const Parameters& p)
      : Strategy(cores, thread_index, p.uniform_start, p.initial_weight) {}

  [[nodiscard]] std::size_t cores() const noexcept { return sigma_.size(); }
  [[nodiscard]] std::span<const double> probabilities() const noexcept { return sigma_; }
  [[nodiscard]] double probability(std::size_t core) const { return sigma_.at(core); }
  /// The index of the largest probability (lowest index on ties).
  [[nodiscard]] std::size_t most_likely() const noexcept;

  /// Running average of the utility; 0 until the first observe().
  [[nodiscard]] double running_average() const noexcept { return average_; }
  [[nodiscard]] bool has_average() const noexcept { return has_average_; }

  /// Learns from one period: the thread ran on core index `played` and earned
  /// `utility`. Updates the running average first (the first sample
  /// initialises it), then the vector with the rule in the file comment.
  /// When the running average is not positive (a thread that made no
  /// progress at all, or O2 penalties larger than the speed) there is no
  /// scale to normalise by, and the vector is left alone.
  void observe(std::size_t played, double utility, const Parameters& p);

  /// Forgets the learned vector (uniform over the cores); the running average
  /// stays, since it describes the thread, not the placement.
  void reset_uniform() noexcept;

  /// Forgets the running average (the next sample initialises it again): for
  /// a thread whose speed changes unit, e.g. from CPU share to heartbeats.
  void forget_average() noexcept {
    average_ = 0.0;
    has_average_ = false;
  }

 private:
  void project() noexcept;

  std::vector<double> sigma_;
  double average_ = 0.0;
  bool has_average_ = false;
};

/// Draws cores from strategies: with probability lambda a uniformly chosen
/// core, otherwise a core drawn from sigma. Exact probabilities (a 64-bit
/// Mersenne twister and real-valued draws, not a percent grid as in the
/// authors' code); the same seed gives the same sequence.
class Sampler {
 public:
  explicit Sampler(std::uint64_t seed = 1) : engine_(seed) {}
  [[nodiscard]] std::size_t sample(const Strategy& s, double lambda);
  /// A uniform index in [0, n), n >= 1.
  [[nodiscard]] std::size_t uniform(std::size_t n);
  /// True with probability p.
  [[nodiscard]] bool chance(double p);

 private:
  std::mt19937_64 engine_;
};

/// The next cores under `play=stable`: each thread plays the core its vector
/// ranks first (its current core while that one is among the first), and
/// explores, with probability lambda, by trading places with a random thread
/// of another core (or moving there if that core holds none). Exploring thus
/// never changes how many threads a core holds; only learning does, when a
/// vector's first core changes. Why: a barrier-coupled team runs at the pace
/// of its most crowded core, and independent draws crowd one core in about a
/// fifth of the periods even with settled vectors (docs/RESULTS.md, thread
/// pinning). `current[i]` is thread i's core index (-1: not placed yet);
/// returns one core index per strategy.
[[nodiscard]] std::vector<int> stable_placement(const std::vector<const Strategy*>& strategies,
                                                const std::vector<int>& current, double lambda, Sampler& sampler);

}  // namespace autosched::pinning
