#pragma once
/// @file
/// The arms of a loop's decision and the portfolios selectors choose from.
/// An arm is a TechniqueSpec (techniques/technique_spec.hpp), written in
/// lists in its compact spelling (`gss:16`, `ss:expert`). Selectors only see
/// arm indices, so tunable regions and MPI loops reuse them with other arms.

#include <autosched/techniques/technique_spec.hpp>

#include <memory>
#include <string>
#include <vector>

namespace autosched {

using Portfolio = std::vector<TechniqueSpec>;

/// Auto4OMP's 12, in its order (docs/techniques.md): static, ss, tss,
/// auto-llvm, guided-llvm (libomp's GSS), mfac2, static-steal, awf-b, awf-c,
/// awf-d, awf-e, maf. The expert and binary selectors move along this order.
Portfolio auto4omp_portfolio();

/// `auto`'s own: Auto4OMP's 12 at their default chunk, then the same 12 with
/// expChunk (the campaign's 24 Oracle arms). `auto` predicts them all by
/// simulation and runs only the promising few, so a wider portfolio costs it
/// a microsecond-scale ranking, not trials.
Portfolio auto_portfolio();

/// LB4MPI's 14: static, ss, fsc, mfsc, gss, tss, fac2, wf, awf, awf-b, awf-c,
/// awf-d, awf-e, af.
Portfolio lb4mpi_portfolio();

/// The index of the arm equal to `spec` in `arms`, or -1. The driver credits
/// the arm that ran: when substitute_for() replaced the chosen technique,
///   find_arm(arms, {ran, chosen.chunk, chosen.expert_chunk, chosen.params})
/// is the arm to credit, if the portfolio has it.
[[nodiscard]] int find_arm(const Portfolio& arms, const TechniqueSpec& spec) noexcept;

/// A portfolio held once for every decision point with the same arms: a
/// program with 10^4 loop names keeps one copy of `auto`'s 24 arms (3.5 KB),
/// not one per loop and a second in its selector. The labels are made here
/// once, so that teaching from them allocates nothing later.
struct SharedPortfolio {
  Portfolio arms;
  std::vector<std::string> labels;  ///< arms[i].label()
  std::string key;                  ///< the labels, comma separated (the store's key)
};

/// The shared copy of `arms`: the one already held by a live decision
/// point when the arms are equal, else a new one. Thread-safe.
[[nodiscard]] std::shared_ptr<const SharedPortfolio> share_portfolio(const Portfolio& arms);

}  // namespace autosched
