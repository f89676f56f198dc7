#pragma once
/// @file
/// A loop's schedule and its text form (docs/loops.md, "Schedules"): either fixed, a
/// TechniqueSpec in its full spelling (techniques/technique_spec.hpp),
///   <technique>[,chunk=<n>|expert][,<key>=<value>...]
///   e.g. `gss`, `static,chunk=64`, `tss,chunk=expert`, `fac,mu=120,sigma=40`,
/// or chosen at every instance by a selector (select/grammar/selector_config.hpp),
///   auto[:<selector>][,<key>=<value>...]
///   e.g. `auto`, `auto:exhaustive`, `auto:qlearn,policy=softmax,tau=1.5`.
/// `auto` is the default. Configuration shared by every front-end (loops,
/// the OpenMP drop-in, MPI), hence here and not in one of them.

#include <autosched/select/grammar/selector_config.hpp>
#include <autosched/techniques/technique_spec.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace autosched {

struct Schedule {
  /// The technique of every instance; unused when `selection` is set.
  TechniqueSpec fixed;
  /// Set when a selector chooses the arm of every instance (`auto…`).
  std::optional<SelectorConfig> selection;

  /// Canonical text, e.g. "gss,chunk=16", or the selector text as written.
  [[nodiscard]] std::string text() const;
  friend bool operator==(const Schedule&, const Schedule&) = default;
};

/// The schedule of a loop nobody configured: `auto`.
const Schedule& default_schedule();

/// Parses a schedule. `source` names where the text came from, for messages
/// (e.g. "AUTOSCHED_SCHEDULE" or "LoopOptions::schedule"). Throws
/// autosched::Error naming the source, the text and what is accepted.
Schedule parse_schedule(std::string_view text, std::string_view source);

}  // namespace autosched
