#pragma once
/// @file
/// The one thread that writes what autosched records (store history, traces,
/// selector logs and snapshots), so that no loop ever waits for a disk.
///
/// Instances post fixed-size rows into a preallocated ring: no allocation,
/// one short lock. Rare work (snapshots, log lines) is posted as tasks. The
/// thread drains in batches: rows wake it only a quarter-ring at a time, or
/// it wakes by itself every 200 ms, so that it does not take a core from the
/// loops after every instance; a full ring makes the poster wait rather than
/// drop a result. shutdown() drains everything and stops the thread; it runs
/// at exit (registered by whoever starts the writer).

#include <autosched/store/instance_row.hpp>

#include <functional>
#include <memory>
#include <span>

namespace autosched {

/// Where drained rows go.
class RowSink {
 public:
  virtual ~RowSink() = default;
  virtual void write(std::span<const InstanceRow> rows) = 0;
  virtual void flush() {}
  /// The writer is shutting down: complete the output (e.g. end a JSON array).
  virtual void close() {}
};

/// True in the child of a fork() of a process that recorded: the child
/// records nothing (the writer thread and SQLite connections do not survive
/// a fork); its loops run normally.
bool recording_disabled_by_fork() noexcept;

class BackgroundWriter {
 public:
  /// The process's writer; started on first use.
  static BackgroundWriter& instance();

  /// Adds a sink (before rows are posted; sinks live as long as the process).
  void add_sink(RowSink* sink);
  [[nodiscard]] bool has_sinks() const noexcept;

  void post(const InstanceRow& row);
  /// Waits while `task_capacity` tasks are queued (not on the writer's own
  /// thread): a flush of 10^4 loops' selector states would otherwise queue
  /// them all (about 1.5 KB each), and the process's resident size would
  /// keep that peak after they are written.
  void post_task(std::function<void()> task);
  static constexpr std::size_t task_capacity = 256;

  /// Waits until everything posted so far is written.
  void drain();
  /// Drains and stops the thread; later posts are written synchronously.
  /// A sink or task that throws is reported as a warning; the others still
  /// get their rows.
  void shutdown();

  BackgroundWriter(const BackgroundWriter&) = delete;
  BackgroundWriter& operator=(const BackgroundWriter&) = delete;

 private:
  BackgroundWriter();
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace autosched
