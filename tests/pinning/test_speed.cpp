// Speed sources: heartbeats, PAPI, the per-thread CPU clock, schedstat, the report.
#include <autosched/core/components.hpp>
#include <autosched/pinning/affinity.hpp>
#include <autosched/pinning/speed.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

namespace p = autosched::pinning;

void spin_a_little() {
  volatile double x = 1;
  for (int i = 0; i < 3000000; ++i) x = x * 1.0000001 + 1e-9;
}

TEST(Speed, HeartbeatsCount) {
  p::Heartbeat h;
  h.beat();
  h.beat(4);
  EXPECT_EQ(h.count(), 5u);
}

TEST(Speed, RateMeterNeedsABaseline) {
  p::RateMeter r;
  EXPECT_FALSE(r.update(10, 0.5).has_value());
  EXPECT_DOUBLE_EQ(r.update(30, 0.5).value(), 40.0);  // 20 in 0.5 s
  EXPECT_FALSE(r.update(40, 0).has_value());          // no time passed
  EXPECT_FALSE(r.update(5, 1).has_value());           // went backwards (a counter reset)
  EXPECT_DOUBLE_EQ(r.update(7, 1).value(), 2.0);
}

TEST(Speed, CpuClockAndSchedstatAdvanceWithWork) {
  const auto before = p::thread_cpu_ns(pthread_self());
  ASSERT_TRUE(before.has_value());
  const auto stat_before = p::read_schedstat(0, p::current_tid());
  spin_a_little();
  EXPECT_GT(p::thread_cpu_ns(pthread_self()).value(), *before);
  if (!stat_before) GTEST_SKIP() << "this kernel has no /proc/<pid>/task/<tid>/schedstat";
  // schedstat's run time is brought up to date at scheduler ticks and
  // switches, not on every read: spin until it moves, bounded by CPU work.
  auto stat_after = p::read_schedstat(0, p::current_tid());
  for (int i = 0; i < 200 && stat_after && stat_after->run_ns == stat_before->run_ns; ++i) {
    spin_a_little();
    stat_after = p::read_schedstat(0, p::current_tid());
  }
  ASSERT_TRUE(stat_after.has_value());
  EXPECT_GT(stat_after->run_ns, stat_before->run_ns);
  EXPECT_FALSE(p::read_schedstat(0, 0x3ffffff).has_value());
}

TEST(Speed, ReportSaysWhichSourceAndWhy) {
  EXPECT_EQ(p::speed_source(true).source, p::SpeedSource::heartbeat);
  const auto r = p::speed_source(false);
  const p::PapiStatus& papi = p::papi_status();
  EXPECT_EQ(r.source, papi.usable ? p::SpeedSource::papi : p::SpeedSource::cpu_time);
  EXPECT_NE(r.why.find("PAPI " + papi.detail), std::string::npos) << r.why;
  if (!papi.usable) {
    EXPECT_NE(r.why.find("per-thread CPU clock works"), std::string::npos) << r.why;
  }
  EXPECT_STREQ(p::to_string(p::SpeedSource::cpu_time), "cpu-time");
  EXPECT_STREQ(p::to_string(p::SpeedSource::papi), "papi");
}

// AUTOSCHED_HAVE_PAPI is given to this test as to the library (CMakeLists.txt).
TEST(Speed, PapiStatusMatchesTheBuild) {
  const p::PapiStatus& s = p::papi_status();
#if AUTOSCHED_HAVE_PAPI
  EXPECT_TRUE(s.built);
  ASSERT_EQ(s.detail.rfind("built (PAPI ", 0), 0u) << s.detail;
  const std::string says = s.usable ? "usable: PAPI_TOT_INS" : "no usable hardware counters: ";
  const auto at = s.detail.find(says);
  ASSERT_NE(at, std::string::npos) << s.detail;
  EXPECT_GT(s.detail.size(), at + says.size()) << "no reason given: " << s.detail;
#else
  EXPECT_FALSE(s.built);
  EXPECT_FALSE(s.usable);
  EXPECT_EQ(s.detail.rfind("not built", 0), 0u) << s.detail;
#endif
  // A kernel that refuses perf_event_open (no PMU) cannot count with PAPI.
  if (!autosched::hardware_counters_available()) {
    EXPECT_FALSE(s.usable) << s.detail;
  }
  EXPECT_EQ(&p::papi_status(), &s);  // probed once
}

TEST(Speed, InstructionCounterAgreesWithThePapiStatus) {
  p::InstructionCounter counter(p::current_tid());
  EXPECT_EQ(counter.ok(), p::papi_status().usable) << counter.error();
  if (!counter.ok()) {
    EXPECT_FALSE(counter.error().empty());
    EXPECT_FALSE(counter.read().has_value());
    return;
  }
  const auto before = counter.read();
  spin_a_little();
  const auto after = counter.read();
  ASSERT_TRUE(before && after);
  EXPECT_GT(*after, *before);
}

}  // namespace
