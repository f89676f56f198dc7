// One rank's part of one instance: the coordinator decides and broadcasts,
// every rank runs its role, and finish() reduces the ranks' times in one
// MPI_Allreduce so that the coordinator can learn and every rank can report.
// The coordinator's decision and learning are the loop driver's, as for a
// thread team (drive::Loop::plan and close: the schedule's precedence, the
// selector, the store's rows, traces and warm starts); only the chunks'
// transport is this layer's.

#include <autosched/mpi/execution.hpp>

#include <autosched/core/error.hpp>
#include <autosched/drive/loop.hpp>
#include <autosched/measure/metrics.hpp>
#include <autosched/mpi/detail/comm_resources.hpp>
#include <autosched/mpi/detail/max_sum_min_op.hpp>
#include <autosched/mpi/detail/roles.hpp>
#include <autosched/mpi/detail/run_ranges.hpp>
#include <autosched/select/grammar/schedule.hpp>
#include <autosched/session/session.hpp>
#include <autosched/techniques/catalogue.hpp>
#include <autosched/techniques/profiling.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

namespace autosched::mpi {

namespace detail {

std::int64_t checked_count(std::int64_t begin, std::int64_t end, std::string_view who, std::string* error) {
  if (end <= begin) return 0;
  const int128 n = static_cast<int128>(end) - static_cast<int128>(begin);
  if (n > max_iterations) {
    *error = std::string(who) + ": loop bounds [" + std::to_string(begin) + ", " + std::to_string(end) +
             ") hold more than 2^62 iterations";
    return -1;
  }
  return static_cast<std::int64_t>(n);
}

}  // namespace detail

std::string_view protocol_name(Protocol p) noexcept {
  switch (p) {
    case Protocol::master_worker:
      return "master-worker";
    case Protocol::rma:
      return "rma";
    case Protocol::none:
      return "none";
    default:
      return "auto";
  }
}

namespace detail {

namespace {

/// What one loop keeps on this rank between instances. The coordinator's
/// holds the driver's loop (mpi:<name>) with the instance's plan, and the
/// techniques' memory (AWF weights, profiles); the others only cache the
/// dispenser's storage.
struct LoopRecord {
  std::string name;
  LoopMemory memory;
  Workspace workspace;
  AnyDispenser dispenser;
  drive::Loop* driver = nullptr;
  drive::Plan plan;
  bool planned = false;  ///< `plan` awaits its close
  bool running = false;
  // A guarded trial's fallback (coordinator, master-worker): prepared over
  // the trial's unclaimed rest when the trial runs past its budget.
  AnyDispenser fallback;
  Workspace fallback_workspace;
  TechniqueParams fallback_params;
};

LoopRecord& record(std::string_view name) {
  static std::map<std::string, std::unique_ptr<LoopRecord>, std::less<>> records;
  auto it = records.find(name);
  if (it == records.end()) {
    auto r = std::make_unique<LoopRecord>();
    r->name = std::string(name);
    it = records.emplace(r->name, std::move(r)).first;
  }
  return *it->second;
}

/// The coordinator's decision for one instance, broadcast as bytes.
struct DecisionMessage {
  std::int64_t begin = 0, end = 0;  ///< the coordinator's bounds
  std::int32_t error = 0;           ///< 1: `text` is an error message
  std::int32_t protocol = 0;        ///< 1 master-worker, 2 rma, 3 static (no messages)
  std::int32_t timed = 0;
  std::int32_t has_profile = 0;
  std::int32_t ran = 0;  ///< the TechniqueId prepared (a substitute when the spec's lacks a profile)
  std::int32_t calibrate = 0;  ///< 1: after this (profiling) instance, measure the dispatch queues
  double mu_ns = 0, sigma_ns = 0, overhead_ns = 0;
  std::int64_t samples = 0;
  char text[400] = {};  ///< the technique spec to run, or the error
};
enum : std::int32_t { run_master_worker = 1, run_rma = 2, run_static = 3 };

void set_text(DecisionMessage& m, const std::string& s) {
  const std::size_t len = std::min(s.size(), sizeof(m.text) - 1);
  std::memcpy(m.text, s.data(), len);
  m.text[len] = '\0';
}

/// One reduction per instance: max, sums and min in one buffer.
struct Summary {
  double elapsed_max = 0;               ///< loop time: latest finish since each rank's start (s)
  double s1 = 0, s2 = 0, s3 = 0, s4 = 0;  ///< sums of elapsed^k (ns^k), for the imbalance metrics
  double iterations = 0;
  double failed_rank = std::numeric_limits<double>::infinity();  ///< lowest failing rank
};
constexpr int summary_words = 7;
/// elapsed_max by maximum, the sums and iterations by sum, failed_rank by minimum.
MPI_Op summary_op() { return detail::max_sum_min_op<1, 5, 1>(); }


}  // namespace

class ExecutionState {
 public:
  ExecutionState(MPI_Comm user, std::int64_t begin, std::int64_t end, const LoopOptions& options);
  ~ExecutionState() {
    // Left without finish() (an exception between the calls): the other
    // ranks may wait for this one; nothing collective can be done here.
    if (loop_ != nullptr && !finished_) loop_->running = false;
  }
  ExecutionState(const ExecutionState&) = delete;
  ExecutionState& operator=(const ExecutionState&) = delete;
  IndexRange next();
  void fail(std::string message);
  LoopResult finish();

