#include <autosched/omp/dropin_loop.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/forked_child.hpp>
#include <autosched/core/text.hpp>
#include <autosched/drive/observer.hpp>
#include <autosched/pinning/team_pinning.hpp>
#include <autosched/omp/real_runtime.hpp>
#include <autosched/omp/report.hpp>
#include <autosched/select/engine/decision_engine.hpp>
#include <autosched/session/session.hpp>
#include <autosched/techniques/static.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <limits>
#include <mutex>
#include <string_view>

namespace autosched::omp {

namespace {

constexpr int reason_count = static_cast<int>(ForwardReason::count_);

/// The counts of what went elsewhere. Loops, instances and chunks are the
/// sites' (site_totals): counting them here, on one line every closing
/// thread wrote, moved that line between the team's cores on every instance.
struct Counters {
  std::atomic<std::uint64_t> forwarded{0}, fallbacks{0}, regions{0};
  std::atomic<std::uint64_t> forwarded_by[reason_count] = {};
};

Counters& counters() {
  static auto* c = new Counters;  // read by the report at exit: never destroyed
  return *c;
}

/// The drop-in's switches, read once.
struct Settings {
  bool enabled = true;        ///< AUTOSCHED_OMP (default on)
  bool all_loops = false;     ///< AUTOSCHED_OMP_LOOPS names all: dynamic and guided loops too
  bool static_loops = false;  ///< AUTOSCHED_OMP_LOOPS names static: libomp's static loops too
};

/// AUTOSCHED_OMP_LOOPS: a comma-separated list of runtime (always taken),
/// all and static; a word it does not know is warned about and skipped.
[[gnu::noinline, gnu::cold]] Settings read_settings() {
  Settings out;
  out.enabled = environment::flag("AUTOSCHED_OMP", true);
  if (auto loops = environment::get("AUTOSCHED_OMP_LOOPS")) {
    std::string_view rest = *loops;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      const std::string word = text::lower(text::trim(rest.substr(0, comma)));
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      if (word == "all") {
        out.all_loops = true;
      } else if (word == "static") {
        out.static_loops = true;
      } else if (word != "runtime" && !word.empty()) {
        detail::warn(text::bad_value("AUTOSCHED_OMP_LOOPS", *loops,
                                     "a comma-separated list of runtime (schedule(runtime) loops, always taken), "
                                     "all (also dynamic and guided loops) and static (also the static loops of "
                                     "libomp-ABI programs); '" + word + "' is skipped"));
      }
    }
  }
  return out;
}

/// Inline: every thread entry reads it (the reading itself is out of line).
inline const Settings& settings() {
  static const Settings s = read_settings();
  return s;
}

/// The site whose instance closed last (autosched_omp_last_instance); the
/// site keeps that instance's fields (LoopSite::last). Written only when
/// another site closes one: a loop running alone leaves the line shared.
std::atomic<LoopSite*> last_site{nullptr};

/// Copies `from` into the fixed-size `to`, cut to fit and NUL-terminated.
template <std::size_t N>
void copy_text(char (&to)[N], std::string_view from) noexcept {
  const std::size_t n = std::min(from.size(), N - 1);
  std::copy_n(from.data(), n, to);
  to[n] = '\0';
}

/// The site of the loop whose instance this thread closed last: the same
/// loop again is found without hashing its name.
struct ClosedCache {
  const char* loop = nullptr;
  LoopSite* site = nullptr;
};
constinit thread_local ClosedCache last_closed_here __attribute__((tls_model("initial-exec")));

/// Turns each closed drop-in instance into the site's statistics.
class SiteObserver final : public drive::Observer {
 public:
  void on_instance_closed(const drive::ClosedInstance& closed) noexcept override {
    ClosedCache& cache = last_closed_here;
    if (cache.loop != closed.loop) cache = {closed.loop, site_of_loop(closed.loop)};
    LoopSite* site = cache.site;
    if (site == nullptr) return;  // a loop of the native API
    const void* point = closed.group != nullptr ? closed.decision : nullptr;
    const LoopSite::Recorded recorded = site->record(closed.record, point);
    if (last_site.load(std::memory_order_relaxed) != site) last_site.store(site, std::memory_order_release);
    if (recorded.new_point) {
      try {
        // Once per decision point: whether its state resumed from the store.
        long resumed = 0;
        closed.group->with_slot(*closed.decision,
                                [&](const DecisionSlot& s) { resumed = s.point->selector().resumed_instances(); });
        site->record_point(closed.decision, resumed);
      } catch (...) {
        // Only the report's statistics are lost; the instance itself completed.
      }
    }
  }
};

/// The recording session, the observer and the report, once, before the
/// first instance opens.
void ensure_started() {
  static std::atomic<bool> started{false};
  if (started.load(std::memory_order_acquire)) [[likely]] return;
  static std::once_flag once;
  std::call_once(once, [] {
    session::start();
    static SiteObserver observer;
    drive::attach(observer);
    // AUTOSCHED_PINNING (`autosched run --pin`): the pinning manager's own
    // observer registers and times the team's threads; unset, one lookup.
    (void)autosched::detail::start_team_pinning();
    session::on_finish(&write_report_once);
  });
  started.store(true, std::memory_order_release);
}



/// The site of the loop this thread took last: the same loop again, the
/// common case, is found without hashing its call site.
struct SiteCache {
  const void* return_address = nullptr;
  LoopSite* site = nullptr;
};
constinit thread_local SiteCache last_taken __attribute__((tls_model("initial-exec")));

LoopSite& site_of(const LoopCall& call) {
  SiteCache& c = last_taken;
  if (c.return_address == call.return_address) [[likely]] return *c.site;
  LoopSite& site = loop_site(call.return_address, call.source, call.runtime, call.asked, call.asked_chunk);
  c = {call.return_address, &site};
  return site;
}

}  // namespace

