#include <autosched/store/store.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/system_info.hpp>
#include <autosched/core/text.hpp>
#include <autosched/store/detail/sqlite_statement.hpp>

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <mutex>

namespace autosched {

std::optional<std::string> store_path_from_environment() {
  if (auto v = environment::get("AUTOSCHED_DB")) {
    if (environment::means_no_file(*v)) return std::nullopt;
    std::string path(text::trim(*v));
    // A quoted tilde ('~/x.db', or a tilde set in a config file) reaches
    // us unexpanded; taken literally it made a directory named "~" in the
    // working directory. Expanded as the shell would have.
    if (path == "~" || path.starts_with("~/")) {
      if (auto home = environment::get("HOME"); home && !home->empty()) {
        path = *home + path.substr(1);
      } else {
        detail::warn("AUTOSCHED_DB=" + path + ": HOME is not set, so '~' is a directory named '~' here");
      }
    }
    return path;
  }
  std::string base;
  if (auto xdg = environment::get("XDG_CACHE_HOME"); xdg && !xdg->empty()) {
    base = *xdg;
  } else if (auto home = environment::get("HOME"); home && !home->empty()) {
    base = *home + "/.cache";
  } else {
    base = "/tmp";
  }
  return base + "/autosched/autosched.db";
}

namespace {
std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (char& c : raw) c = c == '\0' ? ' ' : c;
  return std::string(text::trim(raw));
}
}  // namespace

autosched::detail::Store::Store(const std::string& path, Database::Access access)
    : db_(path, access), fingerprint_(system_info().fingerprint), run_(db_.begin_run(fingerprint_, command_line())) {}

namespace {
void say_read_only(const std::string& path, const std::string& why) {
  detail::warn("store " + path + " is read-only for this process (" + why +
               "): runs start from what it holds, and nothing this run learns is kept");
}
}  // namespace

autosched::detail::Store* autosched::detail::Store::instance() {
  static autosched::detail::Store* store = []() -> autosched::detail::Store* {
    const auto path = store_path_from_environment();
    if (!path) return nullptr;
    try {
      // No writer sink for a read-only store: every write would be skipped.
      if (!Database::writable(*path)) {
        auto* s = new autosched::detail::Store(*path, Database::Access::read_only);  // lives as long as the process
        say_read_only(*path, "it or its directory cannot be written");
        return s;
      }
      const std::filesystem::path dir = std::filesystem::path(*path).parent_path();
      if (!dir.empty()) std::filesystem::create_directories(dir);
      autosched::detail::Store* s = nullptr;
      try {
        s = new autosched::detail::Store(*path, Database::Access::use);  // lives as long as the process: the writer uses it at exit
      } catch (const Error& e) {
        // Permissions allowed it but the system did not (a read-only mount):
        // SQLite's own code for it, as the database's open reads it.
        if (detail::last_sqlite_failure() != SQLITE_READONLY) throw;
        auto* ro = new autosched::detail::Store(*path, Database::Access::read_only);
        say_read_only(*path, "the file system refused a write");
        return ro;
      }
      BackgroundWriter::instance().add_sink(s);
      return s;
    } catch (const std::exception& e) {
      detail::warn("the store is off for this run: AUTOSCHED_DB=" + *path + ": " + e.what() +
                   " (set AUTOSCHED_DB to a writable path, or off)");
      return nullptr;
    }
  }();
  return store;
}

std::optional<std::string> autosched::detail::Store::load_state(const PointKey& point, const std::string& selector) {
  if (recording_disabled_by_fork()) return std::nullopt;  // the connection belongs to the parent
  PointKey key = point;
  key.fingerprint = fingerprint_;
  try {
    return db_.load_state(key, selector);
  } catch (const Error& e) {
    detail::warn(std::string("could not read a selector state; starting fresh: ") + e.what());
    return std::nullopt;
  }
}

void autosched::detail::Store::save_state(PointKey point, std::string selector, std::string state) {
  point.fingerprint = fingerprint_;
  BackgroundWriter::instance().post_task([this, point = std::move(point), selector = std::move(selector),
                                          state = std::move(state)] { db_.save_state(point, selector, state, run_); });
}

std::optional<std::string> autosched::detail::Store::load_blob(std::string_view kind, std::string_view key) {
  if (recording_disabled_by_fork()) return std::nullopt;  // the connection belongs to the parent
  const BlobKey k{std::string(kind), std::string(key), fingerprint_};
  try {
    return db_.load_blob(k);
  } catch (const Error& e) {
    detail::warn("could not read " + k.kind + " '" + k.key + "' from the store; starting without it: " + e.what());
    return std::nullopt;
  }
}

void autosched::detail::Store::save_blob(std::string kind, std::string key, std::string bytes) {
  if (recording_disabled_by_fork()) return;
  BackgroundWriter::instance().post_task([this, key = BlobKey{std::move(kind), std::move(key), fingerprint_},
                                          bytes = std::move(bytes)] { db_.save_blob(key, bytes, run_); });
}

std::optional<std::string> autosched::detail::Store::load_region(RegionKey key) {
  if (recording_disabled_by_fork()) return std::nullopt;
  key.fingerprint = fingerprint_;
  try {
    return db_.load_region(key);
  } catch (const Error& e) {
    detail::warn(std::string("could not read region '") + key.region + "' from the store; it explores: " + e.what());
    return std::nullopt;
  }
}

void autosched::detail::Store::save_region(RegionKey key, std::string model, Database::ComposeState compose) {
  if (recording_disabled_by_fork()) return;
  key.fingerprint = fingerprint_;
  BackgroundWriter::instance().post_task(
      [this, key = std::move(key), model = std::move(model), compose = std::move(compose)] {
        db_.update_region(key, model, compose, run_);
      });
}

void autosched::detail::Store::write(std::span<const InstanceRow> rows) { db_.insert_history(rows, run_, fingerprint_); }

}  // namespace autosched