  int rank = 0, size = 1;

 private:
  void decide(DecisionMessage& m, std::int64_t n);
  /// Coordinator: a trial with a budget is cut past it (master-worker only).
  void guard(RoleSetup& setup);
  void end_range(double t);
  /// Coordinator: the instance failed; its plan is closed as failed (its
  /// decision abandoned, the instance recorded as failed).
  void close_failed() noexcept;

  LoopRecord* loop_ = nullptr;
  CommResources* res_ = nullptr;
  LoopOptions options_;
  std::int64_t begin_ = 0, n_ = 0;
  TechniqueSpec spec_;
  TechniqueParams params_;
  TechniqueId ran_ = TechniqueId::static_;
  Protocol protocol_ = Protocol::master_worker;
  bool calibrate_ = false;  ///< the coordinator asked for CommResources::dispatch_queues() after this instance
  std::unique_ptr<Role> role_;
  RankClock clock_;
  double start_ = 0, finish_ = 0;
  double range_started_ = -1;  ///< MPI_Wtime when the last non-empty range was handed out
  double work_ = 0;
  std::int64_t own_iterations_ = 0, own_chunks_ = 0;
  bool failed_ = false;
  bool finished_ = false;
  std::string failure_;
};

void ExecutionState::decide(DecisionMessage& m, std::int64_t n) {
  LoopRecord& loop = *loop_;
  close_failed();    // an instance left without finish() (an exception between the calls) taught nothing
  session::start();  // the coordinator records every instance: the store, the traces, the selectors' logs
  if (loop.driver == nullptr) loop.driver = &drive::loop("mpi:" + loop.name);
  drive::OpenRequest request;
  request.n = n;
  request.p = size;
  request.schedule = options_.schedule;
  request.schedule_source = "mpi::LoopOptions::schedule";
  const std::string_view own_name = loop.name;  // AUTOSCHED_SCHEDULE_FOR=<name>:... names it as the program does
  request.aliases = {&own_name, 1};
  loop.plan = loop.driver->plan(request);
  loop.planned = true;
  spec_ = loop.plan.spec;
  if (loop.plan.ticket.owns && loop.plan.ticket.decision.profile) {
    // At least four blocks per rank: with 256 blocks on 200 ranks most
    // ranks would get one block and the profiling instance would run as
    // unbalanced as block static.
    const std::int64_t blocks = std::max<std::int64_t>(profile_blocks, std::int64_t{4} * size);
    spec_ = TechniqueSpec{TechniqueId::profiling, ceil_div(n, blocks), false, {}};
  }
  params_ = spec_.params;
  const std::int64_t chunk = spec_.chunk_for(n, size);
  const TechniqueSetup setup{spec_.technique, LoopShape{n, size, chunk}, &params_, 0};
  ran_ = prepare_dispenser(loop.dispenser, setup, loop.memory, loop.workspace).ran;
  m.ran = static_cast<std::int32_t>(ran_);
  const bool masterless = runs_without_master(loop.dispenser) && options_.protocol != Protocol::master_worker;
  m.protocol = masterless ? (std::holds_alternative<ChunkSequence>(loop.dispenser) ? run_rma : run_static)
                          : run_master_worker;
  // A profiling instance feeds auto's ranking, which needs to know whether
  // chunk requests queue at rank 0 (measured once per communicator).
  m.calibrate = spec_.technique == TechniqueId::profiling && options_.protocol != Protocol::master_worker &&
                !res_->queues_measured;
  std::visit(
      [&](auto& d) {
        if constexpr (requires { std::decay_t<decltype(d)>::timed; }) m.timed = std::decay_t<decltype(d)>::timed;
      },
      loop.dispenser);
  if (loop.memory.profile) {
    m.has_profile = 1;
    m.mu_ns = loop.memory.profile->mu_ns;
    m.sigma_ns = loop.memory.profile->sigma_ns;
    m.overhead_ns = loop.memory.profile->overhead_ns;
    m.samples = loop.memory.profile->samples;
  }
  set_text(m, spec_.text());
}

ExecutionState::ExecutionState(MPI_Comm user, std::int64_t begin, std::int64_t end, const LoopOptions& options)
    : options_(options) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    autosched::detail::throw_error("autosched::mpi: MPI is not initialized (call MPI_Init before the first MPI loop)");
  }
  res_ = &resources(user);
  MPI_Comm_rank(res_->comm, &rank);
  MPI_Comm_size(res_->comm, &size);
  const std::string_view name = options.name.empty() ? std::string_view("mpi-loop") : options.name;
  loop_ = &record(name);
  if (loop_->running) {
    autosched::detail::throw_error("autosched::mpi: loop '" + loop_->name +
                                   "' is already running on this rank (an instance must finish() before the next starts)");
  }
  std::string bounds_error;
  const std::int64_t n = checked_count(begin, end, "autosched::mpi", &bounds_error);

