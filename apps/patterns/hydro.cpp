// autosched-pattern-hydro: a Lagrangian-hydro-like time step, as a plain
// OpenMP program (schedule(runtime) loops, no autosched header or library).
//
// What it models: the cycle of an explicit staggered-grid Lagrangian code on
// a 2D quadrilateral mesh (zones carry density, energy, pressure; nodes carry
// position and velocity): geometry, equation of state, an artificial
// viscosity with a neighbour-based limiter, corner forces (pressure plus
// hourglass control), their assembly onto nodes through an index array,
// the velocity and position update, the compatible work update of the zone
// energies, a heat-conduction stencil, and the energy and time-step
// reductions that such codes run every cycle. 28 distinct parallel loops a
// step, most of them memory-bound, all over the same arrays every step: a
// thread that gets the same iterations every instance finds them in its
// cache, or its NUMA domain's memory, where those are its own (on a machine
// with private L2s and split L3s or several sockets; the 2-vCPU VM's single
// 32 MB L3 is shared, so there only the contiguous, overhead-free chunks
// favour static). A fixed static schedule is the one to beat. Each step also
// allocates and frees five temporaries of 5 MB each at the default size
// (the viscosity's gradients as std::vector, the old velocities from malloc,
// the conduction buffer from new[]), as many production codes do, so the
// heap is churned the way theirs is.
//
// Defaults: --size 800 (800 x 800 zones, ~170 MB in all) and --steps 25.
// At 2 threads on the 2-core AMD EPYC VM this was written on (shared with
// other work at the time): 39 ms a step, its loops from 0.2 ms (the max
// reductions) to 5 ms (the velocity update, which first touches the step's
// malloc'ed old velocities); 1.3 s in all, 0.3 s of it the serial setup.
// --profile prints each loop's mean ms a step.
//
// Check: the scheme conserves total energy (internal plus kinetic) to
// rounding, whatever the order in which iterations run: the work a zone's
// corner forces do on the nodes' time-centred velocities is exactly what the
// nodes gain in kinetic energy, and the conduction stencil only exchanges
// energy between neighbours. Rounding drifts the total by ~1e-14; a lost or
// repeated chunk of iterations moves it by far more than the 1e-11 allowed
// (one lost iteration of the work loop: 3e-11). The program also checks that
// every zone keeps a positive volume and finite state.
//
// Output: `pattern hydro loop_ms <ms inside the timed loops> wall_ms <ms of
// the whole compute phase: setup and all steps> check ok`.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "pattern_common.hpp"

