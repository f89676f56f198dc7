#include <autosched/store/database.hpp>

#include <autosched/core/error.hpp>
#include <autosched/select/arm.hpp>

#include <sqlite3.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <thread>
#include <tuple>
#include <utility>

namespace autosched {

namespace {

constexpr int application_id = 0x61757473;  // "auts"

// The primary SQLite result code of the last failure thrown on this thread,
// so that opening can tell a damaged file (move it aside) from a busy or
// unwritable one (keep it, run without the store).
thread_local int last_failure = SQLITE_OK;

[[noreturn]] void fail(sqlite3* db, int rc, const std::string& context) {
  last_failure = rc & 0xff;
  detail::throw_error(context + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
}

class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (const int rc = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr); rc != SQLITE_OK) {
      fail(db, rc, std::string("store: in ") + sql + ": ");
    }
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, std::int64_t v) { return check(sqlite3_bind_int64(stmt_, i, v)); }
  Statement& bind(int i, double v) { return check(sqlite3_bind_double(stmt_, i, v)); }
  Statement& bind(int i, const std::string& v) {
    return check(sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  /// True while a row is available.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(db_, rc, "store: ");
  }
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  std::int64_t integer(int col) { return sqlite3_column_int64(stmt_, col); }
  double real(int col) { return sqlite3_column_double(stmt_, col); }
  bool null(int col) { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  std::string text(int col) {
    const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    return t != nullptr ? std::string(t) : std::string();
  }

 private:
  Statement& check(int rc) {
    if (rc != SQLITE_OK) fail(db_, rc, "store: ");
    return *this;
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

std::string utc_now() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Tunable regions: one row per region id, features, variants and system,
// holding the region's model-file text (regions/model_file.hpp). Added after
// schema 1 shipped without changing its meaning, so it is created on open
// rather than by a version bump: older autosched builds ignore it.
constexpr const char* regions_schema = R"sql(
CREATE TABLE IF NOT EXISTS regions (
  id INTEGER PRIMARY KEY, region TEXT NOT NULL, features TEXT NOT NULL, variants TEXT NOT NULL,
  fingerprint TEXT NOT NULL, model TEXT, state TEXT NOT NULL, run INTEGER, updated_at TEXT,
  UNIQUE (region, features, variants, fingerprint));
)sql";

constexpr const char* schema = R"sql(
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL, command TEXT, started_at TEXT, pid INTEGER, host TEXT);
CREATE TABLE IF NOT EXISTS points (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, loop TEXT NOT NULL, bucket INTEGER NOT NULL, p INTEGER NOT NULL,
  fingerprint TEXT NOT NULL, portfolio TEXT NOT NULL, UNIQUE (loop, bucket, p, fingerprint, portfolio));
CREATE TABLE IF NOT EXISTS history (
  id INTEGER PRIMARY KEY, point INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE, run INTEGER,
  instance INTEGER, arm TEXT, n INTEGER, p INTEGER, time_ns REAL, lib REAL, percent_imbalance REAL, cov REAL,
  stddev REAL, skewness REAL, kurtosis REAL, selector TEXT, selector_ns REAL, reward REAL, explored INTEGER,
  cut_short INTEGER);
CREATE INDEX IF NOT EXISTS history_point ON history (point);
CREATE TABLE IF NOT EXISTS states (
  point INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE, selector TEXT NOT NULL, state TEXT NOT NULL,
  run INTEGER, updated_at TEXT, PRIMARY KEY (point, selector));
)sql";

}  // namespace

Database::Database(const std::string& path, Access access) : path_(path), access_(access) { open_checked(); }

Database::~Database() { sqlite3_close_v2(db_); }

void Database::exec(const char* sql) {
  if (const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr); rc != SQLITE_OK) {
    fail(db_, rc, "store " + path_ + ": ");
  }
}