  DecisionMessage m;
  if (rank == 0) {
    m.begin = begin;
    m.end = end;
    if (n < 0) {
      m.error = 1;
      set_text(m, bounds_error);
    } else {
      if (res_->counter != MPI_WIN_NULL) res_->reset_counter();
      try {
        decide(m, n);
      } catch (const std::exception& e) {
        close_failed();  // a decision nobody carries out teaches nothing
        m.error = 1;
        set_text(m, e.what());
      }
    }
  }
  MPI_Bcast(&m, sizeof m, MPI_BYTE, 0, res_->comm);
  if (m.error) autosched::detail::throw_error(m.text);

  // Every rank plans with the coordinator's bounds; a rank called with other
  // bounds takes part as a failed rank, so that nobody hangs and finish() throws everywhere.
  begin_ = m.begin;
  n_ = checked_count(m.begin, m.end, "autosched::mpi", &bounds_error);
  if (rank != 0) {
    spec_ = parse_technique_spec(m.text, "the coordinator's decision");
    params_ = spec_.params;
    if (m.has_profile) loop_->memory.profile = Profile{m.mu_ns, m.sigma_ns, m.overhead_ns, m.samples};
  }
  calibrate_ = m.calibrate != 0;
  protocol_ = m.protocol == run_master_worker ? Protocol::master_worker
              : m.protocol == run_rma         ? Protocol::rma
                                              : Protocol::none;
  loop_->running = true;