namespace {

using pattern::Timed;

struct Options {
  int size = 800;
  int steps = 25;
  bool profile = false;
};

Options parse(int argc, char** argv) {
  Options o;
  const auto option = [&](const std::string& a, auto number) {
    if (a == "--size")
      o.size = number(8, 8192);
    else if (a == "--steps")
      o.steps = number(1, 1000000);
    else if (a == "--profile")
      o.profile = true;
    else
      return false;
    return true;
  };
  pattern::parse_arguments(argc, argv, "[--size N] [--steps S] [--profile]",
                           "  --size N    N x N zones (default 800)\n"
                           "  --steps S   time steps (default 25)\n"
                           "  --profile   print each loop's mean ms per instance\n",
                           option);
  return o;
}

enum Loop {
  kGeometry,
  kDensity,
  kPressure,
  kSoundSpeed,
  kDivergence,
  kQGradients,
  kQLimiter,
  kDtCourant,
  kDtVolume,
  kForcePressure,
  kForceHourglass,
  kNodeForce,
  kAcceleration,
  kVelocity,
  kVelocityCutoff,
  kHalfVelocity,
  kPosition,
  kWork,
  kNewVolume,
  kMinVolume,
  kConduct,
  kConductCopy,
  kInternalEnergy,
  kKineticEnergy,
  kEndPressure,
  kMaxPressure,
  kCentroid,
  kFrontRadius,
  kLoopCount
};
constexpr const char* kLoopNames[kLoopCount] = {
    "geometry",     "density",      "pressure",        "sound_speed",    "divergence",      "q_gradients",
    "q_limiter",    "dt_courant",   "dt_volume",       "force_pressure", "force_hourglass", "node_force",
    "acceleration", "velocity",     "velocity_cutoff", "half_velocity",  "position",        "work",
    "new_volume",   "min_volume",   "conduct",         "conduct_copy",   "internal_energy", "kinetic_energy",
    "end_pressure", "max_pressure", "centroid",        "front_radius"};

constexpr double kGamma = 1.4;
constexpr double kCfl = 0.3;
constexpr double kQLinear = 0.5, kQQuadratic = 1.5;  // artificial viscosity coefficients
constexpr double kHourglass = 0.05;
constexpr double kVelocityCut = 1e-14;

struct Malloced {  // a temporary from malloc, as C-style codes allocate theirs
  void operator()(double* p) const noexcept { std::free(p); }
};
std::unique_ptr<double[], Malloced> malloc_doubles(std::size_t n) {
  auto* p = static_cast<double*>(std::malloc(n * sizeof(double)));
  if (p == nullptr) {
    std::fprintf(stderr, "hydro: out of memory\n");
    std::exit(1);
  }
  return std::unique_ptr<double[], Malloced>(p);
}

struct Hydro {
  int nx, ny, nz, nn;                                      // zones per row and column, zones, nodes
  std::vector<int> zn;                                     // 4 nodes per zone, counter-clockwise
  std::vector<int> nc;                                     // 4 corners (4 * zone + k) per node, -1 where the mesh ends
  std::vector<double> x, y, u, v, mn, fixu, fixv, fx, fy;  // nodes
  std::vector<double> e, m, vol, rho, p, q, cs, len, divu, cx, cy;  // zones
  std::vector<double> cfx, cfy;                                     // corners: 4 per zone
  double loop_s[kLoopCount] = {};
  double dt = 1e-4;

