// The C interface of the MPI loops: a handle that holds one Execution at a
// time and turns DLS4LB's push-style calls (terminated / start chunk / end
// chunk) into Execution::next(). terminated() pulls the next range and keeps
// it for start_chunk(), so a chunk is received once however the two calls
// are interleaved.

#include <autosched/mpi/autosched_mpi.h>

#include <autosched/core/c_status.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/index_range.hpp>
#include <autosched/mpi/execution.hpp>
#include <autosched/select/grammar/schedule.hpp>
#include <autosched/select/grammar/schedule_environment.hpp>

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <utility>
#include <new>
#include <optional>
#include <string>
#include <string_view>

struct autosched_mpi_loop {
  enum class Phase {
    idle,      ///< between instances
    running,   ///< after start_loop; `pending` may hold the next range
    in_chunk,  ///< between start_chunk and end_chunk
  };
  MPI_Comm comm = MPI_COMM_NULL;
  std::string name;
  std::string schedule;
  autosched::mpi::Protocol protocol = autosched::mpi::Protocol::automatic;
  std::int64_t request_when = 0;
  std::int64_t break_after = 0;
  Phase phase = Phase::idle;
  std::unique_ptr<autosched::mpi::Execution> execution;
  std::optional<autosched::IndexRange> pending;  ///< pulled by terminated(), not yet started
  bool drained = false;                          ///< next() returned an empty range
  std::optional<autosched::mpi::LoopResult> last;
};

namespace autosched::mpi {
namespace {

using Phase = autosched_mpi_loop::Phase;

using c_api::fail;

/// The shared guard (core/c_status.hpp) with the status an input the
/// library rejects gets in this call first, as this file's calls read best.
template <class F>
int guarded(std::string_view call, int rejected, F&& f) noexcept {
  return c_api::guarded(call, std::forward<F>(f), rejected);
}

int null_handle(std::string_view call) noexcept {
  return fail(AUTOSCHED_MPI_EINVAL, std::string(call) + ": the loop handle is NULL");
}

int out_of_order(std::string_view call, const autosched_mpi_loop& loop, std::string_view expected) noexcept {
  try {
    return fail(AUTOSCHED_MPI_ESTATE, std::string(call) + "(" + loop.name + "): " + std::string(expected));
  } catch (...) {
    return fail(AUTOSCHED_MPI_ESTATE, call);
  }
}

int setup(MPI_Comm comm, const char* loop_name, autosched_mpi_loop** out) noexcept {
  constexpr std::string_view call = "autosched_mpi_setup";
  if (out == nullptr) return fail(AUTOSCHED_MPI_EINVAL, "autosched_mpi_setup: the handle pointer is NULL");
  *out = nullptr;
  if (loop_name == nullptr || loop_name[0] == '\0') {
    return fail(AUTOSCHED_MPI_EINVAL,
                     "autosched_mpi_setup: the loop name is empty: an MPI loop needs a name "
                     "(its learning and records are keyed by it)");
  }
  if (comm == MPI_COMM_NULL)
    return fail(AUTOSCHED_MPI_EINVAL, "autosched_mpi_setup: the communicator is MPI_COMM_NULL");
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    return fail(AUTOSCHED_MPI_EFAILED, "autosched_mpi_setup: MPI is not initialised (call MPI_Init first)");
  }
  return guarded(call, AUTOSCHED_MPI_EINVAL, [&]() -> int {
    auto loop = std::make_unique<autosched_mpi_loop>();
    loop->comm = comm;
    loop->name = loop_name;
    *out = loop.release();
    return AUTOSCHED_MPI_OK;
  });
}

/// Pulls the next range unless one is pending; false once drained.
bool pull(autosched_mpi_loop& loop) {
  if (!loop.pending && !loop.drained) {
    const IndexRange r = loop.execution->next();
    if (r.empty()) {
      loop.drained = true;
    } else {
      loop.pending = r;
    }
  }
  return loop.pending.has_value();
}

template <std::size_t N>
void copy_text(char (&to)[N], std::string_view from) noexcept {
  const std::size_t n = std::min(from.size(), N - 1);
  std::memcpy(to, from.data(), n);
  to[n] = '\0';
}

}  // namespace
}  // namespace autosched::mpi

using namespace autosched::mpi;

extern "C" {

int autosched_mpi_setup(MPI_Comm comm, const char* loop_name, autosched_mpi_loop** loop) {
  return setup(comm, loop_name, loop);
}

int autosched_mpi_setup_fint(MPI_Fint comm, const char* loop_name, autosched_mpi_loop** loop) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  // MPI_Comm_f2c needs an initialised MPI; setup() reports the error otherwise.
  return setup(initialized ? MPI_Comm_f2c(comm) : MPI_COMM_WORLD, loop_name, loop);
}

