// Observers see every worker begin and every closed instance, on the right
// threads and with complete records; detached ones see nothing more.
#include <autosched/drive/cursor.hpp>
#include <autosched/drive/loop.hpp>
#include <autosched/drive/observer.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace autosched::drive {
namespace {

class Counting final : public Observer {
 public:
  std::atomic<int> begins{0};
  std::atomic<int> closed{0};
  std::mutex mutex;
  std::set<int> tids;
  std::vector<std::uint64_t> instances;
  std::vector<std::int64_t> iterations;

  void on_worker_begin(const WorkerBegin& w) noexcept override {
    if (w.loop != "observed") return;
    ++begins;
    std::lock_guard lock(mutex);
    tids.insert(w.tid);
  }
  void on_instance_closed(const ClosedInstance& c) noexcept override {
    if (std::string(c.loop) != "observed") return;
    ++closed;
    std::lock_guard lock(mutex);
    instances.push_back(c.record.instance);
    std::int64_t sum = 0;
    for (const auto& t : c.record.threads) sum += t.iterations;
    iterations.push_back(sum);
  }
};

void run(const char* name, int p, int instances) {
  Loop& l = loop(name);
  const int team = 0;
  std::vector<std::thread> threads;
  for (int tid = 0; tid < p; ++tid) {
    threads.emplace_back([&, tid] {
      for (int k = 0; k < instances; ++k) {
        Instance* inst = l.open_or_attach({&team, static_cast<std::uint64_t>(k)}, {.n = 500, .p = p, .schedule = "gss"});
        Cursor cursor(*inst, tid);
        while (!cursor.next().empty()) {
        }
        (void)cursor.leave();
      }
    });
  }
  for (auto& t : threads) t.join();
}

TEST(Observer, SeesEveryWorkerAndEveryClosedInstance) {
  Counting counting;
  attach(counting);
  run("observed", 3, 4);
  detach(counting);
  EXPECT_EQ(counting.begins.load(), 12);
  EXPECT_EQ(counting.closed.load(), 4);
  EXPECT_EQ(counting.tids, (std::set<int>{0, 1, 2}));
  EXPECT_EQ(counting.instances, (std::vector<std::uint64_t>{0, 1, 2, 3}));
  for (auto n : counting.iterations) EXPECT_EQ(n, 500);
  run("observed", 2, 2);  // detached: nothing more
  EXPECT_EQ(counting.closed.load(), 4);
}

TEST(Observer, AttachingTwiceAttachesOnce) {
  Counting counting;
  attach(counting);
  attach(counting);
  run("observed", 1, 1);
  detach(counting);
  EXPECT_EQ(counting.closed.load(), 1);
}

TEST(Observer, AtMostEight) {
  std::vector<std::unique_ptr<Counting>> many;
  for (int i = 0; i < 8; ++i) {
    many.push_back(std::make_unique<Counting>());
    attach(*many.back());
  }
  Counting ninth;
  EXPECT_THROW(attach(ninth), std::exception);
  for (auto& o : many) detach(*o);
}

}  // namespace
}  // namespace autosched::drive
