// `autosched dag train`: trains the learned policy (readys) in simulation
// and writes a model file with its sidecar. Built when libtorch is found.
#include "cli_app.hpp"
#include "commands.hpp"
#include "dag_arguments.hpp"

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/dag/learned/trainer.hpp>  // torch-free: options and results only

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>

namespace autosched::cli {

namespace {

struct TrainCommand {
  dag::learned::TrainingOptions options;
  std::string platforms = "2cpu+2gpu";
  std::string sigmas = "0,0.1,0.3,0.5";
  std::string tiles = "4..8";
  bool no_progress = false;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ',')) {
    item = std::string(text::trim(item));
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

double number_of(const std::string& item, const std::string& option) {
  try {
    std::size_t used = 0;
    const double v = std::stod(item, &used);
    if (used == item.size()) return v;
  } catch (const std::exception&) {
  }
  detail::throw_error(option + "=" + text::escape(item, text::max_echoed_value) + ": not a number");
}

void parse_tiles(const std::string& s, dag::learned::TrainingOptions& o) {
  const auto dots = s.find("..");
  auto whole = [&](const std::string& v) {
    const double d = number_of(v, "--tiles");
    if (d != static_cast<int>(d)) detail::throw_error("--tiles=" + s + ": tile counts are whole numbers");
    return static_cast<int>(d);
  };
  if (dots == std::string::npos) {
    o.min_tiles = o.max_tiles = whole(s);
  } else {
    o.min_tiles = whole(s.substr(0, dots));
    o.max_tiles = whole(s.substr(dots + 2));
  }
}

/// One line per update: on a terminal redrawn in place with a bar, else
/// printed every few seconds.
class TrainProgress {
 public:
  explicit TrainProgress(bool enabled) : enabled_(enabled), tty_(isatty(2) != 0) {}
  void operator()(const dag::learned::TrainingProgress& p) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    const bool last = p.step == p.steps;
    if (!tty_ && !last && now - last_ < std::chrono::seconds(5)) return;
    last_ = now;
    constexpr int width = 24;
    const int filled = p.steps > 0 ? width * p.step / p.steps : width;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    std::fprintf(stderr, "%s%-9s [%s] %d/%d  loss %.4f", tty_ ? "\r" : "", p.phase.c_str(), bar.c_str(), p.step,
                 p.steps, p.loss);
    if (p.accuracy >= 0) std::fprintf(stderr, "  agrees with teacher %.1f%%", 100 * p.accuracy);
    if (p.running_ratio > 0) std::fprintf(stderr, "  makespan/HEFT %.3f", p.running_ratio);
    if (p.validation > 0) std::fprintf(stderr, "  validation %.4f", p.validation);
    if (p.best_validation > 0) std::fprintf(stderr, "  best %.4f", p.best_validation);
    std::fprintf(stderr, tty_ ? "   " : "\n");
    if (tty_ && (last || p.phase != phase_)) std::fputc('\n', stderr);
    phase_ = p.phase;
  }

 private:
  bool enabled_, tty_;
  std::string phase_;
  std::chrono::steady_clock::time_point last_{};
};

void train_command(TrainCommand& c) {
  auto& o = c.options;
  o.platforms = split(c.platforms);
  o.sigmas.clear();
  for (const auto& s : split(c.sigmas)) o.sigmas.push_back(number_of(s, "--sigmas"));
  parse_tiles(c.tiles, o);
  // The largest graphs of the curriculum (LU's and QR's are the largest)
  // must at least fit as graphs; the policy's features add to this.
  dag_cli::refuse_beyond_memory("--tiles", c.tiles, dag_cli::simulation_bytes("lu", o.max_tiles),
                                "training graphs of " + std::to_string(o.max_tiles) + "×" +
                                    std::to_string(o.max_tiles) + " tiles");
  o.command_line = recorded_command_line();
  TrainProgress progress(!c.no_progress);
  // Training runs inside libautosched-dag-learn.so (libtorch is loaded only
  // by the commands that need it; learned_plugin.cpp).
  using Train = int (*)(const dag::learned::TrainingOptions*, void (*)(const dag::learned::TrainingProgress*, void*),
                        void*, dag::learned::TrainingResult*, char*, std::size_t);
  std::string problem;
  const auto train = reinterpret_cast<Train>(learned_plugin_symbol("autosched_dag_learn_train", &problem));
  if (train == nullptr) detail::throw_error("dag train: " + problem);
  dag::learned::TrainingResult r;
  char error[2048] = {};
  auto forward = [](const dag::learned::TrainingProgress* p, void* data) { (*static_cast<TrainProgress*>(data))(*p); };
  if (train(&o, forward, &progress, &r, error, sizeof error) != 0) detail::throw_error(error);
  std::printf("model: %s (sidecar %s.json)%s\n", o.output.c_str(), o.output.c_str(), r.resumed ? ", resumed" : "");
  std::printf("validation score (mean makespan / better of heft and mct, lower is better):\n");
  std::printf("  teacher %-10s %.4f\n", o.teacher.c_str(), r.teacher_validation);
  std::printf("  after imitation    %.4f\n", r.imitation_validation);
  std::printf("  best (kept)        %.4f after %d PPO iterations, %.0f s\n", r.best_validation, r.ppo_iterations,
              r.seconds);
}

}  // namespace

