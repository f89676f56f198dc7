// The public Region API: threads and nesting (run under TSan too),
// one decision with several consumers, the lowering helpers,
// persistence through model files and the store with fallbacks,
// misuse, and the C interface.
#include <autosched/core/error.hpp>
#include <autosched/measure/clock.hpp>
#include <autosched/regions/adapt.hpp>
#include <autosched/regions/detail/region_state.hpp>
#include <autosched/regions/region.hpp>
#include <autosched/store/background_writer.hpp>
#include <autosched/store/store.hpp>

#include <gtest/gtest.h>
#include <omp.h>
#include <sqlite3.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using autosched::Feature;
using autosched::Region;
using autosched::RegionOptions;

extern "C" int region_c_api_checks(char* message, int size);

namespace {

/// Warnings raised while this object lives.
struct CapturedWarnings {
  std::vector<std::string> lines;
  autosched::detail::WarningSink previous;
  CapturedWarnings() {
    previous = autosched::detail::set_warning_sink([this](std::string_view w) { lines.emplace_back(w); });
  }
  ~CapturedWarnings() { autosched::detail::set_warning_sink(previous); }
  [[nodiscard]] bool any(const std::string& part) const {
    for (const auto& l : lines)
      if (l.find(part) != std::string::npos) return true;
    return false;
  }
};

/// This process's scratch directory, removed when the process ends (every
/// test runs in a process of its own, and each left one behind).
std::string scratch(const std::string& name) {
  struct Directory {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("autosched-regions-" + std::to_string(getpid()));
    Directory() { std::filesystem::create_directories(path); }
    ~Directory() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Directory dir;
  return (dir.path / name).string();
}

RegionOptions oracle_options(const std::string& model) {
  RegionOptions o;
  o.features = {"x"};
  o.variants = {"v0", "v1", "v2", "v3"};
  o.model = model;
  o.min_train = 16;
  o.persist = false;
  return o;
}

/// One execution with the planted cost: the best variant is x.
int run_oracle(Region& r, int x) {
  auto s = r.begin({double(x)});
  const int v = s.variant();
  s.end(v == x ? 1.0 : 10.0);
  return v;
}

std::int64_t samples_in(Region& r) {
  std::lock_guard lock(r.state().mutex);
  const auto& l = r.state().learner;
  std::int64_t n = 0;
  for (int e = 0; e < l.vectors(); ++e)
    for (int v = 0; v < l.variants(); ++v) n += l.stats(e, v).count();
  return n;
}

/// A clock that moves only when a test moves it.
std::atomic<std::int64_t> scripted_ns{1'000'000'000};
std::int64_t scripted_clock() noexcept { return scripted_ns.load(); }

}  // namespace

TEST(Region, LearnsThePlantedOracleThroughScopes) {
  Region r("oracle", oracle_options("dtree,depth=2,explore_after=0"));
  for (int i = 0; i < 16; ++i) run_oracle(r, i % 4);
  ASSERT_TRUE(r.stats().trained);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(run_oracle(r, i % 4), i % 4);
  EXPECT_EQ(r.stats().explored, 16);
}

TEST(Region, TimesTheScopeWhenNoMetricIsGiven) {
  RegionOptions o;
  o.variants = {"fast", "slow"};
  o.model = "dtree,explore_after=0";
  o.min_train = 2;
  o.persist = false;
  Region r("timed", o);
  // The scope reads the driver's clock; here it shows 1 ms for "fast" and
  // 20 ms for "slow", whatever the machine does meanwhile.
  const autosched::measure::ScopedClock clock(&scripted_clock);
  for (int i = 0; i < 2; ++i) {
    auto s = r.begin({});
    scripted_ns += s.label() == "slow" ? 20'000'000 : 1'000'000;
  }
  ASSERT_TRUE(r.stats().trained);
  EXPECT_EQ(r.predict({}), 0);
}

// The same region from several OpenMP threads at once, and nested in
// itself: every execution is measured once, on its own scope.
TEST(Region, ThreadedAndNestedExecutionsStayConsistent) {
  Region r("nested", oracle_options("dtree,depth=2,explore_after=0"));
  constexpr int per_thread = 300;
  std::atomic<int> executions{0};
  std::atomic<int> wrong_after_training{0};
  auto recurse = [&](auto&& self, int depth, int x) -> void {
    auto s = r.begin({double(x)});
    executions.fetch_add(1, std::memory_order_relaxed);
    const int v = s.variant();
    if (depth > 0) self(self, depth - 1, (x + 1) % 4);
    EXPECT_EQ(s.variant(), v);  // a nested execution does not change this one's decision
    s.end(v == x ? 1.0 : 10.0);
  };
#pragma omp parallel num_threads(4)
  {
    for (int i = 0; i < per_thread; ++i) {
      const int x = (i + omp_get_thread_num()) % 4;
      if (i % 10 == 0) {
        recurse(recurse, 2, x);
      } else {
        const bool trained = r.stats().trained;
        const int v = run_oracle(r, x);
        executions.fetch_add(1, std::memory_order_relaxed);
        if (trained && v != x) wrong_after_training.fetch_add(1);
      }
    }
  }
  const auto st = r.stats();
  EXPECT_EQ(st.executions, executions.load());
  EXPECT_EQ(samples_in(r), executions.load());
  EXPECT_TRUE(st.trained);
  EXPECT_EQ(wrong_after_training.load(), 0);
}

// One adaptation decision feeds two constructs; both see the same
// variant in every execution and one measurement is recorded per execution.
TEST(Region, OneDecisionFeedsSeveralConsumers) {
  RegionOptions o;
  o.features = {"n"};
  o.knobs = {autosched::Knob::labels("device", {"host", "gpu"}), autosched::Knob::integers("threads", {64, 128, 256})};
  o.model = "thompson,seed=2";
  o.persist = false;
  Region r("producer", o);
  int mismatches = 0;
  for (int i = 0; i < 90; ++i) {
    auto s = r.begin({double(i % 3)});
    const std::string device = s.value<std::string>("device");  // consumer 1: where to run
    const int threads = s.value<int>("threads");                // consumer 2: how wide
    const int v = s.variant();
    if (r.variants().value<std::string>(v, "device") != device || r.variants().value<int>(v, "threads") != threads)
      ++mismatches;
    s.end(device == "gpu" && threads == 128 ? 1.0 : 2.0);
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(r.stats().executions, 90);
  EXPECT_EQ(samples_in(r), 90);
}

namespace {
/// A call site with the one-statement macro; returns the variant it ran.
int macro_site(int n, int& consumers_agree) {
  int ran = -1;
  AUTOSCHED_ADAPTATION(s, "macro-site", ({double(n)}),
                       {.features = {"n"},
                        .variants = {"serial", "parallel"},
                        .model = "dtree,explore_after=0",
                        .min_train = 2,
                        .persist = false}) {
    ran = s.variant();                                                           // consumer 1
    consumers_agree += s.label() == (ran == 0 ? "serial" : "parallel") ? 1 : 0;  // consumer 2
    s.end(ran == 1 ? 1.0 : 3.0);
  }
  return ran;
}
}  // namespace

TEST(Region, AdaptationMacroKeepsOneRegionPerCallSite) {
  int agree = 0;
  std::vector<int> ran;
  for (int i = 0; i < 10; ++i) ran.push_back(macro_site(7, agree));
  EXPECT_EQ(agree, 10);
  // Explores both once (min_train = 2), then the region trained and stays on
  // the cheaper one: the site's region persisted across the calls.
  EXPECT_NE(ran[0], ran[1]);
  for (int i = 2; i < 10; ++i) EXPECT_EQ(ran[static_cast<std::size_t>(i)], 1);
}

TEST(Region, AdaptRunsTheChosenCallable) {
  RegionOptions o;
  o.features = {"n"};
  o.variants = {"a", "b", "c"};
  o.model = "round-robin";
  o.persist = false;
  Region r("callables", o);
  std::vector<int> results;
  for (int i = 0; i < 6; ++i) {
    results.push_back(autosched::adapt(
        r, {1.0}, [] { return 10; }, [] { return 20; }, [] { return 30; }));
  }
  EXPECT_EQ(results, (std::vector<int>{10, 20, 30, 10, 20, 30}));
  EXPECT_THROW(autosched::adapt(
                   r, {1.0}, [] {}, [] {}),
               autosched::Error);  // 2 callables, 3 variants
}

TEST(Region, AThrowingVariantReachesTheCallerAndIsNotLearned) {
  Region r("throws", oracle_options("dtree,explore_after=0"));
  EXPECT_THROW(autosched::adapt(
                   r, {0.0}, [] { throw std::runtime_error("boom"); }, [] {}, [] {}, [] {}),
               std::runtime_error);
  EXPECT_EQ(samples_in(r), 0);
  EXPECT_EQ(r.stats().executions, 1);
}

TEST(Region, MisuseIsReportedWithTheRegionsName) {
  Region r("misuse", oracle_options("dtree"));
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const autosched::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] {
              auto s = r.begin({1.0, 2.0});
            }).find("'misuse': begin() got 2 features, it declares 1"),
            std::string::npos);
  EXPECT_NE(
      message([&] { auto s = r.begin({std::nan("")}); }).find("feature 'x' = nan (quantised: not a finite number)"),
      std::string::npos);
  EXPECT_NE(message([&] {
              auto s = r.begin();
              (void)s.variant();
            }).find("after 0 of its 1 features"),
            std::string::npos);
  EXPECT_NE(message([&] {
              auto s = r.begin({1.0});
              (void)s.variant();
              s.set_feature(2);
            }).find("set_feature after the variant was chosen"),
            std::string::npos);
  EXPECT_NE(message([&] { auto s = r.begin({HUGE_VAL}); }).find("feature 'x' = inf"), std::string::npos);
  RegionOptions log_feature = oracle_options("dtree");
  log_feature.features = {Feature::log2("n")};
  Region logs("log-misuse", log_feature);
  EXPECT_NO_THROW({ auto s = logs.begin({0.0}); });  // log2 of 0: the lowest bin, not -inf
  EXPECT_THROW(Region("", oracle_options("dtree")), autosched::Error);
  EXPECT_NE(message([] { Region("static-out", oracle_options("static,variant=9")); }).find("region 'static-out': "),
            std::string::npos);
  RegionOptions repeated_knob = oracle_options("dtree");
  repeated_knob.knobs = {autosched::Knob::labels("k", {"a"}), autosched::Knob::labels("k", {"b"})};
  EXPECT_NE(message([&] { Region("knobs", repeated_knob); }).find("region 'knobs': knob 'k' is declared twice"),
            std::string::npos);
  EXPECT_THROW(Region("bad", oracle_options("dtree,depth=-1")), autosched::Error);
  RegionOptions none;
  none.persist = false;
  EXPECT_THROW(Region("no-variants", none), autosched::Error);
  RegionOptions twice = oracle_options("dtree");
  twice.features = {"x", "x"};
  EXPECT_THROW(Region("twice", twice), autosched::Error);
}

