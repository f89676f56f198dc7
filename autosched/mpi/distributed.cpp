// Distributed data with random work stealing (DLS4LB, the LB4MPI thesis).
//
// Each rank holds one pool at a time: [head, tail) of a range whose data's
// home is some rank (its own block first, later a stolen range). It runs the
// pool in chunks of the local technique, prepared as if for one worker over
// the pool (the thread runtime's dispensers, one implementation), and runs
// each chunk in pieces of poll_every iterations: between pieces it answers
// steal requests. At P = 1 many techniques hand out the whole pool as one
// chunk (static, GSS), so the pieces, not the chunks, bound how long a thief
// waits for an answer. A victim gives floor(ratio × (tail − head))
// iterations from the tail; the chunk being run is clipped to the new tail.
//
// Termination: whenever a rank's pool runs dry it reports the iterations it
// ran since its last report to the coordinator; the coordinator sends END
// when the reports add up to N (no token ring: N is known). A failure sends
// END too, flagged as an abort. After END, messages may still be in flight
// (a steal request to a rank that ended, results on their way home): each
// rank counts what it sent to whom, one MPI_Reduce_scatter_block tells every
// rank how many it must receive, and a thief with a request out waits for
// its answer. Then the one MPI_Allreduce of the instance.

#include <autosched/mpi/distributed_for.hpp>

#include <autosched/core/error.hpp>
#include <autosched/measure/metrics.hpp>
#include <autosched/mpi/detail/comm_resources.hpp>
#include <autosched/mpi/detail/distributed_state.hpp>
#include <autosched/mpi/detail/max_sum_min_op.hpp>
#include <autosched/mpi/detail/run_ranges.hpp>
#include <autosched/techniques/any_dispenser.hpp>
#include <autosched/techniques/technique_spec.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <random>
#include <thread>
#include <type_traits>

namespace autosched::mpi {

namespace detail {

namespace {

/// The coordinator's steal-ratio selectors, one per loop name.
StealRatioSelector& ratio_selector(std::string_view name) {
  static std::map<std::string, std::unique_ptr<StealRatioSelector>, std::less<>> selectors;
  auto it = selectors.find(name);
  if (it == selectors.end()) it = selectors.emplace(std::string(name), std::make_unique<StealRatioSelector>()).first;
  return *it->second;
}

void set_text(Plan& m, const std::string& s) {
  const std::size_t len = std::min(s.size(), sizeof(m.text) - 1);
  std::memcpy(m.text, s.data(), len);
  m.text[len] = '\0';
}

/// The one reduction: max, sums and min in one buffer.
constexpr int summary_words = 11;
/// Loop time and last work by maximum, the counts by sum, the lowest failing rank by minimum.
MPI_Op summary_op() { return detail::max_sum_min_op<2, 8, 1>(); }


std::string blocks_error(std::span<const std::int64_t> b, std::int64_t begin, std::int64_t end, int size) {
  const std::string head = "autosched::mpi::distributed_for: DistributedOptions::blocks";
  if (static_cast<int>(b.size()) != size + 1) {
    return head + " has " + std::to_string(b.size()) + " boundaries, expected P + 1 = " + std::to_string(size + 1);
  }
  if (b.front() != begin || b.back() != std::max(begin, end)) {
    return head + " runs from " + std::to_string(b.front()) + " to " + std::to_string(b.back()) +
           ", expected the loop's bounds " + std::to_string(begin) + " and " + std::to_string(end);
  }
  for (std::size_t i = 1; i < b.size(); ++i) {
    if (b[i] < b[i - 1]) return head + " decreases at boundary " + std::to_string(i);
  }
  return {};
}

}  // namespace

DistributedState::DistributedState(MPI_Comm user, std::int64_t begin, std::int64_t end, const DistributedOptions& options)
    : options_(options) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    autosched::detail::throw_error("autosched::mpi: MPI is not initialized (call MPI_Init before the first MPI loop)");
  }
  comm_ = resources(user).comm;
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  name_ = options.name.empty() ? std::string("mpi-distributed") : std::string(options.name);

