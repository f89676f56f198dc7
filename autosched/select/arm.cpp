#include <autosched/select/arm.hpp>

#include <initializer_list>

namespace autosched {

namespace {
Portfolio from_ids(std::initializer_list<TechniqueId> ids) {
  Portfolio p;
  for (TechniqueId id : ids) p.push_back(TechniqueSpec{id, 0, false, {}});
  return p;
}
}  // namespace

Portfolio auto4omp_portfolio() {
  using T = TechniqueId;
  return from_ids({T::static_, T::ss, T::tss, T::auto_llvm, T::guided_llvm, T::mfac2, T::static_steal, T::awf_b,
                   T::awf_c, T::awf_d, T::awf_e, T::maf});
}

Portfolio auto_portfolio() {
  Portfolio arms = auto4omp_portfolio();
  const std::size_t plain = arms.size();
  for (std::size_t i = 0; i < plain; ++i) {
    TechniqueSpec expert = arms[i];
    expert.expert_chunk = true;
    arms.push_back(expert);
  }
  return arms;
}

Portfolio lb4mpi_portfolio() {
  using T = TechniqueId;
  return from_ids({T::static_, T::ss, T::fsc, T::mfsc, T::gss, T::tss, T::fac2, T::wf, T::awf, T::awf_b, T::awf_c,
                   T::awf_d, T::awf_e, T::af});
}

int find_arm(const Portfolio& arms, const TechniqueSpec& spec) noexcept {
  for (std::size_t i = 0; i < arms.size(); ++i) {
    if (arms[i] == spec) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace autosched