namespace {

// What the file says about itself. Every statement is finished before the
// caller writes: an open read would turn a wait for a writer into a deadlock
// that SQLite reports as "locked" at once.
struct Header {
  std::int64_t application = 0, version = 0, objects = 0;
  std::string check = "ok";
};

std::int64_t single_integer(sqlite3* db, const char* sql) {
  Statement s(db, sql);
  s.step();
  return s.integer(0);
}

Header read_header_now(sqlite3* db, const std::string& path) {
  Header h;
  h.application = single_integer(db, "PRAGMA application_id");
  h.version = single_integer(db, "PRAGMA user_version");
  h.objects = single_integer(db, "SELECT count(*) FROM sqlite_master");
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size < (std::uintmax_t{16} << 20)) {  // small enough to check every page at each start
    Statement check(db, "PRAGMA quick_check(1)");
    if (check.step()) h.check = check.text(0);
  }
  return h;
}

/// Reads the header in one read transaction: a peer creating the file
/// commits either before or after it, never half-way through.
Header read_header(sqlite3* db, const std::string& path) {
  if (const int rc = sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr); rc != SQLITE_OK) fail(db, rc, "store: ");
  try {
    Header h = read_header_now(db, path);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    return h;
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

/// The file's identity, to notice that a peer has replaced it.
std::pair<dev_t, ino_t> file_identity(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return {0, 0};
  return {st.st_dev, st.st_ino};
}

/// Holds an exclusive flock on a directory while it lives: the processes
/// that find the same unusable store take turns to move it aside.
class DirectoryLock {
 public:
  explicit DirectoryLock(const std::filesystem::path& dir)
      : fd_(open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_ >= 0) flock(fd_, LOCK_EX);
  }
  ~DirectoryLock() {
    if (fd_ >= 0) close(fd_);  // releases the lock
  }
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  int fd_;
};

/// The name of the network filesystem `dir` is on, or empty when it is local.
std::string network_filesystem(const std::filesystem::path& dir) {
  struct statfs fs {};
  if (statfs(dir.empty() ? "." : dir.c_str(), &fs) != 0) return {};
  switch (static_cast<unsigned long>(fs.f_type)) {
    case 0x6969:
      return "nfs";
    case 0x517b:
      return "smb";
    case 0xff534d42:
      return "cifs";
    case 0xfe534d42:
      return "smb2";
    case 0x0bd00bd0:
      return "lustre";
    case 0x47504653:
      return "gpfs";
    case 0x19830326:
      return "beegfs";
    case 0x00c36400:
      return "ceph";
    case 0x5346414f:
      return "afs";
    case 0x65735546:
      return "fuse";  // sshfs and most cluster filesystems mounted through FUSE
    default:
      return {};
  }
}

}  // namespace

