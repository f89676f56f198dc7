#pragma once
/// @file
/// The runtime's per-loop record and per-instance state (white-box: tests
/// include this to look at a loop's memory).

#include <autosched/loops/detail/loop_call.hpp>
#include <autosched/select/schedule.hpp>
#include <autosched/measure/instance_record.hpp>
#include <autosched/select/decision_point.hpp>
#include <autosched/techniques/any_dispenser.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace autosched::detail {

class LoopRecord;

/// One decision point of a loop: the loop's instances of one size class
/// (⌊log2 N⌋ + 1) and team size, with one selector configuration.
struct PointSlot {
  int bucket = 0;
  int p = 0;
  SelectorConfig config;
  std::string portfolio;  ///< arm labels, comma separated (the store's key)
  std::unique_ptr<DecisionPoint> point;
  /// An instance carrying out a decision has not closed yet. Another
  /// instance of the same point (the loop called from two threads at once)
  /// then runs `last_arm` without a decision, so that every choose() is
  /// followed by its observe().
  bool in_flight = false;
  int last_arm = 0;
};

/// One instance in flight: everything its threads share, on separate lines
/// where they are written concurrently.
class Instance {
 public:
  /// Runs worker `tid`'s share through `call`'s body; the last worker to
  /// finish closes the instance. In a joined team each thread passes its own
  /// call: its body may capture thread-private variables, and with nowait
  /// another thread's body object may already be gone.
  void work(int tid, const LoopCall& call) noexcept;
  /// The first exception a body threw, once it is visible to this thread.
  [[nodiscard]] std::exception_ptr error() const noexcept;
  /// A thread of a joined team is done with the instance; true for the last.
  /// p_ is read before the increment: once the others have left, the last
  /// one may recycle the instance for another team at any moment.
  [[nodiscard]] bool leave() noexcept {
    const int p = p_;
    return left_.fetch_add(1, std::memory_order_acq_rel) + 1 == p;
  }

 private:
  friend class LoopRecord;
  friend void run_loop(const LoopCall&);
  struct alignas(64) ThreadSlot {
    ThreadStats stats;
  };

  template <class D>
  void run_worker(D& d, int tid, const LoopCall& call) noexcept;
  template <class D>
  void run_chunks(D& d, typename D::Worker& w, ThreadStats& st, const LoopCall& call);
  template <class D>
  void run_measured_chunks(D& d, typename D::Worker& w, ThreadStats& st, const LoopCall& call, std::int64_t base,
                           bool guarded);
  template <class D>
  void cut(D& d) noexcept;
  void run_fallback(int tid, ThreadStats& st, const LoopCall& call);
  void fail(std::exception_ptr e) noexcept;

  LoopRecord* record_ = nullptr;
  std::uint64_t index_ = 0;
  std::int64_t begin_ = 0;
  std::int64_t n_ = 0;
  int p_ = 1;
  Timing timing_ = Timing::threads;
  TechniqueId requested_ = TechniqueId::static_;
  TechniqueId technique_ = TechniqueId::static_;
  std::int64_t chunk_ = 0;
  bool expert_ = false;     ///< the schedule asked for chunk=expert
  bool exp_chunk_ = false;  ///< chunk_ is expChunk(N, P) (false when that is 0)
  TechniqueParams params_;
  std::int64_t start_ns_ = 0;
  AnyDispenser dispenser_;
  Workspace workspace_;
  std::unique_ptr<ThreadSlot[]> threads_;
  int thread_capacity_ = 0;

  // Selection: the decision this instance carries out (slot_ set when it
  // owns one), the selector's name for the record.
  PointSlot* slot_ = nullptr;
  Decision decision_;
  std::string_view selector_;
  bool explored_ = false;

  // Guard: a trial with a budget is cut at deadline_ns_; the unclaimed rest
  // [fallback_begin_, N) then runs on the fallback arm.
  std::int64_t deadline_ns_ = 0;  ///< 0: not guarded
  TechniqueSpec fallback_arm_;
  std::int64_t fallback_begin_ = 0;
  AnyDispenser fallback_;
  Workspace fallback_workspace_;
  bool cut_ = false;
  /// 0 trial running, 1 switching, 2 fallback ready, 3 the trial cannot be cut.
  alignas(64) std::atomic<int> phase_{0};

  alignas(64) std::atomic<bool> cancelled_{false};
  alignas(64) std::atomic<int> finished_{0};
  std::atomic<int> left_{0};
  std::atomic<bool> failed_{false};
  std::atomic<bool> error_published_{false};
  std::exception_ptr error_;
};

class LoopRecord {
 public:
  explicit LoopRecord(std::string name) : name_(std::move(name)) {}
  [[nodiscard]] const std::string& name() const noexcept { return name_; }

  /// A ready instance of this loop for a team of `p`; throws for a bad schedule.
  Instance* open(const LoopCall& call, std::int64_t n, int p);
  /// Re-plans `inst` for the team the runtime actually gave (smaller than asked).
  void reopen(Instance& inst, int p) noexcept;
  /// Called by the last worker to finish: metrics, per-loop learning, record.
  void close(Instance& inst) noexcept;
  /// Returns `inst` to the pool once no thread uses it any more.
  void release(Instance* inst) noexcept;

  [[nodiscard]] std::optional<InstanceRecord> last() const;
  /// A copy of the loop's memory (AWF weights, profile), for tests and tools.
  [[nodiscard]] LoopMemory memory() const;
  /// The selector state of this loop's decision point for (N, P), empty if none.
  [[nodiscard]] std::string selector_state(std::int64_t n, int p) const;
  /// Hands every decision point's selector state to the store (at exit).
  void save_states() const;

 private:
  friend class Instance;
  const Schedule& resolve_schedule(const LoopOptions& options);
  void prepare(Instance& inst, int p);
  void choose_arm(Instance& inst, const SelectorConfig& config, std::int64_t n, int p);
  PointSlot& point_for(const SelectorConfig& config, std::int64_t n, int p);
  bool prepare_fallback(Instance& inst, IndexRange rest) noexcept;

  mutable std::mutex mutex_;
  const std::string name_;
  LoopMemory memory_;
  std::uint64_t instances_ = 0;
  std::optional<InstanceRecord> last_;
  std::vector<std::unique_ptr<Instance>> pool_;
  std::string option_text_;
  std::optional<Schedule> option_schedule_;
  std::uint64_t env_generation_ = ~std::uint64_t{0};
  Schedule env_schedule_;
  std::set<TechniqueId> warned_;
  std::vector<std::unique_ptr<PointSlot>> points_;  ///< stable addresses: instances point at them
};

/// The record of `loop`, created on first use; nullptr from find_loop when
/// the loop never ran.
LoopRecord& loop_record(std::string_view loop);
LoopRecord* find_loop(std::string_view loop);

}  // namespace autosched::detail
