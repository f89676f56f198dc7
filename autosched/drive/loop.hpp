#pragma once
/// @file
/// A loop as the driver knows it: its identity, what its techniques remember
/// between instances (AWF weights, the profile), its decision group, a pool
/// of instances, and its last record. Front-ends open instances on it:
///
///   drive::Loop& loop = drive::loop("solver/L2");            // registry, once
///   drive::Instance* inst = loop.open({.begin = 0, .n = n, .p = p});
///   … every thread: inst->work(tid, body) …                  // push, or a Cursor (pull)
///   loop.release(inst);                                       // when no thread uses it
///
/// The last worker to finish closes the instance: metrics, the selector's
/// outcome, the record, and the observers' on_instance_closed.

#include <autosched/drive/entry_table.hpp>
#include <autosched/drive/inline_mutex.hpp>
#include <autosched/drive/instance.hpp>
#include <autosched/measure/instance_record.hpp>
#include <autosched/select/grammar/schedule.hpp>
#include <autosched/techniques/loop_memory.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace autosched::drive {

/// What a front-end asks of one instance.
struct OpenRequest {
  std::int64_t begin = 0;  ///< first index; chunks are handed to bodies shifted by it
  std::int64_t n = 0;      ///< iterations (≥ 0)
  int p = 1;               ///< workers
  /// Schedule text from code (docs/loops.md, "Schedules"); empty: AUTOSCHED_SCHEDULE_FOR
  /// for this loop, else AUTOSCHED_SCHEDULE, else `auto`.
  std::string_view schedule{};
  /// A typed schedule from code; wins over `schedule` when set. Checked by
  /// the same grammar as text (through its canonical text).
  const Schedule* typed_schedule = nullptr;
  /// Names the schedule's origin in error messages.
  std::string_view schedule_source = "LoopOptions::schedule";
  /// Other names AUTOSCHED_SCHEDULE_FOR may give the loop, looked up after
  /// its id (an MPI loop's own name, its id being mpi:<name>; the drop-in's
  /// file:line and function names). Constant per loop.
  std::span<const std::string_view> aliases{};
  /// The front-end's own default when the environment names no schedule for
  /// the loop (the drop-in's reading of OMP_SCHEDULE), before `auto`.
  /// Constant per loop.
  const Schedule* fallback = nullptr;
  bool time_chunks = false;  ///< time every chunk (ThreadStats::busy_ns)
  /// Used when the schedule text gives no mu/sigma/h, and no weights.
  const Profile* profile = nullptr;
  std::span<const double> weights{};
};

/// One instance of a loop whose chunks another runtime hands out (the MPI
/// coordinator, over ranks): the schedule resolved and the decision made as
/// for every loop of the driver (Loop::plan), then learned from, recorded and
/// shown to the observers as for every loop (Loop::close(Plan&, ...)).
struct Plan {
  std::uint64_t index = 0;  ///< the instance's index among the loop's
  std::int64_t n = 0;
  int p = 1;
  /// What to run: the fixed schedule's technique or the decision's arm; the
  /// `profiling` tool (a chunk of n / profile_blocks) when the selector asked
  /// for a profile (a front-end may choose its own block count).
  TechniqueSpec spec;
  Ticket ticket;                   ///< the decision; empty for a fixed schedule
  DecisionGroup* group = nullptr;  ///< the ticket's group; null for a fixed schedule
};

/// What a planned instance ran and measured, as its front-end reports it.
struct PlanOutcome {
  TechniqueId ran = TechniqueId::static_;  ///< the technique prepared (a substitute when the asked one could not run)
  std::int64_t chunk = 0;
  bool exp_chunk = false;
  LoopMetrics metrics;
  std::span<const ThreadStats> threads{};  ///< per worker, when the front-end has them (else empty)
  std::int64_t start_ns = 0;
  const CostProfile* profile = nullptr;  ///< what a completed profiling instance measured
  bool cut = false;                      ///< a guarded trial ran past its budget
  bool failed = false;                   ///< the instance failed: nothing is learned from it
};

class Loop {
 public:
  explicit Loop(std::string name) : name_(std::move(name)) {}
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  /// The loop's id; the storage lives as long as the process.
  [[nodiscard]] const std::string& name() const noexcept { return name_; }

  /// A ready instance for `request`; throws autosched::Error for a bad schedule.
  Instance* open(const OpenRequest& request);
  /// Re-plans `inst` for the team the runtime actually gave (smaller than asked).
  void reopen(Instance& inst, int p) noexcept;
  /// Returns `inst` to the pool once no thread uses it any more.
  void release(Instance* inst) noexcept;

  /// Pull mode: the first of a team's threads to arrive with `ticket` opens
  /// the instance (TeamTicket: drive/entry_table.hpp), the others attach to
  /// it without a lock. Every one of the p threads must enter; the last
  /// Cursor to leave closes and releases the instance.
  Instance* open_or_attach(const TeamTicket& ticket, const OpenRequest& request);

