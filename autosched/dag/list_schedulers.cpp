#include <autosched/dag/list_schedulers.hpp>

#include <autosched/dag/heft.hpp>
#include <autosched/dag/policy/episodes.hpp>
#include <autosched/dag/policy/teachers.hpp>
#include <autosched/dag/ranks.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

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
      // The queue is sorted, so the place is found by bisection, and a batch
      // arriving in priority order is appended (a linear search made 10^5
      // tasks ready at once quadratic).
      const double pr = priority_[static_cast<std::size_t>(t)];
      auto at = std::partition_point(q.begin(), q.end(),
                                     [&](TaskId o) { return priority_[static_cast<std::size_t>(o)] >= pr; });
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
    return priorities_ ? take_from_another_queue(view, p) : pass;
  }
  const TaskId t = q.front();
  q.pop_front();
  queued_work_[p] = std::max(0.0, queued_work_[p] - view.problem->expected_on(t, p));
  return t;
}

TaskId Mct::take_from_another_queue(const SchedulingView& view, std::size_t p) {
  const Problem& pb = *view.problem;
  TaskId best = pass;
  std::size_t best_q = 0;
  for (std::size_t q = 0; q < queue_.size(); ++q) {
    if (q == p) continue;
    // When each queued task would start on q, by expected durations.
    double start = std::max(view.now, view.expected_end[q]);
    for (TaskId t : queue_[q]) {
      const double there = start + pb.expected_on(t, q);
      start = there;
      if (!view.is_ready(t) || !pb.runs_on(t, p) || !(view.now + pb.expected_on(t, p) < there)) continue;
      if (best == pass || priority_[static_cast<std::size_t>(t)] > priority_[static_cast<std::size_t>(best)]) {
        best = t;
        best_q = q;
      }
    }
  }
  if (best == pass) return pass;
  auto& from = queue_[best_q];
  from.erase(std::find(from.begin(), from.end(), best));
  queued_work_[best_q] = std::max(0.0, queued_work_[best_q] - pb.expected_on(best, best_q));
  return best;
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
}

bool Heteroprio::higher_priority(TaskId a, TaskId b) const {
  const double pa = priority_[static_cast<std::size_t>(a)], pb = priority_[static_cast<std::size_t>(b)];
  return pa != pb ? pa > pb : a < b;
}

bool Heteroprio::gpu_first(TaskId a, TaskId b) const {
  const double aa = acceleration_[static_cast<std::size_t>(a)], ab = acceleration_[static_cast<std::size_t>(b)];
  return aa != ab ? aa > ab : higher_priority(a, b);
}

