#include <autosched/dag/policy/episodes.hpp>

#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/graph_file.hpp>
#include <autosched/dag/policy/teachers.hpp>
#include <autosched/dag/simulator.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <string_view>
#include <thread>

namespace autosched::dag::policy {

Environments::Environments(std::string family, const std::vector<std::string>& platforms, const std::string& durations)
    : family_(std::move(family)), table_(duration_table(durations)) {
  for (const auto& spec : platforms) platforms_.push_back(platform(spec));
}

const Problem& Environments::problem(int tiles, std::size_t p) {
  std::lock_guard lock(mutex_);
  auto& slot = problems_[{tiles, p}];
  if (!slot.problem) {
    const bool factorisation = family_ == "cholesky" || family_ == "lu" || family_ == "qr";
    slot.graph = std::make_unique<TaskGraph>(factorisation ? factorization(family_, tiles) : load_graph(family_));
    slot.problem = std::make_unique<Problem>(*slot.graph, platforms_.at(p), table_);
  }
  return *slot.problem;
}

std::pair<double, double> Environments::references(const EpisodeSpec& e) {
  const auto key = std::make_tuple(e.tiles, e.platform, e.sigma, e.seed);
  {
    std::lock_guard lock(mutex_);
    if (auto it = references_.find(key); it != references_.end()) return it->second;
  }
  const Problem& pb = problem(e.tiles, e.platform);
  SimulationOptions so;
  so.noise.sigma = e.sigma;
  so.seed = e.seed;
  so.keep_schedule = false;
  auto heft = make_scheduler("heft");
  auto mct = make_scheduler("mct");
  const std::pair<double, double> r{simulate(pb, *heft, so).makespan, simulate(pb, *mct, so).makespan};
  std::lock_guard lock(mutex_);
  references_[key] = r;
  return r;
}

std::unique_ptr<Teacher> make_teacher(const std::string& name) {
  if (name == "lookahead") return std::make_unique<LookaheadTeacher>("heft-online");
  if (name.starts_with("lookahead:")) {
    // lookahead:<base>[+<base>…]: the best finish over several bases.
    std::vector<std::string> bases;
    std::string_view rest = std::string_view(name).substr(std::string_view("lookahead:").size());
    for (;;) {
      const auto plus = rest.find('+');
      bases.emplace_back(rest.substr(0, plus));
      if (plus == std::string_view::npos) break;
      rest = rest.substr(plus + 1);
    }
    if (std::any_of(bases.begin(), bases.end(), [](const std::string& b) { return b.empty(); }))
      autosched::detail::throw_error("teacher '" + name + "': write lookahead:<scheduler>[+<scheduler>...]");
    return std::make_unique<LookaheadTeacher>(bases, 1, 0.0);
  }
  return std::make_unique<SchedulerTeacher>(make_scheduler(name));
}

std::vector<Episode> run_episodes(Environments& envs, const std::vector<EpisodeSpec>& specs,
                                  std::shared_ptr<const PolicyWeights> weights, Acting acting, bool log,
                                  const std::string& teacher, double follow, int threads) {
  std::vector<Episode> out(specs.size());
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&] {
    try {
      std::unique_ptr<Teacher> t = teacher.empty() ? nullptr : make_teacher(teacher);
      for (std::size_t i; (i = next.fetch_add(1)) < specs.size();) {
        const EpisodeSpec& e = specs[i];
        const Problem& pb = envs.problem(e.tiles, e.platform);
        Episode& ep = out[i];
        ep.spec = e;
        std::tie(ep.heft, ep.mct) = envs.references(e);
        ReadysOptions ro;
        ro.sample = acting == Acting::sample;
        ro.log = log ? &ep.decisions : nullptr;
        ro.teacher = t.get();
        ro.follow_teacher = follow;
        ReadysScheduler s(weights, ro);
        SimulationOptions so;
        so.noise.sigma = e.sigma;
        so.seed = e.seed;
        so.keep_schedule = false;
        const auto actual = sample_durations(pb.expected, so.noise, so.seed);
        if (t) t->start(pb, actual);
        ep.makespan = simulate(pb, s, actual, so).makespan;
      }
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = specs.size();
    }
  };
  std::vector<std::thread> pool;
  for (int k = 1; k < threads; ++k) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);
  return out;
}

double time_left(const Episode& ep, std::size_t k) { return -(ep.makespan - ep.decisions[k].now) / ep.heft; }

double score(const std::vector<Episode>& episodes) {
  std::map<std::tuple<int, std::size_t, double>, std::pair<double, double>> points;  // sum ms, sum best
  for (const auto& ep : episodes) {
    auto& p = points[{ep.spec.tiles, ep.spec.platform, ep.spec.sigma}];
    p.first += ep.makespan;
    p.second += std::min(ep.heft, ep.mct);
  }
  double total = 0;
  for (const auto& [key, p] : points) total += p.first / p.second;
  return points.empty() ? 0 : total / static_cast<double>(points.size());
}

}  // namespace autosched::dag::policy
