#pragma once
/// @file
/// Which technique runs when the one asked for cannot: fsc, fac, mfac, tap and
/// bold need a profile (mu, sigma, h) from the schedule's parameters or from
/// the loop's `profiling` output. Without it
///   fsc → mfsc,   fac, mfac, bold → fac2,   tap → gss
/// (each the same family without the profile). The substitution is a choice
/// the caller makes visible: it records both techniques and credits the
/// selector's arm for what ran, not for what was asked.
///
///   const Substitution s = substitute_for(spec.technique, spec.params, memory);
///   if (s.substituted()) warn(s.reason());

#include <autosched/techniques/catalogue.hpp>
#include <autosched/techniques/loop_memory.hpp>
#include <autosched/techniques/loop_shape.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace autosched {

/// mu, sigma, h as a technique sees them: the schedule's parameters, else the
/// loop's profile; a mu <= 0 counts as missing (every formula divides by it).
struct ProfileInputs {
  std::optional<double> mu, sigma, h;
  ProfileInputs(const TechniqueParams& params, const LoopMemory& memory) noexcept;
};

struct Substitution {
  TechniqueId requested = TechniqueId::static_;
  TechniqueId ran = TechniqueId::static_;  ///< == requested unless a profile is missing
  std::string_view missing;                ///< the inputs that were missing ("mu and sigma"); empty if none

  [[nodiscard]] bool substituted() const noexcept { return ran != requested; }
  /// Why `ran` differs from `requested`, with how to fix it; empty if it does not.
  [[nodiscard]] std::string reason() const;
};

/// The technique that runs for `requested` given these parameters and this
/// loop's memory. Pure: the same inputs give the same answer.
[[nodiscard]] Substitution substitute_for(TechniqueId requested, const ProfileInputs& inputs) noexcept;
[[nodiscard]] Substitution substitute_for(TechniqueId requested, const TechniqueParams& params,
                                          const LoopMemory& memory) noexcept;

}  // namespace autosched
