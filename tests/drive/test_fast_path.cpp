// The per-instance fast path of pull mode: teammates enter through the
// loop's slots without its lock, fall back to the locked list when the slots
// run out, and wait correctly when the opening fails; a re-armed static
// instance follows every change of n and schedule; an observer that does not
// override a hook is not called for it again.
#include <autosched/drive/cursor.hpp>
#include <autosched/drive/loop.hpp>
#include <autosched/drive/observer.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace autosched::drive {
namespace {

/// One pulled instance on the calling thread as worker `tid`; adds the
/// indices it ran to `hits`.
void pull(Loop& l, const void* team, std::uint64_t k, const OpenRequest& request, int tid,
          std::atomic<int>* hits) {
  Instance* inst = l.open_or_attach({team, k}, request);
  Cursor cursor(*inst, tid);
  for (IndexRange c; !(c = cursor.next()).empty();) {
    for (std::int64_t i = c.begin; i < c.end; ++i) hits[i - request.begin].fetch_add(1);
  }
  EXPECT_EQ(cursor.leave(), nullptr);
}

TEST(FastPath, AReusedStaticInstanceFollowsEveryChangeOfNAndSchedule) {
  Loop& l = loop("fast/static");
  struct Step {
    std::int64_t n;
    const char* schedule;
    const char* technique;
    std::int64_t chunk;
  };
  const std::vector<Step> steps = {{1000, "static", "static", 0},   {1000, "static", "static", 0},
                                   {999, "static", "static", 0},    {999, "static,chunk=7", "static", 7},
                                   {999, "static", "static", 0},    {5, "static", "static", 0},
                                   {1000, "ss,chunk=3", "ss", 3},   {1000, "static", "static", 0}};
  const int p = 3;
  const int team = 0;
  for (std::uint64_t k = 0; k < steps.size(); ++k) {
    const Step& s = steps[k];
    auto hits = std::make_unique<std::atomic<int>[]>(static_cast<std::size_t>(s.n));
    std::vector<std::thread> threads;
    for (int tid = 0; tid < p; ++tid) {
      threads.emplace_back([&, tid] { pull(l, &team, k, {.n = s.n, .p = p, .schedule = s.schedule}, tid, hits.get()); });
    }
    for (auto& t : threads) t.join();
    for (std::int64_t i = 0; i < s.n; ++i) ASSERT_EQ(hits[i].load(), 1) << "step " << k << ", index " << i;
    const auto r = l.last();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->instance, k);
    EXPECT_EQ(r->n, s.n);
    EXPECT_EQ(r->technique, s.technique) << "step " << k;
    EXPECT_EQ(r->chunk, s.chunk) << "step " << k;
    for (const auto& t : r->threads) {
      EXPECT_GE(t.start_ns, r->start_ns);
      EXPECT_GE(t.finish_ns, t.start_ns);
    }
  }
}

TEST(FastPath, ThreadsFarApartEnterThroughTheListWhenTheSlotsRunOut) {
  // Thread 0 runs ten instances before thread 1 enters any (nowait loops):
  // ten instances wait for their second thread, more than the slots hold.
  Loop& l = loop("fast/far-apart");
  const int team = 0;
  const int instances = 10;
  const std::int64_t n = 500;
  std::vector<std::unique_ptr<std::atomic<int>[]>> hits;
  for (int k = 0; k < instances; ++k) hits.push_back(std::make_unique<std::atomic<int>[]>(n));
  for (int tid = 0; tid < 2; ++tid) {
    std::thread worker([&, tid] {
      for (int k = 0; k < instances; ++k) {
        pull(l, &team, static_cast<std::uint64_t>(k), {.n = n, .p = 2, .schedule = "gss"}, tid, hits[k].get());
      }
    });
    worker.join();
  }
  for (int k = 0; k < instances; ++k) {
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[k][i].load(), 1) << "instance " << k << ", index " << i;
  }
  EXPECT_EQ(l.last()->instance, static_cast<std::uint64_t>(instances - 1));
}

TEST(FastPath, ManyTeamsEnterOneLoopAtOnce) {
  Loop& l = loop("fast/teams");
  const int teams = 6, p = 2, instances = 20;
  const std::int64_t n = 300;
  std::vector<int> tags(teams);
  std::vector<std::unique_ptr<std::atomic<int>[]>> hits;
  for (int t = 0; t < teams * instances; ++t) hits.push_back(std::make_unique<std::atomic<int>[]>(n));
  std::vector<std::thread> threads;
  for (int team = 0; team < teams; ++team) {
    for (int tid = 0; tid < p; ++tid) {
      threads.emplace_back([&, team, tid] {
        for (int k = 0; k < instances; ++k) {
          const char* schedule = k % 3 == 0 ? "static" : k % 3 == 1 ? "ss" : "static-steal";
          pull(l, &tags[team], static_cast<std::uint64_t>(k), {.n = n, .p = p, .schedule = schedule}, tid,
               hits[team * instances + k].get());
        }
      });
    }
  }
  for (auto& t : threads) t.join();
  for (std::size_t h = 0; h < hits.size(); ++h) {
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[h][i].load(), 1) << "instance " << h << ", index " << i;
  }
  // One instance per team and ticket: the next one is number teams · instances.
  std::atomic<int> one[1] = {};
  pull(l, &l, 0, {.n = 1, .p = 1, .schedule = "static"}, 0, one);
  EXPECT_EQ(l.last()->instance, static_cast<std::uint64_t>(teams * instances));
}

TEST(FastPath, EveryThreadOfATeamFailsOnABadScheduleAndTheLoopGoesOn) {
  Loop& l = loop("fast/bad-then-good");
  const int team = 0;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int tid = 0; tid < 2; ++tid) {
    threads.emplace_back([&] {
      try {
        (void)l.open_or_attach({&team, 0}, {.n = 10, .p = 2, .schedule = "nonsense"});
      } catch (const std::exception&) {
        ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 2);
  auto hits = std::make_unique<std::atomic<int>[]>(100);
  threads.clear();
  for (int tid = 0; tid < 2; ++tid) {
    threads.emplace_back([&, tid] { pull(l, &team, 1, {.n = 100, .p = 2, .schedule = "static"}, tid, hits.get()); });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < 100; ++i) ASSERT_EQ(hits[i].load(), 1) << i;
  EXPECT_EQ(l.last()->instance, 0u);  // the failed opening took no instance number
}

class ClosedOnly final : public Observer {
 public:
  std::atomic<int> closed{0};
  void on_instance_closed(const ClosedInstance& c) noexcept override {
    if (std::string(c.loop) == "fast/closed-only") ++closed;
  }
};

TEST(FastPath, AHookAnObserverDoesNotOverrideIsNotCalledAgain) {
  ClosedOnly observer;
  attach(observer);
  Loop& l = loop("fast/closed-only");
  const int team = 0;
  auto hits = std::make_unique<std::atomic<int>[]>(50);
  for (std::uint64_t k = 0; k < 3; ++k) {
    for (int i = 0; i < 50; ++i) hits[i] = 0;
    pull(l, &team, k, {.n = 50, .p = 1, .schedule = "static"}, 0, hits.get());
  }
  EXPECT_EQ(observer.closed.load(), 3);
  EXPECT_FALSE(detail::worker_begin_observed());  // its empty on_worker_begin ran once
  detach(observer);
}

}  // namespace
}  // namespace autosched::drive
