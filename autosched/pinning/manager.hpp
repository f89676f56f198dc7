#pragma once
/// @file
/// The pinning resource manager: a thread that, every period, measures the
/// speed of each managed thread, learns, and moves threads between the
/// allowed cores (policies in options.hpp; the learning rule in
/// strategy.hpp). Example:
///
///   autosched::pinning::Manager pm({.policy = autosched::pinning::Policy::learn_o1});
///   pm.start();
///   // in each worker thread:
///   auto me = pm.register_thread();
///   for (...) { work(); me.heartbeat(); }
///
/// Threads are registered (this process, with optional heartbeats) or found
/// through /proc/<pid>/task (any process we may re-pin). A thread that ends
/// is dropped (one that unregistered but lives on gets all allowed cores
/// back); whenever the set of managed threads changes, every strategy is
/// reset to uniform (the old vectors were learned against other neighbours).

#include <autosched/pinning/options.hpp>
#include <autosched/pinning/speed.hpp>
#include <autosched/pinning/strategy.hpp>

#include <sys/types.h>

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace autosched::pinning {

namespace detail {
struct Registry;
struct Entry;
}  // namespace detail

/// A registered thread. Destroy it (or call unregister()) before the thread
/// ends: the manager reads the thread's CPU clock while it is registered.
/// May outlive the manager.
class [[nodiscard]] ThreadRegistration {
 public:
  ThreadRegistration() = default;
  ThreadRegistration(ThreadRegistration&&) noexcept;
  ThreadRegistration& operator=(ThreadRegistration&&) noexcept;
  ThreadRegistration(const ThreadRegistration&) = delete;
  ThreadRegistration& operator=(const ThreadRegistration&) = delete;
  ~ThreadRegistration();

  /// Counts `n` units of progress; once a thread has beaten, its speed is its
  /// heartbeat rate instead of its CPU share. Lock-free, cheap enough per
  /// iteration of a work loop.
  void heartbeat(std::uint64_t n = 1) noexcept;
  /// The registered thread's kernel id (0 for an empty handle).
  [[nodiscard]] pid_t tid() const noexcept;
  /// Stops managing the thread (idempotent).
  void unregister() noexcept;

 private:
  friend class Manager;
  ThreadRegistration(std::shared_ptr<detail::Registry> registry, std::shared_ptr<detail::Entry> entry);
  std::shared_ptr<detail::Registry> registry_;
  std::shared_ptr<detail::Entry> entry_;
};

/// One managed thread in one period, as kept in the trace.
struct TraceRow {
  double time = 0.0;  ///< seconds since the manager's first period (sum of the periods' lengths)
  pid_t tid = 0;
  SpeedSource source = SpeedSource::cpu_time;
  double speed = -1.0;       ///< in the source's unit (beats/s, instructions/s or core share); -1: none yet
  double utility = 0.0;      ///< normalised, as learned from
  double average = 0.0;      ///< running average of the utility
  double wait_share = -1.0;  ///< share of the period spent runnable but waiting (schedstat); -1: unknown
  int core = -1;             ///< CPU the thread is pinned to for the next period; -1: not pinned
};

/// The state of one managed thread now.
struct ThreadView {
  pid_t tid = 0;
  int core = -1;  ///< CPU it is pinned to; -1: not pinned by us
  SpeedSource source = SpeedSource::cpu_time;
  double speed = -1.0;
  double average = 0.0;
  std::vector<double> probabilities;  ///< over cores(), in that order
};

class Manager {
 public:
  /// Validates `options`; resolves the allowed cores (the process mask, or
  /// options.cores checked against it). With an OpenMP binding in the
  /// environment and not options.force, the policy becomes off (status()).
  explicit Manager(ManagerOptions options = {});
  /// stop()s.
  ~Manager();
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;

  /// Registers the calling thread; it is picked up at the next period.
  [[nodiscard]] ThreadRegistration register_thread();

  /// Starts the manager thread, which runs one period every
  /// options.parameters.period seconds until stop(). Idempotent.
  void start();
  /// Stops and joins the manager thread. Idempotent. Affinities set stay.
  void stop();
  [[nodiscard]] bool running() const noexcept;

  /// Runs one period now, on the calling thread, as if `elapsed_s` seconds had
  /// passed since the previous one: the test hook that drives the manager
  /// without sleeping (speeds are computed with this elapsed time). Safe
  /// beside the manager thread (periods are serialised) but meant for a
  /// manager that was not start()ed.
  void step(double elapsed_s);

  /// The CPUs the manager places threads on, ascending.
  [[nodiscard]] const std::vector<int>& cores() const noexcept;
  /// The policy in effect (off when an OpenMP binding was respected).
  [[nodiscard]] Policy policy() const noexcept;
  /// One line: policy, cores, and why the policy is off where it is.
  [[nodiscard]] std::string status() const;

  [[nodiscard]] std::vector<ThreadView> threads() const;
  [[nodiscard]] std::vector<TraceRow> trace() const;
  /// Writes the trace as CSV with a header row:
  /// time_s,tid,source,speed,utility,average,wait_share,core
  void write_trace_csv(std::ostream& out) const;
  /// Periods run so far, and how many times the strategies were reset
  /// because the thread set changed.
  [[nodiscard]] std::uint64_t periods() const;
  [[nodiscard]] std::uint64_t resets() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace autosched::pinning
