// autosched-mandelbrot: three Mandelbrot loops per time step over the same
// pixel count, whose cost maps move differently as the steps go on:
//   L0  a fixed view: the imbalance stays as it is;
//   L1  zooms into a point on the set's boundary: ever more pixels need many
//       iterations, and the imbalance grows;
//   L2  the same zoom played backwards: the imbalance shrinks.
// Verified: the last step of every loop is recomputed serially and must
// match pixel for pixel.
#include "../common/app.hpp"
#include "kernel.hpp"

#include <vector>

using autosched::apps::mandelbrot::View;
using autosched::apps::mandelbrot::view;

int main(int argc, char** argv) {
  autosched::apps::App app("mandelbrot", "three Mandelbrot loops: constant, increasing and decreasing imbalance", argc,
                           argv,
                           {{"width", 512, "pixels per row"},
                            {"height", 512, "rows (N per loop = width x height)"},
                            {"max-iter", 64, "iterations before a pixel counts as inside"}},
                           200);
  const long width = app.size("width"), height = app.size("height");
  const int max_iter = static_cast<int>(app.size("max-iter"));
  const std::int64_t n = width * height;
  std::vector<std::vector<int>> image(3, std::vector<int>(static_cast<std::size_t>(n)));
  const char* names[] = {"mandelbrot/L0", "mandelbrot/L1", "mandelbrot/L2"};

  auto pixel = [&](const View& v, std::int64_t i) {
    return autosched::apps::mandelbrot::pixel(v, i, width, height, max_iter);
  };
  // Three loops, three call sites (three loop bodies, three instantiations of
  // App::loop): an unmodified OpenMP program's loops are told apart by their
  // call site, so the plain OpenMP build must not run them from one.
  int* out0 = image[0].data();
  int* out1 = image[1].data();
  int* out2 = image[2].data();
  for (int step = 0; step < app.steps(); ++step) {
    const View v0 = view(0, step, app.steps()), v1 = view(1, step, app.steps()), v2 = view(2, step, app.steps());
    app.loop(names[0], n, [&, v0, out0](std::int64_t i) { out0[i] = pixel(v0, i); });
    app.reference(names[0], n, [&, v0, out0](std::int64_t i) { out0[i] = pixel(v0, i); });
    app.loop(names[1], n, [&, v1, out1](std::int64_t i) { out1[i] = pixel(v1, i); });
    app.reference(names[1], n, [&, v1, out1](std::int64_t i) { out1[i] = pixel(v1, i); });
    app.loop(names[2], n, [&, v2, out2](std::int64_t i) { out2[i] = pixel(v2, i); });
    app.reference(names[2], n, [&, v2, out2](std::int64_t i) { out2[i] = pixel(v2, i); });
    app.end_step();
  }

  long long total = 0;
  bool same = true;
  for (int which = 0; which < 3 && same; ++which) {
    const View v = view(which, app.steps() - 1, app.steps());
    for (std::int64_t i = 0; i < n; ++i) {
      const int expected = pixel(v, i);
      if (image[static_cast<std::size_t>(which)][static_cast<std::size_t>(i)] != expected) {
        same = false;
        break;
      }
      total += expected;
    }
  }
  return app.finish(same, same ? "last step matches the serial image (" + std::to_string(total) + " iterations)"
                               : "a pixel of the last step differs from the serial image");
}
