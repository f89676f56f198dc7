#pragma once
// A task graph: typed tasks, and edges that carry the bytes a successor
// reads from its predecessor. The generators give ids in a topological
// order; graphs from files (and READYS's QR) may not, so the graph keeps a
// topological order of its own for the algorithms that need one.
//
// One graph serves the simulator, the list schedulers, the executor and
// the StarPU policy: every one of them walks the same adjacency arrays.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace autosched::dag {

using TaskId = std::int32_t;
inline constexpr TaskId no_task = -1;

/// One task: which kernel it runs and on which tiles. `tile` holds the
/// kernel's indices in the order its name reads (POTRF(k) = {k,-1,-1},
/// TRSM(i,k) = {i,k,-1}, GEMM(i,j,k) = {i,j,k}, …); user graphs may leave
/// them at -1.
struct Task {
  std::uint16_t kernel = 0;  ///< index into TaskGraph::kernel_names()
  std::array<std::int32_t, 3> tile{-1, -1, -1};
};

struct Edge {
  TaskId from = no_task;
  TaskId to = no_task;
  double bytes = 0;  ///< data the successor reads from the predecessor
};

class TaskGraph {
 public:
  TaskGraph() = default;
  /// `name` says what the graph is ("cholesky T=8"); `kernels` the kernel
  /// names, in the order Task::kernel indexes them.
  TaskGraph(std::string name, std::vector<std::string> kernels);

  /// Adds a task and returns its id (ids are given in order: 0, 1, 2, …).
  TaskId add_task(std::uint16_t kernel, std::array<std::int32_t, 3> tile = {-1, -1, -1});
  /// Adds an edge; throws when it names a missing task or a self-loop.
  void add_edge(TaskId from, TaskId to, double bytes = 0);

  /// Builds the adjacency arrays and a topological order; throws when an
  /// edge is given twice or the edges form a cycle. The graph is read-only
  /// afterwards. Called by every generator and by the file loader.
  void finalize();

  const std::string& name() const noexcept { return name_; }
  std::span<const std::string> kernel_names() const noexcept { return kernels_; }
  std::size_t size() const noexcept { return tasks_.size(); }
  std::size_t edge_count() const noexcept { return edges_.size(); }
  const Task& task(TaskId id) const { return tasks_[static_cast<std::size_t>(id)]; }
  std::span<const Task> tasks() const noexcept { return tasks_; }
  std::span<const Edge> edges() const noexcept { return edges_; }
  const std::string& kernel_name(TaskId id) const { return kernels_[task(id).kernel]; }

  /// Successors / predecessors of a task, ascending ids (after finalize()).
  std::span<const TaskId> successors(TaskId id) const;
  std::span<const TaskId> predecessors(TaskId id) const;
  /// The bytes of each predecessor edge, aligned with predecessors(id).
  std::span<const double> predecessor_bytes(TaskId id) const;
  bool finalized() const noexcept { return finalized_; }
  /// Every task after all its predecessors (the ids themselves when they
  /// are already a topological order; else smallest ready id first).
  std::span<const TaskId> topological_order() const noexcept { return topo_; }
  bool ids_are_topological() const noexcept { return ids_topological_; }

  /// Replaces the kernel of every task (the READYS-compatible relabelling).
  void relabel(std::span<const std::uint16_t> kernel_of_task);

 private:
  std::string name_;
  std::vector<std::string> kernels_;
  std::vector<Task> tasks_;
  std::vector<Edge> edges_;
  bool finalized_ = false;
  bool ids_topological_ = true;
  std::vector<TaskId> topo_;
  // Compressed adjacency: successors of t are succ_[succ_begin_[t] .. succ_begin_[t+1]).
  std::vector<std::uint32_t> succ_begin_, pred_begin_;
  std::vector<TaskId> succ_, pred_;
  std::vector<double> pred_bytes_;
};

}  // namespace autosched::dag
