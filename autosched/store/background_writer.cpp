#include <autosched/store/background_writer.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/forked_child.hpp>

#include <pthread.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace autosched {

namespace {

// In the child of a fork (core/forked_child.hpp) the writer thread did not
// survive, its mutexes may be held by threads that no longer exist, and SQLite
// forbids using a connection across fork: the child records nothing.

// fork() waits until the writer is outside every sink: a child forked while
// SQLite is half-way through a statement would inherit the connection with
// a transaction open and memory only the (vanished) writer stack points to.
// Set by instance(); the writer holds this mutex only while it writes.
std::mutex* sinks_in_use = nullptr;
void before_fork() {
  if (sinks_in_use != nullptr) sinks_in_use->lock();
}
void after_fork_in_parent() {
  if (sinks_in_use != nullptr) sinks_in_use->unlock();
}
void after_fork_in_child() {
  // The child never writes, but a locked std::mutex must not be left for
  // a destructor to trip over; unlocking from the forking thread is what
  // the prepare handler locked on that same thread.
  if (sinks_in_use != nullptr) sinks_in_use->unlock();
}

}  // namespace

bool recording_disabled_by_fork() noexcept { return in_forked_child(); }

struct BackgroundWriter::State {
  static constexpr std::size_t capacity = 4096;
  /// Rows wake the writer only once this many wait; otherwise it wakes every
  /// `period` and takes what has come. Woken for every row, it wrote one
  /// SQLite transaction per loop instance, just as the next instance began,
  /// and on a node whose cores the team fills it took one of them: on the
  /// 2-core VM, auto's 1.2 ms Mandelbrot loop ran 7% slower with the store
  /// on (~480 involuntary context switches in 100 steps; 30 with batches).
  /// Tasks (rare) and drain() still wake it at once.
  static constexpr std::size_t wake_rows = capacity / 4;
  static constexpr std::chrono::milliseconds period{200};
  std::mutex mutex;               ///< the ring, the tasks, the counters and the flags
  std::mutex sink_mutex;          ///< every call into a sink or a task, on any thread
  std::condition_variable wake;   ///< the writer: work arrived or shutdown
  std::condition_variable space;  ///< posters: the ring has room; drain(): all written
  std::array<InstanceRow, capacity> ring{};
  std::size_t head = 0, size = 0;
  std::deque<std::function<void()>> tasks;
  std::vector<RowSink*> sinks;
  /// What the writer takes out of the queues in one round. Only the writer
  /// thread touches these; they live here rather than on that thread's
  /// stack so a forked child (which has no writer thread) still reaches
  /// them and a leak checker does not report them.
  std::vector<InstanceRow> batch;
  std::deque<std::function<void()>> batch_tasks;
  std::vector<RowSink*> batch_sinks;
  std::atomic<bool> any_sink{false};
  std::uint64_t posted = 0, written = 0;
  bool hurry = false;  ///< drain() waits: write what there is now
  bool stopping = false;
  bool stopped = false;  ///< the writer thread is gone: posts are written in place
  std::thread thread;

  /// One failing sink or task must not cost the others their rows.
  template <class F>
  static void guarded(const char* what, F&& f) noexcept {
    try {
      f();
    } catch (const std::exception& e) {
      detail::warn(std::string("background writer: ") + what + ": " + e.what());
    } catch (...) {
      detail::warn(std::string("background writer: ") + what + ": unknown exception");
    }
  }

  void write_out(std::span<const InstanceRow> rows, std::deque<std::function<void()>>& todo,
                 const std::vector<RowSink*>& to, bool close) {
    std::lock_guard lock(sink_mutex);
    if (!rows.empty()) {
      for (RowSink* s : to) guarded("writing", [&] { s->write(rows); });
    }
    for (auto& task : todo) guarded("a task", task);
    if (!rows.empty() || !todo.empty()) {
      for (RowSink* s : to) guarded("flushing", [&] { s->flush(); });
    }
    if (close) {
      for (RowSink* s : to) guarded("closing", [&] { s->close(); });
    }
  }

