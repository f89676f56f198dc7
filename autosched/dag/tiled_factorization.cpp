#include <autosched/dag/tiled_factorization.hpp>

#if AUTOSCHED_DAG_CUDA
#include <autosched/dag/gpu_tile_runner.hpp>
#endif

#include <autosched/core/error.hpp>
#include <autosched/core/split_mix.hpp>
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/tile_kernels.hpp>

#include <cblas.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <map>

namespace autosched::dag {

namespace {

std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

/// splitmix64: a fixed, portable stream (std::uniform_real_distribution
/// differs between standard libraries), so a seed names one matrix everywhere.
double uniform_centered(std::uint64_t& state) {
  return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53 - 0.5;
}

std::string tile_name(int i, int j) { return "A(" + std::to_string(i) + "," + std::to_string(j) + ")"; }

/// ||X||_F of a symmetric matrix from its lower triangle.
double symmetric_norm(const std::vector<double>& x, int n) {
  double sum = 0;
  for (int j = 0; j < n; ++j) {
    const double d = x[static_cast<std::size_t>(j) * n + j];
    sum += d * d;
    for (int i = j + 1; i < n; ++i) {
      const double v = x[static_cast<std::size_t>(j) * n + i];
      sum += 2 * v * v;
    }
  }
  return std::sqrt(sum);
}

}  // namespace

TiledFactorization::TiledFactorization(std::string_view family, int tiles, int tile_size, std::uint64_t seed)
    : family_(lowercase(family)), tiles_(tiles), b_(tile_size) {
  if (family_ == "chol") family_ = "cholesky";
  if (family_ != "cholesky" && family_ != "lu" && family_ != "qr")
    detail::throw_error("TiledFactorization: family '" + std::string(family) + "': expected cholesky, lu or qr");
  if (tile_size < 1 || tile_size > 4096)
    detail::throw_error("TiledFactorization: tile_size=" + std::to_string(tile_size) +
                        ": expected an integer in [1, 4096]");
  graph_ = factorization(family_, tiles);  // checks `tiles`
  kernels::use_single_threaded_blas();

  const std::map<std::string, Op, std::less<>> ops =
      family_ == "cholesky" ? std::map<std::string, Op, std::less<>>{{"POTRF", Op::potrf},
                                                                       {"TRSM", Op::trsm},
                                                                       {"SYRK", Op::syrk},
                                                                       {"GEMM", Op::gemm_nt}}
      : family_ == "lu"     ? std::map<std::string, Op, std::less<>>{{"GETRF", Op::getrf},
                                                                     {"TRSM_LL", Op::trsm_ll},
                                                                     {"TRSM_RU", Op::trsm_ru},
                                                                     {"GEMM", Op::gemm_nn}}
                            : std::map<std::string, Op, std::less<>>{{"GEQRT", Op::geqrt},
                                                                     {"UNMQR", Op::unmqr},
                                                                     {"TSQRT", Op::tsqrt},
                                                                     {"TSMQR", Op::tsmqr}};
  for (const std::string& k : graph_.kernel_names()) op_of_kernel_.push_back(ops.at(k));

  const int n = order();
  const auto tile_elems = static_cast<std::size_t>(b_) * static_cast<std::size_t>(b_);
  original_.assign(static_cast<std::size_t>(tiles_) * tiles_ * tile_elems, 0.0);
  std::uint64_t state = seed;
  auto at = [&](int r, int c) -> double& {
    return original_[tile_offset(r / b_, c / b_) + static_cast<std::size_t>(c % b_) * b_ + static_cast<std::size_t>(r % b_)];
  };
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r) at(r, c) = uniform_centered(state);
  if (family_ == "cholesky") {
    // Symmetrise, then shift by n: the off-diagonal entries are in [-0.5, 0.5],
    // so each eigenvalue moves by less than n/2 from the diagonal (Gershgorin).
    for (int c = 0; c < n; ++c)
      for (int r = c + 1; r < n; ++r) at(c, r) = at(r, c);
    for (int i = 0; i < n; ++i) at(i, i) += n;
  } else if (family_ == "lu") {
    // Strict diagonal dominance by rows and columns: every Schur complement
    // keeps it, so no pivoting is needed and the growth factor stays below 2.
    for (int i = 0; i < n; ++i) at(i, i) += n;
  }
  if (family_ == "qr")
    t_.assign(static_cast<std::size_t>(tiles_) * tiles_ * static_cast<std::size_t>(kernels::qr_inner_block(b_)) * b_,
              0.0);
  a_ = original_;
}

