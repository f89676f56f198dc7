#include <autosched/techniques/substitution.hpp>

namespace autosched {

ProfileInputs::ProfileInputs(const TechniqueParams& p, const LoopMemory& m) noexcept
    : mu(p.mu_ns), sigma(p.sigma_ns), h(p.overhead_ns) {
  if (m.profile) {
    if (!mu) mu = m.profile->mu_ns;
    if (!sigma) sigma = m.profile->sigma_ns;
    if (!h) h = m.profile->overhead_ns;
  }
  if (mu && *mu <= 0) mu.reset();
}

Substitution substitute_for(TechniqueId requested, const ProfileInputs& in) noexcept {
  using T = TechniqueId;
  auto instead = [&](std::string_view missing, T ran) { return Substitution{requested, ran, missing}; };
  switch (requested) {
    case T::fsc:
      if (!in.sigma || !in.h) return instead("sigma and h", T::mfsc);
      break;
    case T::fac:
    case T::mfac:
      if (!in.mu || !in.sigma) return instead("mu and sigma", T::fac2);
      break;
    case T::tap:
      if (!in.mu || !in.sigma) return instead("mu and sigma", T::gss);
      break;
    case T::bold:
      if (!in.mu || !in.sigma || !in.h) return instead("mu, sigma and h", T::fac2);
      break;
    default:
      break;
  }
  return {requested, requested, {}};
}

Substitution substitute_for(TechniqueId requested, const TechniqueParams& params, const LoopMemory& memory) noexcept {
  return substitute_for(requested, ProfileInputs(params, memory));
}

std::string Substitution::reason() const {
  if (!substituted()) return {};
  return std::string(technique_info(requested).name) + " needs " + std::string(missing) +
         " (give them in the schedule, e.g. mu=120,sigma=30,h=50 in ns, or run the loop once with "
         "schedule=profiling); running " +
         std::string(technique_info(ran).name) + " instead";
}

}  // namespace autosched
