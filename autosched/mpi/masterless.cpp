// The protocols without a master. RMA (distributed chunk calculation, after
// Eleliemy & Ciorba): a deterministic technique's k-th chunk is the same
// whoever asks, so every rank holds the same plan and only the chunk index
// is shared: one MPI_Fetch_and_op on a counter in rank 0's window per chunk.
// Static: each rank computes its own share and talks to nobody.

#include <autosched/mpi/detail/roles.hpp>

#include <type_traits>
#include <variant>

namespace autosched::mpi::detail {

namespace {

/// Past every chunk index: a failing rank stores it, and the others' next
/// fetch ends their loop.
constexpr std::int64_t stop_index = std::int64_t{1} << 62;

class RmaRank final : public Role {
 public:
  RmaRank(const RoleSetup& s, ChunkSequence& d, MPI_Win counter) : d_(d), counter_(counter) {
    (void)s;
    // Only rank 0 holds the counter: a shared lock on it alone (lock_all
    // would open an epoch with every rank, P² messages per instance under SMPI).
    MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOCHECK, counter_);
  }
  ~RmaRank() override { unlock(); }

  IndexRange next() override {
    if (done_) return {};
    const std::int64_t one = 1;
    std::int64_t k = 0;
    MPI_Fetch_and_op(&one, &k, MPI_INT64_T, 0, 0, MPI_SUM, counter_);
    MPI_Win_flush(0, counter_);
    const IndexRange c = d_.chunk_at(k, w_);
    if (c.empty()) leave();
    return c;
  }

  void fail() override {
    if (done_) return;
    std::int64_t previous = 0;
    MPI_Fetch_and_op(&stop_index, &previous, MPI_INT64_T, 0, 0, MPI_REPLACE, counter_);
    MPI_Win_flush(0, counter_);
    leave();
  }

  [[nodiscard]] bool done() const noexcept override { return done_; }

 private:
  void leave() {
    done_ = true;
    unlock();
  }
  void unlock() {
    if (locked_) MPI_Win_unlock(0, counter_);
    locked_ = false;
  }

  ChunkSequence& d_;
  ChunkSequence::Worker w_{};
  MPI_Win counter_;
  bool locked_ = true;
  bool done_ = false;
};

/// block or cyclic static: the rank's chunks follow from its number alone.
template <class D>
class StaticRank final : public Role {
 public:
  StaticRank(const RoleSetup& s, D& d) : d_(d), w_(d.worker(s.rank, 0)) {}
  IndexRange next() override {
    const IndexRange c = done_ ? IndexRange{} : d_.next(w_);
    if (c.empty()) done_ = true;
    return c;
  }
  void fail() override { done_ = true; }
  [[nodiscard]] bool done() const noexcept override { return done_; }

 private:
  D& d_;
  typename D::Worker w_;
  bool done_ = false;
};

}  // namespace

bool runs_without_master(const AnyDispenser& d) noexcept {
  return std::holds_alternative<ChunkSequence>(d) || std::holds_alternative<BlockStatic>(d) ||
         std::holds_alternative<CyclicStatic>(d);
}

std::unique_ptr<Role> make_masterless(const RoleSetup& setup, AnyDispenser& d, MPI_Win counter) {
  if (auto* seq = std::get_if<ChunkSequence>(&d)) return std::make_unique<RmaRank>(setup, *seq, counter);
  if (auto* block = std::get_if<BlockStatic>(&d)) return std::make_unique<StaticRank<BlockStatic>>(setup, *block);
  if (auto* cyclic = std::get_if<CyclicStatic>(&d)) return std::make_unique<StaticRank<CyclicStatic>>(setup, *cyclic);
  return nullptr;
}

}  // namespace autosched::mpi::detail
