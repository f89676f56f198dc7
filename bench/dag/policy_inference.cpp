// The learned policy's cost per decision: building the observation and
// running the network (plain C++), by window size, on greedy episodes of
// a model over tiled Cholesky; and, for comparison, the same forward pass
// through libtorch (one observation at a time, as READYS decides).
// Prints a markdown table of medians over repetitions (bench/dag/policy.sh).
// Usage: bench_dag_policy <model file> [tiles=12] [repetitions=5]
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/learned/model_file.hpp>
#include <autosched/dag/learned/torch_policy.hpp>
#include <autosched/dag/policy/readys_scheduler.hpp>
#include <autosched/dag/simulator.hpp>

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace autosched::dag;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// Times every choose() of the policy (a whole decision: observation,
/// network, choice) and files it under its window size.
class TimedReadys final : public Scheduler {
 public:
  explicit TimedReadys(std::shared_ptr<const policy::PolicyWeights> w) : inner_(std::move(w)) {}
  std::string name() const override { return "readys"; }
  void start(const Problem& pb, std::uint64_t seed) override { inner_.start(pb, seed); }
  TaskId choose(const SchedulingView& view, std::size_t p) override {
    const auto t0 = Clock::now();
    const TaskId t = inner_.choose(view, p);
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    by_window[static_cast<int>(inner_.last_window() / 20)].push_back(us);
    return t;
  }
  std::map<int, std::vector<double>> by_window;  ///< window / 20 -> microseconds per decision

 private:
  policy::ReadysScheduler inner_;
};

/// Replays the decisions of an episode: for each logged observation, the
/// microseconds of `f(observation)` (the mean of `inner` calls).
template <class F>
double mean_micros(const std::vector<const policy::Decision*>& ds, int inner, F&& f) {
  if (ds.empty()) return 0;
  const auto t0 = Clock::now();
  for (const auto* d : ds)
    for (int k = 0; k < inner; ++k) f(d->observation);
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / static_cast<double>(ds.size() * inner);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <model file> [tiles=12] [repetitions=5]\n", argv[0]);
    return 2;
  }
  const int tiles = argc > 2 ? std::atoi(argv[2]) : 12;
  const int repetitions = argc > 3 ? std::atoi(argv[3]) : 5;
  torch::set_num_threads(1);
  const auto model = learned::load_model(argv[1]);
  auto weights = std::make_shared<const policy::PolicyWeights>(model.weights);
  const TaskGraph g = cholesky(tiles);
  const Problem pb(g, platform("2cpu+2gpu"), duration_table("readys"));

  // Whole decisions (observation + forward), timed inside the scheduler.
  std::vector<double> whole;
  std::vector<policy::Decision> log;
  for (int r = 0; r < repetitions; ++r) {
    log.clear();
    policy::ReadysOptions o;
    o.log = &log;
    policy::ReadysScheduler s(weights, o);
    simulate(pb, s);
    whole.push_back(1e6 * s.decision_seconds() / static_cast<double>(s.decisions_timed()));
  }
  // Whole decisions by window size: the mean per episode, median over repetitions.
  std::map<int, std::vector<double>> whole_by_window;
  for (int r = 0; r < repetitions; ++r) {
    TimedReadys timed(weights);
    simulate(pb, timed);
    for (const auto& [bucket, us] : timed.by_window) {
      double sum = 0;
      for (double u : us) sum += u;
      whole_by_window[bucket].push_back(sum / static_cast<double>(us.size()));
    }
  }
  // The forward pass alone, by window size, ours and libtorch's.
  std::map<int, std::vector<const policy::Decision*>> buckets;  // by nodes / 20
  for (const auto& d : log) buckets[static_cast<int>(d.observation.nodes / 20)].push_back(&d);
  learned::TorchPolicy net(weights->shape);
  net->load_weights(*weights);
  net->eval();
  torch::NoGradGuard no_grad;
  std::printf("model %s; cholesky T=%d on 2cpu+2gpu, %zu decisions per episode; hidden %d, %d layers, window %d\n\n",
              argv[1], tiles, log.size(), weights->shape.hidden, weights->shape.layers, weights->shape.window);
  std::printf("whole decision (observation + forward), mean over an episode, median of %d: %.1f µs\n\n", repetitions,
              median(whole));
  std::printf("| window (visible tasks) | decisions | mean nodes | whole decision (µs) | forward, ours (µs) | forward, libtorch (µs) |\n");
  std::printf("|---|--:|--:|--:|--:|--:|\n");
  for (const auto& [bucket, ds] : buckets) {
    double nodes = 0;
    for (const auto* d : ds) nodes += static_cast<double>(d->observation.nodes);
    std::vector<double> ours, theirs;
    for (int r = 0; r < repetitions; ++r) {
      policy::PolicyEvaluator eval(*weights);
      ours.push_back(mean_micros(ds, 20, [&](const policy::Observation& obs) { eval.evaluate(obs); }));
      theirs.push_back(mean_micros(ds, 2, [&](const policy::Observation& obs) {
        const policy::Observation* one[] = {&obs};
        const auto batch = learned::make_batch(one);
        static_cast<void>(net->forward(batch));
      }));
    }
    std::printf("| %d–%d | %zu | %.1f | %.1f | %.1f | %.1f |\n", bucket * 20, bucket * 20 + 19, ds.size(),
                nodes / static_cast<double>(ds.size()), median(whole_by_window[bucket]), median(ours), median(theirs));
  }
  return 0;
}
