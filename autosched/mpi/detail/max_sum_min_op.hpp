#pragma once
/// @file
/// The one custom reduction both MPI loop kinds finish an instance with: a
/// buffer of doubles whose first `Max` words reduce by maximum (loop times),
/// the next `Sum` by sum (moments, counts) and the last `Min` by minimum (the
/// lowest failing rank), so a single MPI_Allreduce carries all of it.
///
///   MPI_Allreduce(mine, all, 7, MPI_DOUBLE, max_sum_min_op<1, 5, 1>(), comm);

#include <mpi.h>

#include <algorithm>

namespace autosched::mpi::detail {

template <int Max, int Sum, int Min>
MPI_Op max_sum_min_op() {
  constexpr int words = Max + Sum + Min;
  static const MPI_Op op = [] {
    MPI_Op o = MPI_OP_NULL;
    MPI_Op_create(
        [](void* in, void* inout, int* len, MPI_Datatype*) {
          const auto* a = static_cast<const double*>(in);
          auto* b = static_cast<double*>(inout);
          for (int i = 0; i + words <= *len; i += words) {
            for (int k = 0; k < Max; ++k) b[i + k] = std::max(a[i + k], b[i + k]);
            for (int k = Max; k < Max + Sum; ++k) b[i + k] += a[i + k];
            for (int k = Max + Sum; k < words; ++k) b[i + k] = std::min(a[i + k], b[i + k]);
          }
        },
        1, &o);
    return o;
  }();
  return op;
}

}  // namespace autosched::mpi::detail
