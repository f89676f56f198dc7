#include <autosched/drive/cursor.hpp>

#include <autosched/measure/clock.hpp>
#include <autosched/drive/loop.hpp>

#include <type_traits>
#include <utility>

namespace autosched::drive {

namespace {

template <class D>
constexpr bool is_dispenser = !std::is_same_v<std::decay_t<D>, std::monostate>;

/// Same as push mode (instance.cpp): an untimed guarded trial reads the clock
/// every this many chunks.
constexpr int guard_check_chunks = 8;

/// Dispensers whose workers ignore the start time they are given (worker()
/// and finished() do not read it).
template <class D>
constexpr bool ignores_worker_start = std::is_same_v<D, BlockStatic> || std::is_same_v<D, CyclicStatic> ||
                                      std::is_same_v<D, ChunkSequence> || std::is_same_v<D, StaticSteal> ||
                                      std::is_same_v<D, RandomChunks>;

/// The next chunk of `dispenser` for the worker whose state is in `worker`.
template <class Workers>
IndexRange next_of(AnyDispenser& dispenser, Workers& worker) noexcept {
  return std::visit(
      [&](auto& d) -> IndexRange {
        using D = std::decay_t<decltype(d)>;
        if constexpr (is_dispenser<D>) {
          return d.next(std::get<typename D::Worker>(worker));
        } else {
          return {};
        }
      },
      dispenser);
}

}  // namespace

Cursor::Cursor(Instance& instance, int tid) noexcept : instance_(&instance), tid_(tid) {
  guarded_ = instance.deadline_ns_ > 0;
  unit_base_ = instance.begin_;
  std::visit(
      [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (is_dispenser<D>) {
          timed_ = D::timed || instance.time_chunks_;
          // A worker's own start costs a clock read; only a technique that
          // times its workers needs it, the record can take the loop's.
          stats_.start_ns = timed_ || !ignores_worker_start<D> ? measure::now() : instance.start_ns_;
          instance.begin_worker(tid);
          auto& w = worker_.template emplace<typename D::Worker>(d.worker(tid, stats_.start_ns));
          if constexpr (std::is_same_v<D, BlockStatic>) {
            if (!timed_ && !guarded_) {
              block_ = std::exchange(w.block, IndexRange{});
              block_path_ = true;
            }
          }
        } else {
          stats_.start_ns = measure::now();
          instance.begin_worker(tid);
        }
      },
      instance.dispenser_);
  if (timed_) stats_.busy_ns = 0;
  until_check_ = guard_check_chunks;
  auto* seq = std::get_if<ChunkSequence>(&instance.dispenser_);
  if (seq != nullptr && seq->unit_chunks() && !timed_ && !guarded_) {
    unit_ = seq;
    unit_n_ = instance.n_;
  }
  // A guarded trial counts chunks towards its clock reads: general path only.
  auto* steal = std::get_if<StaticSteal>(&instance.dispenser_);
  if (steal != nullptr && !timed_ && !guarded_) steal_ = steal;
}

Cursor::~Cursor() { (void)leave(); }

void Cursor::complete_previous(std::int64_t done) noexcept {
  stats_.busy_ns += done - started_ns_;
  // The chunk came from the trial or, after a cut, from the fallback arm.
  auto& dispenser = on_fallback_ ? instance_->fallback_->dispenser : instance_->dispenser_;
  auto& worker = on_fallback_ ? fallback_worker_ : worker_;
  std::visit(
      [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (is_dispenser<D>) {
          if constexpr (D::timed) {
            d.completed(std::get<typename D::Worker>(worker), current_,
                        ChunkTiming{requested_ns_, started_ns_, done});
          }
        }
      },
      dispenser);
}

bool Cursor::past_deadline(std::int64_t now_if_timed) noexcept {
  if (timed_) return now_if_timed > instance_->deadline_ns_;
  if (--until_check_ > 0) return false;
  until_check_ = guard_check_chunks;
  return measure::now() > instance_->deadline_ns_;
}

bool Cursor::enter_fallback() noexcept {
  if (!instance_->fallback_ready()) return false;
  const std::int64_t t = measure::now();
  std::visit(
      [&](auto& f) {
        using F = std::decay_t<decltype(f)>;
        if constexpr (is_dispenser<F>) {
          fallback_worker_.template emplace<typename F::Worker>(f.worker(tid_, t));
          // As push mode's fallback: timed when its technique learns from chunk times.
          timed_ = F::timed || instance_->time_chunks_;
        }
      },
      instance_->fallback_->dispenser);
  if (timed_ && stats_.busy_ns < 0) stats_.busy_ns = 0;
  on_fallback_ = true;
  return true;
}

IndexRange Cursor::hand_out(IndexRange c, std::int64_t base, std::int64_t asked) noexcept {
  current_ = c;
  ++stats_.chunks;
  stats_.iterations += c.size();
  if (timed_) {
    requested_ns_ = asked;
    started_ns_ = measure::now();
  }
  return {base + c.begin, base + c.end};
}

IndexRange Cursor::next_block() noexcept {
  // Static hands out nothing shared: no dispenser call, only the cancel flag.
  const IndexRange c = std::exchange(block_, IndexRange{});
  if (c.empty() || instance_->cancelled()) return {};
  ++stats_.chunks;
  stats_.iterations += c.size();
  return {unit_base_ + c.begin, unit_base_ + c.end};
}

IndexRange Cursor::next_general() noexcept {
  if (left_) return {};
  if (block_path_) return next_block();
  const std::int64_t asked = timed_ ? measure::now() : 0;
  if (timed_ && !current_.empty()) complete_previous(asked);
  current_ = {};
  if (instance_->cancelled()) return {};
  if (!on_fallback_) {
    if (guarded_ && past_deadline(asked)) instance_->cut_trial();  // the first to notice cuts
    const IndexRange c = next_of(instance_->dispenser_, worker_);
    if (!c.empty()) return hand_out(c, instance_->begin_, asked);
    // The trial is done, or was cut: a guarded instance goes on with the rest.
    if (!guarded_ || !enter_fallback()) return {};
  }
  const IndexRange c = next_of(instance_->fallback_->dispenser, fallback_worker_);
  if (c.empty()) return {};
  return hand_out(c, instance_->begin_ + instance_->fallback_begin_, timed_ ? measure::now() : 0);
}

std::exception_ptr Cursor::leave() noexcept {
  if (left_) return nullptr;
  left_ = true;
  unit_ = nullptr;
  steal_ = nullptr;
  block_ = {};
  const std::int64_t done = measure::now();
  if (timed_ && !current_.empty()) complete_previous(done);
  current_ = {};
  stats_.finish_ns = done;
  std::visit(
      [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (is_dispenser<D>) {
          if constexpr (requires { d.finished(std::get<typename D::Worker>(worker_), done); }) {
            d.finished(std::get<typename D::Worker>(worker_), done);
          }
        }
      },
      instance_->dispenser_);
  // The last worker closes the instance and pools it: it must not be used after.
  std::exception_ptr error;
  instance_->finish_worker(tid_, stats_, error);
  return error;
}

}  // namespace autosched::drive
