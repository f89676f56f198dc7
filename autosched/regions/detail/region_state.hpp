#pragma once
/// @file
/// The shared state behind a Region (and a C handle): its description, the
/// learner under a lock, and the bridge to model files and the store. Not
/// part of the public API. Sources: region_state.cpp (checks, life),
/// region_persistence.cpp (model files, the store), region_registry.cpp (the
/// live regions, the exit handler).

#include <autosched/regions/model_file.hpp>
#include <autosched/regions/region.hpp>
#include <autosched/regions/region_learner.hpp>
#include <autosched/store/database.hpp>

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace autosched::detail {

class Store;  // store/store.hpp

class RegionState {
 public:
  RegionState(std::string id, RegionOptions options);
  ~RegionState();
  RegionState(const RegionState&) = delete;
  RegionState& operator=(const RegionState&) = delete;

  const std::string id;
  const std::vector<Feature> features;
  const VariantSpace space;
  const bool persist;
  mutable std::mutex mutex;
  RegionLearner learner;  ///< guarded by `mutex`
  bool restored = false;  ///< started from a model file or the store
  std::int64_t last_save_ns = 0;

  /// The region's knowledge as a model file (caller holds `mutex`).
  [[nodiscard]] ModelFile snapshot() const;
  /// Installs a model file after checking it is this region's; false with
  /// a warning naming `origin` otherwise (caller holds `mutex`).
  bool apply(const ModelFile& file, const std::string& origin);
  /// Reads, checks and applies a model file; false with a warning when it is
  /// missing, damaged or does not fit (caller holds `mutex`).
  bool apply_file(const std::string& path);
  /// Starts from `model_file` (or the spec's load=), else from the store;
  /// true when one of them was installed (caller holds `mutex`).
  bool restore(const std::string& model_file);
  /// Queues the current knowledge for the store (caller holds `mutex`).
  void save_to_store();
  [[nodiscard]] RegionKey key() const;
};

/// The error for a feature that is NaN or infinite (after quantisation).
std::string not_finite(const RegionState& s, std::size_t feature, double value);

/// The store regions with `persist` save to; null when the store is off or
/// `persist` is false. The first call that finds one registers the exit
/// handler that saves every live region.
autosched::detail::Store* region_store(bool persist);

/// Adds a constructed region to the live ones (warning when its id is taken)
/// and removes it again.
void register_region(RegionState& region);
void unregister_region(RegionState& region);

/// Calls `f` on every live region, in id order, under the registry lock
/// (regions cannot be created or destroyed meanwhile).
void for_each_region(const std::function<void(RegionState&)>& f);

}  // namespace autosched::detail
