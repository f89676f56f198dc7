#include <autosched/store/background_writer.hpp>

#include <autosched/core/error.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace autosched {

struct BackgroundWriter::State {
  static constexpr std::size_t capacity = 4096;
  std::mutex mutex;
  std::condition_variable wake;   ///< the writer: work arrived or shutdown
  std::condition_variable space;  ///< posters: the ring has room; drain(): all written
  std::array<InstanceRow, capacity> ring{};
  std::size_t head = 0, size = 0;
  std::deque<std::function<void()>> tasks;
  std::vector<RowSink*> sinks;
  std::atomic<bool> any_sink{false};
  std::uint64_t posted = 0, written = 0;
  bool stopping = false, stopped = false;
  std::thread thread;

  void run() {
    std::vector<InstanceRow> batch;
    batch.reserve(capacity);
    std::unique_lock lock(mutex);
    for (;;) {
      wake.wait_for(lock, std::chrono::milliseconds(200), [&] { return size > 0 || !tasks.empty() || stopping; });
      std::deque<std::function<void()>> todo;
      todo.swap(tasks);
      batch.clear();
      for (; size > 0; --size, head = (head + 1) % capacity) batch.push_back(ring[head]);
      const std::uint64_t taken = todo.size() + batch.size();
      const bool stop = stopping && todo.empty() && batch.empty();
      const std::vector<RowSink*> sinks_now = sinks;
      space.notify_all();
      lock.unlock();
      // The writing itself happens without the lock: posters never wait for I/O.
      try {
        if (!batch.empty()) {
          for (RowSink* s : sinks_now) s->write(batch);
        }
        for (auto& task : todo) task();
        if (taken > 0) {
          for (RowSink* s : sinks_now) s->flush();
        }
        if (stop) {
          for (RowSink* s : sinks_now) s->close();
        }
      } catch (const std::exception& e) {
        detail::warn(std::string("background writer: ") + e.what());
      }
      lock.lock();
      written += taken;
      space.notify_all();
      if (stop) return;
    }
  }
};

BackgroundWriter& BackgroundWriter::instance() {
  static auto* writer = new BackgroundWriter;  // never destroyed: it outlives static destructors
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
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  if (s.stopped) {  // after shutdown: write in place, do not lose it
    for (RowSink* sink : s.sinks) sink->write({&row, 1});
    return;
  }
  s.space.wait(lock, [&] { return s.size < State::capacity; });
  s.ring[(s.head + s.size) % State::capacity] = row;
  ++s.size;
  ++s.posted;
  s.wake.notify_one();
}

void BackgroundWriter::post_task(std::function<void()> task) {
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  if (s.stopped) {
    lock.unlock();
    task();
    return;
  }
  s.tasks.push_back(std::move(task));
  ++s.posted;
  s.wake.notify_one();
}

void BackgroundWriter::drain() {
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  if (s.stopped) return;
  const std::uint64_t target = s.posted;
  s.wake.notify_one();
  s.space.wait(lock, [&] { return s.written >= target; });
}

void BackgroundWriter::shutdown() {
  State& s = *state_;
  {
    std::lock_guard lock(s.mutex);
    if (s.stopped || s.stopping) return;
    s.stopping = true;
    s.wake.notify_one();
  }
  s.thread.join();
  std::lock_guard lock(s.mutex);
  s.stopped = true;
}

}  // namespace autosched
