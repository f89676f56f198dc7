#pragma once
/// @file
/// The portfolio: every technique's identity, spelling, source and formula.
/// This is the table behind `autosched info --techniques`, the schedule
/// parser, and the selectors' arm lists.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace autosched {

/// The 28 techniques of docs/techniques.md in that table's order, then the
/// `profiling` tool (not a scheduling technique; it measures mu, sigma, h).
enum class TechniqueId : std::uint8_t {
  static_,
  ss,
  fsc,
  mfsc,
  gss,
  guided_llvm,
  auto_llvm,
  tss,
  static_steal,
  fac,
  mfac,
  fac2,
  mfac2,
  wf,
  tap,
  bold,
  awf,
  awf_b,
  awf_c,
  awf_d,
  awf_e,
  af,
  maf,
  pls,
  tfss,
  fiss,
  viss,
  rnd,
  profiling,
};

/// Number of scheduling techniques (TechniqueId values before `profiling`).
inline constexpr int technique_count = 28;

struct TechniqueInfo {
  TechniqueId id;
  std::string_view name;     ///< user-visible spelling, e.g. "awf-b"
  std::string_view aliases;  ///< LB4OMP / OpenMP spellings, space separated
  std::string_view paper;    ///< where the technique comes from
  std::string_view formula;  ///< one line
  bool adaptive;             ///< learns from measured times while or between instances
  std::string_view needs;    ///< profile values it requires ("mu sigma h"), empty if none
  std::string_view keys;     ///< schedule keys it accepts besides `chunk`, space separated
  std::string_view chunk;    ///< what the chunk parameter c means for it
};

/// All entries, in TechniqueId order (technique_count techniques + profiling).
std::span<const TechniqueInfo> technique_catalogue() noexcept;

const TechniqueInfo& technique_info(TechniqueId id) noexcept;

/// Finds a technique by name or alias (case-insensitive).
std::optional<TechniqueId> find_technique(std::string_view name_or_alias);

}  // namespace autosched
