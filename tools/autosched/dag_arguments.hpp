#pragma once
// The values of the dag commands' options: lists, tile counts, noise levels,
// schedulers, graphs and platforms, with errors that name the option.
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/platform.hpp>
#include <autosched/dag/task_graph.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace autosched::cli::dag_cli {

/// Runs `f`; an autosched::Error it throws is rethrown naming the option
/// and its value first, so that library messages point at the command line.
template <class F>
auto for_option(std::string_view option, std::string_view value, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    detail::throw_error(std::string(option) + "=" + text::escape(value, text::max_echoed_value) + ": " + e.what());
  }
}

std::vector<std::string> list(const std::string& value, std::string_view option, std::string_view accepted);
/// cholesky (or chol), lu or qr, in any case.
bool is_family(const std::string& spec);
constexpr std::string_view graph_accepted = "cholesky, lu, qr or a graph file (autosched task graph v1)";

/// Refuses, before anything is allocated, work whose estimated peak memory
/// `bytes` exceeds what this machine has available now, naming the option,
/// its value, `what` needs it and both sizes. Unknown available memory
/// lets everything pass.
void refuse_beyond_memory(std::string_view option, std::string_view value, double bytes, const std::string& what);
/// Peak bytes of simulating a factorisation graph of `tiles` (graph, ranks,
/// simulator state), from measured peaks.
double simulation_bytes(const std::string& family, int tiles);

/// A graph named on the command line: a factorisation family (refused
/// when it cannot fit in memory) or a file.
dag::TaskGraph make_graph(const std::string& spec, int tiles, dag::GraphFlavour flavour, std::string_view option);
int tiles_value(std::string_view item, std::string_view option, const std::string& whole);
/// "8", "4,6,8" or "4..12" (every count from 4 to 12), mixed freely.
std::vector<int> tiles_list(const std::string& value, std::string_view option);
double sigma_value(std::string_view item, std::string_view option, const std::string& whole);
/// "all" or names separated by ','; unknown names are refused, listing the known.
std::vector<std::string> scheduler_list(const std::string& value, std::string_view option);
dag::Platform platform_value(const std::string& spec, std::string_view option, const std::string& whole);

}  // namespace autosched::cli::dag_cli
