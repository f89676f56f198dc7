// What the runtime measures per instance, and how loops are identified.
#include <autosched/loops/loops.hpp>
#include <autosched/techniques/exp_chunk.hpp>

#include "loop_test_support.hpp"
#include "drive/virtual_time.hpp"

#include <gtest/gtest.h>

#include <autosched/core/source_location.hpp>
#include <atomic>
#include <cmath>
#include <cstdlib>

namespace autosched {
namespace {

// Measured times here are virtual (tests/drive/virtual_time.hpp): bodies charge their
// cost, so the checks hold exactly however loaded the machine is.
TEST(Measurement, RecordDescribesTheInstance) {
  const testing::VirtualClock clock;
  const std::string loop = "measure/ss";
  for (std::uint64_t k = 0; k < 3; ++k) {
    testing::VirtualClock::next_instance();
    parallel_for(0, 1000, [](int) { testing::VirtualClock::charge(500); },
                 {.name = loop, .schedule = "ss,chunk=10", .threads = 2});
    const auto r = last_instance(loop);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->loop, loop);
    EXPECT_EQ(r->instance, k);
    EXPECT_EQ(r->technique, "ss");
    EXPECT_EQ(r->chunk, 10);
    EXPECT_FALSE(r->exp_chunk);
    EXPECT_FALSE(r->failed);
    ASSERT_EQ(r->threads.size(), 2u);
    std::int64_t iterations = 0, chunks = 0;
    for (const auto& t : r->threads) {
      iterations += t.iterations;
      chunks += t.chunks;
      EXPECT_GE(t.start_ns, r->start_ns);
      EXPECT_GE(t.finish_ns, t.start_ns);
      EXPECT_FALSE(t.busy_measured());  // ss does not time chunks by default
    }
    EXPECT_EQ(iterations, 1000);
    EXPECT_EQ(chunks, 100);
    // 1000 iterations of 0.5 µs on 2 threads: the busier one ran at least half.
    EXPECT_GE(r->metrics.loop_time_ns, 250e3);
    EXPECT_LE(r->metrics.loop_time_ns, 500e3);
    EXPECT_GE(r->metrics.lib, 0.0);
    EXPECT_LE(r->metrics.lib, 100.0);
  }
}

TEST(Measurement, ChunkTimingFillsBusyTime) {
  const testing::VirtualClock clock;
  parallel_for(0, 400, [](int) { testing::VirtualClock::charge(1000); },
               {.name = "measure/busy", .schedule = "gss", .threads = 2, .timing = Timing::chunks});
  const auto r = last_instance("measure/busy");
  std::int64_t busy = 0;
  for (std::size_t t = 0; t < r->threads.size(); ++t) {
    ASSERT_TRUE(r->threads[t].busy_measured());
    EXPECT_LE(r->busy_share(t), 1.0);
    busy += r->threads[t].busy_ns;
  }
  EXPECT_EQ(busy, 400 * 1000);  // exactly what the bodies charged
}

TEST(Measurement, ExpertChunkIsRecordedAsSuch) {
  parallel_for(0, 10000, [](int) {}, {.name = "measure/expert", .schedule = "ss,chunk=expert", .threads = 2});
  const auto r = last_instance("measure/expert");
  EXPECT_EQ(r->chunk, exp_chunk(10000, 2));  // = 19
  EXPECT_EQ(r->chunk, 19);
  EXPECT_TRUE(r->exp_chunk);
  // expChunk never changes static's blocks unless asked for.
  parallel_for(0, 10000, [](int) {}, {.name = "measure/static", .schedule = "static", .threads = 2});
  EXPECT_EQ(last_instance("measure/static")->threads[0].chunks, 1);
}

TEST(Measurement, UnnamedLoopsAreIdentifiedByCallSite) {
  const auto here = SourceLocation::current();
  parallel_for(
      0, 10, [](int) {}, {.threads = 2}, here);
  const auto there = SourceLocation::current();
  parallel_for(
      0, 20, [](int) {}, {.threads = 2}, there);
  EXPECT_EQ(last_instance(call_site_id(here))->n, 10);
  EXPECT_EQ(last_instance(call_site_id(there))->n, 20);
  EXPECT_NE(call_site_id(here), call_site_id(there));
  EXPECT_FALSE(last_instance("never/ran"));
}

TEST(Measurement, ProfilingFeedsProfileTechniques) {
  const testing::VirtualClock clock;
  const std::string loop = "measure/profiled";
  // Iterations of 0.8 to 1.2 µs: a profile with a spread.
  auto body = [](int i) { testing::VirtualClock::charge(800 + 100 * (i % 5)); };
  parallel_for(0, 2000, body, {.name = loop, .schedule = "profiling", .threads = 2});
  testing::VirtualClock::next_instance();
  parallel_for(0, 2000, body, {.name = loop, .schedule = "fsc", .threads = 2});
  EXPECT_EQ(last_instance(loop)->technique, "fsc");  // no fallback: the profile exists
  parallel_for(0, 2000, [](int) {}, {.name = "measure/unprofiled", .schedule = "fsc", .threads = 2});
  EXPECT_EQ(last_instance("measure/unprofiled")->technique, "mfsc");
}

TEST(Measurement, OptionsProvideTheProfile) {
  parallel_for(0, 2000, [](int) {},
               {.name = "measure/option-profile",
                .schedule = "bold",
                .threads = 2,
                .profile = Profile{.mu_ns = 50, .sigma_ns = 10, .overhead_ns = 30}});
  EXPECT_EQ(last_instance("measure/option-profile")->technique, "bold");
}

// The profile and weights given in code follow the rules of their schedule
// text spellings (mu=, sigma=, h=, weights=): NaN and negatives are errors
// naming the field, raised before any iteration runs.
TEST(Measurement, NonFiniteOrNegativeProfileAndWeightsAreRejected) {
  const double nan = std::nan("");
  const double weights_bad[] = {1.0, -1.0};
  const double weights_nan[] = {nan, 1.0};
  const struct {
    LoopOptions options;
    const char* field;
  } cases[] = {
      {{.name = "measure/bad-profile", .schedule = "bold", .threads = 2,
        .profile = Profile{.mu_ns = nan, .sigma_ns = 10, .overhead_ns = 30}},
       "LoopOptions::profile.mu_ns=nan"},
      {{.name = "measure/bad-profile", .schedule = "bold", .threads = 2,
        .profile = Profile{.mu_ns = 50, .sigma_ns = -1, .overhead_ns = 30}},
       "LoopOptions::profile.sigma_ns=-1"},
      {{.name = "measure/bad-profile", .schedule = "fac", .threads = 2,
        .profile = Profile{.mu_ns = 50, .sigma_ns = 10, .overhead_ns = HUGE_VAL}},
       "LoopOptions::profile.overhead_ns=inf"},
      {{.name = "measure/bad-weights", .schedule = "wf", .threads = 2, .weights = weights_bad},
       "LoopOptions::weights[1]=-1"},
      {{.name = "measure/bad-weights", .schedule = "wf", .threads = 2, .weights = weights_nan},
       "LoopOptions::weights[0]=nan"},
  };
  for (const auto& c : cases) {
    std::atomic<int> calls{0};
    try {
      parallel_for(0, 100, [&](int) { calls.fetch_add(1); }, c.options);
      ADD_FAILURE() << "accepted " << c.field;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(c.field), std::string::npos) << e.what();
    }
    EXPECT_EQ(calls.load(), 0) << c.field;
  }
  const double weights_ok[] = {1.0, 3.0};
  EXPECT_NO_THROW(
      parallel_for(0, 100, [](int) {}, {.name = "measure/good-weights", .schedule = "wf", .threads = 2, .weights = weights_ok}));
}

TEST(Measurement, BadOptionsAreRejectedWithTheirName) {
  try {
    parallel_for(0, 10, [](int) {}, {.name = "measure/bad", .threads = -2});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("LoopOptions::threads=-2"), std::string::npos) << e.what();
  }
  try {
    parallel_for(0, 10, [](int) {}, {.name = "measure/bad", .schedule = "gss,chunk=0"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("LoopOptions::schedule=gss,chunk=0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace autosched
