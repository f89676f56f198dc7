// The master-worker protocol (docs/mpi.md; DLS4LB's protocol with the
// defects of its published code avoided): the coordinator hands
// out every chunk from the technique's own dispenser, one Worker per rank,
// and computes too; workers ask for their next chunk before their current
// one ends, so the answer travels while they finish it.

#include <autosched/mpi/detail/protocol.hpp>
#include <autosched/mpi/detail/roles.hpp>

#include <algorithm>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace autosched::mpi::detail {

namespace {

void send_chunk(MPI_Comm comm, int to, IndexRange c) {
  const std::int64_t bounds[2] = {c.begin, c.end};
  MPI_Send(bounds, 2, MPI_INT64_T, to, tag_work, comm);
}

void send_empty(MPI_Comm comm, int to, int tag) { MPI_Send(nullptr, 0, MPI_INT64_T, to, tag, comm); }

/// The coordinator (rank 0): its own chunks in pieces of break_after
/// iterations, serving the workers' reports between pieces.
template <class D>
class Coordinator final : public Role {
 public:
  Coordinator(const RoleSetup& s, D& d)
      : s_(s), d_(d), left_(static_cast<std::size_t>(s.size), false), guarded_(s.deadline_ns > 0 && s.fallback) {
    workers_.reserve(static_cast<std::size_t>(s.size));
    for (int i = 0; i < s.size; ++i) workers_.push_back(d_.worker(i, 0));
    active_ = s.size - 1;
    // Every worker's first chunk is pushed: nobody waits for a round trip to start.
    for (int w = 1; w < s.size; ++w) answer(w);
  }

  IndexRange next() override {
    const std::int64_t t = s_.clock.now_ns();
    if (!piece_.empty() && own_.empty()) finish_own_chunk(t);  // the last piece of a chunk has run
    for (;;) {
      if (own_.empty()) {
        serve_waiting();
      } else {  // inside its own chunk: the time spent serving is not the chunk's
        const std::int64_t before = s_.clock.now_ns();
        serve_waiting();
        serving_ns_ += s_.clock.now_ns() - before;
      }
      if (!own_.empty()) return take_piece();
      if (!own_done_) {
        const IndexRange c = next_for(0);
        if (!c.empty()) {
          own_ = c;
          chunk_ = c;
          chunk_ready_ns_ = s_.clock.now_ns();
          chunk_started_ns_ = chunk_ready_ns_;
          serving_ns_ = 0;
          const std::int64_t per_rank = (c.size() + s_.size - 1) / s_.size;
          break_ = s_.break_after > 0 ? s_.break_after : std::max<std::int64_t>(1, per_rank / 4);
          continue;
        }
        leave_own();
      }
      return {};  // the workers still running are served in drain()
    }
  }

  void fail() override {
    aborted_ = true;
    own_ = {};
    piece_ = {};
    if (!own_done_) leave_own();
  }

  void drain() override {
    while (active_ > 0) serve_one(true);
  }

  [[nodiscard]] bool done() const noexcept override { return own_done_; }
  [[nodiscard]] bool cut() const noexcept override { return cut_; }

 private:
  IndexRange take_piece() {
    piece_ = {own_.begin, std::min(own_.end, own_.begin + break_)};
    own_.begin = piece_.end;
    return piece_;
  }

  void finish_own_chunk(std::int64_t t) {
    // Timed without the requests served between its pieces (with 200 ranks
    // they can double a chunk's time): a profile would otherwise take its
    // iterations for costly ones, and an adaptive technique rank 0 for a
    // slow worker. Serving is rank 0's role; the workers' waits measure it.
    const std::int64_t served = std::min(serving_ns_, std::max<std::int64_t>(0, t - chunk_started_ns_));
    completed(0, chunk_, ChunkTiming{chunk_ready_ns_ + served, chunk_started_ns_ + served, t});
    piece_ = {};
  }

  void leave_own() {
    own_done_ = true;
    if constexpr (requires { d_.finished(workers_[0], std::int64_t{}); }) d_.finished(workers_[0], s_.clock.now_ns());
  }

