#pragma once
/// @file
/// Parameters of autosched's own selector (`auto`) and where their defaults
/// come from: the select-sim scenarios (share/autosched/scenarios) and the
/// reasoning in docs/design/0003-auto-selector.md.

#include <cstdint>

namespace autosched {

struct AutoConfig {
  /// A trial of an arm that is not the current best is cut short once it has
  /// run `guard` × the best mean; the arm is then retired. 2: an arm half as
  /// fast as the best still completes its trial; a catastrophic one costs
  /// about three instances of the best.
  double guard = 2.0;
  /// Relative spread of loop times assumed until repeated samples measure it.
  double noise_floor = 0.03;
  /// Arms whose means are within this fraction of the best are equals: a pick
  /// among them is not counted as exploration (the choice costs nothing).
  double tie = 0.01;
  /// Change detection (Page-Hinkley / CUSUM) on the best arm's excess over
  /// its reference, in units of the measured relative spread σ: excess below
  /// `change_slack`·σ is ignored, an accumulated excess above
  /// `change_threshold`·σ re-opens exploration (the textbook pair 0.5 and 5:
  /// about ten samples to detect a one-σ shift, rare false alarms). The
  /// reference is the best arm's mean once it has `settle` samples.
  double change_slack = 0.5;
  double change_threshold = 8.0;
  /// Each sample adds at most `change_cap`·σ to the test: loop times are
  /// heavy-tailed (a preempted instance is 10σ off), and one such sample
  /// must not re-open exploration; four in a row (4 × (2 − 0.5) > 5), or a
  /// sustained shift, do.
  double change_cap = 2.0;
  int settle = 16;
  /// The first `warmup` instances of a decision point in a process pay for
  /// thread creation, first-touch page faults and cold caches, whatever the
  /// arm: they are not learned from, and a sweep trial among them is repeated.
  int warmup = 1;
  /// Once an arm has two samples, a loop time above `clip` × its mean counts
  /// as `clip` × its mean: one preempted instance (an oversubscribed node, a
  /// daemon waking up) moves the estimate a little, not by orders of
  /// magnitude, while a real slowdown still raises it step by step and trips
  /// the change test. A loop time below 1/`clip` of an arm's mean replaces
  /// its samples: they were inflated (a cold start) or the loop became faster.
  double clip = 4.0;
  /// Profile loops and rank their arms by simulation (`predict=no`: sweep
  /// every arm instead, as for tunable regions; the guard tests use it).
  bool predict = true;
  /// Prediction (loop arms with a measured CostProfile): arms whose
  /// simulated time is within `margin` of the best prediction are tried, at
  /// most `max_trials` of them, best-predicted first. The simulator's error
  /// against real runs on this machine is a few percent (docs/RESULTS.md), so
  /// 10% keeps every arm that could really be best.
  double margin = 0.10;
  int max_trials = 4;
  /// The ranking simulates a team in which one worker loses this share of
  /// its time (predict_arms_robust in select/selectors/auto/arm_ranking.hpp), as real
  /// threads do: static arms then rank behind the dynamic ones they tie with
  /// on perfect workers. 0.05: the median, doubled, of how far static fell
  /// behind the best arm on the six apps in the 2-core campaign (1–4
  /// points, P = 2 halves a slow worker's loss under dynamic scheduling).
  double jitter = 0.05;
  /// Warm start: the stored best arm runs `verify` instances; if their mean is
  /// within `match` (or 3σ/√verify) of the stored mean the loop is the one the
  /// store knows and the run exploits; otherwise it is profiled and ranked
  /// afresh (another input, another machine).
  int verify = 3;
  double match = 0.10;
  /// The first ranking in a process rests on one early instance (the first
  /// with `safe_first=false`, else the second), which may still pay for page
  /// faults, cold caches and a frequency ramp, and on a VM for a vCPU the
  /// host took away, unevenly along the loop: in 3 of 8 processes
  /// mandelbrot/L0's first instance took 1.9× the body time of its third,
  /// and its ranking put static-steal first where the third's put the
  /// guided techniques (docs/design/0005-auto-predicts.md). When the first
  /// trial runs in less than `reprofile` × its prediction, the profile was
  /// inflated: the loop is profiled once more and ranked on the lower
  /// envelope of both profiles (CostProfile::lower_envelope). Once per
  /// process; `reprofile=0` never does.
  double reprofile = 0.75;
  /// Phases (select/selectors/auto/regimes.hpp): a profile whose shape (the shares of
  /// the time along the iteration space, 32 slices) lies more than `shape`
  /// (half the L1 distance, in [0, 1]) from the current regime's is another
  /// phase of the loop, even where the arms' predictions hardly differ. The
  /// phase that ends is archived with what it learned; a later profile of an
  /// archived shape brings it back without trials; a loop that keeps
  /// changing shape settles on the arms good over every shape seen; a warm
  /// start of a loop with phases profiles first. 0.2: a front-heavy and a
  /// back-heavy ramp are 0.4 apart, two profiles of one loop on this VM
  /// (noise, a cold first instance) 0.02–0.12. `phases=no` compares
  /// predictions only and keeps no regimes (as before 2026-12-06).
  /// Trials are spaced out: after a ranking the first trial (the
  /// prediction) runs at once, the k-th exploring instance once the loop has
  /// run `patience` × k instances since the ranking, and the best measured
  /// arm runs in between. A loop of a few dozen steps then pays for the
  /// trials its length makes worth it; one of hundreds finishes them within
  /// its first 20 or so instances, as it did unspaced. A trial pays off in
  /// proportion to how long the loop will still run, and what a cold run
  /// knows of that is how long it has run: a loop that has run k instances is
  /// about as likely as not to run k more. 0: back to back.
  int patience = 4;
  bool phases = true;
  double shape = 0.2;
  /// A loop's first instance in a process may be its only one (a table
  /// build, a one-shot lookup, an initialisation): with `safe_first` it runs
  /// the arm its earlier runs' first instances say is best, guided while
  /// there are none, and the profile waits for the second instance; each
  /// run's first instance joins those records (select/selectors/auto/first_instances.hpp).
  /// A run whose best first-instance arm left its threads so far apart that
  /// balancing could save more than `once_imbalance` of its time tries the
  /// robust arms not yet recorded (guided, static-steal, static) instead. The profile's
  /// chunk-by-chunk timing cost a one-shot loop of random table lookups
  /// 10% and bought a ranking nothing used; the later runs' trials of that
  /// ranking cost up to 50% each. `first=profile` profiles the first
  /// instance (as before 2026-12-06).
  bool safe_first = true;
  double once_imbalance = 0.05;
  /// Cache affinity: static and static-steal give each thread the same
  /// iterations every instance, so a loop that touches the same data every
  /// instance finds it in that thread's cache; the simulator sees body time,
  /// not caches. On a loop whose iterations cost less than `affinity_ns`
  /// on average (a few cache lines of work each: memory-bound on any
  /// machine we know; a hydro cycle's zone loops take 1–15 ns an iteration
  /// on 2 threads, Mandelbrot's pixels 30–300), the process's first ranking
  /// tries them first where predicted within the margin and two jitters of
  /// the best. Above it the body's own work dominates and ranking on
  /// predictions stands. `affinity=0` never does.
  double affinity_ns = 25;
  /// Thompson sampling keeps the best-measured arm unless another arm's draw
  /// beats the best's draw by more than a `tie`: a gain smaller than a tie is
  /// not worth a switch. Two arms 0.3% apart whose posteriors overlap were
  /// drawn in turn for hundreds of instances (the 2026-12-01 campaign mixed
  /// 3–5 such arms on every loop), and each switch ended a batch of decisions
  /// made ahead, so a settled loop paid the cold selector every two
  /// instances. An arm with few samples (a wide posterior) still wins draws;
  /// one measured close to the best many times does not. `stick=no` draws as
  /// plain Thompson sampling.
  bool stick = true;
  std::uint64_t seed = 0x5eed;
  /// Once nothing is pending but the Thompson draw, decide and learn from a
  /// few prepared values instead of the whole arm table (AutoSelector's
  /// settled path). The decisions are those of the full path; false takes
  /// the full path every time, for the tests and benches that compare them.
  bool settled_path = true;
  /// Settled, the engine makes decisions ahead in batches and auto learns
  /// their outcomes together (Selector::ahead_batch): the cold selector is
  /// paid once a batch (3-12 µs in the apps) instead of once an instance
  /// (about 1.7 µs), at the price of learning late. A batch starts at
  /// `settled_batch` (1 to 32) and grows with the run of instances the
  /// settled best arm has kept: a loop that ran one arm for s instances
  /// learns in batches of s, up to `settled_batch_max` (at least
  /// settled_batch, at most 32). So a loop that has just settled learns
  /// within 8 instances, and one that has been steady for a long time pays
  /// the selector once per 32; what a batch delays is bounded by how long
  /// the loop had been steady. The draws are Thompson draws, which tolerate
  /// the delay. Steady means no draw explored: draws among the best arm's
  /// equals (ties) keep the run. The engine ends a batch at its first draw
  /// that explores, so what an exploration teaches is learned at once, and
  /// such a draw starts the run again. `batch=N` fixes both bounds at N
  /// (`batch=1`: no batches); `batch-max=M` sets the cap.
  int settled_batch = 8;
  int settled_batch_max = 32;
  friend bool operator==(const AutoConfig&, const AutoConfig&) = default;
};

}  // namespace autosched