// The environment's model is read once per process; ctest runs each test in
// its own. A value some regions cannot run (a static variant beyond their
// count, in either spelling) is one warning per region, which tunes with
// 'auto'; the same model given in code stays an error (above).
TEST(Region, AnEnvironmentModelTheRegionCannotRunIsAWarning) {
  setenv("AUTOSCHED_REGION_MODEL", "Static,policy=6", 1);
  CapturedWarnings warnings;
  RegionOptions four = oracle_options("");
  four.persist = false;
  std::unique_ptr<Region> r;
  ASSERT_NO_THROW(r = std::make_unique<Region>("env-static-out", four));
  unsetenv("AUTOSCHED_REGION_MODEL");
  if (warnings.lines.empty() && r->model() == "auto") GTEST_SKIP() << "the default was read earlier in this process";
  EXPECT_EQ(r->model(), "auto");
  ASSERT_EQ(warnings.lines.size(), 1u);
  EXPECT_NE(warnings.lines[0].find("AUTOSCHED_REGION_MODEL=Static,policy=6"), std::string::npos) << warnings.lines[0];
  EXPECT_NE(warnings.lines[0].find("'env-static-out'"), std::string::npos) << warnings.lines[0];
  EXPECT_NE(warnings.lines[0].find("uses 'auto'"), std::string::npos) << warnings.lines[0];
  { auto s = r->begin({1.0}); }  // and it runs
  // A region with enough variants runs the environment's model.
  RegionOptions eight = four;
  eight.variants = {"a", "b", "c", "d", "e", "f", "g", "h"};
  Region fits("env-static-fits", eight);
  EXPECT_EQ(fits.model(), "Static,policy=6");
  EXPECT_EQ(warnings.lines.size(), 1u);
}

