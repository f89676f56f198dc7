#pragma once
/// @file
/// An arm of a loop's decision: a technique with its chunk parameter, and
/// the portfolios selectors choose from. Selectors themselves only see arm
/// indices, so tunable regions and MPI loops reuse them with other arms.

#include <autosched/techniques/catalogue.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

struct LoopArm {
  TechniqueId technique = TechniqueId::static_;
  std::int64_t chunk = 0;     ///< 0 = the technique's default
  bool expert_chunk = false;  ///< expChunk(N, P) at each instance

  /// "gss", "gss:16", "gss:expert".
  [[nodiscard]] std::string label() const;
  friend bool operator==(const LoopArm&, const LoopArm&) = default;
};

using Portfolio = std::vector<LoopArm>;

/// Auto4OMP's 12, in its order (spec/loops.md §1): static, ss, tss,
/// auto-llvm, guided-llvm (libomp's GSS), mfac2, static-steal, awf-b, awf-c,
/// awf-d, awf-e, maf. The expert and binary selectors move along this order.
Portfolio auto4omp_portfolio();

/// LB4MPI's 14: static, ss, fsc, mfsc, gss, tss, fac2, wf, awf, awf-b, awf-c,
/// awf-d, awf-e, af.
Portfolio lb4mpi_portfolio();

/// Parses one arm ("gss", "gss:16", "ss:expert"). Errors name `source` and
/// `whole` (the full value the arm came from; the arm itself when empty).
/// Throws autosched::Error.
LoopArm parse_arm(std::string_view text, std::string_view source, std::string_view whole = {});

}  // namespace autosched