void add_dag_train_command(CLI::App& dag) {
  auto c = std::make_shared<TrainCommand>();
  auto& o = c->options;
  auto* t = dag.add_subcommand("train", "Train the learned policy (readys) in simulation and write a model file");
  t->add_option("--graph", o.family, "cholesky, lu or qr")->capture_default_str();
  t->add_option("--tiles", c->tiles, "Tile counts trained on: 8 or 4..8 (the curriculum grows to the largest)")
      ->type_name("LIST")
      ->capture_default_str();
  t->add_option("--platforms", c->platforms, "Platforms separated by ','")->capture_default_str();
  t->add_option("--durations", o.durations, "readys, mirage or a duration table file")->capture_default_str();
  t->add_option("--sigmas", c->sigmas, "Noise levels episodes draw from, separated by ','")->capture_default_str();
  t->add_option("--hidden", o.shape.hidden, "Width of the network")->capture_default_str();
  t->add_option("--layers", o.shape.layers, "Message-passing layers (both directions)")->capture_default_str();
  t->add_option("--window", o.shape.window, "Hops of successors in the observed sub-DAG")->capture_default_str();
  t->add_option("--teacher", o.teacher, "Imitation teacher: lookahead or a scheduler name")->capture_default_str();
  t->add_option("--dagger-rounds", o.dagger_rounds, "Imitation rounds (0: no warm start)")->capture_default_str();
  t->add_option("--imitation-episodes", o.imitation_episodes, "Episodes per imitation round")->capture_default_str();
  t->add_option("--imitation-epochs", o.imitation_epochs, "Passes over the imitation data per round")
      ->capture_default_str();
  t->add_option("--iterations", o.iterations, "PPO iterations")->capture_default_str();
  t->add_option("--episodes", o.episodes_per_iteration, "Episodes (environments) per PPO iteration")
      ->capture_default_str();
  t->add_option("--epochs", o.ppo_epochs, "PPO epochs per iteration")->capture_default_str();
  t->add_option("--minibatch", o.minibatch, "Decisions per gradient step")->capture_default_str();
  t->add_option("--lr", o.learning_rate, "PPO learning rate (Adam)")->capture_default_str();
  t->add_option("--entropy", o.entropy, "Entropy bonus")->capture_default_str();
  t->add_option("--validate-every", o.validate_every, "PPO iterations between validations")->capture_default_str();
  t->add_option("--validation-samples", o.validation_samples, "Noise samples per validation point")
      ->capture_default_str();
  t->add_option("--threads", o.threads, "Threads for episodes and for libtorch")->capture_default_str();
  t->add_option("--seed", o.seed, "Seed of everything random in training")->capture_default_str()->check(seed_check());
  t->add_option("--output,-o", o.output, "The model file to write (its sidecar: <file>.json)")->required();
  t->add_option("--checkpoint", o.checkpoint_dir, "Checkpoint directory (default: <output>.checkpoint)");
  // A plain flag: "!--no-resume" on `resume` showed its default as "{false}" in the help.
  t->add_flag_callback("--no-resume", [c] { c->options.resume = false; }, "Start afresh even when a checkpoint exists");
  t->add_flag("--no-progress", c->no_progress, "No progress on stderr");
  t->callback([c] { train_command(*c); });
}

}  // namespace autosched::cli
