#include <autosched/dag/simulator.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <limits>

namespace autosched::dag {

namespace {

class Episode {
 public:
  Episode(const Problem& problem, Scheduler& scheduler, const std::vector<KindDurations>& actual,
          const SimulationOptions& options)
      : problem_(problem),
        graph_(*problem.graph),
        scheduler_(scheduler),
        actual_(actual),
        options_(options),
        processors_(problem.processors()),
        running_(processors_, no_task),
        finish_(processors_, 0),
        expected_end_(processors_, 0),
        state_(graph_.size(), TaskState::waiting),
        waiting_for_(graph_.size()),
        placed_on_(graph_.size(), -1) {
    if (actual_.size() != graph_.size())
      detail::throw_error("simulate: " + std::to_string(actual_.size()) + " actual durations for " +
                          std::to_string(graph_.size()) + " tasks");
    if (options_.keep_schedule) result_.schedule.assign(graph_.size(), {});
  }

  SimulationResult run() {
    scheduler_.start(problem_, options_.seed ^ 0x5eedf00dULL);
    std::vector<TaskId> sources;
    for (std::size_t t = 0; t < graph_.size(); ++t) {
      waiting_for_[t] = static_cast<std::uint32_t>(graph_.predecessors(static_cast<TaskId>(t)).size());
      if (waiting_for_[t] == 0) sources.push_back(static_cast<TaskId>(t));
    }
    make_ready(sources);
    std::size_t cur = 0;
    while (done_ < graph_.size()) {
      while (cur < processors_ && running_[cur] != no_task) ++cur;
      if (ready_.empty() || cur == processors_) {
        if (nothing_running()) {
          cur = force_first_ready();
          continue;
        }
        advance();
        cur = 0;
        continue;
      }
      TaskId choice = scheduler_.choose(view(), cur);
      ++result_.decisions;
      if (choice == pass && options_.readys_pass_rules && nothing_running()) {
        choice = first_ready_for(cur);
        if (choice != pass) ++result_.forced;
      }
      if (choice == pass) {
        ++result_.passes;
        if (options_.readys_pass_rules && problem_.platform.homogeneous() && !nothing_running()) {
          advance();
          cur = 0;
        } else {
          ++cur;
        }
        continue;
      }
      start_task(choice, cur);
    }
    return std::move(result_);
  }

 private:
  SchedulingView view() const {
    return {&problem_, now_, ready_, running_, expected_end_, state_};
  }

  bool nothing_running() const {
    return std::all_of(running_.begin(), running_.end(), [](TaskId t) { return t == no_task; });
  }

  TaskId first_ready_for(std::size_t p) const {
    for (TaskId t : ready_) {
      if (problem_.runs_on(t, p)) return t;
    }
    return pass;
  }

  /// Every idle processor passed and nothing runs: give the first ready
  /// task to the first idle processor that can run it.
  std::size_t force_first_ready() {
    for (std::size_t p = 0; p < processors_; ++p) {
      if (running_[p] != no_task) continue;
      const TaskId t = first_ready_for(p);
      if (t == pass) continue;
      ++result_.forced;
      start_task(t, p);
      return p;
    }
    detail::throw_error("simulate: no idle processor of " + problem_.platform.describe() +
                        " can run a ready task (scheduler " + scheduler_.name() + ")");
  }

  void start_task(TaskId t, std::size_t p) {
    const auto i = static_cast<std::size_t>(t);
    if (t < 0 || i >= graph_.size() || state_[i] != TaskState::ready)
      detail::throw_error("scheduler " + scheduler_.name() + " chose task " + std::to_string(t) + " for processor " +
                          std::to_string(p) + " at time " + std::to_string(now_) + ", but that task is not ready");
    if (!problem_.runs_on(t, p))
      detail::throw_error("scheduler " + scheduler_.name() + " chose task " + std::to_string(t) + " (" +
                          graph_.kernel_name(t) + ") for a " + std::string(to_string(problem_.platform.kind(p))) +
                          ", which has no implementation of it");
    state_[i] = TaskState::running;
    ready_.erase(std::find(ready_.begin(), ready_.end(), t));
    const double transfer = problem_.input_transfer(t, p, placed_on_);
    placed_on_[i] = static_cast<int>(p);
    running_[p] = t;
    finish_[p] = now_ + transfer + actual_[i][static_cast<std::size_t>(problem_.platform.kind(p))];
    expected_end_[p] = now_ + transfer + problem_.expected_on(t, p);
    if (options_.keep_schedule) result_.schedule[i] = {t, static_cast<int>(p), now_, finish_[p]};
  }

  /// Jumps to the next completion; completes every task ending then.
  void advance() {
    double next = std::numeric_limits<double>::infinity();
    for (std::size_t p = 0; p < processors_; ++p) {
      if (running_[p] != no_task) next = std::min(next, finish_[p]);
    }
    now_ = next;
    result_.makespan = std::max(result_.makespan, now_);
    newly_ready_.clear();
    for (std::size_t p = 0; p < processors_; ++p) {
      if (running_[p] == no_task || finish_[p] > now_) continue;
      const TaskId t = running_[p];
      running_[p] = no_task;
      expected_end_[p] = now_;
      state_[static_cast<std::size_t>(t)] = TaskState::done;
      ++done_;
      for (TaskId s : graph_.successors(t)) {
        if (--waiting_for_[static_cast<std::size_t>(s)] == 0) newly_ready_.push_back(s);
      }
      scheduler_.on_finish(view(), t, p);
    }
    for (std::size_t p = 0; p < processors_; ++p) {
      if (running_[p] == no_task) expected_end_[p] = now_;
    }
    std::sort(newly_ready_.begin(), newly_ready_.end());
    make_ready(newly_ready_);
  }

  void make_ready(const std::vector<TaskId>& tasks) {
    if (tasks.empty()) return;
    for (TaskId t : tasks) {
      state_[static_cast<std::size_t>(t)] = TaskState::ready;
      ready_.push_back(t);
    }
    scheduler_.on_ready(view(), tasks);
  }

  const Problem& problem_;
  const TaskGraph& graph_;
  Scheduler& scheduler_;
  const std::vector<KindDurations>& actual_;
  const SimulationOptions& options_;
  std::size_t processors_;
  double now_ = 0;
  std::size_t done_ = 0;
  std::vector<TaskId> ready_, newly_ready_;
  std::vector<TaskId> running_;
  std::vector<double> finish_, expected_end_;
  std::vector<TaskState> state_;
  std::vector<std::uint32_t> waiting_for_;
  std::vector<int> placed_on_;
  SimulationResult result_;
};

}  // namespace

SimulationResult simulate(const Problem& problem, Scheduler& scheduler, const std::vector<KindDurations>& actual,
                          const SimulationOptions& options) {
  return Episode(problem, scheduler, actual, options).run();
}

SimulationResult simulate(const Problem& problem, Scheduler& scheduler, const SimulationOptions& options) {
  const auto actual = sample_durations(problem.expected, options.noise, options.seed);
  return simulate(problem, scheduler, actual, options);
}

}  // namespace autosched::dag
