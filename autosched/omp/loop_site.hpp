#pragma once
/// @file
/// Which loop a call into the runtime belongs to. An unmodified program names
/// none of its loops, so the drop-in names each by where it is called from:
/// the module (the executable or a shared library, by its GNU build-id, or its
/// size when it has none) and the offset of the call site in it. ASLR moves
/// modules, not offsets, so the name is the same in every run of the same
/// binary and the store's warm start works; two loops have two call sites, so
/// they never share a record (LB4OMP keyed loops by the source string, which
/// GCC never fills in: every GCC loop shared one record).
///
///   omp:solver@3fa2c19b07d1+0x1a2c        the loop's id (store, traces, AUTOSCHED_SCHEDULE_FOR)
///   solver.c:42 (relax)                   where, for people: clang's source string when
///                                         present, else the symbol, else module+offset

#include <autosched/drive/inline_mutex.hpp>
#include <autosched/drive/loop.hpp>
#include <autosched/select/grammar/schedule.hpp>

#include <array>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

namespace autosched::omp {

/// The entry-point family a loop came through, which tells the runtime.
enum class Runtime : std::uint8_t { gomp, kmp };

/// What the program asked for in its pragma.
enum class AskedKind : std::uint8_t { runtime, dynamic, guided };

/// What the drop-in learned about a loop, for the report.
struct SiteStats {
  std::uint64_t instances = 0;
  std::uint64_t explored = 0;
  std::uint64_t chunks = 0;
  double total_ns = 0;
  std::string last_arm;  ///< the arm of the latest instance
  /// Decision points of the loop that resumed from the store, and how many
  /// earlier instances their states had learned from (Selector::resumed_instances).
  int resumed_points = 0;
  std::uint64_t resumed_instances = 0;
};

/// The latest closed instance of a site, as autosched_omp_last_instance tells it.
struct LastInstance {
  std::string_view technique;  ///< static storage (technique_info)
  std::string_view requested;  ///< static storage
  char selector[32] = "";
  std::int64_t chunk = 0;
  bool exp_chunk = false;
  std::uint64_t instance = 0;
  bool explored = false;
  bool cut_short = false;
  double selection_ns = 0;
};

/// Where a call site is, as found on its first call; enough to name it later.
struct SitePlace {
  const void* return_address = nullptr;
  std::string module_path;  ///< the module file, for its symbol table
  std::string module;       ///< its base name
  std::uintptr_t offset = 0;
  std::string source;  ///< from clang's source string ("solver.c:42 (relax)"), or empty
};

class LoopSite {
 public:
  LoopSite(std::string id, SitePlace place, Runtime runtime, AskedKind asked, long asked_chunk);

  [[nodiscard]] const std::string& id() const noexcept { return id_; }
  /// The name for people. Found on first use, not on the loop's first call:
  /// reading the module's symbol table takes about a millisecond, which the
  /// loop's first instance would otherwise pay (the report and
  /// AUTOSCHED_SCHEDULE_FOR by name are its only users).
  [[nodiscard]] const std::string& where() const;
  [[nodiscard]] drive::Loop& loop() const noexcept { return *loop_; }
  /// What the driver needs to resolve this loop's schedule (it resolves it:
  /// AUTOSCHED_SCHEDULE_FOR by id or by these names, AUTOSCHED_SCHEDULE,
  /// OMP_SCHEDULE=auto,N, then the fallback, else `auto`): the names
  /// AUTOSCHED_SCHEDULE_FOR may give the loop ("solver.c:42=fac2"; empty when
  /// that variable names no loop) and the drop-in's reading of OMP_SCHEDULE.
  [[nodiscard]] std::span<const std::string_view> names() const noexcept { return name_views_; }
  [[nodiscard]] const Schedule* fallback() const noexcept { return fallback_; }
  /// The arm the program's own runtime would have run ("ss,chunk=1" for
  /// libgomp's default dynamic,1), in the report's arm spelling.
  [[nodiscard]] const std::string& native_arm() const noexcept { return native_arm_; }

