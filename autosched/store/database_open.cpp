// Opening the store: the health checks on its header, moving an unusable
// file aside, creating a fresh one, and the choice of journal.
#include <autosched/store/database.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/store/detail/schema.hpp>
#include <autosched/store/detail/sqlite_statement.hpp>
#include <autosched/store/detail/sqlite_transaction.hpp>
#include <autosched/store/detail/store_file.hpp>

#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

namespace autosched {

using detail::Statement;

namespace {

// Busy timeouts: a peer's transaction is milliseconds long, so waiting up to
// two seconds at open only gives up on a store held locked by someone else;
// the background writer, which no loop waits for, is more patient.
constexpr int open_busy_ms = 2000;
constexpr int write_busy_ms = 10000;

// What the file says about itself. Every statement is finished before the
// caller writes: an open read would turn a wait for a writer into a deadlock
// that SQLite reports as "locked" at once.
struct Header {
  std::int64_t application = 0, version = 0, objects = 0;
  std::string check = "ok";
};

Header read_header_now(sqlite3* db, const std::string& path) {
  Header h;
  h.application = detail::single_integer(db, "PRAGMA application_id");
  h.version = detail::single_integer(db, "PRAGMA user_version");
  h.objects = detail::single_integer(db, "SELECT count(*) FROM sqlite_master");
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
  if (const int rc = sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr); rc != SQLITE_OK) {
    detail::fail_sqlite(db, rc, "store: ");
  }
  try {
    Header h = read_header_now(db, path);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    return h;
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

/// Why a store with this header cannot be used; empty when it can.
std::string problem_with(const Header& h, int schema_version) {
  if (h.check != "ok") return "is corrupt (" + h.check + ")";
  if (h.application == 0 && h.objects == 0) return "is empty";
  if (h.application != detail::store_application_id) {
    return "belongs to another application (application_id " + std::to_string(h.application) + ")";
  }
  if (h.version > schema_version) {
    return "was written by a newer autosched (schema " + std::to_string(h.version) + ", this one reads " +
           std::to_string(schema_version) + ")";
  }
  return {};
}

}  // namespace

Database::Database(const std::string& path, Access access) : path_(path), access_(access) { open_checked(); }

Database::~Database() {
  prepared_.clear();  // finalized before the connection closes
  sqlite3_close_v2(db_);
}

void Database::close() noexcept {
  std::lock_guard lock(mutex_);
  prepared_.clear();
  sqlite3_close_v2(db_);
  db_ = nullptr;
}

std::unique_lock<std::mutex> Database::use() {
  std::unique_lock lock(mutex_);
  if (db_ == nullptr) open_checked();
  return lock;
}

void Database::exec(const char* sql) { detail::exec_sql(db_, sql, path_); }

void Database::open_checked() {
  namespace fs = std::filesystem;
  const bool inspect = access_ == Access::inspect;
  if (path_.empty() || path_ == ":memory:" || path_.rfind("file:", 0) == 0) {
    // An in-memory database keeps nothing across runs, which is the store's
    // whole purpose; SQLite's URI names are not paths we can move aside.
    detail::throw_error("store: '" + path_ + "' is not a file path (for no store, set AUTOSCHED_DB=off)");
  }
  if (const std::string kind = files::special_kind(path_); !kind.empty()) {
    detail::throw_error("store: " + path_ + " is " + kind + ", not a regular file");
  }
  if (access_ == Access::read_only || (inspect && !writable(path_))) {
    open_read_only();
    return;
  }
  for (int attempt = 0; attempt < 3; ++attempt) {
    // The file's identity before and after opening: if they differ, a peer
    // replaced it in between and this connection may hold the old file.
    const auto before = detail::file_identity(path_);
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | (inspect ? 0 : SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      const std::string m = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
      prepared_.clear();
      sqlite3_close_v2(db_);
      db_ = nullptr;
      detail::throw_error("store: cannot open " + path_ + ": " + m);
    }
    // Other processes (MPI ranks) may be writing: wait for them, but only
    // briefly while opening, so that a store another program keeps locked
    // costs a start-up a moment and a warning, not ten seconds.
    sqlite3_busy_timeout(db_, open_busy_ms);
    const auto identity = detail::file_identity(path_);
    if (before != identity && before != decltype(before){0, 0}) {
      prepared_.clear();
      sqlite3_close_v2(db_);
      db_ = nullptr;
      continue;
    }
    std::string problem;
    try {
      Header h = read_header(db_, path_);
      if (h.application == 0 && h.objects == 0 && !inspect) {
        // Another process may be creating it too: the write lock lets one
        // of them do it, and the other finds the tables there.
        detail::WriteTransaction create(db_, path_);
        if (detail::single_integer(db_, "SELECT count(*) FROM sqlite_master") == 0) {
          detail::create_schema(db_, path_, schema_version);
        }
        create.commit();
        h = read_header(db_, path_);
      }
      problem = problem_with(h, schema_version);
      if (problem.empty()) {
        // Our id and version but not our tables (edited by hand, damaged by
        // another tool): every write would fail, so it is unusable like a
        // corrupt file. Checked before anything is written to the file, so
        // that a file moved aside is kept as it was.
        if (const std::string mismatch = detail::schema_mismatch(db_); !mismatch.empty()) {
          problem = "has our application id but " + mismatch;
        }
      }
      if (problem.empty()) {
        if (!inspect) {
          choose_journal();
          detail::add_later_tables(db_, path_);
        }
        exec("PRAGMA foreign_keys=ON");
        sqlite3_busy_timeout(db_, write_busy_ms);
        return;
      }
    } catch (const Error& e) {
      const int code = detail::last_sqlite_failure();
      if (code != SQLITE_NOTADB && code != SQLITE_CORRUPT) {
        // Busy past the timeout, read-only, out of disk: the file may be
        // fine; leave it alone and let the caller run without a store.
        prepared_.clear();
        sqlite3_close_v2(db_);
        db_ = nullptr;
        throw;
      }
      problem = std::string("is unreadable (") + e.what() + ")";
    }
    prepared_.clear();
    sqlite3_close_v2(db_);
    db_ = nullptr;
    if (inspect) detail::throw_error("store " + path_ + " " + problem + "; it is not an autosched store");
    if (detail::foreign_file(path_)) {
      // Not SQLite at all: most likely a user's file that AUTOSCHED_DB names
      // by mistake. Renaming it would surprise its owner; leave it be.
      detail::throw_error("store: " + path_ + " is not an SQLite file; it is left as it is");
    }
    detail::DirectoryLock lock(fs::path(path_).parent_path());
    if (detail::file_identity(path_) != identity) continue;  // a peer moved it aside already: use theirs
    detail::move_aside(path_, problem);
  }
  detail::throw_error("store: cannot create a usable store at " + path_);
}

namespace {
/// `path` as the path part of an SQLite URI: '%', '?' and '#' and bytes
/// outside printable ASCII percent-encoded.
std::string uri_path(const std::string& path) {
  std::string out;
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '%' || c == '?' || c == '#' || byte <= 0x20 || byte >= 0x7f) {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", byte);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}
}  // namespace

bool Database::writable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) return true;
  const fs::path dir = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  return ::access(path.c_str(), W_OK) == 0 && ::access(dir.c_str(), W_OK) == 0;
}

void Database::open_read_only() {
  read_only_ = true;
  // immutable=1: no locks and no -shm file, which a directory this process
  // cannot write would refuse; right for a store nobody writes meanwhile.
  // A -wal file left behind (a writer alive, or one that crashed) holds
  // rows the file does not: then mode=ro, which reads through it.
  std::error_code ec;
  const auto wal_bytes = std::filesystem::file_size(path_ + "-wal", ec);
  const bool wal_left = !ec && wal_bytes > 0;
  const std::string uri = "file:" + uri_path(path_) + (wal_left ? "?mode=ro" : "?immutable=1");
  if (sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    const std::string m = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    prepared_.clear();
    sqlite3_close_v2(db_);
    db_ = nullptr;
    detail::throw_error("store: cannot open " + path_ + " read-only: " + m);
  }
  sqlite3_busy_timeout(db_, write_busy_ms);
  std::string problem;
  try {
    problem = problem_with(read_header(db_, path_), schema_version);
    if (problem.empty()) {
      if (const std::string mismatch = detail::schema_mismatch(db_); !mismatch.empty())
        problem = "has our application id but " + mismatch;
    }
  } catch (const Error& e) {
    problem = std::string("is unreadable (") + e.what() + ")";
  }
  if (!problem.empty()) {
    prepared_.clear();
    sqlite3_close_v2(db_);
    db_ = nullptr;
    // Not ours to move aside: it is left exactly as it is.
    detail::throw_error("store " + path_ + " " + problem + "; it is read-only here and left as it is");
  }
}

void Database::choose_journal() {
  const auto network = detail::network_filesystem(std::filesystem::path(path_).parent_path());
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
        const int code = detail::last_sqlite_failure();
        if (code != SQLITE_BUSY && code != SQLITE_LOCKED) throw;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  detail::warn("store " + path_ + ": could not switch to WAL; concurrent writers will wait for each other longer");
}

}  // namespace autosched
