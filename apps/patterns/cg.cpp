// autosched-pattern-cg: conjugate gradients on a sparse SPD matrix with
// uneven rows, as a plain OpenMP program (schedule(runtime) loops, no
// autosched header or library).
//
// What it models: the Krylov solve inside implicit codes and graph
// analytics: a CSR matrix-vector product plus dot products and vector
// updates, every iteration. The matrix is a banded mesh-like part (a few
// neighbours per row) with "hub" rows of hundreds to thousands of entries
// (long-range couplings: contacts, constraints, a graph's heavy vertices),
// which cluster in the first eighth of the rows, as after a degree or
// domain ordering. So the product's rows cost 5 to 2000 times a short row
// and a static schedule gives the first thread most of the hubs, while the
// vector loops are perfectly regular. Its structure is random but seeded,
// symmetric, and made positive definite by diagonal dominance.
//
// Defaults: --size 200000 rows (~3 M nonzeros), Jacobi-preconditioned,
// solved to a relative residual of 1e-8 (17 iterations) --steps 3 times,
// as an implicit code solves once a time step: about 0.3 s at 2 threads on
// the 2-core AMD EPYC VM this was written on (static or guided; dynamic,1
// takes 2 s), a third of it the serial assembly.
//
// Check: b = A x* for a known x*; after the solve the program recomputes
// the true residual |b - A x| / |b| serially (tolerance 1e-7) and wants x
// within 1e-5 of x*. The dot products round differently under different
// schedules, so the iteration count may differ by one; the answer does not.
//
// Output: `pattern cg loop_ms <ms inside the timed loops> wall_ms <ms of the
// compute phase: assembly and all solves> check ok`.
//
// Note: no loop here both stores into an array and accumulates a
// reduction; where the algorithm wants both, it is two loops, the stores and
// then a pure reduction. clang 14 miscompiles the fused form of a
// schedule(runtime), dynamic or guided loop: the per-chunk loop is marked
// free of loop-carried memory dependences, the reduction's private copy
// stays in memory (the stores might alias it), and the vectorised loop
// keeps one lane's partial sum of two, so the sum comes out about halved
// (OMP_SCHEDULE=dynamic,1 hides it: its chunks are too short for the vector
// path). This suite's checks caught it; g++ is not affected.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "pattern_common.hpp"

namespace {

using pattern::Timed;

struct Options {
  int size = 200000;
  int steps = 3;
  bool verbose = false;
};

Options parse(int argc, char** argv) {
  Options o;
  const auto option = [&](const std::string& a, auto number) {
    if (a == "--size")
      o.size = number(1000, 100000000);
    else if (a == "--steps")
      o.steps = number(1, 10000);
    else if (a == "--verbose")
      o.verbose = true;
    else
      return false;
    return true;
  };
  pattern::parse_arguments(
      argc, argv, "[--size N] [--steps S] [--verbose]",
      "  --size N    rows (default 200000)\n"
      "  --steps S   solves, from x = 0 each (default 3, as an implicit code solves every time step)\n"
      "  --verbose   print the matrix's shape and the iteration count\n",
      option);
  return o;
}

class Random {  // splitmix64: a seeded, reproducible stream
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

