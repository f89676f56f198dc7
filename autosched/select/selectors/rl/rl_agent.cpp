#include <autosched/select/selectors/rl/rl_agent.hpp>

#include <autosched/core/decision_path.hpp>
#include <autosched/core/running_stats.hpp>
#include <autosched/select/grammar/rl_names.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace autosched {

std::string_view RlAgent::learner_name(RlLearner learner) noexcept { return rl_learner_name(learner); }

RlAgent::RlAgent(int arms, RlConfig config, SelectorLog* log, std::string loop, std::string name)
    : arms_(std::max(1, arms)),
      config_(std::move(config)),
      rewards_(config_),
      name_(name.empty() ? std::string(learner_name(config_.learner)) : std::move(name)),
      // Without a file to write, no log: the call would cost a decision a
      // page of cold code.
      log_(config_.stats_path.empty() && config_.qtable_path.empty() ? nullptr : log),
      loop_(std::move(loop)),
      rng_(config_.seed) {
  alpha_ = config_.alpha;
  epsilon_ = config_.epsilon;
  alpha_step_ = std::exp(-config_.alpha_decay);
  epsilon_step_ = std::exp(-config_.epsilon_decay);
  const auto cells = static_cast<std::size_t>(arms_) * static_cast<std::size_t>(arms_);
  double initial = 0.0;
  if (config_.init == RlInit::optimistic) initial = config_.r_plus + (config_.r_plus - config_.r_minus);
  q_.assign(cells, initial);
  if (config_.learner == RlLearner::doubleq) b_.assign(cells, initial);
  if (config_.learner == RlLearner::qv) v_.assign(static_cast<std::size_t>(arms_), initial);
  if (config_.init == RlInit::random) {
    std::uniform_real_distribution<double> u(std::min(config_.r_minus, config_.r_plus),
                                             std::max(config_.r_minus, config_.r_plus));
    for (double& x : q_) x = u(rng_);
    for (double& x : b_) x = u(rng_);
    for (double& x : v_) x = u(rng_);
  }
  visits_.assign(cells, 0);
  paired_matrix_.assign(cells, 0);
}

AUTOSCHED_DECISION_PATH int RlAgent::argmax_row(const std::vector<double>& table, int s) const {
  int best = 0;
  for (int a = 1; a < arms_; ++a) {
    if (table[index(s, a)] > table[index(s, best)]) best = a;
  }
  return best;
}

AUTOSCHED_DECISION_PATH int RlAgent::greedy_action(int state) const {
  if (config_.greedy == RlGreedy::average) {
    // Row i estimates arm i: the arm whose visited entries have the best mean.
    int best = -1;
    double best_mean = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < arms_; ++i) {
      double sum = 0;
      long n = 0;
      for (int j = 0; j < arms_; ++j) {
        if (visits_[index(i, j)] > 0) {
          sum += value(i, j);
          ++n;
        }
      }
      if (n > 0 && sum / static_cast<double>(n) > best_mean) {
        best_mean = sum / static_cast<double>(n);
        best = i;
      }
    }
    if (best >= 0) return best;
  }
  int best = 0;
  for (int a = 1; a < arms_; ++a) {
    if (value(state, a) > value(state, best)) best = a;
  }
  return best;
}

// RL4OMP's explore-first: from the current state take the first action whose
// ordered pair is new; if that action's own row is already complete, a
// global jump offset moves to another action (which keeps the walk from
// getting stuck). Visits all A² pairs in exactly A² steps (tested for A ≤ 20).
AUTOSCHED_DECISION_PATH int RlAgent::explore_first(int state) {
  for (int a = 0; a < arms_; ++a) {
    if (paired_matrix_[index(state, a)] != 0) continue;
    int chosen = a;
    bool row_done = true;
    for (int b = 0; b < arms_ && row_done; ++b) row_done = paired_matrix_[index(a, b)] != 0;
    if (row_done) chosen = (a + ++jump_) % arms_;
    if (paired_matrix_[index(state, chosen)] == 0) ++paired_;
    paired_matrix_[index(state, chosen)] = 1;
    return chosen;
  }
  return greedy_action(state);
}

AUTOSCHED_DECISION_PATH int RlAgent::policy(int state, bool& explored) {
  switch (config_.policy) {
    case RlPolicy::explore_first:
      if (paired_ < arms_ * arms_) {
        explored = true;
        return explore_first(state);
      }
      return greedy_action(state);
    case RlPolicy::epsilon_greedy:
      if (std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < epsilon_) {
        explored = true;
        return std::uniform_int_distribution<int>(0, arms_ - 1)(rng_);
      }
      return greedy_action(state);
    case RlPolicy::softmax:
      return softmax_action(state, explored);
    case RlPolicy::replay:
      if (replay_next_ < config_.replay.size()) return std::clamp(config_.replay[replay_next_++], 0, arms_ - 1);
      return greedy_action(state);
  }
  return 0;
}

