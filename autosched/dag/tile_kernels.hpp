#pragma once
// The tile kernels of the tiled factorisations (factorizations.hpp), on
// b×b column-major double tiles with leading dimension b. BLAS 3 through
// CBLAS, the QR kernels through LAPACKE's compact-WY routines (geqrt,
// gemqrt, tpqrt, tpmqrt with inner block ib). Built only with LAPACKE and
// CBLAS (cmake/AutoschedLapack.cmake), in autosched::dag_exec.
//
// Each kernel touches only the tiles it is given, and in a diagonal tile
// only the triangle it names, so the tasks a graph lets run at once may
// call them concurrently (one BLAS thread each: use_single_threaded_blas()).
#include <string_view>

namespace autosched::dag::kernels {

/// Makes BLAS single-threaded for the whole process (once; later calls do
/// nothing). The executor calls it: its workers are the parallelism.
void use_single_threaded_blas();

// Cholesky (lower): A = L L^T.

/// A_kk = L_kk L_kk^T, L_kk in the lower triangle (the upper one is left
/// as it was). Throws autosched::Error naming `tile` when A_kk is not
/// positive definite.
void potrf(double* a, int b, std::string_view tile = "tile");
/// A_ik <- A_ik L_kk^-T (L_kk: lower triangle of `l`).
void trsm(const double* l, double* a, int b);
/// Lower triangle of C <- C - A A^T.
void syrk(const double* a, double* c, int b);
/// C <- C - A B^T (`transpose_b`) or C <- C - A B.
void gemm(const double* a, const double* bt, double* c, int b, bool transpose_b);

// LU without pivoting: A = L U, L unit lower.

/// A_kk = L_kk U_kk in place (blocked right-looking, no row exchange).
/// Throws autosched::Error naming `tile` on a zero pivot.
void getrf_nopiv(double* a, int b, std::string_view tile = "tile");
/// A_kj <- L_kk^-1 A_kj (L_kk: unit lower triangle of `lu`).
void trsm_ll(const double* lu, double* a, int b);
/// A_ik <- A_ik U_kk^-1 (U_kk: upper triangle of `lu`).
void trsm_ru(const double* lu, double* a, int b);

// QR (flat tree): Householder vectors V in the tiles, T factors (ib×b
// each, leading dimension ib) beside them.

/// The inner block size the QR kernels use for tile size b: min(32, b).
int qr_inner_block(int b) noexcept;
/// A_kk = Q_kk R_kk: R in the upper triangle, V below the diagonal, T in `t`.
void geqrt(double* a, double* t, int b);
/// C <- Q^T C with Q from geqrt's V (strict lower triangle of `v`) and T.
void unmqr(const double* v, const double* t, double* c, int b);
/// [R; A] = Q [R'; 0]: updates the upper triangle of `r`, leaves V in `a`
/// and the T factor in `t` (tpqrt with a square pentagonal part l = 0).
void tsqrt(double* r, double* a, double* t, int b);
/// [A1; A2] <- Q^T [A1; A2] with Q from tsqrt's V and T.
void tsmqr(const double* v, const double* t, double* a1, double* a2, int b);

}  // namespace autosched::dag::kernels
