#include <autosched/dag/tile_kernels.hpp>

#include <autosched/core/error.hpp>

#include <cblas.h>
#include <dlfcn.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>
#include <vector>

namespace autosched::dag::kernels {

namespace {

[[noreturn]] void lapack_failed(const char* routine, lapack_int info, std::string_view tile) {
  detail::throw_error(std::string(routine) + " on " + std::string(tile) + ": argument " + std::to_string(-info) +
                      " rejected (info=" + std::to_string(info) + ")");
}

/// Workspace of the compact-WY kernels: ib×b doubles, per thread so that
/// concurrent kernels never share one and no call allocates after the first.
double* workspace(int b) {
  thread_local std::vector<double> work;
  const auto need = static_cast<std::size_t>(qr_inner_block(b)) * static_cast<std::size_t>(b);
  if (work.size() < need) work.resize(need);
  return work.data();
}

}  // namespace

void use_single_threaded_blas() {
  // Each executor worker runs one kernel at a time: a multithreaded BLAS
  // would put its own threads on top of ours and oversubscribe the cores.
  // The symbol is looked up at run time rather than called, so that a
  // LAPACKE/CBLAS from another vendor (reference BLAS, BLIS) links too;
  // those are single-threaded already or are set up by their own variable.
  static std::once_flag once;
  std::call_once(once, [] {
    using SetThreads = void (*)(int);
    if (void* symbol = dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))
      reinterpret_cast<SetThreads>(symbol)(1);
  });
}

void potrf(double* a, int b, std::string_view tile) {
  // The _work variants skip LAPACKE's NaN scan of the whole tile: that scan
  // would read the triangle a concurrent kernel is allowed to write.
  const lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', b, a, b);
  if (info > 0)
    detail::throw_error("POTRF on " + std::string(tile) + ": the tile is not positive definite (leading minor " +
                        std::to_string(info) + " of " + std::to_string(b) + "); Cholesky needs an SPD matrix");
  if (info < 0) lapack_failed("LAPACKE_dpotrf", info, tile);
}

void trsm(const double* l, double* a, int b) {
  cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, b, b, 1.0, l, b, a, b);
}

void syrk(const double* a, double* c, int b) {
  cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, b, b, -1.0, a, b, 1.0, c, b);
}

void gemm(const double* a, const double* bt, double* c, int b, bool transpose_b) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, transpose_b ? CblasTrans : CblasNoTrans, b, b, b, -1.0, a, b, bt, b, 1.0,
              c, b);
}

void getrf_nopiv(double* a, int b, std::string_view tile) {
  // Right-looking, by panels of nb columns: an unblocked panel (scale the
  // column, rank-1 update of the panel), then U12 = L11^-1 A12 and the
  // GEMM update of the trailing block, where the time goes.
  const int nb = std::min(32, b);
  auto at = [&](int i, int j) { return a + i + static_cast<std::ptrdiff_t>(j) * b; };
  for (int j0 = 0; j0 < b; j0 += nb) {
    const int w = std::min(nb, b - j0);
    for (int j = j0; j < j0 + w; ++j) {
      const double pivot = *at(j, j);
      if (pivot == 0.0 || !std::isfinite(pivot))
        detail::throw_error("GETRF (no pivoting) on " + std::string(tile) + ": pivot " + std::to_string(j) + " is " +
                            std::to_string(pivot) + "; LU without pivoting needs nonzero pivots (e.g. a diagonally "
                            "dominant matrix)");
      const int below = b - j - 1;
      if (below == 0) continue;
      cblas_dscal(below, 1.0 / pivot, at(j + 1, j), 1);
      const int right = j0 + w - j - 1;
      if (right > 0)
        cblas_dger(CblasColMajor, below, right, -1.0, at(j + 1, j), 1, at(j, j + 1), b, at(j + 1, j + 1), b);
    }
    const int rest = b - j0 - w;
    if (rest == 0) continue;
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, w, rest, 1.0, at(j0, j0), b,
                at(j0, j0 + w), b);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, rest, rest, w, -1.0, at(j0 + w, j0), b, at(j0, j0 + w), b,
                1.0, at(j0 + w, j0 + w), b);
  }
}

void trsm_ll(const double* lu, double* a, int b) {
  cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, b, b, 1.0, lu, b, a, b);
}

void trsm_ru(const double* lu, double* a, int b) {
  cblas_dtrsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, b, b, 1.0, lu, b, a, b);
}

int qr_inner_block(int b) noexcept { return std::min(32, b); }

// The QR kernels call LAPACK's compact-WY routines directly (_work: no
// NaN scan, which would read R while TSQRT writes it and UNMQR reads V of
// the same diagonal tile). Each routine reads only the triangle it names:
// gemqrt/tpmqrt the vectors below the diagonal, tpqrt the upper triangle.

void geqrt(double* a, double* t, int b) {
  const int ib = qr_inner_block(b);
  const lapack_int info = LAPACKE_dgeqrt_work(LAPACK_COL_MAJOR, b, b, ib, a, b, t, ib, workspace(b));
  if (info != 0) lapack_failed("LAPACKE_dgeqrt", info, "GEQRT tile");
}

void unmqr(const double* v, const double* t, double* c, int b) {
  const int ib = qr_inner_block(b);
  const lapack_int info =
      LAPACKE_dgemqrt_work(LAPACK_COL_MAJOR, 'L', 'T', b, b, b, ib, v, b, t, ib, c, b, workspace(b));
  if (info != 0) lapack_failed("LAPACKE_dgemqrt", info, "UNMQR tile");
}

void tsqrt(double* r, double* a, double* t, int b) {
  const int ib = qr_inner_block(b);
  const lapack_int info = LAPACKE_dtpqrt_work(LAPACK_COL_MAJOR, b, b, 0, ib, r, b, a, b, t, ib, workspace(b));
  if (info != 0) lapack_failed("LAPACKE_dtpqrt", info, "TSQRT tile");
}

void tsmqr(const double* v, const double* t, double* a1, double* a2, int b) {
  const int ib = qr_inner_block(b);
  const lapack_int info =
      LAPACKE_dtpmqrt_work(LAPACK_COL_MAJOR, 'L', 'T', b, b, b, 0, ib, v, b, t, ib, a1, b, a2, b, workspace(b));
  if (info != 0) lapack_failed("LAPACKE_dtpmqrt", info, "TSMQR tile");
}

}  // namespace autosched::dag::kernels
