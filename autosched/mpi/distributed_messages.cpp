// Distributed loops: the messages of one instance (distributed.cpp tells the
// protocol): steal requests and their answers, the results sent home, the
// reports of iterations run, failures and END.

#include <autosched/mpi/detail/distributed_state.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace autosched::mpi::detail {

void DistributedState::send(int to, int tag, std::vector<std::byte> bytes, bool counted) {
  while (!sends_.empty()) {  // free what has gone
    int done = 0;
    MPI_Test(&sends_.front().first, &done, MPI_STATUS_IGNORE);
    if (!done) break;
    sends_.pop_front();
  }
  sends_.emplace_back(MPI_REQUEST_NULL, std::move(bytes));
  auto& s = sends_.back();
  MPI_Isend(s.second.data(), static_cast<int>(s.second.size()), MPI_BYTE, to, tag, comm_, &s.first);
  if (counted) ++sent_[static_cast<std::size_t>(to)];
}

void DistributedState::report(std::int64_t ran) {
  if (ran == 0) return;
  if (rank_ == coordinator) {
    total_ += ran;
    coordinator_check();
  } else {
    send_word(coordinator, tag_count, ran, true);
  }
}

void DistributedState::coordinator_check() {
  if (rank_ == coordinator && !ended_ && total_ == n_) end_all(false);
}

void DistributedState::end_all(bool aborted) {
  for (int r = 0; r < size_; ++r) {
    if (r != coordinator) send_word(r, tag_end, aborted ? 1 : 0, false);
  }
  ended_ = true;
  aborted_ = aborted_ || aborted;
  end_time_ = MPI_Wtime();
}

void DistributedState::mark_failed(std::string message) {
  if (failed_) return;
  failed_ = true;
  failure_ = std::move(message);
  pool_ = {};
  head_ = tail_ = 0;
  chunker_.reset();
  if (rank_ == coordinator) {
    if (!ended_) end_all(true);
  } else {
    send_word(coordinator, tag_fail, 1, true);
  }
}

void DistributedState::answer_steal(int thief) {
  const std::int64_t remaining = ended_ || failed_ ? 0 : tail_ - head_;
  const auto give = static_cast<std::int64_t>(std::floor(ratio_value_ * static_cast<double>(remaining)));
  if (give < options_.min_steal || give < 1) {
    send(thief, tag_steal_reply, header_bytes({0, 0, -1}, {}), false);
    return;
  }
  const IndexRange r{tail_ - give, tail_};
  const IndexRange absolute{begin_ + r.begin, begin_ + r.end};
  std::vector<std::byte> payload;
  if (options_.data.pack) {
    try {
      payload = options_.data.pack(absolute);
    } catch (...) {
      send(thief, tag_steal_reply, header_bytes({0, 0, -1}, {}), false);
      mark_failed(what_of(std::current_exception()));
      return;
    }
  }
  tail_ = r.begin;
  own_given_ += give;
  send(thief, tag_steal_reply, header_bytes({absolute.begin, absolute.end, home_}, std::move(payload)), false);
}

void DistributedState::take_reply(int victim, const std::vector<std::byte>& m) {
  outstanding_ = -1;
  const IndexRange absolute{word(m, 0), word(m, 1)};
  if (absolute.empty()) {
    empty_[static_cast<std::size_t>(victim)] = 1;
    return;
  }
  if (ended_ || failed_) return;  // an aborted instance: the range is dropped with it
  const int home = static_cast<int>(word(m, 2));
  constexpr std::size_t head = 3 * sizeof(std::int64_t);
  try {
    if (options_.data.unpack) options_.data.unpack(absolute, std::span<const std::byte>(m.data() + head, m.size() - head));
  } catch (...) {
    mark_failed(what_of(std::current_exception()));
    return;
  }
  ++own_steals_;
  own_stolen_ += absolute.size();
  std::fill(empty_.begin(), empty_.end(), 0);
  backoff_ = 0;
  open_pool({absolute.begin - begin_, absolute.end - begin_}, home, true);
}

bool DistributedState::handle(bool wait) {
  MPI_Status st;
  int flag = 1;
  if (wait) {
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &st);
  } else {
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &st);
    if (!flag) return false;
  }
  int bytes = 0;
  MPI_Get_count(&st, MPI_BYTE, &bytes);
  std::vector<std::byte> m(static_cast<std::size_t>(bytes));
  MPI_Recv(m.data(), bytes, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, comm_, MPI_STATUS_IGNORE);
  const int from = st.MPI_SOURCE;
  switch (st.MPI_TAG) {
    case tag_steal_request:
      ++received_;
      answer_steal(from);
      break;
    case tag_steal_reply:
      take_reply(from, m);
      break;
    case tag_results:
      ++received_;
      if (options_.data.unpack_results && !aborted_ && !failed_) {
        constexpr std::size_t head = 2 * sizeof(std::int64_t);
        try {
          options_.data.unpack_results({word(m, 0), word(m, 1)},
                                       std::span<const std::byte>(m.data() + head, m.size() - head));
        } catch (...) {
          mark_failed(what_of(std::current_exception()));
        }
      }
      break;
    case tag_count:
      ++received_;
      total_ += word(m, 0);
      coordinator_check();
      break;
    case tag_fail:
      ++received_;
      if (!ended_) end_all(true);
      break;
    case tag_end:
      ended_ = true;
      aborted_ = aborted_ || word(m, 0) != 0;
      end_time_ = MPI_Wtime();
      break;
    default:
      autosched::detail::throw_error("autosched::mpi::distributed_for: unexpected message with tag " +
                                     std::to_string(st.MPI_TAG) + " from rank " + std::to_string(from));
  }
  return true;
}

void DistributedState::steal_step() {
  if (outstanding_ >= 0) {
    handle(true);  // an answer is owed
    return;
  }
  std::vector<int> candidates;
  for (int r = 0; r < size_; ++r) {
    if (r != rank_ && !empty_[static_cast<std::size_t>(r)]) candidates.push_back(r);
  }
  if (candidates.empty()) {
    // Every other rank answered NACK: wait a little (handling messages), then ask again.
    backoff_ = backoff_ == 0 ? 20e-6 : std::min(1e-3, backoff_ * 2);
    const double until = MPI_Wtime() + backoff_;
    while (!ended_ && MPI_Wtime() < until) {
      if (!handle(false)) std::this_thread::yield();
    }
    std::fill(empty_.begin(), empty_.end(), 0);
    return;
  }
  std::uniform_int_distribution<std::size_t> pick(0, candidates.size() - 1);
  outstanding_ = candidates[pick(rng_)];
  ++own_requests_;
  send_word(outstanding_, tag_steal_request, 0, true);
}

}  // namespace autosched::mpi::detail