std::size_t TiledFactorization::tile_offset(int i, int j) const {
  return (static_cast<std::size_t>(j) * static_cast<std::size_t>(tiles_) + static_cast<std::size_t>(i)) *
         static_cast<std::size_t>(b_) * static_cast<std::size_t>(b_);
}

double* TiledFactorization::tile(int i, int j) {
  if (i < 0 || j < 0 || i >= tiles_ || j >= tiles_)
    detail::throw_error("TiledFactorization::tile(" + std::to_string(i) + ", " + std::to_string(j) +
                        "): expected indices in [0, " + std::to_string(tiles_) + ")");
  return a_.data() + tile_offset(i, j);
}

const double* TiledFactorization::tile(int i, int j) const { return const_cast<TiledFactorization*>(this)->tile(i, j); }

double* TiledFactorization::t_factor(int i, int j) {
  return t_.data() + (static_cast<std::size_t>(j) * static_cast<std::size_t>(tiles_) + static_cast<std::size_t>(i)) *
                         static_cast<std::size_t>(kernels::qr_inner_block(b_)) * static_cast<std::size_t>(b_);
}

double TiledFactorization::flops() const noexcept {
  const double n = order();
  const double scale = family_ == "cholesky" ? 1.0 : family_ == "lu" ? 2.0 : 4.0;
  return scale * n * n * n / 3.0;
}

void TiledFactorization::run(TaskId t) {
  if (t < 0 || static_cast<std::size_t>(t) >= graph_.size())
    detail::throw_error("TiledFactorization::run: task " + std::to_string(t) + ": expected an id in [0, " +
                        std::to_string(graph_.size()) + ")");
  const Task& task = graph_.task(t);
  const int x = task.tile[0], y = task.tile[1], z = task.tile[2];
  switch (op_of_kernel_[task.kernel]) {
    case Op::potrf:
      return kernels::potrf(tile(x, x), b_, "tile " + tile_name(x, x) + " (task " + std::to_string(t) + ", POTRF(" +
                                                std::to_string(x) + "))");
    case Op::trsm: return kernels::trsm(tile(y, y), tile(x, y), b_);
    case Op::syrk: return kernels::syrk(tile(x, y), tile(x, x), b_);
    case Op::gemm_nt: return kernels::gemm(tile(x, z), tile(y, z), tile(x, y), b_, true);
    case Op::getrf:
      return kernels::getrf_nopiv(tile(x, x), b_, "tile " + tile_name(x, x) + " (task " + std::to_string(t) +
                                                      ", GETRF(" + std::to_string(x) + "))");
    case Op::trsm_ll: return kernels::trsm_ll(tile(x, x), tile(x, y), b_);
    case Op::trsm_ru: return kernels::trsm_ru(tile(y, y), tile(x, y), b_);
    case Op::gemm_nn: return kernels::gemm(tile(x, z), tile(z, y), tile(x, y), b_, false);
    case Op::geqrt: return kernels::geqrt(tile(x, x), t_factor(x, x), b_);
    case Op::unmqr: return kernels::unmqr(tile(x, x), t_factor(x, x), tile(x, y), b_);
    case Op::tsqrt: return kernels::tsqrt(tile(y, y), tile(x, y), t_factor(x, y), b_);
    case Op::tsmqr: return kernels::tsmqr(tile(x, z), t_factor(x, z), tile(z, y), tile(x, y), b_);
  }
}

std::vector<double> TiledFactorization::gather(const std::vector<double>& tiled) const {
  const int n = order();
  std::vector<double> full(static_cast<std::size_t>(n) * n);
  for (int tj = 0; tj < tiles_; ++tj)
    for (int ti = 0; ti < tiles_; ++ti) {
      const double* src = tiled.data() + tile_offset(ti, tj);
      for (int c = 0; c < b_; ++c)
        std::copy_n(src + static_cast<std::size_t>(c) * b_, b_,
                    full.data() + (static_cast<std::size_t>(tj) * b_ + c) * n + static_cast<std::size_t>(ti) * b_);
    }
  return full;
}

