// autosched::dag_learn: the libtorch module computes what the plain C++
// evaluator computes, under the layout's parameter names; model files
// round-trip bit for bit and refuse damage; readys:<model> falls back to
// mct-prio when its model is refused.
#include <autosched/dag/learned/model_file.hpp>
#include <autosched/dag/learned/register.hpp>
#include <autosched/dag/learned/torch_policy.hpp>

#include <autosched/core/error.hpp>
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/policy/readys_scheduler.hpp>
#include <autosched/dag/simulator.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace autosched::dag;
using learned::TorchPolicy;
using policy::Observation;
using policy::PolicyShape;
using policy::PolicyWeights;

class OneThread : public ::testing::Environment {
 public:
  void SetUp() override { torch::set_num_threads(1); }
};
[[maybe_unused]] const auto* const one_thread = ::testing::AddGlobalTestEnvironment(new OneThread);

/// A hand-made observation: `nodes` rows of features in [-1, 2], the given
/// edges and candidates.
Observation observation(std::size_t nodes, std::vector<std::pair<int, int>> edges, std::vector<int> candidates,
                        std::uint64_t seed) {
  Observation o;
  o.nodes = nodes;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 2.0f);
  for (std::size_t i = 0; i < nodes; ++i) o.task.push_back(static_cast<TaskId>(i));
  for (std::size_t i = 0; i < nodes * policy::feature_count; ++i) o.features.push_back(u(rng));
  for (const auto& [a, b] : edges) {
    o.edge_from.push_back(a);
    o.edge_to.push_back(b);
  }
  for (int c : candidates) o.candidates.push_back(c);
  return o;
}

/// Observations of various sizes: one node, chains, fans in and out, no
/// edges, one candidate, many candidates.
std::vector<Observation> hand_made() {
  std::vector<Observation> obs;
  obs.push_back(observation(1, {}, {0}, 1));
  obs.push_back(observation(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}}, {0, 1}, 2));
  obs.push_back(observation(12,
                            {{0, 3}, {0, 4}, {0, 5}, {1, 4}, {1, 6}, {2, 6}, {2, 7}, {3, 8}, {4, 8}, {5, 8},
                             {6, 9}, {7, 9}, {7, 10}, {8, 11}, {9, 11}, {10, 11}},
                            {0, 1, 2, 3, 5, 6, 7}, 3));
  obs.push_back(observation(3, {}, {0, 1, 2}, 4));
  obs.push_back(observation(8, {{0, 2}, {1, 2}, {2, 3}, {2, 4}, {2, 5}, {5, 6}, {6, 7}}, {1}, 5));
  return obs;
}

std::vector<double> log_softmax(const std::vector<float>& logits) {
  const double top = *std::max_element(logits.begin(), logits.end());
  double total = 0;
  for (float l : logits) total += std::exp(static_cast<double>(l) - top);
  std::vector<double> out;
  for (float l : logits) out.push_back(static_cast<double>(l) - top - std::log(total));
  return out;
}

/// Random weights with random biases too (PolicyWeights::random() starts them at 0).
PolicyWeights weights_with_biases(const PolicyShape& shape, std::uint64_t seed) {
  PolicyWeights w = PolicyWeights::random(shape, seed);
  const auto layout = policy::parameter_layout(shape);
  std::mt19937_64 rng(seed + 1);
  std::uniform_real_distribution<float> u(-0.3f, 0.3f);
  for (std::size_t i = 0; i < layout.size(); ++i) {
    if (layout[i].cols == 1) {
      for (float& v : w.values[i]) v = u(rng);
    }
  }
  return w;
}

bool same_bits(const PolicyWeights& a, const PolicyWeights& b) {
  if (!(a.shape == b.shape) || a.values.size() != b.values.size()) return false;
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    if (a.values[i].size() != b.values[i].size() ||
        std::memcmp(a.values[i].data(), b.values[i].data(), a.values[i].size() * sizeof(float)) != 0)
      return false;
  }
  return true;
}

