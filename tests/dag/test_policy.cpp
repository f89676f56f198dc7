// The learned policy's torch-free parts: the observation, the network's
// forward pass (shapes, masking), the readys scheduler, heft-online, the
// simulator's resume-from-a-snapshot, and the lookahead teacher.
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/graph_file.hpp>
#include <autosched/dag/list_schedulers.hpp>
#include <autosched/dag/policy/episodes.hpp>
#include <autosched/dag/policy/readys_scheduler.hpp>
#include <autosched/dag/policy/teachers.hpp>
#include <autosched/dag/simulator.hpp>

#include <autosched/core/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace {

using namespace autosched::dag;
using namespace autosched::dag::policy;

/// Records the observation of every decision of a wrapped scheduler.
class Watcher final : public Scheduler {
 public:
  Watcher(std::unique_ptr<Scheduler> inner, int window) : inner_(std::move(inner)), window_(window) {}
  std::string name() const override { return inner_->name(); }
  void start(const Problem& pb, std::uint64_t seed) override {
    inner_->start(pb, seed);
    builder_ = std::make_unique<ObservationBuilder>(pb, window_);
  }
  TaskId choose(const SchedulingView& view, std::size_t p) override {
    Observation obs;
    builder_->build(view, p, obs);
    check(view, p, obs);
    ++decisions;
    return inner_->choose(view, p);
  }
  void check(const SchedulingView& view, std::size_t p, const Observation& obs) {
    const Problem& pb = *view.problem;
    ASSERT_EQ(obs.features.size(), obs.nodes * feature_count);
    for (float x : obs.features) ASSERT_TRUE(std::isfinite(x));
    for (std::size_t i = 1; i < obs.nodes; ++i) ASSERT_LT(obs.task[i - 1], obs.task[i]);  // ascending ids
    // Candidates: exactly the ready tasks p can run.
    std::vector<TaskId> expected;
    for (TaskId t : view.ready)
      if (pb.runs_on(t, p)) expected.push_back(t);
    std::sort(expected.begin(), expected.end());
    std::vector<TaskId> got;
    for (std::int32_t c : obs.candidates) {
      got.push_back(obs.task[static_cast<std::size_t>(c)]);
      ASSERT_EQ(obs.row(static_cast<std::size_t>(c))[f_ready], 1.0f);
    }
    ASSERT_EQ(got, expected);
    // Every running and ready task is visible; nothing done is.
    std::size_t live = 0;
    for (TaskState s : view.state) live += s == TaskState::ready || s == TaskState::running;
    std::size_t shown_live = 0;
    for (TaskId t : obs.task) {
      const TaskState s = view.state[static_cast<std::size_t>(t)];
      ASSERT_NE(s, TaskState::done);
      shown_live += s != TaskState::waiting;
    }
    ASSERT_EQ(shown_live, live);
    // Edges join visible tasks along the graph's edges.
    for (std::size_t e = 0; e < obs.edge_from.size(); ++e) {
      const TaskId a = obs.task[static_cast<std::size_t>(obs.edge_from[e])];
      const TaskId b = obs.task[static_cast<std::size_t>(obs.edge_to[e])];
      const auto succ = pb.graph->successors(a);
      ASSERT_NE(std::find(succ.begin(), succ.end(), b), succ.end());
    }
    if (window_ == 0) {
      ASSERT_TRUE(obs.edge_from.empty());  // READYS's w = 0: no edges
    }
  }
  int decisions = 0;

 private:
  std::unique_ptr<Scheduler> inner_;
  int window_;
  std::unique_ptr<ObservationBuilder> builder_;
};

TEST(PolicyObservation, WindowCandidatesAndFeaturesOnEveryDecision) {
  for (const char* family : {"cholesky", "lu", "qr"}) {
    for (int tiles : {2, 3, 5}) {  // T = 2 must not give NaN features
      for (const char* plat : {"2cpu+2gpu", "4cpu", "1cpu+3gpu"}) {
        for (int window : {0, 1, 2}) {
          const TaskGraph g = factorization(family, tiles);
          const Problem pb(g, platform(plat), duration_table("readys"));
          Watcher w(make_scheduler("mct-prio"), window);
          SimulationOptions o;
          o.noise.sigma = 0.3;
          simulate(pb, w, o);
          EXPECT_GT(w.decisions, 0) << family << tiles << plat;
        }
      }
    }
  }
}

