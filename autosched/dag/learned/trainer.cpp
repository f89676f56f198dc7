#include <autosched/dag/learned/trainer.hpp>

#include <autosched/dag/learned/model_file.hpp>
#include <autosched/dag/learned/torch_policy.hpp>

#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/graph_file.hpp>
#include <autosched/dag/policy/readys_scheduler.hpp>
#include <autosched/dag/policy/episodes.hpp>
#include <autosched/dag/policy/teachers.hpp>
#include <autosched/dag/simulator.hpp>

#include <autosched/core/error.hpp>

#include <torch/torch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <sstream>
#include <thread>

namespace autosched::dag::learned {

namespace {

namespace fs = std::filesystem;
using policy::Decision;
using policy::PolicyWeights;

using policy::Acting;
using policy::Environments;
using policy::Episode;
using policy::EpisodeSpec;

/// The validation set: greedy episodes at fixed points and seeds.
std::vector<EpisodeSpec> validation_specs(const TrainingOptions& o) {
  std::vector<EpisodeSpec> specs;
  for (std::size_t p = 0; p < o.platforms.size(); ++p)
    for (int tiles : o.validation_tiles)
      for (double sigma : o.validation_sigmas) {
        const int samples = sigma == 0 ? 1 : o.validation_samples;
        for (int s = 0; s < samples; ++s)
          specs.push_back({tiles, p, sigma, 1'000'003ULL + static_cast<std::uint64_t>(s)});
      }
  return specs;
}

std::vector<const policy::Observation*> observations_of(const std::vector<const Decision*>& ds) {
  std::vector<const policy::Observation*> obs;
  obs.reserve(ds.size());
  for (const Decision* d : ds) obs.push_back(&d->observation);
  return obs;
}

/// Checkpoint: the module, the optimiser, and where training was.
struct CheckpointState {
  std::string phase = "start";  ///< "imitation-done" or "ppo"
  int iteration = 0;
  double best = 0, teacher = 0, imitation = 0;
};

void write_state(const fs::path& dir, const CheckpointState& s) {
  const fs::path tmp = dir / "state.txt.tmp";
  {
    std::ofstream f(tmp);
    f << s.phase << ' ' << s.iteration << ' ' << s.best << ' ' << s.teacher << ' ' << s.imitation << '\n';
    if (!f) autosched::detail::throw_error("cannot write checkpoint " + tmp.string());
  }
  fs::rename(tmp, dir / "state.txt");
}

bool read_state(const fs::path& dir, CheckpointState& s) {
  std::ifstream f(dir / "state.txt");
  if (!f) return false;
  CheckpointState r;
  if (!(f >> r.phase >> r.iteration >> r.best >> r.teacher >> r.imitation)) return false;
  s = r;
  return true;
}

void validate_options(const TrainingOptions& o) {
  auto bad = [](const std::string& what) { autosched::detail::throw_error("dag train: " + what); };
  if (o.output.empty()) bad("--output (the model file to write) is required");
  if (o.min_tiles < 2 || o.max_tiles < o.min_tiles)
    bad("tiles " + std::to_string(o.min_tiles) + ".." + std::to_string(o.max_tiles) + ": need 2 <= min <= max");
  if (o.platforms.empty()) bad("no platform");
  if (o.sigmas.empty()) bad("no noise level");
  for (double s : o.sigmas)
    if (!(s >= 0 && s < 5)) bad("noise " + std::to_string(s) + " outside [0, 5)");
  if (o.iterations < 0 || o.episodes_per_iteration < 1 || o.ppo_epochs < 1 || o.minibatch < 1)
    bad("iterations, episodes per iteration, epochs and minibatch must be positive");
  if (o.dagger_rounds < 0 || o.imitation_episodes < 1 || o.imitation_epochs < 0) bad("bad imitation settings");
  if (o.threads < 1) bad("threads must be >= 1");
  if (!(o.learning_rate > 0) || !(o.imitation_learning_rate > 0)) bad("learning rates must be > 0");
  if (o.validate_every < 1) bad("--validate-every must be >= 1");
}

}  // namespace

TrainingResult train(const TrainingOptions& o, const std::function<void(const TrainingProgress&)>& progress) {
  validate_options(o);
  const auto started = std::chrono::steady_clock::now();
  torch::manual_seed(o.seed);
  torch::set_num_threads(o.threads);
  Environments envs(o.family, o.platforms, o.durations);
  static_cast<void>(policy::make_teacher(o.teacher));  // rejects an unknown teacher now
  std::mt19937_64 rng(o.seed);
  const fs::path ckpt = o.checkpoint_dir.empty() ? fs::path(o.output + ".checkpoint") : fs::path(o.checkpoint_dir);
  fs::create_directories(ckpt);

  TorchPolicy net(o.shape);
  auto make_optimizer = [&] {
    return std::make_unique<torch::optim::Adam>(net->parameters(), torch::optim::AdamOptions(o.imitation_learning_rate));
  };
  auto optimizer = make_optimizer();
  CheckpointState state;
  TrainingResult result;
  PolicyWeights best = net->to_weights();
  auto report = [&](TrainingProgress p) {
    p.best_validation = state.best;
    if (progress) progress(p);
  };

  // Resume where a previous run stopped.
  if (o.resume && read_state(ckpt, state)) {
    try {
      // The module through a model file: libtorch cannot read back a saved
      // module whose submodules are named like Python keywords ("pass").
      net->load_weights(load_model((ckpt / "current.model").string()).weights);
      torch::load(*optimizer, (ckpt / "optimizer.pt").string());
      best = load_model((ckpt / "best.model").string()).weights;
      if (!(best.shape == o.shape)) autosched::detail::throw_error("the checkpoint's network has another shape");
      result.resumed = true;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "autosched: checkpoint %s not used (%s); training from the start\n", ckpt.string().c_str(),
                   e.what());
      state = {};
      net = TorchPolicy(o.shape);
      optimizer = make_optimizer();
    }
  }
  const auto val_specs = validation_specs(o);
  auto validate = [&](const PolicyWeights& w) {
    return policy::score(policy::run_episodes(envs, val_specs, std::make_shared<const PolicyWeights>(w), Acting::greedy, false, "", 0,
                              o.threads));
  };
  auto save_checkpoint = [&] {
    ModelInfo info;
    info.family = o.family;
    info.platforms = o.platforms;
    info.training_command = o.command_line;
    save_model((ckpt / "current.model").string(), net->to_weights(), info);
    torch::save(*optimizer, (ckpt / "optimizer.pt").string());
    save_model((ckpt / "best.model").string(), best, info);
    write_state(ckpt, state);
  };

