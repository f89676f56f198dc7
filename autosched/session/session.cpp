#include <autosched/session/session.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/forked_child.hpp>
#include <autosched/drive/observer.hpp>
#include <autosched/select/engine/decision_engine.hpp>
#include <autosched/select/grammar/schedule_environment.hpp>
#include <autosched/store/background_writer.hpp>
#include <autosched/store/log_files.hpp>
#include <autosched/store/trace_file.hpp>
#include <autosched/techniques/catalogue.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace autosched::session {

namespace {

/// Turns closed instances into rows for the store and the trace.
class Recorder final : public drive::Observer {
 public:
  TraceFile* trace = nullptr;
  bool trace_threads = false;
  std::string profiles;  ///< AUTOSCHED_PROFILES: where measured cost profiles go (empty: nowhere)
  LogFiles logs;

  autosched::detail::Store* store() {
    std::call_once(store_once_, [this] { store_.store(autosched::detail::Store::instance(), std::memory_order_release); });
    return store_.load(std::memory_order_acquire);
  }
  [[nodiscard]] autosched::detail::Store* store_if_open() const noexcept { return store_.load(std::memory_order_acquire); }
  /// Anything was or may be written: the writer must be drained at exit.
  [[nodiscard]] bool active() const noexcept {
    return trace != nullptr || store_if_open() != nullptr || logs.used() || !profiles.empty();
  }

  void on_instance_closed(const drive::ClosedInstance& closed) noexcept override;

  std::mutex finishers_mutex;
  std::vector<void (*)()> finishers;

 private:
  std::once_flag store_once_;
  std::atomic<autosched::detail::Store*> store_{nullptr};
};

void Recorder::on_instance_closed(const drive::ClosedInstance& closed) noexcept {
  if (!active()) return;
  const InstanceRecord& r = closed.record;
  InstanceRow row;
  row.loop = closed.loop;
  row.instance = r.instance;
  row.technique_id = closed.ran;
  row.chunk = r.chunk;
  row.exp_chunk = r.exp_chunk;
  row.n = r.n;
  row.p = r.p;
  row.metrics = r.metrics;
  row.selector_ns = r.selection_ns;
  row.reward = r.reward;
  row.selector = r.selector.empty() ? "" : r.selector.data();
  row.explored = r.explored;
  row.cut_short = r.cut_short;
  row.failed = r.failed;
  if (const DecisionSlot* slot = closed.decision) {
    if (trace != nullptr) {
      closed.group->with_slot(*slot, [&](const DecisionSlot& s) {
        const std::string state = s.point->selector().summary();
        std::snprintf(row.selector_state, sizeof row.selector_state, "%s", state.c_str());
      });
    }
    row.portfolio = slot->portfolio().c_str();
    row.selector_config = slot->config().text.c_str();
    row.bucket = slot->bucket;
  }
  try {
    if (closed.profile != nullptr && !profiles.empty()) {
      // One line per measured profile: `loop<TAB>P<TAB>n h block…`, what
      // `autosched simulate` and the select-sim profile scenarios read.
      logs.append(profiles, std::string(closed.loop) + '\t' + std::to_string(r.p) + '\t' + closed.profile->text());
    }
    BackgroundWriter::instance().post(row);
    if (trace != nullptr && trace_threads) {
      BackgroundWriter::instance().post_task([t = trace, loop = std::string(closed.loop), index = r.instance,
                                              threads = r.threads, start = r.start_ns] {
        t->write_threads(loop, index, threads, start);
      });
    }
  } catch (...) {
    // A record that cannot be queued (out of memory) is lost; the loop is not.
  }
}

void finish();


Recorder& recorder() {
  static Recorder* r = [] {
    auto* rec = new Recorder;  // lives as long as the process, like the writer
    if (auto path = environment::get("AUTOSCHED_TRACE"); path && !environment::means_no_file(*path)) {
      try {
        rec->trace = new TraceFile(*path);
        BackgroundWriter::instance().add_sink(rec->trace);
      } catch (const Error& e) {
        autosched::detail::warn(std::string(e.what()) + "; no trace for this run");
      }
    }
    rec->trace_threads = environment::flag("AUTOSCHED_TRACE_THREADS", false);
    if (auto path = environment::get("AUTOSCHED_PROFILES"); path && !environment::means_no_file(*path)) {
      rec->profiles = *path;
    }
    autosched::detail::DecisionEngine::instance().connect([rec]() -> StateStore* { return rec->store(); }, &rec->logs);
    drive::attach(*rec);
    std::atexit(finish);
    return rec;
  }();
  return *r;
}

void save_everything(Recorder& rec) {
  autosched::detail::DecisionEngine::instance().save_states();
  std::vector<void (*)()> finishers;
  {
    std::lock_guard lock(rec.finishers_mutex);
    finishers = rec.finishers;
  }
  for (auto* save : finishers) save();
}

void finish() {
  // A forked child inherits this handler but neither the writer nor the
  // connection, and maybe a lock a parent thread held: it saves nothing.
  if (recording_disabled_by_fork()) return;
  Recorder& rec = recorder();
  try {
    warn_unmatched_schedule_for();
    save_everything(rec);
    if (rec.active()) BackgroundWriter::instance().shutdown();  // else no writer thread to stop
    // Everything is written: close the store, so that its last checkpoint
    // removes the -wal and -shm files instead of leaving them after every run.
    if (autosched::detail::Store* store = rec.store_if_open()) store->database().close();
  } catch (...) {
    // Exit must go on; a failure to write has been reported by the writer.
  }
}

}  // namespace

void start() {
  note_in_use();  // before the recorder's first lock: a fork from here on leaves a forked child
  (void)recorder();
}

autosched::detail::Store* store() { return recorder().store(); }

void on_finish(void (*save)()) {
  Recorder& rec = recorder();
  std::lock_guard lock(rec.finishers_mutex);
  for (auto* f : rec.finishers) {
    if (f == save) return;
  }
  rec.finishers.push_back(save);
}

void flush() {
  Recorder& rec = recorder();
  save_everything(rec);
  if (rec.active()) BackgroundWriter::instance().drain();
}

}  // namespace autosched::session