  void run() {
    batch.reserve(capacity);
    std::unique_lock lock(mutex);
    for (;;) {
      wake.wait_for(lock, period, [&] { return size >= wake_rows || hurry || !tasks.empty() || stopping; });
      hurry = false;
      batch_tasks.clear();
      batch_tasks.swap(tasks);
      batch.clear();
      for (; size > 0; --size, head = (head + 1) % capacity) batch.push_back(ring[head]);
      const std::uint64_t taken = batch_tasks.size() + batch.size();
      // The last round: from here on posters write in place, so nothing
      // posted while the sinks close is left in a queue nobody reads.
      const bool stop = stopping && taken == 0;
      if (stop) stopped = true;
      batch_sinks = sinks;
      space.notify_all();
      lock.unlock();
      // The writing itself happens without the lock: posters never wait for I/O.
      write_out(batch, batch_tasks, batch_sinks, stop);
      lock.lock();
      written += taken;
      space.notify_all();
      if (stop) return;
    }
  }

  /// After shutdown: write in place, under the sink lock, never throwing.
  void write_in_place(std::span<const InstanceRow> rows, std::function<void()> task) {
    std::vector<RowSink*> sinks_now;
    {
      std::lock_guard lock(mutex);
      sinks_now = sinks;
    }
    std::deque<std::function<void()>> todo;
    if (task) todo.push_back(std::move(task));
    write_out(rows, todo, sinks_now, false);
  }
};

BackgroundWriter& BackgroundWriter::instance() {
  static auto* writer = [] {
    auto* created = new BackgroundWriter;  // never destroyed: it outlives static destructors
    sinks_in_use = &created->state_->sink_mutex;
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
    return created;
  }();
  return *writer;
}

BackgroundWriter::BackgroundWriter() : state_(std::make_unique<State>()) {
  state_->thread = std::thread([s = state_.get()] { s->run(); });
}

void BackgroundWriter::add_sink(RowSink* sink) {
  std::lock_guard lock(state_->mutex);
  state_->sinks.push_back(sink);
  state_->any_sink.store(true, std::memory_order_release);
}

bool BackgroundWriter::has_sinks() const noexcept { return state_->any_sink.load(std::memory_order_acquire); }

void BackgroundWriter::post(const InstanceRow& row) {
  if (in_forked_child()) return say_forked_child_once();
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  s.space.wait(lock, [&] { return s.size < State::capacity || s.stopped; });
  if (s.stopped) {  // after shutdown (a loop in a static destructor): write in place, do not lose it
    lock.unlock();
    s.write_in_place({&row, 1}, {});
    return;
  }
  s.ring[(s.head + s.size) % State::capacity] = row;
  ++s.size;
  ++s.posted;
  if (s.size >= State::wake_rows) s.wake.notify_one();
}

void BackgroundWriter::post_task(std::function<void()> task) {
  if (in_forked_child()) return say_forked_child_once();
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  if (std::this_thread::get_id() != s.thread.get_id()) {  // a task that posts one must not wait for itself
    s.space.wait(lock, [&] { return s.tasks.size() < task_capacity || s.stopped; });
  }
  if (s.stopped) {
    lock.unlock();
    s.write_in_place({}, std::move(task));
    return;
  }
  s.tasks.push_back(std::move(task));
  ++s.posted;
  s.wake.notify_one();
}

void BackgroundWriter::drain() {
  if (in_forked_child()) return;
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  const std::uint64_t target = s.posted;
  s.hurry = true;
  s.wake.notify_one();
  s.space.wait(lock, [&] { return s.written >= target || s.stopped; });
}

void BackgroundWriter::shutdown() {
  if (in_forked_child()) return;
  State& s = *state_;
  {
    std::lock_guard lock(s.mutex);
    if (s.stopping) return;
    s.stopping = true;
    s.wake.notify_one();
  }
  s.thread.join();
}

}  // namespace autosched