TaskId Heteroprio::choose(const SchedulingView& view, std::size_t p) {
  const Problem& pb = *view.problem;
  const bool on_gpu = pb.platform.kind(p) == ResourceKind::gpu;
  by_gpu_order_.clear();
  for (TaskId t : view.ready) {
    if (pb.runs_on(t, p)) by_gpu_order_.push_back(t);
  }
  if (by_gpu_order_.empty()) return pass;
  // One kind of processor: acceleration says nothing; bottom level decides.
  if (pb.platform.homogeneous()) {
    return *std::min_element(by_gpu_order_.begin(), by_gpu_order_.end(),
                             [&](TaskId a, TaskId b) { return higher_priority(a, b); });
  }
  if (on_gpu) {
    return *std::min_element(by_gpu_order_.begin(), by_gpu_order_.end(),
                             [&](TaskId a, TaskId b) { return gpu_first(a, b); });
  }
  const int gpus = pb.platform.count(ResourceKind::gpu);
  // The CPUs' order is the GPUs' order reversed: least accelerated first
  // (and, among equals, the higher bottom level first).
  auto cpu_first = [&](TaskId a, TaskId b) {
    const double aa = acceleration_[static_cast<std::size_t>(a)], ab = acceleration_[static_cast<std::size_t>(b)];
    return aa != ab ? aa < ab : higher_priority(a, b);
  };
  // When the earliest GPU is free, and the GPU work ahead of each task.
  double gpu_free = std::numeric_limits<double>::infinity();
  for (std::size_t q = 0; q < pb.processors(); ++q) {
    if (pb.platform.kind(q) == ResourceKind::gpu) gpu_free = std::min(gpu_free, std::max(view.now, view.expected_end[q]));
  }
  std::sort(by_gpu_order_.begin(), by_gpu_order_.end(), [&](TaskId a, TaskId b) { return gpu_first(a, b); });
  const auto gpu_kind = static_cast<std::size_t>(ResourceKind::gpu);
  double gpu_work_ahead = 0;
  TaskId best = pass;
  for (TaskId t : by_gpu_order_) {
    const double on_gpu_d = pb.expected[static_cast<std::size_t>(t)][gpu_kind];
    const double gpu_done = std::isfinite(on_gpu_d)
                                ? gpu_free + gpu_work_ahead / static_cast<double>(gpus) + on_gpu_d
                                : std::numeric_limits<double>::infinity();
    if (view.now + pb.expected_on(t, p) <= gpu_done && (best == pass || cpu_first(t, best))) best = t;
    if (std::isfinite(on_gpu_d)) gpu_work_ahead += on_gpu_d;
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
  return {"heft", "readys-heft", "heft-min", "mct", "mct-prio", "heteroprio", "heft-online", "eager", "random"};
}

HeftOnline::HeftOnline(double slack) : slack_(slack) {
  if (!(slack >= 1)) detail::throw_error("heft-online: slack " + std::to_string(slack) + " must be >= 1");
}

void HeftOnline::start(const Problem& problem, std::uint64_t) { rank_ = upward_ranks(problem, RankCost::fastest_kind); }

TaskId HeftOnline::choose(const SchedulingView& view, std::size_t p) {
  const Problem& pb = *view.problem;
  order_.assign(view.ready.begin(), view.ready.end());
  std::sort(order_.begin(), order_.end(), [&](TaskId a, TaskId b) {
    const double ra = rank_[static_cast<std::size_t>(a)], rb = rank_[static_cast<std::size_t>(b)];
    return ra != rb ? ra > rb : a < b;
  });
  for (TaskId t : order_) {
    if (!pb.runs_on(t, p)) continue;
    const double here = pb.expected_on(t, p);
    double elsewhere = std::numeric_limits<double>::infinity();
    for (std::size_t q = 0; q < pb.processors(); ++q) {
      if (q == p || !pb.runs_on(t, q)) continue;
      elsewhere = std::min(elsewhere, std::max(view.now, view.expected_end[q]) + pb.expected_on(t, q) - view.now);
    }
    if (here <= slack_ * elsewhere) return t;
  }
  return pass;
}

namespace {
struct Family {
  std::string prefix;
  SchedulerFactory factory;
};
std::mutex families_mutex;
std::vector<Family>& families() {
  static std::vector<Family> registered;
  return registered;
}
}  // namespace

void register_scheduler_family(std::string_view prefix, SchedulerFactory factory) {
  std::lock_guard lock(families_mutex);
  for (auto& f : families()) {
    if (f.prefix == prefix) {
      f.factory = factory;
      return;
    }
  }
  families().push_back({std::string(prefix), factory});
}

std::unique_ptr<Scheduler> make_scheduler(std::string_view name) {
  {
    const auto colon = name.find(':');
    const std::string_view prefix = name.substr(0, colon);
    SchedulerFactory factory = nullptr;
    {
      std::lock_guard lock(families_mutex);
      for (const auto& f : families()) {
        if (f.prefix == prefix) factory = f.factory;
      }
    }
    if (factory) return factory(colon == std::string_view::npos ? std::string_view{} : name.substr(colon + 1));
  }
  if (name == "heft") return std::make_unique<Heft>(HeftRules::standard);
  if (name == "readys-heft") return std::make_unique<Heft>(HeftRules::readys);
  if (name == "heft-min") return std::make_unique<Heft>(HeftRules::fastest);
  if (name == "mct") return std::make_unique<Mct>(false);
  if (name == "mct-prio") return std::make_unique<Mct>(true);
  if (name == "heteroprio") return std::make_unique<Heteroprio>();
  if (name == "heft-online") return std::make_unique<HeftOnline>();
  // The learned policy's imitation teachers, to measure them in tables.
  if (name == "lookahead" || name.starts_with("lookahead:"))
    return std::make_unique<policy::TeacherScheduler>(std::string(name), policy::make_teacher(std::string(name)));
  if (name == "eager") return std::make_unique<Eager>();
  if (name == "smallest-id") return std::make_unique<SmallestId>();
  if (name == "random") return std::make_unique<RandomChoice>();
  if (name.substr(0, name.find(':')) == "readys")
    detail::throw_error("scheduler '" + std::string(name) +
                        "': the learned policy needs libtorch, and this build has none (see autosched info)");
  std::string accepted;
  for (const auto& n : scheduler_names()) accepted += (accepted.empty() ? "" : ", ") + n;
  detail::throw_error("scheduler '" + std::string(name) + "': expected one of " + accepted + ", smallest-id");
}

}  // namespace autosched::dag
