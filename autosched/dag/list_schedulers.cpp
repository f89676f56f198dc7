#include <autosched/dag/list_schedulers.hpp>

#include <autosched/dag/heft.hpp>
#include <autosched/dag/ranks.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace autosched::dag {

void Mct::start(const Problem& pb, std::uint64_t) {
  priority_ = upward_ranks(pb, RankCost::mean_over_processors);
  queue_.assign(pb.processors(), {});
  queued_work_.assign(pb.processors(), 0);
}

void Mct::on_ready(const SchedulingView& view, std::span<const TaskId> tasks) {
  const Problem& pb = *view.problem;
  order_.assign(tasks.begin(), tasks.end());
  if (priorities_) {
    std::stable_sort(order_.begin(), order_.end(), [&](TaskId a, TaskId b) {
      return priority_[static_cast<std::size_t>(a)] > priority_[static_cast<std::size_t>(b)];
    });
  }
  for (TaskId t : order_) {
    double best = std::numeric_limits<double>::infinity();
    std::size_t best_p = 0;
    for (std::size_t p = 0; p < pb.processors(); ++p) {
      if (!pb.runs_on(t, p)) continue;
      const double free_at = std::max(view.now, view.expected_end[p]) + queued_work_[p];
      const double done = free_at + pb.expected_on(t, p);
      if (done < best) {
        best = done;
        best_p = p;
      }
    }
    auto& q = queue_[best_p];
    if (priorities_) {
      // Highest priority first; equal priorities keep their arrival order.
      const double pr = priority_[static_cast<std::size_t>(t)];
      auto at = std::find_if(q.begin(), q.end(), [&](TaskId o) { return priority_[static_cast<std::size_t>(o)] < pr; });
      q.insert(at, t);
    } else {
      q.push_back(t);
    }
    queued_work_[best_p] += pb.expected_on(t, best_p);
  }
}

TaskId Mct::choose(const SchedulingView& view, std::size_t p) {
  auto& q = queue_[p];
  while (!q.empty() && !view.is_ready(q.front())) q.pop_front();  // run elsewhere by the no-stall rule
  if (q.empty()) {
    queued_work_[p] = 0;
    return pass;
  }
  const TaskId t = q.front();
  q.pop_front();
  queued_work_[p] = std::max(0.0, queued_work_[p] - view.problem->expected_on(t, p));
  return t;
}

void Heteroprio::start(const Problem& pb, std::uint64_t) {
  priority_ = upward_ranks(pb, RankCost::mean_over_processors);
  acceleration_.assign(pb.tasks(), 1.0);
  const auto cpu = static_cast<std::size_t>(ResourceKind::cpu), gpu = static_cast<std::size_t>(ResourceKind::gpu);
  for (std::size_t t = 0; t < pb.tasks(); ++t) {
    const KindDurations& d = pb.expected[t];
    if (!std::isfinite(d[gpu])) {
      acceleration_[t] = 0;
    } else if (!std::isfinite(d[cpu]) || d[gpu] <= 0) {
      acceleration_[t] = std::numeric_limits<double>::infinity();
    } else {
      acceleration_[t] = d[cpu] / d[gpu];
    }
  }
  ready_of_kernel_.assign(pb.graph->kernel_names().size(), 0);
}

TaskId Heteroprio::choose(const SchedulingView& view, std::size_t p) {
  const Problem& pb = *view.problem;
  const TaskGraph& g = *pb.graph;
  const bool on_gpu = pb.platform.kind(p) == ResourceKind::gpu;
  const int gpus = pb.platform.count(ResourceKind::gpu);
  std::fill(ready_of_kernel_.begin(), ready_of_kernel_.end(), 0);
  for (TaskId t : view.ready) ++ready_of_kernel_[g.task(t).kernel];
  TaskId best = pass;
  auto better = [&](TaskId a, TaskId b) {  // is a preferred over b for this processor?
    const double aa = acceleration_[static_cast<std::size_t>(a)], ab = acceleration_[static_cast<std::size_t>(b)];
    if (aa != ab) return on_gpu ? aa > ab : aa < ab;
    const double pa = priority_[static_cast<std::size_t>(a)], pb2 = priority_[static_cast<std::size_t>(b)];
    if (pa != pb2) return pa > pb2;
    return a < b;
  };
  for (TaskId t : view.ready) {
    if (!pb.runs_on(t, p)) continue;
    const double a = acceleration_[static_cast<std::size_t>(t)];
    if (!on_gpu && gpus > 0 && a > 1 &&
        static_cast<double>(ready_of_kernel_[g.task(t).kernel]) < a * static_cast<double>(gpus))
      continue;  // the GPUs will get to it sooner than this CPU would finish it
    if (best == pass || better(t, best)) best = t;
  }
  return best;
}

TaskId Eager::choose(const SchedulingView& view, std::size_t p) {
  for (TaskId t : view.ready) {
    if (view.problem->runs_on(t, p)) return t;
  }
  return pass;
}

TaskId SmallestId::choose(const SchedulingView& view, std::size_t p) {
  TaskId best = pass;
  for (TaskId t : view.ready) {
    if (view.problem->runs_on(t, p) && (best == pass || t < best)) best = t;
  }
  return best;
}

TaskId RandomChoice::choose(const SchedulingView& view, std::size_t p) {
  candidates_.clear();
  for (TaskId t : view.ready) {
    if (view.problem->runs_on(t, p)) candidates_.push_back(t);
  }
  if (candidates_.empty()) return pass;
  return candidates_[std::uniform_int_distribution<std::size_t>(0, candidates_.size() - 1)(rng_)];
}

std::vector<std::string> scheduler_names() {
  return {"heft", "readys-heft", "heft-min", "mct", "mct-prio", "heteroprio", "eager", "random"};
}

std::unique_ptr<Scheduler> make_scheduler(std::string_view name) {
  if (name == "heft") return std::make_unique<Heft>(HeftRules::standard);
  if (name == "readys-heft") return std::make_unique<Heft>(HeftRules::readys);
  if (name == "heft-min") return std::make_unique<Heft>(HeftRules::fastest);
  if (name == "mct") return std::make_unique<Mct>(false);
  if (name == "mct-prio") return std::make_unique<Mct>(true);
  if (name == "heteroprio") return std::make_unique<Heteroprio>();
  if (name == "eager") return std::make_unique<Eager>();
  if (name == "smallest-id") return std::make_unique<SmallestId>();
  if (name == "random") return std::make_unique<RandomChoice>();
  std::string accepted;
  for (const auto& n : scheduler_names()) accepted += (accepted.empty() ? "" : ", ") + n;
  detail::throw_error("scheduler '" + std::string(name) + "': expected one of " + accepted + ", smallest-id");
}

}  // namespace autosched::dag
