#include <autosched/core/error.hpp>
#include <autosched/techniques/any_dispenser.hpp>
#include <autosched/techniques/exp_chunk.hpp>
#include <autosched/techniques/loop_simulator.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <type_traits>
#include <utility>

namespace autosched {

namespace {

/// mu and sigma per unit, from the profile's blocks (iterations within a
/// block are taken as independent, as the profiling technique does).
Profile unit_profile(const CostProfile& p, std::int64_t unit) {
  const double mu = p.total_ns() / static_cast<double>(p.n());
  RunningStats per_iteration;
  const auto blocks = static_cast<std::int64_t>(p.block_ns().size());
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t size = std::min(p.block_size(), p.n() - b * p.block_size());
    per_iteration.add(p.block_ns()[static_cast<std::size_t>(b)] / static_cast<double>(size));
  }
  const double sigma =
      per_iteration.count > 1 ? per_iteration.sample_stddev() * std::sqrt(static_cast<double>(p.block_size())) : 0.0;
  const auto u = static_cast<double>(unit);
  return Profile{mu * u, sigma * std::sqrt(u), p.overhead_ns(), p.n()};
}

/// Techniques that keep handing out chunks of the chunk parameter until the
/// end: when that is below a unit, a unit stands for several real chunks.
bool fixed_chunks(TechniqueId t) { return t == TechniqueId::ss || t == TechniqueId::static_steal; }

struct Event {
  double time;
  int worker;
  bool operator>(const Event& o) const noexcept { return time > o.time || (time == o.time && worker > o.worker); }
};

/// One instance: the earliest free worker asks next (ties: the lower id).
/// A dispatch first waits for the shared server (free again `serial` after
/// it began serving the previous one), then costs `serial` + h.
template <class D>
void run_instance(D& d, std::span<const double> before, double h, double serial, std::span<const double> speed,
                  double dispatches_per_unit, SimulatedInstance& out) {
  const int p = static_cast<int>(speed.size());
  std::vector<typename D::Worker> workers;
  workers.reserve(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) workers.push_back(d.worker(i, 0));
  std::vector<Event> ready;  // min-heap
  ready.reserve(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) ready.push_back({0.0, i});
  double chunks = 0;
  double server_free = 0;
  while (!ready.empty()) {
    std::pop_heap(ready.begin(), ready.end(), std::greater<>{});
    const Event e = ready.back();
    ready.pop_back();
    const auto i = static_cast<std::size_t>(e.worker);
    const IndexRange c = d.next(workers[i]);
    if (c.empty()) {
      out.finish_ns[i] = e.time;
      if constexpr (requires { d.finished(workers[0], std::int64_t{}); }) {
        d.finished(workers[i], static_cast<std::int64_t>(e.time));
      }
      continue;
    }
    // A chunk of one unit stands for `dispatches_per_unit` real chunks.
    const double dispatches = c.size() == 1 ? dispatches_per_unit : 1.0;
    chunks += dispatches;
    const double granted = std::max(e.time, server_free);
    server_free = granted + serial * dispatches;
    const double started = server_free + h * dispatches;
    const double body = before[static_cast<std::size_t>(c.end)] - before[static_cast<std::size_t>(c.begin)];
    const double finished = started + body / speed[i];
    if constexpr (D::timed) {
      d.completed(workers[i], c,
                  ChunkTiming{static_cast<std::int64_t>(e.time), static_cast<std::int64_t>(started),
                              static_cast<std::int64_t>(finished)});
    }
    ready.push_back({finished, e.worker});
    std::push_heap(ready.begin(), ready.end(), std::greater<>{});
  }
  out.chunks = static_cast<std::int64_t>(std::llround(chunks));
  out.time_ns = *std::max_element(out.finish_ns.begin(), out.finish_ns.end());
}

}  // namespace

