#pragma once
/// @file
/// Trace-driven select-sim scenarios: a cost profile measured on a real loop
/// (AUTOSCHED_PROFILES=<file> records one per profiling instance) replayed
/// at any worker count. Each arm's time per step is its simulated loop time
/// (techniques/loop_simulator.hpp) with lognormal noise, so every selector
/// can be compared at 20, 56 or 128 cores on the loops of this machine's
/// apps. The results are simulated; every table that shows them says so.
///
///   for (const RecordedProfile& r : read_profiles(text, "apps.tsv"))
///     Scenario s = profile_scenario(r.loop + "@56", r.profile, {.workers = 56}, auto_portfolio());

#include <autosched/select/grammar/arm.hpp>
#include <select_sim/scenario.hpp>
#include <autosched/techniques/cost_profile.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

/// One line of an AUTOSCHED_PROFILES file: `loop<TAB>P<TAB>n h block…`.
struct RecordedProfile {
  std::string loop;
  int workers = 1;  ///< P of the run that measured it
  CostProfile profile;
};

/// Every profile in `text`; blank lines and `#` comments are skipped. Throws
/// autosched::Error naming `origin` and the line on a malformed one.
std::vector<RecordedProfile> read_profiles(std::string_view text, std::string_view origin);

/// One profile per (loop, P): the block-wise mean of that loop's profiles
/// (a loop profiled at several instances), in order of first appearance.
/// Profiles of one loop with another n or block count than its first are
/// skipped (another input size is another loop for the simulator).
std::vector<RecordedProfile> average_profiles(const std::vector<RecordedProfile>& profiles);

/// Reads `path` (an AUTOSCHED_PROFILES file) and averages it; throws
/// autosched::Error naming the file when it cannot be read, is malformed or
/// holds no profile.
std::vector<RecordedProfile> load_profiles(const std::string& path);

struct ProfileScenarioOptions {
  int workers = 1;
  std::span<const double> speeds{};  ///< per worker; empty: all equal
  int steps = 200;
  /// Run-to-run spread of a step: mostly shared by every arm (the machine is
  /// slower at that step), a little each arm's own.
  double noise = 0.01;
  double common_noise = 0.03;
};

/// A scenario whose arms are `arms` with times simulated on `profile`.
/// Throws autosched::Error when the options are out of range.
Scenario profile_scenario(std::string name, const CostProfile& profile, const ProfileScenarioOptions& options,
                          const Portfolio& arms);

}  // namespace autosched