TEST(TorchPolicy, ParameterNamesAndShapesAreTheLayout) {
  for (const PolicyShape shape : {PolicyShape{}, PolicyShape{policy::feature_count, 8, 0, 1},
                                  PolicyShape{policy::feature_count, 5, 3, 2}}) {
    TorchPolicy net(shape);
    const auto params = net->named_parameters(true);
    const auto layout = policy::parameter_layout(shape);
    ASSERT_EQ(params.size(), layout.size());
    for (std::size_t i = 0; i < layout.size(); ++i) {
      EXPECT_EQ(params[i].key(), layout[i].name);
      const std::vector<std::int64_t> expected = layout[i].cols == 1
                                                     ? std::vector<std::int64_t>{layout[i].rows}
                                                     : std::vector<std::int64_t>{layout[i].rows, layout[i].cols};
      EXPECT_EQ(params[i].value().sizes().vec(), expected) << layout[i].name;
    }
    EXPECT_EQ(net->shape(), shape);
  }
}

TEST(TorchPolicy, LoadWeightsOfToWeightsRoundTrips) {
  const PolicyShape shape{policy::feature_count, 12, 2, 1};
  TorchPolicy a(shape), b(shape);
  const PolicyWeights wa = a->to_weights();
  EXPECT_NO_THROW(wa.check());
  b->load_weights(wa);
  EXPECT_TRUE(same_bits(b->to_weights(), wa));
  const PolicyWeights r = weights_with_biases(shape, 7);
  a->load_weights(r);
  EXPECT_TRUE(same_bits(a->to_weights(), r));

  PolicyWeights other = PolicyWeights::random(PolicyShape{policy::feature_count, 8, 2, 1}, 1);
  try {
    a->load_weights(other);
    FAIL() << "a shape mismatch was accepted";
  } catch (const autosched::Error& e) {
    EXPECT_NE(std::string(e.what()).find("hidden 8"), std::string::npos) << e.what();
  }
  PolicyWeights short_one = r;
  short_one.values[5].pop_back();
  try {
    a->load_weights(short_one);
    FAIL() << "a short parameter was accepted";
  } catch (const autosched::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'" + policy::parameter_layout(shape)[5].name + "'"), std::string::npos)
        << e.what();
  }
}

TEST(TorchPolicy, BatchedForwardEqualsTheEvaluator) {
  const PolicyShape shape{policy::feature_count, 16, 2, 1};
  const PolicyWeights w = weights_with_biases(shape, 11);
  TorchPolicy net(shape);
  net->load_weights(w);
  const std::vector<Observation> obs = hand_made();
  std::vector<const Observation*> pointers;
  for (const auto& o : obs) pointers.push_back(&o);
  const learned::PolicyBatch batch = learned::make_batch(pointers);
  ASSERT_EQ(batch.width, 8);
  torch::NoGradGuard no_grad;
  const learned::PolicyBatchOutput out = net->forward(batch);
  ASSERT_EQ(out.log_probs.sizes().vec(), (std::vector<std::int64_t>{5, 8}));
  ASSERT_EQ(out.value.sizes().vec(), (std::vector<std::int64_t>{5}));
  const auto log_probs = out.log_probs.accessor<float, 2>();
  policy::PolicyEvaluator evaluator(w);
  for (std::size_t b = 0; b < obs.size(); ++b) {
    const policy::PolicyOutput& expected = evaluator.evaluate(obs[b]);
    const std::vector<double> lp = log_softmax(expected.logits);
    const auto row = static_cast<std::int64_t>(b);
    const std::size_t cands = obs[b].candidates.size();
    for (std::size_t j = 0; j < cands; ++j)
      EXPECT_NEAR(log_probs[row][static_cast<std::int64_t>(j)], lp[j], 1e-4) << "observation " << b << " candidate " << j;
    EXPECT_NEAR(log_probs[row][batch.width - 1], lp.back(), 1e-4) << "observation " << b << " pass";
    for (std::int64_t col = static_cast<std::int64_t>(cands); col < batch.width - 1; ++col)
      EXPECT_TRUE(std::isinf(log_probs[row][col]) && log_probs[row][col] < 0) << "padding " << b << "," << col;
    EXPECT_NEAR(out.value[row].item<float>(), expected.value, 1e-4) << "observation " << b;
  }
  // Action columns: candidates in place, pass in the last column.
  const std::vector<std::int32_t> actions = {1, 2, 6, 0, 0};
  const auto columns = batch.action_columns(actions);
  EXPECT_EQ(std::vector<std::int64_t>(columns.data_ptr<std::int64_t>(), columns.data_ptr<std::int64_t>() + 5),
            (std::vector<std::int64_t>{7, 7, 6, 0, 0}));
  const std::vector<std::int32_t> too_far = {2, 0, 0, 0, 0};
  EXPECT_THROW(static_cast<void>(batch.action_columns(too_far)), autosched::Error);
}

