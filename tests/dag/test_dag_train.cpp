// Training the learned policy: a tiny run learns the obviously better
// assignment, a run resumes from its checkpoint, bad options are refused.
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/graph_file.hpp>
#include <autosched/dag/learned/register.hpp>
#include <autosched/dag/learned/model_file.hpp>
#include <autosched/dag/learned/trainer.hpp>
#include <autosched/dag/policy/readys_scheduler.hpp>
#include <autosched/dag/simulator.hpp>

#include <autosched/core/error.hpp>

#include <gtest/gtest.h>

#include <torch/torch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace {

using namespace autosched::dag;
namespace fs = std::filesystem;

class Training : public ::testing::Test {
 protected:
  void SetUp() override {
    torch::set_num_threads(1);
    dir_ = fs::temp_directory_path() / ("autosched-train-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // Two independent tasks on 1cpu+1gpu: A is 10x faster on the GPU, B
    // 10x faster on the CPU. The GPU is asked first; taking A there (and B
    // on the CPU) ends at 1, anything else at 10 or later.
    graph_ = (dir_ / "two.graph").string();
    std::ofstream(graph_) << "# autosched task graph v1\nkernels A B\ntask 0 A\ntask 1 B\n";
    table_ = (dir_ / "two.durations").string();
    std::ofstream(table_) << "A 10 1\nB 1 10\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  learned::TrainingOptions tiny() const {
    learned::TrainingOptions o;
    o.family = graph_;
    o.durations = table_;
    o.platforms = {"1cpu+1gpu"};
    o.sigmas = {0};
    o.min_tiles = o.max_tiles = 2;
    o.validation_tiles = {2};
    o.validation_sigmas = {0};
    o.shape.hidden = 8;
    o.dagger_rounds = 0;  // no teacher: PPO alone must find it
    o.iterations = 30;
    o.episodes_per_iteration = 16;
    o.minibatch = 32;
    o.learning_rate = 1e-2;
    o.entropy = 0.01;
    o.validate_every = 1;
    o.threads = 1;
    o.output = (dir_ / "two.model").string();
    return o;
  }

  double greedy_makespan(const policy::PolicyWeights& w) const {
    const TaskGraph g = load_graph(graph_);
    const Problem pb(g, platform("1cpu+1gpu"), duration_table(table_));
    policy::ReadysScheduler s(std::make_shared<const policy::PolicyWeights>(w));
    return simulate(pb, s).makespan;
  }

  fs::path dir_;
  std::string graph_, table_;
};

TEST_F(Training, PpoAloneLearnsTheObviouslyBetterAssignment) {
  const auto o = tiny();
  const auto r = learned::train(o);
  EXPECT_EQ(greedy_makespan(r.weights), 1.0);
  // The written model is the returned one, bit for bit.
  const auto loaded = learned::load_model(o.output);
  EXPECT_EQ(loaded.weights.values, r.weights.values);
  EXPECT_EQ(greedy_makespan(loaded.weights), 1.0);
}

TEST_F(Training, ImitationOfHeftOnlineLearnsItToo) {
  auto o = tiny();
  o.dagger_rounds = 1;
  o.imitation_episodes = 4;
  o.imitation_epochs = 60;
  o.imitation_learning_rate = 1e-2;
  o.teacher = "heft-online";
  o.iterations = 0;
  const auto r = learned::train(o);
  EXPECT_EQ(greedy_makespan(r.weights), 1.0);
}

TEST_F(Training, TheSameSeedGivesTheSameModel) {
  for (int threads : {1, 2}) {
    auto o = tiny();
    o.dagger_rounds = 1;
    o.imitation_episodes = 4;
    o.imitation_epochs = 3;
    o.teacher = "lookahead";
    o.iterations = 4;
    o.threads = threads;
    o.resume = false;
    const auto a = learned::train(o);
    const auto b = learned::train(o);
    EXPECT_EQ(a.weights.values, b.weights.values) << threads << " threads";
  }
}

TEST_F(Training, ResumesFromItsCheckpoint) {
  auto o = tiny();
  o.iterations = 3;
  const auto first = learned::train(o);
  EXPECT_FALSE(first.resumed);
  EXPECT_EQ(first.ppo_iterations, 3);
  o.iterations = 5;  // an interrupted run, started again with more to do
  const auto second = learned::train(o);
  EXPECT_TRUE(second.resumed);
  EXPECT_EQ(second.ppo_iterations, 5);
  o.resume = false;
  EXPECT_FALSE(learned::train(o).resumed);
}

TEST_F(Training, BadOptionsAreRefusedByName) {
  auto o = tiny();
  o.output.clear();
  EXPECT_THROW(learned::train(o), autosched::Error);
  o = tiny();
  o.teacher = "no-such-scheduler";
  EXPECT_THROW(learned::train(o), autosched::Error);
  o = tiny();
  o.sigmas = {-1};
  try {
    learned::train(o);
    FAIL() << "a negative noise level was accepted";
  } catch (const autosched::Error& e) {
    EXPECT_NE(std::string(e.what()).find("noise"), std::string::npos) << e.what();
  }
}

// The shipped models load in this build (a change of the features without
// retraining them fails here) and keep their documented result: Cholesky
// T = 8 on 2cpu+2gpu without noise at or under 264 (HEFT 276, MCT 274,
// docs/dag-policy.md). Deterministic simulation, no timing.
TEST(ShippedModels, LoadAndKeepTheirResult) {
  for (const char* name : {"cholesky", "lu", "qr", "cholesky-platforms"}) {
    std::string why;
    auto s = learned::make_readys(name, &why);
    EXPECT_EQ(s->name(), "readys") << name << ": " << why;
  }
  auto s = learned::make_readys("cholesky", nullptr);
  const TaskGraph g = factorization("cholesky", 8);
  const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));
  EXPECT_LE(simulate(pb, *s).makespan, 264);
}

// LU and QR were trained at T <= 8; at T = 16 without noise they stay
// within 3% of the better of HEFT and MCT (the transfer goal, docs/RESULTS.md:
// LU 2521 against HEFT's 2515, QR 683 against MCT's 677). Deterministic.
TEST(ShippedModels, LuAndQrTransferToSixteenTiles) {
  for (const char* name : {"lu", "qr"}) {
    const TaskGraph g = factorization(name, 16);
    const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));
    auto heft = make_scheduler("heft");
    auto mct = make_scheduler("mct");
    const double better = std::min(simulate(pb, *heft).makespan, simulate(pb, *mct).makespan);
    auto readys = learned::make_readys(name, nullptr);
    EXPECT_LE(simulate(pb, *readys).makespan, 1.03 * better) << name;
  }
}

}  // namespace