  /// Answers worker `w`'s request: its next chunk, or the end.
  void answer(int w) {
    const IndexRange c = next_for(w);
    if (!c.empty()) {
      send_chunk(s_.comm, w, c);
      return;
    }
    send_empty(s_.comm, w, tag_end);
    // A timed technique still wants the worker's last chunk: it leaves with `done`.
    if (!s_.timed) leave(w, s_.clock.now_ns());
  }

  void leave(int w, std::int64_t t) {
    const auto i = static_cast<std::size_t>(w);
    if (left_[i]) return;
    left_[i] = true;
    --active_;
    if constexpr (requires { d_.finished(workers_[0], std::int64_t{}); }) d_.finished(workers_[i], t);
  }

  /// Rank w's next chunk: the trial's or, once it was cut, the fallback's.
  /// After a cut the trial still hands out what a worker had already claimed
  /// (AF and mAF claim a chunk and serve it in sub-chunks): take_rest() gave
  /// the fallback only the unclaimed rest, as at the thread level. The trial
  /// is asked until it first answers empty for that rank, then never again:
  /// each question after the cut moves its stopped counter further up.
  IndexRange next_for(int w) {
    if (aborted_) return {};
    if (!cut_ && guarded_ && s_.clock.now_ns() > s_.deadline_ns) cut_trial();
    const auto i = static_cast<std::size_t>(w);
    if (!cut_ || !trial_drained_[i]) {
      const IndexRange c = d_.next(workers_[i]);
      if (!c.empty() || !cut_) return c;
      trial_drained_[i] = true;
    }
    return std::visit(
        [&](auto& f) -> IndexRange {
          using F = std::decay_t<decltype(f)>;
          if constexpr (std::is_same_v<F, std::monostate>) {
            return {};
          } else {
            const IndexRange c = f.next(std::get<typename F::Worker>(fallback_workers_[static_cast<std::size_t>(w)]));
            return c.empty() ? c : IndexRange{fallback_begin_ + c.begin, fallback_begin_ + c.end};
          }
        },
        *fallback_);
  }

  /// Past the deadline: the unclaimed rest goes to the fallback. A trial
  /// that cannot give its rest back (static, static-steal) runs to its end.
  void cut_trial() {
    guarded_ = false;  // decided once
    IndexRange rest;
    if constexpr (requires { d_.take_rest(); }) rest = d_.take_rest();
    if (rest.empty()) return;
    fallback_ = &s_.fallback(rest);
    fallback_begin_ = rest.begin;
    const std::int64_t t = s_.clock.now_ns();
    fallback_workers_.assign(static_cast<std::size_t>(s_.size), AnyWorker{});
    trial_drained_.assign(static_cast<std::size_t>(s_.size), false);
    std::visit(
        [&](auto& f) {
          using F = std::decay_t<decltype(f)>;
          if constexpr (!std::is_same_v<F, std::monostate>) {
            for (int i = 0; i < s_.size; ++i) {
              fallback_workers_[static_cast<std::size_t>(i)].template emplace<typename F::Worker>(f.worker(i, t));
            }
          }
        },
        *fallback_);
    cut_ = true;
  }

  /// Rank w's chunk c has run: its times go to whichever dispenser handed it
  /// out, if that one learns from them. The trial's chunks that finish after
  /// a cut teach nothing (its memory is not kept).
  void completed(int w, IndexRange c, ChunkTiming timing) {
    const auto i = static_cast<std::size_t>(w);
    if (!cut_) {
      if constexpr (D::timed) d_.completed(workers_[i], c, timing);
      return;
    }
    if (c.begin < fallback_begin_) return;
    std::visit(
        [&](auto& f) {
          using F = std::decay_t<decltype(f)>;
          if constexpr (!std::is_same_v<F, std::monostate>) {
            if constexpr (F::timed) {
              f.completed(std::get<typename F::Worker>(fallback_workers_[i]),
                          {c.begin - fallback_begin_, c.end - fallback_begin_}, timing);
            }
          }
        },
        *fallback_);
  }

  void serve_waiting() {
    while (active_ > 0 && serve_one(false)) {
    }
  }