void Database::open_checked() {
  namespace fs = std::filesystem;
  const bool inspect = access_ == Access::inspect;
  for (int attempt = 0; attempt < 3; ++attempt) {
    // The file's identity before and after opening: if they differ, a peer
    // replaced it in between and this connection may hold the old file.
    const auto before = file_identity(path_);
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | (inspect ? 0 : SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      const std::string m = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close_v2(db_);
      db_ = nullptr;
      detail::throw_error("store: cannot open " + path_ + ": " + m);
    }
    sqlite3_busy_timeout(db_, 10000);  // other processes (MPI ranks) may be writing
    const auto identity = file_identity(path_);
    if (before != identity && before != decltype(before){0, 0}) {
      sqlite3_close_v2(db_);
      db_ = nullptr;
      continue;
    }
    std::string problem;
    try {
      Header h = read_header(db_, path_);
      if (h.application == 0 && h.objects == 0 && !inspect) {
        exec("BEGIN IMMEDIATE");  // another process may be creating it too: one of them does
        try {
          if (single_integer(db_, "SELECT count(*) FROM sqlite_master") == 0) {
            exec(schema);
            exec(("PRAGMA application_id = " + std::to_string(application_id)).c_str());
            exec(("PRAGMA user_version = " + std::to_string(schema_version)).c_str());
          }
          exec("COMMIT");
        } catch (...) {
          sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
          throw;
        }
        h = read_header(db_, path_);
      }
      if (h.check != "ok") {
        problem = "is corrupt (" + h.check + ")";
      } else if (h.application == 0 && h.objects == 0) {
        problem = "is empty";
      } else if (h.application != application_id) {
        problem = "belongs to another application (application_id " + std::to_string(h.application) + ")";
      } else if (h.version > schema_version) {
        problem = "was written by a newer autosched (schema " + std::to_string(h.version) + ", this one reads " +
                  std::to_string(schema_version) + ")";
      }
      if (problem.empty()) {
        if (!inspect) {
          choose_journal();
          exec(regions_schema);
        }
        exec("PRAGMA foreign_keys=ON");
        return;
      }
    } catch (const Error& e) {
      if (last_failure != SQLITE_NOTADB && last_failure != SQLITE_CORRUPT) {
        // Busy past the timeout, read-only, out of disk: the file may be
        // fine; leave it alone and let the caller run without a store.
        sqlite3_close_v2(db_);
        db_ = nullptr;
        throw;
      }
      problem = std::string("is unreadable (") + e.what() + ")";
    }
    sqlite3_close_v2(db_);
    db_ = nullptr;
    if (inspect) detail::throw_error("store " + path_ + " " + problem + "; it is not an autosched store");
    DirectoryLock lock(fs::path(path_).parent_path());
    if (file_identity(path_) != identity) continue;  // a peer moved it aside already: use theirs
    // Keep the file (and its journal) for inspection, under a name that says
    // why it was set aside.
    char stamp[32];
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    const std::string aside = path_ + ".unusable-" + stamp + "-" + std::to_string(getpid());
    std::error_code ec;
    fs::rename(path_, aside, ec);
    if (ec) {
      detail::throw_error("store " + path_ + " " + problem + ", and it cannot be moved aside (" + ec.message() +
                          "); set AUTOSCHED_DB to another path");
    }
    fs::rename(path_ + "-wal", aside + "-wal", ec);
    fs::remove(path_ + "-shm", ec);  // an index of the WAL, rebuilt from it
    detail::warn("store " + path_ + " " + problem + "; moved it to " + aside + " and started a new one");
  }
  detail::throw_error("store: cannot create a usable store at " + path_);
}

void Database::choose_journal() {
  const auto network = network_filesystem(std::filesystem::path(path_).parent_path());
  if (network.empty()) {
    use_wal();
  } else {
    // WAL keeps its index in shared memory, which only processes on one host
    // share; on a network filesystem, processes on two nodes would corrupt
    // the store. A rollback journal relies on the filesystem's locks instead.
    exec("PRAGMA journal_mode=DELETE");
    detail::warn("store " + path_ + " is on a network filesystem (" + network +
                 "): using a rollback journal instead of WAL; if processes on several nodes share it, set "
                 "AUTOSCHED_DB to a node-local path");
  }
  exec("PRAGMA synchronous=NORMAL");
}

