#include <autosched/dag/ranks.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace autosched::dag {

namespace {

double task_cost(const Problem& pb, TaskId t, RankCost cost) {
  if (cost == RankCost::mean_over_processors) {
    double sum = 0;
    std::size_t usable = 0;
    for (std::size_t p = 0; p < pb.processors(); ++p) {
      if (!pb.runs_on(t, p)) continue;
      sum += pb.expected_on(t, p);
      ++usable;
    }
    return sum / static_cast<double>(usable);
  }
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t p = 0; p < pb.processors(); ++p) best = std::min(best, pb.expected_on(t, p));
  return best;
}

}  // namespace

std::vector<double> upward_ranks(const Problem& pb, RankCost cost) {
  const TaskGraph& g = *pb.graph;
  std::vector<double> rank(g.size(), 0);
  const auto order = g.topological_order();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const TaskId t = *it;
    double below = 0;
    bool any = false;
    for (TaskId s : g.successors(t)) {
      below = any ? std::max(below, rank[static_cast<std::size_t>(s)]) : rank[static_cast<std::size_t>(s)];
      any = true;
    }
    rank[static_cast<std::size_t>(t)] = any ? task_cost(pb, t, cost) + below : task_cost(pb, t, cost);
  }
  return rank;
}

LowerBound lower_bound(const Problem& pb) {
  LowerBound lb;
  const auto fastest = upward_ranks(pb, RankCost::fastest_kind);
  lb.critical_path = fastest.empty() ? 0 : *std::max_element(fastest.begin(), fastest.end());

  const int cpus = pb.platform.count(ResourceKind::cpu);
  const int gpus = pb.platform.count(ResourceKind::gpu);
  const auto cpu = static_cast<std::size_t>(ResourceKind::cpu), gpu = static_cast<std::size_t>(ResourceKind::gpu);
  if (cpus == 0 || gpus == 0) {
    const std::size_t k = cpus == 0 ? gpu : cpu;
    double work = 0;
    for (const KindDurations& d : pb.expected) work += d[k];
    lb.area = work / static_cast<double>(cpus + gpus);
    return lb;
  }
  // Fractional assignment: the tasks that gain most from a GPU go there
  // first. With the tasks sorted by cpu/gpu ratio, the optimum puts a prefix
  // on the GPUs, the rest on the CPUs, and splits one task between them.
  std::vector<std::size_t> order(pb.expected.size());
  std::iota(order.begin(), order.end(), 0);
  auto ratio = [&](std::size_t t) {
    const KindDurations& d = pb.expected[t];
    if (!std::isfinite(d[cpu])) return std::numeric_limits<double>::infinity();
    if (!std::isfinite(d[gpu])) return 0.0;
    return d[gpu] > 0 ? d[cpu] / d[gpu] : std::numeric_limits<double>::infinity();
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ratio(a) > ratio(b); });
  double cpu_work = 0;
  for (std::size_t t : order) {
    if (std::isfinite(pb.expected[t][cpu])) cpu_work += pb.expected[t][cpu];
  }
  double gpu_work = 0;
  double best = std::numeric_limits<double>::infinity();
  // Tasks that only run on one kind never move; skip them when splitting.
  double cpu_only = 0, gpu_only = 0;
  for (std::size_t t : order) {
    const KindDurations& d = pb.expected[t];
    if (!std::isfinite(d[gpu])) cpu_only += d[cpu];
    if (!std::isfinite(d[cpu])) gpu_only += d[gpu];
  }
  cpu_work -= cpu_only;
  gpu_work = gpu_only;
  const double nc = cpus, ng = gpus;
  best = std::max((cpu_work + cpu_only) / nc, gpu_work / ng);
  for (std::size_t t : order) {
    const KindDurations& d = pb.expected[t];
    if (!std::isfinite(d[cpu]) || !std::isfinite(d[gpu])) continue;
    // Move a fraction f of t from the CPUs to the GPUs: balance when
    // (gpu_work + f g) / ng = (cpu_rest + (1 - f) c) / nc.
    const double cpu_rest = cpu_work - d[cpu] + cpu_only;
    const double f = ((cpu_rest + d[cpu]) / nc - gpu_work / ng) / (d[gpu] / ng + d[cpu] / nc);
    const double fc = std::clamp(f, 0.0, 1.0);
    best = std::min(best, std::max((gpu_work + fc * d[gpu]) / ng, (cpu_rest + (1 - fc) * d[cpu]) / nc));
    gpu_work += d[gpu];
    cpu_work -= d[cpu];
  }
  lb.area = best;
  return lb;
}

}  // namespace autosched::dag
