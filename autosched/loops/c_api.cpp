#include <autosched/loops/autosched.h>
#include <autosched/core/c_status.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/loops/detail/loop_call.hpp>
#include <autosched/loops/loop_options.hpp>
#include <autosched/loops/loop_registry.hpp>
#include <autosched/techniques/iteration_counter.hpp>

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>

namespace autosched {
namespace {

std::string describe(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception not derived from std::exception";
  }
}

struct CLoop {
  autosched_loop_body body;
  void* arg;
};

void run_chunk(void* loop, std::int64_t first, std::int64_t last) {
  const auto& c = *static_cast<const CLoop*>(loop);
  try {
    c.body(first, last, c.arg);
  } catch (...) {
    // Thrown in place of the body's own so that the boundary tells a failing
    // body from a bad argument (the runtime rethrows the first body
    // exception to the caller).
    throw c_api::CallerFailed{"the body threw: " + describe(std::current_exception())};
  }
}

template <std::size_t N>
void copy_name(char (&to)[N], std::string_view from) noexcept {
  const std::size_t n = std::min(from.size(), N - 1);
  std::memcpy(to, from.data(), n);
  to[n] = '\0';
}

std::string_view text_or_empty(const char* s) noexcept {
  return s != nullptr ? std::string_view(s) : std::string_view();
}

}  // namespace
}  // namespace autosched

using namespace autosched;

extern "C" {

void autosched_loop_options_init(autosched_loop_options* options) {
  if (options == nullptr) return;
  *options = autosched_loop_options{};
  options->team = AUTOSCHED_TEAM_AUTOMATIC;
}

int autosched_parallel_for(int64_t begin, int64_t end, autosched_loop_body body, void* arg,
                           const autosched_loop_options* options) {
  constexpr std::string_view call = "autosched_parallel_for";
  if (options == nullptr) return c_api::fail(AUTOSCHED_EINVAL, "autosched_parallel_for: options is NULL");
  if (body == nullptr) return c_api::fail(AUTOSCHED_EINVAL, "autosched_parallel_for: body is NULL");
  if (options->name == nullptr || options->name[0] == '\0') {
    return c_api::fail(AUTOSCHED_EINVAL,
                "autosched_parallel_for: options->name is empty: a C loop needs a name "
                "(its learning and records are keyed by it)");
  }
  return c_api::guarded(call, [&]() -> int {
    const std::string where = std::string(call) + "(" + options->name + ")";
    if (options->threads < 0 || options->threads > max_workers) {
      const std::string accepted = "0 (OpenMP's default) or a team size in [1, " + std::to_string(max_workers) + "]";
      return c_api::fail(AUTOSCHED_EINVAL,
                  where + ": " + text::bad_value("options->threads", std::to_string(options->threads), accepted));
    }
    if (options->team < AUTOSCHED_TEAM_AUTOMATIC || options->team > AUTOSCHED_TEAM_OPEN) {
      const std::string accepted = "AUTOSCHED_TEAM_AUTOMATIC (0), AUTOSCHED_TEAM_JOIN (1) or AUTOSCHED_TEAM_OPEN (2)";
      return c_api::fail(AUTOSCHED_EINVAL,
                  where + ": " + text::bad_value("options->team", std::to_string(options->team), accepted));
    }
    static_assert(AUTOSCHED_TEAM_AUTOMATIC == static_cast<int>(Team::automatic) &&
                  AUTOSCHED_TEAM_JOIN == static_cast<int>(Team::join) &&
                  AUTOSCHED_TEAM_OPEN == static_cast<int>(Team::open));
    LoopOptions o;
    o.name = options->name;
    o.schedule = text_or_empty(options->schedule);
    o.threads = options->threads;
    o.team = static_cast<Team>(options->team);
    o.nowait = options->nowait != 0;
    o.timing = options->time_chunks != 0 ? Timing::chunks : Timing::threads;
    CLoop loop{body, arg};
    // No SequenceRunner: the runtime hands out sequence chunks through run_chunk
    // too, and the C body is an indirect call either way.
    return c_api::guarded(where, [&]() -> int {
      detail::run_loop({begin, end, &run_chunk, nullptr, &loop, &o, SourceLocation{}});
      return AUTOSCHED_OK;
    });
  });
}

int autosched_last_instance(const char* name, autosched_loop_instance* out) {
  if (name == nullptr || out == nullptr) return c_api::fail(AUTOSCHED_EINVAL, "autosched_last_instance: NULL argument");
  return c_api::guarded("autosched_last_instance", [&]() -> int {
    const auto r = last_instance(name);
    if (!r) {
      return c_api::fail(AUTOSCHED_ESTATE,
                  std::string("autosched_last_instance: loop '") + name + "' has not finished an instance");
    }
    autosched_loop_instance x{};
    x.instance = r->instance;
    copy_name(x.technique, r->technique);
    copy_name(x.selector, r->selector);
    x.chunk = r->chunk;
    x.n = r->n;
    x.p = r->p;
    x.failed = r->failed ? 1 : 0;
    x.loop_time_ns = r->metrics.loop_time_ns;
    x.lib = r->metrics.lib;
    x.percent_imbalance = r->metrics.percent_imbalance;
    *out = x;
    return AUTOSCHED_OK;
  });
}

int autosched_flush_records(void) {
  return c_api::guarded("autosched_flush_records", [] {
    flush_records();
    return AUTOSCHED_OK;
  });
}

}  // extern "C"
