// autosched-pattern-lu: a blocked right-looking LU factorisation, as a plain
// OpenMP program (schedule(runtime) loops, no autosched header or library).
//
// What it models: the dense factorisation at the heart of direct solvers
// and of the classic dense-solve benchmarks, here without pivoting on a
// diagonally dominant matrix, where none is needed. Block step k factors
// the diagonal block serially, then runs two parallel loops: one over the
// trailing panel blocks (triangular solves for the k-th block row and block
// column) and one over the trailing-update blocks (a 64 x 64 x 64 matrix
// product each, collapse(2)). Both trip counts shrink every step, the panel
// loop's linearly and the update's quadratically, so the last steps have
// fewer blocks than a schedule would like and the two loops' iterations
// cost very different amounts (a solve is about half a product).
//
// Defaults: --size 2048 (32 x 32 blocks of 64, 32 MB) and one
// factorisation (--steps repeats it from the same matrix): about 0.9 s of
// CPU time on one thread of the 2-core AMD EPYC VM this was written on, so
// about 0.5 s at 2 threads.
//
// Check: the blocks are updated in the same order whatever the schedule,
// and the factors solve A x = b for a known x: the program solves it with
// the factors (serially) and wants every component within 1e-9 (relative)
// of the known one, then compares L * U with A on a sample of entries.
//
// Output: `pattern lu loop_ms <ms inside the timed loops> wall_ms <ms of the
// compute phase: building the matrix and all factorisations> check ok`.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pattern_common.hpp"

namespace {

using pattern::Timed;

constexpr int kB = 64;  // block size (a compile-time constant: the kernels' inner loops vectorise)

struct Options {
  int size = 2048;
  int steps = 1;
};

Options parse(int argc, char** argv) {
  Options o;
  const auto option = [&](const std::string& a, auto number) {
    if (a == "--size")
      o.size = number(kB, 16384);
    else if (a == "--steps")
      o.steps = number(1, 10000);
    else
      return false;
    return true;
  };
  pattern::parse_arguments(argc, argv, "[--size N] [--steps S]",
                           "  --size N    N x N matrix, rounded up to a multiple of " + std::to_string(kB) +
                               " (default 2048)\n"
                               "  --steps S   factorisations, each of a fresh copy of the matrix (default 1)\n",
                           option);
  o.size = (o.size + kB - 1) / kB * kB;
  return o;
}

// Block (bi, bj) of the row-major n x n matrix a starts here; rows are n apart.
inline double* block(double* a, int n, int bi, int bj) {
  return a + static_cast<std::size_t>(bi) * kB * n + static_cast<std::size_t>(bj) * kB;
}

// Unblocked LU of the diagonal block, in place: unit lower L below, U on and above the diagonal.
void factor_diagonal(double* d, int n) {
  for (int k = 0; k < kB; ++k) {
    const double pivot = d[static_cast<std::size_t>(k) * n + k];
    for (int i = k + 1; i < kB; ++i) {
      double* row = d + static_cast<std::size_t>(i) * n;
      const double l = row[k] / pivot;
      row[k] = l;
      const double* urow = d + static_cast<std::size_t>(k) * n;
      for (int j = k + 1; j < kB; ++j) row[j] -= l * urow[j];
    }
  }
}

// A_kj := L_kk^-1 A_kj (the block row of U).
void solve_row_block(const double* __restrict d, double* __restrict a, int n) {
  for (int i = 1; i < kB; ++i) {
    double* __restrict row = a + static_cast<std::size_t>(i) * n;
    for (int k = 0; k < i; ++k) {
      const double l = d[static_cast<std::size_t>(i) * n + k];
      const double* __restrict src = a + static_cast<std::size_t>(k) * n;
      for (int j = 0; j < kB; ++j) row[j] -= l * src[j];
    }
  }
}

// A_ik := A_ik U_kk^-1 (the block column of L).
void solve_column_block(const double* __restrict d, double* __restrict a, int n) {
  for (int i = 0; i < kB; ++i) {
    double* __restrict row = a + static_cast<std::size_t>(i) * n;
    for (int k = 0; k < kB; ++k) {
      row[k] /= d[static_cast<std::size_t>(k) * n + k];
      const double l = row[k];
      const double* __restrict urow = d + static_cast<std::size_t>(k) * n;
      for (int j = k + 1; j < kB; ++j) row[j] -= l * urow[j];
    }
  }
}

// C -= A B, one 64 x 64 x 64 product.
void update_block(double* __restrict c, const double* __restrict a, const double* __restrict b, int n) {
  for (int i = 0; i < kB; ++i) {
    double* __restrict crow = c + static_cast<std::size_t>(i) * n;
    for (int k = 0; k < kB; ++k) {
      const double l = a[static_cast<std::size_t>(i) * n + k];
      const double* __restrict brow = b + static_cast<std::size_t>(k) * n;
      for (int j = 0; j < kB; ++j) crow[j] -= l * brow[j];
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const int n = o.size, nb = n / kB;
  const std::size_t n2 = static_cast<std::size_t>(n) * n;
  const double wall_start = omp_get_wtime();
  double loop_s = 0.0;

  // Off-diagonal entries uniform in [-1, 1], the diagonal n + 1: strictly
  // diagonally dominant by rows, so no pivoting is needed and no growth occurs.
  std::vector<double> original(n2), a(n2), x_true(n), rhs(n, 0.0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const std::uint64_t h = pattern::mix(static_cast<std::uint64_t>(i) * 0x1000193ULL + j);
      original[static_cast<std::size_t>(i) * n + j] =
          i == j ? n + 1.0 : 2.0 * (static_cast<double>(h >> 11) * 0x1.0p-53) - 1.0;
    }
    x_true[i] = 1.0 + (i % 7) / 7.0;
  }
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j) s += original[static_cast<std::size_t>(i) * n + j] * x_true[j];
    rhs[i] = s;
  }

