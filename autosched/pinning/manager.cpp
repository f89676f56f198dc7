#include <autosched/pinning/manager.hpp>

#include <autosched/core/error.hpp>
#include <autosched/pinning/affinity.hpp>
#include <autosched/pinning/placement_policy.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <set>
#include <thread>

namespace autosched::pinning {

namespace detail {

/// A registered thread. `handle` is read only while the entry is listed in
/// its Registry, under the registry's mutex: the registration contract says
/// the thread is alive until it unlists itself.
struct Entry {
  pid_t tid = 0;
  pthread_t handle{};
  Heartbeat beats;
};

struct Registry {
  std::mutex mutex;
  std::vector<std::shared_ptr<Entry>> entries;
};

}  // namespace detail

// ---------------------------------------------------------------- registration

ThreadRegistration::ThreadRegistration(std::shared_ptr<detail::Registry> registry, std::shared_ptr<detail::Entry> entry)
    : registry_(std::move(registry)), entry_(std::move(entry)) {}

ThreadRegistration::ThreadRegistration(ThreadRegistration&& other) noexcept
    : registry_(std::move(other.registry_)), entry_(std::move(other.entry_)) {}

ThreadRegistration& ThreadRegistration::operator=(ThreadRegistration&& other) noexcept {
  if (this != &other) {
    unregister();
    registry_ = std::move(other.registry_);
    entry_ = std::move(other.entry_);
  }
  return *this;
}

ThreadRegistration::~ThreadRegistration() { unregister(); }

void ThreadRegistration::heartbeat(std::uint64_t n) noexcept {
  if (entry_) entry_->beats.beat(n);
}

pid_t ThreadRegistration::tid() const noexcept { return entry_ ? entry_->tid : 0; }

void ThreadRegistration::unregister() noexcept {
  if (registry_ && entry_) {
    std::lock_guard lock(registry_->mutex);
    auto& v = registry_->entries;
    v.erase(std::remove(v.begin(), v.end(), entry_), v.end());
  }
  registry_.reset();
  entry_.reset();
}

namespace {

/// One managed thread.
struct Managed {
  pid_t tid = 0;
  std::shared_ptr<detail::Entry> entry;  // null for a thread found in /proc
  Strategy strategy;
  SpeedSource source = SpeedSource::cpu_time;
  RateMeter rate;
  RateMeter wait;
  int played = -1;  // core index in force during the period being measured
  int pinned = -1;  // core index we last applied
  double speed = -1.0;
  double utility = 0.0;
  double wait_share = -1.0;
};

/// What one period saw of a thread before judging it.
struct Seen {
  pid_t tid = 0;
  std::shared_ptr<detail::Entry> entry;
  SpeedSource source = SpeedSource::cpu_time;
  std::optional<double> counter;  // beats, instructions, or CPU seconds
  std::optional<double> waited;   // schedstat wait, seconds
};

}  // namespace

// ---------------------------------------------------------------- manager

struct Manager::Impl {
  ManagerOptions options;
  Policy policy = Policy::off;
  std::string why_off;
  std::vector<int> cores;
  std::shared_ptr<detail::Registry> registry = std::make_shared<detail::Registry>();

  mutable std::mutex mutex;  // everything below, up to the thread control
  std::vector<Managed> threads;
  std::vector<pid_t> known;  // sorted tids of the last period
  std::set<pid_t> dead;      // tids that reported ESRCH and may linger in /proc briefly
  Sampler sampler;
  std::unique_ptr<PlacementPolicy> placement;  ///< made for `policy` once it is settled
  std::vector<TraceRow> trace;
  std::array<double, 3> scale{0, 0, 0};  // per SpeedSource
  double time = 0;
  std::uint64_t periods = 0;
  std::uint64_t resets = 0;
  bool warned_apply = false;
  // PAPI instructions replace CPU time for threads without heartbeats when
  // papi_status() found counters usable at construction. One counter per
  // such thread; a tid whose counter failed stays on CPU time (warned once).
  bool papi = false;
  std::map<pid_t, std::unique_ptr<InstructionCounter>> counters;
  std::set<pid_t> papi_refused;
  bool warned_papi = false;

  std::mutex control;
  std::condition_variable wake;
  bool stop_requested = false;
  std::thread worker;
  std::atomic<bool> running{false};
  std::atomic<pid_t> manager_tid{0};