  std::string error;
  const std::int64_t n = checked_count(begin, end, "autosched::mpi::distributed_for", &error);
  std::vector<std::byte> buffer(sizeof(Plan) + static_cast<std::size_t>(size_ + 1) * sizeof(std::int64_t));
  std::vector<std::int64_t> blocks(static_cast<std::size_t>(size_ + 1), 0);
  if (rank_ == coordinator) {
    static std::uint64_t instances = 0;
    Plan m;
    m.begin = begin;
    m.end = end;
    m.instance = instances++;
    try {
      if (n < 0) autosched::detail::throw_error(error);
      if (!options.blocks.empty()) {
        if (std::string e = blocks_error(options.blocks, begin, end, size_); !e.empty()) autosched::detail::throw_error(e);
        std::copy(options.blocks.begin(), options.blocks.end(), blocks.begin());
      } else {
        for (int r = 0; r <= size_; ++r) {
          blocks[static_cast<std::size_t>(r)] = begin + static_cast<std::int64_t>(static_cast<int128>(n) * r / size_);
        }
      }
      const std::string_view text = options.schedule.empty() ? std::string_view("fac2") : options.schedule;
      if (text.substr(0, 4) == "auto") {
        autosched::detail::throw_error("autosched::mpi::distributed_for: schedule '" + std::string(text) +
                                       "': expected a fixed local technique (selection runs over the steal ratio only)");
      }
      const TechniqueSpec spec = parse_technique_spec(text, "mpi::DistributedOptions::schedule");
      ratio_ = options.steal_ratio;
      if (ratio_ == StealRatio::automatic) {
        const double t0 = MPI_Wtime();
        ratio_ = ratio_selector(name_).choose();
        selection_ns_ += (MPI_Wtime() - t0) * 1e9;
      }
      m.ratio = static_cast<std::int32_t>(ratio_);
      set_text(m, spec.text());
    } catch (const std::exception& e) {
      m.error = 1;
      set_text(m, e.what());
    }
    std::memcpy(buffer.data(), &m, sizeof m);
    std::memcpy(buffer.data() + sizeof m, blocks.data(), blocks.size() * sizeof(std::int64_t));
  }
  MPI_Bcast(buffer.data(), static_cast<int>(buffer.size()), MPI_BYTE, coordinator, comm_);
  Plan m;
  std::memcpy(&m, buffer.data(), sizeof m);
  if (m.error) autosched::detail::throw_error(m.text);
  std::memcpy(blocks.data(), buffer.data() + sizeof m, blocks.size() * sizeof(std::int64_t));

  begin_ = m.begin;
  n_ = checked_count(m.begin, m.end, "autosched::mpi::distributed_for", &error);
  ratio_ = static_cast<StealRatio>(m.ratio);
  ratio_value_ = steal_ratio_value(ratio_);
  spec_ = parse_technique_spec(m.text, "the coordinator's decision");
  params_ = spec_.params;
  block_ = {blocks[static_cast<std::size_t>(rank_)], blocks[static_cast<std::size_t>(rank_) + 1]};
  rng_.seed(options.seed ^ (m.instance * 0x9E3779B97F4A7C15ULL) ^ (static_cast<std::uint64_t>(rank_) << 32));
  sent_.assign(static_cast<std::size_t>(size_), 0);
  empty_.assign(static_cast<std::size_t>(size_), 0);
  if (options_.min_steal < 1) options_.min_steal = 1;
  start_ = MPI_Wtime();
  last_work_ = start_;

  // Disagreements make this rank fail, so that every rank throws in finish().
  if (begin != m.begin || end != m.end) {
    mark_failed("rank " + std::to_string(rank_) + " called the loop with bounds [" + std::to_string(begin) + ", " +
                std::to_string(end) + "), the coordinator with [" + std::to_string(m.begin) + ", " +
                std::to_string(m.end) + ")");
  } else if (!options.blocks.empty() &&
             !std::equal(options.blocks.begin(), options.blocks.end(), blocks.begin(), blocks.end())) {
    mark_failed("rank " + std::to_string(rank_) + " was given other block boundaries than the coordinator");
  } else {
    open_pool({block_.begin - begin_, block_.end - begin_}, rank_, false);
  }
  if (rank_ == coordinator) coordinator_check();  // N = 0: nothing to wait for
}

