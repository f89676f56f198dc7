#pragma once
// A real tiled factorisation: the matrix, the tasks of its graph as tile
// kernels, and the check of the result. The executor (executor.hpp) and
// the StarPU application run it; calibrate() measures its kernels.
// Built with LAPACKE and CBLAS only (autosched::dag_exec).
//
//   TiledFactorization f("cholesky", 4, 64);
//   for (TaskId t : f.graph().topological_order()) f.run(t);
//   bool ok = f.residual() < f.tolerance();
#include <autosched/dag/durations.hpp>
#include <autosched/dag/task_graph.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace autosched::dag {

class TiledFactorization {
 public:
  /// family "cholesky" | "lu" | "qr"; matrix of (tiles*tile_size)^2 doubles,
  /// random from seed (SPD for Cholesky, diagonally dominant for LU so no
  /// pivoting is needed). Throws naming a bad family, tile count (2..4096)
  /// or tile size (1..4096). Makes BLAS single-threaded (tile_kernels.hpp).
  TiledFactorization(std::string_view family, int tiles, int tile_size, std::uint64_t seed = 1);

  /// The correct-flavour graph of this factorisation (factorizations.hpp).
  const TaskGraph& graph() const noexcept { return graph_; }
  int tiles() const noexcept { return tiles_; }
  int tile_size() const noexcept { return b_; }
  /// "cholesky", "lu" or "qr".
  const std::string& family() const noexcept { return family_; }
  /// The matrix order n = tiles * tile_size.
  int order() const noexcept { return tiles_ * b_; }
  /// Floating-point operations of the whole factorisation (n^3/3 Cholesky,
  /// 2n^3/3 LU, 4n^3/3 QR), for GFlop/s.
  double flops() const noexcept;

  /// Runs task t's kernel on its tiles. Safe to call concurrently for tasks
  /// the graph allows to run at once (they write disjoint tiles or disjoint
  /// triangles of one tile). Throws autosched::Error naming the task when a
  /// kernel fails (a tile that is not SPD, a zero pivot).
  void run(TaskId t);

  /// Relative backward error once every task ran: Cholesky
  /// ||A - L L^T||_F/||A||_F, LU ||A - L U||_F/||A||_F, QR
  /// ||A^T A - R^T R||_F/||A^T A||_F (Q is never formed). Costs about n^3 flops.
  double residual() const;
  /// The bound residual() must stay under to call the result verified.
  double tolerance() const;
  /// Restores the original matrix (and clears the QR T factors), so the
  /// same object can run again.
  void reset();

  /// Tile (i, j) of the working matrix: tile_size^2 doubles, column-major.
  /// Writing it before a run changes the problem (the tests make a matrix
  /// that is not SPD this way); reset() still restores the original.
  double* tile(int i, int j);
  const double* tile(int i, int j) const;

 private:
  enum class Op : std::uint8_t { potrf, trsm, syrk, gemm_nt, getrf, trsm_ll, trsm_ru, gemm_nn, geqrt, unmqr, tsqrt, tsmqr };
  std::size_t tile_offset(int i, int j) const;
  double* t_factor(int i, int j);
  /// The whole matrix, column-major n×n, from tile storage.
  std::vector<double> gather(const std::vector<double>& tiled) const;

  std::string family_;
  int tiles_, b_;
  TaskGraph graph_;
  std::vector<Op> op_of_kernel_;
  std::vector<double> original_, a_;  ///< tile-major: tile (i,j) at (j*tiles + i) * b^2
  std::vector<double> t_;             ///< QR: one ib×b T factor per tile (i,j)
};

/// Measures each kernel of `family` on this machine at this tile size:
/// a 3×3-tile factorisation is run `repeats` times after one warm-up run,
/// every task timed on its own; each kernel's duration is the median of
/// its samples, in ms. Returns {name "calibrated b=<b>", unit "ms",
/// kernel -> {cpu, not_available}}.
DurationTable calibrate(std::string_view family, int tile_size, int repeats = 5);

}  // namespace autosched::dag
