#include <autosched/dag/starpu/starpu_runner.hpp>

#include <autosched/core/error.hpp>
#include <autosched/dag/platform.hpp>
#include <autosched/dag/problem.hpp>
#include <autosched/dag/ranks.hpp>
#include <autosched/dag/starpu/scheduler_policy.hpp>

#include <starpu.h>
#include <starpu_heteroprio.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>

namespace autosched::dag::starpu {

namespace {

// StarPU 1.3.10's policies (src/core/sched_policy.c), minus the parallel-task
// ones (pheft, peager) and those that need GPUs or contexts to mean anything.
const std::vector<std::string> builtin_policies = {
    "eager", "prio",  "random", "ws",     "lws",        "dm",
    "dmda",  "dmdap", "dmdar",  "dmdas",  "dmdasd",     "heteroprio",
    "modular-eager", "modular-prio", "modular-heft", "modular-heft-prio", "modular-heteroprio"};

constexpr std::string_view starpu_prefix = "starpu:";
constexpr std::uint64_t not_yet = std::numeric_limits<std::uint64_t>::max();

struct Run;

/// What each starpu_task carries in cl_arg: its run and its TaskId.
struct Ticket {
  Run* run = nullptr;
  TaskId id = no_task;
};

struct Run {
  const TaskBody* body = nullptr;
  std::vector<KindDurations> expected;  ///< per task, ms
  std::vector<Ticket> tickets;
  std::atomic<std::uint64_t> seq{0};
  std::atomic<std::size_t> model_queries{0};
  std::vector<int> worker;
  std::vector<std::uint64_t> start_seq, end_seq;
  std::mutex error_mutex;
  std::exception_ptr error;
};

void run_task(void** /*buffers*/, void* arg) {
  const auto* ticket = static_cast<const Ticket*>(arg);
  Run& run = *ticket->run;
  const auto i = static_cast<std::size_t>(ticket->id);
  run.worker[i] = starpu_worker_get_id();
  run.start_seq[i] = run.seq.fetch_add(1);
  try {
    (*run.body)(ticket->id);
  } catch (...) {
    std::lock_guard<std::mutex> lock(run.error_mutex);
    if (!run.error) run.error = std::current_exception();
  }
  run.end_seq[i] = run.seq.fetch_add(1);
}

/// The STARPU_PER_ARCH cost model: the table's duration, in microseconds.
double expected_us(starpu_task* task, starpu_perfmodel_arch* arch, unsigned /*nimpl*/) {
  const auto* ticket = static_cast<const Ticket*>(task->cl_arg);
  const bool cpu = arch->ndevices > 0 && arch->devices[0].type == STARPU_CPU_WORKER;
  const ResourceKind kind = cpu ? ResourceKind::cpu : ResourceKind::gpu;
  ticket->run->model_queries.fetch_add(1, std::memory_order_relaxed);
  return 1000.0 * ticket->run->expected[static_cast<std::size_t>(ticket->id)][static_cast<std::size_t>(kind)];
}

// StarPU's heteroprio reads its buckets from a callback without user data.
unsigned heteroprio_buckets = 0;

void configure_heteroprio(unsigned ctx) {
  // CPU only: one bucket per kernel, taken in bucket order (bucket 0 is
  // the most critical kernel), every bucket's fastest arch the CPU.
  starpu_heteroprio_set_nb_prios(ctx, STARPU_CPU_IDX, heteroprio_buckets);
  for (unsigned b = 0; b < heteroprio_buckets; ++b) {
    starpu_heteroprio_set_mapping(ctx, STARPU_CPU_IDX, b, b);
    starpu_heteroprio_set_faster_arch(ctx, STARPU_CPU_IDX, b);
  }
}

/// Bucket of each kernel: kernels by decreasing mean bottom level of their
/// tasks (POTRF, TRSM, SYRK, GEMM for Cholesky).
std::vector<int> kernel_buckets(const TaskGraph& graph, const std::vector<double>& rank) {
  const std::size_t kernels = graph.kernel_names().size();
  std::vector<double> sum(kernels, 0);
  std::vector<std::size_t> count(kernels, 0);
  for (std::size_t t = 0; t < graph.size(); ++t) {
    sum[graph.tasks()[t].kernel] += rank[t];
    ++count[graph.tasks()[t].kernel];
  }
  std::vector<std::size_t> order(kernels);
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto mean = [&](std::size_t k) { return count[k] == 0 ? -1.0 : sum[k] / static_cast<double>(count[k]); };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return mean(a) > mean(b); });
  std::vector<int> bucket(kernels);
  for (std::size_t b = 0; b < kernels; ++b) bucket[order[b]] = static_cast<int>(b);
  return bucket;
}