  void period(double elapsed);
  std::vector<Seen> gather();
  void count_instructions(std::vector<Seen>& seen, const std::set<pid_t>& present);
  void run();
};

std::vector<Seen> Manager::Impl::gather() {
  std::vector<Seen> seen;
  std::set<pid_t> present;
  {
    std::lock_guard lock(registry->mutex);
    for (const auto& e : registry->entries) {
      present.insert(e->tid);
      if (dead.count(e->tid) != 0) continue;
      Seen s{e->tid, e, SpeedSource::cpu_time, std::nullopt, std::nullopt};
      if (const auto beats = e->beats.count(); beats > 0) {
        s.source = SpeedSource::heartbeat;
        s.counter = static_cast<double>(beats);
      } else if (const auto ns = thread_cpu_ns(e->handle)) {
        s.counter = static_cast<double>(*ns) * 1e-9;
      }
      seen.push_back(std::move(s));
    }
  }
  for (Seen& s : seen) {
    if (const auto st = read_schedstat(0, s.tid)) s.waited = static_cast<double>(st->wait_ns) * 1e-9;
  }
  if (options.pid != 0) {
    const pid_t self = manager_tid.load(std::memory_order_relaxed);
    for (pid_t tid : process_threads(options.pid)) {
      present.insert(tid);
      if (tid == self || dead.count(tid) != 0) continue;
      if (std::any_of(seen.begin(), seen.end(), [&](const Seen& s) { return s.tid == tid; })) continue;
      const auto st = read_schedstat(options.pid, tid);
      if (!st) continue;  // ended between the listing and the read
      seen.push_back({tid, nullptr, SpeedSource::cpu_time, static_cast<double>(st->run_ns) * 1e-9,
                      static_cast<double>(st->wait_ns) * 1e-9});
    }
  }
  if (papi) count_instructions(seen, present);
  // A dead tid no longer listed anywhere may be reused by a new thread.
  for (auto it = dead.begin(); it != dead.end();) it = present.count(*it) != 0 ? std::next(it) : dead.erase(it);
  return seen;
}

void Manager::Impl::count_instructions(std::vector<Seen>& seen, const std::set<pid_t>& present) {
  std::set<pid_t> counted;
  for (Seen& s : seen) {
    if (s.source != SpeedSource::cpu_time || papi_refused.count(s.tid) != 0) continue;
    auto& counter = counters[s.tid];
    if (!counter) counter = std::make_unique<InstructionCounter>(s.tid);
    if (const auto instructions = counter->read()) {
      s.source = SpeedSource::papi;
      s.counter = static_cast<double>(*instructions);
      counted.insert(s.tid);
      continue;
    }
    // Permissions or a perf_event limit can refuse one thread while others
    // count: this one keeps the CPU time gathered above.
    if (!warned_papi) {
      ::autosched::detail::warn("pinning: no PAPI instruction counter for thread " + std::to_string(s.tid) + " (" +
                                counter->error() + "); such threads are measured by CPU time");
      warned_papi = true;
    }
    papi_refused.insert(s.tid);
  }
  // Counters of threads that left or started beating are closed; a refusal
  // is forgotten once its tid is gone, since the tid may be reused.
  std::erase_if(counters, [&](const auto& c) { return counted.count(c.first) == 0; });
  std::erase_if(papi_refused, [&](pid_t tid) { return present.count(tid) == 0; });
}

void Manager::Impl::period(double elapsed) {
  std::lock_guard lock(mutex);
  time += elapsed;
  ++periods;
  const std::vector<Seen> seen = gather();
  const std::size_t m = cores.size();

  // Membership. New threads start from the initial vector only while the
  // set is being populated from nothing; any later change resets everyone.
  std::vector<pid_t> ids;
  for (const Seen& s : seen) ids.push_back(s.tid);
  std::sort(ids.begin(), ids.end());
  const bool changed = ids != known;
  const bool reset = changed && !known.empty() && !ids.empty();
  known = ids;
  std::vector<Managed> next;
  next.reserve(seen.size());
  for (const Seen& s : seen) {
    auto old = std::find_if(threads.begin(), threads.end(), [&](const Managed& t) { return t.tid == s.tid; });
    if (old != threads.end()) {
      next.push_back(std::move(*old));
    } else {
      next.push_back(Managed{s.tid, s.entry, Strategy(m, next.size(), options.parameters), s.source, {}, {}});
    }
  }
  // A thread that left alive (it unregistered, or stopped matching) gets
  // all allowed cores back instead of staying on the last one we chose; one
  // that ended just answers ESRCH.
  for (const Managed& t : threads) {
    if (t.pinned < 0) continue;
    if (std::none_of(next.begin(), next.end(), [&](const Managed& n) { return n.tid == t.tid; }))
      (void)set_thread_affinity(t.tid, cores);
  }
  if (reset) {
    ++resets;
    for (Managed& t : next) t.strategy.reset_uniform();
  }

  // Speeds, in the source's unit, then normalised.
  for (std::size_t i = 0; i < next.size(); ++i) {
    Managed& t = next[i];
    const Seen& s = seen[i];
    if (t.source != s.source) {  // the thread started beating: new unit
      t.source = s.source;
      t.rate = RateMeter{};
      t.strategy.forget_average();
    }
    const auto rate = s.counter ? t.rate.update(*s.counter, elapsed) : std::nullopt;
    t.speed = rate ? *rate : -1.0;
    const auto waited = s.waited ? t.wait.update(*s.waited, elapsed) : std::nullopt;
    t.wait_share = waited ? *waited : -1.0;
  }
  for (std::size_t k = 0; k < scale.size(); ++k) {
    if (options.norm > 0) {
      scale[k] = options.norm;
      continue;
    }
    if (scale[k] > 0) continue;
    double sum = 0;
    int count = 0;
    for (const Managed& t : next) {
      if (static_cast<std::size_t>(t.source) == k && t.speed > 0) {
        sum += t.speed;
        ++count;
      }
    }
    if (count > 0) scale[k] = sum / count;
  }
  std::vector<double> v(next.size(), std::numeric_limits<double>::quiet_NaN());
  double mean = 0;
  int measured = 0;
  for (std::size_t i = 0; i < next.size(); ++i) {
    const double sc = scale[static_cast<std::size_t>(next[i].source)];
    if (next[i].speed >= 0 && sc > 0) {
      v[i] = next[i].speed / sc;
      mean += v[i];
      ++measured;
    }
  }
  mean = measured > 0 ? mean / measured : std::numeric_limits<double>::quiet_NaN();

  // Learn from the period that ended, then choose the next placement.
  std::vector<PolicyThread> view(next.size());
  for (std::size_t i = 0; i < next.size(); ++i) {
    view[i] = {&next[i].strategy, next[i].pinned, next[i].played, v[i], next[i].utility};
  }
  const std::vector<int> choice = placement->choose(view, {m, changed, mean, elapsed});
  for (std::size_t i = 0; i < next.size(); ++i) next[i].utility = view[i].utility;

  // Apply; a thread that ended is dropped (and the next period resets).
  std::vector<Managed> kept;
  kept.reserve(next.size());
  for (std::size_t i = 0; i < next.size(); ++i) {
    Managed& t = next[i];
    if (choice[i] >= 0 && choice[i] != t.pinned) {
      const int rc = pin_thread(t.tid, cores[static_cast<std::size_t>(choice[i])]);
      if (rc == ESRCH) {
        dead.insert(t.tid);
        continue;
      }
      if (rc != 0) {
        if (!warned_apply) {
          ::autosched::detail::warn("pinning: cannot set the affinity of thread " + std::to_string(t.tid) + ": " +
                                    std::strerror(rc));
          warned_apply = true;
        }
      } else {
        t.pinned = choice[i];
      }
    }
    t.played = t.pinned;
    if (trace.size() < options.trace_limit) {
      trace.push_back({time, t.tid, t.source, t.speed, t.utility, t.strategy.running_average(), t.wait_share,
                       t.pinned >= 0 ? cores[static_cast<std::size_t>(t.pinned)] : -1});
    }
    kept.push_back(std::move(t));
  }
  threads = std::move(kept);
}

void Manager::Impl::run() {
  manager_tid.store(current_tid(), std::memory_order_relaxed);
  // The manager sleeps almost all the time; pinning it keeps it from
  // migrating onto the cores it is judging and perturbing them. With one
  // core there is nothing to choose, so it stays as it is.
  if (options.pin_self && cores.size() > 1) (void)pin_thread(current_tid(), cores.front());
  const auto period_length = std::chrono::duration<double>(options.parameters.period);
  auto last = std::chrono::steady_clock::now();
  std::unique_lock lock(control);
  while (!stop_requested) {
    wake.wait_for(lock, period_length, [&] { return stop_requested; });
    if (stop_requested) break;
    lock.unlock();
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - last).count();
    last = now;
    try {
      period(elapsed);
    } catch (const std::exception& e) {
      // A period that failed (out of memory, most likely) is skipped; the
      // application must not die for its pinning.
      ::autosched::detail::warn(std::string("pinning: a period failed: ") + e.what());
    }
    lock.lock();
  }
}

