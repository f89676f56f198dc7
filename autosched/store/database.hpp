#pragma once
/// @file
/// The SQLite file behind the store: one file, WAL journal, a busy timeout so
/// that several processes (MPI ranks) can write at once, and a schema checked
/// on open. A file that is corrupt, belongs to another application or was
/// written by a newer autosched is moved aside (renamed with the reason and
/// a timestamp) with a warning, and a fresh one is created: the application
/// runs on. One connection, used under its own lock.

#include <autosched/select/engine/state_store.hpp>
#include <autosched/store/detail/sqlite_statement.hpp>
#include <autosched/store/instance_row.hpp>

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace autosched {

/// What identifies a tunable region's knowledge across runs.
struct RegionKey {
  std::string region;
  std::string features;  ///< feature descriptions, ';' separated
  std::string variants;  ///< the variant space's signature
  std::string fingerprint;
};

/// What identifies a front-end's own state (Database::save_blob).
struct BlobKey {
  std::string kind;  ///< whose state: "pinning", "dag", …
  std::string key;   ///< which one, in the front-end's naming
  std::string fingerprint;
};

class Database {
 public:
  /// Schema version written by this autosched.
  static constexpr int schema_version = 1;

  /// `use`: open or create the store, moving an unusable file aside.
  /// `inspect` (autosched db): open an existing store as it is; a file that
  /// is missing or not an autosched store is an error, never replaced.
  /// `read_only` (a shared, pre-trained store this process cannot write):
  /// read what it holds; every write is skipped, nothing is created.
  enum class Access : std::uint8_t { use, inspect, read_only };

  /// Opens the store at `path` (its directory must exist). Throws
  /// autosched::Error when it cannot be used (`use`: not even a fresh file).
  explicit Database(const std::string& path, Access access = Access::use);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  /// Opened read-only: asked for (`read_only`), or an `inspect` of a store
  /// this process cannot write. Writes are then skipped (forget: an error).
  [[nodiscard]] bool read_only() const noexcept { return read_only_; }
  /// Whether this process can change the store at `path`: write the file
  /// and create its journal beside it (a missing file: true).
  static bool writable(const std::string& path);

  /// Registers this process's run; returns its id.
  std::int64_t begin_run(const std::string& fingerprint, const std::string& command);

  /// Appends instance rows of decision points (one transaction).
  void insert_history(std::span<const InstanceRow> rows, std::int64_t run, const std::string& fingerprint);

  /// Keeps `state` as the latest state of `selector` at `point`.
  void save_state(const PointKey& point, const std::string& selector, const std::string& state, std::int64_t run);
  /// The latest state of `selector` at `point`, if any.
  std::optional<std::string> load_state(const PointKey& point, const std::string& selector);

  /// Replaces the region's state by compose(its current state, if any), in
  /// one transaction: several processes (MPI ranks) saving the same region
  /// each add their samples to what the others saved, none overwrites them.
  using ComposeState = std::function<std::string(const std::optional<std::string>& current)>;
  void update_region(const RegionKey& key, const std::string& model, const ComposeState& compose, std::int64_t run);
  /// The region's latest state, if any.
  std::optional<std::string> load_region(const RegionKey& key);

  /// Replaces the bytes under `key` (any bytes, zeros included).
  void save_blob(const BlobKey& key, std::string_view bytes, std::int64_t run);
  /// The bytes under `key`, if any.
  std::optional<std::string> load_blob(const BlobKey& key);

  // Inspection (autosched db …).
  struct RegionSummary {
    RegionKey key;
    std::string model;
    std::int64_t bytes = 0;
    std::string updated_at;
  };
  std::vector<RegionSummary> regions();
  struct BlobSummary {
    BlobKey key;
    std::int64_t bytes = 0;  ///< size
    std::string updated_at;
  };
  /// Every blob, by kind then key.
  std::vector<BlobSummary> blobs();
  /// The keys of the blobs of `kind` whose bytes equal `bytes` (e.g. the
  /// loop ids the drop-in saved under a readable name).
  std::vector<std::string> blob_keys_holding(const std::string& kind, std::string_view bytes);
  struct PointSummary {
    std::int64_t id = 0;
    std::string name, loop, fingerprint, portfolio;
    int bucket = 0, p = 0;
    std::int64_t instances = 0, explored = 0;
    std::string best_arm;
    double best_mean_ns = 0;
    std::vector<std::string> selectors;  ///< with a saved state
  };
  std::vector<PointSummary> points();
  struct ArmSummary {
    std::string arm;
    std::int64_t instances = 0;
    double mean_ns = 0, min_ns = 0, mean_lib = 0;
  };
  std::vector<ArmSummary> arms(std::int64_t point);
  struct SavedState {
    std::string selector, state, updated_at;
  };
  std::vector<SavedState> states(std::int64_t point);
  std::int64_t runs();
  /// Every history row as CSV (header first).
  std::string export_csv();
  /// What forget_entries() deleted, by table.
  struct Forgotten {
    int points = 0;  ///< with their history and states
    int regions = 0;
    int blobs = 0;
    [[nodiscard]] int total() const noexcept { return points + regions + blobs; }
  };
  /// Deletes the points whose name or loop equals `name` (their history and
  /// states with them), the regions with that id and the blobs with that key
  /// (of every kind and system), in one transaction.
  Forgotten forget_entries(const std::string& name);
  /// forget_entries(name).total().
  int forget(const std::string& name);
  /// Rows in the history table (a row may stand for several short
  /// instances: history_rows.hpp).
  std::int64_t history_rows();
  /// Instances the history holds, folded ones counted one by one.
  std::int64_t recorded_instances();

  /// Closes the connection: SQLite's last checkpoint folds the WAL into the
  /// file and removes the -wal and -shm files. A later call reopens it (a
  /// loop that runs after the exit handler still gets its row written).
  void close() noexcept;

 private:
  /// Locks the connection for one call, reopening it after close().
  std::unique_lock<std::mutex> use();
  std::int64_t point_id(const PointKey& key);
  void open_checked();
  void open_read_only();
  void choose_journal();
  void use_wal();
  void exec(const char* sql);

  std::string path_;
  Access access_ = Access::use;
  bool read_only_ = false;
  sqlite3* db_ = nullptr;
  /// The statements every program with a store runs per loop (the point's
  /// id, its state, its history rows), compiled once per connection.
  detail::StatementCache prepared_;
  std::mutex mutex_;
};

}  // namespace autosched
