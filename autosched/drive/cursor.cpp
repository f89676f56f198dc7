#include <autosched/drive/cursor.hpp>

#include <autosched/drive/clock.hpp>
#include <autosched/drive/loop.hpp>

#include <type_traits>

namespace autosched::drive {

namespace {

template <class D>
constexpr bool is_dispenser = !std::is_same_v<std::decay_t<D>, std::monostate>;

}  // namespace

Cursor::Cursor(Instance& instance, int tid) noexcept : instance_(&instance), tid_(tid) {
  stats_.start_ns = now();
  instance.begin_worker(tid);
  std::visit(
      [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (is_dispenser<D>) {
          worker_.template emplace<typename D::Worker>(d.worker(tid, stats_.start_ns));
          timed_ = D::timed || instance.time_chunks_;
        }
      },
      instance.dispenser_);
  if (timed_) stats_.busy_ns = 0;
  if (auto* seq = std::get_if<ChunkSequence>(&instance.dispenser_); seq != nullptr && seq->unit_chunks() && !timed_) {
    unit_ = seq;
    unit_n_ = instance.n_;
    unit_base_ = instance.begin_;
  }
}

Cursor::~Cursor() { (void)leave(); }

void Cursor::complete_previous(std::int64_t done) noexcept {
  stats_.busy_ns += done - started_ns_;
  std::visit(
      [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (is_dispenser<D>) {
          if constexpr (D::timed) {
            d.completed(std::get<typename D::Worker>(worker_), current_,
                        ChunkTiming{requested_ns_, started_ns_, done});
          }
        }
      },
      instance_->dispenser_);
}

IndexRange Cursor::next_general() noexcept {
  if (left_) return {};
  const std::int64_t asked = timed_ ? now() : 0;
  if (timed_ && !current_.empty()) complete_previous(asked);
  current_ = {};
  if (instance_->cancelled()) return {};
  const IndexRange c = std::visit(
      [&](auto& d) -> IndexRange {
        using D = std::decay_t<decltype(d)>;
        if constexpr (is_dispenser<D>) {
          return d.next(std::get<typename D::Worker>(worker_));
        } else {
          return {};
        }
      },
      instance_->dispenser_);
  if (c.empty()) return {};
  current_ = c;
  ++stats_.chunks;
  stats_.iterations += c.size();
  if (timed_) {
    requested_ns_ = asked;
    started_ns_ = now();
  }
  const std::int64_t base = instance_->begin_;
  return {base + c.begin, base + c.end};
}

std::exception_ptr Cursor::leave() noexcept {
  if (left_) return nullptr;
  left_ = true;
  unit_ = nullptr;
  const std::int64_t done = now();
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
  Instance* inst = instance_;
  Loop* loop = inst->loop_;
  inst->finish_worker(tid_, stats_);
  // The instance stays alive until every worker has left: read its error first.
  std::exception_ptr error = inst->error();
  if (inst->leave()) loop->release(inst);
  return error;
}

}  // namespace autosched::drive
