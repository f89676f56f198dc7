// The live regions: the registry (for the at-exit save, collective training
// and `autosched info`), the store regions save to, and the handler that
// saves every live region when the process exits.
#include <autosched/regions/detail/region_state.hpp>

#include <autosched/core/error.hpp>
#include <autosched/store/store.hpp>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace autosched::detail {

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<RegionState*> regions;
};

Registry& registry() {
  static auto* r = new Registry;  // used by static destructors: never destroyed
  return *r;
}

/// At exit: every live region's knowledge to the store, then the writer
/// drains. Regions destroyed before (function-local statics created after
/// this was registered) have queued theirs already.
void save_regions_at_exit() {
  // A forked child inherits this handler but neither the writer nor the
  // connection, and maybe a lock a parent thread held: it saves nothing.
  if (recording_disabled_by_fork()) return;
  try {
    for_each_region([](RegionState& r) {
      std::lock_guard lock(r.mutex);
      r.save_to_store();
    });
    BackgroundWriter::instance().shutdown();
  } catch (...) {
    // Exit must go on; a failure to write has been reported by the writer.
  }
}

}  // namespace

Store* region_store(bool persist) {
  if (!persist) return nullptr;
  static Store* store = [] {
    Store* s = Store::instance();
    if (s != nullptr) std::atexit(save_regions_at_exit);
    return s;
  }();
  return store;
}

void register_region(RegionState& region) {
  std::lock_guard lock(registry().mutex);
  for (const RegionState* other : registry().regions) {
    if (other->id == region.id) {
      warn("two live regions are called '" + region.id +
           "'; they learn separately and their stored states overwrite each other");
      break;
    }
  }
  registry().regions.push_back(&region);
}

void unregister_region(RegionState& region) {
  std::lock_guard lock(registry().mutex);
  auto& v = registry().regions;
  v.erase(std::remove(v.begin(), v.end(), &region), v.end());
}

void for_each_region(const std::function<void(RegionState&)>& f) {
  std::lock_guard lock(registry().mutex);
  std::vector<RegionState*> sorted = registry().regions;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const RegionState* a, const RegionState* b) { return a->id < b->id; });
  for (RegionState* r : sorted) f(*r);
}

}  // namespace autosched::detail