  auto draw = [&](int tiles_lo, int tiles_hi, std::uint64_t seed_base, int count) {
    std::vector<EpisodeSpec> specs;
    std::uniform_int_distribution<int> tiles(tiles_lo, tiles_hi);
    std::uniform_int_distribution<std::size_t> plat(0, envs.platform_count() - 1);
    std::uniform_int_distribution<std::size_t> sig(0, o.sigmas.size() - 1);
    for (int i = 0; i < count; ++i)
      specs.push_back({tiles(rng), plat(rng), o.sigmas[sig(rng)], seed_base + static_cast<std::uint64_t>(i)});
    return specs;
  };

  // ---- Imitation warm start (DAgger). ----
  if (state.phase == "start") {
    {
      // The teacher's own score, for the record.
      std::vector<Episode> eps;
      policy::TeacherScheduler ts(o.teacher, policy::make_teacher(o.teacher));
      for (const auto& e : val_specs) {
        const Problem& pb = envs.problem(e.tiles, e.platform);
        Episode ep;
        ep.spec = e;
        std::tie(ep.heft, ep.mct) = envs.references(e);
        SimulationOptions so;
        so.noise.sigma = e.sigma;
        so.seed = e.seed;
        so.keep_schedule = false;
        ep.makespan = simulate(pb, ts, so).makespan;
        eps.push_back(std::move(ep));
      }
      state.teacher = policy::score(eps);
    }
    std::vector<Decision> data;
    std::vector<double> targets;  // value target per decision
    for (int round = 0; round < o.dagger_rounds; ++round) {
      const double follow = round == 0 ? 1.0 : 0.0;
      auto specs = draw(o.min_tiles, o.max_tiles, 10'000ULL * static_cast<std::uint64_t>(round + 1), o.imitation_episodes);
      auto eps = policy::run_episodes(envs, specs, std::make_shared<const PolicyWeights>(net->to_weights()),
                              round == 0 ? Acting::greedy : Acting::sample, true, o.teacher, follow, o.threads);
      for (auto& ep : eps) {
        for (std::size_t k = 0; k < ep.decisions.size(); ++k) targets.push_back(policy::time_left(ep, k));
        for (auto& d : ep.decisions) data.push_back(std::move(d));
      }
      // Train on everything gathered so far.
      std::vector<std::size_t> order(data.size());
      std::iota(order.begin(), order.end(), 0);
      for (int epoch = 0; epoch < o.imitation_epochs; ++epoch) {
        std::shuffle(order.begin(), order.end(), rng);
        double loss_sum = 0, hits = 0;
        std::size_t batches = 0;
        for (std::size_t at = 0; at < order.size(); at += static_cast<std::size_t>(o.minibatch)) {
          const std::size_t end = std::min(order.size(), at + static_cast<std::size_t>(o.minibatch));
          std::vector<const Decision*> ds;
          std::vector<std::int32_t> labels;
          std::vector<float> value_targets;
          for (std::size_t i = at; i < end; ++i) {
            ds.push_back(&data[order[i]]);
            labels.push_back(data[order[i]].label);
            value_targets.push_back(static_cast<float>(targets[order[i]]));
          }
          const auto obs = observations_of(ds);
          const PolicyBatch batch = make_batch(obs);
          const PolicyBatchOutput out = net->forward(batch);
          const auto cols = batch.action_columns(labels);
          const auto picked = out.log_probs.gather(1, cols.unsqueeze(1)).squeeze(1);
          const auto value_loss = torch::mse_loss(out.value, torch::tensor(value_targets));
          const auto loss = -picked.mean() + o.value_coefficient * value_loss;
          optimizer->zero_grad();  // READYS's release never does this
          loss.backward();
          torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
          optimizer->step();
          loss_sum += loss.item<double>();
          hits += (out.log_probs.argmax(1) == cols).sum().item<double>();
          ++batches;
        }
        TrainingProgress p;
        p.phase = "imitation";
        p.step = round * o.imitation_epochs + epoch + 1;
        p.steps = o.dagger_rounds * o.imitation_epochs;
        p.loss = batches ? loss_sum / static_cast<double>(batches) : 0;
        p.accuracy = data.empty() ? 0 : hits / static_cast<double>(data.size());
        report(p);
      }
    }
    best = net->to_weights();
    state.imitation = validate(best);
    state.best = state.imitation;
    state.phase = "imitation-done";
    state.iteration = 0;
    // PPO starts from its own, smaller learning rate.
    for (auto& group : optimizer->param_groups())
      static_cast<torch::optim::AdamOptions&>(group.options()).lr(o.learning_rate);
    save_checkpoint();
    TrainingProgress p;
    p.phase = "imitation";
    p.step = p.steps = std::max(1, o.dagger_rounds * o.imitation_epochs);
    p.validation = state.imitation;
    report(p);
  }

  // ---- PPO. ----
  double running_ratio = 0;
  for (int it = state.iteration; it < o.iterations; ++it) {
    // Curriculum: the largest tile count grows from min to max over the
    // first half of the iterations.
    const double reach = o.iterations > 1 ? std::min(1.0, 2.0 * it / (o.iterations - 1)) : 1.0;
    const int hi = o.min_tiles + static_cast<int>(std::lround(reach * (o.max_tiles - o.min_tiles)));
    auto specs = draw(o.min_tiles, hi, 1'000'000ULL + 1'000ULL * static_cast<std::uint64_t>(it), o.episodes_per_iteration);
    auto eps = policy::run_episodes(envs, specs, std::make_shared<const PolicyWeights>(net->to_weights()), Acting::sample, true,
                            "", 0, o.threads);
    // Advantages: GAE(λ) with γ = 1 on the per-event shaped rewards.
    std::vector<const Decision*> ds;
    std::vector<float> advantages, returns, old_log_probs;
    std::vector<std::int32_t> actions;
    double ratio_sum = 0;
    for (const auto& ep : eps) {
      ratio_sum += ep.makespan / ep.heft;
      const std::size_t n = ep.decisions.size();
      std::vector<double> adv(n);
      double next_adv = 0, next_value = 0, next_now = ep.makespan;
      for (std::size_t k = n; k-- > 0;) {
        const Decision& d = ep.decisions[k];
        const double reward = -(next_now - d.now) / ep.heft;
        const double delta = reward + next_value - d.value;
        adv[k] = delta + o.gae_lambda * next_adv;
        next_adv = adv[k];
        next_value = d.value;
        next_now = d.now;
      }
      for (std::size_t k = 0; k < n; ++k) {
        ds.push_back(&ep.decisions[k]);
        advantages.push_back(static_cast<float>(adv[k]));
        returns.push_back(static_cast<float>(adv[k] + ep.decisions[k].value));
        old_log_probs.push_back(ep.decisions[k].log_prob);
        actions.push_back(ep.decisions[k].action);
      }
    }
    running_ratio = ratio_sum / static_cast<double>(eps.size());
    // Advantage normalisation over the whole iteration.
    {
      const double count = static_cast<double>(std::max<std::size_t>(1, advantages.size()));
      const double mean = std::accumulate(advantages.begin(), advantages.end(), 0.0) / count;
      double var = 0;
      for (float a : advantages) var += (a - mean) * (a - mean);
      const double sd = std::sqrt(var / count) + 1e-8;
      for (float& a : advantages) a = static_cast<float>((a - mean) / sd);
    }
    std::vector<std::size_t> order(ds.size());
    std::iota(order.begin(), order.end(), 0);
    double loss_sum = 0;
    std::size_t batches = 0;
    for (int epoch = 0; epoch < o.ppo_epochs; ++epoch) {
      std::shuffle(order.begin(), order.end(), rng);
      for (std::size_t at = 0; at < order.size(); at += static_cast<std::size_t>(o.minibatch)) {
        const std::size_t end = std::min(order.size(), at + static_cast<std::size_t>(o.minibatch));
        std::vector<const Decision*> mb;
        std::vector<std::int32_t> mb_actions;
        std::vector<float> mb_adv, mb_ret, mb_old;
        for (std::size_t i = at; i < end; ++i) {
          mb.push_back(ds[order[i]]);
          mb_actions.push_back(actions[order[i]]);
          mb_adv.push_back(advantages[order[i]]);
          mb_ret.push_back(returns[order[i]]);
          mb_old.push_back(old_log_probs[order[i]]);
        }
        const auto obs = observations_of(mb);
        const PolicyBatch batch = make_batch(obs);
        const PolicyBatchOutput out = net->forward(batch);
        const auto cols = batch.action_columns(mb_actions);
        const auto logp = out.log_probs.gather(1, cols.unsqueeze(1)).squeeze(1);
        const auto ratio = torch::exp(logp - torch::tensor(mb_old));
        const auto adv = torch::tensor(mb_adv);
        const auto surrogate = torch::min(ratio * adv, torch::clamp(ratio, 1 - o.clip, 1 + o.clip) * adv);
        // Padding columns hold -inf: zero them first, so that no 0 × -inf
        // reaches the gradient.
        const auto finite_log_probs =
            torch::where(torch::isfinite(out.log_probs), out.log_probs, torch::zeros_like(out.log_probs));
        const auto entropy = -(torch::exp(finite_log_probs) * finite_log_probs).sum(1).mean();
        const auto value_loss = torch::mse_loss(out.value, torch::tensor(mb_ret));
        const auto loss = -surrogate.mean() + o.value_coefficient * value_loss - o.entropy * entropy;
        optimizer->zero_grad();
        loss.backward();
        torch::nn::utils::clip_grad_norm_(net->parameters(), o.max_grad_norm);
        optimizer->step();
        loss_sum += loss.item<double>();
        ++batches;
      }
    }
    state.phase = "ppo";
    state.iteration = it + 1;
    TrainingProgress p;
    p.phase = "ppo";
    p.step = it + 1;
    p.steps = o.iterations;
    p.loss = batches ? loss_sum / static_cast<double>(batches) : 0;
    p.running_ratio = running_ratio;
    if ((it + 1) % o.validate_every == 0 || it + 1 == o.iterations) {
      const PolicyWeights w = net->to_weights();
      p.validation = validate(w);
      if (p.validation < state.best) {
        state.best = p.validation;
        best = w;
      }
    }
    save_checkpoint();
    report(p);
  }
  if (state.best == 0) state.best = validate(best);

  ModelInfo info;
  info.family = o.family;
  info.platforms = o.platforms;
  info.training_command = o.command_line;
  info.steps = state.iteration;
  info.validation_metric =
      "mean over the validation points of mean makespan / the better of heft and mct (greedy, lower is better)";
  info.validation_score = state.best;
  std::ostringstream notes;
  notes << "PPO iterations: " << state.iteration << "; teacher " << o.teacher << " scores " << state.teacher
        << ", the policy after imitation " << state.imitation << ", the kept (best) weights " << state.best;
  info.notes = notes.str();
  save_model(o.output, best, info);
  result.weights = best;
  result.best_validation = state.best;
  result.teacher_validation = state.teacher;
  result.imitation_validation = state.imitation;
  result.ppo_iterations = state.iteration;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace autosched::dag::learned
