#include <autosched/drive/instance.hpp>

#include <autosched/measure/clock.hpp>
#include <autosched/drive/loop.hpp>
#include <autosched/drive/observer.hpp>

#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace autosched::drive {

namespace {

/// A guarded trial reads the clock every this many chunks.
constexpr int guard_check_chunks = 8;

}  // namespace

void Instance::fail(std::exception_ptr e) noexcept {
  bool expected = false;
  if (failed_.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
    error_ = std::move(e);
    error_published_.store(true, std::memory_order_release);
  }
  cancel();
}

void Instance::cancel() noexcept {
  cancelled_.store(true, std::memory_order_relaxed);
  // Dispensers that can stop themselves do so, so their loops need no flag.
  auto stop = [](auto& d) {
    if constexpr (requires { d.cancel(); }) d.cancel();
  };
  std::visit(stop, dispenser_);
  if (phase_.load(std::memory_order_acquire) == 2) std::visit(stop, fallback_->dispenser);
}

void Instance::begin_worker(int tid) const noexcept {
  if (detail::worker_begin_observed()) detail::notify_worker_begin({loop_->name(), index_, tid, p_});
}

void Instance::end_worker(int tid, std::int64_t iterations) const noexcept {
  if (detail::worker_end_observed()) detail::notify_worker_end({loop_->name(), index_, tid, p_, iterations});
}

template <class D>
void Instance::run_chunks(D& d, typename D::Worker& w, ThreadStats& st, const ChunkBody& body) {
  if constexpr (std::is_same_v<D, ChunkSequence>) {
    // The deterministic techniques run their dispatch loop in the caller's
    // code with the body inlined (see SequenceRunner).
    if (body.run_sequence != nullptr) {
      body.run_sequence(body.body, d, begin_, n_, st);
      return;
    }
  }
  const ChunkRunner run = body.run;
  void* const fn = body.body;
  const std::int64_t base = begin_;
  // The hot path: one dispenser call (one atomic RMW for non-adaptive
  // techniques), one read of a line nobody writes unless a body throws, and
  // one indirect call into the user's inlined iteration loop.
  while (!cancelled_.load(std::memory_order_relaxed)) {
    const IndexRange c = d.next(w);
    if (c.empty()) break;
    ++st.chunks;
    st.iterations += c.size();
    run(fn, base + c.begin, base + c.end);
  }
}

template <class D>
void Instance::run_measured_chunks(D& d, typename D::Worker& w, ThreadStats& st, const ChunkBody& body,
                                   std::int64_t base, bool guarded) {
  const ChunkRunner run = body.run;
  void* const fn = body.body;
  const bool timed = D::timed || time_chunks_;
  std::int64_t requested = measure::now();
  if (timed && st.busy_ns < 0) st.busy_ns = 0;
  int until_check = guard_check_chunks;
  while (!cancelled_.load(std::memory_order_relaxed)) {
    const IndexRange c = d.next(w);
    if (c.empty()) break;
    ++st.chunks;
    st.iterations += c.size();
    if (timed) {
      const std::int64_t started = measure::now();
      run(fn, base + c.begin, base + c.end);
      const std::int64_t done = measure::now();
      st.busy_ns += done - started;
      if constexpr (D::timed) d.completed(w, c, ChunkTiming{requested, started, done});
      requested = done;
      if (guarded && done > deadline_ns_) cut(d);
    } else {
      run(fn, base + c.begin, base + c.end);
      // A guarded trial looks at the clock every few chunks, not every one.
      if (guarded && --until_check == 0) {
        until_check = guard_check_chunks;
        if (measure::now() > deadline_ns_) cut(d);
      }
    }
  }
}

template <class D>
void Instance::cut(D& d) noexcept {
  int expected = 0;
  if (!phase_.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) return;  // someone else did
  IndexRange rest;
  if constexpr (requires { d.take_rest(); }) rest = d.take_rest();
  // Publishes the fallback (release) before anyone may run it (acquire).
  phase_.store(!rest.empty() && loop_->prepare_fallback(*this, rest) ? 2 : 3, std::memory_order_release);
}

void Instance::cut_trial() noexcept {
  std::visit(
      [&](auto& d) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(d)>, std::monostate>) cut(d);
      },
      dispenser_);
}

