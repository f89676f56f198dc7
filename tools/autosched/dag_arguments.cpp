#include "dag_arguments.hpp"

#include <autosched/core/file_checks.hpp>
#include <autosched/core/system_info.hpp>
#include <autosched/dag/graph_file.hpp>
#include <autosched/dag/scheduler.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace autosched::cli::dag_cli {

namespace fs = std::filesystem;
using namespace autosched::dag;

std::vector<std::string> list(const std::string& value, std::string_view option, std::string_view accepted) {
  std::vector<std::string> out;
  for (std::string_view item : text::split(value, ',')) {
    if (item.empty()) detail::throw_error(text::bad_value(option, value, std::string(accepted) + " (an empty item)"));
    out.emplace_back(item);
  }
  return out;
}

bool is_family(const std::string& spec) {
  const std::string f = text::lower(spec);
  return f == "cholesky" || f == "chol" || f == "lu" || f == "qr";
}

namespace {

std::string bytes_text(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  for (; bytes >= 1024 && u < 5; ++u) bytes /= 1024;
  char out[32];
  std::snprintf(out, sizeof out, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return out;
}

}  // namespace

void refuse_beyond_memory(std::string_view option, std::string_view value, double bytes, const std::string& what) {
  const double available = static_cast<double>(available_memory_bytes());
  if (available <= 0 || bytes <= available) return;
  detail::throw_error(std::string(option) + "=" + text::escape(value, text::max_echoed_value) + ": " + what +
                      ": about " + bytes_text(bytes) + " of memory needed, " + bytes_text(available) +
                      " available on this machine (choose a smaller size)");
}

double simulation_bytes(const std::string& family, int tiles) {
  // Peak resident bytes per task of `dag simulate` were 190–235 with mct at
  // 128 and 256 tiles (graph, its id tables, ranks, simulator state), the
  // graph growing as T³; 320 leaves room for the heavier schedulers.
  constexpr double bytes_per_task = 320;
  return factorization_tasks(family, tiles) * bytes_per_task;
}

TaskGraph make_graph(const std::string& spec, int tiles, GraphFlavour flavour, std::string_view option) {
  if (is_family(spec)) {
    char tasks[32];
    std::snprintf(tasks, sizeof tasks, "%.3g", factorization_tasks(spec, tiles));
    refuse_beyond_memory("--tiles", std::to_string(tiles), simulation_bytes(spec, tiles),
                         text::lower(spec) + " with " + std::to_string(tiles) + "×" + std::to_string(tiles) + " tiles (" +
                             tasks + " tasks)");
    return factorization(spec, tiles, flavour);
  }
  if (const std::string kind = files::special_kind(spec); !kind.empty())  // a FIFO, a directory, /dev/zero
    detail::throw_error(text::bad_value(option, spec, std::string(graph_accepted) + "; it is " + kind));
  std::error_code ec;
  if (!fs::is_regular_file(spec, ec))
    detail::throw_error(text::bad_value(option, spec, std::string(graph_accepted) + "; no such file"));
  return load_graph(spec);  // its errors name the file and line
}

int tiles_value(std::string_view item, std::string_view option, const std::string& whole) {
  const auto v = text::to_int(item);
  if (!v || *v < 2 || *v > 4096)
    detail::throw_error(text::bad_value(option, whole, "tile counts in [2, 4096]: N, N,M,… or A..B"));
  return static_cast<int>(*v);
}

std::vector<int> tiles_list(const std::string& value, std::string_view option) {
  std::vector<int> out;
  for (std::string_view item : text::split(value, ',')) {
    const auto dots = item.find("..");
    if (dots == std::string_view::npos) {
      out.push_back(tiles_value(item, option, value));
      continue;
    }
    const int from = tiles_value(item.substr(0, dots), option, value);
    const int to = tiles_value(item.substr(dots + 2), option, value);
    if (to < from) detail::throw_error(text::bad_value(option, value, "ranges A..B with A <= B"));
    for (int t = from; t <= to; ++t) out.push_back(t);
  }
  return out;
}

double sigma_value(std::string_view item, std::string_view option, const std::string& whole) {
  const auto v = text::to_double(item);
  if (!v || *v < 0) detail::throw_error(text::bad_value(option, whole, "noise levels: finite numbers >= 0"));
  return *v;
}

std::vector<std::string> scheduler_list(const std::string& value, std::string_view option) {
  if (text::lower(value) == "all") return scheduler_names();
  std::vector<std::string> out;
  for (const std::string& name : list(value, option, "all or scheduler names separated by ','")) {
    // Rejects unknown names, listing the known. A scheduler made in place of
    // the one named (a refused readys:<model> is mct-prio, said on stderr)
    // is listed under its own name, so that no number carries a label it
    // did not earn; named twice that way, it is run once.
    const auto made = for_option(option, value, [&] { return make_scheduler(name); });
    const std::string own = made->name();
    const std::string listed = own == name || own == name.substr(0, name.find(':')) ? name : own;
    if (std::find(out.begin(), out.end(), listed) == out.end()) out.push_back(listed);
  }
  return out;
}

Platform platform_value(const std::string& spec, std::string_view option, const std::string& whole) {
  return for_option(option, whole, [&] { return platform(spec); });
}


}  // namespace autosched::cli::dag_cli
