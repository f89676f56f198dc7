// The simulator's decision semantics against the READYS reference test
// vectors (the READYS paper: never-pass policies, READYS-typed
// graphs, sigma = 0), and the validity of every schedule it produces.
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/simulator.hpp>

#include <autosched/core/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace {

using namespace autosched::dag;

double makespan(const TaskGraph& g, const char* plat, const char* scheduler, SimulationOptions o = {}) {
  const Problem pb(g, platform(plat), duration_table("readys"));
  auto s = make_scheduler(scheduler);
  return simulate(pb, *s, o).makespan;
}

SimulationOptions readys_rules() {
  SimulationOptions o;
  o.readys_pass_rules = true;
  return o;
}

struct Vector {
  const char* family;
  const char* platform;
  const char* policy;
  std::vector<int> tiles;
  std::vector<double> expected;
};

TEST(Simulator, ReproducesReadysTestVectors) {
  const std::vector<Vector> vectors = {
      {"cholesky", "2cpu+2gpu", "smallest-id", {4, 6, 8, 10}, {150, 299, 453, 673}},
      {"cholesky", "4cpu", "smallest-id", {4, 6, 8, 10}, {496, 1107, 2321, 4305}},
      {"cholesky", "4gpu", "smallest-id", {4, 6, 8, 10}, {69, 114, 193, 304}},
      {"lu", "2cpu+2gpu", "smallest-id", {4, 6, 8}, {196, 395, 586}},
      {"qr", "2cpu+2gpu", "smallest-id", {4, 6, 8}, {30, 64, 132}},
      {"cholesky", "2cpu+2gpu", "eager", {4, 6, 8, 10}, {150, 299, 377, 738}},
      {"cholesky", "4cpu", "eager", {4, 6, 8, 10}, {496, 1112, 2314, 4324}},
      {"cholesky", "4gpu", "eager", {4, 6, 8, 10}, {69, 111, 178, 279}},
  };
  for (const Vector& v : vectors) {
    for (std::size_t i = 0; i < v.tiles.size(); ++i) {
      const TaskGraph g = factorization(v.family, v.tiles[i], GraphFlavour::readys);
      EXPECT_EQ(makespan(g, v.platform, v.policy, readys_rules()), v.expected[i])
          << v.family << " " << v.platform << " " << v.policy << " T=" << v.tiles[i];
    }
  }
}

TEST(Simulator, NeverPassPoliciesDecideOncePerTask) {
  const TaskGraph g = cholesky(8, GraphFlavour::readys);
  const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));
  auto s = make_scheduler("eager");
  const auto r = simulate(pb, *s, readys_rules());
  EXPECT_EQ(r.decisions, g.size());
  EXPECT_EQ(r.passes, 0u);
}

/// Every task once; after all its predecessors; no overlap on a processor;
/// the makespan is the last end.
void expect_valid(const Problem& pb, const SimulationResult& r, const std::string& what) {
  const TaskGraph& g = *pb.graph;
  ASSERT_EQ(r.schedule.size(), g.size()) << what;
  double last = 0;
  for (std::size_t t = 0; t < g.size(); ++t) {
    const ScheduledTask& s = r.schedule[t];
    ASSERT_EQ(s.task, static_cast<TaskId>(t)) << what;
    ASSERT_GE(s.processor, 0) << what;
    EXPECT_GE(s.end, s.start) << what;
    for (TaskId q : g.predecessors(static_cast<TaskId>(t)))
      EXPECT_LE(r.schedule[static_cast<std::size_t>(q)].end, s.start) << what << " task " << t;
    last = std::max(last, s.end);
  }
  EXPECT_EQ(r.makespan, last) << what;
  for (std::size_t p = 0; p < pb.processors(); ++p) {
    std::vector<std::pair<double, double>> busy;
    for (const ScheduledTask& s : r.schedule)
      if (s.processor == static_cast<int>(p)) busy.emplace_back(s.start, s.end);
    std::sort(busy.begin(), busy.end());
    for (std::size_t i = 1; i < busy.size(); ++i) EXPECT_LE(busy[i - 1].second, busy[i].first) << what << " p" << p;
  }
}

TEST(Simulator, EverySchedulerProducesValidSchedulesUnderNoise) {
  for (const char* family : {"cholesky", "lu", "qr"}) {
    for (const char* plat : {"2cpu+2gpu", "4cpu", "4gpu", "3cpu+1gpu"}) {
      const TaskGraph g = factorization(family, 5);
      const Problem pb(g, platform(plat), duration_table("readys"));
      for (const std::string& name : scheduler_names()) {
        auto s = make_scheduler(name);
        SimulationOptions o;
        o.noise.sigma = 0.3;
        o.seed = 11;
        expect_valid(pb, simulate(pb, *s, o), std::string(family) + " " + plat + " " + name);
      }
    }
  }
}

TEST(Simulator, IsDeterministicPerSeed) {
  const TaskGraph g = lu(6);
  const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));
  for (const std::string& name : scheduler_names()) {
    SimulationOptions o;
    o.noise.sigma = 0.5;
    o.seed = 3;
    auto a = make_scheduler(name), b = make_scheduler(name);
    const double first = simulate(pb, *a, o).makespan;
    EXPECT_EQ(first, simulate(pb, *b, o).makespan) << name;
    EXPECT_EQ(first, simulate(pb, *a, o).makespan) << name << ": a second run of the same object";
    o.seed = 4;
    EXPECT_NE(first, simulate(pb, *b, o).makespan) << name << ": another seed, same makespan";
  }
}

