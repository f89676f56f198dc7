#pragma once
/// @file
/// Hooks for what cuts across every loop: recording, tracing, pinning
/// (pinning/team_pinning.hpp registers a team's threads at their begin and
/// counts their iterations as heartbeats at their end). The
/// driver calls each attached observer; nothing in the driver knows what
/// they do. A hook that no attached observer overrides costs one relaxed
/// load per worker or instance: the base class's empty hook, called once,
/// takes its observer off that hook's list.
///
///   class Pinner final : public drive::Observer {
///     void on_worker_begin(const drive::WorkerBegin& w) noexcept override { pin(w.tid); }
///   };
///   static Pinner pinner;
///   drive::attach(pinner);

#include <autosched/measure/instance_record.hpp>
#include <autosched/techniques/catalogue.hpp>

#include <cstdint>
#include <string_view>

namespace autosched {
class CostProfile;
struct DecisionSlot;
class DecisionGroup;
}  // namespace autosched

namespace autosched::drive {

/// A worker is about to take its first chunk of an instance (on its own thread).
struct WorkerBegin {
  std::string_view loop;
  std::uint64_t instance = 0;
  int tid = 0;  ///< 0 … p-1
  int p = 1;
};

/// A worker has run its share of an instance (on its own thread, before it
/// counts itself done: the instance is still open).
struct WorkerEnd {
  std::string_view loop;
  std::uint64_t instance = 0;
  int tid = 0;  ///< 0 … p-1
  int p = 1;
  std::int64_t iterations = 0;  ///< iterations this worker ran in the instance
};

/// An instance has closed: its record is complete (on the closing thread).
struct ClosedInstance {
  const InstanceRecord& record;
  /// The loop's id; lives as long as the process.
  const char* loop = "";
  /// The technique that ran (the record has its name).
  TechniqueId ran = TechniqueId::static_;
  /// The decision point of the instance, and its group (to read the selector
  /// under the group's lock); null for fixed schedules. An instance that
  /// followed another's in-flight decision has its point too: it is recorded
  /// like any other instance of the point, it only teaches the selector nothing.
  const DecisionSlot* decision = nullptr;
  const DecisionGroup* group = nullptr;
  /// The cost profile the instance measured when it ran the `profiling`
  /// technique to completion; null otherwise. Valid during the hook only.
  const CostProfile* profile = nullptr;
};

class Observer {
 public:
  virtual ~Observer() = default;
  /// Not overridden: the observer is not called again for worker begins.
  virtual void on_worker_begin(const WorkerBegin& worker) noexcept;
  /// Not overridden: the observer is not called again for worker ends.
  virtual void on_worker_end(const WorkerEnd& worker) noexcept;
  /// Not overridden: the observer is not called again for closed instances.
  virtual void on_instance_closed(const ClosedInstance& instance) noexcept;
};

/// Attaches `observer` for the rest of the process (it must outlive every
/// loop; at most 8). Attach before the loops it should see start.
void attach(Observer& observer);
/// Detaches `observer`. A hook already running may still finish: detach
/// while no loop runs (tests attach and detach around quiet periods).
void detach(Observer& observer) noexcept;

namespace detail {
/// Calls every attached observer's hook.
void notify_worker_begin(const WorkerBegin& worker) noexcept;
void notify_worker_end(const WorkerEnd& worker) noexcept;
void notify_instance_closed(const ClosedInstance& instance) noexcept;
/// True when an attached observer may override the hook: the callers skip
/// building its argument otherwise.
bool worker_begin_observed() noexcept;
bool worker_end_observed() noexcept;
bool observed() noexcept;  ///< on_instance_closed
}  // namespace detail

}  // namespace autosched::drive
