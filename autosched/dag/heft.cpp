#include <autosched/dag/heft.hpp>

#include <algorithm>
#include <limits>
#include <queue>

namespace autosched::dag {

std::string Heft::name() const {
  switch (rules_) {
    case HeftRules::readys:
      return "readys-heft";
    case HeftRules::fastest:
      return "heft-min";
    case HeftRules::standard:
      break;
  }
  return "heft";
}

void Heft::start(const Problem& pb, std::uint64_t) {
  const TaskGraph& g = *pb.graph;
  const std::size_t n = g.size(), P = pb.processors();
  const auto rank = upward_ranks(pb, rules_ == HeftRules::fastest ? RankCost::fastest_kind : RankCost::mean_over_processors);
  // Priority: rank descending; READYS's package breaks ties to the higher id.
  const bool high_id_first = rules_ == HeftRules::readys;
  auto before = [&](TaskId a, TaskId b) {  // true when a is planned before b
    const double ra = rank[static_cast<std::size_t>(a)], rb = rank[static_cast<std::size_t>(b)];
    if (ra != rb) return ra > rb;
    return high_id_first ? a > b : a < b;
  };
  // Plan tasks in priority order among those whose predecessors are all
  // planned (the same order as a plain sort when durations are positive;
  // safe when zero durations make ranks tie along an edge).
  auto later = [&](TaskId a, TaskId b) { return before(b, a); };
  std::priority_queue<TaskId, std::vector<TaskId>, decltype(later)> plannable(later);
  std::vector<std::uint32_t> unplanned_preds(n);
  std::vector<TaskId> isolated;
  for (std::size_t t = 0; t < n; ++t) {
    const auto id = static_cast<TaskId>(t);
    unplanned_preds[t] = static_cast<std::uint32_t>(g.predecessors(id).size());
    // The package schedules only tasks that appear in an edge.
    if (rules_ == HeftRules::readys && g.predecessors(id).empty() && g.successors(id).empty()) {
      isolated.push_back(id);
      continue;
    }
    if (unplanned_preds[t] == 0) plannable.push(id);
  }
  plan_.assign(P, {});
  next_.assign(P, 0);
  std::vector<double> end_of(n, 0);
  std::vector<int> placed_on(n, -1);
  const bool strict_gap = rules_ == HeftRules::readys;
  auto place = [&](TaskId t) {
    double data_ready_base = 0;
    for (TaskId q : g.predecessors(t)) data_ready_base = std::max(data_ready_base, end_of[static_cast<std::size_t>(q)]);
    double best_end = std::numeric_limits<double>::infinity(), best_start = 0;
    std::size_t best_p = 0, best_slot = 0;
    for (std::size_t p = 0; p < P; ++p) {
      if (!pb.runs_on(t, p)) continue;
      const double d = pb.expected_on(t, p);
      const double ready_at = data_ready_base + pb.input_transfer(t, p, placed_on);
      // First gap at or after ready_at (a dummy slot ending at 0 first).
      const auto& slots = plan_[p];
      double start = -1;
      std::size_t at = slots.size();
      double prev_end = 0;
      for (std::size_t i = 0; i < slots.size(); ++i) {
        const double earliest = std::max(ready_at, prev_end);
        const double gap = slots[i].start - earliest;
        if (strict_gap ? gap > d : gap >= d) {
          start = earliest;
          at = i;
          break;
        }
        prev_end = slots[i].end;
      }
      if (start < 0) start = slots.empty() ? ready_at : std::max(slots.back().end, ready_at);
      const double end = start + d;
      if (end < best_end) {  // strict: the lowest index wins ties
        best_end = end;
        best_start = start;
        best_p = p;
        best_slot = at;
      }
    }
    plan_[best_p].insert(plan_[best_p].begin() + static_cast<std::ptrdiff_t>(best_slot), {t, best_start, best_end});
    end_of[static_cast<std::size_t>(t)] = best_end;
    placed_on[static_cast<std::size_t>(t)] = static_cast<int>(best_p);
    planned_makespan_ = std::max(planned_makespan_, best_end);
  };
  planned_makespan_ = 0;
  while (!plannable.empty()) {
    const TaskId t = plannable.top();
    plannable.pop();
    place(t);
    for (TaskId s : g.successors(t)) {
      if (--unplanned_preds[static_cast<std::size_t>(s)] == 0) plannable.push(s);
    }
  }
  package_makespan_ = planned_makespan_;
  // Tasks the package leaves out still have to run: after everything else.
  for (TaskId t : isolated) place(t);
}

TaskId Heft::choose(const SchedulingView& view, std::size_t p) {
  // Skip tasks the no-stall rule already ran elsewhere.
  while (next_[p] < plan_[p].size()) {
    const TaskState s = view.state[static_cast<std::size_t>(plan_[p][next_[p]].task)];
    if (s == TaskState::waiting || s == TaskState::ready) break;
    ++next_[p];
  }
  if (next_[p] >= plan_[p].size()) return pass;
  const TaskId t = plan_[p][next_[p]].task;
  if (!view.is_ready(t)) return pass;
  ++next_[p];
  return t;
}

}  // namespace autosched::dag