TEST(Region, TheDecisionCanBeReadAfterTheScopeEnded) {
  Region r("after-end", oracle_options("round-robin"));
  auto s = r.begin({1.0});
  const int v = s.variant();
  s.end(2.0);
  EXPECT_EQ(s.variant(), v);
  EXPECT_EQ(s.label(), "v" + std::to_string(v));
  auto moved = std::move(s);
  EXPECT_EQ(moved.variant(), v);
  EXPECT_EQ(r.stats().executions, 1);
}

TEST(Region, SetFeatureThenDecideLikeTheCInterface) {
  Region r("deferred", oracle_options("dtree,depth=2,explore_after=0"));
  for (int i = 0; i < 16; ++i) {
    auto s = r.begin();
    s.set_feature(double(i % 4));
    const int v = s.variant();
    s.end(v == i % 4 ? 1.0 : 10.0);
  }
  EXPECT_TRUE(r.stats().trained);
  EXPECT_EQ(r.predict({3.0}), 3);
}

// With model files: the second region starts from the first one's
// model and makes the same decisions without exploring.
TEST(RegionPersistence, ModelFileRoundTrip) {
  const std::string path = scratch("oracle.model");
  {
    Region r("shipped", oracle_options("rforest,trees=5,depth=3,explore_after=0"));
    for (int i = 0; i < 16; ++i) run_oracle(r, i % 4);
    ASSERT_TRUE(r.stats().trained);
    r.save_model(path);
  }
  RegionOptions o = oracle_options("rforest,trees=5,depth=3,explore_after=0");
  o.model_file = path;
  Region again("shipped", o);
  EXPECT_TRUE(again.stats().trained);
  EXPECT_TRUE(again.stats().restored);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(run_oracle(again, i % 4), i % 4);
  EXPECT_EQ(again.stats().explored, 0);
}