  double* A = a.data();
  for (int step = 0; step < o.steps; ++step) {
    std::copy(original.begin(), original.end(), a.begin());
    for (int k = 0; k < nb; ++k) {
      double* diagonal = block(A, n, k, k);
      factor_diagonal(diagonal, n);
      const int m = nb - k - 1;  // trailing blocks in each direction
      {
        Timed t(loop_s);  // the panel: m solves for the block row, m for the block column
#pragma omp parallel for schedule(runtime)
        for (int p = 0; p < 2 * m; ++p) {
          if (p < m)
            solve_row_block(diagonal, block(A, n, k, k + 1 + p), n);
          else
            solve_column_block(diagonal, block(A, n, k + 1 + (p - m), k), n);
        }
      }
      {
        Timed t(loop_s);  // the trailing update: m x m products
#pragma omp parallel for collapse(2) schedule(runtime)
        for (int i = k + 1; i < nb; ++i) {
          for (int j = k + 1; j < nb; ++j) update_block(block(A, n, i, j), block(A, n, i, k), block(A, n, k, j), n);
        }
      }
    }
  }
  const double wall_ms = 1e3 * (omp_get_wtime() - wall_start);

  // Solve L U x = b with the factors, serially, and compare with the known x.
  std::vector<double> x(rhs);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < i; ++j) x[i] -= A[static_cast<std::size_t>(i) * n + j] * x[j];
  }
  for (int i = n - 1; i >= 0; --i) {
    for (int j = i + 1; j < n; ++j) x[i] -= A[static_cast<std::size_t>(i) * n + j] * x[j];
    x[i] /= A[static_cast<std::size_t>(i) * n + i];
  }
  double error = 0.0;
  for (int i = 0; i < n; ++i) error = std::max(error, std::fabs(x[i] - x_true[i]) / x_true[i]);
  // And L * U against A on a sample of entries (every 61st row and 67th column).
  double sample_error = 0.0;
  for (int i = 0; i < n; i += 61) {
    for (int j = 0; j < n; j += 67) {
      double s = 0.0;
      for (int k = 0; k <= std::min(i, j); ++k) {
        const double l = k == i ? 1.0 : A[static_cast<std::size_t>(i) * n + k];
        s += l * A[static_cast<std::size_t>(k) * n + j];
      }
      sample_error = std::max(sample_error, std::fabs(s - original[static_cast<std::size_t>(i) * n + j]) / (n + 1.0));
    }
  }
  const bool failed = !(error < 1e-9) || !(sample_error < 1e-12);
  if (failed)
    pattern::check_failed("lu", "solution error %.3g (tolerance 1e-9), L*U - A %.3g (tolerance 1e-12)", error,
                          sample_error);
  return pattern::report("lu", 1e3 * loop_s, wall_ms, !failed);
}
