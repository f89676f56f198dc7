#include <autosched/dag/task_graph.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <functional>
#include <numeric>

namespace autosched::dag {

TaskGraph::TaskGraph(std::string name, std::vector<std::string> kernels)
    : name_(std::move(name)), kernels_(std::move(kernels)) {
  if (kernels_.empty()) detail::throw_error("task graph '" + name_ + "': needs at least one kernel name");
  if (kernels_.size() > 65535) detail::throw_error("task graph '" + name_ + "': more than 65535 kernel names");
}

TaskId TaskGraph::add_task(std::uint16_t kernel, std::array<std::int32_t, 3> tile) {
  if (finalized_) detail::throw_error("task graph '" + name_ + "': add_task after finalize()");
  if (kernel >= kernels_.size())
    detail::throw_error("task graph '" + name_ + "': kernel index " + std::to_string(kernel) + " but only " +
                        std::to_string(kernels_.size()) + " kernel names");
  tasks_.push_back({kernel, tile});
  return static_cast<TaskId>(tasks_.size() - 1);
}

void TaskGraph::add_edge(TaskId from, TaskId to, double bytes) {
  if (finalized_) detail::throw_error("task graph '" + name_ + "': add_edge after finalize()");
  const auto n = static_cast<TaskId>(tasks_.size());
  if (from < 0 || to < 0 || from >= n || to >= n)
    detail::throw_error("task graph '" + name_ + "': edge " + std::to_string(from) + " -> " + std::to_string(to) +
                        " names a task outside [0, " + std::to_string(n) + ")");
  if (from == to) detail::throw_error("task graph '" + name_ + "': task " + std::to_string(from) + " depends on itself");
  if (!(bytes >= 0))
    detail::throw_error("task graph '" + name_ + "': edge " + std::to_string(from) + " -> " + std::to_string(to) +
                        " has negative or NaN bytes");
  edges_.push_back({from, to, bytes});
}

void TaskGraph::finalize() {
  if (finalized_) return;
  std::sort(edges_.begin(), edges_.end(),
            [](const Edge& a, const Edge& b) { return a.from != b.from ? a.from < b.from : a.to < b.to; });
  for (std::size_t e = 1; e < edges_.size(); ++e) {
    if (edges_[e].from == edges_[e - 1].from && edges_[e].to == edges_[e - 1].to)
      detail::throw_error("task graph '" + name_ + "': edge " + std::to_string(edges_[e].from) + " -> " +
                          std::to_string(edges_[e].to) + " is given twice");
  }
  const std::size_t n = tasks_.size();
  succ_begin_.assign(n + 1, 0);
  pred_begin_.assign(n + 1, 0);
  for (const Edge& e : edges_) {
    ++succ_begin_[static_cast<std::size_t>(e.from) + 1];
    ++pred_begin_[static_cast<std::size_t>(e.to) + 1];
  }
  std::partial_sum(succ_begin_.begin(), succ_begin_.end(), succ_begin_.begin());
  std::partial_sum(pred_begin_.begin(), pred_begin_.end(), pred_begin_.begin());
  succ_.resize(edges_.size());
  pred_.resize(edges_.size());
  pred_bytes_.resize(edges_.size());
  std::vector<std::uint32_t> s_fill(succ_begin_.begin(), succ_begin_.end() - 1);
  std::vector<std::uint32_t> p_fill(pred_begin_.begin(), pred_begin_.end() - 1);
  // Edges are sorted by (from, to): successors come out ascending, and so
  // do predecessors (each `to` sees its `from`s in ascending order).
  for (const Edge& e : edges_) {
    succ_[s_fill[static_cast<std::size_t>(e.from)]++] = e.to;
    const std::uint32_t slot = p_fill[static_cast<std::size_t>(e.to)]++;
    pred_[slot] = e.from;
    pred_bytes_[slot] = e.bytes;
  }
  // Kahn's algorithm, smallest id first, so ids already in topological
  // order come out unchanged.
  ids_topological_ = std::all_of(edges_.begin(), edges_.end(), [](const Edge& e) { return e.from < e.to; });
  topo_.clear();
  topo_.reserve(n);
  if (ids_topological_) {
    for (std::size_t t = 0; t < n; ++t) topo_.push_back(static_cast<TaskId>(t));
  } else {
    std::vector<std::uint32_t> waiting(n);
    std::vector<TaskId> heap;
    for (std::size_t t = 0; t < n; ++t) {
      waiting[t] = pred_begin_[t + 1] - pred_begin_[t];
      if (waiting[t] == 0) heap.push_back(static_cast<TaskId>(t));
    }
    std::make_heap(heap.begin(), heap.end(), std::greater<>());
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>());
      const TaskId t = heap.back();
      heap.pop_back();
      topo_.push_back(t);
      for (std::uint32_t e = succ_begin_[static_cast<std::size_t>(t)]; e < succ_begin_[static_cast<std::size_t>(t) + 1]; ++e) {
        if (--waiting[static_cast<std::size_t>(succ_[e])] == 0) {
          heap.push_back(succ_[e]);
          std::push_heap(heap.begin(), heap.end(), std::greater<>());
        }
      }
    }
    if (topo_.size() != n) {
      std::size_t stuck = 0;
      while (waiting[stuck] == 0) ++stuck;
      detail::throw_error("task graph '" + name_ + "': the edges form a cycle through task " + std::to_string(stuck));
    }
  }
  finalized_ = true;
}

std::span<const TaskId> TaskGraph::successors(TaskId id) const {
  const auto i = static_cast<std::size_t>(id);
  return {succ_.data() + succ_begin_[i], succ_begin_[i + 1] - succ_begin_[i]};
}

std::span<const TaskId> TaskGraph::predecessors(TaskId id) const {
  const auto i = static_cast<std::size_t>(id);
  return {pred_.data() + pred_begin_[i], pred_begin_[i + 1] - pred_begin_[i]};
}

std::span<const double> TaskGraph::predecessor_bytes(TaskId id) const {
  const auto i = static_cast<std::size_t>(id);
  return {pred_bytes_.data() + pred_begin_[i], pred_begin_[i + 1] - pred_begin_[i]};
}

void TaskGraph::relabel(std::span<const std::uint16_t> kernel_of_task) {
  if (kernel_of_task.size() != tasks_.size())
    detail::throw_error("task graph '" + name_ + "': relabel needs one kernel per task");
  for (std::size_t t = 0; t < tasks_.size(); ++t) {
    if (kernel_of_task[t] >= kernels_.size()) detail::throw_error("task graph '" + name_ + "': relabel: bad kernel");
    tasks_[t].kernel = kernel_of_task[t];
  }
}

}  // namespace autosched::dag