void DistributedState::open_pool(IndexRange r, int home, bool stolen) {
  pool_ = r;
  head_ = r.begin;
  tail_ = r.end;
  home_ = home;
  stolen_ = stolen;
  chunk_ = {};
  chunker_.reset();
  if (r.empty()) return;
  const std::int64_t n = r.size();
  piece_ = options_.poll_every > 0 ? options_.poll_every : std::max<std::int64_t>(1, (n + 63) / 64);
  const std::int64_t chunk = spec_.expert_chunk ? std::max<std::int64_t>(1, n / 64) : spec_.chunk;
  ran_ = prepare_dispenser(dispenser_, {spec_.technique, LoopShape{n, 1, chunk}, &params_, now_ns()}, memory_,
                           workspace_)
             .ran;
  const std::int64_t t = now_ns();
  chunker_ = std::visit(
      [t](auto& d) -> std::unique_ptr<LocalChunker> {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, std::monostate>) {
          return nullptr;
        } else {
          return std::make_unique<Chunker<D>>(d, t);
        }
      },
      dispenser_);
  if (!chunker_) autosched::detail::throw_error("autosched::mpi::distributed_for: no dispenser for " + spec_.text());
}

IndexRange DistributedState::take_piece() {
  while (head_ < tail_) {
    const std::int64_t chunk_end = std::min(chunk_.end, tail_);
    if (head_ < chunk_end) {
      const IndexRange p{head_, std::min(chunk_end, head_ + piece_)};
      head_ = p.end;
      return p;
    }
    const IndexRange c = chunker_->next(now_ns());
    if (c.empty()) break;
    chunk_ = {pool_.begin + c.begin, pool_.begin + c.end};
    // One worker takes its chunks in order; a gap would lose iterations.
    if (chunk_.begin != head_) {
      autosched::detail::throw_error("autosched::mpi::distributed_for: technique " + spec_.text() +
                                     " handed out a chunk out of order");
    }
  }
  head_ = tail_;
  return {};
}

void DistributedState::close_pool() {
  if (pool_.empty()) return;
  const IndexRange ran{pool_.begin, tail_};  // what this rank ran of the pool: the tail went to thieves
  if (stolen_ && !ran.empty() && options_.data.pack_results && !aborted_ && !failed_) {
    const IndexRange absolute{begin_ + ran.begin, begin_ + ran.end};
    std::vector<std::byte> bytes = options_.data.pack_results(absolute);
    if (home_ == rank_) {
      if (options_.data.unpack_results) options_.data.unpack_results(absolute, bytes);
    } else {
      send(home_, tag_results, header_bytes({absolute.begin, absolute.end}, std::move(bytes)), true);
    }
  }
  pool_ = {};
  head_ = tail_ = 0;
  chunker_.reset();
}

IndexRange DistributedState::next() {
  if (finished_) return {};
  if (!running_.empty()) {
    unreported_ += running_.size();
    own_iterations_ += running_.size();
    last_work_ = MPI_Wtime();
    running_ = {};
  }
  for (;;) {
    while (handle(false)) {
    }
    if (ended_ || failed_) {
      if (!ended_) return {};  // finish() waits for END
      close_pool();
      return {};
    }
    if (!pool_.empty()) {
      const IndexRange p = take_piece();
      if (!p.empty()) {
        running_ = p;
        return {begin_ + p.begin, begin_ + p.end};
      }
      close_pool();  // results home first, then the report that counts them as run
      report(std::exchange(unreported_, 0));
      continue;
    }
    if (size_ == 1) {  // nobody to steal from; the report above ended the loop
      if (!ended_) autosched::detail::throw_error("autosched::mpi::distributed_for: lost iterations on one rank");
      continue;
    }
    steal_step();
  }
}

