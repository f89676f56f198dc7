#pragma once
/// @file
/// A loop's schedule and its text form (spec/loops.md §5): either fixed,
///   <technique>[,chunk=<n>|expert][,<key>=<value>...]
///   e.g. `gss`, `static,chunk=64`, `tss,chunk=expert`, `fac,mu=120,sigma=40`,
///   `wf,weights=1:1:2:2` (a bare number after the technique is the chunk,
///   `dynamic,4`; names are case-insensitive and LB4OMP spellings are
///   accepted: `dynamic`, `fac2a`, …),
/// or chosen at every instance by a selector (select/selector_config.hpp),
///   auto[:<selector>][,<key>=<value>...]
///   e.g. `auto`, `auto:exhaustive`, `auto:qlearn,policy=softmax,tau=1.5`.
/// `auto` is the default.

#include <autosched/select/selector_config.hpp>
#include <autosched/techniques/catalogue.hpp>
#include <autosched/techniques/loop_shape.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace autosched {

struct Schedule {
  TechniqueId technique = TechniqueId::static_;
  std::int64_t chunk = 0;     ///< 0: the technique's default
  bool expert_chunk = false;  ///< chunk=expert: expChunk(N, P) at each instance
  TechniqueParams params;
  /// Set when a selector chooses the arm of every instance (`auto…`); the
  /// fields above are then unused.
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