LoopSimulator::LoopSimulator(const CostProfile& profile, const LoopSimulationOptions& options)
    : profile_(&profile), options_(options) {
  if (profile.empty()) detail::throw_error("simulate_loop: the cost profile is empty");
  const int p = options.workers;
  if (p < 1) detail::throw_error("simulate_loop: workers = " + std::to_string(p) + ", expected at least 1");
  speed_.assign(static_cast<std::size_t>(p), 1.0);
  if (!options.speeds.empty()) {
    if (options.speeds.size() != speed_.size()) {
      detail::throw_error("simulate_loop: " + std::to_string(options.speeds.size()) + " worker speeds for " +
                          std::to_string(p) + " workers");
    }
    for (std::size_t i = 0; i < speed_.size(); ++i) {
      if (!(options.speeds[i] > 0) || !std::isfinite(options.speeds[i])) {
        detail::throw_error("simulate_loop: worker " + std::to_string(i) + " has speed " +
                            std::to_string(options.speeds[i]) + ", expected a finite value > 0");
      }
      speed_[i] = options.speeds[i];
    }
  }
  options_.speeds = {};  // copied into speed_; the caller's span may not outlive us
  n_ = profile.n();
  units_ = n_;
  if (options.max_units > 0) {
    const std::int64_t limit = std::max<std::int64_t>(options.max_units, std::int64_t{16} * p);
    if (n_ > limit) {
      unit_ = ceil_div(n_, limit);
      units_ = ceil_div(n_, unit_);
    }
  }
  // Unit u covers iterations [u·unit, min((u+1)·unit, n)): its body time
  // from the profile, once for every arm simulated.
  before_.resize(static_cast<std::size_t>(units_) + 1);
  for (std::int64_t u = 0; u <= units_; ++u) {
    before_[static_cast<std::size_t>(u)] = profile.cost({0, std::min(u * unit_, n_)});
  }
  unit_profile_ = unit_profile(profile, unit_);
}

SimulatedInstance LoopSimulator::run(const TechniqueSpec& arm) const {
  const int p = options_.workers;
  // The chunk parameter in real iterations, then in units (at least one).
  const std::int64_t chunk = arm.expert_chunk ? exp_chunk(n_, p) : arm.chunk;
  const std::int64_t unit_chunk = chunk > 0 ? std::max<std::int64_t>(1, (chunk + unit_ / 2) / unit_) : 0;
  const double dispatches_per_unit =
      unit_ > 1 && fixed_chunks(arm.technique)
          ? static_cast<double>(unit_) / static_cast<double>(std::max<std::int64_t>(chunk, 1))
          : 1.0;
  LoopMemory memory;
  memory.profile = unit_profile_;
  Workspace workspace;
  AnyDispenser dispenser;
  SimulatedInstance out;
  out.finish_ns.assign(static_cast<std::size_t>(p), 0.0);
  const TechniqueParams params = arm.params;
  for (int k = 0; k < std::max(1, options_.instances); ++k) {
    const TechniqueSetup setup{arm.technique, LoopShape{units_, p, unit_chunk}, &params, 0};
    out.ran = prepare_dispenser(dispenser, setup, memory, workspace).ran;
    std::visit(
        [&](auto& d) {
          using D = std::decay_t<decltype(d)>;
          if constexpr (!std::is_same_v<D, std::monostate>) {
            // Which queue a dispatch waits in (process level; 0 for thread teams).
            const double serial = std::is_same_v<D, ChunkSequence>                                  ? profile_->counter_queue_ns()
                                  : std::is_same_v<D, BlockStatic> || std::is_same_v<D, CyclicStatic> ? 0.0
                                                                                                     : profile_->coordinator_queue_ns();
            run_instance(d, before_, profile_->overhead_ns(), serial, speed_, dispatches_per_unit, out);
          }
        },
        dispenser);
    close_dispenser(dispenser, memory);
  }
  return out;
}

SimulatedInstance simulate_loop(const CostProfile& profile, const TechniqueSpec& arm,
                                const LoopSimulationOptions& options) {
  return LoopSimulator(profile, options).run(arm);
}

}  // namespace autosched