double TiledFactorization::residual() const {
  const int n = order();
  const std::vector<double> a = gather(original_);
  const std::vector<double> f = gather(a_);
  std::vector<double> product(static_cast<std::size_t>(n) * n, 0.0);
  auto copy_triangle = [&](bool upper) {
    for (int c = 0; c < n; ++c)
      for (int r = upper ? 0 : c; r < (upper ? c + 1 : n); ++r)
        product[static_cast<std::size_t>(c) * n + r] = f[static_cast<std::size_t>(c) * n + r];
  };
  auto relative = [&](const std::vector<double>& ref) {
    double diff = 0, norm = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      diff += (ref[i] - product[i]) * (ref[i] - product[i]);
      norm += ref[i] * ref[i];
    }
    return std::sqrt(diff) / std::sqrt(norm);
  };
  if (family_ == "cholesky") {
    copy_triangle(false);  // L; L L^T by a triangular product, in place
    cblas_dtrmm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, n, n, 1.0, f.data(), n,
                product.data(), n);
    return relative(a);
  }
  if (family_ == "lu") {
    copy_triangle(true);  // U; then L U with L the unit lower triangle of f
    cblas_dtrmm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, n, n, 1.0, f.data(), n, product.data(),
                n);
    return relative(a);
  }
  // QR: A^T A = R^T R needs no Q. Both are symmetric: compare lower triangles.
  copy_triangle(true);
  cblas_dtrmm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, n, n, 1.0, f.data(), n, product.data(),
              n);
  std::vector<double> gram(static_cast<std::size_t>(n) * n, 0.0);
  cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, n, n, 1.0, a.data(), n, 0.0, gram.data(), n);
  const double norm = symmetric_norm(gram, n);
  for (std::size_t i = 0; i < gram.size(); ++i) gram[i] -= product[i];
  return symmetric_norm(gram, n) / norm;
}

double TiledFactorization::tolerance() const {
  // These three algorithms are backward stable: the computed factors
  // reproduce A (A^T A for QR) up to c * n * eps with a modest c (our LU
  // matrix is diagonally dominant, so its growth factor is below 2). 1e-12 * n
  // is about 4500 * n * eps: far above rounding, far below the O(1)
  // residual a wrong kernel, a missing edge or a race leaves.
  return 1e-12 * order();
}

void TiledFactorization::reset() {
  a_ = original_;
  std::fill(t_.begin(), t_.end(), 0.0);
}

DurationTable calibrate(std::string_view family, int tile_size, int repeats) {
  if (repeats < 1)
    detail::throw_error("calibrate: repeats=" + std::to_string(repeats) + ": expected an integer >= 1");
  TiledFactorization f(family, 3, tile_size);  // 3×3 tiles: every kernel of every family appears
  const TaskGraph& g = f.graph();
  std::vector<std::vector<double>> samples(g.kernel_names().size());
  using clock = std::chrono::steady_clock;
  for (int run = 0; run <= repeats; ++run) {  // run 0 warms caches and BLAS buffers
    f.reset();
    for (TaskId t : g.topological_order()) {
      const auto start = clock::now();
      f.run(t);
      const std::chrono::duration<double, std::milli> took = clock::now() - start;
      if (run > 0) samples[g.task(t).kernel].push_back(took.count());
    }
  }
  DurationTable table;
  table.name = "calibrated b=" + std::to_string(tile_size);
  table.unit = "ms";
  for (std::size_t k = 0; k < samples.size(); ++k) {
    auto& s = samples[k];
    std::sort(s.begin(), s.end());
    const std::size_t m = s.size() / 2;
    const double median = s.size() % 2 == 1 ? s[m] : 0.5 * (s[m - 1] + s[m]);
    table.kernels[g.kernel_names()[k]] = {median, not_available};
  }
#if AUTOSCHED_DAG_CUDA
  // With a GPU here: the same measurement on the first GPU, transfers
  // included (the executor copies a task's tiles in and out), for the
  // kernels that have a GPU implementation.
  if (GpuTileRunner::devices() > 0) {
    GpuTileRunner gpu(0, tile_size);
    std::vector<std::vector<double>> on_gpu(g.kernel_names().size());
    for (int run = 0; run <= repeats; ++run) {
      f.reset();
      for (TaskId t : g.topological_order()) {
        const auto start = clock::now();
        if (GpuTileRunner::supports(g.kernel_name(t))) {
          gpu.run(f, t);
        } else {
          f.run(t);
        }
        const std::chrono::duration<double, std::milli> took = clock::now() - start;
        if (run > 0 && GpuTileRunner::supports(g.kernel_name(t))) on_gpu[g.task(t).kernel].push_back(took.count());
      }
    }
    for (std::size_t k = 0; k < on_gpu.size(); ++k) {
      auto& s = on_gpu[k];
      if (s.empty()) continue;
      std::sort(s.begin(), s.end());
      const std::size_t m = s.size() / 2;
      table.kernels[g.kernel_names()[k]][static_cast<std::size_t>(ResourceKind::gpu)] =
          s.size() % 2 == 1 ? s[m] : 0.5 * (s[m - 1] + s[m]);
    }
  }
#endif
  return table;
}

}  // namespace autosched::dag
