#include <autosched/store/detail/schema.hpp>

#include <autosched/store/detail/sqlite_statement.hpp>

#include <ctime>
#include <functional>
#include <set>
#include <sstream>

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
  cut_short INTEGER, instances INTEGER NOT NULL DEFAULT 1);
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

// Every column the store reads or writes, per table. A file with our
// application id that lacks one of them (an edited or half-migrated store)
// would fail every write after opening; open_checked() treats it as unusable.
struct ExpectedTable {
  const char* name;
  const char* columns;  ///< separated by blanks
  bool added_later;     ///< created on open when missing (regions, blobs)
};
constexpr ExpectedTable expected_tables[] = {
    {"runs", "id fingerprint command started_at pid host", false},
    {"points", "id name loop bucket p fingerprint portfolio", false},
    {"history",
     "id point run instance arm n p time_ns lib percent_imbalance cov stddev skewness kurtosis selector selector_ns "
     "reward explored cut_short",
     false},
    {"states", "point selector state run updated_at", false},
    {"regions", "id region features variants fingerprint model state run updated_at", true},
    {"blobs", "kind key fingerprint bytes run updated_at", true},
};

}  // namespace

std::string schema_mismatch(sqlite3* db) {
  for (const ExpectedTable& t : expected_tables) {
    if (!has_table(db, t.name)) {
      if (t.added_later) continue;  // an older store; a writer creates it on open
      return std::string("lacks table ") + t.name;
    }
    std::set<std::string, std::less<>> present;
    Statement info(db, (std::string("PRAGMA table_info(") + t.name + ")").c_str());
    while (info.step()) present.insert(info.text(1));
    std::istringstream columns(t.columns);
    for (std::string column; columns >> column;) {
      if (present.find(column) == present.end()) return std::string("lacks column ") + t.name + "." + column;
    }
  }
  return {};
}

void create_schema(sqlite3* db, const std::string& path, int version) {
  exec_sql(db, schema_1, path);
  exec_sql(db, ("PRAGMA application_id = " + std::to_string(store_application_id)).c_str(), path);
  exec_sql(db, ("PRAGMA user_version = " + std::to_string(version)).c_str(), path);
}

void add_later_tables(sqlite3* db, const std::string& path) {
  exec_sql(db, later_tables, path);
  // history.instances (how many short instances a row stands for) came
  // after schema 1; an older build writing to the file leaves it at 1.
  if (!has_column(db, "history", "instances")) {
    exec_sql(db, "ALTER TABLE history ADD COLUMN instances INTEGER NOT NULL DEFAULT 1", path);
  }
}

bool has_column(sqlite3* db, const char* table, const char* column) {
  Statement info(db, (std::string("PRAGMA table_info(") + table + ")").c_str());
  while (info.step()) {
    if (info.text(1) == column) return true;
  }
  return false;
}

std::string history_instances(sqlite3* db, const std::string& prefix) {
  return has_column(db, "history", "instances") ? prefix + "instances" : "1";
}

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
