// The background writer: rows posted from many threads all arrive, none
// twice, a full ring makes posters wait instead of dropping, a failing sink
// or task costs the others nothing, and rows posted after shutdown are still
// written.
#include <autosched/core/error.hpp>
#include <autosched/store/background_writer.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace autosched {
namespace {

class CountingSink final : public RowSink {
 public:
  explicit CountingSink(int threads) : seen_(static_cast<std::size_t>(threads)) {}
  void write(std::span<const InstanceRow> rows) override {
    std::lock_guard lock(mutex_);
    for (const InstanceRow& r : rows) seen_[static_cast<std::size_t>(r.p)].push_back(r.instance);
    ++batches_;
  }
  void close() override { closed_ = true; }
  std::vector<std::vector<std::uint64_t>> seen() {
    std::lock_guard lock(mutex_);
    return seen_;
  }
  bool closed() const { return closed_; }
  int batches() {
    std::lock_guard lock(mutex_);
    return batches_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::vector<std::uint64_t>> seen_;  ///< per posting thread, in order
  int batches_ = 0;
  std::atomic<bool> closed_{false};
};

// Fails its first write, as a store does when the disk is full.
class FailingOnceSink final : public RowSink {
 public:
  void write(std::span<const InstanceRow>) override {
    if (!failed_.exchange(true)) throw std::runtime_error("disk full");
  }

 private:
  std::atomic<bool> failed_{false};
};

// Rows do not wake the writer one by one: woken for each, it ran an SQLite
// transaction per loop instance and took a core from the team (on 2 cores,
// auto's loops ran 7% slower with the store on). Rows posted together go out
// in one batch when drained, and rows nobody drains are still written (the
// writer wakes by itself). Defined before the shutdown test, which ends the
// writer for the rest of the process.
TEST(BackgroundWriter, BatchesRowsAndWritesThemWithoutADrain) {
  // Registered for the process's life: it also receives the next test's
  // rows (posted by threads 0-3).
  static auto* sink = new CountingSink(4);
  BackgroundWriter& writer = BackgroundWriter::instance();
  writer.add_sink(sink);
  for (std::uint64_t i = 0; i < 100; ++i) {
    InstanceRow r;
    r.p = 0;
    r.instance = i;
    writer.post(r);
    // As loop instances arrive: time for a writer woken per row to take it.
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  writer.drain();
  ASSERT_EQ(sink->seen()[0].size(), 100u);
  // One batch at drain(); two or three if the writer's own period fell
  // inside the loop above (about 30 ms). Woken per row, it wrote 100.
  EXPECT_LE(sink->batches(), 3);
  for (std::uint64_t i = 100; i < 110; ++i) {
    InstanceRow r;
    r.p = 0;
    r.instance = i;
    writer.post(r);
  }
  // No drain: the writer's period brings them out (waited for generously:
  // this checks that they come, not how fast).
  for (int k = 0; k < 1000 && sink->seen()[0].size() < 110; ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(sink->seen()[0].size(), 110u);
}

// One test: the writer is the process's and shutdown() is final.
TEST(BackgroundWriter, LosesNothingFromManyThreadsAndAfterShutdown) {
  constexpr int threads = 4;
  constexpr std::uint64_t per_thread = 20000;  // 80000 rows through a ring of 4096
  std::vector<std::string> warnings;
  std::mutex warnings_mutex;
  detail::set_warning_sink([&](std::string_view m) {
    std::lock_guard lock(warnings_mutex);
    warnings.emplace_back(m);
  });
  FailingOnceSink failing;
  CountingSink sink(threads);
  BackgroundWriter& writer = BackgroundWriter::instance();
  writer.add_sink(&failing);  // first: its failure must not cost the next sink its rows
  writer.add_sink(&sink);
  std::atomic<int> tasks{0};
  std::vector<std::thread> posters;
  for (int t = 0; t < threads; ++t) {
    posters.emplace_back([&, t] {
      for (std::uint64_t i = 0; i < per_thread; ++i) {
        InstanceRow r;
        r.p = t;
        r.instance = i;
        writer.post(r);
        if (i % 5000 == 0) writer.post_task([&] { tasks.fetch_add(1); });
        if (i == 7) writer.post_task([] { throw std::runtime_error("task failed"); });
      }
    });
  }
  for (auto& p : posters) p.join();
  writer.drain();
  auto seen = sink.seen();
  for (int t = 0; t < threads; ++t) {
    ASSERT_EQ(seen[static_cast<std::size_t>(t)].size(), per_thread) << "thread " << t;
    for (std::uint64_t i = 0; i < per_thread; ++i) {
      ASSERT_EQ(seen[static_cast<std::size_t>(t)][i], i) << "thread " << t;  // in order, once each
    }
  }
  EXPECT_EQ(tasks.load(), threads * 4);
  {
    std::lock_guard lock(warnings_mutex);
    EXPECT_EQ(std::count(warnings.begin(), warnings.end(), "background writer: writing: disk full"), 1);
    EXPECT_EQ(std::count(warnings.begin(), warnings.end(), "background writer: a task: task failed"), threads);
  }

  writer.shutdown();
  EXPECT_TRUE(sink.closed());
  InstanceRow late;
  late.p = 0;
  late.instance = per_thread;
  writer.post(late);  // written in place, not lost
  bool ran = false;
  writer.post_task([&] { ran = true; });
  EXPECT_EQ(sink.seen()[0].size(), per_thread + 1);
  EXPECT_TRUE(ran);
  writer.drain();  // returns at once after shutdown
  detail::set_warning_sink({});
}

// A flush of many loops' states posts a task per loop faster than the
// writer runs them: the poster waits for room instead of queueing them all
// (10^4 loop names once held 15 MB of queued states at exit).
TEST(BackgroundWriter, TasksWaitingAtOnceAreBounded) {
  BackgroundWriter& writer = BackgroundWriter::instance();
  constexpr int posted = 3000;
  std::atomic<long> waiting{0};
  std::atomic<int> ran{0};
  long most = 0;
  for (int i = 0; i < posted; ++i) {
    waiting.fetch_add(1);
    writer.post_task([&] {
      for (volatile int spin = 0; spin < 20000; spin = spin + 1) {
      }
      waiting.fetch_sub(1);
      ran.fetch_add(1);
    });
    most = std::max(most, waiting.load());
  }
  writer.drain();
  EXPECT_EQ(ran.load(), posted);
  // The queue, and the round the writer took out of it before.
  EXPECT_LE(most, static_cast<long>(2 * BackgroundWriter::task_capacity + 1));
  EXPECT_GT(most, 1);  // the writer did lag: the bound was what held
}

}  // namespace
}  // namespace autosched