bool Instance::fallback_ready() const noexcept {
  int phase = phase_.load(std::memory_order_acquire);
  while (phase == 1) {  // another thread is planning the fallback: a few microseconds
    std::this_thread::yield();
    phase = phase_.load(std::memory_order_acquire);
  }
  return phase == 2;
}

void Instance::run_fallback(int tid, ThreadStats& st, const ChunkBody& body) {
  if (!fallback_ready()) return;
  std::visit(
      [&](auto& f) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(f)>, std::monostate>) {
          auto fw = f.worker(tid, measure::now());
          run_measured_chunks(f, fw, st, body, begin_ + fallback_begin_, false);
        }
      },
      fallback_->dispenser);
}

template <class D>
void Instance::run_worker(D& d, int tid, const ChunkBody& body) noexcept {
  ThreadStats st;
  st.start_ns = measure::now();
  begin_worker(tid);
  auto w = d.worker(tid, st.start_ns);
  const bool guarded = deadline_ns_ > 0;
  try {
    if (guarded || D::timed || time_chunks_) {
      run_measured_chunks(d, w, st, body, begin_, guarded);
    } else {
      run_chunks(d, w, st, body);
    }
    if (guarded) run_fallback(tid, st, body);
  } catch (...) {
    fail(std::current_exception());
  }
  st.finish_ns = measure::now();
  if constexpr (requires { d.finished(w, st.finish_ns); }) d.finished(w, st.finish_ns);
  threads_[tid].stats = st;
}

std::int64_t Instance::work(int tid, const ChunkBody& body) noexcept {
  std::int64_t iterations = 0;
  std::visit(
      [&](auto& d) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(d)>, std::monostate>) {
          run_worker(d, tid, body);
          // Our own slot, just written by this thread: safe to read until we report done.
          iterations = threads_[tid].stats.iterations;
        }
      },
      dispenser_);
  end_worker(tid, iterations);
  // acq_rel: the closing thread sees every worker's stats and dispenser writes.
  const int p = p_;
  if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == p) loop_->close(*this, false);
  return iterations;
}

void Instance::finish_worker(int tid, const ThreadStats& stats, std::exception_ptr& error) noexcept {
  threads_[tid].stats = stats;
  end_worker(tid, stats.iterations);
  // Once this worker has counted itself, the instance may be closed and
  // opened again for another team: read the error before.
  error = this->error();
  const int p = p_;
  if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == p) {
    // The last one sees every worker's failure, and no thread uses the
    // instance any more: it is closed and pooled in one locked section.
    if (!error) error = this->error();
    loop_->close(*this, true);
  }
}

void Instance::reserve(int p) {
  // The per-worker slots and weights every technique uses. A chunk plan and
  // a profile's blocks (5 KB on 2 threads, which a static loop never uses)
  // are sized by the first instance that needs them, on the thread that
  // opens it, and kept; the fallback's when a trial is first cut.
  const std::vector<double> weights(static_cast<std::size_t>(p), 1.0);
  (void)workspace_.slots(p);
  (void)workspace_.copy_weights(weights);
}

void Instance::reset_for_pool() noexcept {
  // Only what an instance changed: one that ran as planned, the common
  // case, leaves the lines of its rare fields alone.
  if (phase_.load(std::memory_order_relaxed) != 0) {
    if (fallback_ != nullptr) fallback_->dispenser.emplace<std::monostate>();
    phase_.store(0, std::memory_order_relaxed);
  }
  cut_ = false;
  deadline_ns_ = 0;
  if (group_ != nullptr) {
    group_ = nullptr;
    ticket_ = {};
  }
  if (cancelled_.load(std::memory_order_relaxed)) cancelled_.store(false, std::memory_order_relaxed);
  finished_.store(0, std::memory_order_relaxed);
  if (left_.load(std::memory_order_relaxed) != 0) left_.store(0, std::memory_order_relaxed);
  if (failed_.load(std::memory_order_relaxed)) {
    failed_.store(false, std::memory_order_relaxed);
    error_published_.store(false, std::memory_order_relaxed);
    error_ = nullptr;
  }
}

}  // namespace autosched::drive
