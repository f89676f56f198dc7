#pragma once
/// @file
/// Mandelbrot's iteration, shared by the thread-level app (main.cpp) and the
/// MPI app (mandelbrot_mpi.cpp): three views whose cost maps move
/// differently over the time steps, and the escape count of one pixel.
///   L0  a fixed view: the imbalance stays as it is;
///   L1  zooms into a point on the set's boundary: ever more pixels need many
///       iterations, and the imbalance grows;
///   L2  the same zoom played backwards: the imbalance shrinks.

#include <cmath>
#include <cstdint>

namespace autosched::apps::mandelbrot {

struct View {
  double x, y, scale;  ///< centre and width of the view
};

/// The view of loop `which` (0, 1, 2) at `step` of `steps`.
inline View view(int which, int step, int steps) {
  constexpr double zoom = 0.975;                                 // per step
  const double cx = -0.743643887037151, cy = 0.131825904205330;  // a boundary point (seahorse valley)
  switch (which) {
    case 0:
      return {-0.5, 0.0, 3.0};
    case 1:
      return {cx, cy, 3.0 * std::pow(zoom, step)};
    default:
      return {cx, cy, 3.0 * std::pow(zoom, steps - 1 - step)};
  }
}

/// Iterations of z ← z² + c from z = 0 until |z| > 2, at most max_iter.
inline int escape(double cr, double ci, int max_iter) noexcept {
  double zr = 0, zi = 0;
  int k = 0;
  while (k < max_iter && zr * zr + zi * zi <= 4.0) {
    const double t = zr * zr - zi * zi + cr;
    zi = 2.0 * zr * zi + ci;
    zr = t;
    ++k;
  }
  return k;
}

/// Escape count of pixel i (row-major) of a width × height image of view v.
inline int pixel(const View& v, std::int64_t i, long width, long height, int max_iter) noexcept {
  const double px = static_cast<double>(i % width) / static_cast<double>(width) - 0.5;
  const double py = static_cast<double>(i / width) / static_cast<double>(height) - 0.5;
  return escape(v.x + px * v.scale, v.y + py * v.scale * static_cast<double>(height) / static_cast<double>(width),
                max_iter);
}

}  // namespace autosched::apps::mandelbrot
