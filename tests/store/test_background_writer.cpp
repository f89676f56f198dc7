// The background writer: rows posted from many threads all arrive, none
// twice, a full ring makes posters wait instead of dropping, and rows posted
// after shutdown are still written.
#include <autosched/store/background_writer.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
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

 private:
  std::mutex mutex_;
  std::vector<std::vector<std::uint64_t>> seen_;  ///< per posting thread, in order
  int batches_ = 0;
  std::atomic<bool> closed_{false};
};

// One test: the writer is the process's and shutdown() is final.
TEST(BackgroundWriter, LosesNothingFromManyThreadsAndAfterShutdown) {
  constexpr int threads = 4;
  constexpr std::uint64_t per_thread = 20000;  // 80000 rows through a ring of 4096
  CountingSink sink(threads);
  BackgroundWriter& writer = BackgroundWriter::instance();
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
}

}  // namespace
}  // namespace autosched