TEST(TorchPolicy, GradientsReachEveryParameter) {
  const PolicyShape shape{policy::feature_count, 8, 2, 1};
  torch::manual_seed(3);
  TorchPolicy net(shape);
  const std::vector<Observation> obs = hand_made();
  std::vector<const Observation*> pointers;
  for (const auto& o : obs) pointers.push_back(&o);
  const learned::PolicyBatch batch = learned::make_batch(pointers);
  const std::vector<std::int32_t> actions = {1, 0, 7, 2, 1};  // pass, a candidate, pass, a candidate, pass
  const learned::PolicyBatchOutput out = net->forward(batch);
  const auto taken = out.log_probs.gather(1, batch.action_columns(actions).unsqueeze(1)).squeeze(1);
  const auto loss = -taken.sum() + out.value.pow(2).sum();
  loss.backward();
  for (const auto& p : net->named_parameters(true)) {
    ASSERT_TRUE(p.value().grad().defined()) << p.key();
    EXPECT_TRUE(torch::isfinite(p.value().grad()).all().item<bool>()) << p.key();
    EXPECT_GT(p.value().grad().abs().sum().item<float>(), 0.0f) << p.key();
  }
}

/// A folder of its own per test, removed afterwards.
class ReadysModelFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("autosched_dag_learn_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    model_ = (dir_ / "model.pt").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void write(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  static void replace_in(const std::string& path, const std::string& from, const std::string& to) {
    std::string text = read(path);
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    write(path, text);
  }
  /// The reason load_model() gives for `path`, or "" when it accepts it.
  static std::string refusal(const std::string& path) {
    try {
      static_cast<void>(learned::load_model(path));
    } catch (const autosched::Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("readys model '" + path + "'"), std::string::npos) << message;
      return message;
    }
    return "";
  }
  void save_default() { learned::save_model(model_, weights_, info()); }
  static learned::ModelInfo info() {
    learned::ModelInfo i;
    i.family = "cholesky";
    i.platforms = {"2cpu+2gpu", "4gpu"};
    i.training_command = "autosched dag train --family cholesky \"quoted\" \\ back";
    i.created = "2024-05-01";
    i.notes = "line one\nline two, é";
    i.steps = 1234;
    i.validation_metric = "makespan / mct-prio";
    i.validation_score = 0.9375;
    return i;
  }

  std::filesystem::path dir_;
  std::string model_;
  PolicyShape shape_{policy::feature_count, 16, 2, 1};
  PolicyWeights weights_ = weights_with_biases(shape_, 21);
};

std::vector<ScheduledTask> run_readys(const PolicyWeights& w) {
  const TaskGraph g = cholesky(4);
  const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));
  policy::ReadysScheduler s(std::make_shared<const PolicyWeights>(w));
  return simulate(pb, s).schedule;
}

