// The loop C interface: the checks written in C (test_loop_c_api.c), and
// what only a C++ caller can do to it (a body that throws).
#include <autosched/loops/autosched.h>

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" int loop_c_api_coverage(char* message, int size);
extern "C" int loop_c_api_records(char* message, int size);
extern "C" int loop_c_api_errors(char* message, int size);

namespace {

TEST(LoopCApi, EveryIndexOnceFromC) {
  char message[512] = "";
  EXPECT_EQ(loop_c_api_coverage(message, sizeof message), 0) << message;
}

TEST(LoopCApi, LastInstanceFromC) {
  char message[512] = "";
  EXPECT_EQ(loop_c_api_records(message, sizeof message), 0) << message;
}

TEST(LoopCApi, ErrorsAreStatusesFromC) {
  char message[512] = "";
  EXPECT_EQ(loop_c_api_errors(message, sizeof message), 0) << message;
}

// A C++ body called through the C interface throws: the exception stops at the
// boundary and becomes AUTOSCHED_EBODY with its message; the loop runs again.
TEST(LoopCApi, ThrowingBodyIsAStatus) {
  autosched_loop_options o;
  autosched_loop_options_init(&o);
  o.name = "c-throws";
  o.schedule = "ss";
  o.threads = 2;
  std::atomic<int> chunks{0};
  const autosched_loop_body throwing = [](std::int64_t first, std::int64_t, void* arg) {
    static_cast<std::atomic<int>*>(arg)->fetch_add(1);
    if (first == 17) throw std::runtime_error("index 17 is cursed");
  };
  // Many tiny chunks, so that the other thread cannot run them all while the
  // exception is unwound and the cancellation becomes visible.
  constexpr std::int64_t n = 1'000'000;
  EXPECT_EQ(autosched_parallel_for(0, n, throwing, &chunks, &o), AUTOSCHED_EBODY);
  EXPECT_NE(std::strstr(autosched_last_error(), "index 17 is cursed"), nullptr) << autosched_last_error();
  EXPECT_NE(std::strstr(autosched_last_error(), "c-throws"), nullptr) << autosched_last_error();
  EXPECT_LT(chunks.load(), n);  // no further chunks were handed out

  const autosched_loop_body throws_int = [](std::int64_t, std::int64_t, void*) { throw 42; };
  EXPECT_EQ(autosched_parallel_for(0, 10, throws_int, nullptr, &o), AUTOSCHED_EBODY);

  autosched_loop_instance r;
  ASSERT_EQ(autosched_last_instance("c-throws", &r), AUTOSCHED_OK);
  EXPECT_EQ(r.failed, 1);

  const autosched_loop_body quiet = [](std::int64_t, std::int64_t, void*) {};
  EXPECT_EQ(autosched_parallel_for(0, 1000, quiet, nullptr, &o), AUTOSCHED_OK);
}

// Called by every thread of an OpenMP team, the loop work-shares with it; a
// bad schedule is reported to every thread, none hangs.
TEST(LoopCApi, JoinsTheEnclosingTeam) {
  constexpr std::int64_t n = 100003;
  std::vector<std::atomic<int>> hits(n);
  const autosched_loop_body count = [](std::int64_t first, std::int64_t last, void* arg) {
    auto& h = *static_cast<std::vector<std::atomic<int>>*>(arg);
    for (std::int64_t i = first; i < last; ++i) h[static_cast<std::size_t>(i)].fetch_add(1);
  };
  std::atomic<int> ok{0};
  std::atomic<int> einval{0};
#pragma omp parallel num_threads(3)
  {
    autosched_loop_options o;
    autosched_loop_options_init(&o);
    o.name = "c-joined";
    o.schedule = "fac2";
    if (autosched_parallel_for(0, n, count, &hits, &o) == AUTOSCHED_OK) ok.fetch_add(1);
    o.schedule = "no-such-technique";
    if (autosched_parallel_for(0, n, count, &hits, &o) == AUTOSCHED_EINVAL) einval.fetch_add(1);
  }
  EXPECT_EQ(ok.load(), 3);
  EXPECT_EQ(einval.load(), 3);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[static_cast<std::size_t>(i)].load(), 1) << "index " << i;
  autosched_loop_instance r;
  ASSERT_EQ(autosched_last_instance("c-joined", &r), AUTOSCHED_OK);
  EXPECT_EQ(r.p, 3);
  EXPECT_STREQ(r.technique, "fac2");
}

}  // namespace