  RoleSetup setup;
  setup.comm = res_->comm;
  setup.rank = rank;
  setup.size = size;
  setup.n = n_;
  setup.request_when = options.request_when;
  setup.break_after = options.break_after;
  setup.timed = m.timed != 0;
  start_ = MPI_Wtime();
  clock_.origin = start_;
  setup.clock = clock_;
  if (m.protocol == run_master_worker) {
    if (rank == 0) guard(setup);
    role_ = rank == 0 ? make_coordinator(setup, loop_->dispenser) : make_worker(setup);
  } else {
    if (rank != 0) {
      const std::int64_t chunk = spec_.chunk_for(n_, size);
      ran_ = prepare_dispenser(loop_->dispenser, {spec_.technique, LoopShape{n_, size, chunk}, &params_, 0},
                               loop_->memory, loop_->workspace)
                 .ran;
    }
    const MPI_Win counter = m.protocol == run_rma ? res_->rma_counter() : MPI_WIN_NULL;
    role_ = make_masterless(setup, loop_->dispenser, counter);
  }
  ran_ = static_cast<TechniqueId>(m.ran);
  if (begin != m.begin || end != m.end) {
    fail("rank " + std::to_string(rank) + " called the loop with bounds [" + std::to_string(begin) + ", " +
         std::to_string(end) + "), the coordinator with [" + std::to_string(m.begin) + ", " + std::to_string(m.end) +
         ")");
  }
}

void ExecutionState::guard(RoleSetup& setup) {
  LoopRecord& loop = *loop_;
  const Ticket& t = loop.plan.ticket;
  if (!t.owns || t.decision.budget_ns <= 0 || t.decision.fallback < 0) return;
  setup.deadline_ns = static_cast<std::int64_t>(t.decision.budget_ns);
  setup.fallback = [this](IndexRange rest) -> AnyDispenser& {
    LoopRecord& l = *loop_;
    const TechniqueSpec& arm = l.plan.ticket.fallback;
    l.fallback_params = arm.params;
    const std::int64_t chunk = arm.chunk_for(rest.size(), size);
    prepare_dispenser(l.fallback, {arm.technique, LoopShape{rest.size(), size, chunk}, &l.fallback_params, 0},
                      l.memory, l.fallback_workspace);
    return l.fallback;
  };
}

void ExecutionState::close_failed() noexcept {
  LoopRecord& loop = *loop_;
  if (!loop.planned) return;
  loop.planned = false;
  drive::PlanOutcome outcome;
  outcome.ran = ran_;
  outcome.failed = true;
  (void)loop.driver->close(loop.plan, outcome);
}

void ExecutionState::end_range(double t) {
  if (range_started_ >= 0) work_ += t - range_started_;
  range_started_ = -1;
}

IndexRange ExecutionState::next() {
  if (failed_ || finished_ || role_->done()) return {};
  end_range(MPI_Wtime());
  const IndexRange r = role_->next();
  const double t = MPI_Wtime();
  if (r.empty()) {
    finish_ = t;
    return {};
  }
  range_started_ = t;
  own_iterations_ += r.size();
  ++own_chunks_;
  return {begin_ + r.begin, begin_ + r.end};
}

void ExecutionState::fail(std::string message) {
  if (failed_ || finished_) return;
  end_range(MPI_Wtime());
  failed_ = true;
  failure_ = std::move(message);
  role_->fail();
  finish_ = MPI_Wtime();
}

