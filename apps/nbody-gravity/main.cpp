// autosched-nbody-gravity: the gravity loop of a collapsing cloud (after
// SPHYNX's Evrard collapse), with Barnes-Hut trees. A uniform sphere of
// particles at rest falls in on itself over the run (it reaches about 90% of
// its free-fall time at the last step); one iteration walks the tree for one
// particle, and the walk gets longer where the cloud gets denser, so the
// imbalance drifts as the steps go on. Particles are kept in Morton order of
// their starting position, so neighbours in the loop are neighbours in space.
// Verified: every particle's acceleration is computed exactly once per step
// and is finite, and a sample recomputed serially from the same tree matches
// bit for bit.
#include "../common/app.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

namespace {

struct Vec {
  double x = 0, y = 0, z = 0;
};

struct Node {
  Vec centre;  ///< of the cube
  double half = 0;
  Vec mass_centre;
  double mass = 0;
  int first_child = -1;    ///< 8 children from here, or -1 for a leaf
  int begin = 0, end = 0;  ///< a leaf's particles in `Tree::index`
};

constexpr int leaf_size = 8;

struct Tree {
  std::vector<Node> nodes;
  std::vector<int> index;

  void build(const std::vector<Vec>& pos, const std::vector<double>& mass) {
    nodes.clear();
    index.resize(pos.size());
    std::iota(index.begin(), index.end(), 0);
    Vec lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    for (const Vec& p : pos) {
      lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
      hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    }
    Node root;
    root.centre = {(lo.x + hi.x) / 2, (lo.y + hi.y) / 2, (lo.z + hi.z) / 2};
    root.half = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}) / 2 * 1.0001 + 1e-12;
    root.begin = 0;
    root.end = static_cast<int>(pos.size());
    nodes.push_back(root);
    split(0, pos, mass, 0);
  }

 private:
  void split(int at, const std::vector<Vec>& pos, const std::vector<double>& mass, int depth) {
    Node& node = nodes[static_cast<std::size_t>(at)];
    double m = 0;
    Vec c;
    for (int k = node.begin; k < node.end; ++k) {
      const int i = index[static_cast<std::size_t>(k)];
      m += mass[static_cast<std::size_t>(i)];
      c.x += mass[static_cast<std::size_t>(i)] * pos[static_cast<std::size_t>(i)].x;
      c.y += mass[static_cast<std::size_t>(i)] * pos[static_cast<std::size_t>(i)].y;
      c.z += mass[static_cast<std::size_t>(i)] * pos[static_cast<std::size_t>(i)].z;
    }
    node.mass = m;
    node.mass_centre = m > 0 ? Vec{c.x / m, c.y / m, c.z / m} : node.centre;
    if (node.end - node.begin <= leaf_size || depth > 40) return;
    // Partition the particles into the eight octants.
    const Vec centre = node.centre;
    const double half = node.half;
    std::array<int, 9> bounds{};
    bounds[0] = node.begin;
    bounds[8] = node.end;
    auto octant = [&](int i) {
      const Vec& p = pos[static_cast<std::size_t>(i)];
      return (p.x >= centre.x ? 1 : 0) | (p.y >= centre.y ? 2 : 0) | (p.z >= centre.z ? 4 : 0);
    };
    std::stable_sort(index.begin() + node.begin, index.begin() + node.end,
                     [&](int a, int b) { return octant(a) < octant(b); });
    for (int o = 1; o < 8; ++o) {
      bounds[static_cast<std::size_t>(o)] =
          static_cast<int>(std::partition_point(index.begin() + node.begin, index.begin() + node.end,
                                                [&](int i) { return octant(i) < o; }) -
                           index.begin());
    }
    const int first = static_cast<int>(nodes.size());
    nodes[static_cast<std::size_t>(at)].first_child = first;
    for (int o = 0; o < 8; ++o) {
      Node child;
      child.half = half / 2;
      child.centre = {centre.x + ((o & 1) ? 1 : -1) * half / 2, centre.y + ((o & 2) ? 1 : -1) * half / 2,
                      centre.z + ((o & 4) ? 1 : -1) * half / 2};
      child.begin = bounds[static_cast<std::size_t>(o)];
      child.end = bounds[static_cast<std::size_t>(o) + 1];
      nodes.push_back(child);
    }
    for (int o = 0; o < 8; ++o) split(first + o, pos, mass, depth + 1);
  }
};

// Acceleration on particle i: cells far enough (size / distance < theta) act
// through their centre of mass, leaves particle by particle.
Vec acceleration(const Tree& tree, const std::vector<Vec>& pos, const std::vector<double>& mass, int i, double theta,
                 double eps2) {
  Vec a;
  const Vec p = pos[static_cast<std::size_t>(i)];
  int stack[256];
  int top = 0;
  stack[top++] = 0;
  auto pull = [&](const Vec& q, double m) {
    const double dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    const double r2 = dx * dx + dy * dy + dz * dz + eps2;
    const double f = m / (r2 * std::sqrt(r2));
    a.x += f * dx;
    a.y += f * dy;
    a.z += f * dz;
  };
  while (top > 0) {
    const Node& node = tree.nodes[static_cast<std::size_t>(stack[--top])];
    if (node.mass == 0) continue;
    const double dx = node.mass_centre.x - p.x, dy = node.mass_centre.y - p.y, dz = node.mass_centre.z - p.z;
    const double d2 = dx * dx + dy * dy + dz * dz;
    const double size = 2 * node.half;
    if (node.first_child < 0) {
      for (int k = node.begin; k < node.end; ++k) {
        const int j = tree.index[static_cast<std::size_t>(k)];
        if (j != i) pull(pos[static_cast<std::size_t>(j)], mass[static_cast<std::size_t>(j)]);
      }
    } else if (size * size < theta * theta * d2) {
      pull(node.mass_centre, node.mass);
    } else {
      for (int o = 0; o < 8; ++o) stack[top++] = node.first_child + o;
    }
  }
  return a;
}