// Not on the decision path's pages: it allocates and calls libm anyway, and
// inlined it would double the size of policy().
int RlAgent::softmax_action(int state, bool& explored) {
  double max_q = value(state, 0);
  for (int a = 1; a < arms_; ++a) max_q = std::max(max_q, value(state, a));
  std::vector<double> weights(static_cast<std::size_t>(arms_));
  for (int a = 0; a < arms_; ++a) weights[a] = std::exp((value(state, a) - max_q) / config_.tau);
  const int a = std::discrete_distribution<int>(weights.begin(), weights.end())(rng_);
  explored = a != greedy_action(state);
  return a;
}

AUTOSCHED_DECISION_PATH void RlAgent::learn(int s, int a, double r) {
  ++visits_[index(s, a)];
  const double g = config_.gamma;
  double& q = q_[index(s, a)];
  switch (config_.learner) {
    case RlLearner::qlearn:
      q += alpha_ * (r + g * value(a, greedy_action(a)) - q);
      break;
    case RlLearner::sarsa: {
      bool explored = false;
      next_action_ = policy(a, explored);
      q += alpha_ * (r + g * q_[index(a, next_action_)] - q);
      break;
    }
    case RlLearner::expected_sarsa: {
      double sum = 0;
      for (int k = 0; k < arms_; ++k) sum += q_[index(a, k)];
      const double expected = (1.0 - epsilon_) * q_[index(a, greedy_action(a))] + epsilon_ / arms_ * sum;
      q += alpha_ * (r + g * expected - q);
      break;
    }
    case RlLearner::doubleq:
      if (std::uniform_int_distribution<int>(0, 1)(rng_) == 0) {
        q += alpha_ * (r + g * b_[index(a, argmax_row(q_, a))] - q);
      } else {
        double& b = b_[index(s, a)];
        b += alpha_ * (r + g * q_[index(a, argmax_row(b_, a))] - b);
      }
      break;
    case RlLearner::qv: {
      double& vs = v_[static_cast<std::size_t>(s)];
      vs += alpha_ * (r + g * v_[static_cast<std::size_t>(a)] - vs);
      q += alpha_ * (r + g * v_[static_cast<std::size_t>(a)] - q);
      break;
    }
  }
}

AUTOSCHED_DECISION_PATH void RlAgent::update_rates() {
  // With explore-first the rates start to decay when exploring ends.
  long t = step_;
  if (config_.policy == RlPolicy::explore_first) t = std::max(0L, step_ - static_cast<long>(arms_) * arms_);
  if (config_.decay == RlDecay::exponential) {
    // e^(−f·t) by one multiplication per step: a decision on a coordinator
    // whose caches the ranks' work has emptied pays microseconds for the
    // first call into libm (measured under SMPI at 200 ranks).
    if (t != decay_t_) {
      if (t == decay_t_ + 1) {
        alpha_factor_ *= alpha_step_;
        epsilon_factor_ *= epsilon_step_;
      } else {
        alpha_factor_ = std::exp(-config_.alpha_decay * static_cast<double>(t));
        epsilon_factor_ = std::exp(-config_.epsilon_decay * static_cast<double>(t));
      }
      decay_t_ = t;
    }
  }
  auto decay = [&](double x0, double factor, double floor, double exponential) {
    if (factor <= 0) return x0;
    const double x = config_.decay == RlDecay::exponential ? x0 * exponential : x0 - factor * static_cast<double>(t);
    return std::max(floor, x);
  };
  alpha_ = decay(config_.alpha, config_.alpha_decay, config_.alpha_min, alpha_factor_);
  epsilon_ = decay(config_.epsilon, config_.epsilon_decay, config_.epsilon_min, epsilon_factor_);
}

AUTOSCHED_DECISION_PATH Decision RlAgent::choose(const Context&) {
  // The last decision never ran (its instance failed, or a run stopped with
  // a decision made ahead): run it now; its reward is still to come.
  if (awaiting_) return {state_, 0, -1, last_explored_};
  if (!started_) {
    started_ = true;
    state_ = 0;
    last_explored_ = awaiting_ = true;
    return {0, 0, -1, true};
  }
  bool explored = false;
  int a;
  if (next_action_ >= 0) {
    a = next_action_;
    next_action_ = -1;
    explored = config_.policy == RlPolicy::explore_first && paired_ < arms_ * arms_;
  } else {
    a = policy(state_, explored);
  }
  learn(state_, a, pending_reward_);
  if (log_ != nullptr) [[unlikely]] log_step(state_, pending_reward_);
  ++step_;
  update_rates();
  state_ = a;
  last_explored_ = explored;
  awaiting_ = true;  // last: a choice that threw halfway is not repeated
  return {a, 0, -1, explored};
}

