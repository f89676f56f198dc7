#include "pin_picture.hpp"

#include "output_file.hpp"

#include <campaign/gnuplot.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

namespace autosched::cli {

std::string draw_pin_cores(const std::string& png, const std::vector<pinning::TraceRow>& rows,
                           const std::string& title) {
  namespace fs = std::filesystem;
  const fs::path picture(png);
  const fs::path stem = picture.parent_path() / picture.stem();
  // One data block per thread, in order of first appearance; unpinned
  // periods (core -1) break the line instead of drawing it at -1.
  std::map<pid_t, std::vector<const pinning::TraceRow*>> by_thread;
  std::vector<pid_t> order;
  for (const auto& r : rows) {
    auto [it, fresh] = by_thread.try_emplace(r.tid);
    if (fresh) order.push_back(r.tid);
    it->second.push_back(&r);
  }
  std::ostringstream dat;
  const double lanes = static_cast<double>(order.size());
  int max_core = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    // A small offset per thread: threads that share a core stay visible.
    const double offset = lanes > 1 ? 0.3 * (static_cast<double>(i) / (lanes - 1) - 0.5) : 0.0;
    dat << "# thread " << order[i] << '\n';
    for (const pinning::TraceRow* r : by_thread[order[i]]) {
      if (r->core < 0) {
        dat << '\n';
        continue;
      }
      max_core = std::max(max_core, r->core);
      dat << r->time << ' ' << r->core + offset << '\n';
    }
    dat << "\n\n";
  }
  write_output("--plot", stem.string() + ".dat", dat.str());
  std::ostringstream gp;
  const std::string dat_name = stem.filename().string() + ".dat";
  gp << "# The core of each managed thread over time. Regenerate: gnuplot " << stem.filename().string() << ".gp\n"
     << "set terminal pngcairo size 900,420 font 'sans,9'\nset output '" << picture.filename().string() << "'\n"
     << "set title '" << title << "' noenhanced\nset xlabel 'time (s)'\nset ylabel 'core'\n"
     << "set yrange [-0.5:" << max_core << ".5]\nset ytics 1\nset grid ytics\nset key outside right noenhanced\n"
     << "plot for [i=0:" << (order.empty() ? 0 : order.size() - 1) << "] '" << dat_name
     << "' index i using 1:2 with steps lw 2 title sprintf('thread %d', i + 1)\n";
  write_output("--plot", stem.string() + ".gp", gp.str());
  if (order.empty()) return "picture: none (the trace is empty)";
  if (!campaign::have_gnuplot()) return "picture: " + stem.string() + ".gp (gnuplot is not installed)";
  if (!campaign::run_gnuplot(picture.parent_path().string(), stem.filename().string() + ".gp")) return "picture: " + stem.string() + ".gp (gnuplot failed on it)";
  return "picture: " + png;
}

}  // namespace autosched::cli