int autosched_mpi_set_schedule(autosched_mpi_loop* loop, const char* schedule) {
  constexpr std::string_view call = "autosched_mpi_set_schedule";
  if (loop == nullptr) return null_handle(call);
  if (loop->phase != Phase::idle) return out_of_order(call, *loop, "an instance is running: call it before start_loop");
  return guarded(std::string(call) + "(" + loop->name + ")", AUTOSCHED_MPI_EINVAL, [&]() -> int {
    const std::string_view text = schedule != nullptr ? std::string_view(schedule) : std::string_view();
    // The coordinator parses it again at each instance; checking it on every
    // rank here reports a typo where it was made.
    if (!text.empty())
      (void)autosched::parse_schedule(autosched::schedule_environment().with_rl_keys(text), "schedule");
    loop->schedule = std::string(text);
    return AUTOSCHED_MPI_OK;
  });
}

int autosched_mpi_set_parameters(autosched_mpi_loop* loop, const char* protocol, int64_t request_when,
                                 int64_t break_after) {
  constexpr std::string_view call = "autosched_mpi_set_parameters";
  if (loop == nullptr) return null_handle(call);
  if (loop->phase != Phase::idle) return out_of_order(call, *loop, "an instance is running: call it before start_loop");
  return guarded(std::string(call) + "(" + loop->name + ")", AUTOSCHED_MPI_EINVAL, [&]() -> int {
    const std::string_view text = protocol != nullptr ? std::string_view(protocol) : std::string_view();
    Protocol p = Protocol::automatic;
    if (text == protocol_name(Protocol::master_worker)) {
      p = Protocol::master_worker;
    } else if (text == protocol_name(Protocol::rma)) {
      p = Protocol::rma;
    } else if (!text.empty() && text != protocol_name(Protocol::automatic)) {
      return fail(AUTOSCHED_MPI_EINVAL, std::string(call) + "(" + loop->name + "): protocol=" + std::string(text) +
                                                 ": expected auto, master-worker or rma");
    }
    if (request_when < 0 || break_after < 0) {
      return fail(AUTOSCHED_MPI_EINVAL,
                       std::string(call) + "(" + loop->name + "): request_when=" + std::to_string(request_when) +
                           ", break_after=" + std::to_string(break_after) + ": expected 0 (the default) or more");
    }
    loop->protocol = p;
    loop->request_when = request_when;
    loop->break_after = break_after;
    return AUTOSCHED_MPI_OK;
  });
}

int autosched_mpi_start_loop(autosched_mpi_loop* loop, int64_t first, int64_t last_exclusive) {
  constexpr std::string_view call = "autosched_mpi_start_loop";
  if (loop == nullptr) return null_handle(call);
  if (loop->phase != Phase::idle) {
    return out_of_order(call, *loop, "the previous instance is still running: call end_loop first");
  }
  return guarded(std::string(call) + "(" + loop->name + ")", AUTOSCHED_MPI_EINVAL, [&]() -> int {
    LoopOptions options;
    options.name = loop->name;
    options.schedule = loop->schedule;
    options.protocol = loop->protocol;
    options.request_when = loop->request_when;
    options.break_after = loop->break_after;
    loop->pending.reset();
    loop->drained = false;
    loop->execution = std::make_unique<Execution>(loop->comm, first, last_exclusive, options);
    loop->phase = Phase::running;
    return AUTOSCHED_MPI_OK;
  });
}

int autosched_mpi_terminated(autosched_mpi_loop* loop, int* done) {
  constexpr std::string_view call = "autosched_mpi_terminated";
  if (loop == nullptr) return null_handle(call);
  if (done == nullptr) return fail(AUTOSCHED_MPI_EINVAL, "autosched_mpi_terminated: `done` is NULL");
  switch (loop->phase) {
    case Phase::idle:
      return out_of_order(call, *loop, "no instance is running: call start_loop first");
    case Phase::in_chunk:
      return out_of_order(call, *loop, "a chunk is open: call end_chunk first");
    case Phase::running:
      break;
  }
  return guarded(std::string(call) + "(" + loop->name + ")", AUTOSCHED_MPI_EFAILED, [&]() -> int {
    *done = pull(*loop) ? 0 : 1;
    return AUTOSCHED_MPI_OK;
  });
}

