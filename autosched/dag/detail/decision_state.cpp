#include <autosched/dag/detail/decision_state.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>

namespace autosched::dag::detail {

DecisionState::DecisionState(const Problem& problem, Scheduler& scheduler, bool readys_pass_rules)
    : problem_(problem),
      scheduler_(scheduler),
      readys_pass_rules_(readys_pass_rules),
      running_(problem.processors(), no_task),
      expected_end_(problem.processors(), 0),
      state_(problem.tasks(), TaskState::waiting),
      waiting_for_(problem.tasks()),
      placed_on_(problem.tasks(), -1) {}

void DecisionState::begin(std::uint64_t seed, double now) {
  now_ = now;
  scheduler_.start(problem_, seed);
  const TaskGraph& g = *problem_.graph;
  newly_ready_.clear();
  for (std::size_t t = 0; t < g.size(); ++t) {
    waiting_for_[t] = static_cast<std::uint32_t>(g.predecessors(static_cast<TaskId>(t)).size());
    if (waiting_for_[t] == 0) newly_ready_.push_back(static_cast<TaskId>(t));
  }
  announce_ready();
}

void DecisionState::resume(std::uint64_t seed, double now, std::span<const TaskState> state,
                           std::span<const TaskId> running, std::span<const double> expected_end,
                           std::span<const int> placed_on) {
  const TaskGraph& g = *problem_.graph;
  if (state.size() != g.size() || running.size() != running_.size() || expected_end.size() != running_.size() ||
      placed_on.size() != g.size())
    autosched::detail::throw_error("resume: the snapshot does not match the problem's tasks and processors");
  now_ = now;
  scheduler_.start(problem_, seed);
  std::copy(state.begin(), state.end(), state_.begin());
  std::copy(running.begin(), running.end(), running_.begin());
  std::copy(expected_end.begin(), expected_end.end(), expected_end_.begin());
  std::copy(placed_on.begin(), placed_on.end(), placed_on_.begin());
  ready_.clear();
  ready_head_ = 0;
  newly_ready_.clear();
  done_ = 0;
  running_count_ = 0;
  for (TaskId r : running_) running_count_ += r != no_task;
  for (std::size_t t = 0; t < g.size(); ++t) {
    std::uint32_t waiting = 0;
    for (TaskId p : g.predecessors(static_cast<TaskId>(t))) waiting += state_[static_cast<std::size_t>(p)] != TaskState::done;
    waiting_for_[t] = waiting;
    if (state_[t] == TaskState::done) ++done_;
    if (state_[t] == TaskState::ready) {
      state_[t] = TaskState::waiting;  // announce_ready() makes it ready again, in order
      newly_ready_.push_back(static_cast<TaskId>(t));
    }
  }
  announce_ready();
}

TaskId DecisionState::first_ready_for(std::size_t p) const {
  for (TaskId t : ready()) {
    if (problem_.runs_on(t, p)) return t;
  }
  return pass;
}

std::pair<TaskId, std::size_t> DecisionState::no_stall_choice() const {
  for (std::size_t p = 0; p < running_.size(); ++p) {
    if (running_[p] != no_task) continue;
    const TaskId t = first_ready_for(p);
    if (t != pass) return {t, p};
  }
  if (ready().empty())
    autosched::detail::throw_error("nothing runs, nothing is ready, and " + std::to_string(state_.size() - done_) +
                " tasks are left (scheduler " + scheduler_.name() + ")");
  autosched::detail::throw_error("no idle processor of " + problem_.platform.describe() + " can run a ready task (scheduler " +
              scheduler_.name() + ")");
}

double DecisionState::start(TaskId t, std::size_t p) {
  const TaskGraph& g = *problem_.graph;
  const auto i = static_cast<std::size_t>(t);
  if (t < 0 || i >= g.size() || state_[i] != TaskState::ready)
    autosched::detail::throw_error("scheduler " + scheduler_.name() + " chose task " + std::to_string(t) + " for processor " +
                std::to_string(p) + " at time " + std::to_string(now_) + ", but that task is not ready");
  if (!problem_.runs_on(t, p))
    autosched::detail::throw_error("scheduler " + scheduler_.name() + " chose task " + std::to_string(t) + " (" + g.kernel_name(t) +
                ") for a " + std::string(to_string(problem_.platform.kind(p))) + ", which has no implementation of it");
  state_[i] = TaskState::running;
  remove_ready(t);
  const double transfer = problem_.input_transfer(t, p, placed_on_);
  placed_on_[i] = static_cast<int>(p);
  running_[p] = t;
  ++running_count_;
  expected_end_[p] = now_ + transfer + problem_.expected_on(t, p);
  return transfer;
}

void DecisionState::complete(TaskId t, std::size_t p, double now) {
  now_ = now;
  running_[p] = no_task;
  --running_count_;
  expected_end_[p] = now_;
  state_[static_cast<std::size_t>(t)] = TaskState::done;
  ++done_;
  for (TaskId s : problem_.graph->successors(t)) {
    if (--waiting_for_[static_cast<std::size_t>(s)] == 0) newly_ready_.push_back(s);
  }
  scheduler_.on_finish(view(), t, p);
}

void DecisionState::remove_ready(TaskId t) {
  const auto first = ready_.begin() + static_cast<std::ptrdiff_t>(ready_head_);
  const auto at = std::find(first, ready_.end(), t);
  if (at - first < ready_.end() - at) {
    std::move_backward(first, at, at + 1);  // the earlier ones move up by one
    ++ready_head_;
  } else {
    ready_.erase(at);
  }
  // Drop the gone prefix once it is as long as the list: amortised O(1).
  if (ready_head_ > 64 && ready_head_ * 2 > ready_.size()) {
    ready_.erase(ready_.begin(), ready_.begin() + static_cast<std::ptrdiff_t>(ready_head_));
    ready_head_ = 0;
  }
}

void DecisionState::announce_ready() {
  for (std::size_t p = 0; p < running_.size(); ++p) {
    if (running_[p] == no_task) expected_end_[p] = now_;
  }
  if (newly_ready_.empty()) return;
  std::sort(newly_ready_.begin(), newly_ready_.end());
  for (TaskId t : newly_ready_) {
    state_[static_cast<std::size_t>(t)] = TaskState::ready;
    ready_.push_back(t);
  }
  scheduler_.on_ready(view(), newly_ready_);
  newly_ready_.clear();
}

}  // namespace autosched::dag::detail
