#pragma once
/// @file
/// A prepared SQLite statement that finalizes itself, and the one way the
/// store turns an SQLite failure into autosched::Error. Private to the
/// store: nothing here is part of the public API, and SQLite's own header
/// stays out of it.

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace autosched::detail {

/// Throws autosched::Error with `context` followed by SQLite's message, and
/// remembers the primary result code for last_sqlite_failure().
[[noreturn]] void fail_sqlite(sqlite3* db, int rc, const std::string& context);

/// The primary SQLite result code of the last failure thrown on this thread:
/// opening tells a damaged file (move it aside) from a busy or unwritable
/// one (keep it, run without the store) by it.
[[nodiscard]] int last_sqlite_failure() noexcept;

/// Runs `sql` (statements without results); a failure names the store `path`.
void exec_sql(sqlite3* db, const char* sql, const std::string& path);

class Statement {
 public:
  /// Prepares `sql` on `db`; throws when it does not compile (the message
  /// quotes the statement).
  Statement(sqlite3* db, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, std::int64_t v);
  Statement& bind(int i, double v);  ///< NaN is stored as NULL (SQLite's choice)
  Statement& bind(int i, const std::string& v);
  /// Binds `v` as a BLOB: any bytes, zeros included.
  Statement& bind_bytes(int i, std::string_view v);

  /// True while a row is available.
  bool step();
  /// Ready to run again with new bindings.
  void reset();

  [[nodiscard]] std::int64_t integer(int col);
  [[nodiscard]] double real(int col);
  [[nodiscard]] bool null(int col);
  /// The column as text; empty for NULL.
  [[nodiscard]] std::string text(int col);
  /// The column's bytes as they were stored (a BLOB may hold zeros).
  [[nodiscard]] std::string bytes(int col);

 private:
  Statement& check(int rc);
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

/// The first column of the first row of `sql` (count(*), a PRAGMA value).
std::int64_t single_integer(sqlite3* db, const char* sql);

}  // namespace autosched::detail