  /// What record() found new.
  struct Recorded {
    bool first_instance = false;  ///< the site's first instance
    bool new_point = false;       ///< the first instance of its decision point: call record_point
  };
  /// Adds a closed instance, of decision point `point` (nullptr for a fixed
  /// schedule). Allocates nothing: it runs on the program's thread that
  /// closed the instance, and a block the drop-in takes from the program's
  /// heap there, even one freed again, can stay cached above the program's
  /// own blocks and keep glibc from trimming the heap (docs/dropin.md, "The heap").
  Recorded record(const InstanceRecord& record, const void* point = nullptr) noexcept;
  /// The latest instance record() saw.
  [[nodiscard]] LastInstance last() const noexcept;
  /// Instances and chunks so far (the drop-in's counts sum them over sites).
  void add_counts(std::uint64_t& instances, std::uint64_t& chunks) const noexcept;
  /// Notes the decision point `point` of this loop and the instances its
  /// state had learned from before this run (0: it started cold).
  void record_point(const void* point, long resumed_instances) noexcept;
  [[nodiscard]] SiteStats stats() const;

 private:
  std::string id_;
  SitePlace place_;
  mutable std::once_flag where_once_;
  mutable std::string where_;
  drive::Loop* loop_;
  std::array<std::string, 3> names_;
  std::array<std::string_view, 3> name_views_{};
  const Schedule* fallback_ = nullptr;
  std::string native_arm_;
  /// Guards the statistics. Taken once per closed instance, by the thread
  /// that closes it: inline (a pthread pair cost a quarter of record()).
  /// On a line of its own with them: every thread of a team reads the
  /// fields above when it enters the loop, and a closing thread writing
  /// beside them made each entry wait for the line.
  alignas(64) mutable drive::InlineMutex mutex_;
  std::uint64_t instances_ = 0, explored_ = 0, chunks_ = 0;
  double total_ns_ = 0;
  /// The latest instance, its arm spelled by stats() (formatting it per
  /// instance cost more than the rest of record()).
  LastInstance last_;
  /// The decision points met (fixed: record_point runs on the program's threads).
  static constexpr int max_points = 32;
  const void* points_[max_points] = {};
  long points_resumed_[max_points] = {};
  int n_points_ = 0;
};

/// The site of the call at `return_address` (a return address into the
/// program), created on first use; `source` is ident_t's psource or nullptr.
/// After a site's first call, a lookup without lock or allocation.
LoopSite& loop_site(const void* return_address, const char* source, Runtime runtime, AskedKind asked,
                    long asked_chunk);
/// The site whose loop id is `id`, or nullptr (not a drop-in loop).
LoopSite* find_site(std::string_view id);
/// The site whose drive::Loop is named by `loop_name` (the pointer the
/// driver's ClosedInstance carries, Loop::name().c_str()), or nullptr: a
/// lookup by address without lock or allocation, for every closed instance;
/// falls back to find_site for a site the lock-free table had no room for.
LoopSite* site_of_loop(const char* loop_name) noexcept;
/// Every site so far, in the order they were first called.
std::vector<LoopSite*> all_sites();

/// The id of the code at `address` in the form loop ids take
/// ("omp:solver@3fa2c19b07d1+0x1a2c"): a parallel region's outlined function.
std::string code_id(const void* address);
/// Sites that closed an instance, and their instances and chunks, summed
/// without allocating (autosched_omp_get_counts may run between loops).
struct SiteTotals {
  std::uint64_t loops = 0, instances = 0, chunks = 0;
};
SiteTotals site_totals() noexcept;

/// The arm spelling of a record's technique and chunk ("gss,chunk=4", "static").
std::string arm_text(std::string_view technique, std::int64_t chunk);

}  // namespace autosched::omp
