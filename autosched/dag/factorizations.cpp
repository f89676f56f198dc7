#include <autosched/dag/factorizations.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <string>

namespace autosched::dag {

namespace {

void check_tiles(std::string_view what, int tiles) {
  if (tiles < 2 || tiles > 4096)
    detail::throw_error(std::string(what) + ": tiles=" + std::to_string(tiles) + ": expected an integer in [2, 4096]");
}

std::string graph_name(std::string_view family, int tiles, GraphFlavour flavour) {
  return std::string(family) + " T=" + std::to_string(tiles) + (flavour == GraphFlavour::readys ? " (readys)" : "");
}

/// Ids by tile coordinates, filled while tasks are added in program order.
struct Ids {
  explicit Ids(int t) : tiles(t), table(static_cast<std::size_t>(t) * t * t, no_task) {}
  int tiles;
  std::vector<TaskId> table;
  TaskId& at(int a, int b, int c) {
    return table[(static_cast<std::size_t>(a) * tiles + static_cast<std::size_t>(b)) * tiles + static_cast<std::size_t>(c)];
  }
};

void apply_readys_labels(TaskGraph& g) {
  const auto labels = readys_declaration_labels(g);
  g.relabel(labels);
}

TaskGraph readys_qr(int n) {
  // READYS's own QR construction (its env/utils.py), 1-based indices:
  // every GEQRT first, then the (j,i) tasks, the (i,j) tasks and the
  // (i,j,k) tasks, each family in loop order; its edges as it lists them.
  TaskGraph g(graph_name("qr", n, GraphFlavour::readys), {"GEQRT", "TSQRT", "UNMQR", "TSMQR"});
  std::map<std::array<int, 4>, TaskId> id;
  for (int i = 1; i <= n; ++i) id[{0, i, 0, 0}] = g.add_task(0, {i - 1, -1, -1});
  for (int i = 1; i < n; ++i)
    for (int j = i + 1; j <= n; ++j) id[{1, j, i, 0}] = g.add_task(1, {j - 1, i - 1, -1});
  for (int i = 1; i < n; ++i)
    for (int j = i + 1; j <= n; ++j) id[{2, i, j, 0}] = g.add_task(2, {i - 1, j - 1, -1});
  for (int i = 1; i < n; ++i)
    for (int j = i + 1; j <= n; ++j)
      for (int k = i + 1; k <= n; ++k) id[{3, i, j, k}] = g.add_task(3, {i - 1, j - 1, k - 1});
  auto edge = [&](std::array<int, 4> a, std::array<int, 4> b) { g.add_edge(id.at(a), id.at(b)); };
  for (int i = 1; i < n; ++i)
    for (int j = i + 1; j <= n; ++j) edge({0, i, 0, 0}, {1, j, i, 0});
  for (int i = 1; i < n; ++i)
    for (int j = i + 1; j <= n; ++j)
      for (int k = i + 1; k <= n; ++k) edge({1, j, i, 0}, {3, i, j, k});
  for (int i = 1; i < n; ++i)
    for (int j = i + 1; j <= n; ++j)
      for (int k = i + 1; k <= n; ++k) edge({2, i, j, 0}, {3, i, k, j});
  for (int i = 1; i < n - 1; ++i)
    for (int j = i + 2; j <= n; ++j)
      for (int k = i + 2; k <= n; ++k) edge({3, i, j, k}, {3, i + 1, j, k});
  for (int i = 1; i < n - 1; ++i)
    for (int k = i + 2; k < n; ++k) edge({3, i, i + 1, k}, {2, i + 1, k, 0});
  for (int i = 1; i < n - 1; ++i)
    for (int j = i + 2; j < n; ++j) edge({3, i, j, i + 1}, {1, j, i + 1, 0});
  for (int i = 1; i < n - 1; ++i) edge({3, i, i + 1, i + 1}, {0, i + 1, 0, 0});
  g.finalize();
  return g;
}

}  // namespace

std::vector<std::uint16_t> readys_declaration_labels(const TaskGraph& g) {
  const std::size_t n = g.size();
  std::vector<TaskId> declared;
  std::vector<char> seen(n, 0);
  declared.reserve(n);
  auto declare = [&](TaskId t) {
    if (!seen[static_cast<std::size_t>(t)]) {
      seen[static_cast<std::size_t>(t)] = 1;
      declared.push_back(t);
    }
  };
  for (std::size_t s = 0; s < n; ++s) {
    if (g.predecessors(static_cast<TaskId>(s)).empty()) declare(static_cast<TaskId>(s));  // a source starts its block
    for (TaskId t : g.successors(static_cast<TaskId>(s))) declare(t);
  }
  std::vector<std::uint16_t> labels(n);
  for (std::size_t v = 0; v < n; ++v) labels[v] = g.task(declared[v]).kernel;
  return labels;
}

TaskGraph cholesky(int T, GraphFlavour flavour) {
  check_tiles("cholesky", T);
  enum : std::uint16_t { POTRF, SYRK, TRSM, GEMM };
  TaskGraph g(graph_name("cholesky", T, flavour), {"POTRF", "SYRK", "TRSM", "GEMM"});
  Ids potrf(T), trsm(T), syrk(T), gemm(T);
  for (int k = 0; k < T; ++k) {
    potrf.at(k, 0, 0) = g.add_task(POTRF, {k, -1, -1});
    for (int i = k + 1; i < T; ++i) trsm.at(i, k, 0) = g.add_task(TRSM, {i, k, -1});
    for (int i = k + 1; i < T; ++i) {
      syrk.at(i, k, 0) = g.add_task(SYRK, {i, k, -1});
      for (int j = k + 1; j < i; ++j) gemm.at(i, j, k) = g.add_task(GEMM, {i, j, k});
    }
  }
  for (int k = 0; k < T; ++k) {
    for (int i = k + 1; i < T; ++i) {
      g.add_edge(potrf.at(k, 0, 0), trsm.at(i, k, 0));
      g.add_edge(trsm.at(i, k, 0), syrk.at(i, k, 0));
      for (int j = k + 1; j < i; ++j) {
        g.add_edge(trsm.at(i, k, 0), gemm.at(i, j, k));
        g.add_edge(trsm.at(j, k, 0), gemm.at(i, j, k));
        g.add_edge(gemm.at(i, j, k), k + 1 < j ? gemm.at(i, j, k + 1) : trsm.at(i, j, 0));
      }
      g.add_edge(syrk.at(i, k, 0), k + 1 < i ? syrk.at(i, k + 1, 0) : potrf.at(i, 0, 0));
    }
  }
  g.finalize();
  if (flavour == GraphFlavour::readys) apply_readys_labels(g);
  return g;
}

TaskGraph lu(int T, GraphFlavour flavour) {
  check_tiles("lu", T);
  enum : std::uint16_t { GETRF, GEMM, TRSM_RU, TRSM_LL };
  TaskGraph g(graph_name("lu", T, flavour), {"GETRF", "GEMM", "TRSM_RU", "TRSM_LL"});
  Ids getrf(T), row(T), col(T), gemm(T);
  for (int k = 0; k < T; ++k) {
    getrf.at(k, 0, 0) = g.add_task(GETRF, {k, -1, -1});
    for (int j = k + 1; j < T; ++j) row.at(k, j, 0) = g.add_task(TRSM_LL, {k, j, -1});
    for (int i = k + 1; i < T; ++i) col.at(i, k, 0) = g.add_task(TRSM_RU, {i, k, -1});
    for (int i = k + 1; i < T; ++i)
      for (int j = k + 1; j < T; ++j) gemm.at(i, j, k) = g.add_task(GEMM, {i, j, k});
  }
  // The task that first touches tile (i,j) at step k+1.
  auto next_user = [&](int i, int j, int k1) {
    if (i == k1 && j == k1) return getrf.at(k1, 0, 0);
    if (i == k1) return row.at(k1, j, 0);
    if (j == k1) return col.at(i, k1, 0);
    return gemm.at(i, j, k1);
  };
  for (int k = 0; k < T; ++k) {
    for (int j = k + 1; j < T; ++j) g.add_edge(getrf.at(k, 0, 0), row.at(k, j, 0));
    for (int i = k + 1; i < T; ++i) g.add_edge(getrf.at(k, 0, 0), col.at(i, k, 0));
    for (int i = k + 1; i < T; ++i) {
      for (int j = k + 1; j < T; ++j) {
        g.add_edge(row.at(k, j, 0), gemm.at(i, j, k));
        g.add_edge(col.at(i, k, 0), gemm.at(i, j, k));
        g.add_edge(gemm.at(i, j, k), next_user(i, j, k + 1));
      }
    }
  }
  g.finalize();
  if (flavour == GraphFlavour::readys) apply_readys_labels(g);
  return g;
}

TaskGraph qr(int T, GraphFlavour flavour) {
  check_tiles("qr", T);
  if (flavour == GraphFlavour::readys) return readys_qr(T);
  enum : std::uint16_t { GEQRT, TSQRT, UNMQR, TSMQR };
  TaskGraph g(graph_name("qr", T, flavour), {"GEQRT", "TSQRT", "UNMQR", "TSMQR"});
  Ids geqrt(T), unmqr(T), tsqrt(T), tsmqr(T);
  for (int k = 0; k < T; ++k) {
    geqrt.at(k, 0, 0) = g.add_task(GEQRT, {k, -1, -1});
    for (int n = k + 1; n < T; ++n) unmqr.at(k, n, 0) = g.add_task(UNMQR, {k, n, -1});
    for (int m = k + 1; m < T; ++m) {
      tsqrt.at(m, k, 0) = g.add_task(TSQRT, {m, k, -1});
      for (int n = k + 1; n < T; ++n) tsmqr.at(m, n, k) = g.add_task(TSMQR, {m, n, k});
    }
  }
  auto next_user = [&](int m, int n, int k1) {
    if (m == k1 && n == k1) return geqrt.at(k1, 0, 0);
    if (m == k1) return unmqr.at(k1, n, 0);
    if (n == k1) return tsqrt.at(m, k1, 0);
    return tsmqr.at(m, n, k1);
  };
  for (int k = 0; k < T; ++k) {
    for (int n = k + 1; n < T; ++n) g.add_edge(geqrt.at(k, 0, 0), unmqr.at(k, n, 0));
    if (k + 1 < T) g.add_edge(geqrt.at(k, 0, 0), tsqrt.at(k + 1, k, 0));
    for (int m = k + 1; m < T; ++m) {
      if (m + 1 < T) g.add_edge(tsqrt.at(m, k, 0), tsqrt.at(m + 1, k, 0));
      for (int n = k + 1; n < T; ++n) {
        g.add_edge(tsqrt.at(m, k, 0), tsmqr.at(m, n, k));
        // Row k of the trailing matrix passes down the chain of TSMQRs.
        g.add_edge(m == k + 1 ? unmqr.at(k, n, 0) : tsmqr.at(m - 1, n, k), tsmqr.at(m, n, k));
        g.add_edge(tsmqr.at(m, n, k), next_user(m, n, k + 1));
      }
    }
  }
  g.finalize();
  return g;
}

TaskGraph factorization(std::string_view family, int tiles, GraphFlavour flavour) {
  std::string f(family);
  std::transform(f.begin(), f.end(), f.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (f == "cholesky" || f == "chol") return cholesky(tiles, flavour);
  if (f == "lu") return lu(tiles, flavour);
  if (f == "qr") return qr(tiles, flavour);
  detail::throw_error("graph '" + std::string(family) + "': expected cholesky, lu or qr (or a graph file)");
}

double factorization_tasks(std::string_view family, int tiles) {
  std::string f(family);
  std::transform(f.begin(), f.end(), f.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const bool cholesky_family = f == "cholesky" || f == "chol";
  double tasks = 0;
  for (double m = 0; m < tiles; ++m)  // m: the tiles below the diagonal at step T-1-m
    tasks += 1 + 2 * m + (cholesky_family ? m * (m - 1) / 2 : m * m);
  return tasks;
}

}  // namespace autosched::dag
