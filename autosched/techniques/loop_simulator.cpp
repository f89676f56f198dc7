#include <autosched/core/error.hpp>
#include <autosched/techniques/any_dispenser.hpp>
#include <autosched/techniques/loop_simulator.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>
#include <utility>

namespace autosched {

namespace {

/// mu and sigma per unit, from the profile's blocks (iterations within a
/// block are taken as independent, as the profiling technique does).
Profile unit_profile(const CostProfile& p, std::int64_t unit) {
  const double mu = p.total_ns() / static_cast<double>(p.n());
  RunningStats per_iteration;
  const auto blocks = static_cast<std::int64_t>(p.blocks());
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t size = std::min(p.block_size(), p.n() - b * p.block_size());
    per_iteration.add(p.block(static_cast<std::size_t>(b)) / static_cast<double>(size));
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

/// How a dispatch reaches a worker: through nobody (thread teams: only h),
/// or through a queue at rank 0 that serves one request at a time, for
/// `serial` ns each (process level). In master-worker mode rank 0 is also
/// worker 0: it takes its own chunks without asking, and every request it
/// serves holds up its own chunk for that long; the other workers ask for
/// their next chunk early, with 15% of the current one left (at least one
/// iteration), as autosched::mpi's workers do, so their wait overlaps the tail.
struct DispatchModel {
  double h = 0;
  double serial = 0;
  bool master_worker = false;
  /// A chunk a static-steal owner takes from its own range (thread teams;
  /// CostProfile::owner_dispatch_ns, h when unset). A steal costs h.
  double owner = 0;
};

/// Iterations of chunk `c` a master-worker worker runs before it asks again
/// (autosched::mpi's default request point).
std::int64_t run_before_asking(IndexRange c, std::int64_t unit) {
  const std::int64_t iterations = c.size() * unit;
  const std::int64_t left = std::max<std::int64_t>(1, iterations * 15 / 100);
  return iterations > left ? (iterations - left + unit - 1) / unit : 0;
}

/// Rank 0's own chunk in master-worker mode: autosched::mpi's coordinator
/// runs it in pieces of ⌈size/P⌉/4 iterations (at least one) and serves the
/// requests waiting between pieces, so a request that comes while a piece
/// runs waits for its end (long when iterations are long), and every
/// service holds the chunk up.
struct OwnChunk {
  bool running = false;
  std::int64_t begin = 0, end = 0, piece = 1;  ///< units
  double started = 0;       ///< when its first piece began
  double shift = 0;         ///< service time inserted so far
  std::int64_t paused = 0;  ///< pieces run before the last pause

  void start(IndexRange c, double t, std::int64_t unit, int workers) {
    const std::int64_t iterations = c.size() * unit;
    const std::int64_t piece_iterations = std::max<std::int64_t>(1, ceil_div(iterations, workers) / 4);
    *this = {true, c.begin, c.end, std::max<std::int64_t>(1, piece_iterations / unit), t, 0, 0};
  }
  /// When rank 0 reaches the end of its k-th piece (with the services so far).
  [[nodiscard]] double boundary(std::int64_t k, std::span<const double> before, double speed) const {
    const std::int64_t u = std::min(end, begin + k * piece);
    return started + shift +
           (before[static_cast<std::size_t>(u)] - before[static_cast<std::size_t>(begin)]) / speed;
  }
  /// The first pause at or after `t` (t itself when the chunk has ended).
  [[nodiscard]] double next_pause(double t, std::span<const double> before, double speed, std::int64_t& k) const {
    const std::int64_t pieces = ceil_div(end - begin, piece);
    std::int64_t lo = paused, hi = pieces;
    if (!running || boundary(hi, before, speed) < t) {
      k = hi;
      return t;
    }
    while (lo < hi) {  // the smallest k with boundary(k) >= t
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (boundary(mid, before, speed) < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    k = lo;
    return boundary(lo, before, speed);
  }
};

/// One instance: the earliest worker to ask is served next (ties: the lower
/// id). A dispatch first waits for the shared server (free again `serial`
/// after it began serving the previous one), then costs `serial` + h; the
/// chunk starts when the answer is in and the worker's current chunk is done.
template <class D>
void run_instance(D& d, std::span<const double> before, const DispatchModel& model, std::int64_t unit,
                  std::span<const double> speed, double dispatches_per_unit, SimulatedInstance& out) {
  const int p = static_cast<int>(speed.size());
  // static-steal's owners take chunks from their own ranges at the owner's
  // price; at the process level every chunk is a request (the queues).
  constexpr bool owner_ranges = requires(D& x, typename D::Worker& w) { x.owns_work(w); };
  const bool priced_apart = owner_ranges && model.serial == 0;
  std::vector<typename D::Worker> workers;
  workers.reserve(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) workers.push_back(d.worker(i, 0));
  std::vector<Event> asks;  // min-heap of requests
  asks.reserve(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) asks.push_back({0.0, i});
  std::vector<double> busy_until(static_cast<std::size_t>(p), 0.0);
  // A chunk's times reach the dispenser as they do in the runtimes: with the
  // worker's first request after the chunk has ended (at once for threads;
  // one chunk later for early-asking ranks), or when the worker leaves.
  struct Pending {
    IndexRange chunk;
    ChunkTiming timing;
  };
  std::vector<std::vector<Pending>> pending(static_cast<std::size_t>(D::timed ? p : 0));
  const auto report = [&](std::size_t i, double now) {
    if constexpr (D::timed) {
      std::vector<Pending>& q = pending[i];  // at most two: the chunk running and the one before
      std::size_t done = 0;
      while (done < q.size() && static_cast<double>(q[done].timing.finished_ns) <= now) {
        d.completed(workers[i], q[done].chunk, q[done].timing);
        ++done;
      }
      q.erase(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(done));
    }
  };
  double chunks = 0;
  double server_free = 0;
  OwnChunk own;  // master-worker: rank 0's current chunk
  if (model.master_worker && p > 1) {
    // Rank 0 first pushes every worker its first chunk, then takes its own.
    asks.front().time = model.serial * (p - 1);
    std::make_heap(asks.begin(), asks.end(), std::greater<>{});
  }
  while (!asks.empty()) {
    std::pop_heap(asks.begin(), asks.end(), std::greater<>{});
    const Event e = asks.back();
    asks.pop_back();
    const auto i = static_cast<std::size_t>(e.worker);
    const bool coordinator = model.master_worker && i == 0;
    if (coordinator && e.time < busy_until[0]) {  // its chunk was held up by serving: it asks later
      asks.push_back({busy_until[0], e.worker});
      std::push_heap(asks.begin(), asks.end(), std::greater<>{});
      continue;
    }
    if (coordinator) own.running = false;
    report(i, e.time);
    bool from_own_range = false;  // static-steal, no steal: the owner's price
    if constexpr (owner_ranges) from_own_range = priced_apart && d.owns_work(workers[i]);
    const IndexRange c = d.next(workers[i]);
    if (c.empty()) {
      report(i, std::numeric_limits<double>::infinity());
      out.finish_ns[i] = std::max(e.time, busy_until[i]);
      if constexpr (requires { d.finished(workers[0], std::int64_t{}); }) {
        d.finished(workers[i], static_cast<std::int64_t>(out.finish_ns[i]));
      }
      continue;
    }
    // A chunk of one unit stands for `dispatches_per_unit` real chunks.
    const double dispatches = c.size() == 1 ? dispatches_per_unit : 1.0;
    chunks += dispatches;
    double answered = e.time;
    if (!coordinator) {
      const double service = model.serial * dispatches;
      double granted = std::max(e.time, server_free);
      if (model.master_worker && e.time > server_free && own.running) {
        // Rank 0 is running a piece of its own chunk: the request waits for its end.
        std::int64_t k = 0;
        granted = own.next_pause(e.time, before, speed[0], k);
        own.paused = k;
      }
      server_free = granted + service;
      // A stolen unit's first real chunk is the steal; the rest of the unit
      // is then the thief's own range.
      const double cost = !priced_apart     ? model.h * dispatches
                          : from_own_range ? model.owner * dispatches
                                           : model.h + model.owner * (dispatches - 1);
      answered = server_free + cost;
      if (model.master_worker && own.running && busy_until[0] > granted) {  // rank 0 stops its own chunk to serve
        own.shift += service;
        busy_until[0] += service;
        if constexpr (D::timed) {  // timed without the serving, as autosched::mpi's coordinator reports it
          if (!pending[0].empty()) {
            ChunkTiming& t = pending[0].back().timing;
            const auto served = static_cast<std::int64_t>(service);
            t.requested_ns += served;
            t.started_ns += served;
            t.finished_ns += served;
          }
        }
      }
    }
    const double ready = std::max(e.time, busy_until[i]);  // free, and asking
    const double started = std::max(answered, busy_until[i]);
    const double body = before[static_cast<std::size_t>(c.end)] - before[static_cast<std::size_t>(c.begin)];
    const double finished = started + body / speed[i];
    busy_until[i] = finished;
    if (coordinator) own.start(c, started, unit, p);
    if constexpr (D::timed) {
      pending[i].push_back({c, ChunkTiming{static_cast<std::int64_t>(ready), static_cast<std::int64_t>(started),
                                           static_cast<std::int64_t>(finished)}});
    }
    double asks_at = finished;
    if (model.master_worker && !coordinator) {
      const std::int64_t first = c.begin + run_before_asking(c, unit);
      asks_at = started + (before[static_cast<std::size_t>(first)] - before[static_cast<std::size_t>(c.begin)]) / speed[i];
    }
    asks.push_back({asks_at, e.worker});
    std::push_heap(asks.begin(), asks.end(), std::greater<>{});
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
  std::int64_t chunk = arm.chunk_for(n_, p);
  if (arm.technique == TechniqueId::static_ && chunk > 0) {
    // Cyclic static deals fixed chunks round the workers, so with chunks
    // finer than the profile's blocks the profile cannot say how a block's
    // time falls among them (a 2-D loop's costly columns can land on the
    // same workers in every row): it is priced at the profile's resolution.
    chunk = std::max(chunk, profile_->block_size());
  }
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
            // Which queue a dispatch waits in (process level; none for thread teams).
            DispatchModel model{profile_->overhead_ns(), 0.0, false, profile_->owner_dispatch_ns()};
            if constexpr (std::is_same_v<D, ChunkSequence>) {
              model.serial = profile_->counter_queue_ns();
            } else if constexpr (!std::is_same_v<D, BlockStatic> && !std::is_same_v<D, CyclicStatic>) {
              model.serial = profile_->coordinator_queue_ns();
              model.master_worker = model.serial > 0;
            }
            run_instance(d, before_, model, unit_, speed_, dispatches_per_unit, out);
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