Manager::Manager(ManagerOptions options) : impl_(std::make_unique<Impl>()) {
  options.validate();
  Impl& d = *impl_;
  d.options = std::move(options);
  d.sampler = Sampler(d.options.seed);
  const std::vector<int> mask = allowed_cores();
  if (d.options.cores.empty()) {
    d.cores = mask;
  } else {
    std::vector<int> wanted = d.options.cores;
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    for (int c : wanted) {
      if (!std::binary_search(mask.begin(), mask.end(), c)) {
        ::autosched::detail::throw_error("pinning cores=" + format_cores(wanted) + ": core " + std::to_string(c) +
                                         " is outside this process's affinity mask (" + format_cores(mask) + ")");
      }
    }
    d.cores = std::move(wanted);
  }
  if (d.cores.empty()) ::autosched::detail::throw_error("pinning: the process affinity mask could not be read");
  d.policy = d.options.policy;
  d.papi = papi_status().usable;
  if (d.policy != Policy::off && !d.options.force) {
    if (const OpenMpBinding b = openmp_binding(); b.bound) {
      d.why_off = b.reason + " binds the OpenMP threads; pinning stays off (force=yes overrides)";
      d.policy = Policy::off;
      ::autosched::detail::warn("pinning: " + d.why_off);
    }
  }
  d.placement = make_placement_policy(d.policy, d.options, d.sampler);
}

