#pragma once
/// @file
/// The schedules set from the environment, for unmodified programs and
/// experiments (a schedule in code wins over all of these):
///   AUTOSCHED_SCHEDULE_FOR="<loop>=<schedule>;..."   per loop
///   AUTOSCHED_SCHEDULE=<schedule>                    every other loop
/// and, as aliases for users of LB4OMP / Auto4OMP / LB4MPI:
///   OMP_SCHEDULE=auto,N        Auto4OMP's methods: 2 random, 3 exhaustive,
///                              4 binary, 5 expert, 6–8 qlearn, 9 doubleq,
///                              10 sarsa, 11 expected-sarsa, 12 qv, 15 chunk;
///                              with expChunk, as Auto4OMP, unless
///                              KMP_Golden_Chunksize=0. Other OMP_SCHEDULE
///                              values are left to the OpenMP runtime.
///   MPI_RL_OPTION=<agent>      QLearner (8), DoubleQLearner (9), SARSA_Learner
///                              (10), ExpectedSARSA_Learner (11), QV_Learner
///                              (12), ChunkParameterSelector (15)
///   KMP_RL_<X>, LB4MPI_RL_<X>  keys of RL schedules that do not set them:
///                              ALPHA, GAMMA, EPSILON, ALPHA_DECAY, EPS_DECAY,
///                              ALPHA_MIN, EPS_MIN, TAU, INV_MULT, AVG_WINDOW,
///                              REWARD, REWARD_NUM ("r+,r0,r-"), INIT, POLICY,
///                              DECAY, AGENT_STATS; CHUNK_TYPE / SELECTOR_TYPE
///                              (the chunk selector's agent, 8–12 or a name)
/// Precedence: AUTOSCHED_SCHEDULE_FOR, AUTOSCHED_SCHEDULE, OMP_SCHEDULE,
/// MPI_RL_OPTION, then `auto`. Read once per process. A bad value is a
/// warning naming the variable, the value and what is accepted, and is
/// ignored: the computation continues.

#include <autosched/select/grammar/schedule.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace autosched {

struct ScheduleEnvironment {
  std::optional<Schedule> global;                          ///< AUTOSCHED_SCHEDULE
  std::vector<std::pair<std::string, Schedule>> per_loop;  ///< AUTOSCHED_SCHEDULE_FOR
  std::optional<Schedule> alias;                           ///< OMP_SCHEDULE or MPI_RL_OPTION
  std::vector<std::pair<std::string, std::string>> rl_keys;  ///< from KMP_RL_* / LB4MPI_RL_*
  std::vector<std::string> aliases_used;  ///< "OMP_SCHEDULE=auto,8 → auto:qlearn,chunk=expert", …
  std::vector<std::string> problems;      ///< one message per rejected value

  /// The schedule the environment gives `loop`, or nullptr: its
  /// AUTOSCHED_SCHEDULE_FOR entry by id, else by one of `aliases` (other names
  /// of the loop: an MPI loop's own name, the drop-in's file:line), else
  /// AUTOSCHED_SCHEDULE, else the alias variable.
  [[nodiscard]] const Schedule* for_loop(std::string_view loop,
                                         std::span<const std::string_view> aliases = {}) const noexcept;
  /// Marks per_loop[index] as having matched a loop (for_loop does it).
  void note_match(std::size_t index) const noexcept;
  /// AUTOSCHED_SCHEDULE_FOR's names that matched no loop so far: a typo
  /// there is otherwise silent (the loop just runs the default schedule).
  [[nodiscard]] std::vector<std::string> unmatched() const;

  /// One flag per per_loop entry, shared by copies; set by note_match.
  std::shared_ptr<std::atomic<bool>[]> matched;
  /// `text` with the RL alias keys it does not set itself (RL schedules only).
  [[nodiscard]] std::string with_rl_keys(std::string_view text) const;
};

/// Interprets the variables `get` returns (nullopt = unset). Never throws for
/// bad values: they are collected in `problems`.
using EnvironmentLookup = std::function<std::optional<std::string>(const char*)>;
ScheduleEnvironment parse_schedule_environment(const EnvironmentLookup& get);

/// This process's environment, read (and its problems warned about) once.
const ScheduleEnvironment& schedule_environment();

/// OMP_SCHEDULE as the OpenMP drop-in reads it for schedule(runtime) loops:
/// any technique or selector of the grammar, with OpenMP's "kind[,chunk]"
/// and its monotonic modifiers accepted ("dynamic,4" is ss with chunk 4,
/// "nonmonotonic:guided" gss). `auto,N` is the Auto4OMP alias, which
/// parse_schedule_environment handles: no schedule here then. The loop
/// runtime and the MPI front-end read only that alias.
struct OmpScheduleReading {
  std::string kind;  ///< lower-case kind without modifiers ("dynamic")
  long chunk = 0;    ///< the chunk after the comma, 0 without one
  std::optional<Schedule> schedule;  ///< what the drop-in runs; nullopt: the alias, or a problem
  std::string problem;               ///< why the value is not a schedule, or empty
};
OmpScheduleReading read_omp_schedule(std::string_view value, bool alias);

/// At the exit of a process that ran loops: a warning naming each
/// AUTOSCHED_SCHEDULE_FOR entry that matched none of them.
void warn_unmatched_schedule_for();

namespace detail {
/// Reads the variables again (tests that change them with setenv).
void reload_schedule_environment();
/// Incremented by every reload, so that loops re-resolve their schedule.
std::uint64_t schedule_environment_generation() noexcept;
}  // namespace detail

}  // namespace autosched