  explicit Hydro(int n) : nx(n), ny(n), nz(n * n), nn((n + 1) * (n + 1)) {
    zn.resize(4 * static_cast<std::size_t>(nz));
    nc.assign(4 * static_cast<std::size_t>(nn), -1);
    for (auto* a : {&x, &y, &u, &v, &mn, &fixu, &fixv, &fx, &fy}) a->assign(nn, 0.0);
    for (auto* a : {&e, &m, &vol, &rho, &p, &q, &cs, &len, &divu, &cx, &cy}) a->assign(nz, 0.0);
    cfx.assign(4 * static_cast<std::size_t>(nz), 0.0);
    cfy.assign(4 * static_cast<std::size_t>(nz), 0.0);
    const int stride = nx + 1;
    for (int j = 0; j <= ny; ++j) {
      for (int i = 0; i <= nx; ++i) {
        const int k = j * stride + i;
        x[k] = static_cast<double>(i) / nx;
        y[k] = static_cast<double>(j) / ny;
        fixu[k] = (i == 0 || i == nx) ? 0.0 : 1.0;  // reflecting walls
        fixv[k] = (j == 0 || j == ny) ? 0.0 : 1.0;
      }
    }
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        const int z = j * nx + i;
        const int corners[4] = {j * stride + i, j * stride + i + 1, (j + 1) * stride + i + 1, (j + 1) * stride + i};
        for (int k = 0; k < 4; ++k) {
          zn[4 * z + k] = corners[k];
          // The node's k-th slot holds this zone's corner: a node is corner k of at most one zone.
          nc[4 * static_cast<std::size_t>(corners[k]) + k] = 4 * z + k;
        }
        const double xc = (i + 0.5) / nx - 0.5, yc = (j + 0.5) / ny - 0.5;
        const double r2 = xc * xc + yc * yc;
        rho[z] = 1.0 + 0.2 * std::sin(9.0 * xc) * std::cos(7.0 * yc);
        e[z] = 1.0 + 4.0 * std::exp(-r2 / 0.01) + 0.2 * std::sin(23.0 * xc + 17.0 * yc);
        vol[z] = 1.0 / nz;
        m[z] = rho[z] * vol[z];
      }
    }
    for (int z = 0; z < nz; ++z) {
      for (int k = 0; k < 4; ++k) mn[zn[4 * z + k]] += 0.25 * m[z];
    }
  }

  // Total energy: internal plus kinetic (two reductions, timed like the step's).
  double energy() {
    double internal = 0.0, kinetic = 0.0;
    const double* pe = e.data();
    const double* pm = m.data();
    const double* pu = u.data();
    const double* pv = v.data();
    const double* pmn = mn.data();
    {
      Timed t(loop_s[kInternalEnergy]);
#pragma omp parallel for schedule(runtime) reduction(+ : internal)
      for (int z = 0; z < nz; ++z) internal += pm[z] * pe[z];
    }
    {
      Timed t(loop_s[kKineticEnergy]);
#pragma omp parallel for schedule(runtime) reduction(+ : kinetic)
      for (int n = 0; n < nn; ++n) kinetic += 0.5 * pmn[n] * (pu[n] * pu[n] + pv[n] * pv[n]);
    }
    return internal + kinetic;
  }

  // One cycle. Returns the smallest zone volume after it (positive unless the mesh tangled).
  double step(double* front_radius) {
    const int* __restrict zone_nodes = zn.data();
    const int* __restrict node_corners = nc.data();
    double* __restrict px = x.data();
    double* __restrict py = y.data();
    double* __restrict pu = u.data();
    double* __restrict pv = v.data();
    const double* __restrict pmn = mn.data();
    const double* __restrict pfixu = fixu.data();
    const double* __restrict pfixv = fixv.data();
    double* __restrict pfx = fx.data();
    double* __restrict pfy = fy.data();
    double* __restrict pe = e.data();
    const double* __restrict pm = m.data();
    double* __restrict pvol = vol.data();
    double* __restrict prho = rho.data();
    double* __restrict pp = p.data();
    double* __restrict pq = q.data();
    double* __restrict pcs = cs.data();
    double* __restrict plen = len.data();
    double* __restrict pdiv = divu.data();
    double* __restrict pcx = cx.data();
    double* __restrict pcy = cy.data();
    const int NX = nx, NY = ny, NZ = nz, NN = nn;

    {
      Timed t(loop_s[kGeometry]);  // area and characteristic length of every zone
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) {
        const int* c = zone_nodes + 4 * z;
        const double x0 = px[c[0]], x1 = px[c[1]], x2 = px[c[2]], x3 = px[c[3]];
        const double y0 = py[c[0]], y1 = py[c[1]], y2 = py[c[2]], y3 = py[c[3]];
        const double area = 0.5 * ((x2 - x0) * (y3 - y1) - (x3 - x1) * (y2 - y0));
        const double d1 = (x2 - x0) * (x2 - x0) + (y2 - y0) * (y2 - y0);
        const double d2 = (x3 - x1) * (x3 - x1) + (y3 - y1) * (y3 - y1);
        pvol[z] = area;
        plen[z] = area / std::sqrt(std::max(d1, d2));
      }
    }
    {
      Timed t(loop_s[kDensity]);
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) prho[z] = pm[z] / pvol[z];
    }
    {
      Timed t(loop_s[kPressure]);  // ideal-gas equation of state
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) pp[z] = std::max(0.0, (kGamma - 1.0) * prho[z] * pe[z]);
    }
    {
      Timed t(loop_s[kSoundSpeed]);
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) pcs[z] = std::sqrt(kGamma * pp[z] / prho[z] + 1e-30);
    }
    {
      Timed t(loop_s[kDivergence]);  // velocity divergence = (dA/dt) / A
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) {
        const int* c = zone_nodes + 4 * z;
        double dadt = 0.0;
        for (int k = 0; k < 4; ++k) {
          const int next = c[(k + 1) & 3], prev = c[(k + 3) & 3];
          dadt += 0.5 * ((py[next] - py[prev]) * pu[c[k]] + (px[prev] - px[next]) * pv[c[k]]);
        }
        pdiv[z] = dadt / pvol[z];
      }
    }
    // The viscosity's logical-direction velocity jumps, a temporary of every step.
    std::vector<double> gxi(static_cast<std::size_t>(NZ)), geta(static_cast<std::size_t>(NZ));
    {
      double* __restrict gx = gxi.data();
      double* __restrict ge = geta.data();
      Timed t(loop_s[kQGradients]);
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) {
        const int* c = zone_nodes + 4 * z;
        const double dxi_u = 0.5 * ((pu[c[1]] + pu[c[2]]) - (pu[c[0]] + pu[c[3]]));
        const double deta_v = 0.5 * ((pv[c[2]] + pv[c[3]]) - (pv[c[0]] + pv[c[1]]));
        gx[z] = dxi_u;
        ge[z] = deta_v;
      }
    }
    {
      const double* __restrict gx = gxi.data();
      const double* __restrict ge = geta.data();
      Timed t(loop_s[kQLimiter]);  // monotonic q: a limiter from the four neighbours' jumps
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) {
        if (pdiv[z] >= 0.0) {
          pq[z] = 0.0;
          continue;
        }
        const int i = z % NX, j = z / NX;
        const int zl = i > 0 ? z - 1 : z, zr = i < NX - 1 ? z + 1 : z;
        const int zd = j > 0 ? z - NX : z, zu = j < NY - 1 ? z + NX : z;
        auto limiter = [](double self, double a, double b) {
          if (std::fabs(self) < 1e-300) return 1.0;
          const double ra = a / self, rb = b / self;
          return std::max(0.0, std::min({0.5 * (ra + rb), 2.0 * ra, 2.0 * rb, 1.0}));
        };
        const double phi = std::min(limiter(gx[z], gx[zl], gx[zr]), limiter(ge[z], ge[zd], ge[zu]));
        const double ld = plen[z] * pdiv[z];
        pq[z] = prho[z] * (kQQuadratic * ld * ld + kQLinear * pcs[z] * std::fabs(ld)) * (1.0 - phi);
      }
    }
    double courant = 1e300, max_div = 0.0;
    {
      Timed t(loop_s[kDtCourant]);
#pragma omp parallel for schedule(runtime) reduction(min : courant)
      for (int z = 0; z < NZ; ++z) {
        const double c2 = pcs[z] * pcs[z] + 2.0 * pq[z] / prho[z];
        courant = std::min(courant, plen[z] / std::sqrt(c2 + 1e-30));
      }
    }
    {
      Timed t(loop_s[kDtVolume]);
#pragma omp parallel for schedule(runtime) reduction(max : max_div)
      for (int z = 0; z < NZ; ++z) max_div = std::max(max_div, std::fabs(pdiv[z]));
    }
    // Min and max reductions are exact, so dt is the same whatever the schedule.
    dt = std::min({kCfl * courant, max_div > 0.0 ? 0.05 / max_div : 1e300, 1.2 * dt});
    const double DT = dt;

    double* __restrict fcx = cfx.data();
    double* __restrict fcy = cfy.data();
    {
      Timed t(loop_s[kForcePressure]);  // (p + q) times the area's gradient at each corner
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) {
        const int* c = zone_nodes + 4 * z;
        const double pressure = pp[z] + pq[z];
        for (int k = 0; k < 4; ++k) {
          const int next = c[(k + 1) & 3], prev = c[(k + 3) & 3];
          fcx[4 * z + k] = pressure * 0.5 * (py[next] - py[prev]);
          fcy[4 * z + k] = pressure * 0.5 * (px[prev] - px[next]);
        }
      }
    }
    {
      Timed t(loop_s[kForceHourglass]);  // damps the (1,-1,1,-1) mode that pressure does not see
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) {
        const int* c = zone_nodes + 4 * z;
        const double hu = pu[c[0]] - pu[c[1]] + pu[c[2]] - pu[c[3]];
        const double hv = pv[c[0]] - pv[c[1]] + pv[c[2]] - pv[c[3]];
        const double coefficient = -0.25 * kHourglass * prho[z] * pcs[z] * std::sqrt(pvol[z]);
        for (int k = 0; k < 4; ++k) {
          const double gamma = (k & 1) ? -1.0 : 1.0;
          fcx[4 * z + k] += coefficient * gamma * hu;
          fcy[4 * z + k] += coefficient * gamma * hv;
        }
      }
    }
    {
      Timed t(loop_s[kNodeForce]);  // assembly: each node gathers its corners through the index array
#pragma omp parallel for schedule(runtime)
      for (int n = 0; n < NN; ++n) {
        double sx = 0.0, sy = 0.0;
        for (int k = 0; k < 4; ++k) {
          const int corner = node_corners[4 * n + k];
          if (corner >= 0) {
            sx += fcx[corner];
            sy += fcy[corner];
          }
        }
        pfx[n] = sx;
        pfy[n] = sy;
      }
    }
    {
      Timed t(loop_s[kAcceleration]);  // in place: fx, fy become accelerations; walls hold
#pragma omp parallel for schedule(runtime)
      for (int n = 0; n < NN; ++n) {
        pfx[n] = pfx[n] / pmn[n] * pfixu[n];
        pfy[n] = pfy[n] / pmn[n] * pfixv[n];
      }
    }
    auto old_u = malloc_doubles(static_cast<std::size_t>(NN));
    auto old_v = malloc_doubles(static_cast<std::size_t>(NN));
    double* __restrict ou = old_u.get();
    double* __restrict ov = old_v.get();
    {
      Timed t(loop_s[kVelocity]);
#pragma omp parallel for schedule(runtime)
      for (int n = 0; n < NN; ++n) {
        ou[n] = pu[n];
        ov[n] = pv[n];
        pu[n] += pfx[n] * DT;
        pv[n] += pfy[n] * DT;
      }
    }
    {
      Timed t(loop_s[kVelocityCutoff]);
#pragma omp parallel for schedule(runtime)
      for (int n = 0; n < NN; ++n) {
        if (std::fabs(pu[n]) < kVelocityCut) pu[n] = 0.0;
        if (std::fabs(pv[n]) < kVelocityCut) pv[n] = 0.0;
      }
    }
    {
      Timed t(loop_s[kHalfVelocity]);  // time-centred velocity, in the old-velocity buffer
#pragma omp parallel for schedule(runtime)
      for (int n = 0; n < NN; ++n) {
        ou[n] = 0.5 * (ou[n] + pu[n]);
        ov[n] = 0.5 * (ov[n] + pv[n]);
      }
    }
    {
      Timed t(loop_s[kPosition]);
#pragma omp parallel for schedule(runtime)
      for (int n = 0; n < NN; ++n) {
        px[n] += ou[n] * DT;
        py[n] += ov[n] * DT;
      }
    }
    {
      Timed t(loop_s[kWork]);  // compatible energy: the work of the zone's corner forces
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) {
        const int* c = zone_nodes + 4 * z;
        double work = 0.0;
        for (int k = 0; k < 4; ++k) work += fcx[4 * z + k] * ou[c[k]] + fcy[4 * z + k] * ov[c[k]];
        pe[z] -= work * DT / pm[z];
      }
    }
    {
      Timed t(loop_s[kNewVolume]);
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) {
        const int* c = zone_nodes + 4 * z;
        pvol[z] = 0.5 * ((px[c[2]] - px[c[0]]) * (py[c[3]] - py[c[1]]) - (px[c[3]] - px[c[1]]) * (py[c[2]] - py[c[0]]));
      }
    }
    double min_volume = 1e300;
    {
      Timed t(loop_s[kMinVolume]);
#pragma omp parallel for schedule(runtime) reduction(min : min_volume)
      for (int z = 0; z < NZ; ++z) min_volume = std::min(min_volume, pvol[z]);
    }
    {
      // Heat conduction between the four neighbours: symmetric exchange, so it conserves energy.
      // The buffer: an uninitialised temporary (new[]), first touched by the loop itself.
      const std::unique_ptr<double[]> conducted(new double[static_cast<std::size_t>(NZ)]);
      double* __restrict en = conducted.get();
      const double kappa = 0.02 * *std::min_element(m.begin(), m.end());
      {
        Timed t(loop_s[kConduct]);
#pragma omp parallel for schedule(runtime)
        for (int z = 0; z < NZ; ++z) {
          const int i = z % NX, j = z / NX;
          const double self = pe[z];
          double flux = 0.0;
          if (i > 0) flux += pe[z - 1] - self;
          if (i < NX - 1) flux += pe[z + 1] - self;
          if (j > 0) flux += pe[z - NX] - self;
          if (j < NY - 1) flux += pe[z + NX] - self;
          en[z] = self + kappa * flux / pm[z];
        }
      }
      {
        Timed t(loop_s[kConductCopy]);
#pragma omp parallel for schedule(runtime)
        for (int z = 0; z < NZ; ++z) pe[z] = en[z];
      }
    }
    {
      Timed t(loop_s[kEndPressure]);  // the end-of-cycle state, for the diagnostics
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) pp[z] = (kGamma - 1.0) * pm[z] / pvol[z] * pe[z];
    }
    double max_pressure = 0.0;
    {
      Timed t(loop_s[kMaxPressure]);
#pragma omp parallel for schedule(runtime) reduction(max : max_pressure)
      for (int z = 0; z < NZ; ++z) max_pressure = std::max(max_pressure, pp[z]);
    }
    {
      Timed t(loop_s[kCentroid]);
#pragma omp parallel for schedule(runtime)
      for (int z = 0; z < NZ; ++z) {
        const int* c = zone_nodes + 4 * z;
        pcx[z] = 0.25 * (px[c[0]] + px[c[1]] + px[c[2]] + px[c[3]]);
        pcy[z] = 0.25 * (py[c[0]] + py[c[1]] + py[c[2]] + py[c[3]]);
      }
    }
    double radius = 0.0;
    {
      const double threshold = 0.5 * max_pressure;
      Timed t(loop_s[kFrontRadius]);  // how far the high-pressure region reaches
#pragma omp parallel for schedule(runtime) reduction(max : radius)
      for (int z = 0; z < NZ; ++z) {
        if (pp[z] > threshold) {
          const double dx = pcx[z] - 0.5, dy = pcy[z] - 0.5;
          radius = std::max(radius, std::sqrt(dx * dx + dy * dy));
        }
      }
    }
    *front_radius = radius;
    return min_volume;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const double wall_start = omp_get_wtime();
  Hydro h(o.size);
  const double e0 = h.energy();
  double radius = 0.0, min_volume = 1.0, drift = 0.0;
  for (int s = 0; s < o.steps; ++s) {
    min_volume = std::min(min_volume, h.step(&radius));
    drift = std::max(drift, std::fabs(h.energy() - e0) / e0);
  }
  const double wall_ms = 1e3 * (omp_get_wtime() - wall_start);
  double loop_ms = 0.0;
  for (double s : h.loop_s) loop_ms += 1e3 * s;

  bool finite = true;
  for (int z = 0; z < h.nz; ++z) finite = finite && std::isfinite(h.e[z]) && std::isfinite(h.vol[z]);
  for (int n = 0; n < h.nn; ++n) finite = finite && std::isfinite(h.x[n]) && std::isfinite(h.u[n]);
  if (o.profile) {
    std::printf("%-16s %10s\n", "loop", "ms/step");
    for (int l = 0; l < kLoopCount; ++l) {
      const int per = (l == kInternalEnergy || l == kKineticEnergy) ? o.steps + 1 : o.steps;
      std::printf("%-16s %10.3f\n", kLoopNames[l], 1e3 * h.loop_s[l] / per);
    }
    std::printf("dt %.3g front radius %.4f min volume %.3g energy drift %.3g\n", h.dt, radius, min_volume, drift);
  }
  // Rounding alone drifts the total by ~1e-14 over a run; a lost or repeated
  // iteration of any energy-carrying loop moves it by ~1e-9 or more.
  const bool failed = !finite || min_volume <= 0.0 || !(drift < 1e-11);
  if (failed)
    pattern::check_failed(
        "hydro", "%s (energy drift %.3g relative, tolerance 1e-11; min volume %.3g)",
        !finite ? "non-finite state" : (min_volume <= 0.0 ? "a zone's volume went negative" : "energy not conserved"),
        drift, min_volume);
  return pattern::report("hydro", loop_ms, wall_ms, !failed);
}