  /// Resolves the schedule and decides, for an instance another runtime
  /// runs; throws autosched::Error for a bad schedule. Every plan must be
  /// closed (or its ticket abandoned through close with `failed`).
  [[nodiscard]] Plan plan(const OpenRequest& request);
  /// Learns from a plan's outcome (or, when it failed, abandons its
  /// decision), records it as the loop's last instance and notifies the
  /// observers (store rows, traces): what close does for a thread team.
  /// Returns the record.
  InstanceRecord close(Plan& plan, const PlanOutcome& outcome) noexcept;

  [[nodiscard]] std::optional<InstanceRecord> last() const;
  /// A copy of the loop's memory (AWF weights, profile), for tests and tools.
  [[nodiscard]] LoopMemory memory() const;
  /// The selector state of this loop's decision point for (N, P), empty if none.
  [[nodiscard]] std::string selector_state(std::int64_t n, int p) const;

 private:
  friend class Instance;
  friend class Cursor;
  Instance* open_locked(const OpenRequest& request);
  const Schedule& resolve_schedule(const OpenRequest& request);
  /// Under the lock: the spec to run under `schedule` for (n, p), and for a
  /// selection its ticket (the decision).
  void decide_locked(const Schedule& schedule, std::int64_t n, int p, TechniqueSpec& spec, Ticket& ticket);
  /// What every closing knows of its instance.
  struct Closing {
    std::uint64_t index;
    std::int64_t n;
    int p;
    TechniqueId asked, ran;
    std::int64_t chunk;
    bool exp_chunk;
    std::int64_t start_ns;
    bool cut, failed;
  };
  /// Under the lock: the loop's last record, filled with what every closing
  /// knows (the caller adds the threads and the metrics).
  InstanceRecord& record_locked(const Closing& c, const Ticket& t);
  /// Under the lock: the selector learns from `r` (or the decision is
  /// abandoned when it failed) and the observers see the instance.
  void learn_and_notify(InstanceRecord& r, Ticket& t, DecisionGroup* group, TechniqueId ran, TechniqueId asked,
                        const CostProfile* measured, bool cut, bool failed) noexcept;
  void prepare(Instance& inst, int p);
  /// Called by the last worker to finish: metrics, learning, record,
  /// observers; with `release`, also returns the instance to the pool (pull
  /// mode: nobody uses it any more), under the same lock.
  void close(Instance& inst, bool release) noexcept;
  bool prepare_fallback(Instance& inst, IndexRange rest) noexcept;
  /// A pooled instance, or a new one sized for `p` workers.
  Instance* take_from_pool(int p);
  /// Under the lock: `inst` is ready for take_from_pool.
  void pool(Instance* inst);

  // What every opening and closing writes, together on the first line.
  /// Taken once to open an instance and once to close it (inline_mutex.hpp).
  mutable InlineMutex mutex_;
  std::uint64_t instances_ = 0;
  /// The pool: the instance released last, on this line (one loop runs one
  /// instance at a time, most of the time), and the others.
  std::unique_ptr<Instance> spare_;
  std::vector<std::unique_ptr<Instance>> pool_;
  const std::string name_;
  LoopMemory memory_;
  std::optional<InstanceRecord> last_;
  // A schedule is 744 bytes: held here only when the code names one; the
  // environment's (or the default) is referred to, not copied, so that a
  // program with 10^4 loop names does not hold 10^4 copies of it.
  std::string option_text_;  ///< the code's schedule text (or a typed schedule's) behind option_schedule_
  std::unique_ptr<const Schedule> option_typed_;
  std::unique_ptr<const Schedule> option_schedule_;
  std::uint64_t env_generation_ = ~std::uint64_t{0};
  /// Into the schedule environment (whose values are never freed) or default_schedule().
  const Schedule* env_schedule_ = nullptr;
  /// Changes whenever resolve_schedule() resolves a schedule anew: an
  /// instance armed under the same version ran the same schedule.
  std::uint64_t schedule_version_ = 0;
  std::set<TechniqueId> warned_;
  DecisionGroup* group_ = nullptr;  ///< set at the first decision
  /// The decision slot of the last decision, valid while schedule_version_
  /// is slot_version_ (DecisionGroup::decide's hint).
  DecisionSlot* slot_hint_ = nullptr;
  std::uint64_t slot_version_ = 0;
  /// Pull-mode instances not all threads have entered yet: the table's
  /// slots, entered without a lock, and when they are all in use, the list.
  EntryTable entries_;
  struct Entering {
    TeamTicket ticket;
    Instance* instance = nullptr;
    int entered = 0;
  };
  std::vector<Entering> entering_;
};

/// The loop `id`, created on first use; loops live as long as the process
/// (records point at their names).
Loop& loop(std::string_view id);
/// The loop `id`, or nullptr if it never ran.
Loop* find_loop(std::string_view id);
/// Ids of every loop run so far, sorted.
std::vector<std::string> loop_ids();

}  // namespace autosched::drive