namespace thread_state {
constinit thread_local TeamState* current __attribute__((tls_model("initial-exec"))) = nullptr;

TeamState& implicit_state() noexcept {
  thread_local TeamState state;
  return state;
}
}  // namespace thread_state

const char* describe(ForwardReason reason) noexcept {
  switch (reason) {
    case ForwardReason::not_runtime: return "schedule(dynamic) or schedule(guided) loop (taken with --loops all)";
    case ForwardReason::unknown_team:
      return "team started outside GOMP_parallel*/__kmpc_fork_call, which the drop-in cannot identify";
    case ForwardReason::too_many_iterations: return "more than 2^63-1 iterations";
    case ForwardReason::with_reductions: return "GOMP_loop_start with task reductions or shared memory";
    case ForwardReason::disabled: return "AUTOSCHED_OMP=off";
    case ForwardReason::ordered: return "ordered or doacross loop (its order protocol stays with the runtime)";
    case ForwardReason::other_kind: return "schedule kind the program fixed (static, auto, static_steal, ...)";
    case ForwardReason::forked_child: return "in a child process forked while the program ran loops";
    case ForwardReason::static_kind:
      return "static loop of a kind left to the runtime (chunked, ordered, distribute, sections, inside teams)";
    case ForwardReason::count_: break;
  }
  return "?";
}

TeamScope::TeamScope(const void* frame) noexcept {
  state_.team = frame;
  state_.outer = thread_state::current;
  thread_state::current = &state_;
}

TeamScope::~TeamScope() {
  finish(state_);  // a loop left without its end call (a cancelled libomp loop)
  thread_state::current = state_.outer;
}

bool takes(AskedKind asked) noexcept {
  return asked == AskedKind::runtime || settings().all_loops;
}

bool takes_static() noexcept {
  if (in_forked_child()) [[unlikely]] return false;  // before settings(): its first call takes a lock
  const Settings& s = settings();
  return s.enabled && s.static_loops;
}

void note_region() noexcept { counters().regions.fetch_add(1, std::memory_order_relaxed); }

void forward(ForwardReason reason) noexcept {
  Counters& c = counters();
  c.forwarded.fetch_add(1, std::memory_order_relaxed);
  const bool first = c.forwarded_by[static_cast<int>(reason)].fetch_add(1, std::memory_order_relaxed) == 0;
  // Never a silent fallback: a loop the user expected to be taken and was not
  // is said at once; the kinds the user chose not to hand over (dynamic and
  // guided without --loops all, AUTOSCHED_OMP=off) are in the report.
  if (reason == ForwardReason::forked_child) return say_forked_child_once();  // never detail::warn: its lock
  const bool chosen = reason == ForwardReason::not_runtime || reason == ForwardReason::disabled ||
                      reason == ForwardReason::ordered || reason == ForwardReason::other_kind ||
                      reason == ForwardReason::static_kind;
  if (first && !chosen) {
    try {
      detail::warn(std::string("autosched-omp: a loop goes to the OpenMP runtime unscheduled: ") + describe(reason) +
                   " (every such entry is counted in the report, AUTOSCHED_OMP_REPORT)");
    } catch (...) {
    }
  }
}