 private:
  std::uint64_t state_;
};

struct Csr {
  int n = 0;
  std::vector<std::int64_t> start;  // n + 1
  std::vector<int> column;
  std::vector<double> value;
};

// The symmetric pattern: each row couples to its next few rows (a banded,
// mesh-like part); one row in 40 of the first eighth, and one in 4000 of the
// rest, is a hub coupled to 200-2000 random rows. Off-diagonal values are
// negative, the diagonal is 1.02 times the row's absolute sum plus 1: strictly
// diagonally dominant, so symmetric positive definite.
Csr assemble(int n) {
  Random rng(20261206);
  std::vector<std::pair<int, int>> edges;  // (i, j), i < j
  edges.reserve(static_cast<std::size_t>(n) * 5);
  for (int i = 0; i < n; ++i) {
    for (int d : {1, 2, 7}) {
      if (i + d < n) edges.emplace_back(i, i + d);
    }
    if (rng.below(4) == 0) {  // an occasional longer-range coupling
      const int j = rng.below(n);
      if (j != i) edges.emplace_back(std::min(i, j), std::max(i, j));
    }
    const bool hub = i < n / 8 ? rng.below(40) == 0 : rng.below(4000) == 0;
    if (hub) {
      const int degree = 200 + rng.below(1800);
      for (int e = 0; e < degree; ++e) {
        const int j = rng.below(n);
        if (j != i) edges.emplace_back(std::min(i, j), std::max(i, j));
      }
    }
  }
  // Not sorted or deduplicated: a repeated pair is two entries of one row, which CSR allows.

  Csr a;
  a.n = n;
  a.start.assign(n + 1, 0);
  for (const auto& [i, j] : edges) {
    ++a.start[i + 1];
    ++a.start[j + 1];
  }
  for (int i = 0; i < n; ++i) a.start[i + 1] += a.start[i] + 1;  // + 1: the diagonal
  a.column.resize(a.start[n]);
  a.value.resize(a.start[n]);
  std::vector<std::int64_t> fill(a.start.begin(), a.start.end() - 1);
  std::vector<double> diagonal(n, 1.0);
  for (int i = 0; i < n; ++i) a.column[fill[i]++] = i;  // the diagonal first; its value below
  for (const auto& [i, j] : edges) {
    const double v = -(0.1 + 0.9 * rng.unit());
    a.column[fill[i]] = j;
    a.value[fill[i]++] = v;
    a.column[fill[j]] = i;
    a.value[fill[j]++] = v;
    diagonal[i] -= v;
    diagonal[j] -= v;
  }
  for (int i = 0; i < n; ++i) a.value[a.start[i]] = 1.0 + 1.02 * (diagonal[i] - 1.0);
  return a;
}

void multiply_serial(const Csr& a, const std::vector<double>& x, std::vector<double>& y) {
  for (int i = 0; i < a.n; ++i) {
    double s = 0.0;
    for (std::int64_t k = a.start[i]; k < a.start[i + 1]; ++k) s += a.value[k] * x[a.column[k]];
    y[i] = s;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const double wall_start = omp_get_wtime();
  double loop_s = 0.0;
  const Csr a = assemble(o.size);
  const int n = a.n;
  std::vector<double> x_true(n), b(n);
  for (int i = 0; i < n; ++i) x_true[i] = 1.0 + 0.5 * std::sin(0.001 * i);
  multiply_serial(a, x_true, b);
  double bb = 0.0;
  for (double v : b) bb += v * v;

  std::vector<double> x(n), r(n), z(n), p(n), q(n), inverse_diagonal(n);
  for (int i = 0; i < n; ++i) inverse_diagonal[i] = 1.0 / a.value[a.start[i]];  // the diagonal leads each row
  const std::int64_t* __restrict rs = a.start.data();
  const int* __restrict col = a.column.data();
  const double* __restrict val = a.value.data();
  const double* __restrict Dinv = inverse_diagonal.data();
  double* __restrict X = x.data();
  double* __restrict R = r.data();
  double* __restrict Z = z.data();
  double* __restrict P = p.data();
  double* __restrict Q = q.data();
  const double* __restrict B = b.data();
  int iterations = 0;
  for (int step = 0; step < o.steps; ++step) {
    {
      Timed t(loop_s);  // x = 0, r = b, z = p = D^-1 b
#pragma omp parallel for schedule(runtime)
      for (int i = 0; i < n; ++i) {
        X[i] = 0.0;
        R[i] = B[i];
        Z[i] = Dinv[i] * B[i];
        P[i] = Dinv[i] * B[i];
      }
    }
    double rz = 0.0, rr = 0.0;
    {
      Timed t(loop_s);  // (r, z) and (r, r): a loop of their own, see the note at the top
#pragma omp parallel for schedule(runtime) reduction(+ : rz, rr)
      for (int i = 0; i < n; ++i) {
        rz += R[i] * Z[i];
        rr += R[i] * R[i];
      }
    }
    iterations = 0;
    while (rr > 1e-16 * bb && iterations < 1000) {
      ++iterations;
      {
        Timed t(loop_s);  // q = A p: rows of 4 to 2000 entries
#pragma omp parallel for schedule(runtime)
        for (int i = 0; i < n; ++i) {
          double s = 0.0;
          for (std::int64_t k = rs[i]; k < rs[i + 1]; ++k) s += val[k] * P[col[k]];
          Q[i] = s;
        }
      }
      double pq = 0.0;
      {
        Timed t(loop_s);
#pragma omp parallel for schedule(runtime) reduction(+ : pq)
        for (int i = 0; i < n; ++i) pq += P[i] * Q[i];
      }
      const double alpha = rz / pq;
      {
        Timed t(loop_s);  // x += alpha p, r -= alpha q, z = D^-1 r (the Jacobi preconditioner)
#pragma omp parallel for schedule(runtime)
        for (int i = 0; i < n; ++i) {
          X[i] += alpha * P[i];
          R[i] -= alpha * Q[i];
          Z[i] = Dinv[i] * R[i];
        }
      }
      double rz_new = 0.0, rr_new = 0.0;
      {
        Timed t(loop_s);  // (r, z) and (r, r)
#pragma omp parallel for schedule(runtime) reduction(+ : rz_new, rr_new)
        for (int i = 0; i < n; ++i) {
          rz_new += R[i] * Z[i];
          rr_new += R[i] * R[i];
        }
      }
      const double beta = rz_new / rz;
      rz = rz_new;
      rr = rr_new;
      {
        Timed t(loop_s);  // p = z + beta p
#pragma omp parallel for schedule(runtime)
        for (int i = 0; i < n; ++i) P[i] = Z[i] + beta * P[i];
      }
    }
  }
  const double wall_ms = 1e3 * (omp_get_wtime() - wall_start);

  std::vector<double> ax(n);
  multiply_serial(a, x, ax);
  double residual = 0.0, error = 0.0;
  for (int i = 0; i < n; ++i) {
    residual += (b[i] - ax[i]) * (b[i] - ax[i]);
    error = std::max(error, std::fabs(x[i] - x_true[i]));
  }
  residual = std::sqrt(residual / bb);
  if (o.verbose) {
    std::int64_t longest = 0;
    for (int i = 0; i < n; ++i) longest = std::max(longest, a.start[i + 1] - a.start[i]);
    std::printf("rows %d nonzeros %lld longest row %lld iterations %d residual %.3g error %.3g\n", n,
                static_cast<long long>(a.start[n]), static_cast<long long>(longest), iterations, residual, error);
  }
  const bool failed = !(residual < 1e-7) || !(error < 1e-5);
  if (failed)
    pattern::check_failed("cg", "residual %.3g (tolerance 1e-7), error %.3g (tolerance 1e-5) after %d iterations",
                          residual, error, iterations);
  return pattern::report("cg", 1e3 * loop_s, wall_ms, !failed);
}
