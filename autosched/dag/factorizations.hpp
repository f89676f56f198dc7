#pragma once
// Task graphs of tiled factorisations of a T×T-tile matrix.
//
// Ids follow the sequential program order (step k, then its kernels), which
// is a topological order and is also the numbering ggen gives the graphs
// READYS trained on. Kernel indices follow READYS's type indices, so its
// duration tables apply unchanged.
#include <autosched/dag/task_graph.hpp>

#include <string_view>

namespace autosched::dag {

enum class GraphFlavour {
  correct,  ///< correctly typed kernels, true flat-tree tiled QR
  readys,   ///< READYS as released: mislabelled Cholesky/LU kernels, its QR graph
};

/// Right-looking tiled Cholesky: POTRF(k), TRSM(i,k), SYRK(i,k), GEMM(i,j,k)
/// for k < j < i. Kernels 0 POTRF, 1 SYRK, 2 TRSM, 3 GEMM.
TaskGraph cholesky(int tiles, GraphFlavour flavour = GraphFlavour::correct);

/// Tiled LU without pivoting: GETRF(k); TRSM_LL(k,j) makes the row panel
/// (L_kk^-1 A_kj, READYS's "fwd"); TRSM_RU(i,k) the column panel (A_ik U_kk^-1,
/// "bdiv"); GEMM(i,j,k) the trailing update ("bmod"). Kernels 0 GETRF,
/// 1 GEMM, 2 TRSM_RU, 3 TRSM_LL.
TaskGraph lu(int tiles, GraphFlavour flavour = GraphFlavour::correct);

/// Flat-tree tiled QR: GEQRT(k), UNMQR(k,n) applies Q_k^T to the row,
/// TSQRT(m,k) folds tile (m,k) into R_kk, TSMQR(m,n,k) applies it to tiles
/// (k,n) and (m,n). Kernels 0 GEQRT, 1 TSQRT, 2 UNMQR, 3 TSMQR. With
/// GraphFlavour::readys: READYS's procedural graph instead (missing edges,
/// an isolated last GEQRT, ids not topological).
TaskGraph qr(int tiles, GraphFlavour flavour = GraphFlavour::correct);

/// "cholesky", "lu" or "qr" (case-insensitive); throws naming the accepted
/// values otherwise.
TaskGraph factorization(std::string_view family, int tiles, GraphFlavour flavour = GraphFlavour::correct);

/// The number of tasks factorization(family, tiles) builds, without building
/// it (the correct flavour): T + 2·Σm + Σm(m-1)/2 for Cholesky, T + 2·Σm + Σm² for LU
/// and QR, m = 0…T-1. Commands use it to refuse sizes that cannot fit.
double factorization_tasks(std::string_view family, int tiles);

/// The relabelling READYS's graph reader applied: task v gets the kernel
/// of the v-th task declared in the dot file ggen writes (each task is
/// declared where it first appears as an edge target, scanning the
/// sources in id order and their successors in id order). Exposed for the
/// tests that count the mislabelled tasks.
std::vector<std::uint16_t> readys_declaration_labels(const TaskGraph& correct);

}  // namespace autosched::dag
