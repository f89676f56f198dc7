// The live regions: the registry (for the at-exit save, collective training
// and `autosched info`), the store regions save to, and what the session
// calls to save every live region when the process exits.
#include <autosched/regions/detail/region_state.hpp>

#include <autosched/core/error.hpp>
#include <autosched/session/session.hpp>
#include <autosched/store/store.hpp>

#include <algorithm>
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

/// At exit and on flush, before the session's writer drains: every live
/// region's knowledge to the store. Regions destroyed before have queued
/// theirs already.
void save_live_regions() {
  for_each_region([](RegionState& r) {
    std::lock_guard lock(r.mutex);
    r.save_to_store();
  });
}

}  // namespace

autosched::detail::Store* region_store(bool persist) {
  if (!persist) return nullptr;
  // The session opens the store once for loops and regions alike and owns
  // the one exit handler, which calls save_live_regions before the writer drains.
  static autosched::detail::Store* store = [] {
    autosched::detail::Store* s = session::store();
    if (s != nullptr) session::on_finish(save_live_regions);
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
