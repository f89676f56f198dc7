// autosched-triangle-count: counts the triangles of a Kronecker graph
// (Graph500 parameters A, B, C = 0.57, 0.19, 0.19; generated in-process),
// once per time step, one iteration per vertex. As in GAP's `tc`, vertices
// are relabelled by decreasing degree and each triangle is counted once from
// its highest-ranked corner: the work per vertex is severely skewed and lies
// at the start of the iteration space, so static's blocks are imbalanced.
// Verified: every step's count equals a serial count.
#include "../common/app.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace {

struct Graph {
  std::vector<std::int64_t> offsets;  ///< CSR: neighbours of v are targets[offsets[v] .. offsets[v+1])
  std::vector<std::int32_t> targets;  ///< sorted per vertex
  [[nodiscard]] std::int64_t vertices() const { return static_cast<std::int64_t>(offsets.size()) - 1; }
};

// Kronecker (R-MAT) edges as Graph500 generates them, with a random relabelling.
std::vector<std::pair<std::int32_t, std::int32_t>> kronecker_edges(int scale, int edge_factor, std::uint64_t seed) {
  const double a = 0.57, b = 0.19, c = 0.19;
  const std::int64_t n = std::int64_t{1} << scale;
  const std::int64_t m = n * edge_factor;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::int32_t> relabel(static_cast<std::size_t>(n));
  std::iota(relabel.begin(), relabel.end(), 0);
  std::shuffle(relabel.begin(), relabel.end(), rng);
  std::vector<std::pair<std::int32_t, std::int32_t>> edges;
  edges.reserve(static_cast<std::size_t>(m));
  for (std::int64_t e = 0; e < m; ++e) {
    std::int64_t row = 0, col = 0;
    for (int level = 0; level < scale; ++level) {
      const double r = u(rng);
      const int bit_row = r >= a + b ? 1 : 0;
      const int bit_col = (r >= a && r < a + b) || r >= a + b + c ? 1 : 0;
      row = (row << 1) | bit_row;
      col = (col << 1) | bit_col;
    }
    edges.emplace_back(relabel[static_cast<std::size_t>(row)], relabel[static_cast<std::size_t>(col)]);
  }
  return edges;
}

// Undirected, without self loops or duplicates, vertices relabelled by
// decreasing degree (ties by id), neighbour lists sorted.
Graph build(int scale, int edge_factor) {
  const std::int64_t n = std::int64_t{1} << scale;
  auto edges = kronecker_edges(scale, edge_factor, 0x7c0ffee);
  std::vector<std::pair<std::int32_t, std::int32_t>> both;
  both.reserve(edges.size() * 2);
  for (auto [x, y] : edges) {
    if (x == y) continue;
    both.emplace_back(x, y);
    both.emplace_back(y, x);
  }
  std::sort(both.begin(), both.end());
  both.erase(std::unique(both.begin(), both.end()), both.end());
  std::vector<std::int64_t> degree(static_cast<std::size_t>(n), 0);
  for (auto [x, y] : both) ++degree[static_cast<std::size_t>(x)];
  std::vector<std::int32_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t x, std::int32_t y) {
    return degree[static_cast<std::size_t>(x)] > degree[static_cast<std::size_t>(y)];
  });
  std::vector<std::int32_t> rank(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r)
    rank[static_cast<std::size_t>(order[static_cast<std::size_t>(r)])] = static_cast<std::int32_t>(r);
  for (auto& [x, y] : both) {
    x = rank[static_cast<std::size_t>(x)];
    y = rank[static_cast<std::size_t>(y)];
  }
  std::sort(both.begin(), both.end());
  Graph g;
  g.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  for (auto [x, y] : both) ++g.offsets[static_cast<std::size_t>(x) + 1];
  std::partial_sum(g.offsets.begin(), g.offsets.end(), g.offsets.begin());
  g.targets.resize(both.size());
  for (std::size_t k = 0; k < both.size(); ++k) g.targets[k] = both[k].second;
  return g;
}

// Triangles u > v > w counted at u: for each neighbour v < u, the common
// neighbours of u and v below v (merge of two sorted lists).
std::int64_t triangles_at(const Graph& g, std::int64_t u) {
  std::int64_t count = 0;
  const std::int32_t* nu = g.targets.data() + g.offsets[static_cast<std::size_t>(u)];
  const std::int32_t* nu_end = g.targets.data() + g.offsets[static_cast<std::size_t>(u) + 1];
  for (const std::int32_t* pv = nu; pv != nu_end && *pv < u; ++pv) {
    const std::int32_t v = *pv;
    const std::int32_t* a = nu;
    const std::int32_t* b = g.targets.data() + g.offsets[static_cast<std::size_t>(v)];
    const std::int32_t* b_end = g.targets.data() + g.offsets[static_cast<std::size_t>(v) + 1];
    while (a != nu_end && b != b_end && *a < v && *b < v) {
      if (*a < *b) {
        ++a;
      } else if (*b < *a) {
        ++b;
      } else {
        ++count;
        ++a;
        ++b;
      }
    }
  }
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  autosched::apps::App app("triangle-count", "triangle counting on a Kronecker graph (severe static imbalance)", argc,
                           argv, {{"scale", 14, "log2 of the vertex count"}, {"edge-factor", 16, "edges per vertex"}},
                           200);
  const int scale = static_cast<int>(app.size("scale"));
  if (scale < 1 || scale > 30) {
    std::fprintf(stderr, "autosched-triangle-count: --scale=%d: expected 1 to 30\n", scale);
    return 2;
  }
  const Graph g = build(scale, static_cast<int>(app.size("edge-factor")));
  std::int64_t expected = 0;
  for (std::int64_t u = 0; u < g.vertices(); ++u) expected += triangles_at(g, u);

  autosched::apps::PerThread<std::int64_t> found(app.threads()), again(app.threads());
  bool all_right = true;
  for (int step = 0; step < app.steps(); ++step) {
    found.reset();
    app.loop("triangle-count/count", g.vertices(), [&](std::int64_t u) { found.local() += triangles_at(g, u); });
    // The reference counts into counters of its own (a second count into
    // `found` would fail the step's check).
    app.reference("triangle-count/count", g.vertices(), [&](std::int64_t u) { again.local() += triangles_at(g, u); });
    all_right = all_right && found.sum() == expected;
    app.end_step();
  }
  return app.finish(all_right, std::to_string(expected) + " triangles in a graph of " + std::to_string(g.vertices()) +
                                   " vertices and " + std::to_string(g.targets.size() / 2) + " edges" +
                                   (all_right ? ", every step" : ", but a step counted differently"));
}
