#pragma once
/// @file
/// A fixed schedule: technique + chunk parameter + technique parameters, and
/// its text form (spec/loops.md §5, technique part):
///   <technique>[,chunk=<n>|expert][,<key>=<value>...]
/// e.g. `gss`, `static,chunk=64`, `tss,chunk=expert`, `fac,mu=120,sigma=40`,
/// `wf,weights=1:1:2:2`. A bare number after the technique is read as the
/// chunk (`dynamic,4`, as OMP_SCHEDULE users write it). Technique names are
/// case-insensitive and LB4OMP spellings are accepted (`dynamic`, `fac2a`, …).

#include <autosched/techniques/catalogue.hpp>
#include <autosched/techniques/loop_shape.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace autosched {

struct Schedule {
  TechniqueId technique = TechniqueId::static_;
  std::int64_t chunk = 0;     ///< 0: the technique's default
  bool expert_chunk = false;  ///< chunk=expert: expChunk(N, P) at each instance
  TechniqueParams params;

  /// Canonical text, e.g. "gss,chunk=16".
  [[nodiscard]] std::string text() const;
  friend bool operator==(const Schedule&, const Schedule&) = default;
};

/// Parses a schedule. `source` names where the text came from, for messages
/// (e.g. "AUTOSCHED_SCHEDULE" or "LoopOptions::schedule"). Throws
/// autosched::Error naming the source, the text and what is accepted.
Schedule parse_schedule(std::string_view text, std::string_view source);

}  // namespace autosched