int autosched_mpi_start_chunk(autosched_mpi_loop* loop, int64_t* start, int64_t* size) {
  constexpr std::string_view call = "autosched_mpi_start_chunk";
  if (loop == nullptr) return null_handle(call);
  if (start == nullptr || size == nullptr) {
    return fail(AUTOSCHED_MPI_EINVAL, "autosched_mpi_start_chunk: `start` or `size` is NULL");
  }
  switch (loop->phase) {
    case Phase::idle:
      return out_of_order(call, *loop, "no instance is running: call start_loop first");
    case Phase::in_chunk:
      return out_of_order(call, *loop, "the previous chunk is still open: call end_chunk first");
    case Phase::running:
      break;
  }
  return guarded(std::string(call) + "(" + loop->name + ")", AUTOSCHED_MPI_EFAILED, [&]() -> int {
    if (!pull(*loop)) {
      *start = 0;
      *size = 0;
      return AUTOSCHED_MPI_OK;
    }
    *start = loop->pending->begin;
    *size = loop->pending->size();
    loop->pending.reset();
    loop->phase = Phase::in_chunk;
    return AUTOSCHED_MPI_OK;
  });
}

int autosched_mpi_end_chunk(autosched_mpi_loop* loop) {
  constexpr std::string_view call = "autosched_mpi_end_chunk";
  if (loop == nullptr) return null_handle(call);
  if (loop->phase != Phase::in_chunk) return out_of_order(call, *loop, "no chunk is open: call start_chunk first");
  // The chunk's time ends at the next pull (terminated or start_chunk), as in
  // Execution::next(): the usual loop calls terminated() right after this.
  loop->phase = Phase::running;
  return AUTOSCHED_MPI_OK;
}

int autosched_mpi_fail(autosched_mpi_loop* loop, const char* message) {
  constexpr std::string_view call = "autosched_mpi_fail";
  if (loop == nullptr) return null_handle(call);
  if (loop->phase == Phase::idle) return out_of_order(call, *loop, "no instance is running");
  return guarded(std::string(call) + "(" + loop->name + ")", AUTOSCHED_MPI_EFAILED, [&]() -> int {
    loop->execution->fail(message != nullptr && message[0] != '\0' ? std::string(message)
                                                                   : std::string("autosched_mpi_fail was called"));
    loop->pending.reset();
    loop->drained = true;
    loop->phase = Phase::running;
    return AUTOSCHED_MPI_OK;
  });
}

int autosched_mpi_end_loop(autosched_mpi_loop* loop, int64_t* iterations, double* work_seconds) {
  constexpr std::string_view call = "autosched_mpi_end_loop";
  if (loop == nullptr) return null_handle(call);
  if (loop->phase == Phase::idle) return out_of_order(call, *loop, "no instance is running: call start_loop first");
  if (iterations != nullptr) *iterations = 0;
  if (work_seconds != nullptr) *work_seconds = 0;
  // Whatever finish() does, the instance is over on this rank.
  std::unique_ptr<Execution> execution = std::move(loop->execution);
  loop->phase = Phase::idle;
  loop->pending.reset();
  return guarded(std::string(call) + "(" + loop->name + ")", AUTOSCHED_MPI_EABORTED, [&]() -> int {
    // finish() throws autosched::Error only for an aborted instance (every
    // rank then throws); a rank that ends early is failed by finish() itself.
    LoopResult r = execution->finish();
    if (iterations != nullptr) *iterations = r.own_iterations;
    if (work_seconds != nullptr) *work_seconds = r.own_work_seconds;
    loop->last = std::move(r);
    return AUTOSCHED_MPI_OK;
  });
}

int autosched_mpi_last_result(const autosched_mpi_loop* loop, autosched_mpi_loop_result* result) {
  constexpr std::string_view call = "autosched_mpi_last_result";
  if (loop == nullptr) return null_handle(call);
  if (result == nullptr) return fail(AUTOSCHED_MPI_EINVAL, "autosched_mpi_last_result: `result` is NULL");
  if (!loop->last) return out_of_order(call, *loop, "no instance has ended successfully yet");
  const LoopResult& r = *loop->last;
  autosched_mpi_loop_result x{};
  copy_text(x.technique, r.technique);
  copy_text(x.protocol, protocol_name(r.protocol));
  x.loop_seconds = r.loop_seconds;
  x.iterations = r.iterations;
  x.own_iterations = r.own_iterations;
  x.own_chunks = r.own_chunks;
  x.own_work_seconds = r.own_work_seconds;
  x.percent_imbalance = r.percent_imbalance;
  *result = x;
  return AUTOSCHED_MPI_OK;
}

int autosched_mpi_finalize(autosched_mpi_loop** loop) {
  if (loop == nullptr) return fail(AUTOSCHED_MPI_EINVAL, "autosched_mpi_finalize: the handle pointer is NULL");
  if (*loop == nullptr) return AUTOSCHED_MPI_OK;
  if ((*loop)->phase != Phase::idle) {
    return out_of_order("autosched_mpi_finalize", **loop,
                        "an instance is running: call end_loop first (the other ranks wait for this one)");
  }
  delete *loop;
  *loop = nullptr;
  return AUTOSCHED_MPI_OK;
}

const char* autosched_mpi_last_error(void) { return autosched::c_api::last_error(); }

}  // extern "C"
