#include <autosched/dag/policy/observation.hpp>

#include <autosched/dag/ranks.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace autosched::dag::policy {

std::string_view feature_name(int feature) {
  static constexpr std::array<std::string_view, feature_count> names{
      "ready",          "running",          "waiting",       "cpu_duration",   "gpu_duration",
      "no_cpu",         "no_gpu",           "acceleration",  "duration_here",  "rank_fastest",
      "rank_mean",      "rank_among_ready", "hops_to_end",   "remaining",      "successors",
      "predecessors",   "finish_gain",      "finish_cpu",    "finish_gpu",     "current_is_gpu",
      "cpu_share",      "gpu_share",        "cpu_wait",      "gpu_wait",       "done_fraction",
      "ready_per_processor"};
  if (feature < 0 || feature >= feature_count) autosched::detail::throw_error("feature index out of range");
  return names[static_cast<std::size_t>(feature)];
}

namespace {
constexpr double far = 8;  // the clip of every time feature, in scale units
float clip(double v, double lo, double hi) { return static_cast<float>(std::clamp(v, lo, hi)); }
}  // namespace

ObservationBuilder::ObservationBuilder(const Problem& problem, int window) : problem_(problem), window_(window) {
  if (window < 0) autosched::detail::throw_error("policy observation: window " + std::to_string(window) + " < 0");
  const TaskGraph& g = *problem.graph;
  const std::size_t n = g.size();
  // Scale: the mean over tasks of the mean expected duration over the kinds
  // the platform has and the task can use.
  double sum = 0;
  std::size_t counted = 0;
  for (std::size_t t = 0; t < n; ++t) {
    double s = 0;
    int k = 0;
    for (int kind = 0; kind < resource_kinds; ++kind) {
      const double d = problem.expected[t][static_cast<std::size_t>(kind)];
      if (problem.platform.count(static_cast<ResourceKind>(kind)) > 0 && std::isfinite(d)) s += d, ++k;
    }
    if (k > 0) sum += s / k, ++counted;
  }
  scale_ = counted > 0 && sum > 0 ? sum / static_cast<double>(counted) : 1.0;
  rank_fastest_ = upward_ranks(problem, RankCost::fastest_kind);
  rank_mean_ = upward_ranks(problem, RankCost::mean_over_processors);
  critical_fastest_ = std::max(1e-12, *std::max_element(rank_fastest_.begin(), rank_fastest_.end()));
  critical_mean_ = std::max(1e-12, *std::max_element(rank_mean_.begin(), rank_mean_.end()));
  // Longest path in hops to a sink, in reverse topological order.
  hops_.assign(n, 0);
  const auto topo = g.topological_order();
  for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
    double h = 0;
    for (TaskId s : g.successors(*it)) h = std::max(h, 1 + hops_[static_cast<std::size_t>(s)]);
    hops_[static_cast<std::size_t>(*it)] = h;
  }
  longest_hops_ = std::max(1.0, *std::max_element(hops_.begin(), hops_.end()));
  seen_.assign(n, 0);
  local_.assign(n, -1);
}

