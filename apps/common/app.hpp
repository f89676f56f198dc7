#pragma once
/// @file
/// What every benchmark application shares: its command line, running a
/// named loop under the schedule being evaluated (an autosched schedule or one
/// of OpenMP's own, as external references), timing each instance as the
/// application sees it, and the per-step record that `autosched bench` reads.
///
/// Common options of every app:
///   --steps T            time steps (each runs every loop of the app once)
///   --threads P          team size (default: OpenMP's)
///   --schedule S         an autosched schedule for every loop (`gss`,
///                        `static,chunk=expert`, `auto:qlearn`, ...), or
///                        `omp:static`, `omp:dynamic`, `omp:guided` for a plain
///                        `#pragma omp for` with that OpenMP schedule;
///                        empty: autosched's default (AUTOSCHED_SCHEDULE or auto)
///   --record FILE        one CSV row per loop instance (see Recorder)
///   --level-reference    after each instance of a loop, run its work once
///                        more under a fixed balanced schedule (reference()),
///                        recorded as `<loop>@reference`:
///                        the level this process runs at, which `autosched
///                        report` divides out (docs/campaigns.md)
///   --quiet              no per-run summary on stdout
/// plus the app's own size options (`--help` lists them with defaults).
///
/// Built with AUTOSCHED_APPS_PLAIN_OPENMP defined (the `autosched-plain-<app>`
/// executables), the same apps are plain OpenMP programs: every loop is a
/// `#pragma omp parallel for schedule(runtime)`, and only OpenMP and the
/// standard library are used, so the OpenMP drop-in (libautosched-omp.so,
/// preloaded) can take their loops over as it would any unmodified code's.
/// There `--schedule` takes only omp:static|omp:dynamic|omp:guided (it sets
/// the runtime schedule with omp_set_schedule); without it the schedule is
/// OMP_SCHEDULE's, or the drop-in's AUTOSCHED_SCHEDULE when it is preloaded.
/// The record's arm is then `omp-<kind>` or, without --schedule, `runtime`
/// (the dispatcher's choice), explored 0; under the drop-in, the arm it ran,
/// with its explored, selection and cut flags (autosched_omp_last_instance).

#ifndef AUTOSCHED_APPS_PLAIN_OPENMP
#include <autosched/autosched.hpp>
#endif

#include <omp.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace autosched::apps {

/// One size option of an app: `--name value`.
struct SizeOption {
  std::string name;
  double value;  ///< the default, replaced by the command line
  std::string help;
  bool integer = true;
};

/// How a loop instance runs: through autosched, or through OpenMP's own
/// schedule; in the plain OpenMP build always `schedule(runtime)`, whose
/// schedule the omp_* runners only choose.
enum class Runner : std::uint8_t { autosched, omp_static, omp_dynamic, omp_guided };

/// The suffix of the record's loop name for a level reference instance.
inline constexpr const char* reference_suffix = "@reference";

/// The work of one level reference instance (App::reference): thread t's
/// share is static's, [n·t/P, n·(t+1)/P); its owner takes it from the front
/// in blocks of 1/64 of a share, and a thread whose share is done takes
/// blocks from the back of the next unfinished share. One lock per share:
/// 64·P takes an instance, few of them contended.
class ReferenceShares {
 public:
  ReferenceShares(std::int64_t n, int threads)
      : count_(threads > 0 ? threads : 1), shares_(static_cast<std::size_t>(count_)) {
    for (int t = 0; t < count_; ++t) {
      shares_[t].front = n * t / count_;
      shares_[t].back = n * (t + 1) / count_;
    }
    const std::int64_t block = n / (64 * std::int64_t{count_});
    block_ = block > 0 ? block : 1;
  }

  /// The next block for thread `me` into [begin, end); false when every share is done.
  bool take(int me, std::int64_t& begin, std::int64_t& end) {
    for (int k = 0; k < count_; ++k) {
      Share& s = shares_[static_cast<std::size_t>((me + k) % count_)];
      const std::lock_guard<std::mutex> lock(s.mutex);
      if (s.front >= s.back) continue;
      if (k == 0) {  // our own share, from the front
        begin = s.front;
        end = s.back - s.front < block_ ? s.back : s.front + block_;
        s.front = end;
      } else {  // another's, from the back
        end = s.back;
        begin = s.back - s.front < block_ ? s.front : s.back - block_;
        s.back = begin;
      }
      return true;
    }
    return false;
  }

 private:
  struct Share {
    std::mutex mutex;
    std::int64_t front = 0, back = 0;
  };
  int count_;
  std::int64_t block_ = 1;
  std::vector<Share> shares_;
};

/// The executables' prefix: `autosched-` or, plain OpenMP, `autosched-plain-`.
#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
inline constexpr const char* program_prefix = "autosched-plain-";
#else
inline constexpr const char* program_prefix = "autosched-";
#endif

class App {
 public:
  /// Parses the command line; prints usage and exits 0 on --help, exits 2
  /// with a message naming the option on bad input.
  App(std::string name, std::string description, int argc, char** argv, std::vector<SizeOption> sizes,
      int default_steps);
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  [[nodiscard]] long size(const std::string& option) const;
  [[nodiscard]] double real(const std::string& option) const;
  [[nodiscard]] int steps() const noexcept { return steps_; }
  /// Team size: --threads, else OpenMP's.
  [[nodiscard]] int threads() const noexcept { return threads_; }
  [[nodiscard]] bool quiet() const noexcept { return quiet_; }