/// Integer priorities from bottom levels: the position in increasing rank
/// order, so the most critical task has the highest priority.
std::vector<int> rank_priorities(const std::vector<double>& rank) {
  std::vector<std::size_t> order(rank.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });
  std::vector<int> priority(rank.size());
  for (std::size_t i = 0; i < order.size(); ++i) priority[order[i]] = static_cast<int>(i);
  return priority;
}

/// starpu_shutdown() on every way out once starpu_init() succeeded.
struct StarpuSession {
  bool active = false;
  ~StarpuSession() {
    if (active) starpu_shutdown();
  }
};

}  // namespace

std::vector<std::string> starpu_policy_names() { return builtin_policies; }

bool is_starpu_policy(std::string_view policy) { return policy.substr(0, starpu_prefix.size()) == starpu_prefix; }

namespace {

RunResult run_graph(const TaskGraph& graph, const DurationTable& expected, const TaskBody& body,
                    const RunOptions& options, Scheduler* ours) {
  if (!graph.finalized()) detail::throw_error("run_on_starpu: the graph " + graph.name() + " is not finalized");
  if (options.workers < 1 || options.workers > STARPU_MAXCPUS)
    detail::throw_error("run_on_starpu: workers=" + std::to_string(options.workers) + ": expected 1 to " +
                        std::to_string(STARPU_MAXCPUS) + " (this StarPU's STARPU_MAXCPUS)");
  const bool builtin = ours == nullptr && is_starpu_policy(options.policy);
  const std::string builtin_name = builtin ? options.policy.substr(starpu_prefix.size()) : std::string();
  if (builtin && std::find(builtin_policies.begin(), builtin_policies.end(), builtin_name) == builtin_policies.end()) {
    std::string names;
    for (const auto& n : builtin_policies) names += (names.empty() ? "" : ", ") + n;
    detail::throw_error("run_on_starpu: policy " + options.policy + ": expected starpu:<name> with a name of " +
                        names + ", or an autosched scheduler name");
  }

  const Problem problem(graph, platform(std::to_string(options.workers) + "cpu"), expected);
  const std::vector<double> rank = upward_ranks(problem, RankCost::mean_over_processors);
  const std::size_t n = graph.size();

  Run run;
  run.body = &body;
  run.expected = problem.expected;
  run.tickets.resize(n);
  for (std::size_t t = 0; t < n; ++t) run.tickets[t] = {&run, static_cast<TaskId>(t)};
  run.worker.assign(n, -1);
  run.start_seq.assign(n, not_yet);
  run.end_seq.assign(n, not_yet);

  std::vector<int> priority;
  int min_priority = 0, max_priority = 0;
  if (builtin_name == "heteroprio") {
    const std::vector<int> bucket = kernel_buckets(graph, rank);
    heteroprio_buckets = static_cast<unsigned>(graph.kernel_names().size());
    priority.resize(n);
    for (std::size_t t = 0; t < n; ++t) priority[t] = bucket[graph.tasks()[t].kernel];
    max_priority = static_cast<int>(heteroprio_buckets) - 1;
  } else if (options.priorities) {
    priority = rank_priorities(rank);
    max_priority = n == 0 ? 0 : static_cast<int>(n) - 1;
  } else {
    priority.assign(n, 0);
  }

  // Codelets and their models outlive starpu_shutdown() (declared first).
  const std::size_t kernels = graph.kernel_names().size();
  std::vector<std::string> symbols(kernels);
  std::vector<starpu_perfmodel> models(kernels);
  std::vector<starpu_codelet> codelets(kernels);
  for (std::size_t k = 0; k < kernels; ++k) {
    symbols[k] = "autosched_dag_" + graph.kernel_names()[k];
    std::memset(&models[k], 0, sizeof(starpu_perfmodel));
    models[k].type = STARPU_PER_ARCH;
    models[k].symbol = symbols[k].c_str();
    models[k].arch_cost_function = expected_us;
    starpu_codelet_init(&codelets[k]);
    codelets[k].where = STARPU_CPU;
    codelets[k].cpu_funcs[0] = run_task;
    codelets[k].nbuffers = 0;
    codelets[k].name = graph.kernel_names()[k].c_str();
    codelets[k].model = &models[k];
  }

  std::unique_ptr<Scheduler> named;
  std::unique_ptr<SchedulerPolicy> policy;
  if (!builtin) {
    if (ours == nullptr) {
      named = make_scheduler(options.policy);
      ours = named.get();
    }
    policy = std::make_unique<SchedulerPolicy>(
        problem, *ours,
        [](const starpu_task* task) { return static_cast<const Ticket*>(task->cl_arg)->id; }, options.seed);
  }

  starpu_conf conf;
  starpu_conf_init(&conf);
  conf.precedence_over_environment_variables = 1;  // the policy and the worker count are ours to set
  conf.ncpus = options.workers;
  conf.ncuda = 0;
  conf.nopencl = 0;
  conf.nmic = 0;
  conf.nmpi_ms = 0;
  conf.calibrate = 0;
  conf.catch_signals = 0;  // leave SIGSEGV & co. to the application
  conf.global_sched_ctx_min_priority = min_priority;
  conf.global_sched_ctx_max_priority = max_priority;
  if (builtin) {
    conf.sched_policy_name = builtin_name.c_str();
    if (builtin_name == "heteroprio") conf.sched_policy_init = configure_heteroprio;
  } else {
    conf.sched_policy_name = nullptr;
    conf.sched_policy = policy->policy();
  }

  StarpuSession session;
  const int init = starpu_init(&conf);
  if (init != 0)
    detail::throw_error("run_on_starpu: starpu_init failed (" + std::string(init == -ENODEV ? "no worker" : "error " + std::to_string(init)) + ")");
  session.active = true;
  if (starpu_cpu_worker_get_count() != static_cast<unsigned>(options.workers) ||
      starpu_worker_get_count() != static_cast<unsigned>(options.workers))
    detail::throw_error("run_on_starpu: asked for " + std::to_string(options.workers) + " CPU workers, StarPU started " +
                        std::to_string(starpu_cpu_worker_get_count()) + " CPU workers of " +
                        std::to_string(starpu_worker_get_count()));

  std::vector<starpu_task*> tasks(n, nullptr);
  for (std::size_t t = 0; t < n; ++t) {
    starpu_task* task = starpu_task_create();
    task->cl = &codelets[graph.tasks()[t].kernel];
    task->cl_arg = &run.tickets[t];
    task->cl_arg_size = 0;
    task->priority = priority[t];
    task->name = graph.kernel_name(static_cast<TaskId>(t)).c_str();
    tasks[t] = task;
  }
  std::vector<starpu_task*> deps;
  for (std::size_t t = 0; t < n; ++t) {
    deps.clear();
    for (TaskId p : graph.predecessors(static_cast<TaskId>(t))) deps.push_back(tasks[static_cast<std::size_t>(p)]);
    if (!deps.empty()) starpu_task_declare_deps_array(tasks[t], static_cast<unsigned>(deps.size()), deps.data());
  }

  // Submit everything paused, so that every policy sees the same release.
  starpu_pause();
  std::string submit_error;
  for (TaskId t : graph.topological_order()) {
    const auto i = static_cast<std::size_t>(t);
    if (!submit_error.empty()) {
      starpu_task_destroy(tasks[i]);
      continue;
    }
    const int rc = starpu_task_submit(tasks[i]);
    if (rc != 0) {
      submit_error = "starpu_task_submit of task " + std::to_string(t) + " (" + graph.kernel_name(t) +
                     ") returned " + std::to_string(rc);
      starpu_task_destroy(tasks[i]);
    }
  }
  const auto released = std::chrono::steady_clock::now();
  if (policy) policy->release();
  starpu_resume();
  starpu_task_wait_for_all();
  const auto drained = std::chrono::steady_clock::now();
  session.active = false;
  starpu_shutdown();

  if (!submit_error.empty()) detail::throw_error("run_on_starpu: " + submit_error);
  if (run.error) std::rethrow_exception(run.error);
  RunResult result;
  result.policy = options.policy;
  result.model_queries = run.model_queries.load();
  result.makespan_ms = std::chrono::duration<double, std::milli>(drained - released).count();
  if (policy) {
    const std::string misbehaviour = policy->error();
    if (!misbehaviour.empty()) detail::throw_error("run_on_starpu: " + misbehaviour);
    const SchedulerPolicy::Stats stats = policy->stats();
    result.decisions = stats.decisions;
    result.passes = stats.passes;
    result.forced = stats.forced;
  }
  for (std::size_t t = 0; t < n; ++t) {
    if (run.end_seq[t] == not_yet)
      detail::throw_error("run_on_starpu: task " + std::to_string(t) + " (" +
                          graph.kernel_name(static_cast<TaskId>(t)) + ") never ran under " + options.policy);
  }
  result.worker = std::move(run.worker);
  result.start_seq = std::move(run.start_seq);
  result.end_seq = std::move(run.end_seq);
  return result;
}

}  // namespace

RunResult run_on_starpu(const TaskGraph& graph, const DurationTable& expected, const TaskBody& body,
                        const RunOptions& options) {
  return run_graph(graph, expected, body, options, nullptr);
}

RunResult run_on_starpu(const TaskGraph& graph, const DurationTable& expected, const TaskBody& body,
                        Scheduler& scheduler, const RunOptions& options) {
  return run_graph(graph, expected, body, options, &scheduler);
}

}  // namespace autosched::dag::starpu
