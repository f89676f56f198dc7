// autosched-short-range-force: the short-range force of a particle code
// (after HACCKernels): each particle sums a polynomial force correction over
// a fixed number of neighbours. Uniform work per iteration, so selection can
// only help by doing no harm.
// Verified: the last step is recomputed serially and matches bit for bit.
#include "../common/app.hpp"

#include <cmath>
#include <vector>

namespace {

// HACC's grid-force correction: a fifth-order polynomial in r², times the
// inverse cube of the softened distance, cut off at the interaction radius.
double force(double r2) {
  constexpr double c0 = 0.263729, c1 = -0.0686285, c2 = 0.00882248, c3 = -0.000592487, c4 = 1.84e-05, c5 = -1.9e-07;
  if (r2 >= 8.0) return 0.0;
  const double s = r2 + 0.1;
  return 1.0 / (s * std::sqrt(s)) - (c0 + r2 * (c1 + r2 * (c2 + r2 * (c3 + r2 * (c4 + r2 * c5)))));
}

}  // namespace

int main(int argc, char** argv) {
  autosched::apps::App app("short-range-force", "HACC-style short-range force, uniform work", argc, argv,
                           {{"particles", 1 << 17, "particles"}, {"neighbours", 64, "neighbours per particle"}}, 200);
  const std::int64_t n = app.size("particles");
  const long k = app.size("neighbours");
  if (n < 2 || k < 1) {
    std::fprintf(stderr, "autosched-short-range-force: expected at least 2 particles and 1 neighbour\n");
    return 2;
  }
  std::vector<double> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n)), z(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    x[static_cast<std::size_t>(i)] = 2.0 * autosched::apps::uniform(3 * static_cast<std::uint64_t>(i));
    y[static_cast<std::size_t>(i)] = 2.0 * autosched::apps::uniform(3 * static_cast<std::uint64_t>(i) + 1);
    z[static_cast<std::size_t>(i)] = 2.0 * autosched::apps::uniform(3 * static_cast<std::uint64_t>(i) + 2);
  }
  std::vector<double> fx(static_cast<std::size_t>(n));
  // Neighbour j of particle i: a fixed stride pattern around it, the same count for everyone.
  auto particle_force = [&](std::int64_t i, double shift) {
    double f = 0;
    for (long j = 1; j <= k; ++j) {
      const auto other = static_cast<std::size_t>((i + j * 37) % n);
      const double dx = x[other] - x[static_cast<std::size_t>(i)] + shift;
      const double dy = y[other] - y[static_cast<std::size_t>(i)];
      const double dz = z[other] - z[static_cast<std::size_t>(i)];
      const double r2 = dx * dx + dy * dy + dz * dz;
      f += dx * force(r2);
    }
    return f;
  };
  double shift = 0;
  for (int step = 0; step < app.steps(); ++step) {
    shift = 1e-3 * step;  // particles drift a little each step
    app.loop("short-range-force/forces", n,
             [&, shift](std::int64_t i) { fx[static_cast<std::size_t>(i)] = particle_force(i, shift); });
    app.reference("short-range-force/forces", n,
                  [&, shift](std::int64_t i) { fx[static_cast<std::size_t>(i)] = particle_force(i, shift); });
    app.end_step();
  }
  std::int64_t wrong = 0;
  double sum = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double f = particle_force(i, shift);
    wrong += f != fx[static_cast<std::size_t>(i)];
    sum += f;
  }
  char what[120];
  std::snprintf(what, sizeof what, "last step matches serial (sum of forces %.6e)", sum);
  return app.finish(wrong == 0, wrong == 0 ? what : std::to_string(wrong) + " forces differ from serial");
}
