#pragma once
/// @file
/// TechniqueSpec: a technique with its chunk parameter and its parameters, the
/// one value behind a fixed schedule, an arm of a portfolio, and what a loop
/// instance asked for and ran. One grammar with two spellings of the chunk
/// (docs/loops.md, "Schedules"):
///   <technique>[:<n>|:expert][,chunk=<n>|expert][,<key>=<value>...]
///   full:     gss,chunk=16   tss,chunk=expert   fac,mu=120,sigma=40   wf,weights=1:1:2:2
///   compact:  gss:16         ss:expert          (inside comma-separated lists: portfolio=static,gss:16)
/// A bare number right after the technique is the chunk (`dynamic,4`, as in
/// OMP_SCHEDULE). Names are case-insensitive and LB4OMP's spellings are
/// accepted (`dynamic`, `fac2a`, …). Each key at most once; `gss:16,chunk=8`
/// gives the chunk twice and is rejected.

#include <autosched/techniques/catalogue.hpp>
#include <autosched/techniques/exp_chunk.hpp>
#include <autosched/techniques/loop_shape.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace autosched {

struct TechniqueSpec {
  TechniqueId technique = TechniqueId::static_;
  std::int64_t chunk = 0;     ///< 0: the technique's default
  bool expert_chunk = false;  ///< chunk=expert: expChunk(N, P) at each instance
  TechniqueParams params;     ///< the `<key>=<value>` part

  /// The full spelling, canonical: "gss,chunk=16", "fac,mu=120,sigma=40".
  /// parse_technique_spec(text()) == *this.
  [[nodiscard]] std::string text() const;
  /// The compact spelling of technique and chunk: "gss", "gss:16",
  /// "gss:expert" (parameters are not shown). Names an arm in traces and logs.
  [[nodiscard]] std::string label() const;
  /// The chunk parameter an instance of n iterations on p workers runs with:
  /// expChunk(n, p) for chunk=expert, else `chunk`.
  [[nodiscard]] std::int64_t chunk_for(std::int64_t n, int p) const noexcept {
    return expert_chunk ? exp_chunk(n, p) : chunk;
  }
  friend bool operator==(const TechniqueSpec&, const TechniqueSpec&) = default;
};

/// Parses either spelling. `source` names where the text came from and
/// `whole` the full setting it is part of (the text itself when empty), e.g.
/// source "AUTOSCHED_SCHEDULE" and whole "auto,portfolio=static,gss:16" for the
/// arm "gss:16". Throws autosched::Error: "<source>=<whole>: expected …",
/// naming the offending value and what is accepted.
TechniqueSpec parse_technique_spec(std::string_view text, std::string_view source, std::string_view whole = {});

/// "static, ss, fsc, …": every technique's name, for messages.
std::string technique_names();

}  // namespace autosched
