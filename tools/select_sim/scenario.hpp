#pragma once
/// @file
/// A simulated time-stepping loop whose per-arm cost is known: the input of
/// `autosched select-sim` and of the selector tests. Scenarios are data, one
/// text file each (share/autosched/scenarios/*.scenario), so users add their
/// own:
///
///   # comment
///   name        drift
///   description The best arm changes at half time
///   steps       500                 # default run length
///   noise       0.05                # relative spread of every cost (lognormal)
///   common-noise 0.03               # and of a factor all arms share at a step
///   workers     8                   # P, for context and chunk arms
///   iterations  262144              # N
///   cold        2 30                # the first 2 instances cost 30× (any arm)
///   outliers    0.03 8              # 3% of steps cost 8× whatever arm runs (preemption)
///   arm static  time 10             lib 30
///   arm gss     time 8 -> 14 at 0.5 lib 6       # step change at half time
///   arm awf-b   time 12 ~> 7        lib 4       # linear change over the run
///
/// A generated loop instead of per-arm times (scenario_shapes.hpp):
///   shape       band 0.08 4 100 0.37  # a heavy band that moves and swells
///   loop-time   10                    # ms of the balanced loop
///   arms        auto                  # auto's 24 arms, timed by simulation
///   arm static  factor 0.8 -> 1 at 0.5  # … times what the simulator cannot see
///   store       warm                  # report the second run, started from the first one's state
///
/// Times are milliseconds per instance, LIB is percent. Arm names are
/// portfolio arms (`gss`, `gss:16`, `ss:expert`), in the order selectors see
/// them: list Auto4OMP's 12 in its order for the expert and binary selectors.

#include <autosched/select/grammar/arm.hpp>
#include <select_sim/scenario_shapes.hpp>
#include <autosched/techniques/cost_profile.hpp>

#include <memory>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

/// A value over the run: constant, a step change at a fraction of the run, or
/// a linear change from start to end.
struct Curve {
  double start = 0;
  double end = 0;
  double at = 1.0;    ///< step change at this fraction of the run (1 = none)
  bool ramp = false;  ///< linear from start to end instead

  [[nodiscard]] double value(int step, int steps) const noexcept;
};

struct ScenarioArm {
  TechniqueSpec arm;
  Curve time_ms;
  Curve lib;
  /// Generated scenarios: the arm's simulated time is multiplied by this,
  /// for what the simulator does not see (cache affinity, an arm that suits
  /// one phase of the loop): `arm static factor 0.8`.
  Curve factor{1, 1, 1.0, false};
};

struct Scenario {
  std::string name;
  std::string description;
  int steps = 500;
  double noise = 0.05;
  /// Relative spread of a factor shared by every arm at a step (the machine
  /// was slower at that step, whatever ran): moves the per-step Oracle and
  /// every arm together.
  double common_noise = 0;
  int cold_steps = 0;  ///< instances at the start of a run that pay a cold start
  double cold_factor = 1;
  double outlier_rate = 0;  ///< share of steps hit by an interruption (every arm's cost at that step)
  double outlier_factor = 1;
  int workers = 8;
  std::int64_t iterations = 262144;
  std::vector<ScenarioArm> arms;
  /// Trace-driven scenarios (profile_scenario.hpp): the measured
  /// profile the arms' times were simulated from. A selector that asks for a
  /// profiling instance gets it, and pays `profiling_ms` for that step.
  std::optional<CostProfile> profile;
  double profiling_ms = 0;
  /// Generated scenarios: the rule, and the per-step profiles and arm times
  /// it gave for `steps` (shared: scenarios are copied per selector).
  std::optional<ShapeRule> shape;
  std::shared_ptr<const GeneratedSteps> generated;
  /// The selector runs twice, the second time warm-started from the state
  /// the first left (as a program's second run starts from the store), and
  /// the tables report the second run.
  bool warm = false;

  [[nodiscard]] Portfolio portfolio() const;
};

/// Parses a scenario; `origin` (a file name) appears in error messages.
Scenario parse_scenario(std::string_view text, std::string_view origin);

}  // namespace autosched