Manager::~Manager() { stop(); }

ThreadRegistration Manager::register_thread() {
  auto entry = std::make_shared<detail::Entry>();
  entry->tid = current_tid();
  entry->handle = pthread_self();
  {
    std::lock_guard lock(impl_->registry->mutex);
    impl_->registry->entries.push_back(entry);
  }
  return ThreadRegistration(impl_->registry, std::move(entry));
}

void Manager::start() {
  std::lock_guard lock(impl_->control);
  if (impl_->worker.joinable()) return;
  impl_->stop_requested = false;
  impl_->worker = std::thread([d = impl_.get()] { d->run(); });
  impl_->running.store(true);
}

void Manager::stop() {
  std::thread worker;
  {
    std::lock_guard lock(impl_->control);
    impl_->stop_requested = true;
    worker = std::move(impl_->worker);
  }
  impl_->wake.notify_all();
  if (worker.joinable()) worker.join();
  impl_->running.store(false);
}

bool Manager::running() const noexcept { return impl_->running.load(); }

void Manager::step(double elapsed_s) {
  if (!(elapsed_s > 0) || !std::isfinite(elapsed_s))
    ::autosched::detail::throw_error("pinning step: elapsed time " + std::to_string(elapsed_s) +
                                     " s; expected a positive number of seconds");
  impl_->period(elapsed_s);
}

const std::vector<int>& Manager::cores() const noexcept { return impl_->cores; }

Policy Manager::policy() const noexcept { return impl_->policy; }

std::string Manager::status() const {
  std::string s = std::string("policy ") + to_string(impl_->policy) + " on cores " + format_cores(impl_->cores);
  if (!impl_->why_off.empty()) s += " (" + impl_->why_off + ")";
  return s;
}

std::vector<ThreadView> Manager::threads() const {
  std::lock_guard lock(impl_->mutex);
  std::vector<ThreadView> out;
  for (const Managed& t : impl_->threads) {
    const auto p = t.strategy.probabilities();
    out.push_back({t.tid, t.pinned >= 0 ? impl_->cores[static_cast<std::size_t>(t.pinned)] : -1, t.source, t.speed,
                   t.strategy.running_average(), std::vector<double>(p.begin(), p.end())});
  }
  return out;
}

std::vector<TraceRow> Manager::trace() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->trace;
}

void Manager::write_trace_csv(std::ostream& out) const {
  const auto rows = trace();
  out << "time_s,tid,source,speed,utility,average,wait_share,core\n";
  for (const TraceRow& r : rows) {
    out << r.time << ',' << r.tid << ',' << to_string(r.source) << ',' << r.speed << ',' << r.utility << ','
        << r.average << ',' << r.wait_share << ',' << r.core << '\n';
  }
}

std::uint64_t Manager::periods() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->periods;
}

std::uint64_t Manager::resets() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->resets;
}

}  // namespace autosched::pinning
