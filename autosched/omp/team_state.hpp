#pragma once
/// @file
/// What a thread knows about the team it works in. The threads of a team must
/// share one instance of each loop they meet; the driver matches them by a
/// team address and a per-thread count of loops (drive::TeamTicket). The
/// runtimes expose no team identity, so the drop-in wraps the calls that start
/// parallel regions (GOMP_parallel*, __kmpc_fork_call): every thread of the
/// new team runs the region's function through a trampoline that pushes a
/// TeamState naming the region's frame, and pops it after.
///
/// A thread outside any wrapped region has its own implicit state: fine for a
/// team of one (sequential code, `if(0)`), while a larger team that started
/// elsewhere cannot be identified and its loops are forwarded.

#include <autosched/drive/cursor.hpp>

#include <cstdint>
#include <optional>

namespace autosched::omp {

/// A loop this thread is running for the drop-in.
struct ActiveLoop {
  enum class Mode : std::uint8_t {
    none,      ///< no taken loop: calls go to the real runtime
    cursor,    ///< chunks come from the driver
    fallback,  ///< the driver could not open the instance: this thread's static block
  };
  Mode mode = Mode::none;
  drive::Instance* instance = nullptr;  ///< cursor mode: the shared instance
  std::optional<drive::Cursor> cursor;
  IndexRange block;  ///< fallback: the block, handed out once
  /// Iteration value of index i = first + i·step, in the runtime's integer
  /// type (computed modulo 2^64, so signed, unsigned, up and down agree).
  std::uint64_t first = 0;
  std::uint64_t step = 1;
  /// The value the runtime reports as the end of the final chunk (libgomp's
  /// exclusive `end`, so first + n·step, which may overflow, is never formed).
  std::uint64_t end_value = 0;
  std::int64_t n = 0;
};

struct StaticSlot;  // static_loops.hpp

struct TeamState {
  const void* team = nullptr;  ///< the region's frame; nullptr: the implicit state
  std::uint64_t sequence = 0;  ///< loops this thread took in this team so far
  ActiveLoop active;
  TeamState* outer = nullptr;
  /// A static loop this thread runs for the drop-in (AUTOSCHED_OMP_LOOPS=static),
  /// from its __kmpc_for_static_init to its __kmpc_for_static_fini.
  StaticSlot* static_slot = nullptr;
  std::int64_t static_start_ns = 0;
  int static_tid = 0;
  bool static_native = false;  ///< the runtime split it (its fini is the runtime's too)
};

namespace thread_state {
/// The innermost region state of this thread; nullptr outside wrapped regions.
/// Initial-exec TLS: the drop-in is preloaded, so its TLS is in the static
/// block and reading it on every chunk request costs no __tls_get_addr call.
extern constinit thread_local TeamState* current __attribute__((tls_model("initial-exec")));
TeamState& implicit_state() noexcept;
}  // namespace thread_state

/// The calling thread's innermost state (its implicit one outside regions).
inline TeamState& current_team() noexcept {
  TeamState* s = thread_state::current;
  return s != nullptr ? *s : thread_state::implicit_state();
}

/// Pushes a state for region `frame` on this thread for its lifetime.
class TeamScope {
 public:
  explicit TeamScope(const void* frame) noexcept;
  ~TeamScope();
  TeamScope(const TeamScope&) = delete;
  TeamScope& operator=(const TeamScope&) = delete;

 private:
  TeamState state_;
};

}  // namespace autosched::omp