void ObservationBuilder::build(const SchedulingView& view, std::size_t current, Observation& out) {
  const Problem& pb = problem_;
  const TaskGraph& g = *pb.graph;
  const double now = view.now;
  const std::size_t processors = pb.processors();
  if (++stamp_ == 0) {  // the stamp wrapped: forget every mark
    std::fill(seen_.begin(), seen_.end(), 0);
    stamp_ = 1;
  }
  // The window: running and ready tasks, then `window_` hops of unfinished
  // successors.
  out.task.clear();
  frontier_.clear();
  auto visit = [&](TaskId t) {
    auto& mark = seen_[static_cast<std::size_t>(t)];
    if (mark == stamp_) return;
    mark = stamp_;
    out.task.push_back(t);
    frontier_.push_back(t);
  };
  for (TaskId t : view.running)
    if (t != no_task) visit(t);
  for (TaskId t : view.ready) visit(t);
  for (int hop = 0; hop < window_ && !frontier_.empty(); ++hop) {
    next_.swap(frontier_);
    frontier_.clear();
    for (TaskId t : next_) {
      for (TaskId s : g.successors(t)) visit(s);
    }
  }
  std::sort(out.task.begin(), out.task.end());
  out.nodes = out.task.size();
  for (std::size_t i = 0; i < out.nodes; ++i) local_[static_cast<std::size_t>(out.task[i])] = static_cast<std::int32_t>(i);

  // What the platform looks like from the current processor.
  const auto kind_here = static_cast<std::size_t>(pb.platform.kind(current));
  double cpu_wait = far, gpu_wait = far;
  for (std::size_t q = 0; q < processors; ++q) {
    if (q == current) continue;
    const double wait = std::max(0.0, view.expected_end[q] - now) / scale_;
    double& kind_wait = pb.platform.kind(q) == ResourceKind::cpu ? cpu_wait : gpu_wait;
    kind_wait = std::min(kind_wait, wait);
  }
  double done = 0;
  for (TaskState s : view.state) done += s == TaskState::done ? 1.0 : 0.0;
  double best_ready_rank = 1e-12;
  for (TaskId t : view.ready) best_ready_rank = std::max(best_ready_rank, rank_fastest_[static_cast<std::size_t>(t)]);
  const double cpus = pb.platform.count(ResourceKind::cpu), gpus = pb.platform.count(ResourceKind::gpu);

  out.features.assign(out.nodes * feature_count, 0.0f);
  out.edge_from.clear();
  out.edge_to.clear();
  out.candidates.clear();
  for (std::size_t i = 0; i < out.nodes; ++i) {
    const TaskId t = out.task[i];
    const auto ti = static_cast<std::size_t>(t);
    float* x = out.features.data() + i * feature_count;
    const TaskState state = view.state[ti];
    x[f_ready] = state == TaskState::ready;
    x[f_running] = state == TaskState::running;
    x[f_waiting] = state == TaskState::waiting;
    const double cpu = pb.expected[ti][static_cast<std::size_t>(ResourceKind::cpu)];
    const double gpu = pb.expected[ti][static_cast<std::size_t>(ResourceKind::gpu)];
    const bool has_cpu = std::isfinite(cpu) && cpus > 0, has_gpu = std::isfinite(gpu) && gpus > 0;
    x[f_cpu_duration] = has_cpu ? clip(cpu / scale_, 0, 4 * far) : 0.0f;
    x[f_gpu_duration] = has_gpu ? clip(gpu / scale_, 0, 4 * far) : 0.0f;
    x[f_no_cpu] = !has_cpu;
    x[f_no_gpu] = !has_gpu;
    x[f_acceleration] = has_cpu && has_gpu && cpu > 0 && gpu > 0 ? clip(std::log2(cpu / gpu) / 4, -2, 2) : 0.0f;
    const double here = pb.expected[ti][kind_here];
    x[f_duration_here] = std::isfinite(here) ? clip(here / scale_, 0, 4 * far) : clip(4 * far, 0, 4 * far);
    x[f_rank_fastest] = static_cast<float>(rank_fastest_[ti] / critical_fastest_);
    x[f_rank_mean] = static_cast<float>(rank_mean_[ti] / critical_mean_);
    x[f_rank_among_ready] = clip(rank_fastest_[ti] / best_ready_rank, 0, 2);
    x[f_hops_to_end] = static_cast<float>(hops_[ti] / longest_hops_);
    int unfinished_successors = 0, unfinished_predecessors = 0;
    for (TaskId s : g.successors(t)) {
      unfinished_successors += view.state[static_cast<std::size_t>(s)] != TaskState::done;
      if (seen_[static_cast<std::size_t>(s)] == stamp_ && view.state[static_cast<std::size_t>(s)] != TaskState::done) {
        out.edge_from.push_back(static_cast<std::int32_t>(i));
        out.edge_to.push_back(local_[static_cast<std::size_t>(s)]);
      }
    }
    for (TaskId p : g.predecessors(t)) unfinished_predecessors += view.state[static_cast<std::size_t>(p)] != TaskState::done;
    x[f_successors] = clip(unfinished_successors / 4.0, 0, 2);
    x[f_predecessors] = clip(unfinished_predecessors / 4.0, 0, 2);
    if (state == TaskState::running) {
      for (std::size_t q = 0; q < processors; ++q) {
        if (view.running[q] == t) x[f_remaining] = clip((view.expected_end[q] - now) / scale_, 0, far);
      }
    }
    if (state == TaskState::ready) {
      // Earliest finish on another processor of each kind, by expected durations.
      double best_cpu = std::numeric_limits<double>::infinity(), best_gpu = best_cpu;
      for (std::size_t q = 0; q < processors; ++q) {
        if (q == current || !pb.runs_on(t, q)) continue;
        const double finish = std::max(now, view.expected_end[q]) + pb.expected_on(t, q) - now;
        double& best = pb.platform.kind(q) == ResourceKind::cpu ? best_cpu : best_gpu;
        best = std::min(best, finish);
      }
      x[f_finish_cpu] = std::isfinite(best_cpu) ? clip(best_cpu / scale_, 0, far) : static_cast<float>(far);
      x[f_finish_gpu] = std::isfinite(best_gpu) ? clip(best_gpu / scale_, 0, far) : static_cast<float>(far);
      const double elsewhere = std::min(best_cpu, best_gpu);
      const bool runs_here = pb.runs_on(t, current);
      const double finish_here = runs_here ? here : std::numeric_limits<double>::infinity();
      x[f_finish_gain] = !runs_here ? static_cast<float>(-far)
                         : std::isfinite(elsewhere) ? clip((elsewhere - finish_here) / scale_, -far, far)
                                                    : static_cast<float>(far);
      if (runs_here) out.candidates.push_back(static_cast<std::int32_t>(i));
    }
    x[f_current_is_gpu] = kind_here == static_cast<std::size_t>(ResourceKind::gpu);
    x[f_cpu_share] = static_cast<float>(cpus / static_cast<double>(processors));
    x[f_gpu_share] = static_cast<float>(gpus / static_cast<double>(processors));
    x[f_cpu_wait] = static_cast<float>(std::min(cpu_wait, far));
    x[f_gpu_wait] = static_cast<float>(std::min(gpu_wait, far));
    x[f_done_fraction] = static_cast<float>(done / static_cast<double>(g.size()));
    x[f_ready_per_processor] = clip(static_cast<double>(view.ready.size()) / static_cast<double>(processors) / 4, 0, 1);
  }
}

}  // namespace autosched::dag::policy