AUTOSCHED_DECISION_PATH void RlAgent::observe(const Decision&, const Outcome& outcome) {
  pending_reward_ = rewards_.reward(outcome);
  awaiting_ = false;
}

[[gnu::cold]] void RlAgent::log_step(int arm, double reward) {  // only with a log
  if (!config_.stats_path.empty()) {
    char line[256];
    std::snprintf(line, sizeof line, "%s,%ld,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f", loop_.c_str(), step_, arm, alpha_,
                  epsilon_, reward, rewards_.low(), rewards_.high(), rewards_.signal());
    log_->append(config_.stats_path, line);
  }
  if (!config_.qtable_path.empty()) {
    std::string table = loop_ + " step " + std::to_string(step_) + "\n";
    char cell[32];
    for (int s = 0; s < arms_; ++s) {
      for (int a = 0; a < arms_; ++a) {
        std::snprintf(cell, sizeof cell, a ? " %.4f" : "%.4f", value(s, a));
        table += cell;
      }
      table += '\n';
    }
    log_->append(config_.qtable_path, std::move(table));
  }
}

std::string RlAgent::save_state() const {
  std::ostringstream out;
  out.precision(17);
  out << "rl2 " << name_ << ' ' << arms_ << ' ' << static_cast<int>(config_.learner) << ' ' << step_ << ' ' << state_
      << ' ' << paired_ << ' ' << jump_ << ' ' << started_ << ' ' << pending_reward_ << ' ' << awaiting_ << ' '
      << last_explored_ << ' ' << next_action_ << ' ' << replay_next_;
  for (double x : q_) out << ' ' << x;
  for (double x : b_) out << ' ' << x;
  for (double x : v_) out << ' ' << x;
  for (long n : visits_) out << ' ' << n;
  for (char c : paired_matrix_) out << ' ' << int{c};
  rewards_.save(out);  // the bands: a resumed agent rewards as the one that saved
  return out.str();
}

bool RlAgent::load_state(std::string_view state) {
  std::istringstream in{std::string(state)};
  std::string tag, name;
  int arms = 0, learner = 0;
  RlAgent copy = *this;
  if (!(in >> tag >> name >> arms >> learner >> copy.step_ >> copy.state_ >> copy.paired_ >> copy.jump_ >>
        copy.started_ >> copy.pending_reward_) ||
      (tag != "rl1" && tag != "rl2") || name != name_ || arms != arms_ ||
      learner != static_cast<int>(config_.learner)) {
    return false;
  }
  // rl2 adds whether a decision awaits its outcome (rl1 states never had
  // one), SARSA's next action, the replay position and the reward trackers.
  const bool rl2 = tag == "rl2";
  copy.awaiting_ = copy.last_explored_ = false;
  copy.next_action_ = -1;
  copy.replay_next_ = 0;
  if (rl2 && !(in >> copy.awaiting_ >> copy.last_explored_ >> copy.next_action_ >> copy.replay_next_)) return false;
  if (copy.next_action_ < -1 || copy.next_action_ >= arms_ || copy.replay_next_ > config_.replay.size()) return false;
  for (double& x : copy.q_) in >> x;
  for (double& x : copy.b_) in >> x;
  for (double& x : copy.v_) in >> x;
  for (long& n : copy.visits_) in >> n;
  for (char& c : copy.paired_matrix_) {
    int v = 0;
    in >> v;
    c = static_cast<char>(v != 0);
  }
  if (rl2 && !copy.rewards_.load(in)) return false;
  if (!in || copy.state_ < 0 || copy.state_ >= arms_) return false;
  // Counters a run could have reached: a damaged one near 2^63 would
  // overflow at the next step.
  auto plausible = [](auto n) { return n >= 0 && n <= RunningStats::max_loaded_count; };
  if (!plausible(copy.step_) || !plausible(copy.paired_) || !plausible(copy.jump_)) return false;
  for (long n : copy.visits_)
    if (!plausible(n)) return false;
  copy.update_rates();
  *this = std::move(copy);
  return true;
}

std::string RlAgent::summary() const {
  char buf[128];
  if (config_.policy == RlPolicy::explore_first && paired_ < arms_ * arms_) {
    std::snprintf(buf, sizeof buf, "explore %d/%d", paired_, arms_ * arms_);
  } else {
    std::snprintf(buf, sizeof buf, "greedy %d alpha %.3f eps %.3f", greedy_action(state_), alpha_, epsilon_);
  }
  return buf;
}

}  // namespace autosched