void DistributedState::fail(std::string message) {
  if (failed_ || finished_) return;
  running_ = {};
  mark_failed(std::move(message));
}

DistributedResult DistributedState::finish() {
  if (finished_) autosched::detail::throw_error("autosched::mpi: finish() called twice for loop '" + name_ + "'");
  if (!failed_ && !ended_) {
    mark_failed("finish() was called on rank " + std::to_string(rank_) + " before next() returned an empty range");
  }
  finished_ = true;
  while (!ended_) handle(true);
  close_pool();
  // What is still in flight: every counted message is received, every request answered.
  std::int64_t expected = 0;
  MPI_Reduce_scatter_block(sent_.data(), &expected, 1, MPI_INT64_T, MPI_SUM, comm_);
  while (received_ < expected || outstanding_ >= 0) handle(true);
  for (auto& s : sends_) MPI_Wait(&s.first, MPI_STATUS_IGNORE);
  sends_.clear();

  const double elapsed = std::max(0.0, (end_time_ - start_) * 1e9);
  const double work = std::max(0.0, (last_work_ - start_) * 1e9);
  double mine[summary_words] = {elapsed,
                                work,
                                work,
                                work * work,
                                work * work * work,
                                work * work * work * work,
                                static_cast<double>(own_iterations_),
                                static_cast<double>(own_steals_),
                                static_cast<double>(own_stolen_),
                                0,
                                failed_ ? static_cast<double>(rank_) : std::numeric_limits<double>::infinity()};
  double all[summary_words];
  MPI_Allreduce(mine, all, summary_words, MPI_DOUBLE, summary_op(), comm_);

  if (std::isfinite(all[10])) {
    const int root = static_cast<int>(all[10]);
    std::int64_t length = rank_ == root ? static_cast<std::int64_t>(failure_.size()) : 0;
    MPI_Bcast(&length, 1, MPI_INT64_T, root, comm_);
    std::string why(static_cast<std::size_t>(length), '\0');
    if (rank_ == root) why = failure_;
    MPI_Bcast(why.data(), static_cast<int>(length), MPI_CHAR, root, comm_);
    autosched::detail::throw_error("autosched::mpi: loop '" + name_ + "' was aborted on every rank: rank " +
                                   std::to_string(root) + " failed: " + why);
  }
  const LoopMetrics metrics = metrics_from_power_sums(static_cast<double>(size_), all[1], all[2], all[3], all[4], all[5]);
  DistributedResult r;
  r.technique = std::string(technique_info(ran_).name);
  r.steal_ratio = ratio_;
  r.loop_seconds = all[0] * 1e-9;
  r.iterations = std::llround(all[6]);
  r.steals = std::llround(all[7]);
  r.stolen_iterations = std::llround(all[8]);
  r.own_block = block_;
  r.own_iterations = own_iterations_;
  r.own_steals = own_steals_;
  r.own_given = own_given_;
  r.own_requests = own_requests_;
  r.percent_imbalance = metrics.percent_imbalance;
  if (rank_ == coordinator && options_.steal_ratio == StealRatio::automatic) {
    const double t0 = MPI_Wtime();
    ratio_selector(name_).observe(ratio_, all[0]);
    selection_ns_ += (MPI_Wtime() - t0) * 1e9;
  }
  r.selection_seconds = selection_ns_ * 1e-9;
  return r;
}

}  // namespace detail

DistributedExecution::DistributedExecution(MPI_Comm comm, std::int64_t begin, std::int64_t end,
                                           const DistributedOptions& options)
    : state_(std::make_unique<detail::DistributedState>(comm, begin, end, options)) {}
DistributedExecution::~DistributedExecution() = default;
IndexRange DistributedExecution::next() { return state_->next(); }
void DistributedExecution::fail(std::string message) { state_->fail(std::move(message)); }
DistributedResult DistributedExecution::finish() { return state_->finish(); }

}  // namespace autosched::mpi
