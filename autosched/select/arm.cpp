#include <autosched/select/arm.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

namespace autosched {

std::string LoopArm::label() const {
  std::string out(technique_info(technique).name);
  if (expert_chunk) {
    out += ":expert";
  } else if (chunk > 0) {
    out += ':';
    out += std::to_string(chunk);
  }
  return out;
}

namespace {
Portfolio from_ids(std::initializer_list<TechniqueId> ids) {
  Portfolio p;
  for (TechniqueId id : ids) p.push_back({id, 0, false});
  return p;
}
}  // namespace

Portfolio auto4omp_portfolio() {
  using T = TechniqueId;
  return from_ids({T::static_, T::ss, T::tss, T::auto_llvm, T::guided_llvm, T::mfac2, T::static_steal, T::awf_b,
                   T::awf_c, T::awf_d, T::awf_e, T::maf});
}

Portfolio lb4mpi_portfolio() {
  using T = TechniqueId;
  return from_ids({T::static_, T::ss, T::fsc, T::mfsc, T::gss, T::tss, T::fac2, T::wf, T::awf, T::awf_b, T::awf_c,
                   T::awf_d, T::awf_e, T::af});
}

LoopArm parse_arm(std::string_view text, std::string_view source, std::string_view whole) {
  if (whole.empty()) whole = text;
  const auto colon = text.find(':');
  const std::string_view name = text::trim(text.substr(0, colon));
  const auto id = find_technique(name);
  if (!id || *id == TechniqueId::profiling) {
    detail::throw_error(text::bad_value(
        source, whole, "an arm <technique>[:<chunk>|:expert], e.g. gss:16, got '" + std::string(text) + "'"));
  }
  LoopArm arm{*id, 0, false};
  if (colon != std::string_view::npos) {
    const std::string_view chunk = text::trim(text.substr(colon + 1));
    if (text::lower(chunk) == "expert") {
      arm.expert_chunk = true;
    } else if (auto v = text::to_int(chunk); v && *v >= 1) {
      arm.chunk = *v;
    } else {
      detail::throw_error(text::bad_value(
          source, whole, "a chunk after ':' that is a positive integer or 'expert', got '" + std::string(text) + "'"));
    }
  }
  return arm;
}

}  // namespace autosched