TEST(RegionPersistence, MismatchedOrDamagedModelFilesFallBackToExploration) {
  const std::string path = scratch("one-feature.model");
  {
    Region r("shape", oracle_options("dtree,explore_after=0"));
    for (int i = 0; i < 16; ++i) run_oracle(r, i % 4);
    r.save_model(path);
  }
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string truncated = scratch("truncated.model");
  std::ofstream(truncated) << text.substr(0, text.size() / 2);
  struct Case {
    std::string name;
    RegionOptions options;
    std::string expect;
  };
  RegionOptions two_features = oracle_options("dtree");
  two_features.features = {"x", "y"};
  RegionOptions other_variants = oracle_options("dtree");
  other_variants.variants = {"v0", "v1", "v2"};
  std::vector<Case> cases = {{"shape", two_features, "features"},
                             {"shape", other_variants, "variants"},
                             {"other-id", oracle_options("dtree"), "is for region 'shape'"}};
  for (auto& c : cases) {
    c.options.model_file = path;
    CapturedWarnings w;
    Region r(c.name, c.options);
    EXPECT_TRUE(w.any(c.expect)) << c.expect;
    EXPECT_FALSE(r.stats().trained);
    EXPECT_FALSE(r.stats().restored);
    auto s = r.begin(std::vector<double>(c.options.features.size(), 0.0));
    EXPECT_TRUE(s.exploring()) << c.expect;
  }
  for (const std::string& bad : {truncated, scratch("missing.model")}) {
    CapturedWarnings w;
    RegionOptions o = oracle_options("dtree");
    o.model_file = bad;
    Region r("shape", o);
    EXPECT_TRUE(w.any("unusable")) << bad;
    auto s = r.begin({0.0});
    EXPECT_TRUE(s.exploring());
  }
}

// With the store: the state is saved at training and destruction; a
// region created later resumes without exploring; a damaged row is a
// warning and exploration.
TEST(RegionPersistence, StoreRoundTripAndDamagedRow) {
  const std::string db = scratch("store.db");
  std::filesystem::remove(db);
  setenv("AUTOSCHED_DB", db.c_str(), 1);
  if (autosched::detail::Store::instance() == nullptr || autosched::detail::Store::instance()->database().path() != db) {
    GTEST_SKIP() << "the store was opened by an earlier test in this process (run this test alone)";
  }
  RegionOptions o = oracle_options("dtree,depth=2,explore_after=0");
  o.persist = true;
  std::vector<int> first;
  {
    Region r("stored", o);
    for (int i = 0; i < 16; ++i) run_oracle(r, i % 4);
    ASSERT_TRUE(r.stats().trained);
    for (int i = 0; i < 8; ++i) first.push_back(run_oracle(r, i % 4));
  }
  autosched::BackgroundWriter::instance().drain();
  {
    Region again("stored", o);
    EXPECT_TRUE(again.stats().trained);
    EXPECT_TRUE(again.stats().restored);
    std::vector<int> second;
    for (int i = 0; i < 8; ++i) second.push_back(run_oracle(again, i % 4));
    EXPECT_EQ(second, first);
    EXPECT_EQ(again.stats().explored, 0);
  }
  autosched::BackgroundWriter::instance().drain();
  sqlite3* handle = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
  sqlite3_busy_timeout(handle, 5000);
  ASSERT_EQ(sqlite3_exec(handle, "UPDATE regions SET state = substr(state, 1, 100)", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(handle);
  CapturedWarnings w;
  Region damaged("stored", o);
  EXPECT_TRUE(w.any("stored state is unusable"));
  auto s = damaged.begin({0.0});
  EXPECT_TRUE(s.exploring());
}

TEST(RegionCInterface, WholeLifecycleAndMisuse) {
  char message[512] = {};
  EXPECT_EQ(region_c_api_checks(message, sizeof message), 0) << message;
}