  /// Runs body(i) for i in [0, n) as instance `step` of loop `loop`, under
  /// the schedule being evaluated, and records it.
  template <class Body>
  void loop(const std::string& loop, std::int64_t n, Body&& body) {
    const auto start = std::chrono::steady_clock::now();
#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
    // One call site per instantiation, i.e. per loop body: what the drop-in
    // tells loops apart by.
#pragma omp parallel for schedule(runtime) num_threads(threads_)
    for (std::int64_t i = 0; i < n; ++i) body(i);
#else
    switch (runner_) {
      case Runner::autosched:
        autosched::parallel_for(std::int64_t{0}, n, body, {.name = loop, .schedule = schedule_, .threads = threads_});
        break;
      case Runner::omp_static:
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (std::int64_t i = 0; i < n; ++i) body(i);
        break;
      case Runner::omp_dynamic:
#pragma omp parallel for schedule(dynamic) num_threads(threads_)
        for (std::int64_t i = 0; i < n; ++i) body(i);
        break;
      case Runner::omp_guided:
#pragma omp parallel for schedule(guided) num_threads(threads_)
        for (std::int64_t i = 0; i < n; ++i) body(i);
        break;
    }
#endif
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start);
    record(loop, static_cast<double>(ns.count()));
  }

  /// With --level-reference, runs body(i) for i in [0, n) once more under a
  /// fixed balanced schedule that no selector and no drop-in touches, right
  /// after the loop's instance, in the same process, so whatever makes this
  /// process or this minute fast or slow shows in both; recorded as
  /// `<loop>@reference`, not counted in the app's own totals. The body does
  /// the loop's work: the loop's own body where it may run twice over its
  /// range with the same outcome (stream-triad's a = b + s·c, a pixel, a
  /// particle's force), else the same computation into the reference's own
  /// accumulators (a sum into the app's per-thread counters would count
  /// twice). Without the option it does nothing.
  ///
  /// Balanced, not static: each thread starts on its own contiguous share
  /// (static's), takes it block by block from the front, and when it is done
  /// takes blocks from the back of the others' shares (ReferenceShares). A
  /// thread the host runs faster so does more, while each thread still
  /// streams through one contiguous region, as static does. On the 2-vCPU
  /// guests the host sometimes feeds one vCPU faster than the other
  /// (stream-triad's fast phases, docs/RESULTS.md); a static reference then
  /// measured that imbalance as well as the process's speed, and dividing by
  /// it rewarded balancing arms only in the processes that happened to run in
  /// such a phase. Blocks from one shared counter instead were tried and
  /// dropped: interleaving the threads' blocks made stream-triad's reference
  /// 45% slower than its loop on the same guest. Locks and no OpenMP loop
  /// call: the drop-in never sees the reference.
  ///
  /// A separate call with its own body object, not an option of loop(), and
  /// never inlined into the caller: handing loop()'s body to a second
  /// function changed how GCC 12 compiled the measured loop (stream-triad ran
  /// 0.78 instead of 0.60 ms a step at n = 2·10⁶), so did a reference's
  /// parallel region compiled into main, and a measurement must not slow what
  /// it measures.
  template <class Body>
  [[gnu::noinline]] void reference(const std::string& loop, std::int64_t n, Body&& body) {
    if (!level_reference_) return;
    ReferenceShares shares(n, threads_);
    const auto start = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads_)
    {
      // Each thread's own copy of the body: its captures cannot alias what
      // the body writes, so the compiler keeps them in registers and the
      // reference runs as fast as the loop it stands for (through the shared
      // object, the plain build's reference ran 0.75 against 0.55 ms).
      std::decay_t<Body> local = body;
      const int me = omp_get_thread_num();
      std::int64_t begin = 0, end = 0;
      while (shares.take(me, begin, end))
        for (std::int64_t i = begin; i < end; ++i) local(i);
    }
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start);
    record_reference(loop, static_cast<double>(ns.count()));
  }

  /// Ends a time step (the loops run since the last call belong to it).
  void end_step() noexcept { ++step_; }

  /// Prints the outcome and returns the exit code: 0 when `verified`, 1
  /// otherwise (a scheduling bug must never pass as a speed-up).
  int finish(bool verified, const std::string& what);

 private:
  void record(const std::string& loop, double ns);

  void record_reference(const std::string& loop, double ns);

  std::string name_;
  std::vector<SizeOption> sizes_;
  int steps_ = 0;
  int threads_ = 0;
  std::string schedule_;
  Runner runner_ = Runner::autosched;
  bool quiet_ = false;
  bool level_reference_ = false;
  int step_ = 0;
  std::FILE* record_ = nullptr;
#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
  unsigned long long dropin_seen_ = 0;  ///< the drop-in's instance count at the last record
#endif
  double total_ns_ = 0;
  std::map<std::string, double> loop_ns_;
};

/// A 64-bit mixer (splitmix64): deterministic pseudo-random values from an index.
inline std::uint64_t mix(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Uniform in [0, 1) from an index.
inline double uniform(std::uint64_t x) noexcept { return static_cast<double>(mix(x) >> 11) * 0x1.0p-53; }

/// Per-thread accumulators on their own cache lines (reductions inside a loop
/// body, indexed by omp_get_thread_num(), valid in autosched and OpenMP teams).
template <class T>
class PerThread {
 public:
  explicit PerThread(int threads) : slots_(static_cast<std::size_t>(threads)) {}
  T& local() noexcept { return slots_[static_cast<std::size_t>(omp_get_thread_num())].value; }
  void reset(T v = T{}) noexcept {
    for (auto& s : slots_) s.value = v;
  }
  [[nodiscard]] T sum() const noexcept {
    T total{};
    for (const auto& s : slots_) total += s.value;
    return total;
  }

 private:
  struct alignas(64) Slot {
    T value{};
  };
  std::vector<Slot> slots_;
};

}  // namespace autosched::apps
