#include <autosched/store/detail/schema.hpp>

#include <autosched/store/detail/sqlite_statement.hpp>

#include <ctime>

namespace autosched::detail {

namespace {

constexpr const char* schema_1 = R"sql(
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

// regions: one row per tunable region id, features, variants and system,
// holding the region's model-file text (regions/model_file.hpp).
// blobs: front-ends' own state (pinning strategies, DAG models) as opaque
// bytes under a kind and a key, per system.
constexpr const char* later_tables = R"sql(
CREATE TABLE IF NOT EXISTS regions (
  id INTEGER PRIMARY KEY, region TEXT NOT NULL, features TEXT NOT NULL, variants TEXT NOT NULL,
  fingerprint TEXT NOT NULL, model TEXT, state TEXT NOT NULL, run INTEGER, updated_at TEXT,
  UNIQUE (region, features, variants, fingerprint));
CREATE TABLE IF NOT EXISTS blobs (
  kind TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, bytes BLOB NOT NULL, run INTEGER,
  updated_at TEXT, PRIMARY KEY (kind, key, fingerprint));
)sql";

}  // namespace

void create_schema(sqlite3* db, const std::string& path, int version) {
  exec_sql(db, schema_1, path);
  exec_sql(db, ("PRAGMA application_id = " + std::to_string(store_application_id)).c_str(), path);
  exec_sql(db, ("PRAGMA user_version = " + std::to_string(version)).c_str(), path);
}

void add_later_tables(sqlite3* db, const std::string& path) { exec_sql(db, later_tables, path); }

bool has_table(sqlite3* db, const char* name) {
  Statement s(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
  s.bind(1, std::string(name));
  s.step();
  return s.integer(0) > 0;
}

std::string utc_now() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace autosched::detail