TEST(PolicyObservation, HandComputedFeaturesOfTheFirstDecision) {
  // Two independent tasks A (cpu 4, gpu 1) and B (cpu 2, no gpu), a 1cpu+1gpu platform.
  const TaskGraph g = parse_graph(
      "# autosched task graph v1\nkernels A B\ntask 0 A\ntask 1 B\n", "two tasks");
  DurationTable table;
  table.kernels = {{"A", {4, 1}}, {"B", {2, not_available}}};
  const Problem pb(g, platform("1cpu+1gpu"), table);
  ObservationBuilder b(pb, 1);
  // The scale: mean over tasks of the mean over usable kinds = ((4+1)/2 + 2)/2 = 2.25.
  EXPECT_DOUBLE_EQ(b.scale(), 2.25);
  const std::vector<TaskId> ready{0, 1};
  const std::vector<TaskId> running{no_task, no_task};
  const std::vector<double> ends{0, 0};
  const std::vector<TaskState> state{TaskState::ready, TaskState::ready};
  const SchedulingView view{&pb, 0, ready, running, ends, state};
  Observation obs;
  b.build(view, 1, obs);  // processor 1 is the CPU (GPUs first)
  ASSERT_EQ(obs.nodes, 2u);
  ASSERT_EQ(obs.candidates, (std::vector<std::int32_t>{0, 1}));
  const float* a = obs.row(0);
  EXPECT_FLOAT_EQ(a[f_cpu_duration], 4 / 2.25f);
  EXPECT_FLOAT_EQ(a[f_gpu_duration], 1 / 2.25f);
  EXPECT_FLOAT_EQ(a[f_acceleration], 0.5f);  // log2(4) / 4
  EXPECT_FLOAT_EQ(a[f_duration_here], 4 / 2.25f);
  EXPECT_FLOAT_EQ(a[f_finish_gain], (1 - 4) / 2.25f);  // the idle GPU finishes it 3 sooner
  EXPECT_FLOAT_EQ(a[f_current_is_gpu], 0);
  EXPECT_FLOAT_EQ(a[f_gpu_wait], 0);  // the GPU is idle
  EXPECT_FLOAT_EQ(a[f_cpu_wait], 8);  // no other CPU
  const float* bb = obs.row(1);
  EXPECT_FLOAT_EQ(bb[f_no_gpu], 1);
  EXPECT_FLOAT_EQ(bb[f_finish_gain], 8);  // nowhere else can run it
  EXPECT_FLOAT_EQ(bb[f_finish_gpu], 8);
  // From the GPU, B is no candidate.
  b.build(view, 0, obs);
  EXPECT_EQ(obs.candidates, (std::vector<std::int32_t>{0}));
}

TEST(PolicyNetwork, OneLogitPerCandidatePlusPassAndFiniteOutputs) {
  const TaskGraph g = cholesky(4);
  const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));
  for (int layers : {0, 1, 3}) {
    PolicyShape shape;
    shape.layers = layers;
    shape.hidden = 16;
    const PolicyWeights w = PolicyWeights::random(shape, 7);
    PolicyEvaluator eval(w);
    // Observations along an eager run.
    struct Probe final : Scheduler {
      PolicyEvaluator* eval;
      std::unique_ptr<ObservationBuilder> b;
      int window;
      std::string name() const override { return "probe"; }
      void start(const Problem& pb, std::uint64_t) override { b = std::make_unique<ObservationBuilder>(pb, window); }
      TaskId choose(const SchedulingView& v, std::size_t p) override {
        Observation obs;
        b->build(v, p, obs);
        if (obs.candidates.empty()) return pass;
        const PolicyOutput& out = eval->evaluate(obs);
        EXPECT_EQ(out.logits.size(), obs.candidates.size() + 1);
        for (float l : out.logits) EXPECT_TRUE(std::isfinite(l));
        EXPECT_TRUE(std::isfinite(out.value));
        return obs.task[static_cast<std::size_t>(obs.candidates.front())];
      }
    } probe;
    probe.eval = &eval;
    probe.window = shape.window;
    simulate(pb, probe);
  }
}

TEST(PolicyNetwork, WeightsOfTheWrongSizeAreRefused) {
  PolicyShape shape;
  PolicyWeights w = PolicyWeights::zeros(shape);
  w.values[3].pop_back();
  EXPECT_THROW(w.check(), autosched::Error);
  PolicyWeights nan = PolicyWeights::zeros(shape);
  nan.values[0][0] = std::nanf("");
  EXPECT_THROW(nan.check(), autosched::Error);
  EXPECT_THROW(PolicyEvaluator{nan}, autosched::Error);
}

TEST(ReadysScheduler, ChoosesOnlyReadyTasksAndIsDeterministic) {
  // The engine throws when a scheduler picks a task that is not ready or
  // cannot run there; random weights, sampling, every family.
  for (const char* family : {"cholesky", "lu", "qr"}) {
    const TaskGraph g = factorization(family, 5);
    const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));
    auto w = std::make_shared<const PolicyWeights>(PolicyWeights::random(PolicyShape{}, 3));
    for (bool sample : {false, true}) {
      ReadysOptions o;
      o.sample = sample;
      ReadysScheduler a(w, o), b(w, o);
      SimulationOptions so;
      so.noise.sigma = 0.3;
      const auto ra = simulate(pb, a, so), rb = simulate(pb, b, so);
      EXPECT_EQ(ra.makespan, rb.makespan) << family;
      EXPECT_GT(a.evaluations(), 0u);
    }
  }
}

