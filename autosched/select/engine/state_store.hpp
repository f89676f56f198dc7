#pragma once
/// @file
/// Where decision points resume from and what they save to, as the selection
/// engine sees it. The store (store/) implements this interface; the engine
/// and the driver never include the store, so a front-end without a database
/// (a test, the simulator) passes nothing or an in-memory implementation.

#include <optional>
#include <string>
#include <string_view>

namespace autosched {

/// What identifies a decision point across runs.
struct PointKey {
  std::string name;  ///< "<loop>#<bucket>/<p>"
  std::string loop;
  int bucket = 0;  ///< ⌊log2 N⌋ + 1
  int p = 0;
  std::string fingerprint;  ///< filled by the store: this system's
  std::string portfolio;    ///< arm labels, comma separated
};

class StateStore {
 public:
  virtual ~StateStore() = default;

  /// The latest saved state of `selector` at `point` on this system, if any.
  /// Synchronous: called once when a decision point is created.
  virtual std::optional<std::string> load_state(const PointKey& point, const std::string& selector) = 0;
  /// Keeps `state` as the latest state (written off the hot path).
  virtual void save_state(PointKey point, std::string selector, std::string state) = 0;

  /// A front-end's own state (pinning strategies, DAG models): opaque bytes
  /// under (kind, key) for this system; nullopt when none was saved.
  virtual std::optional<std::string> load_blob(std::string_view kind, std::string_view key) = 0;
  /// Replaces the bytes under (kind, key) for this system (written off the hot path).
  virtual void save_blob(std::string kind, std::string key, std::string bytes) = 0;
};

}  // namespace autosched