LoopResult ExecutionState::finish() {
  if (finished_) autosched::detail::throw_error("autosched::mpi: finish() called twice for loop '" + loop_->name + "'");
  if (!failed_ && !role_->done()) {
    fail("finish() was called on rank " + std::to_string(rank) + " before next() returned an empty range");
  }
  finished_ = true;
  role_->drain();
  if (finish_ == 0) finish_ = MPI_Wtime();
  const bool cut = role_->cut();
  role_.reset();  // RMA: unlocks the window before anyone may reset it

  const double elapsed_ns = std::max(0.0, (finish_ - start_) * 1e9);
  Summary mine;
  mine.elapsed_max = elapsed_ns;
  mine.s1 = elapsed_ns;
  mine.s2 = elapsed_ns * elapsed_ns;
  mine.s3 = mine.s2 * elapsed_ns;
  mine.s4 = mine.s2 * mine.s2;
  mine.iterations = static_cast<double>(own_iterations_);
  if (failed_) mine.failed_rank = rank;
  Summary all;
  MPI_Allreduce(&mine, &all, summary_words, MPI_DOUBLE, summary_op(), res_->comm);
  if (protocol_ == Protocol::rma) res_->end_instance();
  loop_->running = false;

  LoopRecord& loop = *loop_;
  if (std::isfinite(all.failed_rank)) {
    if (rank == 0) close_failed();
    // The lowest failing rank tells everyone why.
    const int root = static_cast<int>(all.failed_rank);
    std::int64_t length = rank == root ? static_cast<std::int64_t>(failure_.size()) : 0;
    MPI_Bcast(&length, 1, MPI_INT64_T, root, res_->comm);
    std::string why(static_cast<std::size_t>(length), '\0');
    if (rank == root) why = failure_;
    MPI_Bcast(why.data(), static_cast<int>(length), MPI_CHAR, root, res_->comm);
    autosched::detail::throw_error("autosched::mpi: loop '" + loop.name + "' was aborted on every rank: rank " +
                                   std::to_string(root) + " failed: " + why);
  }

  // After a profiling instance, `auto` ranks its arms by simulation: the
  // simulator must know whether chunk requests queue at rank 0 (they do on
  // most MPIs: one counter, one coordinator). Measured once per communicator,
  // by every rank together.
  const CommResources::DispatchQueues queues =
      calibrate_ || res_->queues_measured ? res_->dispatch_queues() : CommResources::DispatchQueues{};

  const LoopMetrics metrics =
      metrics_from_power_sums(static_cast<double>(size), all.elapsed_max, all.s1, all.s2, all.s3, all.s4);
  LoopResult result;
  result.technique = std::string(technique_info(ran_).name);
  result.protocol = protocol_;
  result.loop_seconds = all.elapsed_max * 1e-9;
  result.iterations = static_cast<std::int64_t>(std::llround(all.iterations));
  result.own_iterations = own_iterations_;
  result.own_chunks = own_chunks_;
  result.own_work_seconds = work_;
  result.percent_imbalance = metrics.percent_imbalance;
  result.cut_short = cut;
  if (rank == 0) {
    if (ran_ == TechniqueId::profiling) loop.memory.cost.reset();
    // A cut trial saw part of the loop: it teaches the loop's memory nothing.
    if (!cut) close_dispenser(loop.dispenser, loop.memory);
    loop.fallback.emplace<std::monostate>();
    drive::PlanOutcome outcome;
    outcome.ran = ran_;
    outcome.chunk = spec_.chunk_for(n_, size);
    outcome.metrics = metrics;
    outcome.start_ns = static_cast<std::int64_t>(start_ * 1e9);
    outcome.cut = cut;
    if (ran_ == TechniqueId::profiling && loop.memory.cost) {
      loop.memory.cost->set_dispatch_queues(queues.counter_ns, queues.coordinator_ns);
      outcome.profile = &*loop.memory.cost;
    }
    if (loop.planned) {
      loop.planned = false;
      result.selection_seconds = loop.driver->close(loop.plan, outcome).selection_ns * 1e-9;
    }
  }
  return result;
}

}  // namespace detail

Execution::Execution(MPI_Comm comm, std::int64_t begin, std::int64_t end, const LoopOptions& options)
    : state_(std::make_unique<detail::ExecutionState>(comm, begin, end, options)) {}
Execution::~Execution() = default;
IndexRange Execution::next() { return state_->next(); }
void Execution::fail(std::string message) { state_->fail(std::move(message)); }
LoopResult Execution::finish() { return state_->finish(); }
int Execution::rank() const noexcept { return state_->rank; }
int Execution::size() const noexcept { return state_->size; }

}  // namespace autosched::mpi