bool refused(const LoopCall& call, ForwardReason& reason) noexcept {
  note_in_use();
  if (in_forked_child()) [[unlikely]] {
    reason = ForwardReason::forked_child;  // before settings(): its first call takes a lock
  } else if (!settings().enabled) {
    reason = ForwardReason::disabled;
  } else if (!takes(call.asked)) {
    reason = ForwardReason::not_runtime;
  } else if (call.n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    reason = ForwardReason::too_many_iterations;
  } else {
    return false;
  }
  return true;
}

bool take(const LoopCall& call) noexcept {
  if (ForwardReason reason{}; refused(call, reason)) {
    forward(reason);
    return false;
  }
  TeamState& ts = current_team();
  const int p = team_size();
  const int tid = thread_num();
  if (ts.team == nullptr && p > 1) {
    forward(ForwardReason::unknown_team);
    return false;
  }
  finish(ts);  // a loop this thread left without ending it
  ActiveLoop& a = ts.active;
  a.first = call.first;
  a.step = call.step;
  a.end_value = call.end_value;
  a.n = static_cast<std::int64_t>(call.n);
  const void* team = ts.team != nullptr ? ts.team : &ts;
  const std::uint64_t sequence = ts.sequence++;
  try {
    LoopSite& site = site_of(call);
    ensure_started();
    drive::OpenRequest request;
    request.n = a.n;
    request.p = p;
    request.aliases = site.names();
    request.fallback = site.fallback();
    a.instance = site.loop().open_or_attach({team, sequence}, request);
    a.cursor.emplace(*a.instance, tid);
    a.mode = ActiveLoop::Mode::cursor;
  } catch (...) {
    // Every thread of the team fails the same way (the same schedule, the
    // same loop), so static blocks still cover each iteration exactly once.
    counters().fallbacks.fetch_add(1, std::memory_order_relaxed);
    try {
      std::string why = "unknown error";
      try {
        throw;
      } catch (const std::exception& e) {
        why = e.what();
      } catch (...) {
      }
      detail::warn("autosched-omp: a loop runs as static blocks: " + why);
    } catch (...) {
    }
    a.instance = nullptr;
    a.block = static_block(a.n, p, tid);
    a.mode = ActiveLoop::Mode::fallback;
  }
  return true;
}

IndexRange next_fallback(TeamState& ts) noexcept {
  ActiveLoop& a = ts.active;
  if (a.mode != ActiveLoop::Mode::fallback) return {};
  const IndexRange b = a.block;
  a.block = {};
  return b;
}

void finish(TeamState& ts) noexcept {
  ActiveLoop& a = ts.active;
  if (a.mode == ActiveLoop::Mode::cursor) {
    (void)a.cursor->leave();  // no body runs inside the drop-in: no error to pass on
    a.cursor.reset();
  }
  a.instance = nullptr;
  a.mode = ActiveLoop::Mode::none;
}

void cancel_active(TeamState& ts) noexcept {
  if (ts.active.mode == ActiveLoop::Mode::cursor && ts.active.instance != nullptr) ts.active.instance->cancel();
  if (ts.active.mode == ActiveLoop::Mode::fallback) ts.active.block = {};
}

bool last_closed(autosched_omp_instance& out) noexcept {
  out = autosched_omp_instance{};
  const LoopSite* site = last_site.load(std::memory_order_acquire);
  if (site == nullptr) return false;
  const LastInstance last = site->last();
  copy_text(out.requested, last.requested);
  copy_text(out.selector, last.selector);
  out.instance = last.instance;
  out.explored = last.explored ? 1 : 0;
  out.cut_short = last.cut_short ? 1 : 0;
  out.selection_ns = last.selection_ns;
  // The arm's label as the native apps' records and the report spell it.
  char chunk[32] = "";
  if (last.exp_chunk) {
    std::snprintf(chunk, sizeof chunk, ":expert");
  } else if (last.chunk > 0) {
    std::snprintf(chunk, sizeof chunk, ":%lld", static_cast<long long>(last.chunk));
  }
  std::snprintf(out.arm, sizeof out.arm, "%.*s%s", static_cast<int>(std::min<std::size_t>(last.technique.size(), 40)),
                last.technique.data(), chunk);
  return true;
}

Counts counts() noexcept {
  Counters& c = counters();
  const SiteTotals sites = site_totals();
  Counts out;
  out.loops = sites.loops;
  out.instances = sites.instances;
  out.chunks = sites.chunks;
  out.forwarded = c.forwarded.load();
  out.fallbacks = c.fallbacks.load();
  out.regions = c.regions.load();
  for (int i = 0; i < reason_count; ++i) out.forwarded_by[i] = c.forwarded_by[i].load();
  return out;
}

}  // namespace autosched::omp