TEST(ReadysScheduler, LogsDecisionsWithTeacherLabels) {
  const TaskGraph g = cholesky(4);
  const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));
  auto w = std::make_shared<const PolicyWeights>(PolicyWeights::random(PolicyShape{}, 5));
  std::vector<Decision> log;
  SchedulerTeacher teacher(make_scheduler("heft-online"));
  teacher.start(pb, pb.expected);
  ReadysOptions o;
  o.log = &log;
  o.teacher = &teacher;
  o.follow_teacher = 1;  // act as the teacher: the run is heft-online's
  ReadysScheduler s(w, o);
  const double followed = simulate(pb, s).makespan;
  auto plain = make_scheduler("heft-online");
  EXPECT_EQ(followed, simulate(pb, *plain).makespan);
  ASSERT_FALSE(log.empty());
  for (const Decision& d : log) {
    EXPECT_EQ(d.action, d.label);
    EXPECT_GE(d.label, 0);
    EXPECT_LE(static_cast<std::size_t>(d.label), d.observation.candidates.size());
    EXPECT_LE(d.log_prob, 0.0f);
  }
}

TEST(HeftOnline, TakesTheTopRankedTaskItFinishesWithinTheSlack) {
  // A (cpu 4, gpu 1) on 1cpu+1gpu: the CPU would need 4, the idle GPU 1:
  // 4 > 2 × 1, so the CPU passes and the GPU takes it.
  const TaskGraph g = parse_graph("# autosched task graph v1\nkernels A\ntask 0 A\n", "one task");
  DurationTable table;
  table.kernels = {{"A", {4, 1}}};
  const Problem pb(g, platform("1cpu+1gpu"), table);
  HeftOnline h;
  h.start(pb, 1);
  const std::vector<TaskId> ready{0}, running{no_task, no_task};
  const std::vector<double> ends{0, 0};
  const std::vector<TaskState> state{TaskState::ready};
  EXPECT_EQ(h.choose({&pb, 0, ready, running, ends, state}, 1), pass);
  EXPECT_EQ(h.choose({&pb, 0, ready, running, ends, state}, 0), 0);
  // The GPU busy for 2 more: elsewhere = 2 + 1 = 3, and 4 <= 2 × 3: the CPU takes it.
  const std::vector<TaskId> gpu_busy{5, no_task};
  const std::vector<double> ends_busy{2, 0};
  EXPECT_EQ(h.choose({&pb, 0, ready, gpu_busy, ends_busy, state}, 1), 0);
  EXPECT_THROW(HeftOnline{0.5}, autosched::Error);
}

TEST(SimulateFrom, TheStartSnapshotGivesTheWholeRun) {
  for (const char* name : {"heft-online", "mct-prio", "heteroprio"}) {
    const TaskGraph g = lu(5);
    const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));
    RunSnapshot s;
    s.state.assign(g.size(), TaskState::waiting);
    for (std::size_t t = 0; t < g.size(); ++t)
      if (g.predecessors(static_cast<TaskId>(t)).empty()) s.state[t] = TaskState::ready;
    s.running.assign(pb.processors(), no_task);
    s.end.assign(pb.processors(), 0);
    s.placed_on.assign(g.size(), -1);
    auto a = make_scheduler(name), b = make_scheduler(name);
    SimulationOptions o;
    o.keep_schedule = false;
    EXPECT_EQ(simulate_from(pb, *a, s, pb.expected, o).makespan, simulate(pb, *b, pb.expected, o).makespan) << name;
  }
}

TEST(LookaheadTeacher, NeverWorseThanItsBaseWithoutNoise) {
  // One step of policy improvement over a scheduler that decides from the
  // view alone cannot lose when durations are exact.
  for (const char* family : {"cholesky", "lu", "qr"}) {
    for (int tiles : {3, 4, 6}) {
      for (const char* plat : {"2cpu+2gpu", "3cpu+1gpu"}) {
        const TaskGraph g = factorization(family, tiles);
        const Problem pb(g, platform(plat), duration_table("readys"));
        TeacherScheduler look("lookahead", std::make_unique<LookaheadTeacher>("heft-online"));
        auto base = make_scheduler("heft-online");
        EXPECT_LE(simulate(pb, look).makespan, simulate(pb, *base).makespan) << family << tiles << plat;
      }
    }
  }
}

TEST(LookaheadTeacher, WithSeveralBasesNeverWorseThanTheBestOfThem) {
  // Each answer is worth its best finish over the bases, and the first
  // base's own answer is always among those tried: without noise the run
  // cannot end later than the better base would have ended it.
  for (const char* family : {"cholesky", "lu", "qr"}) {
    for (int tiles : {3, 5, 7}) {
      const TaskGraph g = factorization(family, tiles);
      const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));
      auto look = make_scheduler("lookahead:heft-online+heteroprio");
      auto online = make_scheduler("heft-online");
      auto hp = make_scheduler("heteroprio");
      const double best_base = std::min(simulate(pb, *online).makespan, simulate(pb, *hp).makespan);
      EXPECT_LE(simulate(pb, *look).makespan, best_base + 1e-9) << family << tiles;
    }
  }
}

TEST(LookaheadTeacher, ABadSpellingIsRefusedByName) {
  for (const char* bad : {"lookahead:", "lookahead:heft-online+", "lookahead:+heteroprio", "lookahead:nonsense"}) {
    try {
      static_cast<void>(make_teacher(bad));
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(bad == std::string("lookahead:nonsense") ? "nonsense" : "lookahead:"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
