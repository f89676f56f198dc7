#pragma once
/// @file
/// PISOLVER's iteration, shared by the thread-level app (main.cpp) and the
/// MPI app (pisolver_mpi.cpp): the midpoint-rule term of 4 / (1 + x²) on
/// [0, 1] and the extra arithmetic that gives an iteration its cost.

#include <cstdint>

namespace autosched::apps::pisolver {

/// The midpoint x of interval `i` of `n` (width h = 1/n).
inline double midpoint(std::int64_t i, double h) noexcept { return (static_cast<double>(i) + 0.5) * h; }

/// Interval i's term of the sum whose h-multiple approximates π.
inline double term(double x) noexcept { return 4.0 / (1.0 + x * x); }

/// `units` dependent multiply-adds from x: a chain the compiler must run in
/// order, so an iteration's cost is proportional to `units`. The caller
/// keeps the result (summed into a sink) so that the chain is not removed.
inline double burn(double x, long units) noexcept {
  double y = x;
  for (long k = 0; k < units; ++k) y = y * 0.999999 + 1e-7;
  return y;
}

}  // namespace autosched::apps::pisolver
