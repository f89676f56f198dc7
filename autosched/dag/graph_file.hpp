#pragma once
// Task graph files: users' own DAGs in a line-oriented text format, read
// and written exactly.
//
//   # autosched task graph v1          <- required first line
//   graph my-dag                       <- optional: the graph's name (rest of the line)
//   kernels POTRF SYRK TRSM GEMM       <- once, before any task
//   task 0 POTRF 0                     <- task <id> <kernel> [tile indices, up to 3]
//   task 1 TRSM 1 0
//   edge 0 1 8388608                   <- edge <from> <to> [bytes, default 0]
//
// Tasks are numbered 0, 1, 2, … in the order they are listed; an edge names
// tasks listed above it. Edges may go from a higher id to a lower one but
// must not form a cycle. `#` starts a comment (a whole line, or the rest of
// a line from a `#` that begins a word). Names are single words without `#`.
// Every malformed input is an autosched::Error "<file>:<line>: <what is
// wrong>; expected <what the line should hold>".
#include <autosched/dag/task_graph.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace autosched::dag {

/// The first line of every graph file.
inline constexpr std::string_view graph_file_header = "# autosched task graph v1";

/// Reads a graph file and returns the finalised graph. Throws naming the
/// file and line of the first error.
TaskGraph load_graph(const std::string& path);

/// The largest graph file load_graph() reads: 256 MiB, about ten million
/// tasks with their edges; a larger or special file (a FIFO, a directory,
/// /dev/zero) is refused, naming the file and why.
inline constexpr std::size_t max_graph_file_bytes = std::size_t{256} << 20;

/// The same from text; `source` names it in error messages.
TaskGraph parse_graph(std::string_view text, std::string_view source = "<graph text>");

/// The graph in the file format; parse_graph(graph_text(g)) gives back the
/// same name, kernels, tasks, tiles and edges (bytes to the last bit).
/// Throws when a name cannot be written (empty, blank or holding `#`).
std::string graph_text(const TaskGraph& graph);

/// Writes graph_text(graph) to `path`; throws naming the path when it
/// cannot be written.
void save_graph(const TaskGraph& graph, const std::string& path);

}  // namespace autosched::dag