TEST(Simulator, TwoTilesGiveFiniteMakespansEverywhere) {
  for (const char* family : {"cholesky", "lu", "qr"}) {
    for (GraphFlavour f : {GraphFlavour::correct, GraphFlavour::readys}) {
      const TaskGraph g = factorization(family, 2, f);
      for (const char* plat : {"2cpu+2gpu", "4cpu", "4gpu", "1cpu"}) {
        const Problem pb(g, platform(plat), duration_table("readys"));
        for (const std::string& name : scheduler_names()) {
          auto s = make_scheduler(name);
          SimulationOptions o;
          o.noise.sigma = 0.1;
          const double m = simulate(pb, *s, o).makespan;
          EXPECT_TRUE(std::isfinite(m) && m > 0) << family << " " << plat << " " << name;
        }
      }
    }
  }
}

/// Chooses a task that is not ready: the simulator must refuse it by name.
class Cheater final : public Scheduler {
 public:
  std::string name() const override { return "cheater"; }
  void start(const Problem&, std::uint64_t) override {}
  TaskId choose(const SchedulingView& view, std::size_t) override {
    return static_cast<TaskId>(view.state.size() - 1);
  }
};

/// Passes forever: the no-stall rule must still finish the graph.
class Sloth final : public Scheduler {
 public:
  std::string name() const override { return "sloth"; }
  void start(const Problem&, std::uint64_t) override {}
  TaskId choose(const SchedulingView&, std::size_t) override { return pass; }
};

TEST(Simulator, RefusesANonReadyChoiceAndSurvivesAPassingScheduler) {
  const TaskGraph g = cholesky(4);
  const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));
  Cheater cheater;
  try {
    simulate(pb, cheater);
    FAIL();
  } catch (const autosched::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cheater"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not ready"), std::string::npos) << e.what();
  }
  Sloth sloth;
  const auto r = simulate(pb, sloth);
  expect_valid(pb, r, "sloth");
  EXPECT_EQ(r.forced, g.size());
  const auto readys = simulate(pb, sloth, readys_rules());
  expect_valid(pb, readys, "sloth, readys rules");
}

TEST(Simulator, CommunicationDelaysCrossMemoryInputs) {
  const TaskGraph g = cholesky(2);  // a chain of four tasks
  Platform p = platform("1cpu+1gpu");
  p.communication = {.enabled = true, .latency = 5, .bandwidth = 1, .default_edge_bytes = 10};
  const Problem with(g, p, duration_table("readys"));
  const Problem without(g, platform("1cpu+1gpu"), duration_table("readys"));
  auto a = make_scheduler("heft");
  auto b = make_scheduler("heft");
  const double m_with = simulate(with, *a).makespan, m_without = simulate(without, *b).makespan;
  EXPECT_GE(m_with, m_without);
  // Alone on one kind, nothing ever crosses: no difference.
  Platform cpu = platform("2cpu");
  cpu.communication = p.communication;
  auto c = make_scheduler("mct"), d = make_scheduler("mct");
  EXPECT_EQ(simulate(Problem(g, cpu, duration_table("readys")), *c).makespan,
            simulate(Problem(g, platform("2cpu"), duration_table("readys")), *d).makespan);
}

}  // namespace

namespace {

/// Takes the ready task at a position that cycles through the front, the
/// middle and the back, and checks at every decision that the simulator's
/// ready list is the tasks made ready and not yet taken, in arrival order.
class CyclingPicker final : public Scheduler {
 public:
  std::string name() const override { return "cycling"; }
  void start(const Problem&, std::uint64_t) override { shadow_.clear(); }
  void on_ready(const SchedulingView&, std::span<const TaskId> tasks) override {
    shadow_.insert(shadow_.end(), tasks.begin(), tasks.end());
  }
  TaskId choose(const SchedulingView& view, std::size_t) override {
    ++decisions;
    if (!std::equal(view.ready.begin(), view.ready.end(), shadow_.begin(), shadow_.end())) ++mismatches;
    if (shadow_.empty()) return pass;
    const std::size_t n = shadow_.size();
    const std::size_t k = turn_++ % 3;
    const std::size_t at = k == 0 ? 0 : k == 1 ? n / 2 : n - 1;
    const TaskId t = shadow_[at];
    shadow_.erase(shadow_.begin() + static_cast<std::ptrdiff_t>(at));
    return t;
  }
  int decisions = 0, mismatches = 0;

 private:
  std::vector<TaskId> shadow_;
  std::size_t turn_ = 0;
};

}  // namespace

TEST(Simulator, TheReadyListKeepsArrivalOrderWhicheverTaskIsTaken) {
  // LU on 16×16 tiles: up to 225 tasks ready at once, so tasks taken from
  // the front, the middle and the back all exercise the list's two ends.
  const TaskGraph g = lu(16);
  const Problem pb(g, platform("3cpu"), duration_table("readys"));
  CyclingPicker picker;
  const SimulationResult r = simulate(pb, picker, SimulationOptions{});
  EXPECT_EQ(picker.decisions, static_cast<int>(g.size()));
  EXPECT_EQ(picker.mismatches, 0);
  EXPECT_GT(r.makespan, 0);
}