  /// Handles one report; `wait`: block until one arrives. False when none was waiting.
  bool serve_one(bool wait) {
    MPI_Status st;
    if (!wait) {
      int flag = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, tag_report, s_.comm, &flag, &st);
      if (!flag) return false;
    }
    WorkerReport r;
    MPI_Recv(&r, report_words, MPI_INT64_T, wait ? MPI_ANY_SOURCE : st.MPI_SOURCE, tag_report, s_.comm, &st);
    const int w = st.MPI_SOURCE;
    if (r.end > r.begin && r.kind != WorkerReport::failed) {
      completed(w, {r.begin, r.end}, ChunkTiming{r.ready_ns, r.started_ns, r.finished_ns});
    }
    switch (r.kind) {
      case WorkerReport::request:
        answer(w);
        break;
      case WorkerReport::done:
        leave(w, r.finished_ns);
        break;
      default:  // failed
        aborted_ = true;
        send_empty(s_.comm, w, tag_fail_ack);
        leave(w, s_.clock.now_ns());
        break;
    }
    return true;
  }

  RoleSetup s_;
  D& d_;
  std::vector<typename D::Worker> workers_;
  std::vector<bool> left_;
  int active_ = 0;  ///< workers that have not left
  bool aborted_ = false;
  bool own_done_ = false;
  IndexRange own_{};    ///< what is left of the coordinator's current chunk
  IndexRange chunk_{};  ///< the coordinator's current chunk, whole
  IndexRange piece_{};  ///< the piece last returned
  std::int64_t break_ = 1;
  std::int64_t chunk_ready_ns_ = 0, chunk_started_ns_ = 0;
  std::int64_t serving_ns_ = 0;  ///< spent serving workers since the current own chunk began
  // Guard (RoleSetup::deadline_ns): after a cut, chunks come from *fallback_,
  // shifted by fallback_begin_ (where the trial's unclaimed rest began).
  bool guarded_ = false;
  bool cut_ = false;
  AnyDispenser* fallback_ = nullptr;
  std::vector<AnyWorker> fallback_workers_;
  std::vector<bool> trial_drained_;  ///< after a cut: the trial has nothing left for this rank
  std::int64_t fallback_begin_ = 0;
};

