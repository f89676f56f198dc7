#include "dag_arguments.hpp"

#include <autosched/core/file_checks.hpp>
#include <autosched/dag/graph_file.hpp>
#include <autosched/dag/scheduler.hpp>

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

TaskGraph make_graph(const std::string& spec, int tiles, GraphFlavour flavour, std::string_view option) {
  if (is_family(spec)) return factorization(spec, tiles, flavour);
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
    for_option(option, value, [&] { return make_scheduler(name); });  // rejects unknown names, listing the known
    out.push_back(name);
  }
  return out;
}

Platform platform_value(const std::string& spec, std::string_view option, const std::string& whole) {
  return for_option(option, whole, [&] { return platform(spec); });
}


}  // namespace autosched::cli::dag_cli
