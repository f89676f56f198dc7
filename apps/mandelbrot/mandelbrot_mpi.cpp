// autosched-mandelbrot-mpi: the thesis's Mandelbrot over MPI
// (docs/mpi-apps.md). Three loops per time step over the same n × n pixels,
// each one autosched::mpi::parallel_for over replicated data with its own
// name and decision point: mandelbrot/L0 (a fixed view: constant
// imbalance), L1 (zooming into the set's boundary: growing imbalance), L2
// (the zoom backwards: shrinking imbalance), as in the thesis's L1..L3. The
// kernel is the thread-level app's (kernel.hpp: z ← z² + c; the thesis
// iterates z⁴ + c to 10'000 for more work per pixel, --max-iter sets ours).
//
// Verified on rank 0: the last step of every loop, gathered from the ranks
// (each rank holds the pixels it computed, zero elsewhere; summed onto rank
// 0), equals a serial recomputation pixel for pixel (a doubled pixel would
// show as twice its value), and every iteration ran exactly once in every
// instance. The summed escape counts of the last step are printed as its
// checksum. Replaying a cost model (--costs) computes no pixel: only the
// exactly-once check applies.
#include "../common/mpi_app.hpp"
#include "kernel.hpp"

#include <exception>
#include <string>
#include <vector>

namespace {

int run(int argc, char** argv) {
  namespace mb = autosched::apps::mandelbrot;
  autosched::apps::mpi::MpiApp app("mandelbrot-mpi", "three Mandelbrot loops: constant, growing, shrinking imbalance",
                                   argc, argv,
                                   {{"n", 256, "image side: n x n pixels = iterations per loop (thesis: 1024)"},
                                    {"max-iter", 256, "iterations before a pixel counts as inside"}},
                                   20);
  const long side = app.integer("n");
  const int max_iter = static_cast<int>(app.integer("max-iter"));
  if (side < 1 || max_iter < 1) {
    if (app.rank() == 0) std::fprintf(stderr, "autosched-mandelbrot-mpi: --n and --max-iter: expected at least 1\n");
    return 2;
  }
  const std::int64_t n = static_cast<std::int64_t>(side) * side;
  const char* names[] = {"mandelbrot/L0", "mandelbrot/L1", "mandelbrot/L2"};
  std::vector<std::vector<int>> image(3, std::vector<int>(static_cast<std::size_t>(n)));
  const int steps = app.steps();
  for (int step = 0; step < steps; ++step) {
    for (int which = 0; which < 3; ++which) {
      if (app.replaying()) {
        app.loop(names[which], n, [](std::int64_t) {});
        continue;
      }
      const mb::View v = mb::view(which, step, steps);
      int* out = image[static_cast<std::size_t>(which)].data();
      if (step == steps - 1) std::fill(out, out + n, 0);  // the verified step: only this rank's pixels non-zero
      app.loop(names[which], n, [&, v, out](std::int64_t i) { out[i] = mb::pixel(v, i, side, side, max_iter); });
    }
    app.end_step();
  }
  if (app.replaying()) return app.finish(true, "replayed costs (no pixels computed)");

  bool same = true;
  long long checksum = 0;
  std::vector<int> whole(app.rank() == 0 ? static_cast<std::size_t>(n) : 0);
  for (int which = 0; which < 3; ++which) {
    MPI_Reduce(image[static_cast<std::size_t>(which)].data(), whole.data(), static_cast<int>(n), MPI_INT, MPI_SUM, 0,
               app.comm());
    if (app.rank() != 0) continue;
    const mb::View v = mb::view(which, steps - 1, steps);
    for (std::int64_t i = 0; i < n && same; ++i) {
      const int expected = mb::pixel(v, i, side, side, max_iter);
      same = whole[static_cast<std::size_t>(i)] == expected;
      checksum += expected;
    }
  }
  return app.finish(same, same ? "last step matches the serial image (checksum " + std::to_string(checksum) +
                                     " escape iterations)"
                               : "a pixel of the last step differs from the serial image");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  try {
    code = run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "autosched-mandelbrot-mpi: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return code;
}
