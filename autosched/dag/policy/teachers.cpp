#include <autosched/dag/policy/teachers.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <limits>

namespace autosched::dag::policy {

namespace {

// Finishes a run from a snapshot taken in the middle of an instant: the
// processors up to `p` were already asked at `now`, so they pass until the
// next event; after that the base scheduler decides everything.
class ContinueAfter final : public Scheduler {
 public:
  ContinueAfter(Scheduler& base, double now, std::size_t p) : base_(base), now_(now), p_(p) {}
  std::string name() const override { return base_.name(); }
  void start(const Problem& problem, std::uint64_t seed) override { base_.start(problem, seed); }
  void on_ready(const SchedulingView& view, std::span<const TaskId> tasks) override { base_.on_ready(view, tasks); }
  TaskId choose(const SchedulingView& view, std::size_t q) override {
    if (view.now == now_ && q <= p_) return pass;
    return base_.choose(view, q);
  }
  void on_finish(const SchedulingView& view, TaskId t, std::size_t q) override { base_.on_finish(view, t, q); }

 private:
  Scheduler& base_;
  double now_;
  std::size_t p_;
};

}  // namespace

LookaheadTeacher::LookaheadTeacher(std::string_view base, int samples, double sigma)
    : LookaheadTeacher(std::vector<std::string>{std::string(base)}, samples, sigma) {}

LookaheadTeacher::LookaheadTeacher(const std::vector<std::string>& bases, int samples, double sigma)
    : samples_(samples), sigma_(sigma) {
  if (samples < 1) autosched::detail::throw_error("lookahead teacher: samples must be >= 1");
  if (bases.empty()) autosched::detail::throw_error("lookahead teacher: no base scheduler");
  for (const auto& b : bases) bases_.push_back(make_scheduler(b));
}

void LookaheadTeacher::start(const Problem& problem, const std::vector<KindDurations>&) {
  problem_ = &problem;
  futures_.clear();
  if (samples_ == 1 && sigma_ == 0) {
    futures_.push_back(problem.expected);
  } else {
    for (int s = 0; s < samples_; ++s)
      futures_.push_back(sample_durations(problem.expected, Noise{sigma_, false}, 0x7eac4e5ULL + static_cast<std::uint64_t>(s)));
  }
}

double LookaheadTeacher::finish_with(const RunSnapshot& from, std::size_t p, TaskId answer) {
  RunSnapshot s = from;
  if (answer != pass) {
    const auto t = static_cast<std::size_t>(answer);
    s.state[t] = TaskState::running;
    s.running[p] = answer;
    s.placed_on[t] = static_cast<int>(p);
  }
  SimulationOptions options;
  options.keep_schedule = false;
  double best = std::numeric_limits<double>::infinity();
  for (auto& base : bases_) {
    double total = 0;
    for (const auto& future : futures_) {
      if (answer != pass) s.end[p] = from.now + future[static_cast<std::size_t>(answer)][static_cast<std::size_t>(problem_->platform.kind(p))];
      ContinueAfter rest(*base, from.now, p);
      total += simulate_from(*problem_, rest, s, future, options).makespan;
    }
    best = std::min(best, total / static_cast<double>(futures_.size()));
  }
  return best;
}

TaskId LookaheadTeacher::choose(const SchedulingView& view, std::size_t p) {
  if (!problem_) autosched::detail::throw_error("lookahead teacher: choose() before start()");
  const Problem& pb = *problem_;
  RunSnapshot from;
  from.now = view.now;
  from.state.assign(view.state.begin(), view.state.end());
  from.running.assign(view.running.begin(), view.running.end());
  from.end.assign(pb.processors(), view.now);
  from.placed_on.assign(pb.tasks(), -1);  // communication is not modelled by the teacher
  bool something_runs = false;
  for (std::size_t q = 0; q < pb.processors(); ++q) {
    if (view.running[q] == no_task) continue;
    something_runs = true;
    from.end[q] = std::max(view.now, view.expected_end[q]);  // overdue: assume it ends now
  }
  for (auto& base : bases_) base->start(pb, 1);
  const TaskId base_answer = bases_.front()->choose(view, p);
  TaskId best = base_answer;
  double best_finish = finish_with(from, p, base_answer);
  auto consider = [&](TaskId answer) {
    if (answer == base_answer) return;
    const double f = finish_with(from, p, answer);
    if (f < best_finish) best_finish = f, best = answer;
  };
  for (TaskId t : view.ready) {
    if (pb.runs_on(t, p)) consider(t);
  }
  if (something_runs) consider(pass);
  ++calls_;
  return best;
}

}  // namespace autosched::dag::policy