void Database::use_wal() {
  // Switching to WAL needs the file to itself; a peer that has it open in
  // the old mode makes the switch fail at once (no busy wait), so retry for
  // as long as the busy timeout. Once switched, the mode is kept in the file.
  for (int tries = 0; tries < 1000; ++tries) {
    {
      Statement mode(db_, "PRAGMA journal_mode=WAL");
      try {
        if (mode.step() && mode.text(0) == "wal") return;
      } catch (const Error&) {
        if (last_failure != SQLITE_BUSY && last_failure != SQLITE_LOCKED) throw;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  detail::warn("store " + path_ + ": could not switch to WAL; concurrent writers will wait for each other longer");
}

std::int64_t Database::begin_run(const std::string& fingerprint, const std::string& command) {
  std::lock_guard lock(mutex_);
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  Statement s(db_, "INSERT INTO runs (fingerprint, command, started_at, pid, host) VALUES (?, ?, ?, ?, ?)");
  s.bind(1, fingerprint).bind(2, command).bind(3, utc_now()).bind(4, std::int64_t{getpid()}).bind(5, std::string(host));
  s.step();
  return sqlite3_last_insert_rowid(db_);
}

std::int64_t Database::point_id(const PointKey& key) {
  Statement find(db_,
                 "SELECT id FROM points WHERE loop = ? AND bucket = ? AND p = ? AND fingerprint = ? AND portfolio = ?");
  find.bind(1, key.loop)
      .bind(2, std::int64_t{key.bucket})
      .bind(3, std::int64_t{key.p})
      .bind(4, key.fingerprint)
      .bind(5, key.portfolio);
  if (find.step()) return find.integer(0);
  Statement add(
      db_, "INSERT OR IGNORE INTO points (name, loop, bucket, p, fingerprint, portfolio) VALUES (?, ?, ?, ?, ?, ?)");
  add.bind(1, key.name)
      .bind(2, key.loop)
      .bind(3, std::int64_t{key.bucket})
      .bind(4, std::int64_t{key.p})
      .bind(5, key.fingerprint)
      .bind(6, key.portfolio);
  add.step();
  find.reset();
  find.bind(1, key.loop)
      .bind(2, std::int64_t{key.bucket})
      .bind(3, std::int64_t{key.p})
      .bind(4, key.fingerprint)
      .bind(5, key.portfolio);
  find.step();
  return find.integer(0);
}

void Database::insert_history(std::span<const InstanceRow> rows, std::int64_t run, const std::string& fingerprint) {
  std::lock_guard lock(mutex_);
  exec("BEGIN IMMEDIATE");
  try {
    std::map<std::tuple<std::string, int, int, std::string>, std::int64_t> ids;
    Statement insert(db_,
                     "INSERT INTO history (point, run, instance, arm, n, p, time_ns, lib, percent_imbalance, cov, "
                     "stddev, skewness, kurtosis, selector, selector_ns, reward, explored, cut_short) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const InstanceRow& r : rows) {
      if (r.portfolio == nullptr || r.failed) continue;  // only decision points; failed instances are partial
      const auto k = std::make_tuple(std::string(r.loop), r.bucket, r.p, std::string(r.portfolio));
      auto it = ids.find(k);
      if (it == ids.end()) {
        const PointKey key{std::string(r.loop) + "#" + std::to_string(r.bucket) + "/" + std::to_string(r.p),
                           r.loop,
                           r.bucket,
                           r.p,
                           fingerprint,
                           r.portfolio};
        it = ids.emplace(k, point_id(key)).first;
      }
      const auto id = find_technique(r.technique);
      const std::string arm = TechniqueSpec{id.value_or(TechniqueId::static_), r.chunk, r.exp_chunk, {}}.label();
      const LoopMetrics& m = r.metrics;
      insert.reset();
      insert.bind(1, it->second)
          .bind(2, run)
          .bind(3, static_cast<std::int64_t>(r.instance))
          .bind(4, arm)
          .bind(5, r.n)
          .bind(6, std::int64_t{r.p})
          .bind(7, m.loop_time_ns)
          .bind(8, m.lib)
          .bind(9, m.percent_imbalance)
          .bind(10, m.cov)
          .bind(11, m.stddev)
          .bind(12, m.skewness)
          .bind(13, m.kurtosis)
          .bind(14, std::string(r.selector))
          .bind(15, r.selector_ns)
          .bind(16, r.reward)  // SQLite keeps NaN as NULL
          .bind(17, std::int64_t{r.explored})
          .bind(18, std::int64_t{r.cut_short});
      insert.step();
    }
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void Database::save_state(const PointKey& point, const std::string& selector, const std::string& state,
                          std::int64_t run) {
  std::lock_guard lock(mutex_);
  const std::int64_t id = point_id(point);
  Statement s(db_,
              "INSERT INTO states (point, selector, state, run, updated_at) VALUES (?, ?, ?, ?, ?) "
              "ON CONFLICT (point, selector) DO UPDATE SET state = excluded.state, run = excluded.run, "
              "updated_at = excluded.updated_at");
  s.bind(1, id).bind(2, selector).bind(3, state).bind(4, run).bind(5, utc_now());
  s.step();
}

std::optional<std::string> Database::load_state(const PointKey& point, const std::string& selector) {
  std::lock_guard lock(mutex_);
  Statement s(db_,
              "SELECT s.state FROM states s JOIN points p ON s.point = p.id WHERE p.loop = ? AND p.bucket = ? "
              "AND p.p = ? AND p.fingerprint = ? AND p.portfolio = ? AND s.selector = ?");
  s.bind(1, point.loop)
      .bind(2, std::int64_t{point.bucket})
      .bind(3, std::int64_t{point.p})
      .bind(4, point.fingerprint)
      .bind(5, point.portfolio)
      .bind(6, selector);
  if (s.step()) return s.text(0);
  return std::nullopt;
}

std::vector<Database::PointSummary> Database::points() {
  std::lock_guard lock(mutex_);
  std::vector<PointSummary> out;
  Statement s(db_,
              "SELECT p.id, p.name, p.loop, p.fingerprint, p.portfolio, p.bucket, p.p, count(h.id), "
              "coalesce(sum(h.explored), 0) FROM points p LEFT JOIN history h ON h.point = p.id "
              "GROUP BY p.id ORDER BY p.loop, p.bucket, p.p");
  while (s.step()) {
    PointSummary ps;
    ps.id = s.integer(0);
    ps.name = s.text(1);
    ps.loop = s.text(2);
    ps.fingerprint = s.text(3);
    ps.portfolio = s.text(4);
    ps.bucket = static_cast<int>(s.integer(5));
    ps.p = static_cast<int>(s.integer(6));
    ps.instances = s.integer(7);
    ps.explored = s.integer(8);
    out.push_back(std::move(ps));
  }
  for (PointSummary& ps : out) {
    Statement best(db_,
                   "SELECT arm, avg(time_ns) FROM history WHERE point = ? AND cut_short = 0 GROUP BY arm "
                   "ORDER BY avg(time_ns) LIMIT 1");
    best.bind(1, ps.id);
    if (best.step()) {
      ps.best_arm = best.text(0);
      ps.best_mean_ns = best.real(1);
    }
    Statement states(db_, "SELECT selector FROM states WHERE point = ? ORDER BY selector");
    states.bind(1, ps.id);
    while (states.step()) ps.selectors.push_back(states.text(0));
  }
  return out;
}

std::vector<Database::ArmSummary> Database::arms(std::int64_t point) {
  std::lock_guard lock(mutex_);
  std::vector<ArmSummary> out;
  Statement s(db_,
              "SELECT arm, count(*), avg(time_ns), min(time_ns), avg(lib) FROM history WHERE point = ? AND "
              "cut_short = 0 GROUP BY arm ORDER BY avg(time_ns)");
  s.bind(1, point);
  while (s.step()) out.push_back({s.text(0), s.integer(1), s.real(2), s.real(3), s.real(4)});
  return out;
}

std::string Database::export_csv() {
  std::lock_guard lock(mutex_);
  std::string out =
      "loop,bucket,point_p,fingerprint,run,instance,arm,n,p,time_ns,lib,percent_imbalance,cov,stddev,skewness,"
      "kurtosis,selector,selector_ns,reward,explored,cut_short\n";
  Statement s(db_,
              "SELECT p.loop, p.bucket, p.p, p.fingerprint, h.run, h.instance, h.arm, h.n, h.p, h.time_ns, h.lib, "
              "h.percent_imbalance, h.cov, h.stddev, h.skewness, h.kurtosis, h.selector, h.selector_ns, h.reward, "
              "h.explored, h.cut_short FROM history h JOIN points p ON h.point = p.id ORDER BY h.id");
  auto quoted = [](const std::string& v) {
    std::string q = "\"";
    for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  char buf[512];
  while (s.step()) {
    std::snprintf(buf, sizeof buf, ",%lld,%lld,%s,%lld,%lld,%s,%lld,%lld,%.0f,%.4f,%.4f,%.6f,%.1f,%.6f,%.6f,",
                  static_cast<long long>(s.integer(1)), static_cast<long long>(s.integer(2)), s.text(3).c_str(),
                  static_cast<long long>(s.integer(4)), static_cast<long long>(s.integer(5)), s.text(6).c_str(),
                  static_cast<long long>(s.integer(7)), static_cast<long long>(s.integer(8)), s.real(9), s.real(10),
                  s.real(11), s.real(12), s.real(13), s.real(14), s.real(15));
    out += quoted(s.text(0)) + buf + s.text(16);
    std::snprintf(buf, sizeof buf, ",%.0f,", s.real(17));
    out += buf;
    if (!s.null(18)) {
      std::snprintf(buf, sizeof buf, "%.9g", s.real(18));
      out += buf;
    }
    std::snprintf(buf, sizeof buf, ",%lld,%lld\n", static_cast<long long>(s.integer(19)),
                  static_cast<long long>(s.integer(20)));
    out += buf;
  }
  return out;
}

std::vector<Database::SavedState> Database::states(std::int64_t point) {
  std::lock_guard lock(mutex_);
  std::vector<SavedState> out;
  Statement s(db_, "SELECT selector, state, updated_at FROM states WHERE point = ? ORDER BY selector");
  s.bind(1, point);
  while (s.step()) out.push_back({s.text(0), s.text(1), s.text(2)});
  return out;
}

std::int64_t Database::runs() {
  std::lock_guard lock(mutex_);
  Statement s(db_, "SELECT count(*) FROM runs");
  s.step();
  return s.integer(0);
}

int Database::forget(const std::string& name) {
  std::lock_guard lock(mutex_);
  Statement s(db_, "DELETE FROM points WHERE name = ? OR loop = ?");
  s.bind(1, name).bind(2, name);
  s.step();
  int gone = sqlite3_changes(db_);
  if (has_regions_table()) {
    Statement r(db_, "DELETE FROM regions WHERE region = ?");
    r.bind(1, name);
    r.step();
    gone += sqlite3_changes(db_);
  }
  return gone;
}

bool Database::has_regions_table() {
  return single_integer(db_, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'regions'") > 0;
}

void Database::update_region(const RegionKey& key, const std::string& model, const ComposeState& compose,
                             std::int64_t run) {
  std::lock_guard lock(mutex_);
  exec("BEGIN IMMEDIATE");  // the read and the write must see no other process in between
  try {
    std::optional<std::string> current;
    {
      Statement s(db_,
                  "SELECT state FROM regions WHERE region = ? AND features = ? AND variants = ? AND fingerprint = ?");
      s.bind(1, key.region).bind(2, key.features).bind(3, key.variants).bind(4, key.fingerprint);
      if (s.step()) current = s.text(0);
    }
    const std::string state = compose(current);
    Statement s(db_,
                "INSERT INTO regions (region, features, variants, fingerprint, model, state, run, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (region, features, variants, fingerprint) DO UPDATE SET "
                "model = excluded.model, state = excluded.state, run = excluded.run, updated_at = excluded.updated_at");
    s.bind(1, key.region).bind(2, key.features).bind(3, key.variants).bind(4, key.fingerprint);
    s.bind(5, model).bind(6, state).bind(7, run).bind(8, utc_now());
    s.step();
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::optional<std::string> Database::load_region(const RegionKey& key) {
  std::lock_guard lock(mutex_);
  if (!has_regions_table()) return std::nullopt;
  Statement s(db_, "SELECT state FROM regions WHERE region = ? AND features = ? AND variants = ? AND fingerprint = ?");
  s.bind(1, key.region).bind(2, key.features).bind(3, key.variants).bind(4, key.fingerprint);
  if (s.step()) return s.text(0);
  return std::nullopt;
}

std::vector<Database::RegionSummary> Database::regions() {
  std::lock_guard lock(mutex_);
  std::vector<RegionSummary> out;
  if (!has_regions_table()) return out;
  Statement s(db_,
              "SELECT region, features, variants, fingerprint, coalesce(model, ''), length(state), "
              "coalesce(updated_at, '') FROM regions ORDER BY region, fingerprint");
  while (s.step()) {
    out.push_back({.key = {s.text(0), s.text(1), s.text(2), s.text(3)},
                   .model = s.text(4),
                   .bytes = s.integer(5),
                   .updated_at = s.text(6)});
  }
  return out;
}

std::int64_t Database::history_rows() {
  std::lock_guard lock(mutex_);
  Statement s(db_, "SELECT count(*) FROM history");
  s.step();
  return s.integer(0);
}

}  // namespace autosched
