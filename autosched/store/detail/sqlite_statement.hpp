#pragma once
/// @file
/// A prepared SQLite statement that finalizes itself, and the one way the
/// store turns an SQLite failure into autosched::Error. Private to the
/// store: nothing here is part of the public API, and SQLite's own header
/// stays out of it.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

/// Statements a connection compiles once and runs many times: compiling
/// costs SQLite 50 000-120 000 instructions, running a keyed lookup a few
/// thousand, and a program with a store looks up and writes each of its
/// loops' points (a 10-loop program spent 25 M instructions, 3% of its run
/// on 2 cores, compiling the same five statements). Each is keyed by the
/// address of its SQL literal. Not thread-safe: the connection's lock
/// guards it. Clear it before the connection closes.
class StatementCache {
 public:
  /// A cached statement in use: reset (its read snapshot released, its
  /// bindings cleared) when the handle goes, so that a statement left
  /// mid-result cannot hold the write-ahead log back.
  class Use {
   public:
    explicit Use(Statement& s) noexcept : s_(&s) {}
    ~Use() { s_->reset(); }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;
    Statement* operator->() const noexcept { return s_; }
    Statement& operator*() const noexcept { return *s_; }

   private:
    Statement* s_;
  };

  /// The statement of `sql` on `db`, compiled at its first use.
  Use get(sqlite3* db, const char* sql);
  /// Finalizes every statement (before the connection closes).
  void clear() noexcept;

 private:
  struct Entry {
    const char* sql;
    std::unique_ptr<Statement> statement;
  };
  std::vector<Entry> entries_;
};

/// The first column of the first row of `sql` (count(*), a PRAGMA value).
std::int64_t single_integer(sqlite3* db, const char* sql);

}  // namespace autosched::detail