/// A worker rank: runs each chunk in two pieces, sending its next request
/// between them (when request_when iterations are left). The request goes
/// out with MPI_Isend and the receive for its answer is posted at once, so
/// neither side waits for the other: MPI may complete a plain MPI_Send only
/// when the receiver has posted its receive (SimGrid SMPI does so for every
/// message by default), and then a worker would stop mid-chunk until the
/// coordinator reached a pause, and the coordinator's answer would wait for
/// the end of the worker's chunk: the overlap would be lost.
class Worker final : public Role {
 public:
  explicit Worker(const RoleSetup& s) : s_(s) { receive(); }  // the pushed first chunk
  ~Worker() override {
    if (answer_ != MPI_REQUEST_NULL) {  // left through an error path: the answer is not wanted
      MPI_Cancel(&answer_);
      MPI_Wait(&answer_, MPI_STATUS_IGNORE);
    }
    complete_send();
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  IndexRange next() override {
    const std::int64_t t = s_.clock.now_ns();
    if (in_chunk_ && rest_.empty()) {  // the current chunk has run: keep its times for the next report
      last_ = WorkerReport{.kind = WorkerReport::request, .begin = chunk_.begin, .end = chunk_.end,
                           .ready_ns = chunk_ready_ns_, .started_ns = chunk_started_ns_, .finished_ns = t};
      in_chunk_ = false;
      finished_at_ = t;
    }
    for (;;) {
      if (!rest_.empty()) return take_piece(t);
      if (ended_) {
        if (s_.timed && !left_) send_report(WorkerReport::done);
        complete_send();
        left_ = true;
        return {};
      }
      if (!asked_) send_report(WorkerReport::request);
      receive();
    }
  }

  void fail() override {
    rest_ = {};
    in_chunk_ = false;
    if (left_) return;
    // Collect the answer already on its way (a chunk to drop, or the end):
    // after it the coordinator owes this rank nothing.
    if (asked_) {
      receive();
      rest_ = {};
    }
    if (ended_ && !s_.timed) {  // the coordinator has counted this rank out already
      complete_send();
      left_ = true;
      return;
    }
    send_report(WorkerReport::failed);
    MPI_Recv(nullptr, 0, MPI_INT64_T, 0, tag_fail_ack, s_.comm, MPI_STATUS_IGNORE);
    complete_send();
    left_ = true;
  }

  [[nodiscard]] bool done() const noexcept override { return left_; }

 private:
  IndexRange take_piece(std::int64_t t) {
    if (!in_chunk_) {
      in_chunk_ = true;
      chunk_started_ns_ = t;
      chunk_ready_ns_ = std::max(asked_ns_, finished_at_);
    }
    const std::int64_t rw = s_.request_when > 0 ? s_.request_when
                                                : std::max<std::int64_t>(1, (chunk_.end - chunk_.begin) * 15 / 100);
    IndexRange piece = rest_;
    if (!asked_ && !ended_) {
      if (rest_.size() > rw) {
        piece.end = rest_.end - rw;  // run up to the request point first
      } else {
        send_report(WorkerReport::request);
      }
    }
    rest_.begin = piece.end;
    return piece;
  }

  void send_report(WorkerReport::Kind kind) {
    complete_send();  // the buffer of the last report is free again
    outgoing_ = last_;
    outgoing_.kind = kind;
    MPI_Isend(&outgoing_, report_words, MPI_INT64_T, 0, tag_report, s_.comm, &sent_);
    last_ = {};
    if (kind == WorkerReport::request) {
      asked_ = true;
      asked_ns_ = s_.clock.now_ns();
      MPI_Irecv(bounds_, 2, MPI_INT64_T, 0, MPI_ANY_TAG, s_.comm, &answer_);
    }
  }

  void complete_send() {
    if (sent_ != MPI_REQUEST_NULL) MPI_Wait(&sent_, MPI_STATUS_IGNORE);
  }

  /// Blocks for the coordinator's answer (posted with the request, or the
  /// first chunk pushed at the start): a chunk or the end.
  void receive() {
    MPI_Status st;
    if (answer_ != MPI_REQUEST_NULL) {
      MPI_Wait(&answer_, &st);
    } else {
      MPI_Recv(bounds_, 2, MPI_INT64_T, 0, MPI_ANY_TAG, s_.comm, &st);
    }
    asked_ = false;
    if (st.MPI_TAG == tag_work) {
      chunk_ = {bounds_[0], bounds_[1]};
      rest_ = chunk_;
    } else {
      ended_ = true;
    }
  }

  RoleSetup s_;
  IndexRange chunk_{}, rest_{};
  bool in_chunk_ = false;
  bool asked_ = false;  ///< a request is on its way; its answer not yet received
  bool ended_ = false;  ///< the coordinator said there is no more work
  bool left_ = false;   ///< this rank's part of the protocol is over
  std::int64_t asked_ns_ = 0, finished_at_ = 0;
  std::int64_t chunk_ready_ns_ = 0, chunk_started_ns_ = 0;
  WorkerReport last_{};
  WorkerReport outgoing_{};  ///< the report in flight (MPI_Isend's buffer)
  MPI_Request sent_ = MPI_REQUEST_NULL;
  std::int64_t bounds_[2] = {0, 0};  ///< the answer's buffer
  MPI_Request answer_ = MPI_REQUEST_NULL;
};

}  // namespace

std::unique_ptr<Role> make_coordinator(const RoleSetup& setup, AnyDispenser& d) {
  return std::visit(
      [&](auto& dispenser) -> std::unique_ptr<Role> {
        using D = std::decay_t<decltype(dispenser)>;
        if constexpr (std::is_same_v<D, std::monostate>) {
          return nullptr;
        } else {
          return std::make_unique<Coordinator<D>>(setup, dispenser);
        }
      },
      d);
}

std::unique_ptr<Role> make_worker(const RoleSetup& setup) { return std::make_unique<Worker>(setup); }

}  // namespace autosched::mpi::detail
