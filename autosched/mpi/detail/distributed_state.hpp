#pragma once
/// @file
/// The state of one rank in one instance of a distributed loop
/// (distributed.cpp: the plan, the pool and the result;
/// distributed_messages.cpp: stealing, reports and the end), and the message
/// layout both halves use. Private to the MPI layer.

#include <autosched/mpi/distributed_for.hpp>
#include <autosched/techniques/any_dispenser.hpp>
#include <autosched/techniques/technique_spec.hpp>

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <initializer_list>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace autosched::mpi::detail {

/// Tags on the runtime's duplicate communicator, apart from master-worker's.
enum DistributedTag : int {
  tag_steal_request = 21,  ///< thief → victim: int64 (unused)
  tag_steal_reply = 22,    ///< victim → thief: int64 [begin, end, home] + payload; empty range = NACK
  tag_results = 23,        ///< thief → home: int64 [begin, end] + payload
  tag_count = 24,          ///< rank → coordinator: int64 iterations run since the last report
  tag_fail = 25,           ///< rank → coordinator: this rank failed (int64 unused)
  tag_end = 26,            ///< coordinator → rank: int64 1 = aborted, 0 = every iteration ran
};
inline constexpr int coordinator = 0;

/// One pool's chunks from a dispenser prepared for one worker.
class LocalChunker {
 public:
  virtual ~LocalChunker() = default;
  /// The next chunk (relative to the pool); `now_ns` ends the previous one.
  virtual IndexRange next(std::int64_t now_ns) = 0;
};

template <class D>
class Chunker final : public LocalChunker {
 public:
  Chunker(D& d, std::int64_t now_ns) : d_(d), w_(d.worker(0, now_ns)) {}
  IndexRange next(std::int64_t now_ns) override {
    if constexpr (D::timed) {
      if (!last_.empty()) d_.completed(w_, last_, ChunkTiming{started_ns_, started_ns_, now_ns});
    }
    last_ = d_.next(w_);
    started_ns_ = now_ns;
    return last_;
  }

 private:
  D& d_;
  typename D::Worker w_;
  IndexRange last_{};
  std::int64_t started_ns_ = 0;
};

/// What the coordinator broadcasts; followed by P + 1 block boundaries.
struct Plan {
  std::int64_t begin = 0, end = 0;
  std::int32_t error = 0;  ///< 1: `text` is an error message
  std::int32_t ratio = 0;  ///< StealRatio
  std::uint64_t instance = 0;
  char text[400] = {};     ///< the local technique, or the error
};

/// A message: int64 words, then the payload.
inline std::vector<std::byte> header_bytes(std::initializer_list<std::int64_t> words, std::vector<std::byte> payload) {
  std::vector<std::byte> m(words.size() * sizeof(std::int64_t) + payload.size());
  std::memcpy(m.data(), words.begin(), words.size() * sizeof(std::int64_t));
  if (!payload.empty()) std::memcpy(m.data() + words.size() * sizeof(std::int64_t), payload.data(), payload.size());
  return m;
}

inline std::int64_t word(const std::vector<std::byte>& m, int k) {
  std::int64_t v = 0;
  std::memcpy(&v, m.data() + k * sizeof(std::int64_t), sizeof v);
  return v;
}

class DistributedState {
 public:
  DistributedState(MPI_Comm user, std::int64_t begin, std::int64_t end, const DistributedOptions& options);
  IndexRange next();
  void fail(std::string message);
  DistributedResult finish();

 private:
  // The pool.
  void open_pool(IndexRange r, int home, bool stolen);
  IndexRange take_piece();
  void close_pool();
  // Messages.
  bool handle(bool wait);
  void answer_steal(int thief);
  void take_reply(int victim, const std::vector<std::byte>& m);
  void send(int to, int tag, std::vector<std::byte> bytes, bool counted);
  void send_word(int to, int tag, std::int64_t v, bool counted) {
    send(to, tag, header_bytes({v}, {}), counted);
  }
  void report(std::int64_t ran);
  void coordinator_check();
  void end_all(bool aborted);
  void steal_step();
  void mark_failed(std::string message);
  [[nodiscard]] std::int64_t now_ns() const { return static_cast<std::int64_t>((MPI_Wtime() - start_) * 1e9); }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::string name_;
  std::int64_t begin_ = 0, n_ = 0;
  DistributedOptions options_;
  TechniqueSpec spec_;
  TechniqueParams params_;
  TechniqueId ran_ = TechniqueId::static_;
  StealRatio ratio_ = StealRatio::half;
  double ratio_value_ = 0.5;
  double selection_ns_ = 0;
  IndexRange block_;
  std::mt19937_64 rng_;

  // The pool: [head_, tail_) of pool_, relative to the loop's begin.
  IndexRange pool_{};
  std::int64_t head_ = 0, tail_ = 0;
  int home_ = 0;
  bool stolen_ = false;
  IndexRange chunk_{};  ///< the chunk being run (relative), clipped to tail_ when used
  std::int64_t piece_ = 1;
  LoopMemory memory_;
  Workspace workspace_;
  AnyDispenser dispenser_;
  std::unique_ptr<LocalChunker> chunker_;
  IndexRange running_{};  ///< the piece next() returned last

  // Stealing.
  int outstanding_ = -1;  ///< the victim of the request out, or -1
  std::vector<char> empty_;  ///< victims that answered NACK since the last reset
  double backoff_ = 0;

  // Termination and failure.
  std::int64_t unreported_ = 0;
  std::int64_t total_ = 0;  ///< coordinator: iterations reported
  bool ended_ = false, aborted_ = false, failed_ = false, finished_ = false;
  std::string failure_;
  std::vector<std::int64_t> sent_;  ///< counted messages sent to each rank
  std::int64_t received_ = 0;       ///< counted messages received
  std::deque<std::pair<MPI_Request, std::vector<std::byte>>> sends_;

  // Reported.
  double start_ = 0, end_time_ = 0, last_work_ = 0;
  std::int64_t own_iterations_ = 0, own_steals_ = 0, own_stolen_ = 0, own_given_ = 0, own_requests_ = 0;
};

}  // namespace autosched::mpi::detail
