#pragma once
/// @file
/// autosched's memory across runs. One SQLite file, from AUTOSCHED_DB:
///   a path            use (create) that file
///   off, none, 0, false, no (or empty)   keep nothing
///   unset             $XDG_CACHE_HOME/autosched/autosched.db (~/.cache/… without it)
/// It keeps each run, the history of every decision point (one row per
/// instance, written by the background writer, never on the hot path), and
/// the latest state of each point's selector, keyed by loop, size class,
/// team size, system fingerprint and portfolio. A decision point created
/// where a state exists resumes from it: the second run of a program does not
/// explore again. Front-ends keep their own state there too (blobs). The
/// selection engine sees the store only as a StateStore. A store that cannot
/// be used is reported once and the program runs on without it. A store this
/// process cannot write (a shared, pre-trained file; a read-only mount) is
/// used read-only, said once: warm starts read it, nothing is written.

#include <autosched/select/engine/state_store.hpp>
#include <autosched/store/background_writer.hpp>
#include <autosched/store/database.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace autosched {

/// The store path AUTOSCHED_DB asks for; nullopt when it is off.
std::optional<std::string> store_path_from_environment();

namespace detail {

class Store final : public RowSink, public StateStore {
 public:
  /// The process's store, opened on first use (and added to the background
  /// writer's sinks); nullptr when off or unusable (warned once).
  static Store* instance();

  /// The latest state of `selector` at `point` on this system; synchronous
  /// (once per point). A read that fails is a warning and nullopt.
  std::optional<std::string> load_state(const PointKey& point, const std::string& selector) override;
  /// Keeps `state` as the latest state (written by the background writer).
  void save_state(PointKey point, std::string selector, std::string state) override;

  /// The bytes a front-end saved under (kind, key) on this system;
  /// synchronous. A read that fails is a warning and nullopt.
  std::optional<std::string> load_blob(std::string_view kind, std::string_view key) override;
  /// Replaces the bytes under (kind, key) on this system (written by the
  /// background writer: BackgroundWriter::drain() waits for it).
  void save_blob(std::string kind, std::string key, std::string bytes) override;

  /// A region's stored state for this system (synchronous; once per region).
  std::optional<std::string> load_region(RegionKey key);
  /// Updates a region's state with `compose` (Database::update_region), on
  /// the background writer.
  void save_region(RegionKey key, std::string model, Database::ComposeState compose);

  void write(std::span<const InstanceRow> rows) override;

  [[nodiscard]] Database& database() noexcept { return db_; }
  [[nodiscard]] std::int64_t run() const noexcept { return run_; }

 private:
  Store(const std::string& path, Database::Access access);
  Database db_;
  std::string fingerprint_;
  std::int64_t run_ = 0;
};

}  // namespace detail

}  // namespace autosched
