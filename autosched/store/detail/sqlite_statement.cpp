#include <autosched/store/detail/sqlite_statement.hpp>

#include <autosched/core/error.hpp>

#include <sqlite3.h>

namespace autosched::detail {

namespace {
thread_local int last_failure = SQLITE_OK;
}  // namespace

void fail_sqlite(sqlite3* db, int rc, const std::string& context) {
  last_failure = rc & 0xff;  // extended codes carry the primary one in the low byte
  throw_error(context + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
}

int last_sqlite_failure() noexcept { return last_failure; }

void exec_sql(sqlite3* db, const char* sql, const std::string& path) {
  if (const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr); rc != SQLITE_OK) {
    fail_sqlite(db, rc, "store " + path + ": ");
  }
}

Statement::Statement(sqlite3* db, const char* sql) : db_(db) {
  if (const int rc = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr); rc != SQLITE_OK) {
    fail_sqlite(db, rc, std::string("store: in ") + sql + ": ");
  }
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

StatementCache::Use StatementCache::get(sqlite3* db, const char* sql) {
  for (const Entry& e : entries_) {
    if (e.sql == sql) return Use(*e.statement);
  }
  entries_.push_back({sql, std::make_unique<Statement>(db, sql)});
  return Use(*entries_.back().statement);
}

void StatementCache::clear() noexcept { entries_.clear(); }

Statement& Statement::bind(int i, std::int64_t v) { return check(sqlite3_bind_int64(stmt_, i, v)); }

Statement& Statement::bind(int i, double v) { return check(sqlite3_bind_double(stmt_, i, v)); }

Statement& Statement::bind(int i, const std::string& v) {
  return check(sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
}

Statement& Statement::bind_bytes(int i, std::string_view v) {
  // sqlite3_bind_blob with a null pointer binds NULL, not an empty blob.
  return check(sqlite3_bind_blob64(stmt_, i, v.empty() ? "" : v.data(), v.size(), SQLITE_TRANSIENT));
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail_sqlite(db_, rc, "store: ");
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::integer(int col) { return sqlite3_column_int64(stmt_, col); }

double Statement::real(int col) { return sqlite3_column_double(stmt_, col); }

bool Statement::null(int col) { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

std::string Statement::text(int col) {
  const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  return t != nullptr ? std::string(t) : std::string();
}

std::string Statement::bytes(int col) {
  // The pointer first, then the size: SQLite's documented order, since
  // asking for the blob may convert the value.
  const auto* b = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
  const int n = sqlite3_column_bytes(stmt_, col);
  return b != nullptr ? std::string(b, static_cast<std::size_t>(n)) : std::string();
}

Statement& Statement::check(int rc) {
  if (rc != SQLITE_OK) fail_sqlite(db_, rc, "store: ");
  return *this;
}

std::int64_t single_integer(sqlite3* db, const char* sql) {
  Statement s(db, sql);
  s.step();
  return s.integer(0);
}

}  // namespace autosched::detail
