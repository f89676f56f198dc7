#pragma once
// Upward ranks (bottom levels): a task's duration plus the longest chain
// of durations below it. List schedulers order tasks by them.
#include <autosched/dag/problem.hpp>

#include <vector>

namespace autosched::dag {

enum class RankCost {
  mean_over_processors,  ///< HEFT's w̄: the mean over every processor (so weighted by their counts)
  fastest_kind,          ///< the smallest duration over the kinds the platform has
};

/// rank(t) = cost(t) + max over successors s of rank(s). Sums in the order
/// READYS's HEFT package does, so ties compare equal the same way.
std::vector<double> upward_ranks(const Problem& problem, RankCost cost);

/// The lower bound on any schedule's makespan: the larger of the critical
/// path with every task on its fastest kind and the area bound (the
/// fractional assignment of the work to CPUs and GPUs that balances them).
struct LowerBound {
  double critical_path = 0;
  double area = 0;
  double value() const noexcept { return critical_path > area ? critical_path : area; }
};
LowerBound lower_bound(const Problem& problem);

}  // namespace autosched::dag