std::uint64_t morton(const Vec& p) {
  auto spread = [](std::uint64_t v) {
    std::uint64_t x = v & 0x1fffff;
    x = (x | x << 32) & 0x1f00000000ffffULL;
    x = (x | x << 16) & 0x1f0000ff0000ffULL;
    x = (x | x << 8) & 0x100f00f00f00f00fULL;
    x = (x | x << 4) & 0x10c30c30c30c30c3ULL;
    x = (x | x << 2) & 0x1249249249249249ULL;
    return x;
  };
  auto q = [](double c) { return static_cast<std::uint64_t>((c + 1.0) / 2.0 * 2097151.0); };
  return spread(q(p.x)) | spread(q(p.y)) << 1 | spread(q(p.z)) << 2;
}

}  // namespace

int main(int argc, char** argv) {
  autosched::apps::App app(
      "nbody-gravity", "Barnes-Hut gravity of a collapsing cloud (drifting imbalance)", argc, argv,
      {{"particles", 8192, "particles in the cloud"}, {"theta", 0.6, "opening angle of the tree walk", false}}, 200);
  const int n = static_cast<int>(app.size("particles"));
  const double theta = app.real("theta");
  if (n < 2) {
    std::fprintf(stderr, "autosched-nbody-gravity: --particles=%d: expected at least 2\n", n);
    return 2;
  }
  // A uniform sphere of radius 1 and mass 1 at rest; G = 1.
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Vec> pos;
  while (static_cast<int>(pos.size()) < n) {
    const Vec p{u(rng), u(rng), u(rng)};
    if (p.x * p.x + p.y * p.y + p.z * p.z <= 1.0) pos.push_back(p);
  }
  std::sort(pos.begin(), pos.end(), [](const Vec& a, const Vec& b) { return morton(a) < morton(b); });
  std::vector<double> mass(static_cast<std::size_t>(n), 1.0 / n);
  std::vector<Vec> vel(static_cast<std::size_t>(n)), acc(static_cast<std::size_t>(n));
  std::vector<unsigned char> visits(static_cast<std::size_t>(n));
  const double eps2 = 0.02 * 0.02;
  const double dt = 1.0 / app.steps();  // the run covers t = 1, about 0.9 free-fall times
  Tree tree;
  bool once = true, finite = true, sample_matches = true;
  for (int step = 0; step < app.steps(); ++step) {
    tree.build(pos, mass);
    std::fill(visits.begin(), visits.end(), 0);
    app.loop("nbody-gravity/forces", n, [&](std::int64_t i) {
      acc[static_cast<std::size_t>(i)] = acceleration(tree, pos, mass, static_cast<int>(i), theta, eps2);
      ++visits[static_cast<std::size_t>(i)];
    });
    // The same accelerations once more (the visit count is the check's, not the work's).
    app.reference("nbody-gravity/forces", n, [&](std::int64_t i) {
      acc[static_cast<std::size_t>(i)] = acceleration(tree, pos, mass, static_cast<int>(i), theta, eps2);
    });
    for (int i = 0; i < n; ++i) {
      once = once && visits[static_cast<std::size_t>(i)] == 1;
      const Vec& a = acc[static_cast<std::size_t>(i)];
      finite = finite && std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z);
    }
    if (step == app.steps() - 1) {
      for (int i = 0; i < n; i += std::max(1, n / 64)) {
        const Vec a = acceleration(tree, pos, mass, i, theta, eps2);
        const Vec& b = acc[static_cast<std::size_t>(i)];
        sample_matches = sample_matches && a.x == b.x && a.y == b.y && a.z == b.z;
      }
    }
    for (int i = 0; i < n; ++i) {  // kick and drift (symplectic Euler)
      Vec& v = vel[static_cast<std::size_t>(i)];
      Vec& p = pos[static_cast<std::size_t>(i)];
      const Vec& a = acc[static_cast<std::size_t>(i)];
      v = {v.x + dt * a.x, v.y + dt * a.y, v.z + dt * a.z};
      p = {p.x + dt * v.x, p.y + dt * v.y, p.z + dt * v.z};
    }
    app.end_step();
  }
  double r2 = 0;
  for (const Vec& p : pos) r2 += p.x * p.x + p.y * p.y + p.z * p.z;
  const bool ok = once && finite && sample_matches;
  char what[200];
  std::snprintf(what, sizeof what, "every acceleration once, finite, and a sample matches serially; rms radius %.3f",
                std::sqrt(r2 / n));
  return app.finish(ok, ok ? what
                           : (!once ? "a particle was computed more or less than once"
                                    : (!finite ? "an acceleration is not finite" : "a sample differs from serial")));
}
