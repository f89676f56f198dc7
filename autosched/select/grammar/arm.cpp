#include <autosched/select/grammar/arm.hpp>

#include <autosched/core/shared_values.hpp>

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

namespace {

/// Equal portfolios hash equal: the techniques and chunks (their parameters
/// are compared, not hashed, when two collide).
std::uint64_t portfolio_hash(const Portfolio& arms) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ arms.size();
  for (const TechniqueSpec& a : arms) {
    const std::uint64_t v = static_cast<std::uint64_t>(a.technique) << 48 ^ static_cast<std::uint64_t>(a.chunk) << 1 ^
                            static_cast<std::uint64_t>(a.expert_chunk);
    h = (h ^ v) * 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

std::shared_ptr<const SharedPortfolio> share_portfolio(const Portfolio& arms) {
  static auto* const held = new SharedValues<SharedPortfolio>();  // never destroyed: points outlive statics
  return held->share(
      portfolio_hash(arms), [&](const SharedPortfolio& p) { return p.arms == arms; },
      [&] {
        SharedPortfolio made;
        made.labels.reserve(arms.size());
        for (std::size_t i = 0; i < arms.size(); ++i) {
          made.labels.push_back(arms[i].label());
          if (i > 0) made.key += ',';
          made.key += made.labels.back();
        }
        made.arms.assign(arms.begin(), arms.end());  // no spare capacity: held as long as its points
        return made;
      });
}

}  // namespace autosched