TEST_F(ReadysModelFile, RoundTripsBitForBitAndDecidesTheSame) {
  save_default();
  ASSERT_TRUE(std::filesystem::exists(model_ + ".json"));
  const learned::LoadedModel loaded = learned::load_model(model_);
  EXPECT_TRUE(same_bits(loaded.weights, weights_));
  const learned::ModelInfo i = info();
  EXPECT_EQ(loaded.info.family, i.family);
  EXPECT_EQ(loaded.info.platforms, i.platforms);
  EXPECT_EQ(loaded.info.training_command, i.training_command);
  EXPECT_EQ(loaded.info.created, i.created);
  EXPECT_EQ(loaded.info.notes, i.notes);
  EXPECT_EQ(loaded.info.steps, i.steps);
  EXPECT_EQ(loaded.info.validation_metric, i.validation_metric);
  EXPECT_EQ(loaded.info.validation_score, i.validation_score);
  EXPECT_EQ(loaded.info.observation_version, policy::observation_version);

  const auto original = run_readys(weights_);
  const auto reloaded = run_readys(loaded.weights);
  ASSERT_EQ(original.size(), reloaded.size());
  ASSERT_FALSE(original.empty());
  for (std::size_t t = 0; t < original.size(); ++t) {
    EXPECT_EQ(original[t].task, reloaded[t].task);
    EXPECT_EQ(original[t].processor, reloaded[t].processor) << "task " << t;
    EXPECT_EQ(original[t].start, reloaded[t].start) << "task " << t;
    EXPECT_EQ(original[t].end, reloaded[t].end) << "task " << t;
  }

  // The archive is a state_dict: parameter names to tensors.
  const std::string bytes = read(model_);
  const auto state = torch::pickle_load(std::vector<char>(bytes.begin(), bytes.end())).toGenericDict();
  TorchPolicy net(shape_);
  ASSERT_EQ(state.size(), net->named_parameters(true).size());
  {
    torch::NoGradGuard no_grad;
    for (auto& p : net->named_parameters(true)) p.value().copy_(state.at(p.key()).toTensor());
  }
  EXPECT_TRUE(same_bits(net->to_weights(), weights_));
  // No temporaries left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), std::filesystem::directory_iterator{}), 2);
}

TEST_F(ReadysModelFile, RefusesMissingFiles) {
  EXPECT_NE(refusal(model_).find("the model file is missing"), std::string::npos);
  save_default();
  std::filesystem::remove(model_ + ".json");
  const std::string why = refusal(model_);
  EXPECT_NE(why.find("sidecar '" + model_ + ".json' is missing"), std::string::npos) << why;
}

TEST_F(ReadysModelFile, RefusesADamagedArchive) {
  save_default();
  const std::string good = read(model_);
  write(model_, good.substr(0, good.size() / 2));
  std::string why = refusal(model_);
  EXPECT_NE(why.find("libtorch cannot read the archive"), std::string::npos) << why;

  // Flip the low bits of one stored weight: still a readable archive of
  // finite floats, so only the checksum tells.
  std::string flipped = good;
  const auto& first = weights_.values[0];
  const std::string pattern(reinterpret_cast<const char*>(first.data()), 4 * sizeof(float));
  const auto at = flipped.find(pattern);
  ASSERT_NE(at, std::string::npos);
  flipped[at] = static_cast<char>(flipped[at] ^ 0x5);
  write(model_, flipped);
  why = refusal(model_);
  EXPECT_NE(why.find("checksum mismatch"), std::string::npos) << why;
}

