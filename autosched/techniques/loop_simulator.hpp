#pragma once
/// @file
/// The loop simulator: how long one instance of a loop would take under an
/// arm, computed instead of run. It drives the real dispensers (the objects
/// that hand chunks to threads, built by prepare_dispenser) with simulated
/// time: P virtual workers, the one that is free earliest asks next, a chunk
/// costs h (the profile's overhead) plus its body time from the CostProfile
/// divided by the worker's speed. A profile with dispatch queues (process
/// level: rank 0's counter or coordinator serves one request at a time) also
/// queues each dispatch behind the previous one for that long. `auto` ranks its arms with it, and
/// `autosched simulate` replays measured profiles at core counts this machine
/// does not have.
///
///   CostProfile profile = …;                       // measured by `profiling`
///   SimulatedInstance s = simulate_loop(profile, parse_technique_spec("gss", "arm"), {.workers = 56});
///   s.time_ns;                                     // predicted loop time
///
/// Granularity: a loop of n iterations is simulated as at most `max_units`
/// units of ⌈n / units⌉ iterations each (chunk parameters are converted to
/// units), so 30 arms of a 10^6-iteration loop take well under a
/// millisecond. Where a technique would hand out chunks smaller than a unit
/// (ss or static-steal with a chunk below the unit), each unit is charged the
/// dispatches the real chunks would cost, so the overhead of tiny chunks is
/// kept. `max_units = 0` simulates every iteration (exact; tests).

#include <autosched/techniques/catalogue.hpp>
#include <autosched/techniques/cost_profile.hpp>
#include <autosched/techniques/loop_memory.hpp>
#include <autosched/techniques/technique_spec.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace autosched {

struct LoopSimulationOptions {
  int workers = 1;  ///< P ≥ 1
  /// Relative speed of each worker (2 = twice as fast); empty: all 1.
  /// Otherwise exactly `workers` values > 0.
  std::span<const double> speeds{};
  /// Simulate at most this many units (0: every iteration). At least 16
  /// units per worker are always kept.
  std::int64_t max_units = 1024;
  /// Consecutive instances on one loop memory, the last one reported: lets
  /// the time-stepping AWF adapt its weights as it would over a run.
  int instances = 1;
};

struct SimulatedInstance {
  double time_ns = 0;              ///< loop time: the last worker's finish
  std::vector<double> finish_ns;   ///< per worker
  std::int64_t chunks = 0;         ///< dispatches, in real chunks
  TechniqueId ran = TechniqueId::static_;  ///< after substitution (fsc without a profile runs mfsc)
};

/// One loop (a profile) at one team shape, simulated under many arms: the
/// unit costs are computed once, each arm is then one pass of its chunks.
class LoopSimulator {
 public:
  /// Throws autosched::Error for an empty profile, workers < 1, or speeds of
  /// the wrong count or not > 0.
  LoopSimulator(const CostProfile& profile, const LoopSimulationOptions& options);

  [[nodiscard]] SimulatedInstance run(const TechniqueSpec& arm) const;

 private:
  const CostProfile* profile_;
  LoopSimulationOptions options_;
  std::vector<double> speed_;
  std::int64_t n_ = 0;
  std::int64_t unit_ = 1;   ///< iterations per simulated unit
  std::int64_t units_ = 0;
  std::vector<double> before_;  ///< body time of units [0, u), units_ + 1 entries
  Profile unit_profile_;        ///< mu, sigma, h per unit, for the techniques that need them
};

/// LoopSimulator(profile, options).run(arm), for one arm.
SimulatedInstance simulate_loop(const CostProfile& profile, const TechniqueSpec& arm,
                                const LoopSimulationOptions& options);

}  // namespace autosched