TEST_F(ReadysModelFile, RefusesASidecarThatDisagreesWithThisBuild) {
  save_default();
  const std::string sidecar = model_ + ".json";
  const std::string good = read(sidecar);
  replace_in(sidecar, "\"ready\"", "\"readiness\"");
  std::string why = refusal(model_);
  EXPECT_NE(why.find("trained with features readiness, running"), std::string::npos) << why;
  EXPECT_NE(why.find("this build has ready, running"), std::string::npos) << why;

  write(sidecar, good);
  replace_in(sidecar, "\"observation_version\": 1", "\"observation_version\": 99");
  why = refusal(model_);
  EXPECT_NE(why.find("trained with observation version 99, this build has version 1"), std::string::npos) << why;

  write(sidecar, good);
  replace_in(sidecar, "\"format_version\": 1", "\"format_version\": 2");
  why = refusal(model_);
  EXPECT_NE(why.find("format version 2"), std::string::npos) << why;

  write(sidecar, good);
  replace_in(sidecar, "autosched readys policy", "something else");
  why = refusal(model_);
  EXPECT_NE(why.find("is not an \"autosched readys policy\" sidecar"), std::string::npos) << why;

  write(sidecar, good.substr(0, good.size() - 10));
  why = refusal(model_);
  EXPECT_NE(why.find("is not valid JSON"), std::string::npos) << why;

  write(sidecar, good);
  replace_in(sidecar, "\"hidden\": 16", "\"hidden\": 8");
  why = refusal(model_);
  EXPECT_NE(why.find("parameter 'input.weight' is 16x26"), std::string::npos) << why;
  EXPECT_NE(why.find("needs 8x26"), std::string::npos) << why;

  write(sidecar, good);
  replace_in(sidecar, "\"layers\": 2", "\"layers\": 3");
  why = refusal(model_);
  EXPECT_NE(why.find("parameter 'layer2.self.weight' is missing"), std::string::npos) << why;

  write(sidecar, good);
  EXPECT_EQ(refusal(model_), "");
}

TEST_F(ReadysModelFile, RefusesNonFiniteWeights) {
  save_default();
  // The same state_dict with one NaN, written as save_model() writes it.
  TorchPolicy net(shape_);
  net->load_weights(weights_);
  c10::Dict<std::string, torch::Tensor> state;
  for (const auto& p : net->named_parameters(true)) state.insert(p.key(), p.value().detach().clone());
  state.at("critic.out.bias").fill_(std::numeric_limits<float>::quiet_NaN());
  const std::vector<char> bytes = torch::pickle_save(c10::IValue(state));
  write(model_, std::string(bytes.begin(), bytes.end()));
  const std::string why = refusal(model_);
  EXPECT_NE(why.find("parameter 'critic.out.bias' holds a non-finite value"), std::string::npos) << why;
  // save_model() never writes such weights.
  PolicyWeights bad = weights_;
  bad.values.back()[0] = std::numeric_limits<float>::infinity();
  EXPECT_THROW(learned::save_model(model_, bad, info()), autosched::Error);
}

TEST_F(ReadysModelFile, ReadysFallsBackToMctPrioWhenTheModelIsRefused) {
  learned::register_learned_schedulers();
  const std::string missing = (dir_ / "missing.pt").string();
  ::testing::internal::CaptureStderr();
  auto fallback = make_scheduler("readys:" + missing);
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(fallback->name(), "mct-prio");
  EXPECT_NE(said.find("autosched: warning: readys model '" + missing +
                      "' refused: the model file is missing; falling back to mct-prio"),
            std::string::npos)
      << said;

  std::string reason;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(learned::make_readys(missing, &reason)->name(), "mct-prio");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(reason, "the model file is missing");

  try {
    static_cast<void>(make_scheduler("readys"));
    FAIL() << "readys without a model was accepted";
  } catch (const autosched::Error& e) {
    EXPECT_NE(std::string(e.what()).find("readys needs a model: readys:<file>"), std::string::npos) << e.what();
  }

  save_default();
  auto readys = make_scheduler("readys:" + model_);
  EXPECT_EQ(readys->name(), "readys");
  EXPECT_EQ(learned::make_readys(model_, &reason)->name(), "readys");
  EXPECT_EQ(reason, "");
}

}  // namespace
